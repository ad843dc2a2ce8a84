"""A LAN party played for real, for the scenario test and the soak bench: a `cosmoport serve`
process, four people at their consoles, what each of them should see, and the invariants that
must hold after every step.

- :class:`ServerProcess` runs ``python -m cosmoport serve`` on 127.0.0.1 with a database and a
  log file under the party's folder (a reader thread copies its output there line by line:
  no pipe is ever left undrained). The first start takes any free port and reads it from the
  line ``listening on 127.0.0.1:PORT``; restarts reuse it. Each start is a process group of its
  own, with the bot programs it starts, so that nothing outlives :meth:`ServerProcess.close`.
- :class:`Party` drives four people (Ann, Bob, Cy, Dee) with the project's own
  :class:`client.net.session.Client` (a subclass that also hands over the replies it gets), on a
  private Twisted reactor running in a thread of its own (:class:`ReactorThread`: pytest-twisted
  already runs the global one in the main thread), reached with ``blockingCallFromThread``.
  Every message a console receives is kept. Each step is a coroutine on that reactor; every
  wait in it is bounded (:data:`WAIT`) and waits on messages, statuses, Deferreds or process
  output, never polls. Time passes on purpose only where that is the point: a slow host
  (:data:`SLOW_HOST`), and keeping each console under the server's rate limit (:class:`Pace`).
- The model (:class:`Player`, :class:`TableModel`) follows what the people were told, so that a
  step knows what to expect. :meth:`Party.check` holds the invariants: no console ever sees a
  table's version go down; every console at a started table sees what the server's database
  replays to for its seat (:func:`server.store.load_record`, :func:`games.records.final_state`);
  the seat that must decide can (a bot's seat does not stay stuck); every finished game's
  ``record`` replays to its end; the server's log holds no ``Traceback``. Restarts check that
  nothing acknowledged was lost and that the outage was not charged to anyone's turn clock.

Known bugs are not worked around here: the harness expects what README.md and PROTOCOL.md
promise, and fails where the server or the client does not keep the promise.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from twisted.internet import defer, task, threads
from twisted.python.failure import Failure

from client.net.connection import ConnectionClosed, ServerError
from client.net.session import RETRY_DELAYS, Client
from client.net.tokens import TokenStore
from games import records
from protocol import decode, encode
from server.hub import BOT_RETURN_GRACE
from server.store import StoreError
from server.store_records import load_record

T = TypeVar("T")
Message = dict[str, Any]

HOST = "127.0.0.1"
OTHER_HOST = "localhost"
"""Another address of the same server (the one a person may type instead)."""
WAIT = 30.0
"""Seconds any one wait may take: generous, never tight (a slow machine is not a failure)."""
STEP_BOUND = 300.0
"""Seconds a whole step may take (a step waits on several things, each bounded by WAIT)."""
NAMES = ("Ann", "Bob", "Cy", "Dee")
FAST_RETRIES: tuple[float, ...] = (0.1,) * 10 + (0.25,) * 20 + (0.5,) * 40
"""Ann, Bob and Cy reconnect quickly (about 26 s of attempts); Dee keeps the console's own
delays (:data:`client.net.connection.RETRY_DELAYS`), as a console started by hand would."""
GAMES = ("cosmic_run", "alien_artifacts")
PLAYER_RANGE = {"cosmic_run": (1, 4), "alien_artifacts": (2, 5)}
TIMER, BANK = 1, 1
"""The turn timer of timed tables: a second per decision and a second of bank."""
BOT_LEVEL = "random"
TAKEOVER_AFTER = 60.0
"""The server's ``bot_takeover_after`` (``cosmoport serve`` keeps the default)."""
TAKEOVER_SLACK = 3.0
"""Our clock and the server's differ a little: near the limit either answer is right."""
VACANT_SOON = 20.0
"""A waiting table nobody holds a place at closes after 30 s: we stop choosing it after 20."""
SLOW_HOST = 3.3
"""Seconds a slow host takes to start the server again: long enough that a console with the
console's own retry delays (0.5, 1, 2, 4 s...) comes back some seconds after a quick one."""
CUT_ATTEMPTS = 6
"""Reads of the database before a console's view must match it (a bot or the stand-in may
move between the read and the console's catching up)."""

OFFLINE, LOBBY, SEATED, WATCHING = "offline", "lobby", "seated", "watching"
WAITING, PLAYING, FINISHED, CLOSED = "waiting", "playing", "finished", "closed"
LISTENING = re.compile(rb"listening on 127\.0\.0\.1:(\d+)")
ROOT = Path(__file__).resolve().parents[2]


# --- the private reactor ---------------------------------------------------------------------


def _new_reactor() -> Any:
    try:
        from twisted.internet.epollreactor import EPollReactor

        return EPollReactor()
    except ImportError:
        from twisted.internet.selectreactor import SelectReactor

        return SelectReactor()


class ReactorThread:
    """A Twisted reactor of our own, running in a daemon thread (not the global reactor, which
    pytest-twisted runs in the main thread). :meth:`call` runs a coroutine on it and blocks the
    caller until it is done, with a bound."""

    def __init__(self) -> None:
        self.reactor = _new_reactor()
        self.pid = os.getpid()
        self._thread = threading.Thread(
            target=self.reactor.run,
            kwargs={"installSignalHandlers": False},
            name="lan-party-reactor",
            daemon=True,
        )
        self._thread.start()

    def call(self, work: Callable[[], Coroutine[Any, Any, T]], timeout: float) -> T:
        def begin() -> defer.Deferred[T]:
            done = defer.ensureDeferred(work())
            done.addTimeout(timeout, self.reactor)
            return done

        try:
            result: T = threads.blockingCallFromThread(self.reactor, begin)
        except defer.TimeoutError:
            raise AssertionError(f"a step ran past its bound of {timeout:g} s") from None
        return result


_shared: ReactorThread | None = None
_shared_lock = threading.Lock()


def shared_reactor() -> ReactorThread:
    """This process's reactor thread, started on first use (a reactor cannot be started twice,
    so every party of a process shares it)."""
    global _shared
    with _shared_lock:
        if _shared is None or _shared.pid != os.getpid():
            _shared = ReactorThread()
        return _shared


# --- the server process ----------------------------------------------------------------------

_running: set[ServerProcess] = set()
"""Every server not closed yet: killed at exit if a run ends without its teardown."""


@atexit.register
def _kill_leftovers() -> None:
    for server in list(_running):
        server.close()


class ServerProcess:
    """``cosmoport serve`` on 127.0.0.1, its database and log under ``root``, started again on
    the same port and database after each stop."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.db = root / "server.db"
        self.log = root / "server.log"
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self.started: list[subprocess.Popen[bytes]] = []
        self.readers: list[threading.Thread] = []
        self.tracebacks: list[str] = []
        self.kills = 0
        self.terms = 0
        self._log_lock = threading.Lock()
        home = root / "home"
        # The server runs the code of the tree this file belongs to (not whatever an installed
        # package points at).
        path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
        self.env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": path}
        for variable in ("XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
            folder = home / variable.lower()
            folder.mkdir(parents=True, exist_ok=True)
            self.env[variable] = str(folder)

    def start(self) -> int:
        """Start the server (any free port the first time, the same one after) and wait for the
        line that says where it listens. Returns the port."""
        generation = len(self.started) + 1
        self._write(f"=== lan_party: server start {generation}, port {self.port or 'any'} ===\n")
        argv = [sys.executable, "-m", "cosmoport", "serve", "--host", HOST, "--port",
                str(self.port), "--db", str(self.db), "--no-announce", "--verbose"]  # fmt: skip
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            cwd=self.root,
            env=self.env,
            start_new_session=True,  # its own process group: its bots go with it at close()
        )
        self.started.append(proc)
        self.proc = proc
        _running.add(self)
        ready = threading.Event()
        found: list[int] = []
        reader = threading.Thread(
            target=self._drain,
            args=(proc, generation, ready, found),
            name=f"lan-party-server-{generation}",
            daemon=True,
        )
        reader.start()
        self.readers.append(reader)
        if not ready.wait(WAIT) or not found:
            raise AssertionError(
                f"server start {generation} did not say `listening on {HOST}:PORT` within "
                f"{WAIT:g} s; the end of {self.log}:\n{self.tail()}"
            )
        if self.port and found[0] != self.port:
            raise AssertionError(f"the server came back on port {found[0]}, not {self.port}")
        self.port = found[0]
        return self.port

    def _drain(
        self,
        proc: subprocess.Popen[bytes],
        generation: int,
        ready: threading.Event,
        found: list[int],
    ) -> None:
        """Copy the server's output to the log, line by line, until it ends."""
        assert proc.stdout is not None
        for line in proc.stdout:
            self._write(line.decode("utf-8", "replace"))
            if not found:
                match = LISTENING.search(line)
                if match:
                    found.append(int(match.group(1)))
                    ready.set()
            if b"Traceback" in line:
                self.tracebacks.append(f"server start {generation}: {line.decode().strip()}")
        ready.set()  # it ended: ``found`` says whether it ever listened

    def _write(self, text: str) -> None:
        with self._log_lock, self.log.open("a", encoding="utf-8") as out:
            out.write(text)

    def tail(self, lines: int = 30) -> str:
        with self._log_lock:
            text = self.log.read_text(encoding="utf-8") if self.log.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self, number: signal.Signals) -> int:
        """Send ``number`` (SIGKILL or SIGTERM) to the server alone (its bots live on, as they
        would) and wait for it to end; returns its exit status."""
        proc = self.proc
        assert proc is not None, "the server is not running"
        proc.send_signal(number)
        try:
            code = proc.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            raise AssertionError(
                f"the server did not end within {WAIT:g} s of {number.name}"
            ) from None
        self.readers[-1].join(WAIT)
        self.proc = None
        if number == signal.SIGKILL:
            self.kills += 1
        else:
            self.terms += 1
        return code

    def close(self) -> None:
        """Kill every process any start of the server began (its bots included)."""
        _running.discard(self)
        for proc in self.started:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=WAIT)
        for reader in self.readers:
            reader.join(WAIT)
        for proc in self.started:
            if proc.stdout is not None:
                proc.stdout.close()
        self.proc = None


# --- the people and what they know -----------------------------------------------------------


class RecordingClient(Client):
    """The project's :class:`Client`, which also hands every reply it gets to ``on_reply``:
    those to our requests and those to the ones it makes by itself when it reconnects
    (``resume``, ``spectate``). A refused request is handed over as an ``error``."""

    def __init__(self, *args: Any, on_reply: Callable[[Message], None], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.on_reply = on_reply

    def request(self, msg: Message) -> defer.Deferred[Message]:
        d = super().request(msg)
        d.addCallbacks(self._replied, self._refused, errbackArgs=(msg,))
        return d

    def _replied(self, reply: Message) -> Message:
        self.on_reply(reply)
        return reply

    def _refused(self, failure: Failure, msg: Message) -> Failure:
        error = failure.value
        if isinstance(error, ServerError):
            refusal = {"type": "error", "code": error.code, "message": error.message}
            self.on_reply({**refusal, "request": msg.get("type")})
        return failure


class Pace:
    """Our side of the server's rate limit (PROTOCOL.md 8: 20 messages a second, 40 at once,
    per connection): a smaller bucket refilled more slowly, so that the scripted people never
    send faster than a client may (applied actions do not count)."""

    RATE = 15.0
    BURST = 30.0

    def __init__(self) -> None:
        self.connection: Any = None
        self.tokens = self.BURST
        self.last = 0.0

    def take(self, connection: Any, now: float) -> float:
        """Take a token; the seconds to wait before sending."""
        if connection is not self.connection:  # a new connection: hello, resume, pong spent
            self.connection, self.tokens, self.last = connection, self.BURST - 3, now
        self.tokens = min(self.BURST, self.tokens + (now - self.last) * self.RATE) - 1.0
        self.last = now
        return 0.0 if self.tokens >= 0 else -self.tokens / self.RATE


@dataclass(eq=False)
class Player:
    """One person: their console (a client), where they are as far as they were told, and
    everything it received."""

    name: str
    tokens: TokenStore
    retries: tuple[float, ...]
    client: RecordingClient | None = None
    console: int = 0
    """How many consoles this person started; messages of an earlier one are kept, not used."""
    host: str = HOST
    where: str = OFFLINE
    table: int | None = None
    """The table they sit or watch at (as their session does now)."""
    held: int | None = None
    """The table of the seat held for them (sitting there, or away from it)."""
    seat: int | None = None
    """Their engine seat at ``held`` (None before the start)."""
    log: list[tuple[int, int, Message]] = field(default_factory=list)
    statuses: list[tuple[int, int, str, dict[str, Any]]] = field(default_factory=list)
    seen: set[int] = field(default_factory=set)
    versions: dict[int, int] = field(default_factory=dict)
    games: dict[int, tuple[int, Message]] = field(default_factory=dict)
    """The latest snapshot or update of each table this console saw, with its tick."""
    pace: Pace = field(default_factory=Pace)

    @property
    def online(self) -> bool:
        return self.client is not None and self.client.is_open

    def latest(self, table: int) -> Message | None:
        entry = self.games.get(table)
        return None if entry is None else entry[1]


@dataclass(eq=False)
class TableModel:
    """A table as the people were told of it."""

    id: int
    game: str
    players: int
    timer: int
    bank: int
    autostart: bool = False
    state: str = WAITING
    seats: list[Any] = field(default_factory=list)
    """The latest table map's ``seats`` (places while waiting, engine seats after)."""
    vacant_since: float | None = None
    away: dict[int, float] = field(default_factory=dict)
    """Engine seat -> since when (our monotonic clock) nobody holds its connection."""
    left: set[int] = field(default_factory=set)
    """Engine seats whose player went to the lobby on purpose (a bot may have it at once)."""

    @property
    def free(self) -> bool:
        return self.state == WAITING and (not self.seats or any(s is None for s in self.seats))

    def holder(self, seat: int | None) -> dict[str, Any] | None:
        if seat is None or not 0 <= seat < len(self.seats):
            return None
        entry = self.seats[seat]
        return entry if isinstance(entry, dict) else None


@dataclass(frozen=True)
class Caps:
    """How much of the costly steps one sequence may have, and how big the party grows."""

    tables: int = 3
    """Tables waiting or playing at once."""
    bots: int = 3
    """Bot programs at once (the server lets one address have 4)."""
    restarts: int = 2
    """Server restarts (kill -9 and SIGTERM together) per sequence."""
    restart_gap: int = 3
    """Steps between two restarts."""
    timeouts: int = 1
    """Turn timers let run out per sequence."""
    slow_hosts: int = 1
    """Restarts per sequence that the host makes :data:`SLOW_HOST` seconds late."""


@dataclass(frozen=True)
class Summary:
    """What can be done next (for the state machine's preconditions and the soak's choices):
    the people each kind of step could be done by, and the tables some steps need."""

    who: dict[str, tuple[str, ...]] = field(default_factory=dict)
    joinable: tuple[int, ...] = ()
    watchable: tuple[int, ...] = ()
    timed: tuple[int, ...] = ()
    playable: tuple[int, ...] = ()
    restart: bool = False
    timeout: bool = False
    slow_host: bool = False

    def can(self, kind: str) -> bool:
        return bool(self.who.get(kind))


@dataclass
class Stop:
    """What held just before the server was stopped."""

    how: str
    tick: int
    people: dict[str, tuple[str, int | None, int | None, int | None]]
    """Name -> (where, table, held, seat) of everyone connected."""
    moves: dict[int, int] = field(default_factory=dict)
    """Table -> actions in the database once the server was gone."""


def _norm(value: Any) -> Any:
    """``value`` as a client receives it (msgpack: tuples become lists)."""
    return decode(encode({"v": value}), max_depth=None)["v"]


def _differences(seen: dict[str, Any], truth: dict[str, Any]) -> list[str]:
    return sorted(k for k in set(seen) | set(truth) if seen.get(k) != truth.get(k))


def _versions(msg: Message) -> Iterable[tuple[int, int]]:
    """The (table, version) pairs a message tells."""
    game = msg.get("type") in ("snapshot", "update", "game_over")
    if game and isinstance(msg.get("table"), int) and isinstance(msg.get("version"), int):
        yield msg["table"], msg["version"]
    for table in _table_maps(msg):
        if isinstance(table.get("id"), int) and isinstance(table.get("version"), int):
            yield table["id"], table["version"]


def _table_maps(msg: Message) -> list[dict[str, Any]]:
    if isinstance(msg.get("table"), dict):
        return [msg["table"]]
    if msg.get("type") == "tables":
        return [t for t in msg.get("tables") or [] if isinstance(t, dict)]
    return []


def _error_of(detail: dict[str, Any]) -> str:
    error = detail.get("error")
    return str(error) if error is not None else "no error"


# --- the party -------------------------------------------------------------------------------


class Party:
    """One LAN party: the server, four people, what they know, and the steps and invariants.

    Every public step method runs in the caller's thread and blocks until the step is done
    (each integer argument picks among those who can do the step, modulo their number; a step
    nobody can do is skipped and says so). :meth:`check` holds the invariants.
    """

    def __init__(
        self,
        root: Path,
        *,
        caps: Caps | None = None,
        reactor: ReactorThread | None = None,
        on_story: Callable[[str], None] | None = None,
    ) -> None:
        root.mkdir(parents=True, exist_ok=True)
        self.root = root
        self.caps = caps or Caps()
        self.rt = reactor or shared_reactor()
        self.reactor = self.rt.reactor
        self.server = ServerProcess(root)
        self.players = {
            name: Player(
                name,
                TokenStore(root / "people" / name / "seat-tokens.json"),
                RETRY_DELAYS if name == "Dee" else FAST_RETRIES,
            )
            for name in NAMES
        }
        self.tables: dict[int, TableModel] = {}
        self.tick = 0
        self.findings: list[tuple[str, str]] = []
        """Breaches noticed as messages arrive (``version_down``), asserted by :meth:`check`."""
        self.stand_ins: list[tuple[int, int, Any, Any]] = []
        """(tick, table, seat, why) of every stand-in move a console was told of."""
        self.finished: dict[int, Message] = {}
        """The first ``game_over`` any console got, by table."""
        self.recorded: set[int] = set()
        self.story: list[str] = []
        self.on_story = on_story
        self.counts: Counter[str] = Counter()
        self.summary = Summary()
        self._waiters: list[tuple[Callable[[], bool], defer.Deferred[None]]] = []
        self._since_restart = 0
        self._closed = False

    # --- running steps -----------------------------------------------------------------------

    def _run(self, work: Callable[[], Coroutine[Any, Any, T]]) -> T:
        return self.rt.call(work, STEP_BOUND)

    def _step(self, name: str, work: Callable[[], Coroutine[Any, Any, None]]) -> None:
        self.counts["steps"] += 1
        self.counts[f"step {name}"] += 1
        self._since_restart += 1
        self._run(work)

    def _say(self, line: str) -> None:
        self.story.append(line)
        if self.on_story is not None:
            self.on_story(line)

    async def _bounded(self, d: defer.Deferred[T], what: str, timeout: float = WAIT) -> T:
        d.addTimeout(timeout, self.reactor)
        try:
            return await d
        except defer.TimeoutError:
            raise AssertionError(f"no {what} within {timeout:g} s") from None

    async def _snapshot(self, p: Player, table: int, since: int, what: str) -> None:
        """Wait until ``p`` has a view of ``table``'s game sent after step ``since``."""
        await self._until(
            lambda: p.games.get(table, (0, None))[0] > since,
            f"{p.name}'s snapshot of table {table} {what}",
        )

    async def _until(self, condition: Callable[[], bool], what: str, timeout: float = WAIT) -> None:
        """Wait (at most ``timeout`` s) until ``condition()`` holds; it is looked at after every
        message and status any console gets."""
        if condition():
            return
        waiter: defer.Deferred[None] = defer.Deferred()
        entry = (condition, waiter)
        self._waiters.append(entry)
        waiter.addTimeout(timeout, self.reactor)
        try:
            await waiter
        except defer.TimeoutError:
            raise AssertionError(f"waited {timeout:g} s for {what}") from None
        finally:
            if entry in self._waiters:
                self._waiters.remove(entry)

    def _wake(self) -> None:
        for entry in list(self._waiters):
            condition, waiter = entry
            if waiter.called or not condition():
                continue
            self._waiters.remove(entry)
            # Not from inside a connection's dataReceived: the waiting step goes on at once,
            # but on its own turn of the reactor.
            self.reactor.callLater(0, waiter.callback, None)

    async def _pace(self, p: Player) -> None:
        assert p.client is not None
        wait = p.pace.take(p.client.connection, self.reactor.seconds())
        if wait > 0:
            await task.deferLater(self.reactor, wait, lambda: None)

    async def _ask(
        self, p: Player, msg: Message, expect: str | tuple[str, ...], allow: Iterable[str] = ()
    ) -> Message:
        """Send ``msg`` for ``p``; the reply, which must be of type ``expect``. A refusal whose
        code is in ``allow`` comes back as an ``error`` message; any other fails the step."""
        client = p.client
        assert client is not None and client.is_open, f"{p.name} is not connected ({msg})"
        if msg["type"] != "act":  # applied actions do not count against the rate
            await self._pace(p)
        try:
            reply = await self._bounded(client.request(msg), f"reply to {p.name}'s {msg['type']}")
        except ServerError as error:
            if error.code in set(allow):
                return {"type": "error", "code": error.code, "message": error.message}
            raise AssertionError(f"{p.name}'s {msg} was refused: {error}") from None
        except ConnectionClosed as error:
            raise AssertionError(
                f"{p.name}'s connection closed before the reply to {msg['type']}: {error}"
            ) from None
        kinds = (expect,) if isinstance(expect, str) else expect
        assert reply.get("type") in kinds, f"{p.name}'s {msg['type']} got {reply}, not {kinds}"
        return reply

    async def _ping(self, p: Player) -> None:
        """Once the pong is back, ``p`` has everything the server sent it before."""
        await self._ask(p, {"type": "ping"}, "pong")

    # --- what the consoles receive -----------------------------------------------------------

    def _pushed(self, p: Player, console: int, msg: Message) -> None:
        self._received(p, console, msg)

    def _replied(self, p: Player, console: int, msg: Message) -> None:
        self._received(p, console, msg)

    def _received(self, p: Player, console: int, msg: Message) -> None:
        if id(msg) in p.seen:  # a broadcast reply: handed over as a reply and as a push
            return
        p.seen.add(id(msg))
        self.tick += 1
        p.log.append((self.tick, console, msg))
        if console != p.console:
            return
        kind = msg.get("type")
        for table_id, version in _versions(msg):
            seen = p.versions.get(table_id)
            if seen is not None and version < seen:
                self.findings.append(
                    (
                        "version_down",
                        f"{p.name} saw table {table_id} go from version {seen} to {version} "
                        f"(a {kind})",
                    )
                )
            p.versions[table_id] = version if seen is None else max(seen, version)
        for table in _table_maps(msg):
            self._note_table(table)
        table_id = msg.get("table") if isinstance(msg.get("table"), int) else None
        if isinstance(msg.get("table"), dict):
            table_id = msg["table"].get("id")
        model = self.tables.get(table_id) if isinstance(table_id, int) else None
        if kind in ("snapshot", "update") and isinstance(table_id, int):
            p.games[table_id] = (self.tick, msg)
            for event in msg.get("events") or []:
                if isinstance(event, dict) and event.get("type") == "stand_in":
                    stand_in = (self.tick, table_id, event.get("seat"), event.get("why"))
                    self.stand_ins.append(stand_in)
        elif kind == "joined":
            p.where, p.table, p.held, p.seat = SEATED, table_id, table_id, None
        elif kind == "resumed":
            p.where, p.table, p.held, p.seat = SEATED, table_id, table_id, msg.get("seat")
            if model is not None and p.seat is not None:
                model.away.pop(p.seat, None)
        elif kind == "spectating":
            p.where, p.table = WATCHING, table_id
        elif kind == "started" and p.where == SEATED and p.table == table_id:
            p.seat = msg.get("seat")
        elif kind == "game_over" and isinstance(table_id, int):
            self.finished.setdefault(table_id, msg)
            if model is not None:
                model.state = FINISHED
            if p.held == table_id:
                p.held = p.seat = None
        elif kind == "left":
            self._left(p, msg)
        elif kind == "seat_status" and model is not None:
            self._seat_status(model, msg)
        self._wake()

    def _left(self, p: Player, msg: Message) -> None:
        table_id = msg.get("table")
        model = self.tables.get(table_id) if isinstance(table_id, int) else None
        if msg.get("reason") == "closed":
            if model is not None:
                model.state = CLOSED
            if p.held == table_id:
                p.held = p.seat = None
        elif p.where == SEATED and p.held == table_id and model is not None:
            if model.state == PLAYING:  # the seat stays held for the token
                if p.seat is not None:
                    model.away[p.seat] = time.monotonic()
                    model.left.add(p.seat)
            else:  # a waiting table frees the place; a finished one is simply left
                p.held = p.seat = None
        if p.table == table_id:
            p.where, p.table = LOBBY, None

    def _seat_status(self, model: TableModel, msg: Message) -> None:
        index = msg.get("seat") if msg.get("seat") is not None else msg.get("slot")
        if isinstance(index, int) and 0 <= index < len(model.seats):
            entry = model.seats[index]
            if isinstance(entry, dict):
                entry.update(connected=msg.get("connected"), bot=msg.get("bot"))
        seat = msg.get("seat")
        if isinstance(seat, int):
            if msg.get("connected") or msg.get("bot"):
                model.left.discard(seat)
            if msg.get("connected"):
                model.away.pop(seat, None)
            else:
                model.away.setdefault(seat, time.monotonic())

    def _note_table(self, table: dict[str, Any]) -> None:
        table_id = table.get("id")
        if not isinstance(table_id, int):
            return
        model = self.tables.get(table_id)
        if model is None:
            model = TableModel(
                table_id,
                str(table.get("game")),
                int(table.get("players") or 0),
                int(table.get("timer") or 0),
                int(table.get("bank") or 0),
            )
            self.tables[table_id] = model
        model.autostart = bool(table.get("autostart"))
        state = table.get("state")
        if state in (WAITING, PLAYING, FINISHED, CLOSED) and model.state != CLOSED:
            model.state = state
        model.seats = [dict(s) if isinstance(s, dict) else None for s in table.get("seats") or []]
        people = [s for s in model.seats if s is not None and not s.get("bot")]
        if model.state == WAITING and not people:
            if model.vacant_since is None:
                model.vacant_since = time.monotonic()
        else:
            model.vacant_since = None

    def _status(self, p: Player, console: int, event: str, detail: dict[str, Any]) -> None:
        self.tick += 1
        p.statuses.append((self.tick, console, event, detail))
        if console != p.console:
            return
        if event == "lost":
            self._away(p)
            p.where, p.table = OFFLINE, None
        elif event == "reconnected":
            welcome = detail.get("welcome")
            if isinstance(welcome, dict):
                self._received(p, console, welcome)
            p.where, p.table = LOBBY, None
        elif event == "seat_lost":
            error = detail.get("error")
            if isinstance(error, ServerError) and error.code == "session/bad_token":
                p.held = p.seat = None
            p.where, p.table = LOBBY, None
        elif event == "gave_up":
            self._away(p)
            p.where, p.table = OFFLINE, None
        self._wake()

    def _away(self, p: Player) -> None:
        """``p``'s seat (if the game runs) has nobody connected from now on."""
        model = self.tables.get(p.held) if p.held is not None else None
        if model is not None and model.state == PLAYING and p.seat is not None:
            model.away.setdefault(p.seat, time.monotonic())

    def _status_after(self, p: Player, since: int, events: set[str]) -> tuple[str, dict[str, Any]]:
        for tick, console, event, detail in p.statuses:
            if tick > since and console == p.console and event in events:
                return event, detail
        return "", {}

    # --- who can do what ---------------------------------------------------------------------

    def _open_tables(self) -> list[TableModel]:
        return [t for t in self.tables.values() if t.state in (WAITING, PLAYING)]

    def _bots(self) -> int:
        return sum(
            1 for t in self._open_tables() for s in t.seats if isinstance(s, dict) and s.get("bot")
        )

    def _joinable(self) -> list[int]:
        now = time.monotonic()
        return sorted(
            t.id
            for t in self._open_tables()
            if t.free and (t.vacant_since is None or now - t.vacant_since < VACANT_SOON)
        )

    def _watchable(self) -> list[int]:
        now = time.monotonic()
        return sorted(
            t.id
            for t in self._open_tables()
            if t.state == PLAYING or t.vacant_since is None or now - t.vacant_since < VACANT_SOON
        )

    def _members(self, table: int) -> list[Player]:
        """The people whose console is at ``table`` now (sitting or watching) and has its game."""
        return [
            p
            for p in self.players.values()
            if p.online and p.table == table and p.where in (SEATED, WATCHING) and table in p.games
        ]

    def _deciding(self, table: int) -> Player | None:
        """The connected person who must decide at ``table`` now, as their console says."""
        for p in self._members(table):
            latest = p.latest(table)
            if p.where == SEATED and latest is not None and latest["legal"]:
                return p
        return None

    def _playable(self) -> list[int]:
        return sorted(
            t.id
            for t in self._open_tables()
            if t.state == PLAYING and any(p.where == SEATED for p in self._members(t.id))
        )

    def _timed(self) -> list[int]:
        return sorted(
            t.id
            for t in self._open_tables()
            if t.state == PLAYING and t.timer and self._deciding(t.id) is not None
        )

    def _who(self, kind: str) -> list[Player]:
        people = [p for p in self.players.values() if p.online]
        lobby = [p for p in people if p.where == LOBBY]
        seated = [p for p in people if p.where == SEATED and p.table in self.tables]

        def at(state: str) -> list[Player]:
            return [p for p in seated if self.tables[p.table or 0].state == state]

        if kind == "creators":
            ok = len(self._open_tables()) < self.caps.tables
            return [p for p in lobby if p.held is None] if ok else []
        if kind == "joiners":
            return [p for p in lobby if p.held is None] if self._joinable() else []
        if kind == "bot_adders":
            ok = self._bots() < self.caps.bots
            return [p for p in at(WAITING) if self.tables[p.table or 0].free] if ok else []
        if kind == "starters":
            return [p for p in at(WAITING) if not self.tables[p.table or 0].free]
        if kind == "actors":
            return [p for p in at(PLAYING) if (p.latest(p.table or 0) or {}).get("legal")]
        if kind == "undoers":
            return [p for p in at(PLAYING) if (p.latest(p.table or 0) or {}).get("undo")]
        if kind == "backers":
            return at(PLAYING)
        if kind == "askers":
            return [p for p in at(PLAYING) if self.tables[p.table or 0].players > 1]
        if kind in ("chatters", "droppers"):
            return people
        if kind == "watchers":
            return lobby if self._watchable() else []
        if kind == "leavers":
            return [p for p in people if p.where in (SEATED, WATCHING)]
        if kind == "resumers":
            return [
                p
                for p in lobby
                if p.held in self.tables and self.tables[p.held].state in (WAITING, PLAYING)
            ]
        raise ValueError(f"no kind of step {kind!r}")

    KINDS = ("creators", "joiners", "bot_adders", "starters", "actors", "undoers", "backers",
             "askers", "chatters", "droppers", "watchers", "leavers", "resumers")  # fmt: skip

    def _summarize(self) -> Summary:
        return Summary(
            who={kind: tuple(p.name for p in self._who(kind)) for kind in self.KINDS},
            joinable=tuple(self._joinable()),
            watchable=tuple(self._watchable()),
            timed=tuple(self._timed()),
            playable=tuple(self._playable()),
            restart=self.counts["restarts"] < self.caps.restarts
            and self._since_restart >= self.caps.restart_gap,
            timeout=self.counts["timeouts"] < self.caps.timeouts,
            slow_host=self.counts["slow_hosts"] < self.caps.slow_hosts,
        )

    def _pick(self, kind: str, index: int) -> Player | None:
        people = self._who(kind)
        return people[index % len(people)] if people else None

    def _skip(self, what: str) -> None:
        self.counts["skipped"] += 1
        self._say(f"(skipped: nobody can {what} now)")

    # --- steps: opening, sitting down, starting ------------------------------------------------

    def open(self) -> None:
        """Start the server; Ann and Bob connect."""
        self.server.start()
        self._say(f"the server listens on {HOST}:{self.server.port}")
        self._run(self._open)

    async def _open(self) -> None:
        for name in ("Ann", "Bob"):
            await self._open_console(self.players[name], HOST)
        self.summary = self._summarize()

    async def _open_console(self, p: Player, host: str) -> None:
        p.console += 1
        console = p.console
        p.client = RecordingClient(
            self.reactor,
            host,
            self.server.port,
            p.name,
            on_message=partial(self._pushed, p, console),
            on_status=partial(self._status, p, console),
            retry_delays=p.retries,
            tokens=p.tokens,
            on_reply=partial(self._replied, p, console),
        )
        p.host = host
        p.versions, p.games = {}, {}
        welcome = await self._bounded(p.client.start(), f"welcome for {p.name} at {host}")
        self._received(p, console, welcome)
        p.where, p.table = LOBBY, None

    async def _close_console(self, p: Player) -> None:
        client, p.client = p.client, None
        self._away(p)
        p.where, p.table = OFFLINE, None
        if client is not None:
            await self._bounded(client.close(), f"{p.name}'s console to close")

    def create(
        self, who: int, game: str, players: int, timed: bool, autostart: bool = False
    ) -> None:
        """Someone in the lobby opens a table (timed: a turn timer of 1 s + 1 s of bank;
        autostart: it starts by itself once full) and sits down at it."""
        self._step("create", lambda: self._create(who, game, players, timed, autostart))

    async def _create(
        self, who: int, game: str, players: int, timed: bool, autostart: bool
    ) -> None:
        p = self._pick("creators", who)
        if p is None:
            return self._skip("open a table")
        low, high = PLAYER_RANGE[game]
        players = min(max(players, low), high)
        timer, bank = (TIMER, BANK) if timed else (0, 0)
        request = {"type": "create", "game": game, "players": players, "timer": timer}
        request.update(bank=bank, autostart=autostart)
        known = set(self.tables)
        reply = await self._ask(p, request, "created")
        table = reply["table"]["id"]
        assert table not in known, (
            f"the server handed out table id {table} twice (PROTOCOL.md 7: never while it keeps "
            f"its database); the ids it handed out before: {sorted(known)}"
        )
        clock = f"timer {timer}+{bank}" if timed else "no timer"
        start = ", autostart" if autostart else ""
        self._say(f"{p.name} opens table {table}: {game}, {players} player(s), {clock}{start}")
        await self._join(p, table)

    async def _join(self, p: Player, table: int) -> None:
        since = self.tick
        reply = await self._ask(p, {"type": "join", "table": table}, "joined")
        self._say(f"{p.name} sits down at table {table}, place {reply['slot']}")
        await self._ping(p)  # an autostart table started by this join has said so by now
        if self.tables[table].state == PLAYING:
            self._say(f"table {table} starts by itself")
            await self._first_snapshots(table, since)

    async def _first_snapshots(self, table: int, since: int) -> None:
        """Everyone of ours at ``table`` gets the snapshot of the game that started."""
        for q in self.players.values():
            if q.online and q.table == table and q.where in (SEATED, WATCHING):
                await self._snapshot(q, table, since, "(their first)")

    def join(self, who: int, which: int) -> None:
        """Someone in the lobby takes a free place at a waiting table."""
        self._step("join_step", lambda: self._join_step(who, which))

    async def _join_step(self, who: int, which: int) -> None:
        p = self._pick("joiners", who)
        if p is None:
            return self._skip("take a place")
        tables = self._joinable()
        await self._join(p, tables[which % len(tables)])

    def add_bot(self, who: int) -> None:
        """Someone at a waiting table fills a free place with a bot."""
        self._step("add_bot", lambda: self._add_bot(who))

    async def _add_bot(self, who: int) -> None:
        p = self._pick("bot_adders", who)
        if p is None:
            return self._skip("add a bot")
        reply = await self._ask(p, {"type": "add_bot", "level": BOT_LEVEL}, "bot_added")
        self._say(f"{p.name} adds {reply['name']} at table {p.table}, place {reply['slot']}")

    def start(self, who: int) -> None:
        """Someone at a full waiting table starts the game."""
        self._step("start", lambda: self._start(who))

    async def _start(self, who: int) -> None:
        p = self._pick("starters", who)
        if p is None:
            return self._skip("start a game")
        table, since = p.table, self.tick
        assert table is not None
        model = self.tables[table]
        allow = ("table/already_started",) if model.autostart else ()  # its bot just arrived
        reply = await self._ask(p, {"type": "start"}, "started", allow=allow)
        if reply["type"] == "error":
            self._say(f"{p.name} starts table {table}: it has just started by itself")
            return
        self._say(f"{p.name} starts table {table}: {', '.join(reply['seats'])}")
        await self._first_snapshots(table, since)

    # --- steps: playing ----------------------------------------------------------------------

    async def _play(self, p: Player, table: int, action: list[Any], quiet: bool = False) -> bool:
        """``p`` plays ``action`` against their latest update; False if the stand-in played
        first (then the server says the version is stale, or it is not their turn any more)."""
        tick, latest = p.games[table]
        version = latest["version"]
        label = next((a.get("label") for a in latest["legal"] if a["action"] == action), action)
        reply = await self._ask(
            p,
            {"type": "act", "version": version, "action": action},
            "update",
            allow=("action/stale", "action/not_your_turn", "table/finished"),
        )
        if reply["type"] == "error":
            overtaken = p.games[table][0] > tick
            assert overtaken, (
                f"{p.name}'s {action} at version {version} of table {table} was refused "
                f"({reply['code']}) though nothing had changed for them"
            )
            self._say(f"{p.name} tries {label}: {reply['code']} (the stand-in played first)")
            return False
        assert reply["version"] > version, f"{p.name}'s act got version {reply['version']}"
        if not quiet:
            self._say(f"{p.name} plays {label} at table {table} (version {reply['version']})")
        return True

    def act(self, who: int, choice: int) -> None:
        """Someone whose turn it is plays one of the legal actions of their latest update."""
        self._step("act", lambda: self._act(who, choice))

    async def _act(self, who: int, choice: int) -> None:
        p = self._pick("actors", who)
        if p is None:
            return self._skip("act")
        assert p.table is not None
        legal = (p.latest(p.table) or {})["legal"]
        await self._play(p, p.table, legal[choice % len(legal)]["action"])

    def act_with(self, who: int, name: str) -> None:
        """Like :meth:`act`, with the first legal action named ``name`` (for regression tests
        that need, say, an action that can be taken back)."""
        self._step("act_with", lambda: self._act_with(who, name))

    async def _act_with(self, who: int, name: str) -> None:
        p = self._pick("actors", who)
        if p is None:
            return self._skip("act")
        assert p.table is not None
        legal = (p.latest(p.table) or {})["legal"]
        named = [a["action"] for a in legal if a["action"][0] == name]
        assert named, f"{p.name} has no {name!r} action among {[a['action'] for a in legal]}"
        await self._play(p, p.table, named[0])

    def play_on(self, which: int, count: int, seed: int) -> None:
        """The people at a table play up to ``count`` random legal actions (the bots play their
        turns in between), until a seat must decide whose player is away, or the end."""
        self._step("play_on", lambda: self._play_on(which, count, seed))

    async def _play_on(self, which: int, count: int, seed: int) -> None:
        tables = self._playable()
        if not tables:
            return self._skip("play on")
        table = tables[which % len(tables)]
        rng = random.Random(seed)
        played = 0
        for _ in range(2 * count + 10):
            if played >= count or self.tables[table].state != PLAYING:
                break
            await self._settle(table)
            p = self._deciding(table)
            if p is None:  # the next one's update may still be on its way: a barrier
                for q in self._members(table):
                    await self._ping(q)
                await self._settle(table)
                p = self._deciding(table)
            if p is None:
                break
            legal = (p.latest(table) or {})["legal"]
            played += await self._play(p, table, rng.choice(legal)["action"], quiet=True)
        state = self.tables[table].state
        self._say(f"the people at table {table} play {played} action(s); it is {state}")

    def misplay(self, who: int, choice: int) -> None:
        """Someone whose turn it is plays a legal action and takes it back at once, if the
        game lets them (a mis-typed move)."""
        self._step("misplay", lambda: self._misplay(who, choice))

    async def _misplay(self, who: int, choice: int) -> None:
        p = self._pick("actors", who)
        if p is None:
            return self._skip("act")
        table = p.table
        assert table is not None
        legal = (p.latest(table) or {})["legal"]
        if await self._play(p, table, legal[choice % len(legal)]["action"]):
            if (p.latest(table) or {}).get("undo"):
                await self._undo(self._who("undoers").index(p))
            else:
                self._say(f"{p.name} cannot take it back")

    def undo(self, who: int) -> None:
        """Someone takes back their last action of this turn."""
        self._step("undo", lambda: self._undo(who))

    async def _undo(self, who: int) -> None:
        p = self._pick("undoers", who)
        if p is None:
            return self._skip("take an action back")
        table = p.table
        assert table is not None
        tick, latest = p.games[table]
        version, what = latest["version"], latest["undo"]
        reply = await self._ask(
            p,
            {"type": "undo", "version": version},
            "update",
            allow=("action/stale", "action/no_undo", "table/finished"),
        )
        if reply["type"] == "error":
            overtaken = p.games[table][0] > tick
            assert overtaken, (
                f"{p.name}'s undo at version {version} of table {table} was refused "
                f"({reply['code']}) though their update offered it"
            )
            self._say(f"{p.name} tries to take back {what}: {reply['code']} (the stand-in)")
            return
        undone = [e for e in reply["events"] if e.get("type") == "undone"]
        assert undone, f"{p.name}'s undo got an update without an undone event: {reply['events']}"
        self._say(f"{p.name} takes back {what} at table {table} (version {reply['version']})")

    def back(self, who: int) -> None:
        """Someone seated at a game says they are at the keyboard (``back``)."""
        self._step("back", lambda: self._back(who))

    async def _back(self, who: int) -> None:
        p = self._pick("backers", who)
        if p is None:
            return self._skip("say back")
        reply = await self._ask(p, {"type": "back"}, "seat_status")
        assert reply.get("auto") is False, f"{p.name}'s back left the seat handed over: {reply}"
        assert reply.get("seat") == p.seat, f"{p.name} (seat {p.seat}) got {reply} for back"
        self._say(f"{p.name} says back at table {p.table}")

    def chat(self, who: int, number: int) -> None:
        """Someone says something: everyone where they are (lobby or table) reads it."""
        self._step("chat", lambda: self._chat(who, number))

    async def _chat(self, who: int, number: int) -> None:
        p = self._pick("chatters", who)
        if p is None:
            return self._skip("chat")
        text = f"{p.name} says hello #{number}"
        scope = "lobby" if p.where == LOBBY else "table"
        audience = [
            q
            for q in self.players.values()
            if q is not p
            and q.online
            and (q.where == LOBBY if scope == "lobby" else q.table == p.table)
            and q.where in (LOBBY, SEATED, WATCHING)
        ]
        since = self.tick
        reply = await self._ask(p, {"type": "chat", "text": text}, "chat")
        assert (reply.get("text"), reply.get("scope")) == (text, scope), f"chat echo {reply}"
        for q in audience:
            await self._ping(q)
            got = [m for t, c, m in q.log if t > since and m.get("type") == "chat"]
            assert any(m.get("text") == text for m in got), (
                f"{q.name} ({q.where}) did not get {p.name}'s {scope} chat {text!r}"
            )
        where = "in the lobby" if scope == "lobby" else f"at table {p.table}"
        self._say(f"{p.name} chats {where}")

    def watch(self, who: int, which: int) -> None:
        """Someone in the lobby watches a waiting or playing table."""
        self._step("watch", lambda: self._watch(who, which))

    async def _watch(self, who: int, which: int) -> None:
        p = self._pick("watchers", who)
        if p is None:
            return self._skip("watch")
        tables = self._watchable()
        table, since = tables[which % len(tables)], self.tick
        reply = await self._ask(p, {"type": "spectate", "table": table}, "spectating")
        if reply["table"]["state"] != WAITING:
            await self._snapshot(p, table, since, "(which they watch)")
        self._say(f"{p.name} watches table {table}")

    def leave(self, who: int, bot: bool = False) -> None:
        """Someone at a table (sitting or watching) goes back to the lobby; with ``bot``, a
        player at a game hands their seat to a bot as they go (``leave`` with ``bot``)."""
        self._step("leave", lambda: self._leave(who, bot))

    async def _leave(self, who: int, bot: bool) -> None:
        p = self._pick("leavers", who)
        if p is None:
            return self._skip("leave")
        table, where, seat = p.table, p.where, p.seat
        assert table is not None
        model = self.tables[table]
        state = model.state
        msg: Message = {"type": "leave"}
        handing = bot and where == SEATED and state == PLAYING and seat is not None
        if handing:
            msg["bot"] = BOT_LEVEL
        full = handing and self._bots() >= self.caps.bots
        reply = await self._ask(p, msg, "left", allow={"limit/bots"} if full else ())
        if reply["type"] == "error":
            self._say(f"{p.name} would hand their seat at table {table} to a bot: limit/bots")
            return
        assert (reply.get("table"), reply.get("reason")) == (table, "request"), f"left {reply}"
        if handing:
            assert seat is not None
            p.held = p.seat = None  # the seat is the bot's now, their token dead
            model.left.discard(seat)
            model.away[seat] = time.monotonic()
            self._say(f"{p.name} leaves table {table} and hands seat {seat} to a bot")
            return
        self._say(f"{p.name} leaves table {table} ({where} there, the table {state})")

    def resume(self, who: int) -> None:
        """Someone in the lobby takes back the seat they left during a game (the console's
        ``resume``: the token it holds, else the one kept on disk)."""
        self._step("resume", lambda: self._resume(who))

    async def _resume(self, who: int) -> None:
        p = self._pick("resumers", who)
        if p is None:
            return self._skip("resume")
        assert p.client is not None and p.held is not None
        table = p.held
        token = p.client.token if p.client.table_id == table else None
        kept = [k for k in p.client.kept_seats() if k.table == table]
        token = token or (kept[0].token if kept else None)
        assert token is not None, f"{p.name}'s console holds no token for table {table}"
        since = self.tick
        reply = await self._ask(p, {"type": "resume", "token": token}, "resumed")
        if reply["table"]["state"] != WAITING:
            await self._snapshot(p, table, since, "after resume")
        self._say(f"{p.name} takes their seat at table {table} back (resume)")

    # --- steps: people and their connections -------------------------------------------------

    def drop(self, who: int) -> None:
        """Someone's connection drops; their console comes back by itself."""
        self._step("drop", lambda: self._drop(who))

    async def _drop(self, who: int) -> None:
        p = self._pick("droppers", who)
        if p is None:
            return self._skip("drop")
        assert p.client is not None and p.client.connection is not None
        where, table, since = p.where, p.table, self.tick
        self._say(f"{p.name}'s connection drops ({where}{f' at table {table}' if table else ''})")
        transport: Any = p.client.connection.transport
        transport.abortConnection()
        await self._back_after(p, since, where, table, "a dropped connection")

    async def _back_after(
        self, p: Player, since: int, where: str, table: int | None, why: str
    ) -> None:
        """``p``'s console, connected in ``where`` (at ``table``) before ``why``, comes back by
        itself: reconnected, and seated again (or watching again) where it was."""
        model = self.tables.get(table) if table is not None else None
        alive = model is not None and model.state in (WAITING, PLAYING)
        if where == SEATED and alive:
            wanted = {"resumed"}
        elif where == SEATED:  # a finished table: gone once nobody is at it
            wanted = {"resumed", "seat_lost"}
        else:
            wanted = {"reconnected"}
        ends = wanted | {"gave_up", "seat_lost"}
        await self._until(
            lambda: bool(self._status_after(p, since, ends)[0]),
            f"{p.name}'s console to come back after {why}",
        )
        event, detail = self._status_after(p, since, ends)
        assert event != "gave_up", (
            f"{p.name}'s console gave up after {why} instead of coming back: {_error_of(detail)}"
        )
        assert event in wanted, (
            f"{p.name}'s console lost its seat at table {table} after {why}: {_error_of(detail)}"
        )
        if where == WATCHING and table is not None and alive:
            await self._until(
                lambda: (
                    (p.where == WATCHING and p.table == table)
                    or bool(self._status_after(p, since, {"seat_lost"})[0])
                ),
                f"{p.name}'s console to watch table {table} again after {why}",
            )
        at_game = model is not None and model.state != WAITING and p.table == table
        if (where == WATCHING or event == "resumed") and at_game and table is not None:
            await self._snapshot(p, table, since, f"after {why}")

    def console(self, who: int, via: int) -> None:
        """Someone's console is killed (if one runs) and started again, at 127.0.0.1 or at
        localhost; like `cosmoport join HOST`, it takes back the seat kept for that server."""
        self._step("console", lambda: self._console(who, via))

    async def _console(self, who: int, via: int) -> None:
        p = self.players[NAMES[who % len(NAMES)]]
        host = (HOST, OTHER_HOST)[via % 2]
        was = "restarts their console" if p.client is not None else "starts a console"
        if p.client is not None:
            await self._close_console(p)
        await self._open_console(p, host)
        assert p.client is not None
        self._say(f"{p.name} {was} for {host}:{self.server.port}")
        model = self.tables.get(p.held) if p.held is not None else None
        if model is None or model.state not in (WAITING, PLAYING):
            return
        table = model.id
        kept = [k for k in p.client.kept_seats() if k.table == table]
        assert kept, (
            f"{p.name}'s console for {host}:{self.server.port} finds no seat kept for table "
            f"{table}, which they hold; their seat tokens file keeps {self._kept_file(p)}"
        )
        since = self.tick
        reply = await self._ask(p, {"type": "resume", "token": kept[0].token}, "resumed")
        if reply["table"]["state"] != WAITING:
            await self._snapshot(p, table, since, "in their new console")
        self._say(f"{p.name}'s console takes back their seat at table {table}")

    def _kept_file(self, p: Player) -> dict[str, list[str]]:
        try:
            servers = json.loads(p.tokens.path.read_text(encoding="utf-8")).get("servers", {})
        except (OSError, ValueError):
            return {}
        return {server: sorted(tables) for server, tables in servers.items()}

    # --- steps: the server -------------------------------------------------------------------

    def crash(self, slow_host: bool = False) -> None:
        """The server is killed (kill -9) and started again on the same port and database (by
        a slow host: :data:`SLOW_HOST` seconds later)."""
        self._restart(signal.SIGKILL, slow_host)

    def stop_and_restart(self, slow_host: bool = False) -> None:
        """The server is stopped (SIGTERM, as Ctrl+C) and started again."""
        self._restart(signal.SIGTERM, slow_host)

    def _restart(self, number: signal.Signals, slow_host: bool) -> None:
        how = "kill -9" if number == signal.SIGKILL else "SIGTERM"
        self.counts["slow_hosts"] += slow_host
        # A slow host matters where a turn timer runs: elsewhere it is only time lost.
        down = SLOW_HOST if slow_host and self.summary.timed else 0.0
        self.counts["steps"] += 1
        self.counts[f"step {how}"] += 1
        self.counts["restarts"] += 1
        self._since_restart = 0
        stop = self._run(lambda: self._before_stop(how))
        code = self.server.stop(number)
        if number == signal.SIGTERM:
            assert code == 0, f"the server ended with status {code} on SIGTERM"
        self._run(lambda: self._after_stop(stop, down))
        self.server.start()
        self._run(lambda: self._after_start(stop))

    async def _before_stop(self, how: str) -> Stop:
        people = {
            p.name: (p.where, p.table, p.held, p.seat) for p in self.players.values() if p.online
        }
        self._say(f"the server is stopped with {how}")
        return Stop(how, self.tick, people)

    async def _after_stop(self, stop: Stop, down: float) -> None:
        for name in stop.people:
            p = self.players[name]
            await self._until(
                lambda p=p: bool(self._status_after(p, stop.tick, {"lost", "gave_up"})[0]),
                f"{name}'s console to notice that the server is gone ({stop.how})",
            )
        # Nothing acknowledged is lost: each console's last view is in the database.
        for table in sorted(self.tables):
            record = self._record(table)
            if record is None:
                continue
            stop.moves[table] = len(record["actions"])
            for name, (where, at, _held, _seat) in stop.people.items():
                latest = self.players[name].latest(table)
                if at != table or where not in (SEATED, WATCHING) or latest is None:
                    continue  # only those at the table then had its last word
                views = self._views(record, latest["seat"])
                assert latest["view"] in views, (
                    f"after {stop.how}, the database lost what {name} was told of table "
                    f"{table}: their version {latest['version']} is none of its "
                    f"{len(record['actions'])} actions' positions"
                )
            if table in self.finished:
                assert record["result"] is not None, (
                    f"table {table} ended for the people, but after {stop.how} the database "
                    "holds no result"
                )
        if down:  # the host takes a while to start it again: real time passes for everyone
            self._say(f"the host starts the server again {down:g} s later")
            await task.deferLater(self.reactor, down, lambda: None)

    async def _after_start(self, stop: Stop) -> None:
        self._say(f"the server is started again on port {self.server.port}")
        now = time.monotonic()
        for model in self.tables.values():
            if model.state == FINISHED:
                model.state = CLOSED  # finished tables are not taken up again
            if model.state == PLAYING:  # every seat is away until its holder is back
                model.away = dict.fromkeys(range(model.players), now)
                model.left.clear()  # (a restart does not know who left on purpose)
        why = f"the server's {stop.how}"
        for name, (where, table, _held, _seat) in stop.people.items():
            await self._back_after(self.players[name], stop.tick, where, table, why)
        await self._check_outage(stop)

    async def _check_outage(self, stop: Stop) -> None:
        """The outage is nobody's time: no stand-in plays for a seat whose player was connected
        before the restart and had not come back yet."""
        for name, (where, table, _held, seat) in stop.people.items():
            model = self.tables.get(table) if table is not None else None
            if where != SEATED or model is None or not model.timer or seat is None:
                continue
            if model.state != PLAYING or table not in stop.moves:
                continue
            p = self.players[name]
            first = next(
                (m for t, c, m in p.log if t > stop.tick and c == p.console
                 and m.get("type") == "snapshot" and m.get("table") == table),
                None,
            )  # fmt: skip
            record = self._record(table)
            if first is None or record is None:
                continue
            views = self._views(record, seat)
            start = stop.moves[table]
            back = next((k for k in range(start, len(views)) if views[k] == first["view"]), None)
            if back is None:
                continue  # the view check says what is wrong
            played = [a for a in record["actions"][start:back] if a["seat"] == seat]
            assert not played, (
                f"the outage was charged to {name}'s turn clock: after the server's {stop.how}, "
                f"the stand-in played {len(played)} action(s) for seat {seat} at table {table} "
                f"before {name}'s console was back"
            )

    def run_out_of_time(self, which: int) -> None:
        """At a timed table, the person who must decide waits: the stand-in plays for them."""
        self.counts["timeouts"] += 1  # tried: a sequence's choices depend on its steps alone
        self._step("run_out_of_time", lambda: self._run_out_of_time(which))

    async def _run_out_of_time(self, which: int) -> None:
        tables = self._timed()
        if not tables:
            return self._skip("let a turn timer run out")
        table = tables[which % len(tables)]
        p = self._deciding(table)
        assert p is not None
        seat, since = p.seat, self.tick
        self._say(f"{p.name} lets the clock run out at table {table}")
        await self._until(
            lambda: any(t > since and tb == table for t, tb, _s, _w in self.stand_ins),
            f"the stand-in to play for {p.name} (seat {seat}) at table {table}",
        )
        stand = next(s for s in self.stand_ins if s[0] > since and s[1] == table)
        assert stand[2] == seat, f"the stand-in played seat {stand[2]}, not {p.name}'s {seat}"
        self.counts["timers run out"] += 1
        self._say(f"the stand-in plays for {p.name} ({stand[3]})")

    def let_a_table_close(self, which: int) -> None:
        """Nobody comes back to a waiting table nobody holds a place at: it closes (30 s after
        its last person left; the people in the lobby are told)."""
        self._step("let_a_table_close", lambda: self._let_a_table_close(which))

    async def _let_a_table_close(self, which: int) -> None:
        vacant = sorted(
            t.id for t in self._open_tables() if t.state == WAITING and t.vacant_since is not None
        )
        told = any(p.online and p.where == LOBBY for p in self.players.values())
        if not vacant or not told:  # the people in the lobby are told when it closes
            return self._skip("wait for a table to close")
        table = vacant[which % len(vacant)]
        self._say(f"nobody comes back to table {table}")
        await self._until(
            lambda: self.tables[table].state == CLOSED,
            f"table {table}, which nobody holds a place at, to close",
            timeout=2 * WAIT,
        )
        self._say(f"table {table} closes")

    def pizza_break(self, seconds: float = TAKEOVER_AFTER + 2 * TAKEOVER_SLACK) -> None:
        """Nobody does anything for ``seconds`` (a minute by default: long enough for a seat
        whose player is away to be handed to a bot). Turn timers run, bots play, the stand-in
        plays for seats out of time; for the soak (too long for CI)."""
        self._step("pizza_break", lambda: self._pizza_break(seconds))

    async def _pizza_break(self, seconds: float) -> None:
        self._say(f"everyone goes for pizza for {seconds:g} s")
        await task.deferLater(self.reactor, seconds, lambda: None)

    def hand_to_bot(self, who: int, which: int) -> None:
        """Someone at a game asks a bot to take over another seat (``add_bot`` with ``seat``):
        allowed for a player away for a minute, refused otherwise."""
        self._step("hand_to_bot", lambda: self._hand_to_bot(who, which))

    async def _hand_to_bot(self, who: int, which: int) -> None:
        p = self._pick("askers", who)
        if p is None:
            return self._skip("hand a seat to a bot")
        table = p.table
        assert table is not None
        model = self.tables[table]
        others = [s for s in range(model.players) if s != p.seat]
        seat = others[which % len(others)]
        holder = model.holder(seat) or {}
        person = self.players.get(str(holder.get("name")))
        if person is not None and not holder.get("bot"):
            connected = person.online and person.where == SEATED and person.table == table
            if connected:
                expected = {"table/seat_connected"}
            elif seat in model.left:  # they went on purpose: nobody waits for them
                expected = {"bot_added"}
            else:
                away = time.monotonic() - model.away.get(seat, time.monotonic())
                if away < TAKEOVER_AFTER - TAKEOVER_SLACK:
                    expected = {"table/too_soon"}
                elif away > TAKEOVER_AFTER + TAKEOVER_SLACK:
                    expected = {"bot_added"}
                else:
                    expected = {"table/too_soon", "bot_added"}
        else:  # a bot's seat: connected, or a program on its way
            expected = {"table/seat_connected", "table/too_soon"}
        if "bot_added" in expected and self._bots() >= self.caps.bots:
            expected.add("limit/bots")
        reply = await self._ask(
            p,
            {"type": "add_bot", "level": BOT_LEVEL, "seat": seat},
            "bot_added",
            allow=expected - {"bot_added"},
        )
        outcome = reply.get("code", reply["type"])
        assert outcome in expected, (
            f"{p.name} asked a bot to take seat {seat} ({holder.get('name')}) at table {table}: "
            f"{outcome}, expected {sorted(expected)}"
        )
        if outcome == "bot_added" and person is not None:
            if person.held == table:
                person.held = person.seat = None
            model.away[seat] = time.monotonic()
            model.left.discard(seat)
        self._say(f"{p.name} asks a bot to take seat {seat} at table {table}: {outcome}")

    # --- invariants --------------------------------------------------------------------------

    def check(self) -> None:
        """Every invariant, after a step (see the module docstring)."""
        self._run(self._check)

    async def _check(self) -> None:
        assert self.server.alive(), f"the server process ended; its log:\n{self.server.tail()}"
        downs = [text for kind, text in self.findings if kind == "version_down"]
        assert not downs, "a console saw a table's version go down: " + "; ".join(downs[:3])
        assert not self.server.tracebacks, (
            f"the server's log holds a traceback: {self.server.tracebacks[:3]} (see "
            f"{self.server.log})"
        )
        for table in sorted(self.tables):
            if self.tables[table].state in (PLAYING, FINISHED):
                await self._settle(table)
                await self._check_views(table)
        await self._check_records()
        self.summary = self._summarize()

    async def _settle(self, table: int) -> None:
        """Wait while a bot must decide at ``table`` (as the consoles there see it): a bot's
        seat that does not play within :data:`WAIT` (after the server's wait for a bot program
        of the run before, :data:`server.hub.BOT_RETURN_GRACE`) is stuck."""
        model = self.tables[table]
        for _ in range(10_000):
            newest = max(
                (p.games[table] for p in self._members(table)), key=lambda e: e[0], default=None
            )
            if newest is None or newest[1]["view"].get("is_over"):
                return
            seat = newest[1]["view"].get("current_player")
            holder = model.holder(seat)
            if holder is None or not holder.get("bot"):
                return
            since = newest[0]
            await self._until(
                lambda since=since: any(p.games[table][0] > since for p in self._members(table)),
                f"the bot at seat {seat} of table {table} to play (a stuck seat?)",
                # After a kill -9 the server waits for the old bot program before it starts a
                # new one; the new one then has a whole WAIT of its own to play.
                timeout=BOT_RETURN_GRACE + WAIT,
            )

    async def _check_views(self, table: int) -> None:
        """Every console at ``table`` sees what the database replays to for its seat."""
        wrong: list[str] = []
        for _ in range(CUT_ATTEMPTS):
            members = self._members(table)
            if not members:
                return
            record = self._record(table)
            assert record is not None, (
                f"table {table} started for {[p.name for p in members]}, but the database "
                "holds no game for it"
            )
            try:
                state = records.final_state(record)
            except records.RecordError as error:
                raise AssertionError(f"table {table}'s game does not replay: {error}") from None
            for p in members:  # each has everything sent before the database was read
                await self._ping(p)
            wrong = [w for w in (self._differs(p, table, state) for p in members) if w]
            if not wrong:
                break
        assert not wrong, f"a console does not see what the server holds: {'; '.join(wrong)}"
        members = self._members(table)
        versions = {p.name: (p.latest(table) or {}).get("version") for p in members}
        assert len(set(versions.values())) <= 1, f"table {table}: versions differ {versions}"
        if not state.is_over:
            assert state.legal_actions(), f"table {table}: seat {state.current_player} is stuck"

    def _differs(self, p: Player, table: int, state: Any) -> str | None:
        latest = p.latest(table)
        assert latest is not None
        seat = latest["seat"]
        view = _norm(state.view(seat))
        if latest["view"] != view:
            return (
                f"{p.name} (seat {seat}) at table {table}, version {latest['version']}: "
                f"{_differences(latest['view'], view)} differ"
            )
        deciding = not state.is_over and seat is not None and seat == state.current_player
        legal = _norm(list(state.legal_actions())) if deciding else []
        if [a["action"] for a in latest["legal"]] != legal:
            return f"{p.name} (seat {seat}) at table {table}: other legal actions"
        return None

    async def _check_records(self) -> None:
        """Every finished game's record (``record``) replays to its final scores and views."""
        for table, over in sorted(self.finished.items()):
            if table in self.recorded:
                continue
            asker = next((p for p in self.players.values() if p.online), None)
            if asker is None:
                return
            reply = await self._ask(asker, {"type": "record", "table": table}, "record")
            record = reply["record"]
            try:
                state = records.final_state(record)
            except records.RecordError as error:
                raise AssertionError(f"table {table}'s record does not replay: {error}") from None
            assert state.is_over, f"the record of table {table} does not reach the end"
            result = {"scores": over["scores"], "ranking": over["ranking"]}
            assert record["result"] == result, f"table {table}: {record['result']} != {result}"
            for p in self.players.values():
                latest = p.latest(table)
                if latest is not None and latest["view"].get("is_over"):
                    assert latest["view"] == _norm(state.view(latest["seat"])), (
                        f"the record of table {table} ends elsewhere than {p.name}'s last view"
                    )
            self.recorded.add(table)
            self.counts["games"] += 1

    def _record(self, table: int) -> dict[str, Any] | None:
        """The game at ``table`` as the server's database holds it (None before its start)."""
        try:
            return load_record(self.server.db, table)
        except StoreError as error:
            if "holds no game" in str(error):
                return None
            raise AssertionError(f"the database cannot be read: {error}") from None

    def _views(self, record: dict[str, Any], seat: int | None) -> list[Any]:
        """``seat``'s view at every position of ``record`` (after 0, 1, ... actions)."""
        try:
            return [_norm(step.state.view(seat)) for step in records.replay(record)]
        except records.RecordError as error:
            raise AssertionError(f"the saved game does not replay: {error}") from None

    # --- the end -----------------------------------------------------------------------------

    def close(self) -> None:
        """Close every console and kill every process of the party."""
        if self._closed:
            return
        self._closed = True
        try:
            self.rt.call(self._close, WAIT + 5)
        finally:
            self.server.close()

    async def _close(self) -> None:
        for _condition, waiter in self._waiters:
            if not waiter.called:
                waiter.cancel()
        self._waiters.clear()
        for p in self.players.values():
            client, p.client = p.client, None
            if client is not None:
                with contextlib.suppress(Exception):
                    await self._bounded(client.close(), f"{p.name}'s console to close", 5.0)

    def report(self) -> str:
        """One line: what the party went through."""
        return (
            f"{self.counts['steps']} steps, {self.server.kills} kill -9, {self.server.terms} "
            f"SIGTERM, {self.counts['timers run out']} timers run out, "
            f"{self.counts['games']} games finished"
        )


# --- a random walk, for the soak bench ---------------------------------------------------------


def random_step(party: Party, rng: random.Random, breaks: bool = False) -> str:
    """Take one step chosen at random among those that can be taken now (weighted: restarts
    and timers are rare, playing is common; with ``breaks``, now and then a minute in which
    nobody does anything); returns its name."""
    s = party.summary
    who = rng.randrange(len(NAMES))
    which = rng.randrange(3)
    choices: list[tuple[float, str, Callable[[], None]]] = [
        (3, "create", partial(party.create, who, rng.choice(GAMES), rng.randint(1, 3),
                              rng.random() < 0.5, rng.random() < 0.3)),
        (3, "join", partial(party.join, who, which)),
        (1, "add_bot", partial(party.add_bot, who)),
        (3, "start", partial(party.start, who)),
        (4, "act", partial(party.act, who, rng.randrange(50))),
        (2, "misplay", partial(party.misplay, who, rng.randrange(50))),
        (4, "play_on", partial(party.play_on, which, rng.randint(5, 400), rng.randrange(2**32))),
        (2, "undo", partial(party.undo, who)),
        (1, "back", partial(party.back, who)),
        (1, "chat", partial(party.chat, who, rng.randrange(100))),
        (1, "watch", partial(party.watch, who, which)),
        (1, "leave", partial(party.leave, who, rng.random() < 0.3)),
        (1, "resume", partial(party.resume, who)),
        (1, "drop", partial(party.drop, who)),
        (1, "console", partial(party.console, who, rng.randrange(2))),
        (1, "hand_to_bot", partial(party.hand_to_bot, who, which)),
        (0.5, "crash", partial(party.crash, s.slow_host and rng.random() < 0.3)),
        (0.5, "stop_and_restart",
         partial(party.stop_and_restart, s.slow_host and rng.random() < 0.3)),
        (0.5, "run_out_of_time", partial(party.run_out_of_time, which)),
        (0.05, "pizza_break", party.pizza_break),
        (0.05, "let_a_table_close", partial(party.let_a_table_close, which)),
    ]  # fmt: skip
    needs = {
        "create": s.can("creators"), "join": s.can("joiners"), "add_bot": s.can("bot_adders"),
        "start": s.can("starters"), "act": s.can("actors"), "misplay": s.can("actors"),
        "play_on": bool(s.playable),
        "undo": s.can("undoers"), "back": s.can("backers"), "chat": s.can("chatters"),
        "watch": s.can("watchers"), "leave": s.can("leavers"), "resume": s.can("resumers"),
        "drop": s.can("droppers"), "console": True, "hand_to_bot": s.can("askers"),
        "crash": s.restart, "stop_and_restart": s.restart,
        "run_out_of_time": s.timeout and bool(s.timed),
        "pizza_break": breaks,
        "let_a_table_close": breaks,
    }  # fmt: skip
    open_steps = [c for c in choices if needs[c[1]]]
    weights = list(itertools.accumulate(c[0] for c in open_steps))
    _weight, name, take = rng.choices(open_steps, cum_weights=weights)[0]
    take()
    return name
