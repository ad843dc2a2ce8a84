"""A bot program ends quietly when its table closes, whatever the order of ``left`` and SIGTERM.

A server that closes a table tells the bot (``left: closed``) and sends its program SIGTERM at
the same moment; whatever the bot writes to stderr, the server logs as a warning. Each order is
played for real (a bot program against a fake server on 127.0.0.1, the signal sent at an exact
point of the bot's message handling: see ``bot_ending_driver.py``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

DRIVER = Path(__file__).resolve().parent / "bot_ending_driver.py"

pytestmark = pytest.mark.slow


def end_of_a_bot(order: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(DRIVER), order],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("order", ["closed-term", "term-closed", "closed", "term"])
def test_a_bot_ends_quietly_whatever_the_order_of_its_table_closing_and_sigterm(order):
    done = end_of_a_bot(order)
    assert done.stderr == ""
    assert "seated at table 1" in done.stdout
    assert "Traceback" not in done.stdout
    if "closed" in order:
        assert "the table was closed" in done.stdout
    assert done.returncode == 0  # a closed table is no failure of the bot's
