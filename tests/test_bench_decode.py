"""bench/decode.py still runs and names its costliest frame (the figures are not asserted)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "decode.py"


@pytest.mark.slow
def test_decode_bench_prints_every_frame_the_costliest_and_the_baseline() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--rounds", "1", "--round-ms", "0.1"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert re.search(r"typical act \(baseline\)\s+\d+\s+[\d.]+\s+[\d.]+\s+session/wrong_state", out)
    assert re.search(r"issue 13: .*\s+5120\s+[\d.]+\s+[\d.]+\s+proto/bad_msgpack", out), out
    assert re.search(r"costliest: .+: [\d.]+ us to decode, [\d.]+ us through the server", out)
