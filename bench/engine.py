"""Engine speed: random full games per second, actions per second, clone() against deepcopy.

It also prints what the server asks of the engine besides playing, per action applied: labels
for the legal list (only for clients that want them, PROTOCOL.md 6.1) and the undo barrier
(``State.barrier``, given the state after the action or made to play it again).

    python bench/engine.py --game cosmic_run
    python bench/engine.py --game alien_artifacts --games 300 --players 2 4

Random players pick uniformly among the legal actions with their own seeded generator. The
figures are wall-clock on one core of this machine; run on a quiet machine to compare runs.
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games


def random_games(game: games.Game, players: int, count: int, seed: int) -> tuple[float, int]:
    """Play ``count`` random games; return (seconds, actions)."""
    actions = 0
    start = time.perf_counter()
    for index in range(count):
        rng = random.Random(seed + index)
        state = game.new(players=players, seed=seed + index)
        while not state.is_over:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            actions += 1
    return time.perf_counter() - start, actions


def midgame_states(
    game: games.Game, players: int, count: int, min_choices: int = 1
) -> list[games.State]:
    """A state from the middle of each of ``count`` seeded random games.

    With ``min_choices``, the middle one among the states of the game's middle third that offer
    at least that many legal actions (a real decision), when there is one.
    """
    states = []
    for seed in range(count):
        rng = random.Random(seed)
        state = game.new(players=players, seed=seed)
        trail = []
        while not state.is_over:
            trail.append(state.clone())
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        third = trail[len(trail) // 3 : 2 * len(trail) // 3]
        choices = [s for s in third if len(s.legal_actions()) >= min_choices]
        states.append(choices[len(choices) // 2] if choices else trail[len(trail) // 2])
    return states


def server_extras(game: games.Game, players: int, count: int) -> dict[str, float]:
    """Microseconds per action of a random game the server spends on the engine besides
    applying the action: the legal list with labels and without, and the undo barrier without
    and with the state after (asked only while the same seat decides on, as the server does)."""
    steps = []
    for seed in range(count):
        rng = random.Random(seed)
        state = game.new(players=players, seed=seed)
        while not state.is_over:
            action = rng.choice(state.legal_actions())
            after = state.clone()
            after.apply(action)
            asks = not after.is_over and after.current_player == state.current_player
            steps.append((state.clone(), state.legal_actions(), action, after, asks))
            state = after

    def timed(function) -> float:  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        for step in steps:
            function(*step)
        return 1e6 * (time.perf_counter() - start) / len(steps)

    return {
        "labelled": timed(lambda s, legal, *_: [{"action": a, "label": s.label(a)} for a in legal]),
        "bare": timed(lambda s, legal, *_: [{"action": a} for a in legal]),
        "barrier_again": timed(lambda s, _l, a, _after, asks: asks and s.barrier(a)),
        "barrier_after": timed(lambda s, _l, a, after, asks: asks and s.barrier(a, after)),
    }


def per_second(function, items: list, repeat: int) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    for _ in range(repeat):
        for item in items:
            function(item)
    return repeat * len(items) / (time.perf_counter() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=games.names(), default="cosmic_run")
    parser.add_argument("--games", type=int, default=300, help="random games per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = games.get(args.game)

    print(f"{game.title}: {args.games} random games per player count, seed {args.seed}")
    for players in args.players:
        if not game.min_players <= players <= game.max_players:
            print(f"  {players} players: not supported, skipped")
            continue
        random_games(game, players, max(1, args.games // 20), args.seed + 10**6)  # warm-up
        seconds, actions = random_games(game, players, args.games, args.seed)
        print(
            f"  {players} players: {args.games / seconds:8.1f} games/s   "
            f"{actions / seconds:10.0f} actions/s   {actions / args.games:6.0f} actions/game"
        )

    players = 2 if game.min_players <= 2 <= game.max_players else game.min_players
    states = midgame_states(game, players, 20)
    clones = per_second(lambda s: s.clone(), states, 500)
    deep = per_second(copy.deepcopy, states, 10)
    print(
        f"  clone() of mid-game {players}-player states: {clones:10.0f}/s   "
        f"copy.deepcopy: {deep:8.0f}/s   clone is {clones / deep:5.1f}x faster"
    )
    sizes = [len(s.legal_actions()) for s in states if not s.is_over]
    if sizes:
        print(
            f"  legal actions at those states: mean {statistics.mean(sizes):.1f}, max {max(sizes)}"
        )
    counts = [n for n in args.players if game.min_players <= n <= game.max_players]
    players = counts[0] if counts else players
    extras = server_extras(game, players, max(1, min(args.games, 20)))
    print(
        f"  the server's extras per action ({players} players): legal list with labels "
        f"{extras['labelled']:.1f} us, without {extras['bare']:.1f} us; undo barrier "
        f"{extras['barrier_again']:.1f} us, {extras['barrier_after']:.1f} us given the state after"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
