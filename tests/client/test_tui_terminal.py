"""``cosmoport play`` chooses its screen: full screen on a terminal, the line console otherwise.

Real processes: one in a pseudo-terminal (the full-screen app, with Twisted on its asyncio loop,
an embedded server and a bot), one with its standard input a pipe. Bounded by pexpect timeouts.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.slow

TIMEOUT = 20
ARGS = ["-m", "cosmoport", "play", "cr", "--bots", "random", "--seed", "1", "--name", "Ann"]


def full_screen() -> pexpect.spawn:
    env = {**os.environ, "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(
        sys.executable, ARGS, encoding="utf-8", timeout=TIMEOUT, dimensions=(24, 80), env=env
    )
    child.expect_exact("\x1b[?1049h")  # the alternate screen: full screen
    child.expect("Your move")
    child.expect(["F1 legend", "Type a die"])  # the command line's placeholder: it is drawn
    return child


def given_back(child: pexpect.spawn) -> None:
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "\x1b[?1049l" in child.before  # the terminal is given back


def test_on_a_terminal_play_is_full_screen_and_ctrl_q_leaves_it_cleanly() -> None:
    """In the middle of the game Ctrl+Q asks first; the second leaves."""
    child = full_screen()
    child.sendcontrol("q")
    child.expect("Press Ctrl")
    child.sendcontrol("q")
    given_back(child)


def test_a_terminated_full_screen_client_gives_the_terminal_back() -> None:
    child = full_screen()
    child.kill(signal.SIGTERM)
    given_back(child)


def test_with_a_pipe_for_input_play_uses_the_line_console() -> None:
    done = subprocess.run(
        [sys.executable, *ARGS, "--bot-delay", "0"],
        input="quit\nquit\n",
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env={**os.environ, "TERM": "xterm-256color"},
    )
    assert done.returncode == 0
    assert "\x1b[?1049h" not in done.stdout
    assert "Goodbye." in done.stdout
