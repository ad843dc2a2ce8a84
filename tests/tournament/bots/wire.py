"""Just enough of the protocol for the test programs: frames, hello, resume, pings."""

from __future__ import annotations

import os
import random
import socket
import struct
import sys
from typing import Any

import msgpack


class Link:
    """One connection: 4-byte big-endian length, then a msgpack map; pings answered."""

    def __init__(self, server: str) -> None:
        host, port = server.rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=60)

    def send(self, msg: dict[str, Any]) -> None:
        body = msgpack.packb(msg)
        self.sock.sendall(struct.pack("!I", len(body)) + body)

    def _read(self, size: int) -> bytes | None:
        data = b""
        while len(data) < size:
            chunk = self.sock.recv(size - len(data))
            if not chunk:
                return None
            data += chunk
        return data

    def receive(self) -> dict[str, Any] | None:
        """The next message that is not a ping (None once the server has closed)."""
        while True:
            header = self._read(4)
            body = None if header is None else self._read(struct.unpack("!I", header)[0])
            if body is None:
                return None
            msg = msgpack.unpackb(body, raw=False)
            if msg.get("type") != "ping":
                return msg
            self.send({"type": "pong", **({"id": msg["id"]} if "id" in msg else {})})

    def take_seat(self, token: str) -> None:
        self.send({"type": "hello", "version": 1, "name": "test program", "id": 1})
        self.send({"type": "resume", "token": token, "id": 2})

    def close(self) -> None:
        self.sock.close()


def say(text: str) -> None:
    print(f"pid {os.getpid()}: {text}", file=sys.stderr, flush=True)


def play(server: str, token: str, choose: Any = None) -> None:
    """Take the seat and play ``choose(legal)`` (a random legal action) until the game is over
    or the table closed."""
    rng = random.Random(os.getpid())
    choose = choose or (lambda legal: rng.choice(legal)["action"])
    link = Link(server)
    link.take_seat(token)
    while True:
        msg = link.receive()
        if msg is None or msg["type"] == "game_over":
            break
        if msg["type"] == "left" and msg.get("reason") == "closed":
            break
        if msg["type"] in ("snapshot", "update") and msg.get("legal"):
            action = choose(msg["legal"])
            link.send({"type": "act", "version": msg["version"], "action": action})
    link.close()
