"""Shared helpers for the server tests: a tiny test-only game, in-memory servers and clients.

``SecretRace`` implements the engine contract with one hidden per-seat secret (a unique string
that must never reach another seat), so the leak machinery can be tested independently of the
real engines. ``MemoryServer`` runs the real factory, connections and sessions over
``StringTransport`` on a ``MemoryReactorClock``: no sockets, no sleeps.
"""

from __future__ import annotations

import random
import struct
from collections.abc import Mapping
from typing import Any

from twisted.internet.address import IPv4Address
from twisted.internet.testing import MemoryReactorClock, StringTransport

import games
from ai.stand_in import greedy_stand_in
from protocol import PROTOCOL_VERSION, check_server_message, decode, encode, frame
from server.limits import Limits
from server.service import ServerFactory
from server.store import Store

# --- a tiny game with a secret ------------------------------------------------------------------


class SecretRaceState:
    """Race to ``target``: step 1 or 2, then a public die adds 0-2. Each seat has a secret."""

    def __init__(self, players: int, seed: int, target: int) -> None:
        self.rng = random.Random(seed)
        self.players = players
        self.target = target
        self.pos = [0] * players
        self.secrets = [f"SECRET{seat}x{self.rng.getrandbits(40):010x}" for seat in range(players)]
        self.turn = 0
        self.over = False

    @property
    def current_player(self) -> int | None:
        return None if self.over else self.turn

    @property
    def is_over(self) -> bool:
        return self.over

    def legal_actions(self) -> list[tuple[Any, ...]]:
        return [] if self.over else [("step", 1), ("step", 2)]

    def apply(self, action: tuple[Any, ...]) -> list[dict[str, Any]]:
        if tuple(action) not in self.legal_actions():
            raise games.IllegalAction(f"{action!r} is not legal")
        seat = self.turn
        die = self.rng.randrange(3)
        self.pos[seat] += action[1] + die
        events = [
            {"type": "stepped", "seat": seat, "by": action[1]},
            {"type": "die", "seat": seat, "value": die},
        ]
        if self.pos[seat] >= self.target:
            self.over = True
            events.append({"type": "finished", "seat": seat})
        else:
            self.turn = (seat + 1) % self.players
        return events

    def clone(self) -> SecretRaceState:
        other = SecretRaceState.__new__(SecretRaceState)
        other.__dict__.update(self.__dict__)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.pos = list(self.pos)
        other.secrets = list(self.secrets)
        return other

    def scores(self) -> list[int]:
        return list(self.pos)

    def ranking(self) -> list[list[int]]:
        groups: dict[int, list[int]] = {}
        for seat, pos in enumerate(self.pos):
            groups.setdefault(pos, []).append(seat)
        return [groups[p] for p in sorted(groups, reverse=True)]

    def view(self, seat: int | None) -> dict[str, Any]:
        return {
            "game": "secret_race",
            "players": self.players,
            "seat": seat,
            "current_player": self.current_player,
            "is_over": self.over,
            "scores": self.scores(),
            "ranking": self.ranking() if self.over else None,
            "positions": list(self.pos),
            "target": self.target,
            "secret": None if seat is None else self.secrets[seat],
        }

    def label(self, action: tuple[Any, ...]) -> str:
        return f"Step {action[1]}"


class SecretRace:
    name = "secret_race"
    title = "Secret Race"
    edition = "test"
    min_players = 1
    max_players = 4

    def new(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> SecretRaceState:
        games.api.check_players(self, players)
        options = dict(options or {})
        target = options.pop("target", 8)
        if options:
            raise ValueError(f"unknown options: {', '.join(sorted(options))}")
        if not isinstance(target, int) or not 1 <= target <= 100:
            raise ValueError("target must be an integer from 1 to 100")
        return SecretRaceState(players, seed, target)

    def determinize(self, view: dict[str, Any], seat: int | None, seed: int) -> SecretRaceState:
        raise NotImplementedError


SECRET_RACE = SecretRace()


class Registry:
    """The real games plus Secret Race; remembers how every state was made (for replays)."""

    def __init__(self) -> None:
        self.made: list[tuple[str, int, int, Any]] = []  # (game, players, seed, options)

    def names(self) -> list[str]:
        return sorted([*games.names(), SECRET_RACE.name])

    def get(self, name: str) -> Any:
        game = SECRET_RACE if name == SECRET_RACE.name else games.get(name)
        return _Recording(game, self.made)


class _Recording:
    def __init__(self, game: Any, made: list[tuple[str, int, int, Any]]) -> None:
        self._game = game
        self._made = made
        self.name = game.name
        self.title = game.title
        self.min_players = game.min_players
        self.max_players = game.max_players
        self.edition = getattr(game, "edition", "")

    def new(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> Any:
        state = self._game.new(players, seed, options)
        self._made.append((self.name, players, seed, options))
        return state

    def determinize(self, view: dict[str, Any], seat: int | None, seed: int) -> Any:
        return self._game.determinize(view, seat, seed)


# --- in-memory server and clients ---------------------------------------------------------------


def split_frames(data: bytes) -> list[bytes]:
    bodies = []
    while data:
        (length,) = struct.unpack("!I", data[:4])
        assert len(data) >= 4 + length, "truncated frame from the server"
        bodies.append(data[4 : 4 + length])
        data = data[4 + length :]
    return bodies


class MemoryClient:
    """One client connection to a :class:`MemoryServer`, with its own ``StringTransport``."""

    def __init__(self, server: MemoryServer, host: str = "10.0.0.1", port: int = 40000) -> None:
        self.server = server
        self.transport = StringTransport(peerAddress=IPv4Address("TCP", host, port))
        self.protocol = server.factory.buildProtocol(self.transport.getPeer())
        self.protocol.makeConnection(self.transport)
        self.log: list[dict[str, Any]] = []  # every message ever received, decoded
        self.frames: list[bytes] = []  # every frame body ever received, as sent
        self.token: str | None = None
        self._next_id = 1

    # sending
    def send_raw(self, data: bytes) -> None:
        self.protocol.dataReceived(data)

    def send(self, msg: dict[str, Any]) -> None:
        self.send_raw(frame(encode(msg)))

    def request(self, msg: dict[str, Any]) -> list[dict[str, Any]]:
        """Send ``msg`` with a fresh id and return everything received in response."""
        msg = {**msg, "id": self._next_id}
        self._next_id += 1
        self.send(msg)
        return self.received()

    # receiving
    def received(self) -> list[dict[str, Any]]:
        data = self.transport.value()
        self.transport.clear()
        messages = []
        for body in split_frames(data):
            self.frames.append(body)
            msg = decode(body, max_depth=None)
            check_server_message(msg)  # everything the server sends follows the catalogue
            messages.append(msg)
        self.log.extend(messages)
        return messages

    def one(self, kind: str, messages: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """The single message of type ``kind`` among ``messages`` (default: newly received)."""
        if messages is None:
            messages = self.received()
        found = [m for m in messages if m["type"] == kind]
        assert len(found) == 1, f"expected one {kind}, got {[m['type'] for m in messages]}"
        return found[0]

    def error(self, messages: list[dict[str, Any]] | None = None) -> str:
        """The code of the single error (or reject) among ``messages``."""
        if messages is None:
            messages = self.received()
        found = [m for m in messages if m["type"] in ("error", "reject")]
        assert len(found) == 1, f"expected one error, got {messages}"
        return str(found[0]["code"])

    @property
    def disconnected(self) -> bool:
        return bool(self.transport.disconnecting) or bool(
            getattr(self.transport, "disconnected", False)
        )

    def drop(self) -> None:
        """The network fails under this client: the server sees the connection lost."""
        from twisted.internet.error import ConnectionLost
        from twisted.python.failure import Failure

        self.protocol.connectionLost(Failure(ConnectionLost()))

    # conveniences
    def hello(self, name: str = "ann", **extra: Any) -> dict[str, Any]:
        return self.one(
            "welcome",
            self.request({"type": "hello", "version": PROTOCOL_VERSION, "name": name, **extra}),
        )

    def create(self, game: str = "secret_race", players: int = 2, **extra: Any) -> int:
        reply = self.one(
            "created", self.request({"type": "create", "game": game, "players": players, **extra})
        )
        return int(reply["table"]["id"])

    def join(self, table: int, **extra: Any) -> dict[str, Any]:
        reply = self.one("joined", self.request({"type": "join", "table": table, **extra}))
        self.token = reply["token"]
        return reply


class MemoryServer:
    """The real server stack on a fake clock, with helpers to add clients."""

    def __init__(
        self,
        limits: Limits | None = None,
        seed: int = 1,
        registry: Any = None,
        store: Store | None = None,
        clock: MemoryReactorClock | None = None,
    ) -> None:
        self.clock = clock or MemoryReactorClock()
        self.factory = ServerFactory(
            self.clock,
            limits or Limits(rate=1e9, burst=10**9, act_rate=1e9, act_burst=10**9),
            rng=random.Random(seed),
            registry=registry or Registry(),
            store=store,
            stand_in=greedy_stand_in,  # as `cosmoport serve` builds it
        )
        self.factory.startFactory()
        self.hub = self.factory.hub
        self.registry = self.hub.lobby.registry
        self._port = 40000

    def client(self, host: str = "10.0.0.1") -> MemoryClient:
        self._port += 1
        return MemoryClient(self, host, self._port)

    def greeted(self, name: str, host: str = "10.0.0.1") -> MemoryClient:
        client = self.client(host)
        client.hello(name)
        return client

    def advance(self, seconds: float, step: float = 1.0) -> None:
        """Move time on in ``step``-second increments so the sweep runs along the way."""
        remaining = seconds
        while remaining > 0:
            delta = min(step, remaining)
            self.clock.advance(delta)
            remaining -= delta

    def table_with(
        self, players: int = 2, game: str = "secret_race", start: bool = True, **create: Any
    ) -> tuple[int, list[MemoryClient]]:
        """A table of ``game`` with ``players`` greeted, seated clients (started by default)."""
        host = self.greeted("host")
        table = host.create(game, players, seating="fixed", **create)
        clients = [host]
        host.join(table, name="p0")
        for seat in range(1, players):
            client = self.greeted(f"p{seat}")
            client.join(table)
            clients.append(client)
        for client in clients:
            client.received()
        if start:
            host.one("started", host.request({"type": "start"}))
        return table, clients


def last_game_message(client: MemoryClient) -> dict[str, Any]:
    """The most recent snapshot or update the client received."""
    for msg in reversed(client.log):
        if msg["type"] in ("snapshot", "update"):
            return msg
    raise AssertionError("no game message received")


# One valid example of every client message (state checks come after validation).
VALID_MESSAGES: dict[str, dict[str, Any]] = {
    "hello": {"type": "hello", "version": 1, "name": "Zed"},
    "list": {"type": "list"},
    "create": {"type": "create", "game": "secret_race", "players": 2},
    "join": {"type": "join", "table": 1},
    "spectate": {"type": "spectate", "table": 1},
    "resume": {"type": "resume", "token": "no-such-token"},
    "leave": {"type": "leave"},
    "start": {"type": "start"},
    "act": {"type": "act", "version": 0, "action": ["step", 1]},
    "undo": {"type": "undo", "version": 0},
    "back": {"type": "back"},
    "add_bot": {"type": "add_bot", "level": "easy"},
    "chat": {"type": "chat", "text": "hello"},
    "ping": {"type": "ping"},
    "pong": {"type": "pong"},
    "history": {"type": "history"},
    "record": {"type": "record", "table": 1},
}


def play_random_game(
    server: MemoryServer,
    game: str,
    players: int,
    rng: random.Random,
    options: dict[str, Any] | None = None,
    spectators: int = 1,
) -> tuple[list[MemoryClient], list[MemoryClient], list[tuple[Any, ...]]]:
    """Seat ``players`` random-choice clients and some spectators, play through the protocol.

    Returns the seated clients, the spectators and the actions played in order.
    """
    host = server.greeted("host")
    extra = {"options": options} if options else {}
    table = host.create(game, players, **extra)
    clients = []
    for i in range(players):
        client = host if i == 0 else server.greeted(f"p{i}")
        client.join(table, name=f"p{i}")
        clients.append(client)
    watchers = []
    for i in range(spectators):
        watcher = server.greeted(f"w{i}")
        watcher.one("spectating", watcher.request({"type": "spectate", "table": table}))
        watchers.append(watcher)
    host.one("started", host.request({"type": "start"}))
    everyone = clients + watchers
    for client in everyone:
        client.received()
    actions: list[tuple[Any, ...]] = []
    while True:
        mover, last = None, None
        for client in clients:
            last = last_game_message(client)
            if last["legal"]:
                mover = client
                break
        if mover is None or last is None:
            break
        choice = rng.choice(last["legal"])["action"]
        got = mover.request({"type": "act", "version": last["version"], "action": choice})
        assert mover.one("update", got)["version"] == last["version"] + 1
        actions.append(tuple(choice))
        for client in everyone:
            client.received()
    return clients, watchers, actions
