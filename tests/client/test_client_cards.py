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
    codes = re.findall(r"^- \*\*([A-Z]+\d+)\*\*", reference(), re.MULTILINE)
    assert len(codes) == 30 + 12 + 54 + 48 + 8 + 10 + 14
    for code in codes:
        first = card_info(code)[0]
        assert first.startswith(code) and not first.endswith(": "), code
