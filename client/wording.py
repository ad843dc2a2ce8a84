"""Small helpers for putting game facts into English, shared by the narrators and renderers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

Names = Sequence[str]


def who(names: Names, seat: Any) -> str:
    """A seat's name (``the Drone`` for Cosmic Run's solo opponent, ``seat 3`` if unknown)."""
    if seat == "drone":
        return "the Drone"
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return names[seat]
    return f"seat {seat}"


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 crystal``, ``2 crystals`` (``many`` for irregular plurals)."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def listing(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
