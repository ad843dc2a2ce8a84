"""docs/cards.md is the current text of every card, and every id there is a card."""

from __future__ import annotations

import re
from pathlib import Path

from client.cards import card_info, reference

DOC = Path(__file__).resolve().parents[2] / "docs" / "cards.md"


def test_the_card_reference_is_current():
    assert DOC.read_text(encoding="utf-8") == reference(), (
        "docs/cards.md is stale: run `python -m client.cards docs/cards.md`"
    )


def test_every_card_of_the_reference_is_described():
    codes = re.findall(r"^- \*\*([A-Z]+\d*)\*\*", reference(), re.MULTILINE)
    assert len(codes) == 30 + 12 + 54 + 48 + 8 + 10 + 14 + 6
    for code in codes:
        first = card_info(code)[0]
        assert first.startswith(code) and not first.endswith(": "), code


def test_riders_and_factions_are_described():
    assert "  rider: Armoured: a Damaged result does not affect it" in card_info("S02")
    assert any("+1 to its attack value against a player" in line for line in card_info("S14"))
    assert not any("rider" in line for line in card_info("S01"))
    episcopacy = card_info("EPI")
    assert episcopacy[0] == "EPI Episcopacy (Alien Artifacts faction)"
    assert "  end bonus: 1 VP per artifact gained during the game (used or not)" in episcopacy
