"""Swiss (``--format swiss --rounds R``): tables of entrants of similar standing, every seat
rotation, no two entrants meeting twice while it can be avoided, and rounds paired one after
another from the results, also after a stop."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

import pytest

from cosmoport.cli import main
from tournament.director import Director, Event
from tournament.entrants import parse_all
from tournament.runners import InlineRunner
from tournament.schedule import Slot, rotations, swiss_standing, swiss_tables
from tournament.store import EventStore

NINE = ["random", "greedy", "easy:iterations=3"] + [f"random:name=r{i}" for i in range(6)]


def swiss(tmp_path: Path, rounds: int) -> tuple[Director, EventStore]:
    event = Event("s", "cosmic_run", 3, parse_all(NINE), format="swiss", rounds=rounds, seed=4)
    store = EventStore.open(tmp_path / "s.sqlite")
    return Director(event, store), store


def by_round(slots: list[Slot]) -> dict[int, list[Slot]]:
    rounds: dict[int, list[Slot]] = {}
    for slot in slots:
        rounds.setdefault(slot.round, []).append(slot)
    return rounds


class StopsAfter(InlineRunner):
    """Plays ``count`` games, then the run is interrupted (as Ctrl-C would)."""

    def __init__(self, count: int) -> None:
        super().__init__()
        self.count = count

    def next_result(self):  # type: ignore[no-untyped-def]
        if self.count == 0:
            raise KeyboardInterrupt
        self.count -= 1
        return super().next_result()


def test_nine_entrants_at_three_player_tables_never_meet_twice(tmp_path: Path) -> None:
    director, store = swiss(tmp_path, rounds=4)
    outcome = director.run(InlineRunner())
    assert outcome.done == outcome.total == 4 * 9
    rounds = by_round(store.schedule())
    assert sorted(rounds) == [0, 1, 2, 3]
    pairs: Counter[tuple[int, int]] = Counter()
    for slots in rounds.values():
        tables = {tuple(sorted(s.seating)) for s in slots}
        assert len(tables) == 3 and sorted(e for t in tables for e in t) == list(range(9))
        for table in tables:  # every rotation of each table, on one seed
            games = [s for s in slots if tuple(sorted(s.seating)) == table]
            assert sorted(s.seating for s in games) == sorted(rotations(games[0].seating))
            assert len({s.seed for s in games}) == 1
            pairs.update(itertools.combinations(table, 2))
    # 9 entrants, 3 tables of 3, 4 rounds: 36 pairs, each once (an affine plane) while it can.
    assert max(pairs.values()) == 1 and len(pairs) == 36
    store.close()


def test_a_round_seats_entrants_of_similar_standing_together() -> None:
    points = {e: float(9 - e) for e in range(9)}  # entrant 0 leads, 8 is last
    assert swiss_tables(9, 3, 1, points, {}) == [(0, 1, 2), (3, 4, 5), (6, 7, 8)]
    met = {(0, 1): 1, (0, 2): 1, (1, 2): 1}  # the top three have met: the next closest
    tables = swiss_tables(9, 3, 1, points, met)
    assert tables[0] == (0, 3, 4)  # the closest in standing that have not met
    assert all(
        met.get(pair, 0) == 0 for table in tables for pair in itertools.combinations(table, 2)
    )
    assert len(swiss_tables(10, 3, 1, points, {})) == 3  # one sits out


def test_swiss_points_count_the_opponents_beaten() -> None:
    points, met = swiss_standing([([0, 1, 2], [[2], [0, 1]])])
    assert points == {2: 1.0, 0: 0.25, 1: 0.25} and met[(0, 1)] == 1


def test_a_stopped_swiss_goes_on_from_the_database_and_pairs_the_same_rounds(
    tmp_path: Path,
) -> None:
    director, store = swiss(tmp_path, rounds=3)
    stopped = director.run(StopsAfter(13))  # in the middle of round 2
    assert stopped.stopped == "interrupted" and stopped.done == 13
    store.close()
    director, store = swiss(tmp_path, rounds=3)
    assert director.run(InlineRunner()).done == 27
    resumed = store.schedule()
    numbers = sorted(r["number"] for r in store.results())
    store.close()
    assert numbers == list(range(27))
    clean_dir = tmp_path / "clean"
    clean_dir.mkdir()
    director, clean = swiss(clean_dir, rounds=3)
    director.run(InlineRunner())
    assert clean.schedule() == resumed  # the same pairings, round by round
    clean.close()


def test_the_command_runs_a_swiss_and_refuses_one_without_rounds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["cosmic-run", "--players", "3", "--workers", "1", "--quiet"]
    for spec in NINE[:6]:
        args += ["-e", spec]
    db = tmp_path / "s.sqlite"
    assert main(["tournament", *args, "--format", "swiss", "--rounds", "2", "--db", str(db)]) == 0
    assert "12 of 12 games played" in capsys.readouterr().out
    assert main(["tournament", *args, "--format", "swiss", "--db", str(tmp_path / "x")]) == 2
    assert "--format swiss takes --rounds" in capsys.readouterr().err
