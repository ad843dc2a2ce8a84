"""What a tournament's game is and what comes of it: the job (:class:`GameJob`) and the result.

A job is plain data, so it travels to a worker process or a Dask worker and back. Playing it
(:mod:`tournament.game`) gives a result dict (:func:`result`), also plain data:

``number``, ``seed``, ``seating`` (entrant index per seat), ``record`` (the game record, see
``docs/records.md``, with the entrants' names as the seats' names), ``scores``, ``ranking``
(seats grouped best first, forfeits already counted), ``forfeit`` (``None`` or ``{"seat",
"reason", "detail"}``), ``timing`` (per seat: ``decisions``, ``total`` and ``max`` seconds),
``network`` (how it was played), ``seconds`` (the game's wall time), and, when they apply,
``adjudicated`` (``None`` or ``{"decisions", "scores"}``: the game ran into the event's
``--max-decisions`` and was scored as it stood), ``banks`` (each seat's clock when the game
ended, None for an untimed seat) and ``stand_ins`` (per seat, the moves the stand-in made for
a seat out of time).

A forfeit ends the game at once: the seat that forfeits ranks last, the others are ranked by
their score at that moment, equal scores sharing a place. An adjudicated game ranks every seat
by its score, equal scores sharing a place.

Both ways of playing a game build on this module and on nothing of each other: in this process
(:mod:`tournament.game`) and over the protocol (:mod:`tournament.host`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import games
from games import records
from tournament.clock import TimeControl
from tournament.entrants import Entrant

RECORD_SERVER = "cosmoport-tournament"

REASONS = ("crash", "timeout", "illegal", "no_show", "time")
"""Why a seat forfeits: its program ended before the game did, it took longer than the time
allowed over one decision, it sent an illegal action, it never took its seat, or it ran out of
time on the game clock (``--tc``)."""


@dataclass(frozen=True)
class GameJob:
    """One game to play: the game, its seed, and who sits where."""

    number: int
    """The game's place in the event's schedule, from 0."""
    game: str
    players: int
    seed: int
    seating: tuple[int, ...]
    """The entrant (an index into the event's entrants) in each seat."""
    entrants: tuple[Entrant, ...]
    """The entrant in each seat (``entrants[seat]``)."""
    options: dict[str, Any] = field(default_factory=dict)
    network: bool = False
    """Play every seat over the protocol, built-in bots included."""
    timeout: float = 60.0
    """Seconds a program may take over one decision (and to take its seat) before it forfeits."""
    log_dir: str | None = None
    """Where a program's stderr goes, one file per game and seat (None: nowhere)."""
    event: str = ""
    clocks: tuple[TimeControl | None, ...] = ()
    """Each seat's time control for the whole game (empty: nobody is timed)."""
    on_time: str = "forfeit"
    """A seat out of time loses (``forfeit``) or the stand-in moves for it (``stand-in``)."""
    max_decisions: int | None = None
    """Decisions after which an unfinished game is ended and scored as it stands."""

    def control(self, seat: int) -> TimeControl | None:
        return self.clocks[seat] if self.clocks else None

    @property
    def over_network(self) -> bool:
        return self.network or any(e.is_program for e in self.entrants)


class Timing:
    """How long each seat thought: decisions, total and slowest, in seconds."""

    def __init__(self, players: int) -> None:
        self.seats = [{"decisions": 0, "total": 0.0, "max": 0.0} for _ in range(players)]

    def add(self, seat: int, seconds: float) -> None:
        entry = self.seats[seat]
        entry["decisions"] += 1
        entry["total"] += seconds
        entry["max"] = max(entry["max"], seconds)


def ranking_after_forfeit(scores: Sequence[int], seat: int | None) -> list[list[int]]:
    """Seats best first when ``seat`` forfeits: the rest by score (equal scores share a place),
    then ``seat``. With ``seat`` None (an adjudicated game): every seat by score."""
    others = sorted((s for s in range(len(scores)) if s != seat), key=lambda s: -scores[s])
    groups: list[list[int]] = []
    for s in others:
        if groups and scores[groups[-1][0]] == scores[s]:
            groups[-1].append(s)
        else:
            groups.append([s])
    return groups if seat is None else [*groups, [seat]]


def new_record(job: GameJob, at: str) -> records.Record:
    seats = [{"name": e.name, "bot": None if e.is_own else e.kind} for e in job.entrants]
    return records.new_record(
        job.game, job.players, job.seed, job.options, seats,
        created=at, started=at, server=RECORD_SERVER,
    )  # fmt: skip


def result(
    job: GameJob,
    record: records.Record,
    state: games.State,
    timing: Timing,
    forfeit: dict[str, Any] | None,
    seconds: float,
    *,
    adjudicated: bool = False,
    banks: list[float | None] | None = None,
    stand_ins: list[int] | None = None,
) -> dict[str, Any]:
    """The result dict of a game that ended (by its rules, by ``forfeit``, or ``adjudicated``
    at the event's length cap)."""
    extra: dict[str, Any] = {}
    if forfeit is not None:
        ranking = ranking_after_forfeit(state.scores(), forfeit["seat"])
        record["forfeit"] = forfeit
    elif adjudicated:
        ranking = ranking_after_forfeit(state.scores(), None)
        decisions = len(record["actions"])
        extra["adjudicated"] = {"decisions": decisions, "scores": list(state.scores())}
        record["adjudicated"] = {**extra["adjudicated"], "ranking": ranking}
    else:
        ranking = [list(group) for group in state.ranking()]
    if job.clocks:
        extra["banks"] = banks
        extra["stand_ins"] = stand_ins or [0] * job.players
        record["clock"] = {
            "controls": [None if c is None else c.text() for c in job.clocks],
            "on_time": job.on_time,
            "banks": banks,
            "stand_ins": extra["stand_ins"],
        }
    return {
        "number": job.number,
        "seed": job.seed,
        "seating": list(job.seating),
        "record": record,
        "scores": list(state.scores()),
        "ranking": ranking,
        "forfeit": forfeit,
        "timing": timing.seats,
        "network": job.over_network,
        "seconds": seconds,
        **extra,
    }
