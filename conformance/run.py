"""One run of the program under test: one table, one game, one scripted interference.

The referee opens a two-seat table (fixed seating: the program's place is its engine seat),
seats its in-process :class:`~conformance.opponent.Opponent` in the other place, keeps the
program's place with a token, and starts the program exactly as a tournament starts a ``cmd:``
entrant (:func:`tournament.programs.start` with a :class:`~tournament.programs.Seating`). The
table starts by itself once the program has taken its seat. What the run does besides depends
on its :class:`~conformance.plans.Plan`:

- ``game``: nothing; the game is played to ``game_over``.
- ``refusals``: the program's first legitimate ``act`` is refused with ``action/illegal`` (by
  the referee, as the server words it); once it has played on, its next legitimate ``act`` is
  refused with ``action/stale`` (the referee moves the table's version on by one, and the
  server itself finds the act stale). After each, the referee sends a ``snapshot`` of the game
  as it now stands. A program that answered both the ``error`` and that ``snapshot`` sends two
  actions for one decision: the second one's refusal (``action/stale`` or
  ``action/not_your_turn``, at the refused version) is excused, once.
- ``resume``: once the program has made :data:`DROP_AFTER` decisions, the referee cuts its
  connection as the table asks it for the next one, and expects it back with its latest token.
- ``close``: once it has made :data:`CLOSE_AFTER` decisions, the referee closes the table
  mid-game (as a tournament does when another seat forfeits).

Whatever the plan, after ``game_over`` the referee closes the table (as a tournament does), and
the program must have ended by itself :data:`QUIET` seconds after the close, with status 0,
without connecting again.
"""

from __future__ import annotations

import contextlib
from typing import IO, Any

from twisted.internet import defer, task

import games
from conformance.opponent import Opponent
from conformance.pings import Pinger
from conformance.plans import CLOSE_AFTER, DROP_AFTER, QUIET, CannotStart, Outcome, Plan, Setup
from conformance.wire import HOST, Frame, Wire, shown
from protocol import ProtocolError, validate
from server.table import FINISHED, PLAYING, Place, Table
from tournament import programs
from tournament.entrants import PROGRAM

POLL_EVERY = 0.05
PROGRAM_NAME = "Program"
SEAT_ONLY = frozenset({"act", "undo", "leave", "start", "add_bot"})
"""Requests a seat may send and the lobby may not: once the referee has closed the table, such
a request crossing the `left` on the wire is refused with session/wrong_state, not held against
the program."""


class GameRun:
    """Plays one :class:`Plan`; the observer of its connections and a watcher of its table."""

    def __init__(self, setup: Setup, plan: Plan, number: int) -> None:
        self.setup = setup
        self.plan = plan
        self.number = number
        self.reactor = setup.reactor
        self.lobby = setup.factory.hub.lobby
        self.outcome = Outcome(plan)
        self.done: defer.Deferred[None] = defer.Deferred()
        self.table: Table | None = None
        self.place: Place | None = None
        self.opponent: Opponent | None = None
        self.program: programs.Program | None = None
        self.tokens: dict[str, str] = {}  # token -> where the program got it
        self.seat_wire: Wire | None = None
        self.pingers: list[Pinger] = []
        self.calls: dict[str, Any] = {}  # name -> delayed call
        self.poll: task.LoopingCall | None = None
        self.began = self.turn_began = 0.0
        self.dropped_at: float | None = None
        self.closed_at: float | None = None
        self.illegal_version: int | None = None
        self.over = False  # cleaned up: late calls change nothing

    # --- the run ---------------------------------------------------------------------------

    async def play(self) -> Outcome:
        setup, plan = self.setup, self.plan
        setup.factory.observer = self
        self.began = self.reactor.seconds()
        table = self.lobby.create(
            plan.game, 2, None, seating="fixed", autostart=True, seed=plan.seed
        )
        self.table = table
        table.watchers.append(self)
        self.opponent = Opponent(self.reactor, self.lobby, table, 1 - plan.seat, plan.seed + 1)
        self.place, token = self.lobby.reserve_bot(table, PROGRAM_NAME, PROGRAM, slot=plan.seat)
        self.tokens[token] = "the token from $COSMOPORT_SEAT_TOKEN"
        self.lobby.flush()
        seating = programs.Seating(
            HOST, setup.factory.port_number, table.id, plan.seat, plan.game, token, setup.timeout
        )
        try:
            self.program = setup.programs.start(setup.command, seating, self._log())
        except OSError as error:
            self.lobby.close(table)
            raise CannotStart(f"{error.strerror or error}: {setup.command[0]}") from None
        self._later("seat", setup.timeout, self._check_seated)
        self._later("cap", setup.cap, self._fail, f"the run was still going after {setup.cap:g} s")
        self.poll = task.LoopingCall(self._poll)
        self.poll.clock = self.reactor
        self.poll.start(POLL_EVERY, now=False)
        await self.done  # (interrupted, the kit's keeper stops the program: nothing to wait for)
        await self._clean_up()
        self.outcome.seconds = self.reactor.seconds() - self.began
        return self.outcome

    def _log(self) -> IO[bytes] | None:
        if self.setup.logs is None:
            return None
        path = f"{self.setup.logs}/{self.number}-{self.plan.key}-{self.plan.game}.log"
        return open(path, "w+b")  # the program's: closed when it is reaped

    def _later(self, name: str, seconds: float, what: Any, *args: Any) -> None:
        self._cancel(name)
        self.calls[name] = self.reactor.callLater(seconds, what, *args)

    def _cancel(self, name: str) -> None:
        call = self.calls.pop(name, None)
        if call is not None and call.active():
            call.cancel()

    def _fail(self, text: str) -> None:
        if not self.outcome.failure:
            self.outcome.failure = text
        self._finish()

    def _finish(self) -> None:
        if not self.done.called:
            self.done.callback(None)

    async def _clean_up(self) -> None:
        self.over = True
        for name in list(self.calls):
            self._cancel(name)
        if self.poll is not None and self.poll.running:
            self.poll.stop()
        if self.opponent is not None:
            self.opponent.stop()
        table = self.table
        if table is not None:
            with contextlib.suppress(ValueError):
                table.watchers.remove(self)
            if self.closed_at is None:
                self.lobby.close(table)  # the run failed: its table goes (the program is told)
                self.lobby.flush()
        program = self.program
        if program is not None:
            self.outcome.last_line = program.last_line()
            grace = 0.0 if self.outcome.still_running or self.outcome.failure else 0.5
            await self.setup.programs.end(self.reactor, [program], grace=grace)
        for pinger in self.pingers:
            pinger.stop()
        for wire in self.outcome.wires:
            if wire.is_open and wire.connection is not None:
                wire.connection.abort()
        deadline = self.reactor.seconds() + 1.0
        while any(w.is_open for w in self.outcome.wires) and self.reactor.seconds() < deadline:
            await task.deferLater(self.reactor, POLL_EVERY, lambda: None)

    # --- the program's process -------------------------------------------------------------

    def _poll(self) -> None:
        program = self.program
        status = None if program is None else program.poll()
        if status is None or program is None:
            return
        outcome = self.outcome
        if self.closed_at is not None or outcome.finished:
            outcome.exit_status = status
            closed = self.closed_at
            outcome.exit_after = 0.0 if closed is None else self.reactor.seconds() - closed
            self._finish()
            return
        if not outcome.wires:
            when = "before it connected"
        elif not outcome.seated:
            when = "before it took its seat"
        else:
            when = "before the game ended"
        self._fail(f"{programs.exit_text(status)} {when}")

    def _check_seated(self) -> None:
        if self.outcome.seated:
            return
        timeout = self.setup.timeout
        if not self.outcome.wires:
            self._fail(f"did not connect within {timeout:g} s of being started")
            return
        story = "; ".join(tell(w) for w in self.outcome.wires)
        self._fail(f"had not taken its seat {timeout:g} s after it was started ({story})")

    # --- the connections (Observer) --------------------------------------------------------

    def connected(self, wire: Wire) -> None:
        self.outcome.wires.append(wire)
        if self.closed_at is not None:
            self.outcome.reconnects += 1

    def sent(self, wire: Wire, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "welcome":
            self.pingers.append(Pinger(self.reactor, wire, self.setup.timeout))
        elif kind == "resumed":
            self.tokens[msg["token"]] = "the token from `resumed`"
            self.seat_wire = wire
            self.outcome.seated = True
            if self.dropped_at is not None and self.outcome.back_after is None:
                self.outcome.back_after = self.reactor.seconds() - self.dropped_at
                self._cancel("back")
                self.reactor.callLater(0, self._next_turn)

    def before(self, frame: Frame) -> None:
        if self.plan.key != "refusals" or not self._legitimate(frame):
            return
        outcome, table = self.outcome, self.table
        assert table is not None and frame.msg is not None
        if outcome.stage == 0:
            action = frame.msg["action"]
            frame.forge = ProtocolError(
                "action/illegal",
                f"{action!r} is not a legal action now (the conformance referee refuses it on "
                "purpose: play on)",
            )
            frame.provoked = "action/illegal"
            self.illegal_version = table.version
            outcome.stage = 1
        elif outcome.stage == 2:
            # The table's version moves on as if someone else had acted: the server itself
            # then finds the act stale (versions only grow; nothing else changes).
            table.version += 1
            frame.provoked = "action/stale"
            outcome.stage = 3

    def after(self, frame: Frame) -> None:
        if frame.kind == "act" and not frame.errors and frame.forge is None:
            frame.applied = True
        if frame.provoked:
            wire, table, place = frame.wire, self.table, self.place
            if wire.connection is not None and wire.connection.session is not None:
                assert table is not None and place is not None
                wire.connection.session.send(table.snapshot(place.seat))
            self._next_turn()  # a fresh allowance to act again
            return
        codes = {e.get("code") for e in frame.errors}
        closed = self.closed_at is not None and frame.at >= self.closed_at
        if closed and codes == {"session/wrong_state"} and frame.kind in SEAT_ONLY:
            frame.excused = True  # it crossed the `left` on the wire
            self.outcome.crossed += 1
            return
        if (
            self.illegal_version is not None
            and not self.outcome.excused
            and frame.kind == "act"
            and frame.msg is not None
            and frame.msg.get("version") == self.illegal_version
            and codes & {"action/stale", "action/not_your_turn"}
        ):
            frame.excused = True
            code = sorted(str(c) for c in codes)[0]
            self.outcome.excused = (
                f"a second act at version {self.illegal_version} (answering both the error and "
                f"the snapshot) got {code}: excused"
            )
        if "session/bad_token" in codes and frame.msg is not None:
            self._bad_token(frame)

    def _bad_token(self, frame: Frame) -> None:
        assert frame.msg is not None
        token = frame.msg.get("token")
        origin = self.tokens.get(token, "") if isinstance(token, str) else ""
        latest = list(self.tokens.values())[-1]
        if origin and origin != latest:
            text = (
                f"came back with {origin}, which had died (its pong to the ping after `resumed` "
                f"retired it): the token to keep is {latest}"
            )
        elif origin:
            text = f"came back with {origin}, but it was refused"
        else:
            text = "came back with a token the referee never gave it"
        self.outcome.resume_trouble.append(f"{text} ({frame.kind} → session/bad_token)")

    def lost(self, wire: Wire) -> None:
        for pinger in self.pingers:
            if pinger.wire is wire:
                pinger.stop()
        table = self.table
        playing = table is not None and table.state == PLAYING and self.closed_at is None
        if wire is self.seat_wire and not wire.dropped and playing and not self.over:
            assert table is not None
            self.outcome.notes.append(f"it closed its connection at version {table.version}")

    def _legitimate(self, frame: Frame) -> bool:
        """An ``act`` from the program's seat, on its turn, at the current version, of a legal
        action: one a real server would apply."""
        table, place, msg = self.table, self.place, frame.msg
        if msg is None or msg.get("type") != "act" or frame.wire is not self.seat_wire:
            return False
        try:
            validate(msg)
        except ProtocolError:
            return False
        conn = frame.wire.connection
        session = conn.session if conn is not None else None
        if table is None or place is None or session is None or session.place is not place:
            return False
        engine = table.engine
        if table.state != PLAYING or engine is None or engine.current_player != place.seat:
            return False
        return msg["version"] == table.version and tuple(msg["action"]) in engine.legal_actions()

    # --- the table (a table watcher) -------------------------------------------------------

    def started(self, table: Table) -> None:
        self._next_turn()

    def applied(self, table: Table, place: Place, action: games.Action) -> None:
        outcome = self.outcome
        if place is self.place:
            outcome.decisions += 1
            outcome.slowest = max(outcome.slowest, self.reactor.seconds() - self.turn_began)
            if outcome.stage in (1, 3):
                outcome.stage += 1
        self._cancel("decision")
        if table.state == FINISHED:
            outcome.finished = True
            outcome.closed = "after game_over"
            self.reactor.callLater(0, self._close_table, "after game_over")
            return
        mine = table.engine is not None and table.engine.current_player == self.plan.seat
        if self.plan.key == "close" and outcome.decisions >= CLOSE_AFTER and not mine:
            # While the other seat is to move: no action of the program's is on its way.
            if self.opponent is not None:
                self.opponent.stop()
            self.reactor.callLater(0, self._close_table, "mid-game")
            return
        self._next_turn()
        ready = outcome.decisions >= DROP_AFTER and not outcome.dropped
        if self.plan.key == "resume" and mine and ready:
            self.reactor.callLater(0, self._drop)

    def undone(self, table: Table, place: Place, action: games.Action) -> None:
        self._next_turn()

    def refused(self, table: Table, place: Place, action: list[Any], error: ProtocolError) -> None:
        if place is self.place and error.code == "action/illegal":
            self._fail(f"sent {shown_action(action)}, which is not one of the legal actions")

    def _next_turn(self) -> None:
        self._cancel("decision")
        table = self.table
        if table is None or table.state != PLAYING or table.engine is None:
            return
        if table.engine.current_player != self.plan.seat or self.closed_at is not None:
            return
        self.turn_began = self.reactor.seconds()
        if self.dropped_at is not None and self.outcome.back_after is None:
            return  # away: the "back" deadline runs instead
        self._later("decision", self.setup.timeout, self._too_slow, table.version)

    def _too_slow(self, version: int) -> None:
        timeout = self.setup.timeout
        stage = self.outcome.stage
        if stage in (1, 3):
            code = "action/illegal" if stage == 1 else "action/stale"
            self._fail(
                f"did not act again within {timeout:g} s of the referee's {code} and the "
                f"snapshot of version {version} that followed it"
            )
            return
        notes = "".join(f"; {note}" for note in self.outcome.notes)
        self._fail(f"did not act within {timeout:g} s when version {version} asked it to{notes}")

    # --- the referee's interferences -------------------------------------------------------

    def _drop(self) -> None:
        wire = self.seat_wire
        if self.outcome.dropped or wire is None or wire.connection is None or not wire.is_open:
            return
        self.outcome.dropped = True
        self.dropped_at = self.reactor.seconds()
        self._cancel("decision")
        wire.connection.cut()
        self._later("back", self.setup.timeout, self._not_back)

    def _not_back(self) -> None:
        assert self.dropped_at is not None
        later = [w for w in self.outcome.wires if w.opened >= self.dropped_at]
        timeout = self.setup.timeout
        if not later:
            self._fail(f"did not connect again within {timeout:g} s of the drop")
            return
        story = "; ".join(tell(w) for w in later)
        self._fail(f"did not take its seat back within {timeout:g} s of the drop ({story})")

    def _close_table(self, when: str) -> None:
        table = self.table
        if self.closed_at is not None or table is None or self.over:
            return
        self.closed_at = self.reactor.seconds()
        self.outcome.closed = when
        self._cancel("decision")
        self._cancel("seat")
        self.lobby.close(table)
        self.lobby.flush()
        self._later("quiet", QUIET, self._still_running)

    def _still_running(self) -> None:
        self.outcome.still_running = True
        self._finish()


def shown_action(action: Any) -> str:
    return shown({"action": action})[len("{action: ") : -1]


def tell(wire: Wire, frames: int = 6) -> str:
    """What the program sent on one connection, in short: ``hello, resume → session/bad_token``."""
    if not wire.frames:
        return f"connection {wire.number}: nothing sent"
    parts = []
    for frame in wire.frames[:frames]:
        codes = ", ".join(str(e.get("code")) for e in frame.errors)
        parts.append(frame.kind + (f" → {codes}" if codes else ""))
    more = f", and {len(wire.frames) - frames} more" if len(wire.frames) > frames else ""
    return f"connection {wire.number}: " + ", ".join(parts) + more
