"""``cosmoport tournament`` as a user runs it: a small event, its report, its errors, kill -9."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from cosmoport.cli import main
from games import records
from tournament.store import EventStore

ROOT = Path(__file__).resolve().parents[2]


def tournament(*args: str) -> int:
    return main(["tournament", *args])


def test_a_small_round_robin_plays_and_shows_standings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "e.sqlite"
    code = tournament(
        "cosmic-run", "-e", "random", "-e", "greedy", "-e", "easy:iterations=5",
        "--games", "6", "--workers", "1", "--db", str(db), "--quiet",
    )  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    assert "6 of 6 games played" in out
    for name in ("random", "greedy", "easy:iterations=5"):
        assert name in out
    assert "Head to head" in out and "Elo" in out
    store = EventStore.open(db)
    assert len(store.results()) == 6
    store.close()


def test_report_json_and_export_read_the_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "e.sqlite"
    args = ["cosmic-run", "-e", "random", "-e", "greedy", "--games", "4", "--workers", "1"]
    assert tournament(*args, "--db", str(db), "--quiet") == 0
    capsys.readouterr()
    exported = tmp_path / "games.jsonl"
    assert tournament("--db", str(db), "--report", "--json", "--export", str(exported)) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == report["total"] == 4
    names = {s["name"] for s in report["standings"]}
    assert names == {"random", "greedy"}
    assert sum(s["games"] for s in report["standings"]) == 8
    pair = next(h for h in report["head_to_head"] if h["a"] == "greedy")
    assert pair["games"] == 4 and pair["low"] <= pair["share"] <= pair["high"]
    games = records.loads_jsonl(exported.read_text())
    assert len(games) == 4
    for record in games:
        assert records.final_state(record).is_over  # each one replays to its end
        assert {s["name"] for s in record["seats"]} == {"random", "greedy"}


def test_an_sprt_match_stops_when_decided_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "ab.sqlite"
    code = tournament(
        "cosmic-run", "--match", "greedy", "random", "--sprt", "0.5,0.6", "--workers", "1",
        "--db", str(db),
    )  # fmt: skip
    captured = capsys.readouterr()
    assert code == 0
    assert "H1 accepted: greedy's win share against random is 0.6 or more" in captured.out
    assert "LLR" in captured.err  # the progress shows the test as it goes
    store = EventStore.open(db)
    played, total = len(store.results()), len(store.schedule())
    store.close()
    assert 10 < played < 200 and total == 20_000


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-e", "hardest", "-e", "random"], "unknown entrant 'hardest'"),
        (["-e", "hard:iterations=many", "-e", "random"], "iterations is"),
        (["-e", "cmd:./no-such-bot", "-e", "random"], "no program './no-such-bot'"),
        (["-e", "random"], "needs at least 2 entrants"),
        (["-e", "random", "-e", "greedy", "--sprt", "0.5,0.55"], "--sprt tests a match"),
        (["--match", "random", "greedy", "--sprt", "0.6,0.5"], "--sprt"),
    ],
)
def test_bad_input_is_one_line_and_exit_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    db = tmp_path / "e.sqlite"
    assert tournament("cosmic-run", *args, "--db", str(db), "--workers", "1") == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1, err
    assert not db.exists()


def test_a_database_of_another_event_is_refused_and_left_as_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "e.sqlite"
    base = ["cosmic-run", "-e", "random", "-e", "greedy", "--games", "2", "--workers", "1"]
    assert tournament(*base, "--db", str(db), "--quiet") == 0
    before = EventStore.open(db)
    kept = (before.settings(), before.results())
    before.close()
    capsys.readouterr()
    assert tournament(*base, "--seed", "9", "--db", str(db), "--quiet") == 2
    err = capsys.readouterr().err
    assert "holds another event" in err and "seed 1 there, 9 now" in err
    after = EventStore.open(db)
    assert (after.settings(), after.results()) == kept
    after.close()
    newer = sqlite3.connect(db)
    newer.execute("PRAGMA user_version = 7")
    newer.commit()
    newer.close()
    assert tournament(*base, "--db", str(db), "--quiet") == 2
    assert "newer Cosmoport" in capsys.readouterr().err


def test_report_of_a_missing_database_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert tournament("--db", "/nonexistent/e.sqlite", "--report") == 2
    assert "no such tournament database" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize(
    ("format", "who", "extra"),
    [
        ("round-robin", ["-e", "random", "-e", "greedy"], []),
        ("gauntlet", ["-e", "greedy", "-e", "random", "-e", "random:name=r2"],
         ["--format", "gauntlet", "--seeds", "5-20", "--max-decisions", "150"]),
        ("match", ["--match", "greedy", "random"], ["--tc", "600+1"]),
        ("swiss", ["-e", "random", "-e", "greedy", "-e", "random:name=r2", "-e", "greedy:name=g2"],
         ["--format", "swiss", "--rounds", "10"]),
    ],
)  # fmt: skip
def test_kill_9_then_the_same_command_again_loses_no_game_and_plays_none_twice(
    tmp_path: Path, format: str, who: list[str], extra: list[str]
) -> None:
    db = tmp_path / "e.sqlite"
    args = [
        sys.executable, "-m", "cosmoport", "tournament", "cosmic-run", *who, *extra,
        *([] if format == "swiss" else ["--games", "40"]), "--workers", "1", "--db", str(db),
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    first = subprocess.Popen(
        args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path
    )
    assert first.stderr is not None
    # The progress lines (stderr is not a terminal: a line every 2 games) come after the
    # commits they count: kill it in the middle of the run.
    for line in first.stderr:
        if line.startswith("16/40 games"):
            break
    else:
        pytest.fail("no progress line for 16 games")
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=30)
    store = EventStore.open(db)
    kept = {r["number"] for r in store.results()}
    store.close()
    assert 16 <= len(kept) < 40
    second = subprocess.run(args, capture_output=True, text=True, env=env, timeout=120)
    assert second.returncode == 0, second.stderr
    assert f"{40 - len(kept)} to play" in second.stderr
    store = EventStore.open(db)
    results = store.results()
    settings = store.settings()
    played = [row[0] for row in store.db.execute("SELECT played FROM games ORDER BY played")]
    store.close()
    assert sorted(r["number"] for r in results) == list(range(40))
    assert played == list(range(40))
    # The same games an unbroken run plays.
    clean_db = tmp_path / "clean.sqlite"
    again = subprocess.run(
        [*args[:-1], str(clean_db), "--quiet"], capture_output=True, text=True, env=env, timeout=120
    )
    assert again.returncode == 0, again.stderr
    clean = EventStore.open(clean_db)
    assert clean.settings() == settings  # the same event, played without a break
    expected = {r["number"]: (r["ranking"], r["scores"]) for r in clean.results()}
    clean.close()
    assert {r["number"]: (r["ranking"], r["scores"]) for r in results} == expected
