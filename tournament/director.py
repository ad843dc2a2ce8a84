"""The tournament director: plays what an event's schedule still lacks and keeps every result.

:class:`Event` is what the user asked for (game, entrants, format, seed, time control...); the
director writes it and its schedule into the event's database (or checks that the database holds
this very event), then hands the unplayed games to a runner and commits each result as it comes
in. Run it again after any stop and it goes on where it stopped. With an SPRT it stops handing
out games once the test has decided.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tournament.clock import TimeControl, parse_tc
from tournament.entrants import Entrant
from tournament.job import GameJob
from tournament.runners import Runner, RunnerGone
from tournament.schedule import Slot, build, per_round, swiss_round
from tournament.sprt import SPRT, RotationSamples
from tournament.store import EventStore


@dataclass
class Event:
    """An event as the user set it up."""

    name: str
    game: str
    players: int
    entrants: list[Entrant]
    format: str = "round-robin"
    games: int = 100
    seed: int = 1
    options: dict[str, Any] = field(default_factory=dict)
    network: bool = False
    timeout: float = 60.0
    sprt: SPRT | None = None
    tc: TimeControl | None = None
    """The time control of every entrant that has none of its own (None: untimed)."""
    on_time: str = "forfeit"
    """A seat out of time loses (``forfeit``) or the stand-in moves for it (``stand-in``)."""
    max_decisions: int | None = None
    """Decisions after which an unfinished game is adjudicated (None: no cap)."""
    rounds: int | None = None
    """Rounds of a Swiss (``format="swiss"``)."""
    sprt_unit: str = "rotation"
    """The SPRT's sample: a complete rotation group (``rotation``) or one game (``game``)."""
    shared_seats: list[str] = field(default_factory=list, compare=False)
    """Entrants that fill several seats of some table (a warning for the organiser)."""
    seeds: tuple[int, ...] | None = None
    """The seed book: round ``r`` deals ``seeds[r]`` at every table (None: from ``seed``)."""

    def settings(self) -> dict[str, Any]:
        """What makes the event this event (its database must hold the same). ``games`` is not
        part of it: an event may be run again with more games. Settings added since the first
        version are written only when they are not their default, so that a database of an
        event from before them holds the same settings."""
        sprt = self.sprt
        extra: dict[str, Any] = {}
        if self.tc is not None:
            extra["tc"] = self.tc.text()
        if self.on_time != "forfeit":
            extra["on_time"] = self.on_time
        if self.max_decisions is not None:
            extra["max_decisions"] = self.max_decisions
        if self.seeds is not None:
            extra["seeds"] = seed_book_text(self.seeds)
        if self.rounds is not None:
            extra["rounds"] = self.rounds
        if self.sprt is not None and self.sprt_unit != "game":
            extra["sprt_unit"] = self.sprt_unit
        return {
            **extra,
            "event": self.name,
            "game": self.game,
            "players": self.players,
            "format": self.format,
            "seed": self.seed,
            "options": self.options,
            "network": self.network,
            "timeout": self.timeout,
            "sprt": None if sprt is None else [sprt.p0, sprt.p1, sprt.alpha, sprt.beta],
            "entrants": [e.to_dict() for e in self.entrants],
        }

    def schedule(self) -> list[Slot]:
        return build(
            self.format, len(self.entrants), self.players, self.seed, self.games, self.seeds
        )

    def control(self, entrant: Entrant) -> TimeControl | None:
        """``entrant``'s time control: its own, else the event's."""
        return parse_tc(entrant.tc) if entrant.tc else self.tc

    def job(self, slot: Slot, log_dir: str | None) -> GameJob:
        seated = [self.entrants[i] for i in slot.seating]
        controls = tuple(self.control(e) for e in seated)
        clocks = controls if any(c is not None for c in controls) else ()
        return GameJob(
            number=slot.number,
            game=self.game,
            players=self.players,
            seed=slot.seed,
            seating=slot.seating,
            entrants=tuple(self.entrants[i] for i in slot.seating),
            options=self.options,
            network=self.network,
            timeout=self.timeout,
            log_dir=log_dir,
            event=self.name,
            clocks=clocks,
            on_time=self.on_time,
            max_decisions=self.max_decisions,
        )


def seed_book_text(seeds: Sequence[int]) -> str:
    """How a seed book is kept in the event's settings: its size and a digest (the schedule
    holds every seed)."""
    digest = hashlib.sha256(",".join(map(str, seeds)).encode()).hexdigest()[:16]
    return f"{len(seeds)} seeds, sha256 {digest}"


def event_name(game: str, format: str, entrants: Sequence[Entrant]) -> str:
    """A file-friendly name from the game, the format and the entrants' names."""
    names = "-vs-".join(re.sub(r"[^A-Za-z0-9.=]+", "_", e.name).strip("_") for e in entrants)
    name = f"{game.replace('_', '-')}-{format}-{names}"
    return name if len(name) <= 80 else name[:80].rstrip("-_")


def first_score(seating: Sequence[int], ranking: Sequence[Sequence[int]], entrant: int) -> float:
    """``entrant``'s share of the win: 1, 1/k for a first place shared by k seats, else 0."""
    first = ranking[0]
    mine = sum(1 for seat in first if seating[seat] == entrant)
    return mine / len(first)


@dataclass
class Outcome:
    """How a run ended."""

    played: int
    """Games played in this run."""
    done: int
    """Games in the database, this run's included."""
    total: int
    failed: list[tuple[int, str]]
    """Games that could not be played (number, why); the next run tries them again."""
    stopped: str | None = None
    """Why the run stopped early (interrupted, the runner went away), or None."""
    decision: str | None = None
    """The SPRT's decision ("H0", "H1"), or None."""


Report = Callable[["Director", dict[str, Any] | None], None]


class Director:
    """Runs one event against one database (see the module docstring)."""

    def __init__(
        self,
        event: Event,
        store: EventStore,
        *,
        log_dir: str | None = None,
        on_result: Report | None = None,
    ) -> None:
        self.event = event
        self.store = store
        self.log_dir = log_dir
        self.on_result = on_result
        stored = store.settings()
        if stored is not None and stored.get("sprt") and "sprt_unit" not in stored:
            event.sprt_unit = "game"  # an SPRT begun before rotation groups: as it began
        slots = event.schedule()
        store.begin_event(event.settings(), event.entrants, slots)
        self.slots = store.schedule()
        self.results = store.results()
        # The SPRT's samples: the games committed up to its decision. Games still running when
        # it decided are kept (marked ``after_decision``) but the test is over.
        self.scores = [self._score(r) for r in self.results if not r.get("after_decision")]
        self.groups = RotationSamples(event.players)
        for old in self.results:
            if not old.get("after_decision"):
                self.groups.add(old["seed"], old["seating"], self._score(old))
        self.played = 0

    @property
    def total(self) -> int:
        event = self.event
        if event.format == "swiss" and event.rounds is not None:
            return event.rounds * per_round("swiss", len(event.entrants), event.players)
        return len(self.slots)

    def _pair_next_round(self) -> bool:
        """Swiss: once every game so far is played, pair the next round from the standings
        (and keep it in the database). False when there is none to pair."""
        event = self.event
        if event.format != "swiss" or event.rounds is None or self.remaining():
            return False
        round = max((slot.round for slot in self.slots), default=-1) + 1
        if round >= event.rounds:
            return False
        order = {r["number"]: r for r in self.results}
        played = [(order[s.number]["seating"], order[s.number]["ranking"]) for s in self.slots]
        slots = swiss_round(
            len(event.entrants), event.players, event.seed, round, len(self.slots), played,
            event.seeds,
        )  # fmt: skip
        self.store.add_schedule(slots)
        self.slots = [*self.slots, *slots]
        return True

    def _score(self, result: dict[str, Any]) -> float:
        return first_score(result["seating"], result["ranking"], 0)

    def decision(self) -> str | None:
        sprt = self.event.sprt
        if sprt is None:
            return None
        return sprt.decision(self.samples())

    def samples(self) -> list[float]:
        """The SPRT's samples so far: A's score per game, or its mean per complete rotation
        group (see :func:`tournament.sprt.rotation_means`)."""
        if self.event.sprt_unit == "game":
            return self.scores
        return self.groups.means

    def remaining(self) -> list[Slot]:
        done = {r["number"] for r in self.results}
        return [slot for slot in self.slots if slot.number not in done]

    def run(self, runner: Runner) -> Outcome:
        """Play every game still to play (until the SPRT decides); commit each as it ends."""
        todo = iter(self.remaining())
        failed: list[tuple[int, str]] = []
        in_flight = 0
        stopped = None
        if self.on_result is not None:
            self.on_result(self, None)
        try:
            while True:
                while in_flight < runner.capacity and self.decision() is None:
                    slot = next(todo, None)
                    if slot is None:
                        if in_flight == 0 and not failed and self._pair_next_round():
                            todo = iter(self.remaining())
                            continue
                        break
                    runner.submit(self.event.job(slot, self.log_dir))
                    in_flight += 1
                if in_flight == 0:
                    break
                job, result = runner.next_result()
                in_flight -= 1
                if isinstance(result, BaseException):
                    failed.append((job.number, _one_line(result)))
                    continue
                decided = self.decision() is not None
                if decided:
                    result["after_decision"] = True
                self.store.add_game(result)
                result = {k: v for k, v in result.items() if k != "record"}
                self.results.append(result)
                if not decided:
                    self.scores.append(self._score(result))
                    self.groups.add(result["seed"], result["seating"], self._score(result))
                self.played += 1
                if self.on_result is not None:
                    self.on_result(self, result)
        except KeyboardInterrupt:
            stopped = "interrupted"
        except RunnerGone as error:
            stopped = str(error)
        finally:
            runner.stop()
        return Outcome(
            played=self.played,
            done=len(self.results),
            total=self.total,
            failed=failed,
            stopped=stopped,
            decision=self.decision(),
        )


def _one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


def log_dir_for(db_path: str) -> str:
    """Where programs' stderr logs go: ``<db file without suffix>-logs`` beside the database."""
    path = Path(db_path)
    return str(path.with_name(path.stem + "-logs"))
