"""The server's own CPU per action, in one process: no sockets, no reactor loop, no other process.

    .venv/bin/python bench/act.py                       # 2,000 tables of Cosmic Run, 3 players
    .venv/bin/python bench/act.py --game tick           # a trivial game: the server alone
    .venv/bin/python bench/act.py --db file --profile /tmp/act.prof

The real server stack (``ServerFactory``, sessions, tables, the store, the engine, msgpack)
runs with one in-memory transport per seat, as the server tests run it. Every table
plays random legal actions, one per table per round, for ``--rounds`` rounds after a warm-up. A
table whose game ends starts the next one. Only the server's handling of each ``act`` is timed:
the thread's CPU time from the frame handed to the connection until the connection returns,
which covers decoding, validating, applying, storing, every seat's view and encoding
every update. The bots' own work (decoding their updates, choosing) is not counted.

What ``bench/server.py --pace`` measures over real sockets adds Twisted's reactor, the socket
calls and the kernel. This bench leaves those out, so it varies less from run to run: it is the
one to compare two versions of the server code with (run each twice, on a quiet machine). Many
tables make each action touch a table the cache has forgotten, as in a busy server.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib.util
import pstats
import random
import statistics
import struct
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from twisted.internet.address import IPv4Address
from twisted.internet.testing import MemoryReactorClock, StringTransport

from protocol import decode, encode, frame
from server.limits import Limits
from server.service import ServerFactory
from server.store import MEMORY, Store


def server_bench() -> Any:
    """``bench/server.py`` (its registry with the trivial ``tick`` game, its machine line)."""
    spec = importlib.util.spec_from_file_location(
        "bench_server", Path(__file__).with_name("server.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Seat:
    """One bot's connection, an in-memory transport."""

    count = 0

    def __init__(self, factory: ServerFactory) -> None:
        Seat.count += 1
        self.transport = StringTransport(peerAddress=IPv4Address("TCP", "10.0.0.1", Seat.count))
        self.conn = factory.buildProtocol(self.transport.getPeer())
        self.conn.makeConnection(self.transport)
        self.next_id = 0

    def frame(self, msg: dict[str, Any]) -> bytes:
        self.next_id += 1
        return frame(encode({**msg, "id": self.next_id}))

    def send(self, msg: dict[str, Any]) -> None:
        self.conn.dataReceived(self.frame(msg))

    def received(self) -> list[dict[str, Any]]:
        data = self.transport.value()
        self.transport.clear()
        out, at = [], 0
        while at < len(data):
            (size,) = struct.unpack_from(">I", data, at)
            out.append(decode(data[at + 4 : at + 4 + size], max_depth=None))
            at += 4 + size
        return out


class BenchTable:
    """The seats of one table, and the decision the server last offered one of them."""

    def __init__(self, factory: ServerFactory, game: str, players: int, labels: bool) -> None:
        self.game, self.players = game, players
        self.seats = [Seat(factory) for _ in range(players)]
        hello: dict[str, Any] = {"type": "hello", "version": 1, "client": "bench/act.py"}
        if not labels:
            hello["labels"] = False  # bots read no labels (PROTOCOL.md 6.1)
        for n, seat in enumerate(self.seats):
            seat.send({**hello, "name": f"b{n}"})
        self.offer: tuple[Seat, int, list[Any]] | None = None
        self.games = 0
        self.sit()

    def sit(self) -> None:
        """Open a table that starts once every seat is held, and take every seat."""
        host = self.seats[0]
        host.received()
        host.send({"type": "create", "game": self.game, "players": self.players, "autostart": True})
        created = [m for m in host.received() if m["type"] == "created"]
        if not created:
            raise SystemExit(f"the server opened no {self.game} table")
        for seat in self.seats:
            seat.send({"type": "join", "table": created[0]["table"]["id"]})

    def read(self) -> None:
        """Take in what the seats were sent; note the decision offered, if any, and sit down
        at a new table once the game is over."""
        over = False
        for seat in self.seats:
            for msg in seat.received():
                if msg["type"] in ("update", "snapshot") and msg.get("legal"):
                    self.offer = (seat, msg["version"], msg["legal"])
                elif msg["type"] == "game_over":
                    over = True
        if over:
            self.games += 1
            self.offer = None
            for seat in self.seats:
                seat.send({"type": "leave"})
            self.sit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--game", default="cosmic_run", help="cosmic_run, alien_artifacts, tick")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=30, help="actions per table measured")
    parser.add_argument("--warmup", type=int, default=3, help="actions per table first")
    parser.add_argument("--db", choices=("memory", "file"), default="memory")
    parser.add_argument("--labels", action="store_true", help="seats want labels (as people)")
    parser.add_argument("--profile", metavar="PATH", help="cProfile the timed part into PATH")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    run(args)


def run(args: argparse.Namespace) -> None:
    helpers = server_bench()
    folder = tempfile.TemporaryDirectory(prefix="cosmoport-act-")
    store = Store.open(MEMORY if args.db == "memory" else Path(folder.name) / "server.db")
    limits = Limits(
        rate=1e9, burst=10**9, act_rate=1e9, act_burst=10**9, max_connections=10**7,
        connections_per_address=10**7, max_tables=10**7, tables_per_address=10**7,
    )  # fmt: skip
    factory = ServerFactory(
        MemoryReactorClock(),
        limits,
        rng=random.Random(args.seed),
        registry=helpers.BenchRegistry(),
        store=store,
        bots=False,
    )
    factory.startFactory()
    started = time.perf_counter()
    tables = [BenchTable(factory, args.game, args.players, args.labels) for _ in range(args.tables)]
    where = "an in-memory database" if args.db == "memory" else "a WAL file"
    print(
        f"Cosmoport in-process act bench: {args.tables} tables of {args.game}, {args.players} "
        f"players, tables in {where}, {'labels' if args.labels else 'no labels'}; "
        f"set up in {time.perf_counter() - started:.1f}s"
    )
    print(f"  machine: {helpers.machine_load()}")
    rng = random.Random(args.seed)
    clock = time.thread_time
    timings: list[float] = []
    profile = cProfile.Profile() if args.profile else None

    def one_round(measure: bool) -> None:
        for table in tables:
            table.read()
            if table.offer is None:
                continue
            seat, version, legal = table.offer
            table.offer = None
            action = legal[rng.randrange(len(legal))]["action"]
            body = seat.frame({"type": "act", "version": version, "action": action})
            if profile is not None and measure:
                profile.enable()
            begin = clock()
            seat.conn.dataReceived(body)
            spent = clock() - begin
            if profile is not None and measure:
                profile.disable()
            if measure:
                timings.append(spent)

    for _ in range(args.warmup):
        one_round(False)
    for _ in range(args.rounds):
        one_round(True)
    if not timings:
        raise SystemExit("no action was played: nothing to measure")
    mean = statistics.fmean(timings)
    ordered = sorted(timings)
    p99 = ordered[int(0.99 * (len(ordered) - 1))]
    games = sum(table.games for table in tables)
    print(
        f"  {len(timings)} actions, {games} games over: server CPU per action {mean * 1e6:.1f} us "
        f"(median {statistics.median(timings) * 1e6:.1f} us, p99 {p99 * 1e6:.1f} us)"
    )
    if profile is not None:
        profile.dump_stats(args.profile)
        print(f"  profile of the timed part (cProfile, {args.profile}), by own time:")
        pstats.Stats(args.profile, stream=sys.stdout).sort_stats("tottime").print_stats(20)
    store.close()
    folder.cleanup()


if __name__ == "__main__":
    main()
