"""A bot program's real main (``cosmoport.bot.run``) against a fake server in the same process.

    python tests/ai/bot_ending_driver.py ORDER

The server seats the bot; then the table's closing (``left: closed``) and SIGTERM reach the bot
in the ORDER asked, at exact points of the bot's own message handling, as a server that closes
a bot's table sends both at once: ``closed`` (only the message), ``term`` (only the signal, once
seated), ``closed-term`` (the signal just after the bot has handled the message),
``term-closed`` (the signal just before it does).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from typing import Any

from twisted.internet import protocol, reactor
from twisted.protocols.basic import Int32StringReceiver

import client.net.connection
from cosmoport import bot as cli
from protocol import decode, encode

ORDER = sys.argv[1]
TABLE = {
    "id": 1,
    "game": "cosmic_run",
    "players": 2,
    "options": {},
    "seating": "random",
    "autostart": False,
    "state": "waiting",
    "seats": [],
    "spectators": 0,
    "version": 0,
}


class FakeServer(Int32StringReceiver):
    def stringReceived(self, body: bytes) -> None:
        msg = decode(body)
        if msg["type"] == "hello":
            welcome = {"version": 1, "server": "fake", "name": msg["name"], "games": []}
            self.send({"type": "welcome", "id": msg.get("id"), "limits": {}, **welcome})
        elif msg["type"] == "join":
            self.send({"type": "joined", "id": msg.get("id"), "table": TABLE, "slot": 0})
            if "closed" in ORDER:
                self.send({"type": "left", "table": 1, "reason": "closed"})

    def send(self, msg: dict[str, Any]) -> None:
        self.sendString(encode(msg))


def terminate() -> None:
    os.kill(os.getpid(), signal.SIGTERM)  # its handler runs before the next line


handle = client.net.connection.Connection.stringReceived


def string_received(self: Any, body: bytes) -> None:
    kind = decode(body, max_depth=None).get("type")
    if kind == "left" and ORDER == "term-closed":
        terminate()
    handle(self, body)
    if (kind, ORDER) in (("left", "closed-term"), ("joined", "term")):
        terminate()


client.net.connection.Connection.stringReceived = string_received  # type: ignore[method-assign]
listening = reactor.listenTCP(0, protocol.Factory.forProtocol(FakeServer), interface="127.0.0.1")
parser = argparse.ArgumentParser()
cli.add_arguments(parser)
address = f"127.0.0.1:{listening.getHost().port}"
sys.exit(cli.run(parser.parse_args([address, "--table", "1", "--level", "random"])))
