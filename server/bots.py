"""Bots the server starts on request (``add_bot``): separate programs that join over loopback.

A bot is ``cosmoport bot HOST:PORT --table ID --seat SLOT --level LEVEL``: an ordinary client
that sees only its own seat's messages. The launcher keeps the place free for it until the
program has sat down or ended, counts the programs against ``Limits.max_bots``, logs what they
print, and stops whatever still runs when their table closes.

How a program is started is injected (``spawn``), so tests run without real processes.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable
from typing import Any

from twisted.internet import defer, protocol
from twisted.logger import Logger

from protocol import ProtocolError
from server.table import WAITING, Table

_log = Logger()

Spawn = Callable[[list[str], "BotProcess"], Any]


class BotProcess(protocol.ProcessProtocol):
    """One running bot program."""

    def __init__(self, launcher: BotLauncher, table_id: int, slot: int, name: str) -> None:
        self.launcher = launcher
        self.table_id = table_id
        self.slot = slot
        self.name = name
        self.running = True
        self._partial = b""

    def outReceived(self, data: bytes) -> None:
        self._log_lines(data)

    def errReceived(self, data: bytes) -> None:
        self._log_lines(data)

    def _log_lines(self, data: bytes) -> None:
        lines = (self._partial + data).split(b"\n")
        self._partial = lines.pop()
        for line in lines:
            text = line.decode("utf-8", "replace").rstrip()
            if text:
                _log.info("bot {name}: {text}", name=self.name, text=text)

    def processEnded(self, reason: Any) -> None:
        self.running = False
        self.launcher.ended(self)

    def stop(self) -> None:
        if self.running and self.transport is not None:
            with contextlib.suppress(Exception):  # already gone
                self.transport.signalProcess("TERM")


class BotLauncher:
    """Starts bot programs for tables and keeps track of them."""

    def __init__(self, spawn: Spawn | None, max_bots: int, python: str = sys.executable) -> None:
        self.spawn = spawn
        self.max_bots = max_bots
        self.python = python
        self.address: tuple[str, int] | None = None  # where bots connect; set once listening
        self.running: list[BotProcess] = []
        self._idle_waiters: list[defer.Deferred[None]] = []

    def launch(self, table: Table, level: str) -> tuple[int, str]:
        """Start a bot for a free place of ``table``; returns (slot, name)."""
        if self.spawn is None or self.address is None or self.max_bots <= 0:
            raise ProtocolError("lobby/no_bots", "this server does not start bots")
        if len(self.running) >= self.max_bots:
            raise ProtocolError(
                "limit/bots", f"the server already runs {self.max_bots} bots; try again later"
            )
        if table.state != WAITING:
            raise ProtocolError("lobby/not_waiting", f"table {table.id} is no longer waiting")
        reserved = {p.slot for p in self.running if p.table_id == table.id}
        free = [
            slot
            for slot, place in enumerate(table.places)
            if place is None and slot not in reserved
        ]
        if not free:
            raise ProtocolError("lobby/table_full", f"every place at table {table.id} is taken")
        slot = free[0]
        taken = {p.name for p in table.held} | {p.name for p in self.running}
        number = 1
        while f"{level.capitalize()} bot {number}" in taken:
            number += 1
        name = f"{level.capitalize()} bot {number}"
        host, port = self.address
        target = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        argv = [
            self.python, "-m", "cosmoport", "bot", target,
            "--table", str(table.id), "--seat", str(slot), "--level", level, "--name", name,
        ]  # fmt: skip
        process = BotProcess(self, table.id, slot, name)
        self.running.append(process)
        try:
            self.spawn(argv, process)
        except Exception:
            self.running.remove(process)
            _log.failure("starting a bot")
            raise ProtocolError("server/internal", "the bot program could not start") from None
        _log.info("started {name} for table {table}", name=name, table=table.id)
        return slot, name

    def ended(self, process: BotProcess) -> None:
        if process in self.running:
            self.running.remove(process)
        if not self.running:
            waiters, self._idle_waiters = self._idle_waiters, []
            for waiter in waiters:
                waiter.callback(None)

    def when_idle(self) -> defer.Deferred[None]:
        """Fires once no bot program runs (at once if none does)."""
        if not self.running:
            return defer.succeed(None)
        waiter: defer.Deferred[None] = defer.Deferred()
        self._idle_waiters.append(waiter)
        return waiter

    def table_closed(self, table_id: int) -> None:
        """Stop the bots of a closed table that are still running."""
        for process in list(self.running):
            if process.table_id == table_id:
                process.stop()

    def stop_all(self) -> None:
        for process in list(self.running):
            process.stop()


def reactor_spawn(reactor: Any) -> Spawn:
    """A ``spawn`` that starts the program with ``reactor.spawnProcess``."""

    def spawn(argv: list[str], process: BotProcess) -> Any:
        return reactor.spawnProcess(process, argv[0], argv, env=dict(os.environ))

    return spawn
