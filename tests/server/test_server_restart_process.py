"""A real server process killed with SIGKILL mid-game and started again on the same database:
the players resume with the tokens they hold and finish, and the record is the one of the same
game played without the crash.

Real processes and sockets on 127.0.0.1 only; every wait is bounded by a socket timeout.
"""

from __future__ import annotations

import contextlib
import os
import queue
import random
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from process_helpers import recv_frame
from process_helpers import start_server as start_process
from server_helpers import MemoryServer

from games import records
from protocol import encode, frame
from server.store import Store

TIMEOUT = 20.0


def start_server(db: Path, port: int = 0) -> tuple[subprocess.Popen[str], int]:
    proc, port, _lines = start_process("--db", str(db), "--max-bots", "0", port=port)
    return proc, port


class Player:
    """A blocking client: hello (with a token after a crash), requests, game messages."""

    def __init__(self, port: int, name: str, token: str | None = None) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        self.name = name
        self.last: dict[str, Any] | None = None  # the latest snapshot or update
        self.over: dict[str, Any] | None = None
        hello: dict[str, Any] = {"type": "hello", "version": 1, "name": name, "id": 1}
        if token is not None:
            hello["token"] = token
        self.send(hello)
        assert self.until("welcome")["name"] == name
        self.token = token

    def send(self, msg: dict[str, Any]) -> None:
        self.sock.sendall(frame(encode(msg)))

    def until(self, kind: str) -> dict[str, Any]:
        """Read (answering pings, noting game messages) until a message of type ``kind``."""
        while True:
            msg = recv_frame(self.sock)
            if msg["type"] == "ping":
                self.send({"type": "pong", **({"id": msg["id"]} if "id" in msg else {})})
            if msg["type"] in ("snapshot", "update"):
                self.last = msg
            if msg["type"] == "game_over":
                self.over = msg
            if msg["type"] == "error" and kind != "error":
                raise AssertionError(f"{self.name} got {msg}")
            if msg["type"] == kind:
                return msg

    def request(self, msg: dict[str, Any], reply: str) -> dict[str, Any]:
        self.send({**msg, "id": 7})
        return self.until(reply)

    def close(self) -> None:
        self.sock.close()


def play(players: list[Player], rng: random.Random, moves: int | None) -> None:
    """Random legal actions until ``moves`` were played (or the end)."""
    played = 0
    while moves is None or played < moves:
        who = next((p for p in players if p.last and p.last["legal"]), None)
        if who is None:
            return
        assert who.last is not None
        version = who.last["version"]
        choice = rng.choice(who.last["legal"])["action"]
        who.send({"type": "act", "version": version, "action": choice})
        for p in players:  # everyone gets the update of this version
            while p.last is None or p.last["version"] <= version:
                p.until("update")
        played += 1


class FixedSeed(random.Random):
    """A server generator that deals a given game seed (and seats in place)."""

    def __init__(self, seed: int) -> None:
        super().__init__(0)
        self.seed_to_deal = seed

    def randrange(self, *args: Any, **kwargs: Any) -> int:  # type: ignore[override]
        return self.seed_to_deal


def without_times(record: dict[str, Any]) -> dict[str, Any]:
    kept = {k: v for k, v in record.items() if k not in ("created", "started", "finished", "table")}
    kept["actions"] = [{k: v for k, v in a.items() if k != "at"} for a in record["actions"]]
    return kept


@pytest.mark.slow
def test_a_server_killed_mid_game_comes_back_and_the_game_ends_as_without_the_crash(
    tmp_path: Path,
) -> None:
    db = tmp_path / "server.db"
    rng = random.Random(5)
    proc, port = start_server(db)
    second = None
    try:
        ann, bob = Player(port, "Ann"), Player(port, "Bob")
        table = ann.request(
            {"type": "create", "game": "cosmic_run", "players": 2, "seating": "fixed"}, "created"
        )["table"]["id"]
        ann.token = ann.request({"type": "join", "table": table}, "joined")["token"]
        bob.token = bob.request({"type": "join", "table": table}, "joined")["token"]
        ann.send({"type": "start"})
        for p in (ann, bob):
            p.until("snapshot")
        play([ann, bob], rng, 25)
        assert ann.last is not None and ann.last["version"] == 25
        seen = {p.name: p.last for p in (ann, bob)}

        proc.send_signal(signal.SIGKILL)  # no goodbye, no flush: only what was committed
        proc.wait(timeout=TIMEOUT)
        for p in (ann, bob):
            p.close()

        second, port2 = start_server(db, port)
        assert port2 == port
        back = []
        for p in (ann, bob):
            again = Player(port, p.name, p.token)
            resumed = again.until("resumed")
            assert resumed["table"]["id"] == table and resumed["table"]["state"] == "playing"
            snapshot = again.until("snapshot")
            assert snapshot["version"] == 25
            assert snapshot["view"] == seen[p.name]["view"]
            assert snapshot["legal"] == seen[p.name]["legal"]
            again.token = resumed["token"]
            back.append(again)
        play(back, rng, None)
        for p in back:
            while p.over is None:
                p.until("game_over")
        record = back[0].request({"type": "record", "table": table}, "record")["record"]
    finally:
        for process in (proc, second):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait(timeout=TIMEOUT)

    records.check(record)
    assert back[0].over is not None
    assert record["result"] == {
        "scores": back[0].over["scores"],
        "ranking": back[0].over["ranking"],
    }
    # The same seed and actions, uninterrupted, give the same record.
    alone = MemoryServer(store=Store.open(":memory:", server="cosmoport-server 0.1"))
    alone.hub.lobby.rng = FixedSeed(record["seed"])
    host = alone.greeted("Ann")
    other = alone.greeted("Bob")
    table2 = host.create("cosmic_run", 2, seating="fixed")
    host.join(table2)
    other.join(table2)
    host.request({"type": "start"})
    clients = [host, other]
    for entry in record["actions"]:
        clients[entry["seat"]].request(
            {"type": "act", "version": entry["version"], "action": entry["action"]}
        )
    again = host.one("record", host.request({"type": "record", "table": table2}))["record"]
    assert without_times(again) == without_times(record)


def children(pid: int) -> list[int]:
    """The child processes of ``pid`` (Linux)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def lines_until(proc: subprocess.Popen[str], wanted: str, seconds: float) -> list[str]:
    """What the server prints until a line holding ``wanted`` (at most ``seconds``)."""
    got: queue.Queue[str] = queue.Queue()
    threading.Thread(
        target=lambda: [got.put(line) for line in iter(proc.stdout.readline, "")],  # type: ignore[union-attr]
        daemon=True,
    ).start()
    lines: list[str] = []
    deadline = time.monotonic() + seconds
    while not any(wanted in line for line in lines):
        left = deadline - time.monotonic()
        assert left > 0, f"no {wanted!r} within {seconds:g} s: {lines}"
        try:
            lines.append(got.get(timeout=left))
        except queue.Empty:
            continue
    return lines


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
def test_a_bot_that_outlives_a_crash_takes_its_seat_back_and_no_second_one_starts(
    tmp_path: Path,
) -> None:
    """A bot program is a child of the server; kill -9 of the server leaves it running, and it
    reconnects. The restarted server lets it take its seat back instead of starting another
    program for the seat and refusing the old one for good."""
    db = tmp_path / "server.db"
    proc, port, _lines = start_process("--db", str(db), "--max-bots", "2")
    second = None
    bots: list[int] = []
    try:
        ann = Player(port, "Ann")
        table = ann.request(
            {"type": "create", "game": "cosmic_run", "players": 2, "seating": "fixed"}, "created"
        )["table"]["id"]
        ann.token = ann.request({"type": "join", "table": table}, "joined")["token"]
        ann.request({"type": "add_bot", "level": "random"}, "bot_added")
        while not ann.until("seat_status")["connected"]:
            pass
        bots = children(proc.pid)
        assert len(bots) == 1
        ann.request({"type": "start"}, "snapshot")
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=TIMEOUT)
        ann.close()

        second, _port, _started = start_process("--db", str(db), "--max-bots", "2", port=port)
        lines = lines_until(second, "took Random bot 1's seat B", 60)
        assert not any("started a bot program" in line for line in lines), lines
        assert Path(f"/proc/{bots[0]}").exists()  # the same program, back in its seat
        again = Player(port, "Ann", ann.token)
        again.until("resumed")
        snapshot = again.until("snapshot")
        assert snapshot["legal"]  # Ann's turn: the game goes on
    finally:
        for process in (proc, second):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait(timeout=TIMEOUT)
        for pid in bots:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
