"""Cosmic Run: a press-your-luck dice race for 1 to 4 players (rules: docs/rules/cosmic-run.md).

``GAME`` is the :class:`games.api.Game` of this package.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.api import View, check_players
from games.cosmic_run import data
from games.cosmic_run.determinize import determinize as _determinize
from games.cosmic_run.rules import start_game
from games.cosmic_run.state import CosmicRunState
from games.rng import Rng


class CosmicRun:
    """The rules of Cosmic Run, as a :class:`games.api.Game`."""

    name = "cosmic_run"
    title = "Cosmic Run"
    edition = "1.0"  # the rules edition this engine plays (game records name it)
    min_players = data.MIN_PLAYERS
    max_players = data.MAX_PLAYERS
    # Cosmic Run has no variants: the solo game is simply 1 player.

    def new(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> CosmicRunState:
        check_players(self, players)
        if options:
            unknown = ", ".join(sorted(map(str, options)))
            raise ValueError(f"Cosmic Run has no options (got: {unknown})")
        state = CosmicRunState(players, Rng(seed))
        start_game(state)
        return state

    def determinize(self, view: View, seat: int | None, seed: int) -> CosmicRunState:
        """A full state consistent with ``view``, every hidden part sampled uniformly."""
        return _determinize(view, seat, seed)

    def __repr__(self) -> str:
        return "<game cosmic_run>"


GAME = CosmicRun()

__all__ = ["GAME", "CosmicRun", "CosmicRunState"]
