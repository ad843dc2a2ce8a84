"""`hint`: a local bot's top three choices for the seat to move, with a reason in player words.

The bot is the ``normal`` MCTS level (the same playouts, evaluator and playout length as
``ai.bots``), searching from the player's own view only: the hidden parts are sampled by the
engine's ``determinize``, exactly as a bot at the table does. Nothing is sent anywhere. The
budget is a fixed number of iterations (no time cap), so a hint is the same for the same seed on
any machine.

Besides the share of the search each action got, a hint says where the action leaves the player
a few moves later: the VP the bots' own rule of thumb gives the seat at the end of each playout
that began with that action (a playout is cut after about two turns), and the lead over the best
other seat, both averaged over those playouts.
"""

from __future__ import annotations

import copy
import random
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from twisted.internet import threads
from twisted.internet.defer import Deferred

import games
from ai.bots import LEVELS, playout_evaluator
from ai.heuristics import playout_steps, value_function
from ai.mcts import ISMCTS, SearchNode, random_policy
from games.api import Action, Game, State, View

HINT_LEVEL = "normal"
TOP = 3
_BOUND = "\u00a0"  # textwrap never breaks a line at a no-break space


@dataclass(frozen=True)
class Hint:
    """One suggested action.

    ``index`` is the action's position in the legal list the hint was asked about (the menu's
    order); ``share`` the part of the search (0 to 1) spent on it, which is how much the bot
    prefers it; ``value`` the search's mean reward (0 to 1, 0.5 is level with the best other
    seat); ``expected_vp`` the VP the seat may expect a few moves later and ``lead`` its mean
    lead in VP over the best other seat then (``None`` alone at the table). All three are
    ``None`` for the only move: no search is run for it.
    """

    action: Action
    index: int
    share: float
    value: float | None
    expected_vp: float | None
    lead: float | None
    reason: str


class _Tally(ISMCTS):
    """The ISMCTS search, also summing the seat's estimated VP and lead per root action.

    The evaluator notes the estimates of the playout it just judged; after each iteration the
    root child whose visit count grew is the action that iteration began with.
    """

    def __init__(self, game: Game, seat: int, *, rng: random.Random, iterations: int) -> None:
        evaluate = playout_evaluator(game)
        estimate = value_function(game.name)
        self.vp: dict[Action, float] = {}
        self.lead: dict[Action, float] = {}
        self._last = (0.0, 0.0)
        self._counted: dict[tuple[int, Action], int] = {}

        def judged(state: State) -> list[float]:
            view = state.view(None)
            worth = [estimate(view, other) for other in range(view["players"])]
            mine = worth.pop(seat)
            self._last = (mine, mine - max(worth, default=mine))
            return evaluate(state)

        super().__init__(
            game,
            rng=rng,
            iterations=iterations,
            seconds=None,
            policy=random_policy,
            evaluate=judged,
            max_playout_steps=playout_steps(game.name),
            clock=lambda: 0.0,  # no time budget: the wall clock has no say in a hint
        )

    def _iterate(self, root: SearchNode, state: State, allowed: set[Action] | None) -> None:
        super()._iterate(root, state, allowed)
        counted = self._counted
        for key, child in root.children.items():
            if child.visits != counted.get(key, 0):
                counted[key] = child.visits
                action = key[1]
                vp, lead = self._last
                self.vp[action] = self.vp.get(action, 0.0) + vp
                self.lead[action] = self.lead.get(action, 0.0) + lead
                break


def hint(
    view: View,
    legal: Sequence[Sequence[Any]],
    *,
    seed: int,
    iterations: int | None = None,
    game: Game | None = None,
) -> list[Hint]:
    """Up to three of ``legal`` the normal bot would play from ``view``, best first.

    ``view`` is the player's own (its ``seat`` is the one to move) and ``legal`` the actions the
    server listed, in menu order. ``iterations`` defaults to the normal level's budget. ``game``
    is looked up from the view unless given (tests pass a spy).
    """
    actions = [tuple(action) for action in legal]
    if not actions:
        return []
    if len(actions) == 1:
        return [Hint(actions[0], 0, 1.0, None, None, None, "the only move")]
    game = game if game is not None else games.get(view["game"])
    budget = iterations if iterations is not None else LEVELS[HINT_LEVEL].iterations
    assert budget is not None
    seat = view["seat"]
    search = _Tally(game, seat, rng=random.Random(seed), iterations=budget)
    result = search.search(view, seat, actions)
    index: dict[Action, int] = {}
    for i, action in enumerate(actions):
        index.setdefault(action, i)
    visits, values = result.visits, result.values
    ranked = sorted(
        (a for a in visits if visits[a] > 0 and a in index),
        key=lambda a: (-visits[a], -values[a], index[a]),
    )
    alone = view["players"] == 1
    hints = []
    for action in ranked[:TOP]:
        share = visits[action] / result.iterations
        vp = search.vp.get(action, 0.0) / visits[action]
        lead = None if alone else search.lead.get(action, 0.0) / visits[action]
        reason = _reason(share, result.iterations, vp, lead)
        hints.append(Hint(action, index[action], share, values[action], vp, lead, reason))
    return hints


def _reason(share: float, iterations: int, vp: float, lead: float | None) -> str:
    said = f"picked in {share:.0%} of {iterations} trial games; a few moves on: about {vp:.0f} VP"
    if lead is None:
        return said
    ahead = round(lead)
    if ahead > 0:
        return f"{said}, {ahead} ahead"
    if ahead < 0:
        return f"{said}, {-ahead} behind"
    return f"{said}, level"


def hint_lines(hints: Sequence[Hint], labels: Sequence[str], width: int) -> list[str]:
    """The hints as numbered lines no wider than ``width`` (at least 10): label, then reason.

    ``labels`` are the menu's texts of the legal list the hints were asked about.
    """
    width = max(width, 10)
    if not hints:
        return textwrap.wrap("No hint: there is nothing to choose now.", width)
    lines: list[str] = []
    for rank, item in enumerate(hints, 1):
        head = f"{rank}. "
        indent = " " * len(head)
        label = labels[item.index] if 0 <= item.index < len(labels) else str(item.action)
        lines += textwrap.wrap(label, width, initial_indent=head, subsequent_indent=indent)
        # A number stays with its unit ("11 VP") on one line: bind them while wrapping.
        reason = item.reason.replace(" VP", _BOUND + "VP")
        wrapped = textwrap.wrap(reason, width, initial_indent=indent, subsequent_indent=indent)
        lines += [line.replace(_BOUND, " ") for line in wrapped]
    return lines


def hint_async(
    reactor: Any, view: View, legal: Sequence[Sequence[Any]], seed: int
) -> Deferred[list[Hint]]:
    """``hint`` in the reactor's thread pool (about 0.1-0.3 s): a Deferred firing with the hints.

    The view and legal list are copied first, so the console may replace or change its own while
    the search runs; the console stays responsive meanwhile.
    """
    return threads.deferToThreadPool(
        reactor,
        reactor.getThreadPool(),
        hint,
        copy.deepcopy(view),
        [tuple(action) for action in legal],
        seed=seed,
    )


__all__ = ["Hint", "hint", "hint_async", "hint_lines"]
