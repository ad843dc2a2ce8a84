"""What an organiser who does not watch needs: progress lines in a log (every 1/20, every game
of an SPRT, at least every 30 s on a fake clock), standings every N games, an SPRT that stops
at its crossing, seed books, and games cut at --max-decisions and adjudicated."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from cosmoport.cli import main
from games import records
from tests.tournament.test_host import job, moves
from tournament.director import Director, Event
from tournament.entrants import parse_all
from tournament.game import play, play_in_process
from tournament.report import Progress, build, text
from tournament.runners import InlineRunner
from tournament.schedule import ScheduleError, parse_seeds
from tournament.schedule import build as build_schedule
from tournament.sprt import SPRT, RotationSamples
from tournament.store import EventStore


def tournament(*args: str) -> int:
    return main(["tournament", *args])


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def small_event(tmp_path: Path, **changes: Any) -> tuple[Director, EventStore]:
    settings: dict[str, Any] = {
        "name": "e", "game": "cosmic_run", "players": 2,
        "entrants": parse_all(["random", "greedy"]), "games": 40,
    }  # fmt: skip
    settings.update(changes)
    store = EventStore.open(tmp_path / "e.sqlite")
    return Director(Event(**settings), store), store


# --- progress where nobody watches -----------------------------------------------------------


def test_in_a_log_a_line_comes_at_least_every_30_seconds(tmp_path: Path) -> None:
    director, store = small_event(tmp_path)
    out, fake = io.StringIO(), FakeClock()
    progress = Progress(out, clock=fake)
    progress.update(director, None)
    assert out.getvalue().count("\n") == 1  # the start
    fake.now = 29.0
    progress.tick(director)
    assert out.getvalue().count("\n") == 1
    fake.now = 30.5
    progress.tick(director)
    assert out.getvalue().count("\n") == 2 and out.getvalue().endswith("0/40 games\n")
    fake.now = 31.0  # a game done, not a 20th of the event, and not 30 s since the last line
    game = {"seating": [0, 1], "ranking": [[0], [1]]}
    director.results.append(game)
    progress.update(director, game)
    assert out.getvalue().count("\n") == 2
    store.close()


def test_report_every_prints_the_standings_with_intervals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "e.sqlite"
    code = tournament(
        "cosmic-run", "-e", "random", "-e", "greedy", "--games", "4", "--workers", "1",
        "--db", str(db), "--quiet", "--report-every", "2",
    )  # fmt: skip
    err = capsys.readouterr().err
    assert code == 0
    assert "standings after 2 of 4 games:" in err and "standings after 4 of 4 games:" in err
    assert err.count("win share [95%]") == 2
    assert "/4 games" not in err  # --quiet: no progress line, only the standings asked for


def test_an_sprt_prints_its_llr_after_every_game_in_a_log(tmp_path: Path) -> None:
    event = {"entrants": parse_all(["greedy", "random"]), "format": "match", "games": 30}
    director, store = small_event(tmp_path, sprt=SPRT(0.5, 0.95), **event)
    out = io.StringIO()
    director.on_result = Progress(out).update
    director.run(InlineRunner())
    lines = out.getvalue().splitlines()
    assert len(lines) == len(store.results()) + 1 and all("LLR" in line for line in lines)
    store.close()


class Batches(InlineRunner):
    """Four games in flight, played when their results are asked for: what a decision finds
    still running."""

    capacity = 4


def test_the_sprt_stops_at_its_crossing_and_later_games_are_after_the_decision(
    tmp_path: Path,
) -> None:
    sprt = SPRT(0.5, 0.6)
    event = {"entrants": parse_all(["greedy", "random"]), "format": "match", "games": 400}
    director, store = small_event(tmp_path, sprt=sprt, sprt_unit="game", **event)
    outcome = director.run(Batches())
    assert outcome.decision == "H1"
    results = store.results()
    counted = [r for r in results if not r.get("after_decision")]
    after = [r for r in results if r.get("after_decision")]
    assert results[: len(counted)] == counted  # the decision came, then only the late ones
    assert 1 <= len(after) <= 3
    scores = [r["ranking"][0] == [r["seating"].index(0)] for r in counted]
    assert sprt.decide(sprt.llr([float(s) for s in scores])) == "H1"  # crossed at the last
    assert sprt.decide(sprt.llr([float(s) for s in scores[:-1]])) is None
    report = build(store)
    assert report["sprt"]["games"] == len(counted)
    assert report["sprt"]["after_decision"] == len(after)
    assert any("finished after the decision" in line for line in text(report))
    store.close()
    # Resumed, the decision stands and nothing more is played.
    again, store = small_event(tmp_path, sprt=sprt, sprt_unit="game", **event)
    assert again.decision() == "H1" and again.run(InlineRunner()).played == 0
    store.close()


def test_by_default_the_sprt_counts_complete_rotation_groups(tmp_path: Path) -> None:
    sprt = SPRT(0.5, 0.6)
    event = {"entrants": parse_all(["greedy", "random"]), "format": "match", "games": 400}
    director, store = small_event(tmp_path, sprt=sprt, **event)
    assert director.run(Batches()).decision == "H1"
    counted = [r for r in store.results() if not r.get("after_decision")]
    groups = RotationSamples(2)
    for r in counted:
        groups.add(r["seed"], r["seating"], 1.0 if r["ranking"][0] == [r["seating"].index(0)]
                   else 0.5 if len(r["ranking"][0]) == 2 else 0.0)  # fmt: skip
    assert sprt.decide(sprt.llr(groups.means)) == "H1"
    assert sprt.decide(sprt.llr(groups.means[:-1])) is None  # it decided at a group's end
    report = build(store)["sprt"]
    assert report["unit"] == "rotation" and report["samples"] == len(groups.means)
    assert store.settings()["sprt_unit"] == "rotation"  # type: ignore[index]
    store.close()


# --- seed books ---------------------------------------------------------------------------------


def test_a_seed_book_is_lines_and_ranges() -> None:
    assert parse_seeds("5\n# a comment\n\n7-9\n 3 # three\n1..2") == [5, 7, 8, 9, 3, 1, 2]
    for bad in ("x", "9-7", "-3", str(2**63), ""):
        with pytest.raises(ScheduleError):
            parse_seeds(bad)


def test_two_events_with_the_same_book_play_the_same_deals() -> None:
    book = [11, 22, 33]
    three = build_schedule("round-robin", 3, 2, 1, 18, book)
    two = build_schedule("match", 2, 2, 99, 6, book)
    assert [s.seed for s in three] == [11] * 6 + [22] * 6 + [33] * 6
    assert [s.seed for s in two] == [11, 11, 22, 22, 33, 33]
    with pytest.raises(ScheduleError, match="seed book holds 3 seeds"):
        build_schedule("match", 2, 2, 1, 8, book)


def test_seeds_from_a_file_set_the_games_and_each_record_says_its_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "seeds.txt"
    book.write_text("1000-1002\n")
    db = tmp_path / "e.sqlite"
    args = ["cosmic-run", "-e", "random", "-e", "greedy", "--workers", "1", "--quiet"]
    assert tournament(*args, "--seeds", str(book), "--db", str(db)) == 0
    assert "seed book of 3 seeds" in capsys.readouterr().out
    store = EventStore.open(db)
    seeds = sorted((r["number"], r["seed"], r["record"]["seed"]) for r in _with_records(store))
    store.close()
    assert seeds == [(0, 1000, 1000), (1, 1000, 1000), (2, 1001, 1001), (3, 1001, 1001),
                     (4, 1002, 1002), (5, 1002, 1002)]  # fmt: skip
    assert tournament(*args, "--seeds", "1-2", "--db", str(tmp_path / "f.sqlite")) == 0
    assert tournament(*args, "--seeds", str(book), "--games", "8", "--db", str(db)) == 2
    assert "--seeds" in capsys.readouterr().err


def _with_records(store: EventStore) -> list[dict[str, Any]]:
    import json

    rows = store.db.execute("SELECT result, record FROM games")
    return [{**json.loads(r), "record": json.loads(rec)} for r, rec in rows]


# --- length caps ----------------------------------------------------------------------------------


def test_a_game_past_max_decisions_is_adjudicated_as_it_stands() -> None:
    capped = job(["random", "greedy"], max_decisions=30)
    result = play_in_process(capped)
    assert len(result["record"]["actions"]) == 30
    assert result["adjudicated"]["decisions"] == 30
    state = records.final_state(result["record"])
    assert not state.is_over and result["scores"] == list(state.scores())
    best = max(result["scores"])
    assert [result["scores"][s] for s in result["ranking"][0]] == [best] * len(result["ranking"][0])
    assert result["record"]["result"] is None and result["record"]["adjudicated"]["decisions"] == 30
    whole = play_in_process(job(["random", "greedy"], max_decisions=10_000))
    assert "adjudicated" not in whole and whole["record"]["result"] is not None


@pytest.mark.slow
def test_over_the_network_the_cap_cuts_the_same_game() -> None:
    capped = job(["random", "greedy"], max_decisions=25)
    there = play(replace(capped, network=True))
    here = play_in_process(capped)
    assert moves(there) == moves(here) and there["adjudicated"] == here["adjudicated"]


def test_the_report_counts_adjudicated_games(tmp_path: Path) -> None:
    director, store = small_event(tmp_path, games=4, max_decisions=20)
    director.run(InlineRunner())
    report = build(store)
    assert report["adjudicated"] == 4
    assert all(s["adjudicated"] == 4 for s in report["standings"])
    assert "4 games adjudicated: still running after 20 decisions" in "\n".join(text(report))
    store.close()


# --- copies of one entrant at a table ---------------------------------------------------------


def test_copies_of_one_entrant_at_a_table_are_warned_about_or_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["cosmic-run", "--players", "3", "-e", "random", "-e", "greedy", "--workers", "1"]
    assert tournament(*args, "--games", "6", "--quiet", "--db", str(tmp_path / "a.sqlite")) == 0
    assert "warning: greedy, random fill several seats" in capsys.readouterr().err
    db = tmp_path / "b.sqlite"
    assert tournament(*args, "--no-duplicates", "--db", str(db)) == 2
    err = capsys.readouterr().err.strip()
    assert (
        err.startswith("cosmoport tournament: --no-duplicates: greedy, random") and "\n" not in err
    )
    assert not db.exists()


def test_a_database_of_another_event_is_refused_in_one_short_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "e.sqlite")
    base = ["cosmic-run", "--games", "2", "--workers", "1", "--quiet", "--db", db]
    assert tournament(*base, "-e", "random", "-e", "greedy:name=g") == 0
    capsys.readouterr()
    assert tournament(*base, "-e", "random", "-e", "hard:name=g,iterations=9", "--tc", "9") == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and len(err) < 400, err
    assert "entrant g: " in err and 'tc none there, "9+0" now' in err


def test_win_share_intervals_count_rotation_groups_once_there_are_enough(tmp_path: Path) -> None:
    director, store = small_event(tmp_path, games=40)
    director.run(InlineRunner())
    report = build(store)
    for s in report["standings"]:
        assert s["rotation_groups"] == 20
        assert s["group_low"] is not None and s["group_low"] <= s["win_share"] <= s["group_high"]
    lines = "\n".join(text(report))
    best = report["standings"][0]
    assert f"[{best['group_low']:.3f}, {best['group_high']:.3f}]" in lines
    for pair in report["head_to_head"]:  # two entrants: every group holds both
        assert pair["rotation_groups"] == 20
        assert pair["group_low"] is not None and pair["group_low"] <= pair["share"]
        assert pair["share"] <= pair["group_high"]
    store.close()
