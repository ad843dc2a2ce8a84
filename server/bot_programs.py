"""Bots the server starts on request (``add_bot``): separate programs that join over loopback.

A bot is ``cosmoport bot HOST:PORT --table ID --level LEVEL``: an ordinary client that sees only
its own seat's messages. The lobby keeps a place for it (under the bot's name, with a token the
program gets in its environment and resumes with); the launcher counts the programs against
``Limits.max_bots``, logs what they print, and stops whatever still runs when their table
closes. What happens to the place when a program ends is the hub's call (:meth:`Hub.add_bot`).

How a program is started is injected (``spawn``), so tests run without real processes.
"""

from __future__ import annotations

import contextlib
import os
import site
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from twisted.internet import defer, protocol
from twisted.logger import Logger

from protocol import BOT_TOKEN_VARIABLE, ProtocolError
from protocol.fields import NAME_MAX
from server.places import Place

_log = Logger()

_PACKAGES_ROOT = str(Path(__file__).resolve().parent.parent)
"""The directory holding the ``cosmoport``, ``server``, ``client``... packages."""


def bot_python_path(existing: str | None, root: str = _PACKAGES_ROOT) -> str | None:
    """The PYTHONPATH of a bot program: our packages' directory first, then ``existing``.

    Not when that directory is a site directory (an installed wheel): Python finds it anyway,
    after the standard library, where it must stay.
    """
    sites = {*site.getsitepackages(), site.getusersitepackages()}
    ours = [] if os.path.realpath(root) in {os.path.realpath(s) for s in sites} else [root]
    return os.pathsep.join([*ours, *([existing] if existing else [])]) or None


Spawn = Callable[[list[str], dict[str, str], "BotProcess"], Any]
"""Starts a program: (argv, environment, process protocol)."""


class BotProcess(protocol.ProcessProtocol):
    """One running bot program."""

    def __init__(
        self,
        launcher: BotLauncher,
        table_id: int,
        place: Place,
        level: str,
        address: str | None = None,
    ) -> None:
        self.launcher = launcher
        self.table_id = table_id
        self.place = place
        self.name = place.name
        self.level = level
        self.address = address  # who asked for it (its share), None: the server itself
        self.running = True
        self._partial_out = b""
        self._partial_err = b""

    def outReceived(self, data: bytes) -> None:
        # What a bot says of its game (seated, game over) the host's log says already: detail.
        self._partial_out = self._log_lines(self._partial_out + data, _log.debug)

    def errReceived(self, data: bytes) -> None:
        # A bot writes to stderr only when something went wrong: shown even with --quiet.
        self._partial_err = self._log_lines(self._partial_err + data, _log.warn)

    def _log_lines(self, data: bytes, log: Callable[..., None]) -> bytes:
        *lines, partial = data.split(b"\n")
        for line in lines:
            text = line.decode("utf-8", "replace").rstrip()
            if text:
                log("bot {name}: {text}", name=self.name, text=text)
        return partial

    def processEnded(self, reason: Any) -> None:
        self.running = False
        self.launcher.ended(self)

    def stop(self) -> None:
        if self.running and self.transport is not None:
            with contextlib.suppress(Exception):  # already gone
                self.transport.signalProcess("TERM")


class BotLauncher:
    """Starts bot programs for places the lobby keeps for them, and keeps track of them."""

    def __init__(
        self,
        spawn: Spawn | None,
        max_bots: int,
        python: str = sys.executable,
        per_address: int | None = None,
    ) -> None:
        self.spawn = spawn
        self.max_bots = max_bots
        self.per_address = max_bots if per_address is None else per_address
        self.python = python
        self.address: tuple[str, int] | None = None  # where bots connect; set once listening
        self.running: list[BotProcess] = []
        self.on_ended: Callable[[BotProcess], None] | None = None
        self._idle_waiters: list[defer.Deferred[None]] = []

    def check(self, address: str | None = None, replacing: BotProcess | None = None) -> None:
        """Raise the protocol error that explains why no bot can start now, if one does.

        ``address``: who asks (one address gets only its share of the bots; None: the server
        itself, for a bot it restarts). ``replacing``: a running program about to be stopped
        (replaced), not counted.
        """
        if self.spawn is None or self.address is None or self.max_bots <= 0:
            raise ProtocolError("lobby/no_bots", "this server does not start bots")
        others = [p for p in self.running if p is not replacing]
        if len(others) >= self.max_bots:
            raise ProtocolError(
                "limit/bots",
                f"the server already runs {self.max_bots} bots (max_bots); try again later",
            )
        mine = sum(1 for p in others if p.address == address)
        if address is not None and mine >= self.per_address:
            raise ProtocolError(
                "limit/bots",
                f"your address already has {self.per_address} bots running "
                "(bots_per_address); the others are for other people",
            )

    def start(
        self,
        table_id: int,
        place: Place,
        level: str,
        token: str,
        seed: int,
        address: str | None = None,
        replacing: BotProcess | None = None,
    ) -> BotProcess:
        """Start ``cosmoport bot`` for ``place``; it takes the place back with ``token``.

        The token travels in the environment, not on the command line, where any user of the
        machine could read it.
        """
        self.check(address, replacing)
        assert self.spawn is not None and self.address is not None
        host, port = self.address
        target = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        # -P: the server's working directory is not put on the bot's module path, so a file
        # there called client.py (or cosmoport.py...) cannot stand in for ours; our own
        # packages' directory goes first on PYTHONPATH instead.
        argv = [
            self.python, "-P", "-m", "cosmoport", "bot", target, "--table", str(table_id),
            "--level", level, "--name", bot_name(place.name, level), "--seed", str(seed),
        ]  # fmt: skip
        env = {**os.environ, BOT_TOKEN_VARIABLE: token}
        path = bot_python_path(os.environ.get("PYTHONPATH"))
        if path:
            env["PYTHONPATH"] = path
        process = BotProcess(self, table_id, place, level, address)
        self.running.append(process)
        try:
            self.spawn(argv, env, process)
        except Exception:
            self.running.remove(process)
            _log.failure("starting a bot")
            raise ProtocolError("server/internal", "the bot program could not start") from None
        _log.info(
            "started a bot program for {name} at table {table}", name=place.name, table=table_id
        )
        return process

    def ended(self, process: BotProcess) -> None:
        if process in self.running:
            self.running.remove(process)
        if self.on_ended is not None:
            try:
                self.on_ended(process)
            except Exception:
                _log.failure("after the end of {name}", name=process.name)
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

    def spawn(argv: list[str], env: dict[str, str], process: BotProcess) -> Any:
        return reactor.spawnProcess(process, argv[0], argv, env=env)

    return spawn


def bot_name(place_name: str, level: str) -> str:
    """The name a bot program says hello with: the place's own (``Normal bot 2``) for a bot
    added to a waiting table; for one that takes over a person's seat, one that says whose
    (``Normal bot for Bob``), so that the host's log never shows a bot as the person."""
    own = f"{level.capitalize()} bot"
    if place_name.startswith(own + " ") and place_name[len(own) + 1 :].isdigit():
        return place_name
    return f"{own} for {place_name}"[:NAME_MAX].rstrip()
