"""End to end, real processes: nothing is lost when a console dies, nor when a game ends.

- kill -9 `cosmoport join` mid-game, start it again (through another address of the same
  server): it is back in its seat and plays on.
  `cosmoport serve` runs on 127.0.0.1 (a free port, ``--db`` under ``tmp_path``)
  with its own random bot program.
- `cosmoport play` keeps the record of the game it played in ``played.jsonl``; `save` writes
  another copy.

``XDG_STATE_HOME`` and ``XDG_DATA_HOME`` point under ``tmp_path``. Bounded: every wait has a
pexpect timeout and the moves typed are counted.
"""

from __future__ import annotations

import json
import os
import signal
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pexpect = pytest.importorskip("pexpect")
from pty_helpers import spawn_cosmoport  # noqa: E402 (needs pexpect)

pytestmark = pytest.mark.slow

TIMEOUT = 30
MOVE = r"Your move \((?:a name, or 1-\d+|Enter: the only choice)\)> "
OVER = "=== Game over ==="


def spawn(env: dict[str, str], *args: str) -> Any:
    return spawn_cosmoport(*args, env=env, timeout=TIMEOUT, width=200)


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }


@pytest.fixture
def server_port(tmp_path: Path, env: dict[str, str]) -> Iterator[str]:
    db = str(tmp_path / "server.db")
    server = spawn(env, "serve", "--host", "127.0.0.1", "--port", "0", "--quiet", "--db", db,
                   "--no-announce")  # fmt: skip
    server.expect(r"listening on 127\.0\.0\.1:(\d+)")
    yield server.match.group(1)
    server.sendintr()
    server.expect(pexpect.EOF)
    server.close()


def take_turns(child: pexpect.spawn, limit: int) -> tuple[int, bool]:
    """Play the first action at each turn of ours, up to ``limit`` of them: (moves played,
    whether the game ended)."""
    for played in range(limit):
        if child.expect([MOVE, OVER]) == 1:
            return played, True
        child.sendline("" if "Enter" in child.after else "1")
    return limit, False


def test_a_killed_console_takes_its_seat_back_when_started_again_and_plays_on(
    server_port: str, env: dict[str, str], tmp_path: Path
) -> None:
    address = f"127.0.0.1:{server_port}"
    ann = spawn(env, "join", address, "--name", "Ann")
    ann.expect("lobby> ")
    ann.sendline("create cr 2 autostart")
    ann.expect(r"You sit at table 1 \(Cosmic Run\), place A\.")
    ann.sendline("bot random")
    ann.expect("The game of Cosmic Run starts!")
    assert take_turns(ann, 3) == (3, False)
    ann.expect(MOVE)  # our turn again: nothing in flight when the process dies

    kept = tmp_path / "state" / "cosmoport" / "seat-tokens.json"
    assert stat.S_IMODE(os.stat(kept).st_mode) == 0o600
    [(key, seats)] = json.loads(kept.read_text())["servers"].items()
    assert key.startswith("id:")  # kept by the server's id, not by the address typed
    [token] = [seat["token"] for seat in seats.values()]
    ann.kill(signal.SIGKILL)
    ann.close(force=True)
    assert ann.signalstatus == signal.SIGKILL

    # Started again through another address of the same server, as discovery may give it.
    again = spawn(env, "join", f"localhost:{server_port}", "--name", "Ann")
    again.expect(r"Taking back your seat at table 1\.\.\.")
    again.expect(r"Back in your seat at table 1\.")
    [rotated] = json.loads(kept.read_text())["servers"][key].values()
    assert rotated["token"] != token  # the new token, saved before the old one dies
    again.expect("Cosmic Run  round")  # the board, from the snapshot
    played, over = take_turns(again, 600)  # and on to the end
    assert played >= 1 and over
    again.expect("lobby, or `quit`")  # the last line about the game's end
    servers = json.loads(kept.read_text())["servers"]
    assert key not in servers  # the game is over: nothing left to take back
    again.sendline("quit")
    again.expect("Goodbye.")
    again.expect(pexpect.EOF)
    again.close()
    assert again.exitstatus == 0


def test_play_keeps_the_record_of_its_game_and_save_writes_another_copy(
    env: dict[str, str], tmp_path: Path
) -> None:
    child = spawn(
        env, "play", "cr", "--players", "1", "--seed", "7", "--bot-delay", "0", "--name", "Ann"
    )
    played, over = take_turns(child, 600)
    assert over and played > 20
    child.expect(r"Record\s+kept:")
    child.expect(r"\(game\s+1\s+there;\s+replay\s+with\s+`cosmoport\s+replay")
    kept = tmp_path / "data" / "cosmoport" / "records" / "played.jsonl"
    [line] = kept.read_text(encoding="utf-8").splitlines()
    record = json.loads(line)
    assert record["format"] == "cosmoport-record" and record["game"] == "cosmic_run"
    assert record["seats"][0]["name"] == "Ann" and record["result"] is not None
    copy = tmp_path / "copy.json"
    child.sendline(f"save {copy}")
    child.expect("Replay it with")
    assert json.loads(copy.read_text(encoding="utf-8")) == record
    child.sendline("quit")
    child.expect("Goodbye.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
