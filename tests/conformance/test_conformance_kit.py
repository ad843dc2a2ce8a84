"""The conformance kit against the example bots and broken copies of one: the examples pass
every check; each broken copy fails the check it breaks, says why, and passes the others.

Real processes, real sockets on 127.0.0.1 (port 0); every kit run is bounded in time.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time

import pytest
import pytest_twisted
from conformance_helpers import ROOT, checklist, flat, run_kit

pytestmark = pytest.mark.slow

GAME_LINES = ("plays a whole game of Cosmic Run", "plays a whole game of Alien Artifacts")
PINGS = "answers pings in time"
REFUSALS = "survives action/illegal and action/stale"
RESUME = "resumes its seat after a dropped connection"
RATE = "stays within the rate, sends only valid requests"
QUIET = "ends quietly when its table closes"


def cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``cosmoport conformance ARGS`` as a user runs it, its output to a pipe."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "cosmoport", "conformance", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env=env,
    )


def only_failing(text: str, *names: str) -> None:
    """The checklist has every line, and exactly ``names`` fail."""
    lines = checklist(text)
    assert set(lines) >= {GAME_LINES[0], PINGS, REFUSALS, RESUME, RATE, QUIET}, text
    assert {name for name, ok in lines.items() if not ok} == set(names), text


def test_the_python_example_passes_every_check_from_the_command_line(py_bot: list[str]) -> None:
    done = cli("--seed", "11", "--", *py_bot)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = checklist(done.stdout)
    assert set(lines) == {*GAME_LINES, PINGS, REFUSALS, RESUME, RATE, QUIET}
    assert all(lines.values())
    assert "All 7 checks passed." in done.stdout
    last_run = r"^\[5/5\] the table closes mid-game \(Cosmic Run\) \.\.\. done in "
    assert re.search(last_run, done.stdout, re.MULTILINE), done.stdout
    assert "\x1b[" not in done.stdout  # a pipe gets plain text


@pytest_twisted.ensureDeferred
async def test_the_node_example_passes_every_check(js_bot: list[str]) -> None:
    status, text = await run_kit(js_bot, games=("cosmic_run", "alien_artifacts"), seed=12)
    assert status == 0, text
    assert all(checklist(text).values()) and len(checklist(text)) == 7, text
    assert "It spoke protocol version 2 (hello: version 2, versions [2, 1])." in text


@pytest_twisted.ensureDeferred
async def test_the_kit_says_a_version_1_program_spoke_version_1(broken) -> None:
    """The example bot as it was written to version 1: `version: 1` and no `versions`."""
    command = broken(
        "v1", [('"versions": VERSIONS, ', ""), ("VERSIONS = [2, 1]", "VERSIONS = [1]")]
    )
    status, text = await run_kit(command, games=("cosmic_run",), seed=13)
    assert status == 0, text
    assert "It spoke protocol version 1 (hello: version 1)." in text


def test_a_bot_that_ignores_pings_fails_that_check_and_the_command_exits_1(broken) -> None:
    command = broken(
        "deaf",
        [('conn.send({"type": "pong", **({"id": msg["id"]} if "id" in msg else {})}, False)',
          "pass  # broken: pings go unanswered")],
    )  # fmt: skip
    done = cli("--game", "cr", "--seed", "3", "--", *command)
    assert done.returncode == 1, done.stdout + done.stderr
    only_failing(done.stdout, PINGS)
    text = flat(done.stdout)
    assert "expected: a pong with the same id" in text
    assert 'ping "token-1" (a whole game of Cosmic Run, connection 1): never answered' in text
    assert "1 of 6 checks failed." in text


@pytest_twisted.ensureDeferred
async def test_a_bot_that_gives_up_after_action_stale_fails_the_refusals_check(broken) -> None:
    command = broken(
        "quitter",
        [("            # action/stale: someone else moved first",
          '            if code == "action/stale":\n'
          '                return 3  # broken: gives up\n'
          "            # action/stale: someone else moved first")],
    )  # fmt: skip
    status, text = await run_kit(command)
    assert status == 1
    only_failing(text, REFUSALS)
    text = flat(text)
    assert "expected: after an error it plays on" in text
    assert "it did: exited with status 3 before the game ended" in text
    assert "its last output line: py-bot: error action/stale" in text


@pytest_twisted.ensureDeferred
async def test_a_bot_that_does_not_come_back_fails_the_resume_check(broken) -> None:
    command = broken("gone", [("RETRIES = (0.1, 0.3, 1.0, 2.0, 4.0)", "RETRIES = ()")])
    status, text = await run_kit(command)
    assert status == 1
    only_failing(text, RESUME)
    text = flat(text)
    assert "expected: it connects again, says hello and takes its seat back" in text
    assert "exited with status 1" in text and "before the game ended" in text
    assert "its last output line: py-bot: could not get back to the server" in text


@pytest_twisted.ensureDeferred
async def test_a_bot_that_comes_back_with_a_dead_token_is_told_which_token_to_keep(broken) -> None:
    command = broken(
        "forgetful",
        [('seat.token = msg["token"]  # kept before the pong that retires the old one', "pass")],
    )
    status, text = await run_kit(command)
    assert status == 1
    only_failing(text, RESUME, RATE)
    text = flat(text)
    assert (
        "came back with the token from $COSMOPORT_SEAT_TOKEN, which had died (its pong to the "
        "ping after `resumed` retired it): the token to keep is the token from `resumed` "
        "(resume → session/bad_token)"
    ) in text
    assert '{type: "resume", token: "…", id: 2} → session/bad_token' in text  # never the token


@pytest_twisted.ensureDeferred
async def test_a_bot_that_stays_after_its_table_closes_fails_the_quiet_check(broken) -> None:
    command = broken(
        "stayer",
        [('            log("the table was closed")\n            return 0',
          '            log("the table was closed; staying anyway")  # broken')],
    )  # fmt: skip
    status, text = await run_kit(command)
    assert status == 1
    only_failing(text, QUIET)
    text = flat(text)
    assert (
        "the table closes mid-game (Cosmic Run): its table closed mid-game, and it was still "
        "running 3 s later"
    ) in text
    assert "its last output line: py-bot: the table was closed; staying anyway" in text


@pytest_twisted.ensureDeferred
async def test_a_bot_that_hangs_fails_within_its_timeout_and_never_hangs_the_kit(broken) -> None:
    command = broken(
        "sleeper",
        [("            sent = rng.choice(choices)",
          "            time.sleep(3600)  # broken: hangs\n            sent = rng.choice(choices)")],
    )  # fmt: skip
    began = time.monotonic()
    status, text = await run_kit(command, timeout=1.5)
    assert time.monotonic() - began < 20, text
    assert status == 1
    lines = checklist(text)
    assert not any(lines[name] for name in (GAME_LINES[0], REFUSALS, RESUME, QUIET)), text
    assert lines[RATE], text
    text = flat(text)
    assert "it did: did not act within 1.5 s when version 0 asked it to" in text
    assert "the referee never got to refuse an action" in text
    assert "the referee never got to drop its connection" in text


@pytest_twisted.ensureDeferred
async def test_our_own_bot_program_passes_every_check() -> None:
    command = [sys.executable, "-m", "cosmoport", "bot", "{server}", "--table", "{table}",
               "--level", "random"]  # fmt: skip
    status, text = await run_kit(command, games=("cosmic_run", "alien_artifacts"), seed=5)
    assert status == 0, text
    assert all(checklist(text).values()) and len(checklist(text)) == 7, text
