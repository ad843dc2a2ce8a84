"""The turn timer as the console shows it: who decides, how long is left, who has a bot's help.

The server sends a table's ``clock`` with every update and snapshot (PROTOCOL.md 6.11): the
seconds left of the current decision and every seat's bank, as of sending. The client counts
down from the moment it received them (``elapsed``), first the decision's time, then the
deciding seat's bank; a paused clock (nobody at the table) does not count down.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from client.text.wording import seat_name


def clock_text(seconds: float) -> str:
    """``1:05`` for 65 seconds (rounded up: a clock never shows 0:00 while time is left)."""
    whole = int(-(-seconds // 1)) if seconds > 0 else 0
    return f"{whole // 60}:{whole % 60:02d}"


def _number(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def left(clock: Any, elapsed: float) -> tuple[float, float] | None:
    """(seconds of the decision left, seconds of the deciding seat's bank left) ``elapsed``
    seconds after ``clock`` arrived; None without a timer or a seat deciding."""
    if not isinstance(clock, dict) or not isinstance(clock.get("seat"), int):
        return None
    banks = _list(clock.get("banks"))
    seat = clock["seat"]
    bank = _number(banks[seat]) if 0 <= seat < len(banks) else 0.0
    spent = 0.0 if clock.get("paused") else max(0.0, elapsed)
    decision = _number(clock.get("decision"))
    if spent <= decision:
        return decision - spent, bank
    return 0.0, max(0.0, bank - (spent - decision))


def handed_over(clock: Any, seat: Any) -> bool:
    """Whether the stand-in bot plays ``seat`` (it timed out three decisions in a row)."""
    auto = clock.get("auto") if isinstance(clock, dict) else None
    return isinstance(auto, list) and isinstance(seat, int) and 0 <= seat < len(auto) and auto[seat]


def deciding_time(clock: Any, elapsed: float, names: Sequence[str], me: int | None) -> str | None:
    """``1:12 left + 4:30 bank`` while the seat ``me`` decides against a turn timer, ``B Bob
    decides, 0:40 left`` while another seat does, else None (what the full-screen client's
    command line shows beside the prompt: it is never out of sight)."""
    now = left(clock, elapsed)
    if now is None:
        return None
    seat = clock["seat"]
    if handed_over(clock, seat):
        return None
    decision, rest = now
    if seat != me:
        return f"{seat_name(list(names), seat)} decides, {clock_text(decision)} left"
    spare = f" + {clock_text(rest)} bank" if rest > 0 else ""
    return f"{clock_text(decision)} left{spare}"


def clock_line(clock: Any, elapsed: float, names: Sequence[str], me: int | None) -> str | None:
    """``Clock: A Ann decides, 1:12 left + 4:30 bank · B Bob 3:12 bank · C Cy: a bot plays``
    (``you`` for the seat ``me``); None at a table without a timer."""
    if not isinstance(clock, dict):
        return None
    banks = _list(clock.get("banks"))
    deciding = clock.get("seat")
    now = left(clock, elapsed)
    parts = []
    for seat, bank in enumerate(banks):
        who = "you" if seat == me else seat_name(list(names), seat)
        if handed_over(clock, seat):
            parts.append(f"{who}: a bot plays")
        elif seat == deciding and now is not None:
            decision, rest = now
            spare = f" + {clock_text(rest)} bank" if rest > 0 else ""
            verb = "decide" if seat == me else "decides"
            parts.append(f"{who} {verb}, {clock_text(decision)} left{spare}")
        else:
            parts.append(f"{who} {clock_text(_number(bank))} bank")
    paused = " (stopped: nobody is at the table)" if clock.get("paused") else ""
    return "Clock: " + " · ".join(parts) + paused
