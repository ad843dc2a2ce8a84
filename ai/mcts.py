"""Information-set MCTS over :mod:`games.api` (single-observer ISMCTS, open-loop chance).

Each iteration samples a full state from the bot's own view with ``Game.determinize``, walks the
tree by UCT over the actions legal in that sample (counting how often each child was *available*,
as ISMCTS does), expands one new node, plays out with a policy, and backs up one reward per seat:
every seat maximises its own result, so the search is multi-player aware.

Chance (dice, draws) happens inside ``State.apply``; the tree is open-loop, so a node stands for
"this action after that history" whatever the dice did. Children are keyed by
(player to act, action): after a chance outcome the same action may belong to another seat.

Budgets: a number of iterations and/or seconds (from an injected clock). Randomness: an injected
``random.Random``. No rules live here: the game is driven only through the contract.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from games.api import Action, Game, State, View

Policy = Callable[[State, random.Random], Action]
Evaluator = Callable[[State], list[float]]
Observer = Callable[[int, Action, State], None]
"""Told after each iteration's playout: the seat and the action the iteration began with (the
root's child it went through), and the state at the end of the playout (read it, never change
it)."""


class SearchNode:
    """Statistics of one (player, action) edge of the tree."""

    __slots__ = ("action", "available", "children", "player", "total", "visits")

    def __init__(self, player: int | None, action: Action | None) -> None:
        self.player = player  # the seat that chose ``action`` (None at the root)
        self.action = action
        self.visits = 0
        self.available = 0
        self.total = 0.0  # sum of ``player``'s rewards through this edge
        self.children: dict[tuple[int, Action], SearchNode] = {}

    def uct(self, c: float) -> float:
        return self.total / self.visits + c * math.sqrt(math.log(self.available) / self.visits)


@dataclass
class SearchResult:
    action: Action
    iterations: int
    seconds: float
    visits: dict[Action, int] = field(default_factory=dict)
    values: dict[Action, float] = field(default_factory=dict)


def random_policy(state: State, rng: random.Random) -> Action:
    legal = state.legal_actions()
    return legal[rng.randrange(len(legal))]


def margin_reward(margin: float, scale: float) -> float:
    """A lead (or deficit) in VP squashed into (0, 1): 0.5 is level, ``scale`` VP is ~0.88."""
    return 0.5 + 0.5 * math.tanh(margin / scale)


def rank_rewards(state: State, scale: float = 10.0) -> list[float]:
    """Per-seat reward in [0, 1] at the end of a game: mostly the place, partly the margin.

    With several players: 0.8 for a sole winner down to 0 for the last place (shared places
    averaged), plus up to 0.2 for the lead over the best other seat, so that the search keeps
    playing for VP once the result looks settled. Alone (a solo game): the score, scaled.
    """
    scores = state.scores()
    players = len(scores)
    if players == 1:
        return [min(1.0, max(0.0, scores[0] / 80.0))]
    rewards = [0.0] * players
    place = 0
    for group in state.ranking():
        # Average of the places this group occupies, 0 = first, players - 1 = last.
        mean_place = place + (len(group) - 1) / 2
        value = 1.0 - mean_place / (players - 1)
        for seat in group:
            best_other = max(scores[o] for o in range(players) if o != seat)
            rewards[seat] = 0.8 * value + 0.2 * margin_reward(scores[seat] - best_other, scale)
        place += len(group)
    return rewards


class ISMCTS:
    """The search. One instance may serve many decisions; state lives only inside ``search``."""

    def __init__(
        self,
        game: Game,
        *,
        rng: random.Random,
        iterations: int | None = 1000,
        seconds: float | None = None,
        exploration: float = 0.7,
        policy: Policy = random_policy,
        evaluate: Evaluator = rank_rewards,
        max_playout_steps: int | None = None,
        clock: Callable[[], float] = time.perf_counter,
        observe: Observer | None = None,
    ) -> None:
        if iterations is None and seconds is None:
            raise ValueError("give the search a budget: iterations, seconds or both")
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        if seconds is not None and seconds <= 0:
            raise ValueError("seconds must be positive")
        self.game = game
        self.rng = rng
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.policy = policy
        self.evaluate = evaluate
        self.max_playout_steps = max_playout_steps
        self.clock = clock
        self.observe = observe

    def search(self, view: View, seat: int, legal: Sequence[Action] | None = None) -> SearchResult:
        """The action to play from ``view`` (``seat``'s own), among ``legal`` if given."""
        start = self.clock()
        root = SearchNode(None, None)
        rng = self.rng
        game = self.game
        allowed = None if legal is None else {tuple(a) for a in legal}
        if allowed is not None and len(allowed) == 1:
            only = next(iter(allowed))
            return SearchResult(only, 0, self.clock() - start, {only: 0}, {})
        iterations = 0
        while True:
            if self.iterations is not None and iterations >= self.iterations:
                break
            if self.seconds is not None and iterations and self.clock() - start >= self.seconds:
                break
            state = game.determinize(view, seat, rng.getrandbits(63))
            self._iterate(root, state, allowed)
            iterations += 1
        return self._result(root, iterations, self.clock() - start, allowed, view, seat)

    def _iterate(self, root: SearchNode, state: State, allowed: set[Action] | None) -> None:
        rng = self.rng
        c = self.exploration
        path = [root]
        node = root
        # Selection and expansion.
        while not state.is_over:
            player = state.current_player
            assert player is not None
            legal = state.legal_actions()
            if node is root and allowed is not None:
                legal = [a for a in legal if a in allowed] or legal
            children = node.children
            untried = []
            best = None
            best_value = -math.inf
            for action in legal:
                child = children.get((player, action))
                if child is None:
                    untried.append(action)
                    continue
                child.available += 1
                if not untried:
                    value = child.uct(c)
                    if value > best_value:
                        best_value = value
                        best = child
            if untried:
                action = untried[rng.randrange(len(untried))]
                child = SearchNode(player, action)
                child.available = 1
                children[(player, action)] = child
                state.apply(action)
                path.append(child)
                break
            assert best is not None
            state.apply(best.action)  # type: ignore[arg-type]
            path.append(best)
            node = best
        # Playout.
        policy = self.policy
        steps = 0
        cap = self.max_playout_steps
        while not state.is_over and (cap is None or steps < cap):
            state.apply(policy(state, rng))
            steps += 1
        rewards = self.evaluate(state)
        if self.observe is not None and len(path) > 1:
            first = path[1]
            assert first.player is not None and first.action is not None
            self.observe(first.player, first.action, state)
        # Backpropagation: each edge collects the reward of the seat that chose it.
        for edge in path:
            edge.visits += 1
            if edge.player is not None:
                edge.total += rewards[edge.player]

    def _result(
        self,
        root: SearchNode,
        iterations: int,
        seconds: float,
        allowed: set[Action] | None,
        view: View,
        seat: int,
    ) -> SearchResult:
        visits: dict[Action, int] = {}
        values: dict[Action, float] = {}
        for (player, action), child in root.children.items():
            if player != seat or (allowed is not None and action not in allowed):
                continue
            visits[action] = child.visits
            values[action] = child.total / child.visits if child.visits else 0.0
        if not visits:  # no iteration ran (cannot happen with a budget) or nothing allowed
            state = self.game.determinize(view, seat, self.rng.getrandbits(63))
            legal = [a for a in state.legal_actions() if allowed is None or a in allowed]
            action = legal[0] if legal else next(iter(allowed or ()))
            return SearchResult(action, iterations, seconds, {}, {})
        # Most visited; ties by value, then by the order the root's children were expanded
        # (random, from the injected generator: the same seed still gives the same move).
        action = max(visits, key=lambda a: (visits[a], values[a]))
        return SearchResult(action, iterations, seconds, visits, values)


def describe(result: SearchResult, label: Callable[[Action], str] | None = None) -> str:
    """A one-line summary of a search, for logs."""
    top = sorted(result.visits.items(), key=lambda item: -item[1])[:3]
    shown = ", ".join(
        f"{label(a) if label else a}: {n} ({result.values.get(a, 0.0):.2f})" for a, n in top
    )
    return f"{result.iterations} iterations in {result.seconds:.2f}s; {shown}"


__all__ = [
    "ISMCTS",
    "Observer",
    "SearchNode",
    "SearchResult",
    "describe",
    "random_policy",
    "rank_rewards",
]
