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

    python bench/tournament.py --sprt-compare      # games to an SPRT decision, by game or pair

``--sprt-compare`` measures what testing by rotation groups saves: it plays ``--pairs`` deals of
a two-entrant match (``--match``, by default greedy against random in Alien Artifacts, where
greedy's share is about 0.6), each deal in both seatings, then runs the SPRT ``--sprt`` (default
0.5,0.6) over ``--runs`` resampled streams of those games (deals drawn at random with
replacement, seeded): once with each game a sample, once with each deal's pair of games a
sample, and prints the games each needs to a decision (mean, median) and how often each accepts
H1.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament.director import Director, Event
from tournament.entrants import parse_all
from tournament.runners import InlineRunner, LocalRunner, Runner
from tournament.sprt import SPRT, RotationSamples, parse_sprt
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


def play_pairs(game: str, match: list[str], pairs: int, workers: int) -> list[tuple[float, float]]:
    """A's score in both seatings of ``pairs`` deals of a match (played as the command does)."""
    event = Event(
        name="bench-sprt",
        game=game,
        players=2,
        entrants=parse_all(match),
        games=2 * pairs,
        format="match",
    )
    with tempfile.TemporaryDirectory() as folder:
        store = EventStore.open(Path(folder) / "bench.sqlite")
        Director(event, store).run(InlineRunner() if workers == 1 else LocalRunner(workers))
        results = store.results()
        store.close()
    by_seed: dict[int, list[float]] = {}
    for r in results:
        first = r["ranking"][0]
        score = sum(1 for seat in first if r["seating"][seat] == 0) / len(first)
        by_seed.setdefault(r["seed"], []).append(score)
    return [(a, b) for a, b in (v for v in by_seed.values() if len(v) == 2)]


def games_to_decision(
    sprt: SPRT, pairs: list[tuple[float, float]], by_pair: bool, rng: random.Random, cap: int
) -> tuple[int, str | None]:
    """Games one resampled stream needs before the SPRT decides (``cap`` if it never does)."""
    scores: list[float] = []
    groups = RotationSamples(2)
    n = 0
    mean = square = 0.0
    while 2 * (n + 1) <= cap:
        a, b = pairs[rng.randrange(len(pairs))]
        n += 1
        if by_pair:
            groups.add(n, (0, 1), a)
            groups.add(n, (1, 0), b)
            x = groups.means[-1]
            mean += x
            square += x * x
            count = n
        else:
            for x in (a, b):
                scores.append(x)
                mean += x
                square += x * x
            count = 2 * n
        m = mean / count
        decision = sprt.decide(sprt.llr_of(count, m, max(0.0, square / count - m * m)))
        if decision is not None:
            return 2 * n, decision
    return cap, None


def sprt_compare(args: argparse.Namespace) -> int:
    sprt = parse_sprt(args.sprt)
    start = time.perf_counter()
    pairs = play_pairs(args.game_sprt, args.match, args.pairs, max(args.workers))
    played = time.perf_counter() - start
    share = sum(a + b for a, b in pairs) / (2 * len(pairs))
    per_game = [x for pair in pairs for x in pair]
    game_var = sum((x - share) ** 2 for x in per_game) / len(per_game)
    pair_var = sum(((a + b) / 2 - share) ** 2 for a, b in pairs) / len(pairs)
    print(
        f"{len(pairs)} deals of {' vs '.join(args.match)} in {args.game_sprt} played in "
        f"{played:.0f} s: A's share {share:.3f}; variance per game {game_var:.4f}, per pair "
        f"{pair_var:.4f} (independent games would give {game_var / 2:.4f})",
        flush=True,
    )
    summary = {}
    for by_pair in (False, True):
        rng = random.Random(args.seed)
        runs = [games_to_decision(sprt, pairs, by_pair, rng, 20_000) for _ in range(args.runs)]
        games = sorted(g for g, _ in runs)
        h1 = sum(1 for _, d in runs if d == "H1")
        mean = sum(games) / len(games)
        label = "rotation pairs" if by_pair else "single games"
        summary[label] = {"mean": mean, "median": games[len(games) // 2], "h1": h1 / len(runs)}
        print(
            f"SPRT {args.sprt} by {label:>14}: {mean:7.1f} games to a decision on average "
            f"(median {games[len(games) // 2]}), H1 accepted in {h1}/{len(runs)} runs",
            flush=True,
        )
    saved = 1 - summary["rotation pairs"]["mean"] / summary["single games"]["mean"]
    print(f"testing by rotation pairs needed {saved:.0%} fewer games on average")
    if args.json:
        print(json.dumps({"pairs": len(pairs), "share": share, "summary": summary}))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="cosmic_run")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=100, help="games per configuration")
    parser.add_argument("--bots", nargs="+", default=["random", "greedy"])
    parser.add_argument("--workers", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--json", action="store_true", help="one JSON object at the end")
    parser.add_argument("--sprt-compare", action="store_true", help="games to an SPRT decision")
    parser.add_argument("--game-sprt", default="alien_artifacts", help="(--sprt-compare)")
    parser.add_argument("--match", nargs=2, default=["greedy", "random"], help="(--sprt-compare)")
    parser.add_argument("--pairs", type=int, default=400, help="deals to play (--sprt-compare)")
    parser.add_argument("--sprt", default="0.5,0.6", help="P0,P1[,ALPHA,BETA] (--sprt-compare)")
    parser.add_argument("--runs", type=int, default=500, help="resampled SPRTs (--sprt-compare)")
    parser.add_argument("--seed", type=int, default=1, help="of the resampling (--sprt-compare)")
    args = parser.parse_args()
    if args.sprt_compare:
        load = os.getloadavg()
        print(f"machine: {os.cpu_count()} cores, load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
        return sprt_compare(args)

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
