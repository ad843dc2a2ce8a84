"""A small scripted client over real TCP, for the end-to-end tests and the benchmark.

It frames with ``Int32StringReceiver``, answers the server's pings, queues what it receives and
lets a test ``await client.expect("joined")``. :class:`RandomPlayer` acts whenever the server
lists legal actions for it, choosing with its own seeded generator.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from twisted.internet import defer, protocol
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.protocols.basic import Int32StringReceiver

from protocol import MAX_SERVER_FRAME, check_server_message, decode, encode


class ScriptedClient(Int32StringReceiver):
    MAX_LENGTH = MAX_SERVER_FRAME

    def __init__(self) -> None:
        self.inbox: list[dict[str, Any]] = []
        self.log: list[dict[str, Any]] = []
        self._waiting: list[tuple[frozenset[str], defer.Deferred[dict[str, Any]]]] = []
        self.on_message: Callable[[dict[str, Any]], None] | None = None
        self.closed: defer.Deferred[None] = defer.Deferred()
        self._ids = 0

    def stringReceived(self, body: bytes) -> None:
        msg = decode(body, max_depth=None)
        check_server_message(msg)
        self.log.append(msg)
        if msg["type"] == "ping":
            self.send({"type": "pong", **({"id": msg["id"]} if "id" in msg else {})})
            return
        for i, (kinds, waiter) in enumerate(self._waiting):
            if msg["type"] in kinds:
                del self._waiting[i]
                waiter.callback(msg)
                return
        if self.on_message is not None:
            self.on_message(msg)
        else:
            self.inbox.append(msg)

    def connectionLost(self, reason: Any = protocol.connectionDone) -> None:
        for _, waiter in self._waiting:
            waiter.errback(reason)
        self._waiting = []
        if not self.closed.called:
            self.closed.callback(None)

    def send(self, msg: dict[str, Any]) -> None:
        self.sendString(encode(msg))

    def request(self, msg: dict[str, Any]) -> int:
        self._ids += 1
        self.send({**msg, "id": self._ids})
        return self._ids

    def expect(self, *kinds: str) -> defer.Deferred[dict[str, Any]]:
        """The next message of one of ``kinds`` (earlier queued ones first)."""
        for i, msg in enumerate(self.inbox):
            if msg["type"] in kinds:
                del self.inbox[i]
                return defer.succeed(msg)
        waiter: defer.Deferred[dict[str, Any]] = defer.Deferred()
        self._waiting.append((frozenset(kinds), waiter))
        return waiter

    async def call(self, msg: dict[str, Any], *kinds: str) -> dict[str, Any]:
        self.request(msg)
        reply = await self.expect(*kinds, "error")
        if reply["type"] == "error":
            raise AssertionError(f"{msg['type']} refused: {reply}")
        return reply


async def connect(reactor: Any, port: int, name: str) -> ScriptedClient:
    endpoint = TCP4ClientEndpoint(reactor, "127.0.0.1", port, timeout=5)
    client = await connectProtocol(endpoint, ScriptedClient())
    await client.call({"type": "hello", "version": 1, "name": name}, "welcome")
    return client


class RandomPlayer:
    """Plays whatever the server lists for it, at random; fires ``done`` at ``game_over``."""

    def __init__(self, client: ScriptedClient, rng: random.Random) -> None:
        self.rng = rng
        self.done: defer.Deferred[dict[str, Any]] = defer.Deferred()
        self.actions = 0
        self._milestones: list[tuple[int, defer.Deferred[None]]] = []
        self.client = client
        self.attach(client)

    def after(self, actions: int) -> defer.Deferred[None]:
        """Fires once this player has sent ``actions`` actions (or at the game's end)."""
        waiter: defer.Deferred[None] = defer.Deferred()
        if self.actions >= actions or self.done.called:
            waiter.callback(None)
        else:
            self._milestones.append((actions, waiter))
        return waiter

    def attach(self, client: ScriptedClient) -> None:
        self.client = client
        client.on_message = self.handle
        for msg in client.inbox:
            self.handle(msg)
        client.inbox = []

    def handle(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind in ("snapshot", "update") and msg["legal"]:
            choice = self.rng.choice(msg["legal"])["action"]
            self.actions += 1
            self.client.request({"type": "act", "version": msg["version"], "action": choice})
            self._reached()
        elif kind == "game_over" and not self.done.called:
            self.done.callback(msg)
            self._reached()
        elif kind == "error":
            raise AssertionError(f"the server refused a random player: {msg}")

    def _reached(self) -> None:
        due = [w for n, w in self._milestones if self.actions >= n or self.done.called]
        self._milestones = [(n, w) for n, w in self._milestones if w not in due]
        for waiter in due:
            waiter.callback(None)
