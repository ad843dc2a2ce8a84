"""Housekeeping a share at a time: every item of a collection visited about once per period.

The server's sweep (timeouts, heartbeats, turn timers, table expiry) looks at every session and
every table once per :attr:`~server.limits.Limits.tick`. Done in one go, that stopped a server of
2,000 paced tables for about 18 ms every second, and every action arriving meanwhile waited
(``bench/server.py --pace``). The sweep now runs :data:`SLICES` times per period, and each run
visits the share of the items that the time since the last run calls for. A run that comes a
whole period or more after the last one (a fake clock advanced in one step, a reactor held up)
visits everything at once, so no item waits longer than it did before.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Generic, TypeVar

T = TypeVar("T")

SLICES = 10
"""Runs of the sweep per period."""


class Rotation(Generic[T]):
    """Hands out the items to visit now, so that each is visited about once per ``period``.

    Each round takes a snapshot of the collection in its order and works through it; items that
    came since wait for the next round, items that went are still handed out (the caller skips
    what is gone).
    """

    def __init__(self, period: float, start: float) -> None:
        self.period = period
        self._last = start
        self._round: list[T] = []
        self._next = 0  # index into _round of the next item to visit

    def due(self, now: float, items: Iterable[T]) -> list[T]:
        """The items to visit at ``now``, ``items`` being the whole collection as it is now."""
        elapsed = now - self._last
        self._last = now
        if elapsed >= self.period or elapsed < 0:  # late (or the clock went back): everything
            self._round, self._next = [], 0
            return list(items)
        if self._next >= len(self._round):
            self._round, self._next = list(items), 0
        share = math.ceil(len(self._round) * elapsed / self.period)
        start, self._next = self._next, self._next + share
        return self._round[start : self._next]
