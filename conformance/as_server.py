"""``cosmoport conformance --as-server -- COMMAND``: a strict server for a client under test.

The kit runs the real server (:mod:`conformance.wire`) with its default limits, bots included
(``add_bot`` starts ``cosmoport bot`` programs), and opens one table for the client to find: a
two-seat table of the first ``--game`` (autostart, fixed seating) whose place 0 holds the
kit's random player, place 1 free. COMMAND is started like a tournament entrant, with
``{server}``, ``{table}`` (that table), ``{seat}`` (1), ``{game}``... and the ``COSMOPORT_*``
variables, but no seat token: the client does its own ``hello``, ``list``, ``create`` or
``join``. Every connection is pinged on a short interval.

The run ends when the program exits, or once nothing but pings has passed either way for
``--timeout`` seconds (the program is then stopped). The report lists every frame the server
refused, with the spec's meaning of the code: those count against the client (exit status 1),
except refusals a correct client can meet through other people or the server's state (a name
or place taken, a full table, a table gone, no bots or tables left: :data:`NOT_AGAINST`),
which are listed apart. Unanswered pings and pongs with a wrong id count too. A program that
never connected fails.
"""

from __future__ import annotations

import random
import shlex
from dataclasses import dataclass
from typing import Any

from twisted.internet import task

from conformance.kit import Options, new_referee
from conformance.opponent import Opponent
from conformance.pings import Pinger, late
from conformance.report import Printer, seconds
from conformance.wire import HOST, Frame, Wire, shown, spoken
from protocol import BOT_TOKEN_VARIABLE, ERROR_CODES
from server.limits import Limits
from tournament import programs

POLL_EVERY = 0.1
NOT_AGAINST = frozenset(
    {
        "lobby/name_taken",
        "lobby/seat_taken",
        "lobby/table_full",
        "lobby/no_such_table",
        "lobby/not_waiting",
        "lobby/no_bots",
        "table/already_started",
        "table/not_ready",
        "table/seat_connected",
        "table/too_soon",
        "limit/tables",
        "limit/bots",
        "limit/spectators",
        "server/internal",
        "server/storage",
        "server/storage_full",
        "server/shutting_down",
    }
)
"""Refusals a correct client can get because of other people or the server's state."""

SECTIONS = {
    "proto": "PROTOCOL.md sections 1, 2 and 9",
    "session/wrong_state": "PROTOCOL.md section 5",
    "session/bad_token": "PROTOCOL.md 6.6",
    "session/bad_version": "PROTOCOL.md section 3",
    "action": "PROTOCOL.md 6.4 and 6.10",
    "lobby": "PROTOCOL.md 6.2 and 6.3",
    "table": "PROTOCOL.md 6.3 and 6.9",
    "limit": "PROTOCOL.md section 8",
}


def spec_says(code: str) -> str:
    """What PROTOCOL.md says of an error code, and where."""
    where = SECTIONS.get(code) or SECTIONS.get(code.split("/")[0], "PROTOCOL.md section 10")
    return f"{ERROR_CODES.get(code, 'an error code this kit does not know')} ({where})"


@dataclass(frozen=True)
class OpenSeating(programs.Seating):
    """A tournament's seating without the seat token: the client finds its own place."""

    def environment(self) -> dict[str, str]:
        env = super().environment()
        del env[BOT_TOKEN_VARIABLE]
        return env


class StrictServer:
    """The observer of every connection: pings, progress lines, the time of the last news."""

    def __init__(self, reactor: Any, printer: Printer, timeout: float) -> None:
        self.reactor = reactor
        self.printer = printer
        self.timeout = timeout
        self.began = reactor.seconds()
        self.last_news = self.began
        self.wires: list[Wire] = []
        self.pingers: list[Pinger] = []
        self.finished = 0  # games the client played to game_over

    def _say(self, wire: Wire, text: str) -> None:
        at = self.reactor.seconds() - self.began
        self.printer.say(f"  {at:6.2f} s  connection {wire.number}: {text}")

    def connected(self, wire: Wire) -> None:
        self.wires.append(wire)
        self.last_news = self.reactor.seconds()
        self._say(wire, "opened")

    def before(self, frame: Frame) -> None:
        pass

    def after(self, frame: Frame) -> None:
        if frame.kind not in ("ping", "pong"):
            self.last_news = self.reactor.seconds()
        for error in frame.errors:
            code = str(error.get("code"))
            mark = "refused" if code in NOT_AGAINST else "BREAKS THE SPEC"
            self._say(frame.wire, f"{mark}: frame {frame.number} {frame.kind} → {code}")

    def sent(self, wire: Wire, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind in ("ping", "pong"):
            return
        self.last_news = self.reactor.seconds()
        if kind == "welcome":
            self.pingers.append(Pinger(self.reactor, wire, self.timeout))
            self._say(wire, f"welcome, {msg.get('name')!r}")
        elif kind in ("created", "joined", "resumed", "spectating", "started"):
            table = msg.get("table") or {}
            self._say(wire, f"{kind}, table {table.get('id')} ({table.get('game')})")
        elif kind == "game_over":
            self.finished += 1
            self._say(wire, f"game over at table {msg.get('table')}")
        elif kind == "left":
            self._say(wire, f"left table {msg.get('table')} ({msg.get('reason')})")

    def lost(self, wire: Wire) -> None:
        self.last_news = self.reactor.seconds()
        for pinger in self.pingers:
            if pinger.wire is wire:
                pinger.stop()
        self._say(wire, "closed by the server" if wire.dropped else "closed")


async def check(
    reactor: Any, options: Options, printer: Printer, keeper: programs.Programs | None = None
) -> int:
    """Serve the client ``options.command`` until it exits (or falls silent); the exit status
    (0: no frame broke the spec, 1: some did or it never connected, 2: it could not start)."""
    seed = options.seed if options.seed is not None else random.randrange(10**6)
    factory = new_referee(reactor, Limits(), seed, bots=True)
    keeper = keeper if keeper is not None else programs.Programs()
    observer = StrictServer(reactor, printer, options.timeout)
    factory.observer = observer
    lobby = factory.hub.lobby
    game = options.games[0]
    table = lobby.create(game, 2, None, seating="fixed", autostart=True)
    opponent = Opponent(reactor, lobby, table, 0, seed)
    lobby.flush()
    seating = OpenSeating(HOST, factory.port_number, table.id, 1, game, "", options.timeout)
    printer.say(f"Strict server for: {shlex.join(options.command)}")
    printer.say(
        f"listening on 127.0.0.1:{factory.port_number}; table {table.id} ({game}) waits with "
        f"place 1 free; --timeout {options.timeout:g} s"
    )
    log = open(f"{options.logs}/as-server.log", "w+b") if options.logs else None  # noqa: SIM115
    try:
        program = keeper.start(options.command, seating, log)
    except OSError as error:
        printer.say(f"cannot run {shlex.join(options.command)}: {error.strerror or error}")
        program = None
    try:
        if program is not None:
            status, ran, last_line = await _serve(reactor, observer, program, keeper)
    except BaseException:  # interrupted: no waiting
        factory.stop_now()
        keeper.close()
        raise
    opponent.stop()
    await factory.stop()
    keeper.close()
    if program is None:
        return 2
    if status is None:
        ending = f"stopped: nothing but pings for {options.timeout:g} s (after {seconds(ran)})"
    else:
        ending = f"{programs.exit_text(status)} after {seconds(ran)}"
    return _report(printer, observer, options.timeout, ending, last_line)


async def _serve(
    reactor: Any, observer: StrictServer, program: programs.Program, keeper: programs.Programs
) -> tuple[int | None, float, str]:
    """Until the program exits or falls silent: its exit status (None: stopped), how long it
    ran, and its last output line."""
    while (status := program.poll()) is None:
        if reactor.seconds() - observer.last_news > observer.timeout:
            break
        await task.deferLater(reactor, POLL_EVERY, lambda: None)
    last_line = program.last_line()
    ran = reactor.seconds() - observer.began
    await keeper.end(reactor, [program], grace=0.5 if status is not None else 0.0)
    for pinger in observer.pingers:
        pinger.stop()
    return status, ran, last_line


def _report(
    printer: Printer, observer: StrictServer, timeout: float, ending: str, last_line: str
) -> int:
    against: list[str] = []
    apart: list[str] = []
    frames = 0
    for wire in observer.wires:
        frames += len(wire.frames)
        late(wire, timeout)
        for frame in wire.frames:
            for error in frame.errors:
                code = str(error.get("code"))
                text = (
                    f"connection {wire.number}, frame {frame.number} "
                    f"({frame.at - observer.began:.2f} s): {shown(frame.msg)} → {code}: "
                    f"{error.get('message')}. The spec: {spec_says(code)}"
                )
                (apart if code in NOT_AGAINST else against).append(text)
        for error in wire.errors_unasked:  # a client silent for too long
            code = str(error.get("code"))
            if code in ("limit/heartbeat", "limit/idle"):
                against.append(
                    f"connection {wire.number}: closed by the server, {code}: "
                    f"{error.get('message')}. The spec: {spec_says(code)}"
                )
        for ping in wire.pings.values():
            if ping.missed:
                against.append(
                    f"connection {wire.number}: ping {ping.id!r} {ping.missed}. The spec: "
                    "answer every ping with a pong with the same id (PROTOCOL.md 6.8)"
                )
        for frame, why in wire.bad_pongs:
            against.append(
                f"connection {wire.number}, frame {frame.number}: {why}. The spec: a pong "
                "echoes the id of the ping it answers (PROTOCOL.md 6.8)"
            )
    style = printer.style
    printer.say()
    printer.say(style.bold("Report"))
    printer.say(
        f"  the program {ending}; {len(observer.wires)} connection(s), {frames} frames, "
        f"{observer.finished} game(s) played to the end"
    )
    printer.say(f"  it spoke {spoken(observer.wires)}")
    if last_line:
        printer.say(f"  its last output line: {last_line}")
    for text in apart:
        printer.say(f"  refused, not against the spec: {text}")
    for text in against:
        printer.say(style.bad(f"  BREAKS THE SPEC: {text}"))
    if not observer.wires:
        printer.say(style.bad("  it never connected: nothing to check"))
        return 1
    if not against and not any(wire.welcomed for wire in observer.wires):
        printer.say(style.bad("  it never got past hello: nothing to check"))
        return 1
    if against:
        printer.say(style.bad(f"{len(against)} problem(s) with what the client sent."))
        return 1
    printer.say(style.good("Nothing the client sent broke the spec."))
    return 0
