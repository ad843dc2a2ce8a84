"""Cosmic Run in the client: its board, menu names, narration, previews, legend and cards.

``PLUGIN`` keeps :class:`client.games.GamePlugin`; each part lives in the module of its job
(:mod:`.board`, :mod:`.names`, :mod:`.narrate`, :mod:`.preview`, :mod:`.legend`, :mod:`.cards`).
"""

from __future__ import annotations

from typing import Any

from client.games import GamePlugin
from client.games.cosmic_run import board as _board
from client.games.cosmic_run import cards as _cards
from client.games.cosmic_run import dice_names as _dice_names
from client.games.cosmic_run import legend as _legend
from client.games.cosmic_run import names as _names
from client.games.cosmic_run import narrate as _narrate
from client.games.cosmic_run import preview as _preview
from client.text.style import Style


class CosmicRun:
    """Cosmic Run for the client."""

    game = "cosmic_run"
    legend = _legend.LEGEND
    card_sections = _cards.CARD_SECTIONS
    chance_word = "roll"

    board = staticmethod(_board.board)
    decision = staticmethod(_board.decision)
    final = staticmethod(_board.final)
    entries = staticmethod(_names.entries)
    resolve = staticmethod(_names.resolve)
    footnote = staticmethod(_names.footnote)
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
    renamer = staticmethod(_dice_names.DiceNames)

    @staticmethod
    def secret(key: str, value: Any, style: Style) -> str | None:
        """The Infodere tokens a seat holds face down."""
        if key == "infodere" and isinstance(value, list):
            return "Infodere tokens " + (" ".join(str(v) for v in value) or "none")
        return None

    @staticmethod
    def pending_secret(own: dict[str, Any], public: dict[str, Any], style: Style) -> list[str]:
        """Nothing of a pending decision is hidden in Cosmic Run."""
        return []


PLUGIN: GamePlugin = CosmicRun()
