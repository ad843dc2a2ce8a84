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
    numbers = r"(?:\s+[\d.]+){4}\s+"  # decode and server, for version 2 then version 1
    assert re.search(r"typical act \(baseline\)\s+\d+" + numbers + "session/wrong_state, ", out)
    assert re.search(r"issue 13: .*\s+5120" + numbers + "proto/bad_msgpack, proto/bad_msgpack", out)
    assert re.search(r"8 levels: .*" + numbers + "proto/bad_msgpack, proto/bad_message", out), out
    for version in (2, 1):
        assert re.search(
            rf"costliest in version {version}: .+: [\d.]+ us to decode, [\d.]+ us through the "
            r"server \((within|OVER) the 1000 us budget\); typical act: [\d.]+ us",
            out,
        ), out
