"""In-process agents (``py:`` entrants) for the tests: well-behaved ones and every way to fail.

``NOW`` is the tests' fake clock (``play_in_process(job, clock=lambda: NOW[0])``): a slow
agent moves it on instead of sleeping. ``RELEASE`` holds back :func:`stuck` until set.
"""

from __future__ import annotations

import threading
from typing import Any, ClassVar

import numpy as np

NOW = [0.0]
RELEASE = threading.Event()
SEEN: list[dict[str, Any]] = []


def first(observation: np.ndarray, action_mask: np.ndarray) -> int:
    """The lowest-numbered legal action."""
    return int(np.flatnonzero(action_mask)[0])


def with_info(observation: np.ndarray, action_mask: np.ndarray, info: dict[str, Any]) -> int:
    SEEN.append({"size": observation.size, "dtype": str(observation.dtype), **info})
    return int(np.flatnonzero(action_mask)[-1])


class Seeded:
    """A class: made once per game with the keywords it names."""

    made: ClassVar[list[dict[str, Any]]] = []

    def __init__(self, game: str, players: int, seat: int, seed: int) -> None:
        import random

        Seeded.made.append({"game": game, "players": players, "seat": seat})
        self.rng = random.Random(seed)

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> np.int64:
        legal = np.flatnonzero(action_mask)
        return legal[self.rng.randrange(len(legal))]  # a numpy integer is fine


class Broken:
    def __init__(self) -> None:
        raise RuntimeError("no weights file")

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return 0


def raising(observation: np.ndarray, action_mask: np.ndarray) -> int:
    if observation.sum() > 0:
        raise ValueError("the policy broke")
    return 0


def illegal(observation: np.ndarray, action_mask: np.ndarray) -> int:
    return int(np.flatnonzero(action_mask == 0)[0])


def out_of_range(observation: np.ndarray, action_mask: np.ndarray) -> int:
    return action_mask.size + 5


def not_a_number(observation: np.ndarray, action_mask: np.ndarray) -> Any:
    return "roll"


def slow(observation: np.ndarray, action_mask: np.ndarray) -> int:
    """Takes 100 fake seconds over each decision."""
    NOW[0] += 100.0
    return first(observation, action_mask)


def quick(observation: np.ndarray, action_mask: np.ndarray) -> int:
    """Takes 1 fake second over each decision."""
    NOW[0] += 1.0
    return first(observation, action_mask)


def stuck(observation: np.ndarray, action_mask: np.ndarray) -> int:
    RELEASE.wait(30)
    return first(observation, action_mask)


NOT_CALLABLE = 3
