"""The tournament director: plays what an event's schedule still lacks and keeps every result.

:class:`Event` is what the user asked for (game, entrants, format, seed, time control...); the
director writes it and its schedule into the event's database (or checks that the database holds
this very event), then hands the unplayed games to a runner and commits each result as it comes
in. Run it again after any stop and it goes on where it stopped. With an SPRT it stops handing
out games once the test has decided.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tournament.entrants import Entrant
from tournament.job import GameJob
from tournament.runners import Runner, RunnerGone
from tournament.schedule import Slot, build
from tournament.sprt import SPRT
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

    def settings(self) -> dict[str, Any]:
        """What makes the event this event (its database must hold the same). ``games`` is not
        part of it: an event may be run again with more games."""
        sprt = self.sprt
        return {
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
        return build(self.format, len(self.entrants), self.players, self.seed, self.games)

    def job(self, slot: Slot, log_dir: str | None) -> GameJob:
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
        )


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
        slots = event.schedule()
        store.begin_event(event.settings(), event.entrants, slots)
        self.slots = store.schedule()
        self.results = store.results()
        self.scores = [self._score(r) for r in self.results]
        self.played = 0

    @property
    def total(self) -> int:
        return len(self.slots)

    def _score(self, result: dict[str, Any]) -> float:
        return first_score(result["seating"], result["ranking"], 0)

    def decision(self) -> str | None:
        sprt = self.event.sprt
        return None if sprt is None else sprt.decision(self.scores)

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
                self.store.add_game(result)
                result = {k: v for k, v in result.items() if k != "record"}
                self.results.append(result)
                self.scores.append(self._score(result))
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
