"""Tournament speed: games per second, in-process against networked, one worker against two.

    python bench/tournament.py                      # Cosmic Run, 2 players, the defaults below
    python bench/tournament.py --game alien_artifacts --games 40 --json

Each configuration is a fresh two-entrant round robin (``random`` against ``random``, then
``greedy`` against ``greedy``) played by the tournament director into a new database, exactly as
``cosmoport tournament`` plays it: in-process (the bots call the rules engine) or ``--network``
(every seat a client of a loopback server), with 1 worker (the command's own process) or 2
worker processes. The time counted is the director's run: starting the worker processes is
included, as a user pays it. It prints the machine's cores and load, games/s per configuration,
what the network costs per game against in-process, and the speed-up from 1 to 2 workers.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament.director import Director, Event
from tournament.entrants import parse_all
from tournament.runners import InlineRunner, LocalRunner, Runner
from tournament.store import EventStore


def measure(game: str, players: int, bot: str, games: int, network: bool, workers: int) -> float:
    """Games per second of one configuration."""
    entrants = parse_all([bot, f"{bot}:name={bot}-2"])
    event = Event(
        name="bench",
        game=game,
        players=players,
        entrants=entrants,
        games=games,
        network=network,
        format="match",
    )
    with tempfile.TemporaryDirectory() as folder:
        store = EventStore.open(Path(folder) / "bench.sqlite")
        director = Director(event, store)
        start = time.perf_counter()
        runner: Runner = InlineRunner() if workers == 1 else LocalRunner(workers)
        outcome = director.run(runner)
        seconds = time.perf_counter() - start
        store.close()
    assert outcome.done == outcome.total and not outcome.failed, outcome
    return outcome.done / seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="cosmic_run")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=100, help="games per configuration")
    parser.add_argument("--bots", nargs="+", default=["random", "greedy"])
    parser.add_argument("--workers", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--json", action="store_true", help="one JSON object at the end")
    args = parser.parse_args()

    load = os.getloadavg()
    print(
        f"machine: {os.cpu_count()} cores, load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; "
        f"{args.game}, {args.players} players, {args.games} games per configuration",
        flush=True,
    )
    figures = []
    for bot in args.bots:
        for network in (False, True):
            for workers in args.workers:
                rate = measure(args.game, args.players, bot, args.games, network, workers)
                mode = "network" if network else "in-process"
                figures.append({"bot": bot, "mode": mode, "workers": workers, "games_s": rate})
                print(
                    f"{bot:>7} {mode:>10} {workers} worker{'s' if workers > 1 else ' '}: "
                    f"{rate:8.1f} games/s  ({1000 / rate:7.1f} ms per game)",
                    flush=True,
                )
    rates = {(f["bot"], f["mode"], f["workers"]): f["games_s"] for f in figures}
    summary: dict[str, float] = {}
    for bot in args.bots:
        for workers in args.workers:
            cost = rates[(bot, "in-process", workers)] / rates[(bot, "network", workers)]
            summary[f"{bot}_network_cost_{workers}w"] = cost
            print(f"{bot}, {workers} worker(s): a networked game costs {cost:.2f}x in-process")
        if 1 in args.workers and 2 in args.workers:
            for mode in ("in-process", "network"):
                gain = rates[(bot, mode, 2)] / rates[(bot, mode, 1)]
                summary[f"{bot}_{mode}_speedup"] = gain
                print(f"{bot}, {mode}: 2 workers play {gain:.2f}x the games of 1")
    if args.json:
        print(json.dumps({"figures": figures, "summary": summary, "load": load}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
