"""Shared helpers for the client tests: an in-memory network, a scripted console, positions.

:class:`Network` runs the real server (``server.service.listen``) and real clients on one
``MemoryReactorClock``; connections are completed and bytes moved by ``twisted.test.iosim``
pumps, so whole games run with no socket and no sleep. :class:`FakeClient` stands in for the
server when a console test wants to script the replies itself.
"""

from __future__ import annotations

import random
from typing import Any

from twisted.internet import defer
from twisted.internet.testing import MemoryReactorClock
from twisted.test.iosim import ConnectionCompleter, IOPump

import games
from client.console.commands import Console
from client.console.screen import Screen
from client.net.connection import ServerError
from client.net.session import Client
from client.text.style import Style, strip
from server.limits import Limits
from server.service import listen

HOST, PORT = "127.0.0.1", 7777


class Network:
    """A server and any number of clients on one fake reactor."""

    def __init__(self, seed: int = 1, limits: Limits | None = None) -> None:
        self.reactor = MemoryReactorClock()
        self.port, self.factory = listen(
            self.reactor,
            HOST,
            PORT,
            limits or Limits(rate=1e6, burst=10**6),
            rng=random.Random(seed),
        )
        self.factory.startFactory()
        self.completer = ConnectionCompleter(self.reactor)
        self.pumps: list[IOPump] = []

    def run(self, rounds: int = 100_000) -> None:
        """Connect whoever is connecting and move bytes until everything is quiet."""
        for _ in range(rounds):
            while (pump := self.completer.succeedOnce()) is not None:
                self.pumps.append(pump)
            moved = [pump.pump() for pump in self.pumps]
            self.pumps = [p for p in self.pumps if not _closed(p)]
            if not any(moved):
                return  # (connection attempts to nowhere stay pending: see refuse_connections)
        raise AssertionError("the network never went quiet")

    def advance(self, seconds: float, step: float = 1.0) -> None:
        """Let ``seconds`` pass in steps, running the network after each."""
        while seconds > 0:
            self.reactor.advance(min(step, seconds))
            seconds -= step
            self.run()

    def refuse_connections(self) -> None:
        """Every pending connection attempt fails (the server is unreachable)."""
        while self.reactor.tcpClients:
            self.completer.failOnce()

    def drop(self, client: Client) -> None:
        """The network fails under ``client``: both ends see the connection lost."""
        conn = client.connection
        for pump in self.pumps:
            if pump.client is conn or getattr(pump.client, "_wrappedProtocol", None) is conn:
                pump.clientIO.abortConnection()
        self.run()

    def client(self, name: str, **kwargs: Any) -> Client:
        client = Client(self.reactor, HOST, PORT, name, **kwargs)
        return client


def _closed(pump: IOPump) -> bool:
    return bool(pump.clientIO.disconnected and pump.serverIO.disconnected)


def result(d: defer.Deferred[Any]) -> Any:
    """The result of a Deferred that has fired (raises its failure)."""
    box: list[Any] = []

    def keep(value: Any) -> Any:
        box.append(value)
        return value

    d.addBoth(keep)
    assert box, "the Deferred has not fired"
    if hasattr(box[0], "raiseException"):
        box[0].raiseException()
    return box[0]


class Typist:
    """A console with a captured screen, driven line by line."""

    def __init__(self, client: Any, colour: bool = False, **kwargs: Any) -> None:
        self.out: list[str] = []
        self.screen = Screen(self.out.append, Style(colour))
        self.console = Console(client, self.screen, on_quit=self.quit, **kwargs)
        self.exit_code: int | None = None

    def quit(self, code: int) -> None:
        self.exit_code = code

    @property
    def text(self) -> str:
        return strip("".join(self.out))

    def take(self) -> str:
        """What was written since the last call (colour codes stripped)."""
        text = self.text
        self.out.clear()
        return text

    def type(self, line: str) -> None:
        self.console.line(line)


class FakeClient:
    """The console's client, scripted by the test: requests are recorded, replies given by hand."""

    def __init__(self, name: str = "Ann") -> None:
        self.name = name
        self.token: str | None = None
        self.sent: list[dict[str, Any]] = []
        self.waiting: list[defer.Deferred[dict[str, Any]]] = []

    def request(self, msg: dict[str, Any]) -> defer.Deferred[dict[str, Any]]:
        self.sent.append(msg)
        d: defer.Deferred[dict[str, Any]] = defer.Deferred()
        self.waiting.append(d)
        return d

    def reply(self, msg: dict[str, Any]) -> None:
        self.waiting.pop(0).callback(msg)

    def refuse(self, code: str, message: str = "no") -> None:
        self.waiting.pop(0).errback(ServerError(code, message))


def legal_of(state: Any) -> list[dict[str, Any]]:
    return [{"action": list(a), "label": state.label(a)} for a in state.legal_actions()]


def position(game: str, players: int, seed: int, steps: int, chooser_seed: int = 0) -> Any:
    """A state after ``steps`` random actions (fewer if the game ends first)."""
    state = games.get(game).new(players, seed)
    rng = random.Random(chooser_seed)
    for _ in range(steps):
        if state.is_over:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def table_map(table_id: int, game: str, names: list[str | None], state: str = "waiting") -> dict:
    return {
        "id": table_id,
        "game": game,
        "players": len(names),
        "options": {},
        "seating": "random",
        "autostart": False,
        "state": state,
        "seats": [None if n is None else {"name": n, "connected": True} for n in names],
        "spectators": 0,
        "version": 0,
    }
