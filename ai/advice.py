"""The search behind a hint: what an MCTS level thinks of each choice of the seat to move.

:func:`advise` runs the level's own search (the same playouts, evaluator and playout length as
the bot of :mod:`ai.bots`) from one seat's view only, the hidden parts sampled by the engine's
``determinize`` as at the table, on a fixed number of iterations and no clock, so that the same
generator gives the same advice on any machine. Besides the search's visits and values, it
says for each action where the seat stands a few moves later: the VP the bots' rule of thumb
(:func:`ai.heuristics.value_function`) gives it at the end of each playout that began with that
action (a playout is cut after about two turns), and its lead over the best other seat, both
averaged over those playouts. Putting that into words is the client's business.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ai.bots import LEVELS, playout_evaluator
from ai.heuristics import playout_steps, value_function
from ai.mcts import ISMCTS, random_policy
from games.api import Action, Game, State, View


@dataclass(frozen=True)
class Outlook:
    """What the search found for one action of the seat to move."""

    action: Action
    visits: int
    """The iterations that began with it: how much the search prefers it."""
    value: float
    """The search's mean reward for the seat (0 to 1; 0.5 is level with the best other seat)."""
    vp: float
    """The seat's estimated VP at the end of those playouts, averaged (0 when never visited)."""
    lead: float
    """Its lead in VP over the best other seat then, averaged (0 alone at the table)."""


@dataclass(frozen=True)
class Advice:
    iterations: int
    """The iterations the search ran (0 when there was only one action to choose)."""
    outlooks: list[Outlook]
    """Every action the search tried, in the order the search first tried them."""


def advise(
    game: Game,
    view: View,
    legal: Sequence[Action],
    *,
    rng: random.Random,
    level: str = "normal",
    iterations: int | None = None,
) -> Advice:
    """The ``level`` search from ``view`` (its ``seat`` is the one to move) among ``legal``,
    on ``iterations`` (default: the level's own budget) and no time limit."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    budget = iterations if iterations is not None else LEVELS[level].iterations
    assert budget is not None
    seat = view["seat"]
    estimate = value_function(game.name)
    vp: dict[Action, float] = {}
    lead: dict[Action, float] = {}

    def tally(player: int, action: Action, state: State) -> None:
        seen = state.view(None)
        worth = [estimate(seen, other) for other in range(seen["players"])]
        mine = worth.pop(seat)
        vp[action] = vp.get(action, 0.0) + mine
        lead[action] = lead.get(action, 0.0) + (mine - max(worth, default=mine))

    search = ISMCTS(
        game,
        rng=rng,
        iterations=budget,
        seconds=None,
        policy=random_policy,
        evaluate=playout_evaluator(game),
        max_playout_steps=playout_steps(game.name),
        clock=lambda: 0.0,  # no time budget: the wall clock has no say in advice
        observe=tally,
    )
    result = search.search(view, seat, legal)
    outlooks = [
        Outlook(
            action,
            visits,
            result.values.get(action, 0.0),
            vp.get(action, 0.0) / visits if visits else 0.0,
            lead.get(action, 0.0) / visits if visits else 0.0,
        )
        for action, visits in result.visits.items()
    ]
    return Advice(result.iterations, outlooks)


__all__ = ["Advice", "Outlook", "advise"]
