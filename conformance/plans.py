"""What a run is asked to do (:class:`Plan`), what it shares with the others (:class:`Setup`),
and what it found (:class:`Outcome`), which :mod:`conformance.checks` turns into the checklist."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import games
from conformance.wire import RefereeFactory, Wire
from tournament import programs

DROP_AFTER = 3
"""Decisions before the referee drops the connection (``resume``)."""
CLOSE_AFTER = 3
"""Decisions before the referee closes the table (``close``)."""
QUIET = 3.0
"""Seconds a program has to exit once its table is closed."""


@dataclass(frozen=True)
class Plan:
    """What one run does: ``key`` is ``game``, ``refusals``, ``resume`` or ``close``."""

    key: str
    game: str
    seat: int
    seed: int

    @property
    def title(self) -> str:
        name = games.get(self.game).title
        return {
            "game": f"a whole game of {name}",
            "refusals": f"action/illegal, then action/stale ({name})",
            "resume": f"a dropped connection ({name})",
            "close": f"the table closes mid-game ({name})",
        }[self.key]


@dataclass(frozen=True)
class Setup:
    """What every run shares: the referee's server, the command and the limits."""

    reactor: Any
    factory: RefereeFactory
    command: tuple[str, ...]
    timeout: float
    programs: programs.Programs
    cap: float  # seconds a run may last in all
    logs: str | None = None  # a folder for each run's program output


class CannotStart(Exception):
    """The program could not be started at all (no such file...)."""


@dataclass
class Outcome:
    """What happened in one run."""

    plan: Plan
    wires: list[Wire] = field(default_factory=list)
    failure: str = ""  # the first thing the program did wrong (or failed to do), if any
    finished: bool = False  # the game reached game_over
    seated: bool = False
    decisions: int = 0
    slowest: float = 0.0
    stage: int = 0  # refusals: 1 illegal sent, 2 played on, 3 stale sent, 4 played on
    excused: str = ""
    dropped: bool = False
    back_after: float | None = None  # seconds from the drop to `resumed`
    resume_trouble: list[str] = field(default_factory=list)
    closed: str = ""  # "after game_over" or "mid-game", once the referee closed the table
    exit_status: int | None = None
    exit_after: float | None = None  # seconds from the close to the exit
    reconnects: int = 0  # connections opened after the close
    still_running: bool = False
    crossed: int = 0  # requests of a seat that arrived after the close (excused)
    notes: list[str] = field(default_factory=list)
    last_line: str = ""
    seconds: float = 0.0
