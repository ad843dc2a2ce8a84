"""Turn timer settings as people write them: ``90+300`` is 90 seconds per decision plus a bank of
300 spare seconds per seat; ``90`` has no bank; ``off`` (or ``0``) is no timer. The ranges are
those of ``create.timer`` and ``create.bank``."""

from __future__ import annotations

TIMER_MAX = 3600
"""The most seconds per decision a table may give (``create.timer``)."""
BANK_MAX = 36000
"""The largest bank in seconds (``create.bank``)."""


def parse_timer(text: str) -> tuple[int, int]:
    """(seconds per decision, bank) written as ``90+300``; (0, 0) for ``off``. A ValueError
    says how to write one."""
    text = text.strip().lower()
    if text in ("off", "none", "no", "0"):
        return 0, 0
    decision, plus, bank = text.partition("+")
    usage = f"{text!r} is not a timer: write SECONDS+BANK like 90+300, or off"
    if not decision.isdigit() or (plus and not bank.isdigit()):
        raise ValueError(usage)
    seconds, spare = int(decision), int(bank or 0)
    if not 1 <= seconds <= TIMER_MAX:
        raise ValueError(f"{usage} (a decision takes 1 to {TIMER_MAX} seconds)")
    if spare > BANK_MAX:
        raise ValueError(f"{usage} (a bank holds up to {BANK_MAX} seconds)")
    return seconds, spare
