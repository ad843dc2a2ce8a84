"""Alien Artifacts in the client: its board, menu names, narration, previews, legend and cards.

``PLUGIN`` keeps :class:`client.games.GamePlugin`; each part lives in the module of its job
(:mod:`.board`, :mod:`.names`, :mod:`.narrate`, :mod:`.preview`, :mod:`.legend`, :mod:`.cards`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from client.games import GamePlugin
from client.games.alien_artifacts import board as _board
from client.games.alien_artifacts import cards as _cards
from client.games.alien_artifacts import legend as _legend
from client.games.alien_artifacts import names as _names
from client.games.alien_artifacts import narrate as _narrate
from client.games.alien_artifacts import preview as _preview
from client.text.style import Style


class AlienArtifacts:
    """Alien Artifacts for the client."""

    game = "alien_artifacts"
    legend = _legend.LEGEND
    card_sections = _cards.CARD_SECTIONS
    chance_word = "draw"

    board = staticmethod(_board.board)
    decision = staticmethod(_board.decision)
    final = staticmethod(_board.final)
    entries = staticmethod(_names.entries)
    resolve = staticmethod(_names.resolve)
    hint = staticmethod(_names.hint)
    narrate = staticmethod(_narrate.narrate)
    told_by_label = staticmethod(_narrate.told_by_label)
    situation = staticmethod(_narrate.situation)
    label = staticmethod(_narrate.label)
    observe = staticmethod(_preview.observe)
    card = staticmethod(_cards.card)
    card_names = staticmethod(_cards.card_names)
    describe = staticmethod(_cards.describe)
    words = staticmethod(_cards.words)
    in_game = staticmethod(_cards.in_game)

    @staticmethod
    def footnote(legal: Sequence[Any]) -> str | None:
        """Alien Artifacts' choices need no note."""
        return None

    @staticmethod
    def secret(key: str, value: Any, style: Style) -> str | None:
        """A hand, a store, artifacts or a defence plan, by the names the board uses."""
        if key in ("hand", "store") and isinstance(value, list):
            return f"{key:<9} " + ("  ".join(_board.resource(c, style) for c in value) or "-")
        if key == "artifacts" and isinstance(value, list):
            return f"{key:<9} " + ("  ".join(_names.card_name(c) for c in value) or "-")
        if key == "defence":
            return f"{'plan':<9} {_names.card_name(value) if value else '-'}"
        return None

    @staticmethod
    def pending_secret(own: dict[str, Any], public: dict[str, Any], style: Style) -> list[str]:
        """The cards a seat may keep one of (an artifact or a star chart), if others don't see
        them."""
        keep = own.get("keep")
        if keep and keep != public.get("keep"):
            return ["keeping one of " + "  ".join(_names.card_name(a) for a in keep)]
        return []


PLUGIN: GamePlugin = AlienArtifacts()
