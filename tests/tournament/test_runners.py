"""Runners: worker processes play games; stopping them stops the programs they started."""

from __future__ import annotations

import os
import select
import shlex
import sys
from pathlib import Path

import pytest

from tournament.entrants import parse_all
from tournament.game import GameJob
from tournament.runners import LocalRunner

BOTS = Path(__file__).resolve().parent / "bots"

pytestmark = pytest.mark.slow


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_worker_processes_play_games_and_hand_back_results() -> None:
    runner = LocalRunner(2)
    entrants = tuple(parse_all(["random", "greedy"]))
    try:
        for number in range(3):
            runner.submit(GameJob(number, "cosmic_run", 2, 40 + number, (0, 1), entrants))
        results = [runner.next_result() for _ in range(3)]
    finally:
        runner.stop()
    assert sorted(job.number for job, _ in results) == [0, 1, 2]
    for job, result in results:
        assert isinstance(result, dict) and result["seed"] == job.seed
        assert result["record"]["result"] is not None


def test_stopping_the_workers_stops_the_programs_they_started(tmp_path: Path) -> None:
    fifo = tmp_path / "ready"
    os.mkfifo(fifo)
    sleepy = f"cmd:{shlex.quote(sys.executable)} {BOTS / 'sleepy.py'} {fifo}"
    job = GameJob(0, "cosmic_run", 2, 1, (0, 1), tuple(parse_all(["random", sleepy])),
                  timeout=600.0)  # fmt: skip
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    runner = LocalRunner(1)
    try:
        runner.submit(job)
        readable, _, _ = select.select([reader], [], [], 60)
        assert readable, "the program never started"
        pid = int(os.read(reader, 32).decode() or 0)
        assert pid and alive(pid)
    finally:
        runner.stop()
        os.close(reader)
    assert not alive(pid)
