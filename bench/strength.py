"""Playing strength: a candidate bot against an opponent, seats rotated and seeds paired.

    python bench/strength.py --game cosmic_run --opponent random --games 100
    python bench/strength.py --game alien_artifacts --candidate hard --opponent greedy --json

Every game seed is played once with the candidate in each seat (the other seats are the
opponent), so luck of the deal and the start player cancel out. A win counts 1, a shared first
place 1/k, anything else 0. The win share is printed with a 95% Wilson interval. Games run in
parallel worker processes (``--workers``, default: one per core); each bot is single-threaded, so
its thinking time per decision is what the budget says.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games
from ai.bots import KINDS, make_bot


def play_one(job: tuple[str, int, int, int, str, str, int | None, float | None]) -> dict:
    """One game; returns the candidate's share of the win and some facts."""
    name, players, seed, candidate_seat, candidate, opponent, iterations, think = job
    game = games.get(name)
    bots = {}
    for seat in range(players):
        bot_seed = seed * 1000 + seat * 10 + (seat == candidate_seat)
        if seat == candidate_seat:
            bots[seat] = make_bot(candidate, game, bot_seed, iterations=iterations, seconds=think)
        else:
            bots[seat] = make_bot(opponent, game, bot_seed)
    state = game.new(players=players, seed=seed)
    decisions = 0
    thinking = 0.0
    while not state.is_over:
        seat = state.current_player
        start = time.perf_counter()
        action = bots[seat].choose(state.view(seat), state.legal_actions())
        if seat == candidate_seat:
            decisions += 1
            thinking = max(thinking, time.perf_counter() - start)
        state.apply(action)
    first = state.ranking()[0]
    share = 1.0 / len(first) if candidate_seat in first else 0.0
    return {
        "seed": seed,
        "seat": candidate_seat,
        "share": share,
        "scores": state.scores(),
        "decisions": decisions,
        "max_think": thinking,
    }


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=games.names(), required=True)
    parser.add_argument("--candidate", choices=KINDS, default="hard")
    parser.add_argument("--opponent", choices=KINDS, required=True)
    parser.add_argument("--games", type=int, default=100, help="games in all (rounded to seats)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--iterations", type=int, help="the candidate's iterations per decision")
    parser.add_argument("--think", type=float, help="the candidate's seconds per decision")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", action="store_true", help="print one JSON object at the end")
    args = parser.parse_args()

    pairs = max(1, math.ceil(args.games / args.players))
    jobs = [
        (
            args.game,
            args.players,
            args.seed * 100_000 + i,
            seat,
            args.candidate,
            args.opponent,
            args.iterations,
            args.think,
        )
        for i in range(pairs)
        for seat in range(args.players)
    ]
    log = sys.stderr
    budget = ""
    if args.iterations or args.think:
        budget = f" ({args.iterations or '-'} iterations, {args.think or '-'} s)"
    print(
        f"{args.game}: {args.candidate}{budget} vs {args.opponent}, {len(jobs)} games, "
        f"{args.players} players, {args.workers} workers",
        file=log,
    )
    results = []
    start = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        for result in pool.imap_unordered(play_one, jobs):
            results.append(result)
            wins = sum(r["share"] for r in results)
            print(
                f"  game {len(results):4d}/{len(jobs)}: seat {result['seat']} "
                f"scores {result['scores']} -> {result['share']:.2f}   "
                f"running share {wins / len(results):.3f}",
                file=log,
                flush=True,
            )
    wins = sum(r["share"] for r in results)
    n = len(results)
    low, high = wilson(wins, n)
    slowest = max(r["max_think"] for r in results)
    summary = {
        "game": args.game,
        "candidate": args.candidate,
        "opponent": args.opponent,
        "players": args.players,
        "iterations": args.iterations,
        "think": args.think,
        "games": n,
        "wins": wins,
        "win_share": wins / n,
        "ci_low": low,
        "ci_high": high,
        "slowest_decision_s": slowest,
        "seconds": time.perf_counter() - start,
    }
    if args.json:
        print(json.dumps(summary))
    else:
        print(
            f"{args.candidate} vs {args.opponent} ({args.game}, {args.players} players): "
            f"win share {wins / n:.3f} over {n} games, 95% interval [{low:.3f}, {high:.3f}]; "
            f"slowest decision {slowest:.2f} s; {summary['seconds']:.0f} s in all"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
