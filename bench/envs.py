"""Environment speed: random play through the PettingZoo and OpenSpiel adapters against the
engine alone, in the same run, and the adapters' overhead as a ratio.

    python bench/envs.py
    python bench/envs.py --game alien_artifacts --players 2 5 --games 20

For each game and player count, the same number of seeded random games is played four ways:

- engine: ``legal_actions()``, a uniform pick, ``apply`` (what a bot's rollout costs);
- pettingzoo: ``agent_iter`` / ``last()`` (the observation vector and action mask of the agent
  to act; its view in ``info``, not read) / a uniform pick from the mask / ``step``: an agent
  that looks at its observation every step;
- pettingzoo mask-only: the same with ``last(observe=False)`` and the pick from
  ``info["action_mask"]``: the adapter's own cost, for an agent (random, or a rollout policy)
  that needs no observation (the observation is made only when asked for);
- openspiel: ``legal_actions()`` / a uniform pick / ``apply_action`` on a pyspiel state (no
  observation asked for, as in a rollout).

Steps are decisions (a terminated agent's ``step(None)`` is not counted). The per-step costs of
the parts of an observation are printed too: the view, its encoding, the same vector encoded
from the state (``encode_state``, what the environment does: no view built) and the mask (with
the legal actions it reads). Wall-clock, one core.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np
import pyspiel

from cosmoport.envs import aec_env, register_openspiel
from cosmoport.envs.core import Spec
from games.api import get


def engine(game: str, players: int, games: int) -> tuple[float, int]:
    rules = get(game)
    steps = 0
    start = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        state = rules.new(players, seed)
        while not state.is_over:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            steps += 1
    return time.perf_counter() - start, steps


def pettingzoo(game: str, players: int, games: int, observe: bool = True) -> tuple[float, int]:
    env = aec_env(game, players)
    steps = 0
    start = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            observation, _reward, terminated, truncated, info = env.last(observe)
            if terminated or truncated:
                env.step(None)
                continue
            mask = observation["action_mask"] if observe else info["action_mask"]
            legal = np.flatnonzero(mask)
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return time.perf_counter() - start, steps


def openspiel(game: str, players: int, games: int) -> tuple[float, int]:
    register_openspiel()
    loaded = pyspiel.load_game(f"python_cosmoport_{game}", {"players": players})
    steps = 0
    start = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        state = loaded.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
    return time.perf_counter() - start, steps


def parts(game: str, players: int, games: int) -> tuple[float, float, float, float]:
    """Microseconds per step for the view, its encoding, the encoding from the state and the
    mask of the seat to act."""
    spec = Spec(game, players)
    totals = [0.0, 0.0, 0.0, 0.0]
    count = 0
    for seed in range(games):
        rng = random.Random(seed)
        state = spec.new(seed)
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            t0 = time.perf_counter()
            view = state.view(seat)
            t1 = time.perf_counter()
            spec.encode(view)
            t2 = time.perf_counter()
            spec.encode_state(state, seat)
            t3 = time.perf_counter()
            spec.mask(state, seat)
            t4 = time.perf_counter()
            totals[0] += t1 - t0
            totals[1] += t2 - t1
            totals[2] += t3 - t2
            totals[3] += t4 - t3
            count += 1
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    view_us, encode_us, direct_us, mask_us = (1e6 * total / count for total in totals)
    return view_us, encode_us, direct_us, mask_us


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=["cosmic_run", "alien_artifacts"], action="append")
    parser.add_argument("--players", type=int, nargs="+")
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args(argv)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for game in args.game or ["cosmic_run", "alien_artifacts"]:
        rules = get(game)
        counts = args.players or list(range(rules.min_players, rules.max_players + 1))
        for players in counts:
            if not rules.min_players <= players <= rules.max_players:
                continue
            base_s, base_n = engine(game, players, args.games)
            pz_s, pz_n = pettingzoo(game, players, args.games)
            lazy_s, lazy_n = pettingzoo(game, players, args.games, observe=False)
            os_s, os_n = openspiel(game, players, args.games)
            view_us, encode_us, direct_us, mask_us = parts(game, players, min(args.games, 5))
            base = base_n / base_s
            pz = pz_n / pz_s
            lazy = lazy_n / lazy_s
            spiel = os_n / os_s
            print(
                f"{game} {players} players: engine {base:8.0f} steps/s; "
                f"pettingzoo {pz:7.0f} steps/s ({base / pz:.1f}x); "
                f"pettingzoo mask-only {lazy:7.0f} steps/s ({base / lazy:.1f}x); "
                f"openspiel {spiel:7.0f} steps/s ({base / spiel:.1f}x); "
                f"per step: view {view_us:.1f} us, encode {encode_us:.1f} us, "
                f"encode from state {direct_us:.1f} us, mask {mask_us:.1f} us"
            )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
