"""End to end, real processes: `undo`, then the server stopped with Ctrl+C and started again on
its database. The console reconnects by itself, is back in its seat, and its next move is
applied (a restart once gave the game a version lower than the console held after an undo, and
every move after it was refused as too late).

`cosmoport serve` on 127.0.0.1 (a free port, kept for the restart; ``--db`` under
``tmp_path``), `cosmoport join` in a pseudo-terminal. Every wait has a pexpect timeout.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pexpect = pytest.importorskip("pexpect")
from pty_helpers import spawn_cosmoport  # noqa: E402 (needs pexpect)

pytestmark = pytest.mark.slow

TIMEOUT = 30
MOVE = r"Your move \(a name, or 1-\d+\)> "


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {"XDG_STATE_HOME": str(tmp_path / "state"), "XDG_DATA_HOME": str(tmp_path / "data")}


def serve(env: dict[str, str], db: Path, port: str) -> tuple[Any, str]:
    """`cosmoport serve` on ``port`` (0: a free one) and the port it listens on, once it says
    how to stop it."""
    server = spawn_cosmoport(
        "serve", "--host", "127.0.0.1", "--port", port, "--quiet", "--db", str(db),
        "--no-announce", "--timer", "off", env=env, timeout=TIMEOUT,
    )  # fmt: skip
    server.expect(r"listening on 127\.0\.0\.1:(\d+)")
    chosen = server.match.group(1)
    server.expect("Stop with Ctrl\\+C")
    return server, chosen


def stop(server: Any) -> None:
    server.sendintr()
    server.expect(pexpect.EOF)
    server.close()
    assert server.exitstatus == 0


@pytest.fixture
def servers(env: dict[str, str], tmp_path: Path) -> Iterator[list[Any]]:
    """The servers a test starts; any still running at the end are stopped."""
    started: list[Any] = []
    yield started
    for server in started:
        if server.isalive():
            server.terminate(force=True)


def test_after_undo_and_a_ctrl_c_restart_the_console_is_back_in_its_seat_and_plays_on(
    env: dict[str, str], tmp_path: Path, servers: list[Any]
) -> None:
    db = tmp_path / "server.db"
    first, port = serve(env, db, "0")
    servers.append(first)
    ann = spawn_cosmoport("join", f"127.0.0.1:{port}", "--name", "Ann", env=env,
                          timeout=TIMEOUT, width=100)  # fmt: skip
    ann.expect("lobby> ")
    ann.sendline("create cr 1")
    ann.expect(r"You sit at table 1 \(Cosmic Run\), place A\.")
    ann.sendline("start")
    ann.expect("The game of Cosmic Run starts!")
    ann.expect(MOVE)
    ann.sendline("1")  # roll
    ann.expect(MOVE)
    ann.sendline("1")  # a die on a planet
    ann.expect("`undo` takes back")
    ann.expect(MOVE)
    ann.sendline("undo")
    ann.expect("takes back")
    ann.expect(MOVE)
    ann.sendline("1")  # the same die again: the move that stands
    ann.expect(r"Ann puts (W\d)")
    ann.expect(MOVE)

    stop(first)
    ann.expect("Connection to the server lost")
    ann.expect("Reconnecting in")
    second, _ = serve(env, db, port)
    servers.append(second)
    ann.expect("Reconnected.", timeout=60)  # its next attempt: up to 4 s later
    ann.expect(r"Back in your seat at table 1\.")
    ann.expect(MOVE)
    ann.sendline("1")
    index = ann.expect([r"Ann puts W\d", "Too late", r"Ann rolls"])
    assert index != 1, ann.before
    ann.expect(MOVE)
    ann.sendline("quit")
    ann.expect("Type `quit` again")
    ann.sendline("quit")
    ann.expect(pexpect.EOF)
    ann.close()
    stop(second)
