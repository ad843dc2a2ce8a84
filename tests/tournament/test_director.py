"""The director: plays what the schedule lacks, commits each game, resumes, stops on an SPRT."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tournament.director import Director, Event, first_score
from tournament.entrants import parse_all
from tournament.game import GameJob
from tournament.runners import InlineRunner, RunnerGone
from tournament.sprt import SPRT
from tournament.store import EventStore


def event(**changes: Any) -> Event:
    settings: dict[str, Any] = {
        "name": "cr-director",
        "game": "cosmic_run",
        "players": 2,
        "entrants": parse_all(["random", "greedy", "random:name=R2"]),
        "games": 12,
        "seed": 3,
    }
    settings.update(changes)
    return Event(**settings)


class GoesAway(InlineRunner):
    """Plays in this process, then stops answering (like a cluster that went away)."""

    def __init__(self, after: int) -> None:
        super().__init__()
        self.after = after

    def next_result(self) -> Any:
        if self.after == 0:
            raise RunnerGone("the cluster went away")
        self.after -= 1
        return super().next_result()


class Fails(InlineRunner):
    """Plays in this process, but one game fails (a failure of ours, not a bot's)."""

    def __init__(self, number: int) -> None:
        super().__init__()
        self.number = number

    def next_result(self) -> Any:
        job = self._queue[0]
        if job.number == self.number:
            self._queue.pop(0)
            return job, RuntimeError("the engine broke\nwith a long story")
        return super().next_result()


def games_of(store: EventStore) -> dict[int, Any]:
    return {r["number"]: (r["seating"], r["ranking"], r["scores"]) for r in store.results()}


def test_a_run_plays_the_whole_schedule_once(tmp_path: Path) -> None:
    store = EventStore.open(tmp_path / "e.sqlite")
    director = Director(event(), store)
    outcome = director.run(InlineRunner())
    assert outcome.played == outcome.done == outcome.total == len(event().schedule())
    assert sorted(r["number"] for r in store.results()) == list(range(outcome.total))
    again = Director(event(), store).run(InlineRunner())
    assert again.played == 0 and again.done == outcome.total


def test_a_stopped_run_resumes_and_gives_the_games_an_unbroken_run_gives(tmp_path: Path) -> None:
    whole = EventStore.open(tmp_path / "whole.sqlite")
    Director(event(), whole).run(InlineRunner())
    broken = EventStore.open(tmp_path / "broken.sqlite")
    first = Director(event(), broken).run(GoesAway(after=5))
    assert first.stopped == "the cluster went away" and first.done == 5
    second = Director(event(), broken).run(InlineRunner())
    assert second.played == second.total - 5 and second.stopped is None
    assert games_of(broken) == games_of(whole)


def test_a_game_that_fails_is_reported_and_left_for_the_next_run(tmp_path: Path) -> None:
    store = EventStore.open(tmp_path / "e.sqlite")
    outcome = Director(event(), store).run(Fails(number=4))
    assert outcome.failed == [(4, "RuntimeError: the engine broke")]
    assert 4 not in store.played_numbers() and outcome.done == outcome.total - 1
    retry = Director(event(), store).run(InlineRunner())
    assert retry.played == 1 and 4 in store.played_numbers()


class Scripted(InlineRunner):
    """No games at all: entrant 0 wins every game it plays (a synthetic result stream)."""

    def next_result(self) -> Any:
        job: GameJob = self._queue.pop(0)
        seat = job.seating.index(0)
        others = [s for s in range(job.players) if s != seat]
        return job, {
            "number": job.number,
            "seed": job.seed,
            "seating": list(job.seating),
            "ranking": [[seat], others],
            "scores": [0] * job.players,
            "timing": [{"decisions": 1, "total": 0.0, "max": 0.0}] * job.players,
            "forfeit": None,
            "record": {},
        }


def test_an_sprt_match_stops_once_decided(tmp_path: Path) -> None:
    store = EventStore.open(tmp_path / "e.sqlite")
    match = event(
        format="match",
        entrants=parse_all(["greedy", "random"]),
        games=1000,
        sprt=SPRT(0.5, 0.55),
    )
    director = Director(match, store)
    outcome = director.run(Scripted())
    assert outcome.decision == "H1"
    assert outcome.played < 100 < outcome.total
    # Played to the first game where the test decided, and not one further.
    assert match.sprt is not None
    assert match.sprt.decision(director.samples()[:-1]) is None
    assert len(director.samples()) * 2 == len(director.scores)  # by rotation groups: pairs


def test_first_score_shares_a_first_place() -> None:
    assert first_score([0, 1], [[0], [1]], 0) == 1.0
    assert first_score([0, 1], [[0, 1]], 1) == 0.5
    assert first_score([1, 0, 2], [[2], [0, 1]], 1) == 0.0
    assert first_score([0, 1, 1], [[1, 2], [0]], 1) == 1.0  # both of its seats share the win
