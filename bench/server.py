"""Server throughput and latency over loopback, against a raw Twisted msgpack echo baseline.

    .venv/bin/python bench/server.py [--tables 200] [--players 3] [--game cosmic_run]
    .venv/bin/python bench/server.py --pace [SECONDS] [--tables 2000] [--find-max] [--db both]

Two loads, each measured against a raw Twisted ``Int32StringReceiver`` echo server (it decodes
and re-encodes each msgpack frame) driven alike in the same run, as the yardstick of this
machine's speed. Every run prints the server's CPU time per action (read by the server process
itself) next to the echo's per round trip, and the machine's load average.

**Flat out** (the default): the Cosmoport server in a child process pinned to one core, N
concurrent tables of random-choice clients (in this process, on the other core if there is one)
that play every game to the end through the protocol and act the instant they are asked. Prints
actions per second and the round trip of an action (from sending ``act`` to receiving the
``update`` that echoes its id) at p50 and p99. The echo is driven by N connections with one
request in flight each (the same concurrency as N tables, where one seat at a time acts), and
our action rate is printed as a ratio of its echo rate. With no think time every table always
has an action in flight, so by Little's law the round trip is about tables / throughput: this
load measures throughput, not the latency people see.

**Paced** (``--pace``, see ``bench/paced.py``): every seat acts SECONDS (default 1, jittered)
after its turn comes, as people and thinking bots do; thousands of tables, the clients in their
own processes on the other cores, a bounded warm-up and measuring window; ``--find-max`` looks
for the largest table count that holds p99 under 20 ms; ``--profile PATH`` profiles the server
over the window.

``--game tick`` plays a trivial built-in game (tiny views, one-word labels) instead of a real
engine: the figures then show the server's own overhead without the engine's ``view``/``label``
costs. ``--think-ms`` makes flat-out clients wait before acting. ``--views acting`` is an
experiment: seats not to act get an update without a view, which bounds what any delta
encoding of views could gain.

``--db`` chooses where the server keeps its tables: ``file`` (the default, as ``cosmoport serve``
does: a WAL-journalled SQLite file in a temporary directory, one commit per applied action before
its update goes out) or ``memory`` (an SQLite database in memory: the same work without the
file). ``--db both`` runs the server once with each, so the cost of saving every action shows
side by side in one run.

The bench server is built with the same ``Limits`` that ``cosmoport serve`` passes, with the
limits on connections and tables (per address and in all) raised, since every client comes from
127.0.0.1 (and, flat out, the rate limits too: those clients act faster than people may).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from twisted.internet import defer, protocol, reactor, stdio, task
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.protocols.basic import Int32StringReceiver, LineReceiver

from protocol import MAX_SERVER_FRAME, decode, encode


def pin(cpu: int) -> None:
    """Keep this process on one core, if the platform allows and the core exists."""
    if hasattr(os, "sched_setaffinity") and cpu < (os.cpu_count() or 1):
        os.sched_setaffinity(0, {cpu})


# --- the child processes -----------------------------------------------------------------------


class TickState:
    """A trivial game: seats take turns saying a number 1-3; over after 300 actions."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.moves = 0
        self.total = [0] * players

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self.moves % self.players

    @property
    def is_over(self) -> bool:
        return self.moves >= 300

    def legal_actions(self) -> list[tuple[Any, ...]]:
        return [] if self.is_over else [("tick", 1), ("tick", 2), ("tick", 3)]

    def clone(self) -> TickState:
        copy = TickState(self.players)
        copy.moves = self.moves
        copy.total = list(self.total)
        return copy

    def apply(self, action: tuple[Any, ...]) -> list[dict[str, Any]]:
        seat = self.moves % self.players
        self.total[seat] += action[1]
        self.moves += 1
        return [{"type": "ticked", "seat": seat, "by": action[1]}]

    def scores(self) -> list[int]:
        return list(self.total)

    def ranking(self) -> list[list[int]]:
        return [[s] for s in sorted(range(self.players), key=lambda s: -self.total[s])]

    def view(self, seat: int | None) -> dict[str, Any]:
        over = self.is_over
        return {
            "game": "tick",
            "players": self.players,
            "seat": seat,
            "current_player": self.current_player,
            "is_over": over,
            "scores": self.scores(),
            "ranking": self.ranking() if over else None,
            "moves": self.moves,
        }

    def label(self, action: tuple[Any, ...]) -> str:
        return f"Tick {action[1]}"


class Tick:
    name = "tick"
    title = "Tick"
    min_players = 1
    max_players = 8

    def new(self, players: int, seed: int, options: Any = None) -> TickState:
        return TickState(players)


class ActingViewsOnly:
    """A state whose view is empty for every seat but the one to act (``--views acting``).

    An experiment, not a rule: it measures the most that sending waiting seats less (a delta
    instead of a full view) could save, by sending them nothing at all.
    """

    def __init__(self, state: Any) -> None:
        self.state = state
        # Bound once: forwarding through __getattr__ on every call would slow the experiment.
        self.legal_actions = state.legal_actions
        self.label = state.label
        self.scores = state.scores
        self.ranking = state.ranking

    @property
    def current_player(self) -> int | None:
        return self.state.current_player  # type: ignore[no-any-return]

    @property
    def is_over(self) -> bool:
        return self.state.is_over  # type: ignore[no-any-return]

    def apply(self, action: Any) -> Any:
        return self.state.apply(action)

    def clone(self) -> ActingViewsOnly:
        return ActingViewsOnly(self.state.clone())

    def view(self, seat: int | None) -> dict[str, Any]:
        state = self.state
        if seat is None or state.is_over or seat == state.current_player:
            return state.view(seat)  # type: ignore[no-any-return]
        return {"seat": seat, "current_player": state.current_player, "is_over": False}


class ActingViewsOnlyGame:
    def __init__(self, game: Any) -> None:
        self.game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def new(self, players: int, seed: int, options: Any = None) -> ActingViewsOnly:
        return ActingViewsOnly(self.game.new(players, seed, options))


class BenchRegistry:
    def __init__(self, acting_views_only: bool = False) -> None:
        self.acting_views_only = acting_views_only

    def names(self) -> list[str]:
        import games

        return sorted([*games.names(), "tick"])

    def get(self, name: str) -> Any:
        import games

        game = Tick() if name == "tick" else games.get(name)
        return ActingViewsOnlyGame(game) if self.acting_views_only else game


def run_server(
    kind: str, views: str = "all", db: str = "file", paced: bool = False, collector: str = "serve"
) -> None:
    """Serve until told to stop; counts what it handles (applied actions, echoed messages) and
    answers ``stats`` (and ``profile``) on its standard input (see :class:`Control`)."""
    pin(0)
    handled = [0]
    if kind == "cosmoport":
        import tempfile

        from server.limits import Limits
        from server.service import listen
        from server.store import Store
        from server.table import Table

        # All clients come from 127.0.0.1: the limits per address (and in all) must go. Paced
        # clients stay well inside the default rates, so those are kept when pacing.
        rates = {} if paced else {"rate": 1e9, "burst": 10**9, "act_rate": 1e9, "act_burst": 10**9}
        limits = Limits(
            **rates,  # type: ignore[arg-type]
            connections_per_address=10**6,
            max_connections=10**6,
            max_tables=10**6,
            tables_per_address=10**6,
        )
        apply = Table._apply

        def counted(self: Table, *args: Any, **kwargs: Any) -> Any:
            key = apply(self, *args, **kwargs)
            handled[0] += 1
            return key

        Table._apply = counted  # type: ignore[method-assign]
        registry = BenchRegistry(acting_views_only=views == "acting")
        folder = tempfile.TemporaryDirectory(prefix="cosmoport-bench-")
        store = Store.open(":memory:" if db == "memory" else Path(folder.name) / "server.db")
        port, _ = listen(reactor, "127.0.0.1", 0, limits, registry=registry, store=store)
        if collector == "serve":  # as `cosmoport serve` has it
            from server.service import RareCollections

            RareCollections(reactor).start()
    else:

        class Echo(Int32StringReceiver):
            MAX_LENGTH = 64 * 1024

            def connectionMade(self) -> None:
                self.transport.setTcpNoDelay(True)

            def stringReceived(self, body: bytes) -> None:
                handled[0] += 1
                self.sendString(encode(decode(body)))

        port = reactor.listenTCP(0, protocol.Factory.forProtocol(Echo), interface="127.0.0.1")
    print(port.getHost().port, flush=True)
    stdio.StandardIO(Control(handled))
    reactor.run()


class Control(LineReceiver):
    """The server child's side of the bench: ``stats`` answers the CPU time this process has
    used (user + system, from ``os.times``), the actions it applied (or messages it echoed) and
    the time; ``profile`` starts cProfile, ``profile-stop PATH`` stops it and writes its stats.
    The server stops when its standard input closes (the bench has gone)."""

    delimiter = b"\n"

    def __init__(self, handled: list[int]) -> None:
        self.handled = handled
        self.profiler: Any = None
        # Time in the garbage collector, full collections (of the oldest generation, which walk
        # every object the server holds) and young ones apart.
        self.collections = {"full": 0, "full_seconds": 0.0, "young_seconds": 0.0}
        self._collecting_since = 0.0
        gc.callbacks.append(self._collecting)

    def _collecting(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._collecting_since = time.perf_counter()
            return
        took = time.perf_counter() - self._collecting_since
        if info["generation"] == 2:
            self.collections["full"] += 1
            self.collections["full_seconds"] += took
        else:
            self.collections["young_seconds"] += took

    def lineReceived(self, line: bytes) -> None:
        command, _, rest = line.decode().partition(" ")
        reply: dict[str, Any] = {}
        if command == "stats":
            times = os.times()
            reply = {"cpu": times.user + times.system, "system": times.system}
            reply["count"] = self.handled[0]
            reply["at"] = time.monotonic()
            reply["gc"] = dict(self.collections)
        elif command == "profile":
            import cProfile

            self.profiler = cProfile.Profile()
            self.profiler.enable()
        elif command == "profile-stop" and self.profiler is not None:
            self.profiler.disable()
            self.profiler.dump_stats(rest)
        self.transport.write(json.dumps(reply).encode() + b"\n")

    def connectionLost(self, reason: Any = None) -> None:
        if reactor.running:
            reactor.stop()


# --- clients -----------------------------------------------------------------------------------


class Client(Int32StringReceiver):
    MAX_LENGTH = MAX_SERVER_FRAME

    def __init__(self, bench: Bench, rng: random.Random, think: float = 0.0) -> None:
        self.think = think
        self.bench = bench
        self.rng = rng
        self.waiter: defer.Deferred[dict[str, Any]] | None = None
        self.sent_at: dict[int, float] = {}
        self.next_id = 0
        self.done: defer.Deferred[None] = defer.Deferred()
        self.playing = False

    def connectionMade(self) -> None:
        self.transport.setTcpNoDelay(True)

    def stringReceived(self, body: bytes) -> None:
        msg = decode(body, max_depth=None)
        kind = msg["type"]
        if kind == "ping":
            self.sendString(encode({"type": "pong"}))
            return
        if self.playing:
            self.play(msg)
        elif self.waiter is not None and kind not in ("table_update", "chat", "seat_status"):
            waiter, self.waiter = self.waiter, None
            waiter.callback(msg)

    def call(self, msg: dict[str, Any]) -> defer.Deferred[dict[str, Any]]:
        self.waiter = defer.Deferred()
        self.sendString(encode(msg))
        return self.waiter

    def play(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind in ("update", "snapshot"):
            sent = self.sent_at.pop(msg.get("id", -1), None)
            if sent is not None:
                self.bench.rtts.append(time.perf_counter() - sent)
            if msg["legal"]:
                action = self.rng.choice(msg["legal"])["action"]
                if self.think:  # jittered, so that tables do not act in lockstep
                    delay = self.think * self.rng.uniform(0.5, 1.5)
                    reactor.callLater(delay, self.act, msg["version"], action)
                else:
                    self.act(msg["version"], action)
        elif kind == "game_over":
            self.bench.games += 1
            if not self.done.called:
                self.done.callback(None)
        elif kind == "error" and not self.done.called:
            # Raising here would only be logged by the reactor and the bench would wait forever.
            self.done.errback(RuntimeError(f"the server refused an action: {msg}"))

    def act(self, version: int, action: list[Any]) -> None:
        self.next_id += 1
        self.sent_at[self.next_id] = time.perf_counter()
        msg = {"type": "act", "id": self.next_id, "version": version, "action": action}
        self.sendString(encode(msg))


class Bench:
    def __init__(self, labels: bool = False) -> None:
        self.rtts: list[float] = []
        self.games = 0
        self.labels = labels  # whether the clients want the legal actions' labels


async def open_client(
    port: int, bench: Bench, rng: random.Random, name: str, think: float
) -> Client:
    client = Client(bench, rng, think)
    await connectProtocol(TCP4ClientEndpoint(reactor, "127.0.0.1", port), client)
    hello: dict[str, Any] = {"type": "hello", "version": 1, "name": name}
    if not bench.labels:
        hello["labels"] = False  # bots read no labels (PROTOCOL.md 6.1)
    await client.call(hello)
    return client


async def one_table(
    port: int, bench: Bench, game: str, players: int, seed: int, think: float
) -> list[Client]:
    """Connect, create, join: a table ready to start."""
    rng = random.Random(seed)
    clients = [
        await open_client(port, bench, random.Random(rng.random()), f"b{i}", think)
        for i in range(players)
    ]
    created = await clients[0].call({"type": "create", "game": game, "players": players})
    table = created["table"]["id"]
    for client in clients:
        reply = await client.call({"type": "join", "table": table})
        assert reply["type"] == "joined", reply
    return clients


def machine_load() -> str:
    """The machine this runs on and how busy it was before we started (figures compare only
    within a run: a shared or loaded machine slows both our server and the echo)."""
    cores = os.cpu_count() or 0
    try:
        one, five, _ = os.getloadavg()
    except OSError:
        return f"{cores} cores, load unknown"
    return f"{cores} cores, load average {one:.2f} (1 min), {five:.2f} (5 min) before the run"


def cpu_seconds(pid: int | None = None) -> float:
    """CPU time (user + system) of this process, or of child ``pid`` (Linux), else NaN."""
    if pid is None:
        t = os.times()
        return t.user + t.system
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return float("nan")


async def run_tables(
    port: int,
    tables: int,
    game: str,
    players: int,
    think: float = 0.0,
    server_pid: int | None = None,
    labels: bool = False,
) -> dict[str, float]:
    """Set every table up, then start them all at once and time the play to the last end."""
    bench = Bench(labels)
    ready = await defer.gatherResults(
        [
            defer.ensureDeferred(one_table(port, bench, game, players, i, think))
            for i in range(tables)
        ]
    )
    start = time.perf_counter()
    cpu_client, cpu_server = cpu_seconds(), cpu_seconds(server_pid)
    for clients in ready:
        for client in clients:
            client.playing = True
        clients[0].sendString(encode({"type": "start"}))
    await defer.gatherResults([c.done for clients in ready for c in clients])
    elapsed = time.perf_counter() - start
    cpu_client = cpu_seconds() - cpu_client
    cpu_server = cpu_seconds(server_pid) - cpu_server
    for clients in ready:
        for client in clients:
            client.transport.loseConnection()
    return summary(bench.rtts, elapsed) | {
        "games": bench.games / players,
        "server_cpu": cpu_server / elapsed,
        "client_cpu": cpu_client / elapsed,
    }


class EchoClient(Int32StringReceiver):
    MAX_LENGTH = MAX_SERVER_FRAME

    def __init__(self, payload: bytes, rtts: list[float], stop_at: float) -> None:
        self.payload = payload
        self.rtts = rtts
        self.stop_at = stop_at
        self.sent = 0.0
        self.done: defer.Deferred[None] = defer.Deferred()

    def connectionMade(self) -> None:
        self.transport.setTcpNoDelay(True)
        self.fire()

    def fire(self) -> None:
        self.sent = time.perf_counter()
        self.sendString(self.payload)

    def stringReceived(self, body: bytes) -> None:
        decode(body, max_depth=None)
        now = time.perf_counter()
        self.rtts.append(now - self.sent)
        if now < self.stop_at:
            self.fire()
        else:
            self.transport.loseConnection()
            self.done.callback(None)


async def run_echo(
    port: int, connections: int, seconds: float, server_pid: int | None = None
) -> dict[str, float]:
    payload = encode({"type": "act", "id": 17, "version": 123, "action": ["assign", 2, "P3"]})
    rtts: list[float] = []
    start = time.perf_counter()
    stop_at = start + seconds
    cpu_server = cpu_seconds(server_pid)
    clients = [EchoClient(payload, rtts, stop_at) for _ in range(connections)]
    for client in clients:
        await connectProtocol(TCP4ClientEndpoint(reactor, "127.0.0.1", port), client)
    await defer.gatherResults([c.done for c in clients])
    elapsed = time.perf_counter() - start
    return summary(rtts, elapsed) | {"server_cpu": (cpu_seconds(server_pid) - cpu_server) / elapsed}


def cpu_per_item_us(result: dict[str, float]) -> float:
    """The server's CPU time per action (or per echoed message), in microseconds."""
    return 1e6 * result["server_cpu"] / result["rate"] if result["rate"] else float("nan")


def summary(rtts: list[float], elapsed: float) -> dict[str, float]:
    ordered = sorted(rtts)
    return {
        "count": len(ordered),
        "seconds": elapsed,
        "rate": len(ordered) / elapsed if elapsed else 0.0,
        "p50_ms": 1000 * statistics.median(ordered) if ordered else 0.0,
        "p99_ms": 1000 * ordered[int(0.99 * (len(ordered) - 1))] if ordered else 0.0,
    }


def spawn(kind: str, views: str = "all", db: str = "file") -> tuple[subprocess.Popen[str], int]:
    child = subprocess.Popen(
        [sys.executable, __file__, "--child", kind, "--views", views, "--db", db],
        stdin=subprocess.PIPE,  # the child stops when it closes (see Control)
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    return child, int(child.stdout.readline())


async def main(args: argparse.Namespace) -> None:
    pin(1)
    print(
        f"Cosmoport server bench: {args.tables} tables of {args.game}, {args.players} players, "
        f"random-choice clients (think {args.think_ms:g} ms, "
        f"{'want labels' if args.labels else 'no labels'}), loopback, server pinned to one core"
    )
    print(f"  machine: {machine_load()}")
    if args.views == "acting":
        print("  experiment: only the seat to act gets a view (the bound for any delta encoding)")
    results = {}
    for db in ("file", "memory") if args.db == "both" else (args.db,):
        child, port = spawn("cosmoport", args.views, db)
        try:
            think = args.think_ms / 1000
            ours = await run_tables(
                port, args.tables, args.game, args.players, think, child.pid, args.labels
            )
        finally:
            child.terminate()
            child.wait()
        results[db] = ours
        where = "tables in a WAL file" if db == "file" else "tables in an in-memory database"
        print(
            f"  cosmoport ({where}): {ours['count']:.0f} actions in {ours['seconds']:.1f}s over "
            f"{ours['games']:.0f} games = {ours['rate']:.0f} actions/s; round trip "
            f"p50 {ours['p50_ms']:.2f} ms, p99 {ours['p99_ms']:.2f} ms"
        )
        print(
            f"             server process busy {100 * ours['server_cpu']:.0f}% of its core "
            f"({cpu_per_item_us(ours):.0f} us of CPU per action), "
            f"clients {100 * ours['client_cpu']:.0f}% of theirs"
        )
    if len(results) == 2:
        extra = cpu_per_item_us(results["file"]) - cpu_per_item_us(results["memory"])
        print(f"  saving each action to the file costs {extra:.0f} us of server CPU per action")
    ours = results["file" if "file" in results else "memory"]
    child, port = spawn("echo")
    try:
        echo = await run_echo(port, args.tables, args.echo_seconds, child.pid)
    finally:
        child.terminate()
        child.wait()
    print(
        f"  raw echo:  {echo['count']:.0f} round trips in {echo['seconds']:.1f}s with "
        f"{args.tables} connections = {echo['rate']:.0f}/s; p50 {echo['p50_ms']:.2f} ms, "
        f"p99 {echo['p99_ms']:.2f} ms; {cpu_per_item_us(echo):.0f} us of server CPU each"
    )
    ratio = ours["rate"] / echo["rate"] if echo["rate"] else 0.0
    print(f"  ratio (cosmoport actions/s / echo round trips/s): {ratio:.2f}")
    for db, result in results.items():
        factor = cpu_per_item_us(result) / cpu_per_item_us(echo)
        print(f"  server CPU per action ({db}) / echo CPU per round trip: {factor:.1f}")
    print(f"  machine: load average {os.getloadavg()[0]:.2f} (1 min) at the end of the run")


def cli() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--tables", type=int, help="tables played at once (default 200; paced: 2000)"
    )
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--game", default="cosmic_run")
    parser.add_argument("--echo-seconds", type=float, default=5.0)
    parser.add_argument("--think-ms", type=float, default=0.0, help="client think time")
    parser.add_argument(
        "--views",
        choices=("all", "acting"),
        default="all",
        help="experiment: 'acting' sends waiting seats no view (what deltas could save at most)",
    )
    parser.add_argument(
        "--db",
        choices=("file", "memory", "both"),
        default="file",
        help="where the server keeps its tables: a WAL file (as `cosmoport serve`), an "
        "in-memory database, or both one after the other (default file)",
    )
    paced = parser.add_argument_group(
        "paced load", "every seat acts a while after its turn comes, from client processes"
    )
    paced.add_argument(
        "--pace",
        type=float,
        nargs="?",
        const=1.0,
        metavar="SECONDS",
        help="pace the seats: each acts SECONDS (x0.5-1.5) after its turn comes (default 1)",
    )
    paced.add_argument("--duration", type=float, default=30.0, help="seconds measured")
    paced.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    paced.add_argument(
        "--client-procs", type=int, help="client processes (default: one per ~400 tables)"
    )
    paced.add_argument(
        "--find-max",
        action="store_true",
        help="grow the table count from --tables (x1.5), then bisect: the largest count that "
        "holds p99 < 20 ms, in at most --max-runs runs",
    )
    paced.add_argument("--max-runs", type=int, default=6, help="runs --find-max may make")
    paced.add_argument(
        "--profile", metavar="PATH", help="cProfile the server over the window into PATH"
    )
    parser.add_argument(
        "--labels",
        action="store_true",
        help="clients want the legal actions' labels, as people's clients do (default: as bots, "
        "they ask for none in hello)",
    )
    parser.add_argument(
        "--gc",
        choices=("serve", "auto"),
        default="serve",
        help="the server's garbage collector: as `cosmoport serve` has it (automatic runs off, "
        "a full collection every 10 minutes; the default) or Python's automatic runs",
    )
    parser.add_argument("--child", choices=("cosmoport", "echo"), help=argparse.SUPPRESS)
    parser.add_argument("--paced", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        db = "memory" if args.db == "memory" else "file"
        run_server(args.child, args.views, db, args.paced, args.gc)
        return
    if args.pace is None and (args.find_max or args.profile):
        parser.error("--find-max and --profile go with --pace")
    if args.pace is not None:
        import paced as paced_load

        args.tables = args.tables or 2000

        def spawn_paced(db: str) -> tuple[paced_load.Child, int]:
            kind = "echo" if db == "echo" else "cosmoport"
            argv = [
                sys.executable,
                __file__,
                "--child",
                kind,
                "--views",
                args.views,
                "--gc",
                args.gc,
            ]
            child = paced_load.Child([*argv, "--db", "file" if kind == "echo" else db, "--paced"])
            return child, int(child.line(60))

        pin(1)
        paced_load.paced_main(args, spawn_paced, machine_load())
        return
    args.tables = args.tables or 200
    task.react(lambda _reactor: defer.ensureDeferred(main(args)))


if __name__ == "__main__":
    cli()
