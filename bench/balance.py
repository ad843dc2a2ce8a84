"""Seat balance: the same bot in every seat, many seeded games; who wins from which seat.

    .venv/bin/python bench/balance.py --game cosmic_run --players 2 --bots greedy --games 200

Prints, per seat, the win share (a shared first place counts 1/k) with its 95% Wilson interval
and the mean final score, then the mean game length in actions. With equal bots a fair game
gives every seat about 1/players; the rules' numbers (start-player compensation, for one) show
up here. Random bots are fast but play so badly that compensations weigh more than they would
between people; greedy or an MCTS level is closer to real play.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games
from ai.bots import KINDS, make_bot
from tournament.ratings import wilson


def play(name: str, players: int, kind: str, seed: int) -> tuple[list[float], list[int], int]:
    """One game: each seat's share of the win, the final scores, the number of actions."""
    game = games.get(name)
    state = game.new(players=players, seed=seed)
    bots = [make_bot(kind, game, seed * 1000 + seat) for seat in range(players)]
    actions = 0
    while not state.is_over:
        seat = state.current_player
        state.apply(bots[seat].choose(state.view(seat), state.legal_actions()))
        actions += 1
    shares = [0.0] * players
    first = state.ranking()[0]
    for seat in first:
        shares[seat] = 1.0 / len(first)
    return shares, list(state.scores()), actions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, choices=games.names())
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bots", choices=KINDS, default="random")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = games.get(args.game)
    if not game.min_players <= args.players <= game.max_players:
        parser.error(f"{args.game} takes {game.min_players}-{game.max_players} players")
    if args.games < 1:
        parser.error("--games must be at least 1")
    print(f"{game.title}: {args.bots} bots in all {args.players} seats, {args.games} games")
    wins = [0.0] * args.players
    scores: list[list[int]] = [[] for _ in range(args.players)]
    lengths = []
    start = time.perf_counter()
    step = max(1, args.games // 10)
    for i in range(args.games):
        shares, final, actions = play(args.game, args.players, args.bots, args.seed * 100_000 + i)
        for seat in range(args.players):
            wins[seat] += shares[seat]
            scores[seat].append(final[seat])
        lengths.append(actions)
        if (i + 1) % step == 0 or i + 1 == args.games:
            print(f"  {i + 1}/{args.games} games, {time.perf_counter() - start:.0f}s", flush=True)
    for seat in range(args.players):
        low, high = wilson(wins[seat], args.games)
        print(
            f"  seat {seat}: wins {wins[seat] / args.games:.3f} [{low:.3f}, {high:.3f}]   "
            f"mean score {statistics.mean(scores[seat]):.1f}"
        )
    print(f"  mean game length: {statistics.mean(lengths):.0f} actions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
