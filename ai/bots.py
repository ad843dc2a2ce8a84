"""The bots: random, greedy (one action ahead with a heuristic) and ISMCTS at three levels.

A bot turns its seat's view and the legal actions the server listed into one action. It sees
nothing else: the MCTS and greedy bots sample the hidden parts with ``Game.determinize``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from ai.heuristics import playout_steps, relative_value, value_function, value_scale
from ai.mcts import ISMCTS, SearchResult, margin_reward, random_policy, rank_rewards
from games.api import Action, Game, State, View


class Bot(Protocol):
    name: str

    def choose(self, view: View, legal: Sequence[Action]) -> Action: ...


class RandomBot:
    """Picks uniformly among the legal actions."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.name = "random"

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        return tuple(legal[self.rng.randrange(len(legal))])


class GreedyBot:
    """Plays the action whose result looks best to a per-game heuristic, one action ahead.

    Chance inside an action (a roll, a draw) is judged on one sample of the hidden parts.
    """

    def __init__(self, game: Game, rng: random.Random) -> None:
        self.game = game
        self.rng = rng
        self.value = value_function(game.name)
        self.name = "greedy"

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        seat = view["seat"]
        sample = self.game.determinize(view, seat, self.rng.getrandbits(63))
        best: list[Action] = []
        best_value = float("-inf")
        for action in legal:
            after = sample.clone()
            after.apply(tuple(action))
            worth = relative_value(self.value, after.view(seat), seat)
            if worth > best_value + 1e-9:
                best, best_value = [tuple(action)], worth
            elif worth > best_value - 1e-9:
                best.append(tuple(action))
        return best[self.rng.randrange(len(best))]


@dataclass(frozen=True)
class Level:
    iterations: int | None
    seconds: float | None


# Budgets per level: iterations, with a time cap so a slow or busy machine never makes a bot
# think longer than a second. On a quiet machine the iteration count decides (reproducibly).
LEVELS = {
    "easy": Level(iterations=50, seconds=1.0),
    "normal": Level(iterations=250, seconds=1.0),
    "hard": Level(iterations=2500, seconds=1.0),
}


CLOCK_SHARE = 1 / 40
"""The share of its bank a bot on a game clock spends on one decision (plus the increment)."""


def clock_seconds(bank: float, increment: float, share: float = CLOCK_SHARE) -> float:
    """Seconds to think over one decision with ``bank`` seconds left for the whole game and
    ``increment`` more for each decision: ``share`` of the bank plus the increment, and never
    more than half of what the decision may take (``bank + increment``), for a safety margin."""
    whole = max(0.0, bank) + max(0.0, increment)
    return max(1e-3, min(share * max(0.0, bank) + max(0.0, increment), whole / 2))


def playout_evaluator(game: Game) -> Callable[[State], list[float]]:
    """Rewards for a playout: the result at the end, or the heuristic if it was cut short."""
    value = value_function(game.name)
    scale = value_scale(game.name)

    def evaluate(state: State) -> list[float]:
        if state.is_over:
            return rank_rewards(state, scale)
        view = state.view(None)
        players = view["players"]
        values = [value(view, seat) for seat in range(players)]
        if players == 1:
            return [min(1.0, max(0.0, values[0] / 80.0))]
        return [
            margin_reward(v - max(values[o] for o in range(players) if o != seat), scale)
            for seat, v in enumerate(values)
        ]

    return evaluate


class MCTSBot:
    """ISMCTS with a budget; ``last`` keeps the latest search result for logs and tests."""

    def __init__(
        self,
        game: Game,
        rng: random.Random,
        *,
        level: str = "hard",
        iterations: int | None = None,
        seconds: float | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
        budget = LEVELS[level]
        if iterations is not None or seconds is not None:
            budget = Level(iterations, seconds)
        self.game = game
        self.name = f"mcts-{level}" if budget == LEVELS[level] else "mcts"
        self.search = ISMCTS(
            game,
            rng=rng,
            iterations=budget.iterations,
            seconds=budget.seconds,
            policy=random_policy,
            evaluate=playout_evaluator(game),
            max_playout_steps=playout_steps(game.name),
            clock=clock,
        )
        self.last: SearchResult | None = None

    def use_clock(self, bank: float, increment: float, cap: float | None = None) -> None:
        """Budget the next decisions by a game clock: ``bank`` seconds left for the game and
        ``increment`` per decision (:func:`clock_seconds`), at most ``cap`` seconds if given."""
        seconds = clock_seconds(bank, increment)
        self.search.seconds = seconds if cap is None else min(seconds, cap)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        self.last = self.search.search(view, view["seat"], legal)
        return self.last.action


KINDS = ("random", "greedy", *LEVELS)


def make_bot(
    kind: str,
    game: Game,
    seed: int,
    *,
    iterations: int | None = None,
    seconds: float | None = None,
) -> Bot:
    """A bot by name: ``random``, ``greedy``, or an MCTS level (``easy``, ``normal``, ``hard``)."""
    rng = random.Random(seed)
    if kind == "random":
        return RandomBot(rng)
    if kind == "greedy":
        return GreedyBot(game, rng)
    if kind in LEVELS:
        return MCTSBot(game, rng, level=kind, iterations=iterations, seconds=seconds)
    raise ValueError(f"unknown bot {kind!r}; choose one of {', '.join(KINDS)}")
