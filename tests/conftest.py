"""Every test runs with its own data and state directories: nothing a test starts (a server's
database, kept seat tokens, played records) ever reaches the real home directory. Every program
a test starts gets the signal dispositions of a terminal's foreground job, whatever started the
suite. Also the commands of the two example bots of examples/, for the tests that run them."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
NPM_SECONDS = 120


def pytest_configure(config: pytest.Config) -> None:
    """Undo what a background start leaves ignored, before anything is started.

    A suite started by a script in the background (`pytest &` in a non-interactive shell, CI
    runners, `nohup`) inherits SIGINT and SIGQUIT (and with nohup SIGHUP) ignored, and every
    program a test starts inherits that in turn: `cosmoport serve` then rightly ignores the
    Ctrl+C a test sends it (a script's background job is not meant to stop on the terminal's
    Ctrl+C), and the test waits for an exit that never comes. Handlers are reset at exec,
    ignored signals are not: with these back to normal, a started program sees what it sees in
    a terminal.
    """
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    for number in (signal.SIGQUIT, signal.SIGHUP):
        if signal.getsignal(number) is signal.SIG_IGN:
            signal.signal(number, signal.SIG_DFL)


@pytest.fixture(autouse=True)
def _private_user_directories(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path_factory.mktemp("user")
    for variable, folder in (
        ("XDG_DATA_HOME", "data"),
        ("XDG_STATE_HOME", "state"),
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_CACHE_HOME", "cache"),
    ):
        path = Path(home) / folder
        path.mkdir()
        monkeypatch.setenv(variable, str(path))


@pytest.fixture(scope="session")
def py_bot() -> list[str]:
    """The command that runs the Python example bot."""
    return [sys.executable, str(EXAMPLES / "py-bot" / "bot.py")]


@pytest.fixture(scope="session")
def js_bot(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The command that runs the Node.js example bot, its one package installed: an installed
    examples/js-bot/node_modules, else `npm ci` from the lock file into a copy (bounded in
    time). Without node or npm the test is skipped, saying why."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the Node.js example bot cannot run")
    source = EXAMPLES / "js-bot"
    if (source / "node_modules" / "@msgpack" / "msgpack").is_dir():
        return [node, str(source / "bot.mjs")]
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed: cannot install @msgpack/msgpack for the Node.js bot")
    copy = tmp_path_factory.mktemp("js-bot")
    for name in ("bot.mjs", "package.json", "package-lock.json"):
        shutil.copy(source / name, copy / name)
    try:
        done = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"],
            cwd=copy,
            capture_output=True,
            text=True,
            timeout=NPM_SECONDS,
        )
    except subprocess.TimeoutExpired:
        pytest.skip(f"`npm ci` did not install @msgpack/msgpack within {NPM_SECONDS} s")
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        pytest.skip(f"`npm ci` could not install @msgpack/msgpack: {last}")
    return [node, str(copy / "bot.mjs")]
