"""End to end: `cosmoport join` in a pseudo-terminal against `cosmoport serve` on loopback."""

from __future__ import annotations

from typing import Any

import pytest

pexpect = pytest.importorskip("pexpect")
from pty_helpers import spawn_cosmoport  # noqa: E402 (needs pexpect)

pytestmark = pytest.mark.slow

TIMEOUT = 20


def spawn(*args: str) -> Any:
    return spawn_cosmoport(*args, timeout=TIMEOUT)


@pytest.fixture
def server_port() -> str:
    server = spawn("serve", "--host", "127.0.0.1", "--port", "0", "--quiet", "--db", ":memory:",
                   "--no-announce")  # fmt: skip
    server.expect(r"listening on 127\.0\.0\.1:(\d+)")
    yield server.match.group(1)
    server.sendintr()
    server.expect(pexpect.EOF)
    server.close()


def test_join_create_play_leave_resume_and_quit(server_port: str) -> None:
    ann = spawn("join", f"127.0.0.1:{server_port}", "--name", "Ann")
    ann.expect("as Ann")
    ann.expect("Games: .*Cosmic Run")
    ann.expect("lobby> ")
    ann.sendline("join 5")
    ann.expect(r"There is no table with that number")
    ann.sendline("create cosmic-run 1")
    ann.expect(r"You sit at table 1 \(Cosmic Run\), place A\.")
    ann.sendline("list")
    ann.expect(r"1: Cosmic Run timer=90\+300, 1/1 players, waiting - A Ann")
    ann.sendline("start")
    ann.expect("The game of Cosmic Run starts!")
    for _ in range(3):
        ann.expect(r"Your move \(")
        ann.sendline("1")
    ann.expect(r"Your move \(")
    ann.sendline("leave")
    ann.expect("Your seat is held: `resume` takes it back.")
    ann.sendline("resume")
    ann.expect("Cosmic Run  round 1/20")
    ann.expect(r"Your move \(")
    ann.sendline("quit")
    ann.expect("Type `quit` again")
    ann.sendline("quit")
    ann.expect("Goodbye.")
    ann.expect(pexpect.EOF)
    ann.close()
    assert ann.exitstatus == 0


def test_join_says_clearly_when_nobody_listens() -> None:
    child = spawn("join", "127.0.0.1:1", "--name", "Ann")
    child.expect("Nobody answers at that address")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
