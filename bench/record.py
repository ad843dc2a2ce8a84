"""The server's CPU for the requests about finished games (``record``, ``history``), in one
process, next to a ``ping`` measured alike in the same run.

    .venv/bin/python bench/record.py                      # 3 games of Alien Artifacts, 3 players
    .venv/bin/python bench/record.py --games 20 --requests 2000 --db memory

The real server stack (``ServerFactory``, sessions, the store, msgpack) with in-memory transports,
as ``bench/act.py`` runs it. First ``--games`` games are played to the end by random legal
actions (Alien Artifacts games are the long ones: a few hundred actions each); then one client
asks, in turns, for ``ping``, ``history`` and the ``record`` of each finished game, and the
thread's CPU time from the frame handed to the connection until the connection returns is
timed for each request (decoding, the database, building the reply and encoding it). A record
is the same bytes every time it is asked for: the figure shows what the server pays for the
second and later ones, which is what many clients asking for records at a LAN party cost.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from twisted.internet.testing import MemoryReactorClock

from server.limits import Limits
from server.service import ServerFactory
from server.store import MEMORY, Store


def _bench_module(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", Path(__file__).with_name(name))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def play_games(factory: ServerFactory, act: Any, game: str, players: int, count: int) -> int:
    """Play ``count`` games to the end; the number of actions played."""
    rng = random.Random(1)
    table = act.BenchTable(factory, game, players, labels=False)
    actions = 0
    while table.games < count:
        table.read()
        if table.offer is None:
            continue
        seat, version, legal = table.offer
        table.offer = None
        seat.send({"type": "act", "version": version, "action": rng.choice(legal)["action"]})
        actions += 1
    return actions


def timed(seat: Any, msg: dict[str, Any]) -> float:
    """The server's CPU seconds for ``msg``; checks that it was answered."""
    body = seat.frame(msg)
    begin = time.thread_time()
    seat.conn.dataReceived(body)
    spent = time.thread_time() - begin
    replies = seat.received()
    answer = "pong" if msg["type"] == "ping" else msg["type"]
    assert replies and replies[-1]["type"] == answer, replies[-1:]
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="finished games to ask about")
    parser.add_argument("--game", default="alien_artifacts")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--requests", type=int, default=600, help="of each kind")
    parser.add_argument("--db", choices=("memory", "file"), default="file")
    args = parser.parse_args()

    act = _bench_module("act.py")
    helpers = act.server_bench()
    folder = tempfile.TemporaryDirectory(prefix="cosmoport-record-")
    store = Store.open(MEMORY if args.db == "memory" else Path(folder.name) / "server.db")
    unlimited = dict(
        rate=1e9, burst=10**9, act_rate=1e9, act_burst=10**9, max_connections=10**7,
        connections_per_address=10**7, max_tables=10**7, tables_per_address=10**7,
        costly_rate=1e9, costly_burst=10**9,
    )  # fmt: skip
    known = {f.name for f in dataclasses.fields(Limits)}  # (older versions: fewer limits)
    limits = Limits(**{k: v for k, v in unlimited.items() if k in known})
    factory = ServerFactory(
        MemoryReactorClock(), limits, rng=random.Random(1), store=store, bots=False
    )
    factory.startFactory()
    started = time.perf_counter()
    actions = play_games(factory, act, args.game, args.players, args.games)
    asker = act.Seat(factory)
    asker.send({"type": "hello", "version": 1, "name": "asker"})
    asker.received()
    asker.send({"type": "history", "limit": 50})
    finished = [g["table"] for g in asker.received()[-1]["games"]]
    size = len(asker.frame({"type": "record", "table": finished[0]}))
    asker.send({"type": "record", "table": finished[0]})
    record_bytes = len(act.frame(act.encode(asker.received()[-1])))
    print(
        f"Cosmoport record bench: {len(finished)} finished games of {args.game} "
        f"({actions} actions in all, played in {time.perf_counter() - started:.1f}s), "
        f"a database {'in memory' if args.db == 'memory' else 'file (WAL)'}; "
        f"a record reply is {record_bytes:,} bytes (a request {size})"
    )
    print(f"  machine: {helpers.machine_load()}")
    kinds: dict[str, Callable[[int], dict[str, Any]]] = {
        "ping": lambda n: {"type": "ping"},
        "history": lambda n: {"type": "history"},
        "record": lambda n: {"type": "record", "table": finished[n % len(finished)]},
    }
    spent: dict[str, list[float]] = {kind: [] for kind in kinds}
    for n in range(args.requests):
        for kind, make in kinds.items():
            spent[kind].append(timed(asker, make(n)))
    for kind, times in spent.items():
        ordered = sorted(times)
        print(
            f"  {kind:8} server CPU per request: median {statistics.median(times) * 1e6:8.1f} us,"
            f" p99 {ordered[int(0.99 * (len(ordered) - 1))] * 1e6:8.1f} us"
            f" ({len(times)} requests)"
        )
    store.close()
    folder.cleanup()


if __name__ == "__main__":
    main()
