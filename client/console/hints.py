"""`hint`: a local bot's top three choices for the seat to move, with a reason in player words.

The bot is the ``normal`` MCTS level (:func:`ai.advice.advise`: the same playouts, evaluator
and playout length as ``ai.bots``), searching from the player's own view only: the hidden parts
are sampled by the engine's ``determinize``, exactly as a bot at the table does. Nothing is sent
anywhere. The budget is a fixed number of iterations (no time cap), so a hint is the same for
the same seed on any machine.

Besides the share of the search each action got, a hint says where the action leaves the player
a few moves later: the VP the bots' own rule of thumb gives the seat at the end of each playout
that began with that action (a playout is cut after about two turns), and the lead over the best
other seat, both averaged over those playouts."""

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
from ai.advice import advise
from games.api import Action, Game, View

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
    advice = advise(
        game, view, actions, rng=random.Random(seed), level=HINT_LEVEL, iterations=iterations
    )
    index: dict[Action, int] = {}
    for i, action in enumerate(actions):
        index.setdefault(action, i)
    ranked = sorted(
        (o for o in advice.outlooks if o.visits > 0 and o.action in index),
        key=lambda o: (-o.visits, -o.value, index[o.action]),
    )
    alone = view["players"] == 1
    hints = []
    for outlook in ranked[:TOP]:
        share = outlook.visits / advice.iterations
        lead = None if alone else outlook.lead
        reason = _reason(share, advice.iterations, outlook.vp, lead)
        hints.append(
            Hint(
                outlook.action,
                index[outlook.action],
                share,
                outlook.value,
                outlook.vp,
                lead,
                reason,
            )
        )
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
