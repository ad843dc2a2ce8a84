"""End-of-game rewards, one number per seat, the same in PettingZoo and OpenSpiel.

``"rank"`` (the default): each seat scores the seats it finished ahead of minus the seats that
finished ahead of it, divided by ``players - 1``: +1 for a lone winner, -1 for a lone last, 0
for a shared place in the middle; the rewards of a game add up to 0. Ties are the rules' own
(the ranking breaks ties by the rules' tie-breakers; a tie that remains is shared).

``"vp"``: the seat's final VP minus the mean final VP of the other seats (also adding up to 0).

A solo game of Cosmic Run (1 player) has no one to rank against: ``"rank"`` gives +1 for a
win (the solo target reached) and -1 otherwise, ``"vp"`` the final VP minus the solo target.
"""

from __future__ import annotations

from games.api import State
from games.cosmic_run.data import SOLO_WIN_AT

REWARDS = ("rank", "vp")

VP_BOUND = 1000.0
"""A bound on the size of a ``"vp"`` reward (OpenSpiel asks for one); no game comes close."""


def check_reward(reward: str) -> str:
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
    return reward


def final_rewards(state: State, reward: str) -> list[float]:
    """The reward of each seat for the finished game ``state``."""
    scores = state.scores()
    n = len(scores)
    if n == 1:
        if reward == "vp":
            return [float(scores[0] - SOLO_WIN_AT)]
        return [1.0 if scores[0] >= SOLO_WIN_AT else -1.0]
    if reward == "vp":
        total = sum(scores)
        return [s - (total - s) / (n - 1) for s in map(float, scores)]
    result = [0.0] * n
    ahead = 0
    for group in state.ranking():
        behind = n - ahead - len(group)
        for seat in group:
            result[seat] = (behind - ahead) / (n - 1)
        ahead += len(group)
    return result
