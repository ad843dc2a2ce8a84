"""``cosmoport demo``: watch a seeded game between random players, printed turn by turn.

Every line is a public event, narrated as the console client narrates it; the same seed gives
the same game.
"""

from __future__ import annotations

import argparse
import random
import time

import games
from client.narrate import narrate, situation


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game",
        choices=games.names(),
        default="cosmic_run",
        help="which game (default: %(default)s)",
    )
    parser.add_argument("--players", type=int, default=2, help="how many players (default: 2)")
    parser.add_argument("--seed", type=int, default=None, help="replay a game (default: a new one)")
    parser.add_argument(
        "--delay", type=float, default=0.0, metavar="SECONDS", help="pause after each turn"
    )


def run(args: argparse.Namespace) -> int:
    game = games.get(args.game)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    try:
        state = game.new(players=args.players, seed=seed)
    except ValueError as error:
        print(f"cosmoport demo: {error}")
        return 2
    names = [f"Random {seat + 1}" for seat in range(args.players)]
    print(f"{game.title}, {args.players} random players, seed {seed}")
    replay = f"cosmoport demo --game {args.game} --players {args.players} --seed {seed}"
    print(f"(replay it with: {replay})")
    chooser = random.Random(seed)
    for line in situation(args.game, state.view(None), names):
        print(line)
    while not state.is_over:
        legal = state.legal_actions()
        action = legal[chooser.randrange(len(legal))]
        seat = state.current_player
        print(f"  > {names[seat]}: {state.label(action)}")
        for event in state.apply(action):
            if event["type"] == "turn" and args.delay:
                time.sleep(args.delay)
            text = narrate(args.game, event, names)
            if text and event["type"] != "assign":  # the chosen action already said it
                print(("" if event["type"] == "turn" else "    ") + text)
    return 0
