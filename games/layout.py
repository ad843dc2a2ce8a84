"""Fixed-length layouts: named runs of a flat float32 vector, with their bounds and meaning.

A game's observation encoder declares its layout once, at import, through :class:`Layout`; the
same declarations give the offsets the encoder writes at, the bounds of the observation space
and the table in docs/research.md (``python -m cosmoport.envs.docs`` prints it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Run:
    name: str
    offset: int
    size: int
    high: float
    text: str


class Layout:
    """Runs appended in order; ``add`` returns the offset of the new run."""

    def __init__(self) -> None:
        self.runs: list[Run] = []
        self.size = 0

    def add(self, name: str, size: int, high: float, text: str) -> int:
        offset = self.size
        self.runs.append(Run(name, offset, size, float(high), text))
        self.size += size
        return offset

    def highs(self) -> list[float]:
        """The upper bound of every element (every lower bound is 0)."""
        out: list[float] = []
        for run in self.runs:
            out.extend([run.high] * run.size)
        return out

    def markdown(self) -> str:
        """The layout as a Markdown table."""
        lines = ["| elements | name | values | meaning |", "| --- | --- | --- | --- |"]
        for run in self.runs:
            where = (
                str(run.offset) if run.size == 1 else f"{run.offset}-{run.offset + run.size - 1}"
            )
            values = "0/1" if run.high == 1 else f"0-{run.high:g}"
            lines.append(f"| {where} | `{run.name}` | {values} | {run.text} |")
        lines.append(f"\nLength: {self.size} float32 values.")
        return "\n".join(lines)


def write_standing(
    out: Any,
    scores: Sequence[int],
    ranking: Sequence[Sequence[int]] | None,
    me: int,
    at: tuple[int, int],
) -> None:
    """Write each seat's score and (once over, ``ranking`` given) final place into ``out`` at
    ``at`` (the scores' and the places' offsets), seats counted from ``me``: every game's
    observation ends with these two blocks."""
    scores_at, places_at = at
    n = len(scores)
    for seat, score in enumerate(scores):
        out[scores_at + (seat - me) % n] = score
    if ranking is not None:
        for place, group in enumerate(ranking, start=1):
            for seat in group:
                out[places_at + (seat - me) % n] = place


def write_turn(
    out: Any, players: int, me: int, current: int | None, over: bool, at: tuple[int, int, int]
) -> None:
    """Write the player count, the seat to act (counted from ``me``; none once over or between
    turns) and whether the game is over into ``out`` at ``at`` (the three blocks' offsets):
    every game's observation starts with these."""
    players_at, current_at, over_at = at
    out[players_at + players - 1] = 1
    if current is not None:
        out[current_at + (current - me) % players] = 1
    out[over_at] = over
