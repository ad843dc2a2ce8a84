"""Bots that are ordinary network clients: they connect, take a seat and play what they choose.

A :class:`NetworkBot` drives one seat over a :class:`client.net.session.Client`: whenever the
server lists legal actions for it, it asks its *chooser* and sends the choice (after a short
``delay``, so a person watching can follow). A chooser has one method,
``choose(view, legal) -> action`` where ``legal`` is the list of legal actions (tuples); it may
return a Deferred, so a slow search can run in a thread or another process.

:func:`start_bots` seats in-process :class:`RandomChooser` bots named ``Random bot 1``, ``Random
bot 2``...: what ``cosmoport play --bots random`` uses (other levels are bot programs the server
starts, see ``add_bot``). ``cosmoport bot`` drives the search bots through :class:`NetworkBot`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from twisted.internet import defer
from twisted.logger import Logger
from twisted.python.failure import Failure

from client.net.connection import ConnectionClosed, ServerError
from client.net.session import Client

_log = Logger()

Action = tuple[Any, ...]

MAX_REFUSED = 3
"""Actions refused in a row (none applied between) after which a bot gives up its seat."""


class Chooser(Protocol):
    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Any:
        """One of ``legal`` (or a Deferred firing with one)."""
        ...


class RandomChooser:
    """Picks uniformly among the legal actions, with its own generator."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]


class NetworkBot:
    """One seat played by ``chooser`` through ``client``; ``done`` fires at the game's end."""

    def __init__(self, reactor: Any, client: Client, chooser: Chooser, delay: float = 0.0) -> None:
        self.reactor = reactor
        self.client = client
        self.chooser = chooser
        self.delay = delay
        self.done: defer.Deferred[dict[str, Any]] = defer.Deferred()
        self.actions = 0
        self._latest = -1
        self._timer: Any = None
        self._fallback = random.Random(0)
        self._refused = 0  # actions refused in a row (action/illegal, not_your_turn...)
        client.on_message = self.handle

    def handle(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind in ("snapshot", "update"):
            version = msg.get("version")
            if not isinstance(version, int):
                return
            if kind == "update" and version < self._latest:
                return  # a snapshot is the game as of now, whatever we held (tracker.receive)
            self._latest = version
            view = msg.get("view") or {}
            if kind == "snapshot" and view.get("is_over"):
                # Back after a reconnection, the game is over: game_over went to the old link.
                self._finish({"type": "game_over", "scores": view.get("scores")})
                return
            legal = msg.get("legal") or []
            if legal:
                self._later(view, legal, version)
        elif kind == "game_over":
            self._finish(msg)

    def _finish(self, msg: dict[str, Any]) -> None:
        if not self.done.called:
            self.done.callback(msg)
            self.client.close()

    def _later(self, view: dict[str, Any], legal: list[dict[str, Any]], version: int) -> None:
        if self._timer is not None and self._timer.active():
            self._timer.cancel()
        self._timer = self.reactor.callLater(self.delay, self._act, view, legal, version)

    def _act(self, view: dict[str, Any], legal: list[dict[str, Any]], version: int) -> None:
        if version != self._latest:
            return  # the game moved on while we waited
        actions = [tuple(item["action"]) for item in legal]
        d = defer.maybeDeferred(self.chooser.choose, view, actions)
        d.addErrback(self._chooser_failed, actions)
        d.addCallback(self._send, version)
        d.addErrback(self._failed)

    def _send(self, action: Action, version: int) -> Any:
        if version != self._latest:
            return None
        self.actions += 1
        msg = {"type": "act", "version": version, "action": list(action)}
        return self.client.request(msg).addCallback(self._applied)

    def _applied(self, reply: Any) -> Any:
        self._refused = 0
        return reply

    def _chooser_failed(self, failure: Failure, actions: list[Action]) -> Action:
        # A bug in the bot must not stall the table: play on at random.
        _log.failure("a bot's chooser failed; it plays a random legal action", failure)
        return actions[self._fallback.randrange(len(actions))]

    def _failed(self, failure: Failure) -> None:
        if failure.check(ServerError) and failure.value.code == "action/stale":
            return  # someone moved first; the next update asks again
        if failure.check(ConnectionClosed):
            return  # the client reconnects and the snapshot asks again
        self._refused += 1
        if failure.check(ServerError) and self._refused < MAX_REFUSED:
            # Refused, say as illegal by a strict server: the next snapshot or update asks
            # again (PROTOCOL.md 13), and the bot plays what it lists then.
            _log.warn("a bot's action was refused ({error}); it plays on",
                      error=failure.getErrorMessage())  # fmt: skip
            return
        # Refused again and again: something is wrong; stop rather than loop.
        _log.failure("a bot's action was refused; it leaves", failure)
        if not self.done.called:
            self.done.errback(failure)
        self.client.close()

    def close(self) -> defer.Deferred[None]:
        if self._timer is not None and self._timer.active():
            self._timer.cancel()
        return self.client.close()


async def start_bot(
    reactor: Any,
    host: str,
    port: int,
    table_id: int,
    name: str,
    chooser: Chooser,
    delay: float = 0.0,
) -> NetworkBot:
    """Connect a bot named ``name``, seat it at ``table_id``: the playing :class:`NetworkBot`."""
    client = Client(reactor, host, port, name, labels=False)  # a bot reads no labels
    bot = NetworkBot(reactor, client, chooser, delay)
    await client.start()
    try:
        await client.request({"type": "join", "table": table_id})
    except Exception:
        await client.close()
        raise
    return bot


def start_bots(
    reactor: Any,
    host: str,
    port: int,
    table_id: int,
    count: int,
    game: str,
    *,
    seed: int | None = None,
    delay: float = 0.0,
) -> defer.Deferred[list[NetworkBot]]:
    """Seat ``count`` bots at ``table_id`` of the server at ``host:port``, one after another.

    The hook that fills the empty seats of ``cosmoport play``: random-choice bots for now
    (``game`` is there for bots that need to know what they play).
    """
    rng = random.Random(seed)

    async def seat_all() -> list[NetworkBot]:
        bots = []
        for number in range(1, count + 1):
            chooser = RandomChooser(random.Random(rng.getrandbits(64)))
            name = f"Random bot {number}"
            bots.append(await start_bot(reactor, host, port, table_id, name, chooser, delay))
        return bots

    return defer.ensureDeferred(seat_all())
