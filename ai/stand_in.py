"""The stand-in that plays for a seat whose turn timer ran out (see the server's turn timers):
the greedy bot, one action ahead with the game's heuristic, a millisecond or so, on that seat's
own view. ``cosmoport serve`` hands it to the server it builds (the server does not depend on
the AI)."""

from __future__ import annotations

import random
from typing import Any

import games
from ai.bots import GreedyBot


def greedy_stand_in(
    game: games.Game, view: dict[str, Any], legal: list[games.Action], rng: random.Random
) -> games.Action:
    """What the greedy bot plays from ``view`` among ``legal``."""
    return GreedyBot(game, rng).choose(view, legal)
