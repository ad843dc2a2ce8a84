"""Tournament games over the protocol: a loopback server per process, and programs of one's own.

A game is played over the network when its event asks for it, or when a seat is a program
(``cmd:./mybot``). Each process that plays games (a worker) runs one Cosmoport server on
``127.0.0.1`` on a free port. For every game it opens a table with the game's seed, keeps each
place for its seat's entrant (place N is engine seat N; seat 0 moves first), and the game
starts by itself once every seat is taken. Built-in bots sit down as ordinary clients in this
process; a program is started and takes its seat like any client: connect, ``hello``, then
``resume`` with the seat's token (PROTOCOL.md 6.6), or ``hello`` with the token.

**A program started for one game** (``cmd:./mybot --fast``) gets in its command line, in any
argument, these placeholders replaced (other braces stay as written):

    {server}  host:port of the server      {table}  the table's id
    {host}    its address (127.0.0.1)      {seat}   your engine seat (0 moves first)
    {port}    its port                     {game}   cosmic_run or alien_artifacts

and in its environment ``COSMOPORT_SERVER`` (host:port), ``COSMOPORT_HOST``,
``COSMOPORT_PORT``, ``COSMOPORT_TABLE``, ``COSMOPORT_SEAT``, ``COSMOPORT_GAME``,
``COSMOPORT_SEAT_TOKEN`` (the secret that takes the seat: it is never on the command line) and
``COSMOPORT_SECONDS`` = ``COSMOPORT_TIMEOUT`` (the seconds allowed per decision). Its stdin is
empty; its stdout and stderr go to ``<log dir>/game-<number>-seat-<seat>.log`` (appended;
nowhere without a log dir). So ``cmd:cosmoport bot {server} --table {table} --level random``
is an entrant: ``cosmoport bot`` takes its seat with ``$COSMOPORT_SEAT_TOKEN``. After
``game_over`` a program should exit; one second later it is sent ``SIGTERM``, two seconds after
that ``SIGKILL``, with everything it started (it runs in a process group of its own).

**A program kept running between games** (``cmd[reuse]:./mybot``) is started once per worker
process, as written (no placeholders), with ``COSMOPORT_REUSE=1`` in its environment and none
of the variables above. Each game comes as one line of JSON on its stdin::

    {"server": "127.0.0.1:40123", "host": "127.0.0.1", "port": 40123, "table": 7, "seat": 1,
     "game": "cosmic_run", "token": "...", "timeout": 60.0}

It connects, takes the seat with ``token``, plays until ``game_over`` (or until ``left`` with
reason ``closed``: the game was stopped, say by another seat's forfeit), closes that
connection and reads the next line. EOF on stdin means no more games: exit then. A game that
seats the entrant twice starts a second copy. Its output goes to the log of its current game.
A kept program that ended is replaced for the next game; one that forfeits is stopped.

**Forfeits.** A program's problem costs it that game, never the event. The first forfeit ends
the game: the seat that forfeits ranks last, the others by their score at that moment.

- ``crash``: the program ended before its game did (or could not be started at all, e.g. no
  such file); the detail has its exit status and the last line of its log.
- ``no_show``: it had not taken its seat ``timeout`` seconds after it was started (or, kept
  running, after it was sent the game).
- ``timeout``: it took longer than ``timeout`` seconds over one decision, counted from the
  moment its seat had to decide (the update listing its legal actions went out) to the moment
  its action was applied.
- ``illegal``: the server refused its ``act`` with ``action/illegal`` (an action not among
  those listed). Other refusals (``action/stale``...) cost nothing but time.

- ``time``: on a game clock (``job.clocks``), its decision took longer than its bank and
  increment held. Every seat is measured the same way, built-in bots included, from the moment
  the server sends the update that asks it to decide to the moment its action is applied. With
  ``on_time="stand-in"`` the greedy stand-in moves for it instead (the update's events start
  with ``stand_in``, why ``timeout``; its own late ``act`` is refused as stale) and its bank is
  empty from then on. The clock is in every update's ``clock`` map (PROTOCOL.md 6.11):
  ``decision`` is what is left of the increment, then the seat's bank counts down.

An in-process agent (``py:``, :mod:`tournament.agents`) sits down as a built-in bot does and
forfeits as a program does: ``crash`` when it raises, ``illegal`` when its answer is no legal
action, ``timeout`` and ``time`` as above.

A program is never started again within a game. Built-in bots forfeit only on time. A game that
reaches ``job.max_decisions`` unfinished is adjudicated: scored as it stands. A failure of the
host itself (and a game running past ``max(600, 50 * timeout)`` seconds) raises
:class:`HostError` out of :func:`play_networked`.
"""

from __future__ import annotations

import atexit
import json
import os
import random
import threading
import time
from collections.abc import Callable
from typing import IO, Any

from twisted.internet import defer, task, threads

import games
from ai.bots import LEVELS
from ai.stand_in import greedy_stand_in
from client.net.session import Client
from games import records
from protocol import ProtocolError
from server.limits import Limits
from server.service import ServerFactory, listen
from server.store import MEMORY, Store
from server.table import FINISHED, Place, Table
from tournament import programs
from tournament.agents import AgentError
from tournament.clock import GameClock
from tournament.entrants import Entrant, bot_seed
from tournament.host_seats import BotDriver, HostError, TableClock
from tournament.job import GameJob, Timing, new_record, result

HOST = "127.0.0.1"
WATCHDOG_MIN = 600.0
WATCHDOG_PER_TIMEOUT = 50.0
"""The host gives a game up after ``max(WATCHDOG_MIN, WATCHDOG_PER_TIMEOUT * timeout)`` s."""
POLL_EVERY = 0.05
"""Seconds between looks at whether a game's programs still run."""

LIMITS = Limits(
    rate=1000.0,
    burst=2000,
    act_rate=1e6,
    act_burst=10**6,
    connections_per_address=10**6,
    max_connections=10**6,
    max_tables=10**6,
    tables_per_address=10**6,
    vacant_table_ttl=1e9,
    empty_table_ttl=1e9,
    abandoned_table_ttl=1e9,
    finished_table_ttl=1e9,
)
"""Every client is ours, on loopback, and every table is closed by the host when its game
ends: the server's limits only have to stay out of the way."""


def play_networked(job: GameJob, clock: Callable[[], float] = time.perf_counter) -> dict[str, Any]:
    """Play ``job`` over the protocol on this process's loopback server; the same result dict
    as :func:`tournament.game.play_in_process`. ``clock`` measures the decisions (seconds).
    Raises :class:`HostError`."""
    try:
        host = _host()
        return threads.blockingCallFromThread(
            host.reactor, lambda: defer.ensureDeferred(_Game(host, job, clock).play())
        )
    except HostError:
        raise
    except Exception as error:
        text = " ".join(str(error).split()) or type(error).__name__
        message = f"game {job.number} could not be played over the network: {text}"
        raise HostError(message) from error


def close_programs() -> None:
    """Stop the programs this process keeps running between games (``reuse``), and any still
    running: EOF on their stdin, a moment to exit, then terminated. Registered with atexit;
    call it when no game is being played."""
    host = _current
    if host is not None and host.pid == os.getpid():
        host.programs.close()


atexit.register(close_programs)


# --- the host of this process ------------------------------------------------------------------


class _Host:
    """This process's reactor (in a thread of its own), its loopback server and its programs.

    The reactor is a private instance, not Twisted's global one: whoever calls us may run the
    global reactor already (a Twisted program, pytest-twisted), and a process forked from one
    that played games must start afresh."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.reactor = _new_reactor()
        self.programs = programs.Programs()
        thread = threading.Thread(
            target=self.reactor.run,
            kwargs={"installSignalHandlers": False},
            name="cosmoport-tournament-host",
            daemon=True,
        )
        thread.start()
        self.port, self.factory = threads.blockingCallFromThread(self.reactor, self._listen)

    def _listen(self) -> tuple[int, ServerFactory]:
        store = Store.open(MEMORY)
        listening, factory = listen(
            self.reactor,
            HOST,
            0,
            LIMITS,
            bots=False,
            rng=random.Random(0),
            store=store,
            stand_in=greedy_stand_in,
        )
        port: Any = listening  # an IListeningPort, whose getHost() has a port
        return int(port.getHost().port), factory


def _new_reactor() -> Any:
    try:
        from twisted.internet.epollreactor import EPollReactor

        return EPollReactor()
    except ImportError:
        pass
    try:
        from twisted.internet.pollreactor import PollReactor

        return PollReactor()
    except ImportError:
        from twisted.internet.selectreactor import SelectReactor

        return SelectReactor()


_lock = threading.Lock()
_current: _Host | None = None


def _host() -> _Host:
    global _current
    with _lock:
        if _current is None or _current.pid != os.getpid():
            _current = _Host()
        return _current


def _forget_parent() -> None:
    # A forked child has neither the parent's reactor thread nor its programs.
    global _current, _lock
    _current, _lock = None, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_parent)


# --- one game ----------------------------------------------------------------------------------


class _Game:
    """One game at a table of the host's server, watched from inside it (a table watcher)."""

    def __init__(
        self, host: _Host, job: GameJob, clock: Callable[[], float] = time.perf_counter
    ) -> None:
        self.host = host
        self.job = job
        self.reactor = host.reactor
        self.lobby = host.factory.hub.lobby
        self.game = games.get(job.game)
        self.timing = Timing(job.players)
        self.record = new_record(job, records.timestamp(time.time()))
        self.table: Table | None = None
        self.tokens: list[str] = []
        self.clients: list[Client] = []
        self.programs: dict[int, programs.Program] = {}  # by seat
        self.calls: list[Any] = []  # delayed calls to cancel at the end
        self.deadline: Any = None  # the deciding program's
        controls = [job.control(seat) for seat in range(job.players)]
        self.clock = GameClock(controls, clock)
        self.table_clock: TableClock | None = None
        self.stand_ins = [0] * job.players
        self.before: games.State | None = None  # the state the deciding timed seat saw
        self.decisions = 0
        self.adjudicated = False
        self.poll: task.LoopingCall | None = None
        self.outcome: str | None = None  # "over", "forfeit" or "error", once decided
        self.forfeiter: int | None = None
        self.state: games.State | None = None  # as it was when the game ended
        self.ended: defer.Deferred[dict[str, Any] | None] = defer.Deferred()

    async def play(self) -> dict[str, Any]:
        began = time.perf_counter()
        try:
            self._open()
            self._launch()
            forfeit = await self.ended
            assert self.state is not None
            if forfeit is None and not self.adjudicated:
                records.finish(self.record, self.state, records.timestamp(time.time()))
            seconds = time.perf_counter() - began
            return result(
                self.job, self.record, self.state, self.timing, forfeit, seconds,
                adjudicated=self.adjudicated, banks=self.clock.spent(), stand_ins=self.stand_ins,
            )  # fmt: skip
        finally:
            await self._clean_up()

    # --- setting up --------------------------------------------------------------------------

    def _open(self) -> None:
        job = self.job
        if not -(2**63) <= job.seed < 2**63:
            raise HostError(f"game {job.number}: a seed over the network must fit in 64 bits")
        if len(job.entrants) != job.players:
            raise HostError(
                f"game {job.number}: {len(job.entrants)} entrants for {job.players} seats"
            )
        table = self.lobby.create(
            job.game, job.players, job.options, seating="fixed", autostart=True, seed=job.seed
        )
        self.table = table
        # The game clock rides in the table's turn-clock slot, so that every update carries it
        # in its ``clock`` map; the table asks it nothing else that matters (see TableClock).
        self.table_clock = TableClock(self, job.players)
        table.turns = self.table_clock
        table.watchers.append(self)
        taken: set[str] = set()
        for seat, entrant in enumerate(job.entrants):
            name = entrant.name[:24]
            if name in taken:
                name = f"{name[:19]} #{seat}"
            taken.add(name)
            _place, token = self.lobby.reserve_bot(table, name, entrant.kind, slot=seat)
            self.tokens.append(token)
        self.lobby.flush()

    def _launch(self) -> None:
        job = self.job
        watchdog = max(WATCHDOG_MIN, WATCHDOG_PER_TIMEOUT * job.timeout)
        error = HostError(f"game {job.number} was still running after {watchdog:g} s: given up")
        self.calls.append(self.reactor.callLater(watchdog, self._fail, error))
        self.poll = task.LoopingCall(self._check_programs)
        self.poll.clock = self.reactor
        self.poll.start(POLL_EVERY, now=False)
        if job.log_dir is not None:
            try:
                os.makedirs(job.log_dir, exist_ok=True)
            except OSError as problem:
                raise HostError(f"cannot make the log folder {job.log_dir}: {problem}") from None
        for seat, entrant in enumerate(job.entrants):
            if entrant.is_program and self.outcome is None:
                self._start_program(seat, entrant)
        for seat, entrant in enumerate(job.entrants):
            if not entrant.is_program and self.outcome is None:
                d = defer.ensureDeferred(self._seat_bot(seat, entrant))
                d.addErrback(self._bot_failed, seat)

    def _start_program(self, seat: int, entrant: Entrant) -> None:
        job, table = self.job, self.table
        assert table is not None
        seating = programs.Seating(
            HOST, self.host.port, table.id, seat, job.game, self.tokens[seat], job.timeout
        )
        log = self._open_log(seat)
        try:
            if entrant.reuse:
                key = (entrant.name, entrant.command)
                program: programs.Program = self.host.programs.take(
                    key, entrant.command, seating, log
                )
            else:
                program = self.host.programs.start(entrant.command, seating, log)
        except OSError as error:
            if log is not None:
                log.close()
            reason = error.strerror or str(error)
            self._forfeit(seat, "crash", f"could not be started ({reason}: {entrant.command[0]})")
            return
        self.programs[seat] = program
        self.calls.append(self.reactor.callLater(job.timeout, self._check_seated, seat))

    def _open_log(self, seat: int) -> IO[bytes] | None:
        if self.job.log_dir is None:
            return None
        path = os.path.join(self.job.log_dir, f"game-{self.job.number}-seat-{seat}.log")
        try:
            return open(path, "a+b")  # the program owns it (read back for its last line)
        except OSError as error:
            raise HostError(f"cannot write the log {path}: {error.strerror}") from None

    async def _seat_bot(self, seat: int, entrant: Entrant) -> None:
        """A built-in entrant takes its seat as a client of the server, like any program."""
        timed = self.job.control(seat) is not None
        bot = entrant.make_bot(
            self.game, bot_seed(self.job.seed, seat), timed, self.job.players, seat
        )
        client = Client(self.reactor, HOST, self.host.port, f"Seat {seat}", labels=False)
        self.clients.append(client)
        threaded = entrant.kind in LEVELS or entrant.is_agent
        driver = BotDriver(self, seat, client, bot, threaded=threaded)
        driver.clocked = timed and not entrant.own_budget
        client.on_message = driver.handle
        client.on_status = driver.status
        await client.start()
        await client.request({"type": "resume", "token": self.tokens[seat]})

    def _bot_failed(self, failure: Any, seat: int) -> None:
        error = failure.check(AgentError) and failure.value
        if isinstance(error, AgentError) and self.job.entrants[seat].is_agent:
            self._forfeit(seat, error.reason, error.detail)
            return
        text = " ".join(failure.getErrorMessage().split())
        self._fail(HostError(f"game {self.job.number}: the bot in seat {seat} failed: {text}"))

    # --- watching (called by the table) ------------------------------------------------------

    def started(self, table: Table) -> None:
        self._next_turn()

    def applied(self, table: Table, place: Place, action: games.Action) -> None:
        if self.outcome is not None:
            return
        seat = place.seat
        assert seat is not None and self.table_clock is not None
        taken, flagged, stood_in = self.table_clock.last
        self.timing.add(seat, taken)
        if self.deadline is not None and self.deadline.active():
            self.deadline.cancel()
        self.deadline = None
        if flagged and not stood_in and self.job.on_time != "stand-in":
            # Its action came in the instant between its bank running dry and the host's
            # noticing: it is too late all the same.
            self._forfeit(seat, "time", self._out_of_time(seat, taken), self.before)
            return
        if stood_in:
            self.stand_ins[seat] += 1
        records.add_action(self.record, seat, action, records.timestamp(time.time()))
        self.decisions += 1
        if table.state == FINISHED:
            self._end(None)
        elif self.job.max_decisions is not None and self.decisions >= self.job.max_decisions:
            self.adjudicated = True
            self._end(None)
        else:
            self._next_turn()

    def refused(self, table: Table, place: Place, action: list[Any], error: ProtocolError) -> None:
        if self.outcome is not None:
            return
        seat = place.slot  # fixed seating: the place is the seat
        late = error.code in ("action/stale", "action/not_your_turn")
        if late and self.stand_ins[seat]:
            return  # a bot's own move, too late: the stand-in has moved for it
        if not self.job.entrants[seat].is_own:
            self._fail(HostError(f"the server refused seat {seat}'s {action!r}: {error}"))
        elif error.code == "action/illegal":
            self._forfeit(seat, "illegal", f"sent {json.dumps(action)}, not a legal action")

    def _next_turn(self) -> None:
        assert self.table is not None and self.table.engine is not None
        assert self.table_clock is not None
        engine = self.table.engine
        seat = engine.current_player
        self.table_clock.ensure_begun()
        if seat is None:
            return
        left = self.clock.left(seat)
        if left is not None:
            self.before = engine.clone()
        program = self.job.entrants[seat].is_own
        if program and (left is None or self.job.timeout <= left):
            timeout = self.job.timeout
            detail = f"no action within {timeout:g} s"
            self.deadline = self.reactor.callLater(timeout, self._forfeit, seat, "timeout", detail)
        elif left is not None:
            self.deadline = self.reactor.callLater(max(0.0, left), self._flag, seat)

    def _out_of_time(self, seat: int, taken: float) -> str:
        control = self.job.control(seat)
        shown = "" if control is None else f" ({control.describe()})"
        return f"ran out of time{shown}: its decision took {taken:.3f} s"

    def _flag(self, seat: int) -> None:
        """``seat``'s bank should be dry now: it loses on time, or the stand-in moves for it."""
        table, clock = self.table, self.table_clock
        if self.outcome is not None or table is None or clock is None or self.clock.seat != seat:
            return
        left = self.clock.left(seat)
        if left is not None and left > 0:  # the reactor was early: look again then
            self.deadline = self.reactor.callLater(left, self._flag, seat)
            return
        taken = self.clock.clock() - self.clock.since
        if self.job.on_time != "stand-in":
            self.clock.stop()
            self._forfeit(seat, "time", self._out_of_time(seat, taken), self.before)
            return
        clock.standing_in = True
        try:
            table.check_time()  # the table's stand-in plays; ``applied`` follows
        finally:
            clock.standing_in = False

    def _check_seated(self, seat: int) -> None:
        table = self.table
        assert table is not None
        place = table.places[seat]
        if self.outcome is None and not table.started and not (place and place.connected):
            detail = f"had not taken its seat {self.job.timeout:g} s after it was started"
            self._forfeit(seat, "no_show", detail)

    def _check_programs(self) -> None:
        for seat, program in self.programs.items():
            if self.outcome is None and program.poll() is not None:
                self._forfeit(seat, "crash", program.describe_exit())

    # --- the end -----------------------------------------------------------------------------

    def _forfeit(
        self, seat: int, reason: str, detail: str, state: games.State | None = None
    ) -> None:
        if self.outcome is None:
            self.forfeiter = seat
            self._end({"seat": seat, "reason": reason, "detail": detail}, state)

    def _end(self, forfeit: dict[str, Any] | None, state: games.State | None = None) -> None:
        """The game is decided: keep the state as it is now, and finish outside the table's
        call stack (this may be called from inside ``Table.act``)."""
        if self.outcome is not None:
            return
        self.outcome = "over" if forfeit is None else "forfeit"
        engine = self.table.engine if self.table is not None else None
        job = self.job
        if state is not None:
            self.state = state
        elif engine is not None:
            self.state = engine.clone()
        else:
            self.state = self.game.new(job.players, job.seed, job.options or None)
        self.reactor.callLater(0, self.ended.callback, forfeit)

    def _fail(self, error: Exception) -> None:
        if self.outcome is None:
            self.outcome = "error"
            self.reactor.callLater(0, self.ended.errback, error)

    async def _clean_up(self) -> None:
        """Close the table, the bots' connections and the programs, whatever happened."""
        self.outcome = self.outcome or "error"
        for call in [*self.calls, self.deadline]:
            if call is not None and call.active():
                call.cancel()
        if self.poll is not None and self.poll.running:
            self.poll.stop()
        table = self.table
        if table is not None:
            table.watchers.remove(self)
            self.lobby.close(table)
            self.lobby.flush()
            self.lobby.store.forget(table.id)  # the result keeps the record; memory stays flat
        closing = [client.close() for client in self.clients]
        kept = self.host.programs
        ending, stopping = [], []
        for seat, program in self.programs.items():
            if seat == self.forfeiter:
                stopping.append(program)
            elif isinstance(program, programs.KeptProgram):
                entrant = self.job.entrants[seat]
                kept.give_back((entrant.name, entrant.command), program)
            else:
                ending.append(program)
        await defer.gatherResults(
            [
                defer.ensureDeferred(kept.end(self.reactor, stopping, grace=0.0)),
                defer.ensureDeferred(kept.end(self.reactor, ending)),
            ]
        )
        done = defer.DeferredList(closing, consumeErrors=True)
        await done.addTimeout(5.0, self.reactor).addErrback(lambda _: None)
