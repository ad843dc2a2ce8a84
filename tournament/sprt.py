"""A sequential probability ratio test on a match's win share: is A stronger than B, yet?

Each game of an A/B match gives A a score ``x`` in [0, 1]: 1 for a win, 0 for a loss, ``1/k``
for a first place shared by ``k`` seats (so 0.5 for a two-player tie). The test weighs

    H0: A's expected score is ``p0`` (or less)   against   H1: it is ``p1`` (or more)

after every game, and stops as soon as the evidence crosses a bound, with false-positive rate
about ``alpha`` (accepting H1 when H0 holds) and false-negative rate about ``beta``.

It is the generalized SPRT (GSPRT) with a normal approximation, as fishtest runs it for chess
engines: a game's score is not a coin flip (there are ties and shared places), so the
log-likelihood ratio uses the scores' own mean ``m`` and variance ``v`` over ``n`` games::

    LLR = n * (p1 - p0) * (2 * m - p0 - p1) / (2 * v)

``v`` is the maximum-likelihood (divide by ``n``) variance. While the scores say nothing about
their spread (fewer than 2 games, or every score the same), ``v`` is the variance of a
win-or-lose game at the midpoint of ``p0`` and ``p1``, the spread both hypotheses expect. (A
near-zero variance there, such as ``m * (1 - m)`` after a single win, would let one game
decide.) ``LLR`` is 0 before the first game.

The test accepts H1 when ``LLR >= log((1 - beta) / alpha)`` and H0 when
``LLR <= log(beta / (1 - alpha))``; in between, play on.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

_FLAT = 1e-9
"""A variance below this is rounding error on scores that are all the same."""


@dataclass(frozen=True)
class SPRT:
    """The test's settings: the two win shares it tells apart, and its error rates."""

    p0: float
    """A's expected score under H0 (no better than this)."""
    p1: float
    """A's expected score under H1 (at least this)."""
    alpha: float = 0.05
    """The chance of accepting H1 when H0 holds."""
    beta: float = 0.05
    """The chance of accepting H0 when H1 holds."""

    def __post_init__(self) -> None:
        if not 0 < self.p0 < self.p1 < 1:
            raise ValueError(f"the SPRT needs 0 < p0 < p1 < 1, not p0={self.p0}, p1={self.p1}")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < value < 0.5:
                raise ValueError(f"the SPRT needs 0 < {name} < 0.5, not {name}={value}")

    @property
    def bounds(self) -> tuple[float, float]:
        """The LLR at or below which H0 is accepted, and at or above which H1 is."""
        return (
            math.log(self.beta / (1 - self.alpha)),
            math.log((1 - self.beta) / self.alpha),
        )

    def llr_of(self, games: int, mean: float, variance: float) -> float:
        """The LLR of ``games`` scores with this mean and (divide-by-n) variance; what
        :meth:`llr` computes, for callers that keep running sums instead of every score."""
        if games == 0:
            return 0.0
        if games < 2 or variance < _FLAT:
            middle = (self.p0 + self.p1) / 2
            variance = middle * (1 - middle)
        return games * (self.p1 - self.p0) * (2 * mean - self.p0 - self.p1) / (2 * variance)

    def llr(self, scores: Sequence[float]) -> float:
        """The log-likelihood ratio of H1 against H0 given A's ``scores`` (see the module)."""
        n = len(scores)
        if n == 0:
            return 0.0
        mean = math.fsum(scores) / n
        variance = math.fsum((x - mean) ** 2 for x in scores) / n
        return self.llr_of(n, mean, variance)

    def decide(self, llr: float) -> str | None:
        """``"H1"``, ``"H0"`` or None (play on) for an LLR."""
        low, high = self.bounds
        if llr >= high:
            return "H1"
        if llr <= low:
            return "H0"
        return None

    def decision(self, scores: Sequence[float]) -> str | None:
        """``"H1"`` (A's share is ``p1`` or more), ``"H0"`` (``p0`` or less), or None (go on)."""
        return self.decide(self.llr(scores))


class RotationSamples:
    """A's mean score over each *complete* rotation group (one deal played in every seating:
    ``players`` games with the same seed and the same entrants), in the order the groups were
    completed: the samples of the test by rotation groups, as fishtest's game pairs. Seat and
    deal luck cancel within a group, so its mean varies less than a single game's score."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.means: list[float] = []
        self._open: dict[tuple[object, ...], list[float]] = {}

    def add(self, seed: int, seating: Sequence[int], score: float) -> None:
        key = (seed, tuple(sorted(seating)))
        group = self._open.setdefault(key, [])
        group.append(score)
        if len(group) >= self.players:
            self.means.append(math.fsum(group) / len(group))
            del self._open[key]


def parse_sprt(text: str) -> SPRT:
    """An SPRT from ``P0,P1``, ``P0,P1,ALPHA`` or ``P0,P1,ALPHA,BETA`` (e.g. ``0.50,0.55``)."""
    parts = [part.strip() for part in text.split(",")]
    if not 2 <= len(parts) <= 4:
        raise ValueError(f"write P0,P1 or P0,P1,ALPHA,BETA (e.g. 0.50,0.55), not {text!r}")
    try:
        values = [float(part) for part in parts]
    except ValueError:
        raise ValueError(f"write P0,P1 or P0,P1,ALPHA,BETA as numbers, not {text!r}") from None
    return SPRT(*values)
