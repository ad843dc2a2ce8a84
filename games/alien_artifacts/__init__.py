"""Alien Artifacts, a deck-building 4X card game for 2-5 players.

The rules as implemented: ``docs/rules/alien-artifacts.md``.

>>> from games.alien_artifacts import GAME
>>> state = GAME.new(players=2, seed=1)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.alien_artifacts import determinize as _determinize
from games.alien_artifacts import rules, setup
from games.alien_artifacts.state import AlienArtifactsState
from games.api import View, check_players


class AlienArtifactsGame:
    """The game object registered as ``alien_artifacts``."""

    name = "alien_artifacts"
    title = "Alien Artifacts"
    edition = "1.0"  # the rules edition this engine plays (game records name it)
    min_players = 2
    max_players = 5

    def new(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> AlienArtifactsState:
        """A new game; ``options``: ``{"factions": "random" | "choice" | [codes per seat]}``."""
        check_players(self, players)
        factions = setup.parse_factions(players, options)
        state = AlienArtifactsState(players, random.Random(seed))
        rules.start_game(state, factions)
        return state

    def determinize(self, view: View, seat: int | None, seed: int) -> AlienArtifactsState:
        """A full state consistent with ``view``, every hidden part sampled uniformly."""
        return _determinize.determinize(view, seat, seed)


GAME = AlienArtifactsGame()

__all__ = ["GAME", "AlienArtifactsGame", "AlienArtifactsState"]
