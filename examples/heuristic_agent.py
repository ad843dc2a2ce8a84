"""A heuristic agent (docs/research.md): one game through the PettingZoo environment, then a
tournament against greedy and easy, in which it plays as ``py:examples/heuristic_agent.py:Heuristic``."""  # noqa: E501

import random
import sys

import numpy as np

from cosmoport.cli import main as cosmoport
from cosmoport.envs import action_table, aec_env


def score(action: tuple) -> int:
    if action[0] == "assign" and action[2].startswith("P"):
        return 2 + int(action[2][1:])  # a die on a planet: the higher, the better
    return {"roll": 1, "pass": -1, "done": -1, "finish": -1}.get(action[0], 0)


class Heuristic:
    """The best-scoring legal action (ties broken at random). Made once per game and seat."""

    def __init__(self, game: str, players: int, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.scores = np.array([score(a) for a in action_table(game, players).actions])

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        scores = np.where(action_mask == 1, self.scores, -99)
        best = np.flatnonzero(scores == scores.max())
        return int(best[self.rng.randrange(len(best))])


if __name__ == "__main__":
    env = aec_env("cosmic_run", players=3)
    env.reset(seed=1)
    agents = {name: Heuristic("cosmic_run", 3, seed) for seed, name in enumerate(env.agents)}
    for name in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            print(name, "reward", reward, "VP", info["view"]["scores"])
        env.step(None if terminated or truncated else agents[name](**observation))
    entrant = f"py[name=heuristic]:{__file__}:Heuristic"
    play = ["tournament", "cosmic-run", "-e", entrant, "-e", "greedy", "-e", "easy"]
    sys.exit(cosmoport([*play, *sys.argv[1:]]))
