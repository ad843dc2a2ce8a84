"""bench/envs.py still runs (tiny settings) and prints its figures; the speed is not asserted."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "envs.py"


def test_envs_bench_prints_engine_and_adapter_steps() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--game", "cosmic_run", "--players", "2", "--games", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert re.search(
        r"cosmic_run 2 players: engine +\d+ steps/s; pettingzoo +\d+ steps/s \([\d.]+x\); "
        r"pettingzoo mask-only +\d+ steps/s \([\d.]+x\); "
        r"openspiel +\d+ steps/s \([\d.]+x\); per step: view [\d.]+ us",
        done.stdout,
    ), done.stdout
