"""Time controls for a whole game: a bank per seat plus an increment per decision.

``--tc 60+0.5`` gives every seat a bank of 60 seconds for the game and 0.5 seconds more for each
of its decisions. The increment is credited when a decision begins, and what the seat does not
use of it stays in its bank: a decision may take at most ``bank + increment`` seconds, and after
it the bank is ``bank + increment - taken``. So ``--tc 0+2`` is a plain two seconds per decision,
and ``--tc 300`` a bank of five minutes for the game with nothing added.

A seat whose decision takes longer than it had is *out of time* (its bank ran dry): it loses
the game on time, or, with ``--on-time stand-in``, the greedy stand-in makes that move for it and
its bank stays empty (later decisions have the increment only).

:class:`GameClock` does the arithmetic on the times an injected clock gives (a callable, in
seconds), so that tests run it on a fake clock; the tournament measures every seat the same
way, built-in bots and programs alike, from the moment the seat is asked to decide to the
moment its action is applied.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

ON_TIME = ("forfeit", "stand-in")
"""What happens to a seat out of time: it loses the game, or the stand-in moves for it."""

_TC = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*(?:\+\s*(\d+(?:\.\d*)?|\.\d+)\s*)?$")


@dataclass(frozen=True)
class TimeControl:
    """A bank of ``bank`` seconds per seat for the game, plus ``increment`` per decision."""

    bank: float
    increment: float = 0.0

    def __post_init__(self) -> None:
        for name, value in (("bank", self.bank), ("increment", self.increment)):
            if not (math.isfinite(value) and value >= 0):
                raise ValueError(f"a time control's {name} is 0 seconds or more, not {value}")
        if self.bank + self.increment <= 0:
            raise ValueError("a time control of 0+0 leaves no time at all")

    def text(self) -> str:
        """``60+0.5``: how it is written (and kept in the event's database)."""
        return f"{self.bank:g}+{self.increment:g}"

    def describe(self) -> str:
        """For people: ``a 60 s bank + 0.5 s per decision``."""
        if not self.bank:
            return f"{self.increment:g} s per decision"
        more = f" + {self.increment:g} s per decision" if self.increment else ""
        return f"a {self.bank:g} s bank{more}"


def parse_tc(text: str) -> TimeControl:
    """``BANK+INC`` or ``BANK`` in seconds (``60+0.5``, ``300``, ``0+2``); ValueError else."""
    match = _TC.match(text)
    if match is None:
        raise ValueError(f"write a time control as BANK+INC in seconds (e.g. 60+0.5), not {text!r}")
    return TimeControl(float(match.group(1)), float(match.group(2) or 0))


class GameClock:
    """The time of every seat of one game (None for a seat that plays untimed).

    :meth:`begin` when a seat must decide, :meth:`stop` when its action is applied: ``stop``
    says how long it took and whether that was more than it had."""

    def __init__(self, controls: Sequence[TimeControl | None], clock: Callable[[], float]) -> None:
        self.controls = list(controls)
        self.clock = clock
        self.banks: list[float | None] = [None if c is None else c.bank for c in controls]
        self.seat: int | None = None
        self.since = 0.0
        self.credit = 0.0  # the deciding seat's increment for this decision
        self.flags = [0] * len(controls)  # decisions each seat ran out of time over

    @property
    def timed(self) -> bool:
        return any(c is not None for c in self.controls)

    def begin(self, seat: int | None) -> None:
        """``seat`` must decide from now on (None: nobody; the game is over)."""
        self.seat = seat
        self.since = self.clock()
        control = None if seat is None else self.controls[seat]
        self.credit = 0.0 if control is None else control.increment

    def left(self, seat: int | None = None) -> float | None:
        """Seconds ``seat`` (by default the deciding one) has for its decision as of now:
        the whole of it for the deciding seat (elapsed time taken off), else its bank plus
        one increment. None if it plays untimed."""
        seat = self.seat if seat is None else seat
        if seat is None or self.banks[seat] is None:
            return None
        bank = self.banks[seat]
        assert bank is not None
        if seat == self.seat:
            return bank + self.credit - (self.clock() - self.since)
        control = self.controls[seat]
        assert control is not None
        return bank + control.increment

    def stop(self) -> tuple[float, bool]:
        """The deciding seat has decided: (seconds it took, whether it ran out of time). Its bank
        is charged (never below 0), and nobody decides until the next :meth:`begin`."""
        seat = self.seat
        taken = max(0.0, self.clock() - self.since)
        self.seat = None
        if seat is None or self.banks[seat] is None:
            return taken, False
        bank = self.banks[seat]
        assert bank is not None
        after = bank + self.credit - taken
        self.banks[seat] = max(0.0, after)
        if after < 0:
            self.flags[seat] += 1
        return taken, after < 0

    def out_of_time(self, seat: int) -> None:
        """``seat`` ran out of time and the stand-in moved for it: its bank is empty."""
        if self.banks[seat] is not None:
            self.banks[seat] = 0.0

    def message(self) -> dict[str, Any]:
        """The ``clock`` map of the protocol's updates (PROTOCOL.md 6.11): ``decision`` is what
        is left of the deciding seat's increment, then its bank counts down. An untimed seat's
        bank is shown as 0."""
        seat = self.seat
        banks = [0.0 if b is None else b for b in self.banks]
        decision = 0.0
        if seat is not None and self.banks[seat] is not None:
            elapsed = max(0.0, self.clock() - self.since)
            decision = max(0.0, self.credit - elapsed)
            banks[seat] = max(0.0, banks[seat] - max(0.0, elapsed - self.credit))
        return {
            "seat": seat,
            "decision": round(decision, 3),
            "banks": [round(b, 3) for b in banks],
            "auto": [False] * len(banks),
            "paused": False,
        }

    def spent(self) -> list[float | None]:
        """Each seat's bank as it stands (None: untimed), for the game's result."""
        return list(self.banks)
