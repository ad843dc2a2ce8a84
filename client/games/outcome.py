"""What one action did in one sample of a menu preview (see :mod:`client.games.preview`)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Outcome:
    """What one action did in one sample, as the seat sees it."""

    numbers: dict[str, int] = field(default_factory=dict)
    """Changes of the seat's own counts: ``vp``, ``credits``, ``crystals``, ``drawn``, ..."""
    chance: set[str] = field(default_factory=set)
    """Number keys that a roll or a hidden card decided."""
    exact: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Number keys whose every possible value is known (lowest, highest): a harvest's VP."""
    shown: set[str] = field(default_factory=set)
    """Number keys worth showing even when they do not change (a scoring that scores 0)."""
    detail: dict[str, str] = field(default_factory=dict)
    """Words after a number, e.g. ``vp``: ``(T15 +0)``."""
    items: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Named changes, key -> (text when sure, text when only some samples have it)."""
    first: list[str] = field(default_factory=list)
    """Costs and projections, said before the measured effects."""
    projected: dict[str, int] = field(default_factory=dict)
    """What a placed die will do once rolling ends, e.g. ``{"ship P3": 4}`` (its space)."""
    notes: list[str] = field(default_factory=list)
    """Facts said last ("ends your turn"), when every sample agrees."""
