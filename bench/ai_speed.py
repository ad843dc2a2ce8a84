"""Search speed: ISMCTS iterations per second for each game, at the bots' own settings.

    python bench/ai_speed.py [--game cosmic_run] [--positions 20] [--iterations 200]

Positions are decision points from the middle of seeded random 2-player games; each is searched
from its current player's view with the search the ``hard`` bot uses (same playout policy and
cut-off), on one core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import midgame_states  # bench/engine.py, next to this script

import games
from ai.bots import MCTSBot


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=games.names(), action="append")
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    for name in args.game or games.names():
        game = games.get(name)
        rates = []
        for index, state in enumerate(midgame_states(game, args.players, args.positions, 2)):
            seat = state.current_player
            bot = MCTSBot(game, random.Random(index), iterations=args.iterations)
            start = time.perf_counter()
            bot.choose(state.view(seat), state.legal_actions())
            rates.append(args.iterations / (time.perf_counter() - start))
        print(
            f"{game.title}: {statistics.median(rates):7.0f} iterations/s median "
            f"(min {min(rates):.0f}, max {max(rates):.0f}) over {len(rates)} positions, "
            f"{args.iterations} iterations each"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
