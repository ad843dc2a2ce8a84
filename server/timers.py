"""Turn timers: seconds per decision, a bank of spare time per seat, and who runs out.

A table with a timer gives the seat to act ``decision`` seconds for each decision. Time past
that comes out of the seat's bank (``bank`` seconds for the whole game, never refilled). When
both are gone the seat has *timed out*: a stand-in bot plays that one decision for it and the
table is told. A seat that times out :data:`HAND_OVER_AFTER` decisions in a row is *handed over*:
from then on the stand-in plays each of its decisions after :data:`STAND_IN_PAUSE` seconds,
until its player acts again (any ``act`` or ``undo`` of theirs, or ``back``). The clocks stop
while no person is connected at the table (:meth:`TurnClock.pause`): then nobody is waiting,
and people who all lost their connection come back to the game as they left it.

:class:`TurnClock` is plain arithmetic on the times it is given (the table's injected clock);
the table asks it after each change and the lobby's housekeeping tick asks :meth:`TurnClock.due`,
so a timeout is seen within one tick (a second) of its moment.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from protocol.timer import BANK_MAX, TIMER_MAX, parse_timer

HAND_OVER_AFTER = 3
"""Timeouts in a row after which a seat is handed to the stand-in bot."""
STAND_IN_PAUSE = 1.0
"""Seconds the stand-in waits before it plays a handed-over seat's decision (so that people
can follow the game)."""

RESTART_GRACE = 60.0
"""Seconds a restored game waits for the players of before the clocks run regardless: after a
restart the seat to act's clock stands until its player is back (a console retries at least
every 15 s), so that the time the server was down, and the time to come back, is nobody's."""

TIMEOUT, HANDED_OVER = "timeout", "handed_over"
"""Why the stand-in played (the ``why`` of a ``stand_in`` event)."""


@dataclass(frozen=True, slots=True)
class TimerSettings:
    """A table's timer: ``decision`` seconds per decision and a ``bank`` per seat."""

    decision: int
    bank: int

    def __post_init__(self) -> None:
        if not 1 <= self.decision <= TIMER_MAX:
            raise ValueError(f"a decision takes 1 to {TIMER_MAX} seconds (0: no timer)")
        if not 0 <= self.bank <= BANK_MAX:
            raise ValueError(f"a bank holds 0 to {BANK_MAX} seconds")

    @classmethod
    def of(cls, decision: int, bank: int) -> TimerSettings | None:
        """The settings for ``decision`` and ``bank`` seconds; None when ``decision`` is 0."""
        return None if decision == 0 else cls(decision, bank)

    @classmethod
    def parse(cls, text: str) -> TimerSettings | None:
        """``90+300`` (seconds per decision + bank), ``90`` (no bank) or ``off``/``0``."""
        return cls.of(*parse_timer(text))

    def text(self) -> str:
        """``90 s per decision + a 300 s bank``."""
        bank = f" + a {self.bank} s bank" if self.bank else ""
        return f"{self.decision} s per decision{bank}"


class TurnClock:
    """The time of every seat of one game."""

    __slots__ = ("auto", "banks", "paused_at", "seat", "settings", "since", "timeouts")

    def __init__(self, settings: TimerSettings, seats: int) -> None:
        self.settings = settings
        self.banks = [float(settings.bank)] * seats
        self.timeouts = [0] * seats  # in a row
        self.auto = [False] * seats  # handed over to the stand-in
        self.seat: int | None = None  # the seat deciding now
        self.since = 0.0  # when its decision began (moved on by the time the clocks stood)
        self.paused_at: float | None = None  # since when the clocks stand

    def begin(self, seat: int | None, now: float) -> None:
        """``seat`` must decide from ``now`` on (None: nobody, the game is over)."""
        self.seat = seat
        self.since = now
        if self.paused_at is not None:
            self.paused_at = now

    def pause(self, now: float) -> None:
        """Stop the clocks (nobody is at the table to wait)."""
        if self.paused_at is None:
            self.paused_at = now

    def resume(self, now: float) -> None:
        """Start the clocks again where they stood."""
        if self.paused_at is not None:
            self.since += max(0.0, now - self.paused_at)
            self.paused_at = None

    def _elapsed(self, now: float) -> float:
        """Seconds the seat to act has had for its decision, clocks running."""
        stood = self.paused_at if self.paused_at is not None else now
        return max(0.0, stood - self.since)

    def _banks_at(self, now: float) -> list[float]:
        """Every seat's bank as of ``now``: the seat to act's time past its decision time
        comes out of its own."""
        banks = list(self.banks)
        if self.seat is not None:
            over = self._elapsed(now) - self.settings.decision
            if over > 0:
                banks[self.seat] = max(0.0, banks[self.seat] - over)
        return banks

    def spend(self, now: float) -> None:
        """The seat to act has decided at ``now``: what it took past its decision time comes
        out of its bank."""
        self.banks = self._banks_at(now)

    def banks_after_decision(self, now: float) -> list[float]:
        """Every seat's bank once the seat to act has decided at ``now`` (what :meth:`spend`
        will leave), in tenths of seconds as clocks are shown: what the store keeps."""
        return [round(bank, 1) for bank in self._banks_at(now)]

    def present(self, seat: int) -> bool:
        """``seat``'s player acted: its run of timeouts ends. True if it was handed over."""
        was = self.auto[seat]
        self.timeouts[seat] = 0
        self.auto[seat] = False
        return was

    def due(self, now: float) -> str | None:
        """Why the stand-in must play for the seat to act now (``timeout``/``handed_over``)."""
        seat = self.seat
        if seat is None or self.paused_at is not None:
            return None
        if self.auto[seat]:
            return HANDED_OVER if self._elapsed(now) >= STAND_IN_PAUSE else None
        if self._elapsed(now) >= self.settings.decision + self.banks[seat]:
            return TIMEOUT
        return None

    def timed_out(self, seat: int) -> bool:
        """Note that ``seat`` ran out of time; True if that hands it over."""
        self.banks[seat] = 0.0
        self.timeouts[seat] += 1
        if not self.auto[seat] and self.timeouts[seat] >= HAND_OVER_AFTER:
            self.auto[seat] = True
            return True
        return False

    def message(self, now: float) -> dict[str, Any]:
        """The ``clock`` of updates and snapshots: the seconds left as of ``now``."""
        decision = float(self.settings.decision)
        if self.seat is not None:
            decision = max(0.0, decision - self._elapsed(now))
        return {
            "seat": self.seat,
            "decision": round(decision, 1),
            "banks": self.banks_after_decision(now),
            "auto": list(self.auto),
            "paused": self.paused_at is not None,
        }
