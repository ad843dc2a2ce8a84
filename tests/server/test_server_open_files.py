"""The open-files limit: the server raises it, holds no more connections than it leaves room for,
and refuses the next ones with a ``reject`` instead of closing them without a word."""

from __future__ import annotations

import resource
import socket
import struct
import subprocess
import sys
from typing import Any

import pytest

from protocol import decode, encode, frame
from server.descriptors import fit_to_open_files, overhead
from server.limits import Limits


class FakeResource:
    """``getrlimit``/``setrlimit`` of RLIMIT_NOFILE, with a hard limit and an optional cap."""

    RLIMIT_NOFILE = 7
    RLIM_INFINITY = -1

    def __init__(self, soft: int, hard: int, refuse_above: int | None = None) -> None:
        self.limits = (soft, hard)
        self.refuse_above = refuse_above

    def getrlimit(self, which: int) -> tuple[int, int]:
        assert which == self.RLIMIT_NOFILE
        return self.limits

    def setrlimit(self, which: int, limits: tuple[int, int]) -> None:
        assert which == self.RLIMIT_NOFILE
        soft, hard = limits
        if hard != self.limits[1] or (self.refuse_above is not None and soft > self.refuse_above):
            raise ValueError("not allowed")
        self.limits = limits


def test_the_soft_limit_is_raised_to_what_the_connections_need():
    limits = Limits()
    fake = FakeResource(1024, 1_000_000)
    fitted, line = fit_to_open_files(limits, fake)
    assert fake.limits == (limits.max_connections + overhead(limits), 1_000_000)
    assert fitted == limits
    assert (
        line
        == f"Room for {limits.max_connections} connections (open files limit {fake.limits[0]})."
    )


def test_short_of_the_hard_limit_the_connections_are_fewer_and_the_line_says_why():
    limits = Limits(max_connections=2000, max_bots=8)
    fake = FakeResource(256, 1024)
    fitted, line = fit_to_open_files(limits, fake)
    assert fake.limits == (1024, 1024)  # as high as it goes
    assert fitted.max_connections == 1024 - overhead(limits)
    assert fitted == Limits(max_connections=1024 - overhead(limits), max_bots=8)
    assert line.startswith(f"Room for {1024 - overhead(limits)} connections, not 2000:")


def test_a_limit_the_system_will_not_raise_is_kept_and_fitted():
    fake = FakeResource(512, 4096, refuse_above=600)
    fitted, _ = fit_to_open_files(Limits(), fake)
    assert fake.limits == (512, 4096)
    assert fitted.max_connections == 512 - overhead(Limits())


def test_a_soft_limit_already_high_enough_or_unlimited_is_left_alone():
    for soft, hard in ((50_000, 50_000), (-1, -1)):
        fake = FakeResource(soft, hard)
        assert fit_to_open_files(Limits(), fake)[0] == Limits()
        assert fake.limits == (soft, hard)


def test_too_few_descriptors_for_any_connection_leave_room_for_none():
    fitted, _ = fit_to_open_files(Limits(), FakeResource(64, 64))
    assert fitted.max_connections == 0


# --- a real server under a low limit -------------------------------------------------------------

OPEN_FILES = 256


def _low_limit() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (OPEN_FILES, OPEN_FILES))


def _first_reply(port: int, held: list[socket.socket]) -> dict[str, Any] | None:
    """Connect, say hello and read the first message (None if the server just closed).

    Each client comes from its own loopback address (127.0.x.y): the limit per address is not
    what this test is about."""
    n = len(held)
    source = (f"127.0.{1 + n // 200}.{1 + n % 200}", 0)
    client = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=source)
    held.append(client)
    client.sendall(frame(encode({"type": "hello", "version": 1, "name": f"c{len(held)}"})))
    data = b""
    while len(data) < 4 or len(data) < 4 + struct.unpack(">I", data[:4])[0]:
        try:
            chunk = client.recv(65536)
        except ConnectionResetError:
            return None
        if not chunk:
            return None
        data += chunk
    return decode(data[4 : 4 + struct.unpack(">I", data[:4])[0]], max_depth=None)


@pytest.mark.slow
def test_past_the_room_its_limit_leaves_a_server_rejects_rather_than_drops(tmp_path):
    command = "-m cosmoport serve --host 127.0.0.1 --port 0 --db :memory: --max-bots 0"
    server = subprocess.Popen(
        [sys.executable, *command.split()],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_low_limit,
        cwd=tmp_path,
    )
    held: list[socket.socket] = []
    try:
        assert server.stdout is not None
        lines = []
        # Everything up to the join hint, the room line included, is read here: what this
        # buffered reader has taken from the pipe would be lost to communicate() below.
        while not any("join with" in line for line in lines):
            line = server.stdout.readline()
            assert line, f"the server ended: {server.stderr.read() if server.stderr else ''}"
            lines.append(line)
        listening = next(line for line in lines if "listening on" in line)
        port = int(listening.rsplit(":", 1)[1])
        room = OPEN_FILES - overhead(Limits(max_bots=0))
        replies = [_first_reply(port, held) for _ in range(OPEN_FILES + 20)]
        kinds = [None if r is None else r["type"] for r in replies]
        assert kinds == ["welcome"] * room + ["reject"] * (OPEN_FILES + 20 - room)
        assert {r["code"] for r in replies[room:] if r is not None} == {"limit/server_full"}
        assert replies[0] is not None and replies[0]["limits"]["max_connections"] == room
    finally:
        for client in held:
            client.close()
        server.terminate()
        server.communicate(timeout=20)
    assert f"Room for {room} connections, not 2000" in "".join(lines)
