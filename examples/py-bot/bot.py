#!/usr/bin/env python3
"""A minimal random Cosmoport bot: the Python standard library and msgpack, nothing else.

Written from PROTOCOL.md alone. It connects, says hello, takes its seat and plays a random legal
action whenever its seat must decide, until the game is over or its table closes. If the
connection drops, it connects again and takes its seat back with the latest token it was given.

    python bot.py [HOST:PORT] [--table ID] [--name NAME] [--seed N]

The server is HOST:PORT, else $COSMOPORT_SERVER, else 127.0.0.1:7777. With $COSMOPORT_SEAT_TOKEN
set (a tournament or `add_bot` started it) it takes that seat with `resume`; otherwise it joins
the waiting table --table ID and plays once someone starts it.
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import struct
import sys
import time
from typing import Any

import msgpack

VERSIONS = [2, 1]  # the protocol versions this bot speaks, newest first (section 3)
MAX_SERVER_FRAME = 1 << 20  # a client must accept frames up to 1 MiB (section 1)
RETRIES = (0.1, 0.3, 1.0, 2.0, 4.0)  # seconds before each attempt to connect again


def log(text: str) -> None:
    print(f"py-bot: {text}", file=sys.stderr, flush=True)


class Connection:
    """Frames over TCP: a 4-byte big-endian length, then one msgpack map."""

    def __init__(self, server: str) -> None:
        host, _, port = server.rpartition(":")
        self.sock = socket.create_connection((host or "127.0.0.1", int(port)), timeout=30)
        self.sock.settimeout(None)  # a game may wait a long time for the other seats
        self.buffer = b""
        self.next_id = 0

    def send(self, msg: dict[str, Any], with_id: bool = True) -> int | None:
        """Send ``msg``; a request gets a fresh integer id, which the reply echoes."""
        request_id = None
        if with_id:
            self.next_id += 1  # small integers: well under 2^53 - 1, sent as msgpack integers
            request_id = self.next_id
            msg = {**msg, "id": request_id}
        body = msgpack.packb(msg, use_bin_type=True)
        self.sock.sendall(struct.pack("!I", len(body)) + body)
        return request_id

    def _read(self, size: int) -> bytes | None:
        while len(self.buffer) < size:
            chunk = self.sock.recv(65536)
            if not chunk:
                return None
            self.buffer += chunk
        data, self.buffer = self.buffer[:size], self.buffer[size:]
        return data

    def receive(self) -> dict[str, Any] | None:
        """The next message, or None once the server has closed the connection."""
        header = self._read(4)
        if header is None:
            return None
        (length,) = struct.unpack("!I", header)
        if length > MAX_SERVER_FRAME:
            raise ConnectionError(f"a frame of {length} bytes from the server")
        body = self._read(length)
        if body is None:
            return None
        msg = msgpack.unpackb(body, raw=False)
        if not isinstance(msg, dict):
            raise ConnectionError("the server sent something that is not a map")
        return msg

    def close(self) -> None:
        self.sock.close()


class Seat:
    """What outlives a connection: the latest seat token."""

    def __init__(self, token: str | None) -> None:
        self.token = token


def play(conn: Connection, name: str, seat: Seat, table: int | None, rng: Any) -> int | None:
    """Play on one connection; the exit status (0: the game ended or the table closed), or None
    if the connection dropped before that."""
    hello = {"type": "hello", "version": VERSIONS[0], "versions": VERSIONS, "name": name}
    conn.send({**hello, "client": "py-bot"})
    if seat.token:
        seat_request = conn.send({"type": "resume", "token": seat.token})
    else:
        seat_request = conn.send({"type": "join", "table": table})
    last: dict[str, Any] | None = None  # the latest snapshot or update
    sent: Any = None  # the action last sent
    refused: list[Any] = []  # actions refused as illegal at last["version"]

    def act() -> None:
        nonlocal sent
        assert last is not None
        choices = [c["action"] for c in last["legal"] if c["action"] not in refused]
        if choices:
            sent = rng.choice(choices)
            conn.send({"type": "act", "version": last["version"], "action": sent})

    while True:
        msg = conn.receive()
        if msg is None:
            return None
        kind = msg.get("type")
        if kind == "ping":  # answer at once, echoing the id if there is one
            conn.send({"type": "pong", **({"id": msg["id"]} if "id" in msg else {})}, False)
        elif kind in ("joined", "resumed"):
            seat.token = msg["token"]  # kept before the pong that retires the old one
            log(f"seated at table {msg['table']['id']}, place {msg['slot']}")
        elif kind in ("snapshot", "update"):
            last, refused = msg, []
            if msg.get("legal"):  # not empty: this seat must decide now
                act()
        elif kind == "game_over":
            log(f"game over: scores {msg.get('scores')}, ranking {msg.get('ranking')}")
            return 0
        elif kind == "left" and msg.get("reason") == "closed":
            log("the table was closed")
            return 0
        elif kind in ("error", "reject"):
            code = msg.get("code", "")
            log(f"{kind} {code}: {msg.get('message')}")
            if kind == "reject" or msg.get("id") == seat_request:
                return 1  # no seat to play: nothing more to do
            if code == "action/illegal" and last is not None:
                refused.append(sent)  # never that one again at this version
                act()  # go on with another action of the same list
            # action/stale: someone else moved first; the update that says so is on its way
        # anything else (welcome, started, table_update, chat, seat_status...) needs nothing


def main() -> int:
    parser = argparse.ArgumentParser(description="A random Cosmoport bot.")
    parser.add_argument("server", nargs="?", default=os.environ.get("COSMOPORT_SERVER"))
    parser.add_argument("--table", type=int, help="join this waiting table (without a token)")
    parser.add_argument("--name", default="py-bot")
    parser.add_argument("--seed", type=int, help="for the same choices every time")
    args = parser.parse_args()
    seat = Seat(os.environ.get("COSMOPORT_SEAT_TOKEN"))
    if not seat.token and args.table is None:
        parser.error("give --table ID, or set COSMOPORT_SEAT_TOKEN")
    rng = random.Random(args.seed)
    for delay in (0.0, *RETRIES):
        time.sleep(delay)
        try:
            conn = Connection(args.server or "127.0.0.1:7777")
        except OSError as error:
            log(f"cannot connect: {error}")
            continue
        try:
            status = play(conn, args.name, seat, args.table, rng)
        except OSError:  # reset, broken pipe: like a close
            status = None
        finally:
            conn.close()
        if status is not None:
            return status
        if not seat.token:
            return 1  # never seated: nothing to come back to
        log("the connection dropped: connecting again")
    log("could not get back to the server")
    return 1


if __name__ == "__main__":
    sys.exit(main())
