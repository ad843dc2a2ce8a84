"""Paced load for ``bench/server.py --pace``: thousands of tables whose seats take their time.

A LAN party or a table of thinking bots is paced by thinking: every seat acts ``pace`` seconds
(times a jitter drawn from 0.5-1.5, so that tables never act in lockstep) after its turn comes,
and a game that ends is followed by a new one at the same table size. The server runs in its own
process pinned to core 0; the clients run in ``--client-procs`` processes pinned to the other
cores, so that the load generator is not the limit (each run says how busy it kept them). A
run sets every table up, starts the games spread over one pace period, warms up, then measures
for ``--duration`` seconds:

* the round trip of an action, from sending ``act`` to receiving the ``update`` that echoes its
  id, at p50 and p99 (timed in the client processes, so their own delays count against us);
* the actions the server applied and the CPU time (user + system) it spent, both read by the
  server process itself at the window's edges (``os.times``), hence its CPU per action;
* the same for a raw Twisted msgpack echo server driven the same way (one connection per table,
  each sending one message ``pace`` seconds, jittered alike, after its reply): the yardstick of
  this machine's speed, measured in the same run;
* how busy each core was (``/proc/stat``), the client processes' own CPU time and the load
  average, so that a reader can tell whether anything else got in the way.

This module is also the client process (``python bench/paced.py --client CONFIG``): it reads
``go`` with the schedule on its standard input and writes its results as one JSON line.
"""

from __future__ import annotations

import gc
import json
import math
import os
import pstats
import queue
import random
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

P99_TARGET_MS = 20.0
"""The round trip an action must keep at the 99th percentile (issue 18)."""
ECHO_FACTOR_TARGET = 3.0
"""The most CPU per action the server may spend, in echo round trips (one action, three frames)."""
STORE_TARGET = 0.20
"""The most CPU per action that saving every action to the file may add."""
SETUP_CONCURRENCY = 4
"""Tables each client process sets up at once (people in the lobby get every table's updates,
so a few at a time keeps the set-up from costing what it would with thousands waiting there)."""

ECHO_PAYLOAD = {"type": "act", "id": 17, "version": 123, "action": ["assign", 2, "P3"]}


def jitter(rng: random.Random, pace: float) -> float:
    """How long a seat waits once its turn comes: ``pace`` times 0.5-1.5."""
    return pace * rng.uniform(0.5, 1.5)


# --- the client process ------------------------------------------------------------------------


class Load:
    """What one client process measures: round trips completed inside the window, and so on."""

    def __init__(self, pace: float, seed: int) -> None:
        self.pace = pace
        self.rng = random.Random(seed)
        self.acting = False
        self.window = (math.inf, -math.inf)
        self.rtts_us: list[int] = []
        self.errors = 0
        self.first_error = ""
        self.games = 0

    def completed(self, sent: float) -> None:
        now = time.monotonic()
        if self.window[0] <= now <= self.window[1]:
            self.rtts_us.append(round(1e6 * (now - sent)))

    def refused(self, msg: dict[str, Any]) -> None:
        self.errors += 1
        self.first_error = self.first_error or f"{msg.get('code')}: {msg.get('message')}"


def client_protocols() -> tuple[type, type]:
    """The two client protocols (defined once Twisted is imported, in the client process only)."""
    from twisted.internet import defer, reactor
    from twisted.protocols.basic import Int32StringReceiver

    from protocol import MAX_SERVER_FRAME, decode, encode

    class Seat(Int32StringReceiver):
        """One seat's connection: sits down, then acts a paced while after each turn comes."""

        MAX_LENGTH = MAX_SERVER_FRAME

        def __init__(self, table: PacedTable, load: Load, rng: random.Random) -> None:
            self.table = table
            self.load = load
            self.rng = rng
            self.replies: dict[str, defer.Deferred[dict[str, Any]]] = {}
            self.requests = 0
            self.acts = 0
            self.in_flight: tuple[int, float] | None = None  # (id, sent at) of our action
            self.timer: Any = None

        def connectionMade(self) -> None:
            self.transport.setTcpNoDelay(True)

        def request(self, msg: dict[str, Any]) -> defer.Deferred[dict[str, Any]]:
            self.requests += 1
            request_id = f"r{self.requests}"
            self.replies[request_id] = waiter = defer.Deferred()
            self.sendString(encode({**msg, "id": request_id}))
            return waiter

        def stringReceived(self, body: bytes) -> None:
            msg = decode(body, max_depth=None)
            kind = msg["type"]
            request_id = msg.get("id")
            if kind in ("update", "snapshot"):
                self.updated(msg)
            elif kind == "ping":
                pong = {"type": "pong"}
                if request_id is not None:
                    pong["id"] = request_id
                self.sendString(encode(pong))
            elif kind == "game_over":
                self.table.game_over()
            elif isinstance(request_id, str) and request_id in self.replies:
                waiter = self.replies.pop(request_id)
                if kind in ("error", "reject"):
                    waiter.errback(RuntimeError(f"{msg['code']}: {msg['message']}"))
                else:
                    waiter.callback(msg)
            elif kind in ("error", "reject"):
                self.load.refused(msg)

        def updated(self, msg: dict[str, Any]) -> None:
            if self.in_flight is not None and msg.get("id") == self.in_flight[0]:
                self.load.completed(self.in_flight[1])
                self.in_flight = None
            if self.timer is not None and self.timer.active():
                self.timer.cancel()
            self.timer = None
            if msg["legal"] and self.load.acting:
                action = self.rng.choice(msg["legal"])["action"]
                delay = jitter(self.load.rng, self.load.pace)
                self.timer = reactor.callLater(delay, self.act, msg["version"], action)

        def act(self, version: int, action: list[Any]) -> None:
            self.timer = None
            if not self.load.acting:
                return
            self.acts += 1
            self.in_flight = (self.acts, time.monotonic())
            msg = {"type": "act", "id": self.acts, "version": version, "action": action}
            self.sendString(encode(msg))

    class PacedEcho(Int32StringReceiver):
        """One echo connection, paced like a table: a message, its reply, a jittered wait."""

        MAX_LENGTH = MAX_SERVER_FRAME

        def __init__(self, load: Load, payload: bytes) -> None:
            self.load = load
            self.payload = payload
            self.sent = 0.0

        def connectionMade(self) -> None:
            self.transport.setTcpNoDelay(True)

        def fire(self) -> None:
            if self.load.acting:
                self.sent = time.monotonic()
                self.sendString(self.payload)

        def stringReceived(self, body: bytes) -> None:
            decode(body, max_depth=None)
            self.load.completed(self.sent)
            if self.load.acting:
                reactor.callLater(jitter(self.load.rng, self.load.pace), self.fire)

    return Seat, PacedEcho


class PacedTable:
    """A table's seats in one client process: set up, started, and started again after each
    game (leave, create, join, start), for as long as the load runs."""

    def __init__(self, load: Load, config: dict[str, Any], seed: int) -> None:
        self.load = load
        self.config = config
        self.rng = random.Random(seed)
        self.seats: list[Any] = []
        self.over = 0

    async def open(self, seat_class: type) -> None:
        from twisted.internet import defer, reactor
        from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol

        endpoint = TCP4ClientEndpoint(reactor, "127.0.0.1", self.config["port"])
        for _ in range(self.config["players"]):
            seat = seat_class(self, self.load, random.Random(self.rng.random()))
            await connectProtocol(endpoint, seat)
            self.seats.append(seat)
        hello: dict[str, Any] = {"type": "hello", "version": 1, "client": "bench/paced.py"}
        if not self.config["labels"]:
            hello["labels"] = False  # bots read no labels (PROTOCOL.md 6.1)
        await defer.gatherResults(
            [s.request({**hello, "name": f"b{i}"}) for i, s in enumerate(self.seats)]
        )
        await self.sit()

    async def sit(self) -> None:
        from twisted.internet import defer

        game, players = self.config["game"], self.config["players"]
        created = await self.seats[0].request({"type": "create", "game": game, "players": players})
        table = created["table"]["id"]
        await defer.gatherResults([s.request({"type": "join", "table": table}) for s in self.seats])

    def start(self) -> None:
        if self.load.acting:
            self.over = 0
            self.seats[0].request({"type": "start"}).addErrback(self.failed)

    def game_over(self) -> None:
        self.over += 1
        if self.over == len(self.seats):
            self.load.games += 1
            from twisted.internet import defer

            defer.ensureDeferred(self.again()).addErrback(self.failed)

    async def again(self) -> None:
        from twisted.internet import defer

        if not self.load.acting:
            return
        await defer.gatherResults([s.request({"type": "leave"}) for s in self.seats])
        await self.sit()
        self.start()

    def failed(self, failure: Any) -> None:
        self.load.refused({"code": "bench", "message": failure.getErrorMessage()})


def pin(cpus: list[int]) -> None:
    if hasattr(os, "sched_setaffinity"):
        usable = [c for c in cpus if c < (os.cpu_count() or 1)]
        if usable:
            os.sched_setaffinity(0, set(usable))


async def client_run(config: dict[str, Any]) -> None:
    from twisted.internet import defer, reactor, stdio, task
    from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
    from twisted.protocols.basic import LineReceiver

    from protocol import encode

    seat_class, echo_class = client_protocols()
    load = Load(config["pace"], config["seed"])
    go: defer.Deferred[dict[str, Any]] = defer.Deferred()
    closed: defer.Deferred[None] = defer.Deferred()

    class Control(LineReceiver):
        delimiter = b"\n"

        def lineReceived(self, line: bytes) -> None:
            if not go.called:
                go.callback(json.loads(line))

        def connectionLost(self, reason: Any = None) -> None:
            closed.callback(None)
            if reactor.running and not go.called:  # the parent has gone: so do we
                reactor.stop()

    control = Control()
    stdio.StandardIO(control)

    def say(msg: dict[str, Any]) -> None:
        control.transport.write(json.dumps(msg).encode() + b"\n")

    tables: list[PacedTable] = []
    echoes: list[Any] = []
    try:
        if config["kind"] == "cosmoport":
            tables = [PacedTable(load, config, seed) for seed in range(*config["share"])]
            gate = defer.DeferredSemaphore(SETUP_CONCURRENCY)
            await defer.gatherResults(
                [gate.run(lambda t=t: defer.ensureDeferred(t.open(seat_class))) for t in tables],
                consumeErrors=True,
            )
        else:
            endpoint = TCP4ClientEndpoint(reactor, "127.0.0.1", config["port"])
            payload = encode(ECHO_PAYLOAD)
            for _ in range(*config["share"]):
                echo = echo_class(load, payload)
                await connectProtocol(endpoint, echo)
                echoes.append(echo)
    except Exception as exc:
        reason = exc.subFailure.getErrorMessage() if hasattr(exc, "subFailure") else str(exc)
        say({"failed": f"setting up: {reason}"})
        return
    # A load generator's own garbage collections would stall its clients and show up as the
    # server's latency: what is set up is frozen out of them, and the collector is off for the
    # bounded run (the little it would free is freed at exit).
    gc.collect()
    gc.freeze()
    gc.disable()
    say({"ready": True})
    schedule = await go
    now = time.monotonic()
    load.window = (schedule["from"], schedule["to"])
    cpu: list[float] = []

    def begin() -> None:
        load.acting = True
        for starter in [t.start for t in tables] + [e.fire for e in echoes]:
            reactor.callLater(load.rng.uniform(0, load.pace), starter)

    def mark() -> None:
        times = os.times()
        cpu.append(times.user + times.system)

    def end() -> None:
        mark()
        load.acting = False

    reactor.callLater(max(0.0, schedule["start"] - now), begin)
    reactor.callLater(max(0.0, schedule["from"] - now), mark)
    reactor.callLater(max(0.0, schedule["to"] - now), end)
    await task.deferLater(reactor, max(0.0, schedule["to"] - now) + 0.05, lambda: None)
    say(
        {
            "rtts_us": load.rtts_us,
            "cpu": cpu[1] - cpu[0] if len(cpu) == 2 else math.nan,
            "games": load.games,
            "errors": load.errors,
            "first_error": load.first_error,
        }
    )
    for transport in [s.transport for t in tables for s in t.seats] + [e.transport for e in echoes]:
        transport.loseConnection()
    control.transport.loseConnection()  # once the results are written
    await closed


def client_main(config: dict[str, Any]) -> None:
    from twisted.internet import defer, task

    pin(config["cpus"])
    task.react(lambda _reactor: defer.ensureDeferred(client_run(config)))


# --- the parent: processes, windows, figures ---------------------------------------------------


class Child:
    """A child process that talks in JSON lines (a reader thread, so waits can time out)."""

    def __init__(self, argv: list[str]) -> None:
        self.process = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put("")

    def line(self, timeout: float) -> str:
        try:
            line = self.lines.get(timeout=max(0.0, timeout))
        except queue.Empty:
            raise RuntimeError(f"{self.process.args[1]} said nothing for {timeout:.0f}s") from None
        if not line:
            raise RuntimeError(f"{self.process.args[1]} ended (exit {self.process.wait()})")
        return line

    def ask(self, command: str, timeout: float = 30.0) -> dict[str, Any]:
        self.tell(command)
        reply: dict[str, Any] = json.loads(self.line(timeout))
        return reply

    def tell(self, command: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()

    def stop(self) -> None:
        """Close its standard input (it stops then), else terminate it, else kill it."""
        assert self.process.stdin is not None
        for ending in (self.process.stdin.close, self.process.terminate, self.process.kill):
            if self.process.poll() is None:
                ending()
            try:
                self.process.wait(timeout=10)
                return
            except subprocess.TimeoutExpired:
                continue


def core_times() -> dict[int, tuple[float, float]]:
    """(busy, total) jiffies of each core so far, from ``/proc/stat`` (empty elsewhere)."""
    cores: dict[int, tuple[float, float]] = {}
    try:
        with open("/proc/stat") as f:
            for line in f:
                name, *fields = line.split()
                if name.startswith("cpu") and name != "cpu":
                    values = [float(v) for v in fields[:8]]
                    idle = values[3] + values[4]  # idle, iowait
                    cores[int(name[3:])] = (sum(values) - idle, sum(values))
    except OSError:
        pass
    return cores


def core_busy(
    before: dict[int, tuple[float, float]], after: dict[int, tuple[float, float]]
) -> dict[int, float]:
    """The share of each core's time spent busy between two :func:`core_times`."""
    busy = {}
    for core, (b1, t1) in after.items():
        b0, t0 = before.get(core, (0.0, 0.0))
        busy[core] = (b1 - b0) / (t1 - t0) if t1 > t0 else math.nan
    return busy


def client_cores() -> list[int]:
    cores = os.cpu_count() or 1
    return list(range(1, cores)) if cores > 1 else [0]


def default_client_procs(tables: int) -> int:
    """Enough processes that none holds more than ~400 tables, at least one per client core."""
    return max(len(client_cores()), min(16, math.ceil(tables / 400)))


def sleep_until(moment: float) -> None:
    time.sleep(max(0.0, moment - time.monotonic()))


def run_once(
    kind: str,
    tables: int,
    args: Any,
    spawn_server: Callable[[str], tuple[Child, int]],
    db: str = "file",
    profile: str | None = None,
) -> dict[str, Any]:
    """One paced run against the ``kind`` server (``cosmoport`` or ``echo``): its figures."""
    server, port = spawn_server(db if kind == "cosmoport" else "echo")
    procs = args.client_procs or default_client_procs(tables)
    procs = max(1, min(procs, tables))
    clients: list[Child] = []
    try:
        for i in range(procs):
            config = {
                "kind": kind,
                "port": port,
                "game": args.game,
                "players": args.players,
                "pace": args.pace,
                "share": [i, tables, procs],  # range(): tables i, i + procs, ...
                "seed": 1000 + i,
                "cpus": client_cores(),
                "labels": args.labels,
            }
            clients.append(Child([sys.executable, __file__, "--client", json.dumps(config)]))
        setup = time.monotonic()
        deadline = setup + 60 + tables * 0.05
        for child in clients:
            ready = json.loads(child.line(deadline - time.monotonic()))
            if "failed" in ready:
                raise RuntimeError(f"a client process failed {ready['failed']}")
        setup = time.monotonic() - setup
        start = time.monotonic() + 0.5
        window = (start + args.warmup, start + args.warmup + args.duration)
        for child in clients:
            child.tell(json.dumps({"start": start, "from": window[0], "to": window[1]}))
        sleep_until(window[0])
        cores_before = core_times()
        first = server.ask("stats")
        if profile:
            server.ask("profile")
        sleep_until(window[1])
        if profile:
            server.ask(f"profile-stop {profile}")
        last = server.ask("stats")
        cores_after = core_times()
        load_after = os.getloadavg() if hasattr(os, "getloadavg") else (math.nan,) * 3
        results = [json.loads(c.line(60)) for c in clients]
    finally:
        for child in clients:
            child.stop()
        server.stop()
    seconds = last["at"] - first["at"]
    rtts = sorted(r for result in results for r in result["rtts_us"])
    count = last["count"] - first["count"]
    busy = core_busy(cores_before, cores_after)
    errors = sum(r["errors"] for r in results)
    return {
        "tables": tables,
        "procs": procs,
        "setup": setup,
        "seconds": seconds,
        "count": count,
        "rate": count / seconds if seconds else 0.0,
        "round_trips": len(rtts),
        "p50_ms": statistics.median(rtts) / 1000 if rtts else math.nan,
        "p99_ms": rtts[int(0.99 * (len(rtts) - 1))] / 1000 if rtts else math.nan,
        "server_cpu": (last["cpu"] - first["cpu"]) / seconds if seconds else math.nan,
        "cpu_per_item_us": 1e6 * (last["cpu"] - first["cpu"]) / count if count else math.nan,
        "system_per_item_us": 1e6 * (last["system"] - first["system"]) / count
        if count
        else math.nan,
        "client_cpu": sum(r["cpu"] for r in results) / seconds if seconds else math.nan,
        "busy": busy,
        "load_after": load_after[0],
        "gc": {key: last["gc"][key] - first["gc"][key] for key in last["gc"]},
        "games": sum(r["games"] for r in results),
        "errors": errors,
        "first_error": next((r["first_error"] for r in results if r["first_error"]), ""),
    }


def describe(result: dict[str, Any], what: str) -> list[str]:
    """The lines that report one run."""
    held = "held" if result["p99_ms"] < P99_TARGET_MS else "NOT held"
    lines = [
        f"  {what}: {result['count']:.0f} in {result['seconds']:.1f}s = "
        f"{result['rate']:.0f}/s; round trip p50 {result['p50_ms']:.2f} ms, "
        f"p99 {result['p99_ms']:.2f} ms (p99 < {P99_TARGET_MS:g} ms: {held})",
    ]
    if result["games"]:
        lines[0] += f"; {result['games']} game(s) ended, each followed by a new one"
    client = client_cores()
    busy = result["busy"]
    clients_busy = _mean(busy, client)
    saturated = " - SATURATED: the load generator may be the limit" if clients_busy > 0.9 else ""
    lines.append(
        f"      server process: {100 * result['server_cpu']:.0f}% of core 0 (core 0 busy "
        f"{_pct(busy.get(0))} in all), {result['cpu_per_item_us']:.0f} us of CPU each "
        f"({result['system_per_item_us']:.0f} us of it in the kernel); garbage collector "
        f"{_collector(result['gc'])}"
    )
    lines.append(
        f"      {result['procs']} client process(es), set up in {result['setup']:.0f}s: "
        f"{100 * result['client_cpu'] / len(client):.0f}% of core(s) {','.join(map(str, client))} "
        f"(busy {_pct(clients_busy)} in all){saturated}; "
        f"load average {result['load_after']:.2f} at the end"
    )
    if result["errors"]:
        lines.append(f"      {result['errors']} refusal(s), the first: {result['first_error']}")
    return lines


def _collector(collections: dict[str, float]) -> str:
    full = ""
    if collections["full"]:
        full = (
            f", {collections['full']:.0f} full collection(s) "
            f"{1000 * collections['full_seconds']:.0f} ms"
        )
    return f"{1000 * collections['young_seconds']:.0f} ms in young collections{full}"


def _pct(value: float | None) -> str:
    return "?" if value is None or math.isnan(value) else f"{100 * value:.0f}%"


def _mean(busy: dict[int, float], cores: list[int]) -> float:
    values = [busy[c] for c in cores if c in busy]
    return sum(values) / len(values) if values else math.nan


def report_profile(path: str, top: int = 25) -> None:
    print(f"  profile of the server over the window (cProfile, {path}), by own time:")
    stats = pstats.Stats(path)
    stats.sort_stats("tottime").print_stats(top)


def find_max(args: Any, spawn_server: Callable[[str], tuple[Child, int]], db: str) -> None:
    """Grow the table count by half from ``--tables`` until p99 misses the target, then bisect,
    within ``--max-runs`` runs; print the largest count that held."""
    held, missed = 0, 0
    tables = args.tables
    results = []
    for run in range(args.max_runs):
        result = run_once("cosmoport", tables, args, spawn_server, db)
        results.append(result)
        ok = result["p99_ms"] < P99_TARGET_MS and not result["errors"]
        for line in describe(result, f"find-max run {run + 1}: {tables} tables, actions"):
            print(line, flush=True)
        if ok:
            held = max(held, tables)
        else:
            missed = tables if not missed else min(missed, tables)
        if not missed:
            tables = math.ceil(tables * 1.5)
        elif missed - held <= max(1, held // 10):
            break
        else:
            tables = (held + missed) // 2 if held else max(1, missed // 2)
    missed_text = f", {missed} missed" if missed else ", none missed within the runs allowed"
    print(f"  largest table count that held p99 < {P99_TARGET_MS:g} ms: {held}{missed_text}")
    connections = held or args.tables
    echo = run_once("echo", connections, args, spawn_server)
    for line in describe(echo, f"raw echo, paced alike ({connections} connections), round trips"):
        print(line, flush=True)
    factors = ", ".join(
        f"{r['tables']} tables {r['cpu_per_item_us'] / echo['cpu_per_item_us']:.1f}"
        for r in sorted(results, key=lambda r: r["tables"])
    )
    print(f"  server CPU per action / echo CPU per round trip: {factors}")


def paced_main(args: Any, spawn_server: Callable[[str], tuple[Child, int]], machine: str) -> None:
    client = client_cores()
    print(
        f"Cosmoport paced bench: {args.tables} tables of {args.game}, {args.players} players; "
        f"each seat acts {args.pace:g}s (x0.5-1.5) after its turn comes; "
        f"{args.warmup:g}s warm-up, {args.duration:g}s measured; "
        f"{'clients that want labels' if args.labels else 'bots: no labels (hello)'}"
    )
    print(f"  machine: {machine}")
    print(
        f"  server pinned to core 0, client processes to core(s) {','.join(map(str, client))}; "
        "the bench server's limits on connections and tables (per address and in all) are "
        "raised, all clients coming from 127.0.0.1; its rate limits are the defaults; its "
        + (
            "garbage collector as `cosmoport serve` has it (automatic runs off, a full "
            "collection every 10 minutes)"
            if args.gc == "serve"
            else "garbage collector left to Python's automatic runs (--gc auto)"
        )
    )
    if args.find_max:
        find_max(args, spawn_server, "memory" if args.db == "memory" else "file")
        return
    results: dict[str, dict[str, Any]] = {}
    for db in ("file", "memory") if args.db == "both" else (args.db,):
        where = "tables in a WAL file" if db == "file" else "tables in an in-memory database"
        result = run_once("cosmoport", args.tables, args, spawn_server, db, args.profile)
        results[db] = result
        for line in describe(result, f"cosmoport ({where}), actions"):
            print(line, flush=True)
        if args.profile:
            print("      (profiled: cProfile slows the server, so these figures are inflated)")
            report_profile(args.profile)
            args.profile = None  # one profile per run is enough
    if len(results) == 2:
        file, memory = results["file"]["cpu_per_item_us"], results["memory"]["cpu_per_item_us"]
        extra = (file - memory) / memory if memory else math.nan
        verdict = "met" if extra <= STORE_TARGET else "NOT met"
        print(
            f"  saving each action to the file: {file - memory:+.0f} us of server CPU per action "
            f"({100 * extra:+.0f}%; target at most +{100 * STORE_TARGET:.0f}%: {verdict})"
        )
    echo = run_once("echo", args.tables, args, spawn_server)
    for line in describe(echo, f"raw echo, paced alike ({args.tables} connections), round trips"):
        print(line, flush=True)
    for db, result in results.items():
        factor = result["cpu_per_item_us"] / echo["cpu_per_item_us"]
        verdict = "met" if factor <= ECHO_FACTOR_TARGET else "NOT met"
        print(
            f"  server CPU per action ({db}) / echo CPU per round trip: {factor:.1f} "
            f"(target at most {ECHO_FACTOR_TARGET:g}: {verdict})"
        )


if __name__ == "__main__" and sys.argv[1:2] == ["--client"]:
    client_main(json.loads(sys.argv[2]))
