"""The bench scripts still run: each once, with tiny settings, checked for the figures it prints.

The figures themselves are not asserted (speed is measured, not tested); what is tested is that a
bench does not rot silently when the code it measures changes (a new server limit once broke
``bench/server.py`` without any test noticing).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"

pytestmark = pytest.mark.slow


def run(script: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(BENCH / script), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("game", ["cosmic_run", "alien_artifacts"])
def test_engine_bench_prints_games_actions_and_clone_ratio(game: str) -> None:
    out = run("engine.py", "--game", game, "--games", "3", "--players", "2")
    assert re.search(r"2 players:\s+[\d.]+ games/s\s+\d+ actions/s", out), out
    assert re.search(r"clone is\s+[\d.]+x faster", out), out
    assert re.search(r"legal list with labels [\d.]+ us, without [\d.]+ us; undo barrier", out)


def test_ai_speed_bench_prints_iterations_per_second() -> None:
    out = run("ai_speed.py", "--game", "cosmic_run", "--positions", "2", "--iterations", "10")
    assert re.search(r"Cosmic Run:\s+\d+ iterations/s", out), out


def test_tournament_bench_prints_games_per_second_and_the_network_cost() -> None:
    out = run(
        "tournament.py", "--games", "4", "--bots", "random", "--workers", "1", "--json"
    )  # fmt: skip
    assert re.search(r"random\s+in-process 1 worker :\s+[\d.]+ games/s", out), out
    assert re.search(r"random, 1 worker\(s\): a networked game costs [\d.]+x in-process", out)
    summary = json.loads(out.strip().splitlines()[-1])["summary"]
    assert summary["random_network_cost_1w"] > 0


def games_played(out: str) -> int:
    """The number of games the server bench says it played (fails if it says nothing)."""
    match = re.search(r"cosmoport \([^)]*\): (\d+) actions in [\d.]+s over (\d+) games", out)
    assert match is not None and int(match.group(1)) > 0, out
    return int(match.group(2))


def test_server_bench_plays_its_tables_and_the_echo_baseline() -> None:
    # More tables than the default per-address limit: the bench must lift every limit it hits.
    out = run("server.py", "--tables", "25", "--players", "2", "--echo-seconds", "0.2")
    assert games_played(out) == 25
    assert re.search(r"machine: \d+ cores, load average [\d.]+ \(1 min\)", out), out
    assert re.search(r"raw echo:\s+\d+ round trips", out), out
    assert re.search(r"ratio \(cosmoport actions/s / echo round trips/s\): [\d.]+", out), out


def test_server_bench_compares_saving_to_a_file_with_a_database_in_memory() -> None:
    out = run("server.py", "--db", "both", "--tables", "3", "--echo-seconds", "0.2")
    assert "tables in a WAL file" in out and "tables in an in-memory database" in out, out
    assert re.search(r"saving each action to the file costs -?\d+ us", out), out


def test_server_bench_tick_game_measures_the_server_alone() -> None:
    out = run("server.py", "--game", "tick", "--tables", "3", "--echo-seconds", "0.2")
    assert games_played(out) == 3


def test_server_bench_acting_views_experiment_plays_games_to_the_end() -> None:
    out = run(
        "server.py", "--views", "acting", "--players", "3", "--tables", "3", "--echo-seconds", "0.2"
    )
    assert "only the seat to act gets a view" in out, out
    assert games_played(out) == 3


PACED_TINY = ("--game", "tick", "--players", "3", "--duration", "1", "--warmup", "0.3")
"""A paced run of seconds: tick games of 300 actions end (and start again) within it."""


def test_server_bench_paced_load_reports_round_trips_cpu_per_action_and_the_echo() -> None:
    out = run("server.py", "--pace", "0.002", "--tables", "3", "--db", "both", *PACED_TINY)
    for where in ("tables in a WAL file", "tables in an in-memory database"):
        match = re.search(
            rf"cosmoport \({where}\), actions: (\d+) in [\d.]+s = \d+/s; "
            r"round trip p50 [\d.]+ ms, p99 [\d.]+ ms \(p99 < 20 ms: (NOT )?held\)",
            out,
        )
        assert match is not None and int(match.group(1)) > 0, out
    assert re.search(r"\d+ game\(s\) ended, each followed by a new one", out), out
    assert re.search(r"server process: \d+% of core 0 .* \d+ us of CPU each", out), out
    assert re.search(r"client process\(es\), set up in \d+s: \d+% of core", out), out
    assert re.search(r"load average [\d.]+ at the end", out), out
    assert re.search(r"saving each action to the file: [+-]\d+ us of server CPU per action", out)
    assert re.search(r"raw echo, paced alike \(3 connections\), round trips: [1-9]\d* in", out)
    assert re.search(r"server CPU per action \(file\) / echo CPU per round trip: [\d.]+", out)
    assert "refusal" not in out, out


def test_server_bench_find_max_tries_more_tables_and_names_the_largest_that_held() -> None:
    out = run(
        "server.py", "--pace", "0.01", "--find-max", "--max-runs", "2", "--tables", "2",
        *PACED_TINY,
    )  # fmt: skip
    assert re.search(r"find-max run 1: 2 tables", out), out
    assert re.search(r"find-max run 2: (3|1) tables", out), out  # grown, or halved after a miss
    assert re.search(r"largest table count that held p99 < 20 ms: \d+", out), out
    assert re.search(r"echo CPU per round trip: \d+ tables [\d.]+, \d+ tables [\d.]+", out), out


def test_server_bench_profile_shows_where_the_server_spends_its_time(tmp_path: Path) -> None:
    profile = tmp_path / "server.prof"
    out = run(
        "server.py", "--pace", "0.01", "--tables", "2", "--db", "memory",
        "--profile", str(profile), *PACED_TINY,
    )  # fmt: skip
    assert "profile of the server over the window" in out, out
    assert "Table._apply" in out or "_apply" in out, out


def test_balance_bench_prints_a_share_per_seat_that_adds_up() -> None:
    out = run("balance.py", "--game", "cosmic_run", "--players", "3", "--games", "4")
    shares = [float(s) for s in re.findall(r"seat \d: wins ([\d.]+) \[", out)]
    assert len(shares) == 3, out
    assert abs(sum(shares) - 1.0) < 0.01
    assert re.search(r"mean game length: \d+ actions", out), out


@pytest.mark.parametrize(("game", "db"), [("cosmic_run", "memory"), ("tick", "file")])
def test_act_bench_times_the_server_alone_and_plays_games_to_their_end(game: str, db: str) -> None:
    # 320 actions per table: past a game of tick (300 actions) and most of one of Cosmic Run
    out = run("act.py", "--tables", "3", "--rounds", "320", "--game", game, "--db", db)
    found = re.search(r"(\d+) actions, (\d+) games over: server CPU per action ([\d.]+) us", out)
    assert found, out
    actions, games = int(found[1]), int(found[2])
    assert actions > 3 * 300 and float(found[3]) > 0
    if game == "tick":  # every table played its game to the end and sat down again
        assert games == 3, out
