"""The example bots of examples/ play whole games of both games as tournament entrants (`cmd:`),
and go on after `action/illegal` and `action/stale`. Real processes, real sockets on 127.0.0.1.

The Node.js bot needs `node` and its one package, @msgpack/msgpack: an installed
examples/js-bot/node_modules, else `npm ci` from the lock file into a copy (bounded in time).
Without them its tests are skipped, saying why.
"""

from __future__ import annotations

import ast
import re
import shlex
import socket
import struct
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jsonschema
import msgpack
import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from protocol.schema import generate  # noqa: E402
from tournament import host  # noqa: E402
from tournament.entrants import parse_all  # noqa: E402
from tournament.game import GameJob, play  # noqa: E402

EXAMPLES = ROOT / "examples"

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def _no_program_outlives_its_test() -> Iterator[None]:
    yield
    host.close_programs()


@pytest.fixture(params=["py_bot", "js_bot"])
def bot(request: pytest.FixtureRequest) -> list[str]:
    command: list[str] = request.getfixturevalue(request.param)
    return command


def job(entrants: list[str], game: str, tmp_path: Path, seed: int) -> GameJob:
    parsed = tuple(parse_all(entrants))
    return GameJob(
        number=0,
        game=game,
        players=len(parsed),
        seed=seed,
        seating=tuple(range(len(parsed))),
        entrants=parsed,
        timeout=20.0,
        log_dir=str(tmp_path / "logs"),
    )


@pytest.mark.parametrize(
    ("game", "seats", "seed"),
    [("cosmic_run", ["bot", "random"], 3), ("alien_artifacts", ["random", "bot"], 4)],
)
def test_the_example_bot_plays_a_whole_game_as_a_tournament_entrant(
    bot: list[str], game: str, seats: list[str], seed: int, tmp_path: Path
) -> None:
    program = "cmd:" + shlex.join(bot)
    result = play(job([program if s == "bot" else s for s in seats], game, tmp_path, seed))
    mine = seats.index("bot")
    log = (tmp_path / "logs" / f"game-0-seat-{mine}.log").read_text()
    assert result["forfeit"] is None, log
    assert result["record"]["result"] is not None
    played = [a for a in result["record"]["actions"] if a["seat"] == mine]
    assert played and result["timing"][mine]["decisions"] == len(played)
    assert "game over" in log


def test_the_examples_are_short_and_use_no_cosmoport_code() -> None:
    python = (EXAMPLES / "py-bot" / "bot.py").read_text()
    imported = set()
    for node in ast.walk(ast.parse(python)):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert imported - sys.stdlib_module_names == {"msgpack"}
    node_js = (EXAMPLES / "js-bot" / "bot.mjs").read_text()
    modules = set(re.findall(r'^import .* from "([^"]+)";', node_js, re.MULTILINE))
    assert {m for m in modules if not m.startswith("node:")} == {"@msgpack/msgpack"}
    for text in (python, node_js):
        assert len(text.splitlines()) <= 200


# --- a scripted server: refusals the real server gives only to a faulty or slow client -------


def frame(msg: dict[str, Any]) -> bytes:
    body = msgpack.packb(msg, use_bin_type=True)
    return struct.pack("!I", len(body)) + body


CLIENT_MESSAGE = jsonschema.Draft202012Validator(
    {"$defs": generate()["$defs"], "$ref": "#/$defs/client-message"}
)


class Script:
    """One connection on 127.0.0.1: reads the client's frames (each must pass the protocol's
    JSON Schema), sends what the test says."""

    def __init__(self, conn: socket.socket) -> None:
        self.conn = conn
        self.buffer = b""

    def read(self) -> dict[str, Any]:
        while True:
            if len(self.buffer) >= 4:
                (length,) = struct.unpack("!I", self.buffer[:4])
                if len(self.buffer) >= 4 + length:
                    body, self.buffer = self.buffer[4 : 4 + length], self.buffer[4 + length :]
                    msg: dict[str, Any] = msgpack.unpackb(body, raw=False)
                    CLIENT_MESSAGE.validate(msg)
                    return msg
            chunk = self.conn.recv(65536)
            assert chunk, "the bot closed the connection early"
            self.buffer += chunk

    def send(self, msg: dict[str, Any]) -> None:
        self.conn.sendall(frame(msg))


def scripted(run: Callable[[Script], None], command: list[str], token: str) -> tuple[int, str]:
    """Run the bot against ``run`` on a one-connection server; its exit status and stderr."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(10)
    port = listener.getsockname()[1]
    env = {"PATH": "/usr/bin:/bin", "COSMOPORT_SERVER": f"127.0.0.1:{port}"}
    env["COSMOPORT_SEAT_TOKEN"] = token
    failure: list[BaseException] = []

    def serve() -> None:
        try:
            conn, _ = listener.accept()
            conn.settimeout(10)
            with conn:
                run(Script(conn))
        except BaseException as exc:  # reported by the test below
            failure.append(exc)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=20)
    finally:
        thread.join(15)
        listener.close()
    if failure:
        raise failure[0]
    return done.returncode, done.stderr


def test_the_example_bot_goes_on_after_illegal_and_stale_and_answers_pings(
    bot: list[str],
) -> None:
    seen: dict[str, Any] = {}
    legal = [{"action": ["a", 1], "label": "A"}, {"action": ["b", 2], "label": "B"}]
    view = {"game": "g", "players": 2, "seat": 0, "current_player": 0, "is_over": False}
    game = {"table": 1, "seat": 0, "view": view, "events": [], "undo": None}

    def run(server: Script) -> None:
        hello = server.read()
        assert hello["type"] == "hello"  # the versions it speaks, newest first (section 3)
        assert (hello["version"], hello["versions"]) == (2, [2, 1])
        resume = server.read()
        assert resume["type"] == "resume" and resume["token"] == "seat-secret"
        assert type(resume["id"]) is int and abs(resume["id"]) < 2**53
        server.send({"type": "welcome", "version": 2, "server": "script", "name": hello["name"],
                     "games": [], "limits": {}, "id": hello.get("id")})  # fmt: skip
        table = {"id": 1, "state": "playing"}
        server.send({"type": "resumed", "table": table, "slot": 0, "seat": 0, "token": "new",
                     "id": resume["id"], "unknown_field": "ignored"})  # fmt: skip
        server.send({"type": "snapshot", "version": 4, "legal": legal, **game})
        server.send({"type": "ping", "id": "token-1"})
        first = server.read()
        pong = first if first["type"] == "pong" else server.read()
        act = server.read() if first["type"] == "pong" else first
        assert pong == {"type": "pong", "id": "token-1"}
        assert act["type"] == "act" and act["version"] == 4
        assert act["action"] in (["a", 1], ["b", 2])
        server.send({"type": "error", "code": "action/illegal", "message": "no",
                     "request": "act", "id": act["id"]})  # fmt: skip
        again = server.read()
        assert again["type"] == "act" and again["version"] == 4
        assert again["action"] != act["action"], "the refused action was sent again"
        server.send({"type": "error", "code": "action/stale", "message": "stale",
                     "request": "act", "id": again["id"]})  # fmt: skip
        server.send({"type": "a_message_of_a_newer_server"})
        server.send({"type": "update", "version": 6, "legal": [legal[1]], **game})
        last = server.read()
        assert last["type"] == "act" and (last["version"], last["action"]) == (6, ["b", 2])
        server.send({"type": "update", "version": 7, "legal": [], **game})
        server.send({"type": "game_over", "table": 1, "version": 7, "scores": [3, 1],
                     "ranking": [[0], [1]], "seats": ["bot", "other"]})  # fmt: skip
        seen["done"] = True

    status, stderr = scripted(run, bot, "seat-secret")
    assert seen.get("done"), stderr
    assert status == 0, stderr
