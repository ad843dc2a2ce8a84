"""The referee's server: the real Cosmoport server, with every frame of every connection on record.

:class:`RefereeFactory` is :class:`server.service.ServerFactory` with one change: its
connections (:class:`RefereeConnection`) write down each frame the client sends (a
:class:`Frame`: when, how big, what it decoded to, which errors the server answered it with, and
whether it was an action the table applied) and each message the server sends back, in a
:class:`Wire` per connection, and tell an :class:`Observer` (the scenario being run, or the
strict server of ``--as-server``). The observer may have the referee refuse a frame itself
(:attr:`Frame.forge`): the refusal is made the way the server makes its own (the frame is
counted against the rate first, then answered by the session's ``fail``).

Everything else (validation, session states, tables, rate limits, tokens) is the server's own
code, unchanged: what the kit reports is what a real server would have answered.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from protocol import ProtocolError, decode, depth_for
from server.connection import Connection
from server.hub import Hub
from server.limits import Limits
from server.service import ServerFactory
from server.transport import use_direct_writes

HOST = "127.0.0.1"
BOTS_GRACE = 3.0
"""Seconds the bot programs the server started (``add_bot``) have to end once it stops."""


def ping_key(value: Any) -> tuple[str, Any]:
    """A ping id as a dictionary key that tells ``1``, ``"1"`` and ``True`` apart."""
    return (type(value).__name__, value)


def shown(msg: dict[str, Any] | None, width: int = 100) -> str:
    """A client message as one short line (a token shown as ``"…"``: it is a secret)."""
    if msg is None:
        return "a frame that is not valid msgpack"
    parts = []
    for key, value in msg.items():
        text = '"…"' if key == "token" and isinstance(value, str) else _value(value)
        parts.append(f"{key}: {text}")
    line = "{" + ", ".join(parts) + "}"
    return line if len(line) <= width else line[: width - 2] + "…}"


def spoken(wires: list[Wire]) -> str:
    """The protocol version the program spoke, for the report: ``protocol version 2 (hello:
    version 2, versions [2, 1])``, one entry per different hello."""
    said: dict[str, None] = {}
    for wire in wires:
        if wire.hello is None:
            continue
        asked = ", ".join(f"{key} {_value(value)}" for key, value in wire.hello.items())
        if wire.version is None:
            said[f"no protocol version (none in common, or refused; hello: {asked})"] = None
        else:
            said[f"protocol version {wire.version} (hello: {asked})"] = None
    return "; ".join(said) or "no hello"


def _value(value: Any) -> str:
    if isinstance(value, str):
        return '"' + value + '"'
    if value is None:
        return "nil"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_value(v)}" for k, v in value.items()) + "}"
    return repr(value)


@dataclass(eq=False)
class Frame:
    """One frame a client sent."""

    wire: Wire
    number: int  # 1 for the first frame of its connection
    at: float  # the reactor's clock
    size: int
    msg: dict[str, Any] | None  # None: it did not decode
    errors: list[dict[str, Any]] = field(default_factory=list)  # `error`/`reject` answers
    applied: bool = False  # an `act` or `undo` the table applied (not counted by the rate)
    forge: ProtocolError | None = None  # the referee refuses it with this (set by the observer)
    provoked: str = ""  # the code of a refusal the referee caused on purpose
    excused: bool = False  # a refusal that follows from a provoked one (see conformance.run)

    @property
    def kind(self) -> str:
        if self.msg is None:
            return "(not a message)"
        value = self.msg.get("type")
        return value if isinstance(value, str) else "(no type)"

    @property
    def refusals(self) -> list[dict[str, Any]]:
        """The errors held against the client: not the provoked one, nor an excused one."""
        if self.provoked or self.excused:
            return []
        return self.errors


@dataclass
class Ping:
    """A ``ping`` with an ``id`` sent to a client, and its answer."""

    id: Any
    at: float
    index: int  # its place among the messages sent on its connection
    answered: float | None = None  # when the pong came
    missed: str = ""  # why it counts as unanswered, once it does


class Wire:
    """The record of one connection: the frames received, the messages sent, the pings."""

    def __init__(self, number: int, opened: float, observer: Observer) -> None:
        self.number = number
        self.opened = opened
        self.observer = observer
        self.closed: float | None = None
        self.dropped = False  # the referee cut it
        self.frames: list[Frame] = []
        self.sent = 0  # messages sent so far
        self.welcomed = False
        self.hello: dict[str, Any] | None = None  # the first hello's `version` and `versions`
        self.version: int | None = None  # the protocol version `welcome` agreed on
        self.pings: dict[tuple[str, Any], Ping] = {}
        self.bad_pongs: list[tuple[Frame, str]] = []
        self.read_upto = -1  # the last message sent that the client demonstrably read
        self._updates: dict[int, int] = {}  # version -> index of the last snapshot/update
        self.errors_unasked: list[dict[str, Any]] = []  # errors outside any frame (timeouts)
        self.connection: RefereeConnection | None = None

    @property
    def is_open(self) -> bool:
        return self.closed is None

    def received(self, body: bytes, now: float) -> Frame:
        try:
            msg: dict[str, Any] | None = decode(body, max_depth=depth_for(self.version))
        except ProtocolError:
            msg = None
        frame = Frame(self, len(self.frames) + 1, now, len(body), msg)
        self.frames.append(frame)
        if msg is not None:
            if msg.get("type") == "hello" and self.hello is None:
                self.hello = {k: msg[k] for k in ("version", "versions") if k in msg}
            self._note_reading(frame, msg, now)
        return frame

    def _note_reading(self, frame: Frame, msg: dict[str, Any], now: float) -> None:
        """Pongs answer pings; an `act` at a version shows the client read that update."""
        kind = msg.get("type")
        if kind == "pong":
            if "id" not in msg:
                if any(p.answered is None for p in self.pings.values()):
                    self.bad_pongs.append((frame, "a pong without the ping's id"))
                return
            ping = self.pings.get(ping_key(msg["id"]))
            if ping is None or ping.answered is not None:
                why = "a second pong for" if ping is not None else "a pong with an id no ping had:"
                self.bad_pongs.append((frame, f"{why} {_value(msg['id'])}"))
                return
            ping.answered = now
            self.read_upto = max(self.read_upto, ping.index)
        elif kind in ("act", "undo") and isinstance(msg.get("version"), int):
            index = self._updates.get(msg["version"])
            if index is not None:
                self.read_upto = max(self.read_upto, index)

    def note_sent(self, msg: dict[str, Any], frame: Frame | None, now: float) -> None:
        kind = msg.get("type")
        index = self.sent
        self.sent += 1
        if kind == "welcome":
            self.welcomed = True
            self.version = msg.get("version")
        elif kind in ("snapshot", "update") and isinstance(msg.get("version"), int):
            self._updates[msg["version"]] = index
        elif kind == "ping" and "id" in msg:
            self.pings[ping_key(msg["id"])] = Ping(msg["id"], now, index)
        elif kind in ("error", "reject"):
            if frame is not None:
                frame.errors.append(msg)
            else:
                self.errors_unasked.append(msg)

    def close_pings(self) -> None:
        """The connection is over: a ping still unanswered though the client went on to read
        (and answer) later messages was ignored."""
        for ping in self.pings.values():
            if ping.answered is None and not ping.missed and ping.index < self.read_upto:
                ping.missed = "never answered, though it answered messages sent after it"


class Observer(Protocol):
    """Who follows the frames of a referee's connections (set on the factory; each connection
    keeps the observer it was opened under)."""

    def connected(self, wire: Wire) -> None: ...

    def before(self, frame: Frame) -> None:
        """A frame arrived: the observer may set ``frame.forge`` (or change the table)."""

    def after(self, frame: Frame) -> None:
        """The server has handled ``frame`` (its replies are sent)."""

    def sent(self, wire: Wire, msg: dict[str, Any]) -> None: ...

    def lost(self, wire: Wire) -> None: ...


class Idle:
    """An observer that only keeps the record (between runs: nobody should connect)."""

    def connected(self, wire: Wire) -> None:
        pass

    def before(self, frame: Frame) -> None:
        pass

    def after(self, frame: Frame) -> None:
        pass

    def sent(self, wire: Wire, msg: dict[str, Any]) -> None:
        pass

    def lost(self, wire: Wire) -> None:
        pass


class RefereeConnection(Connection):
    """A server connection that keeps a :class:`Wire`."""

    def __init__(self, factory: RefereeFactory, number: int) -> None:
        super().__init__(factory.hub, factory.connections, factory.reactor)
        self.clock = factory.reactor
        self.wire = Wire(number, self.clock.seconds(), factory.observer)
        self.wire.connection = self
        self._handling: Frame | None = None

    def connectionMade(self) -> None:
        self.wire.observer.connected(self.wire)
        super().connectionMade()

    def stringReceived(self, body: bytes) -> None:
        if self._closing or self.session is None:
            return
        frame = self.wire.received(body, self.clock.seconds())
        self.wire.observer.before(frame)
        self._handling = frame
        try:
            if frame.forge is not None:
                session = self.session
                if session.admit():  # counted like any frame, then refused as the server does
                    msg = frame.msg or {}
                    session.fail(frame.forge, msg.get("id"), frame.kind)
                    session.lobby.flush()
            else:
                super().stringReceived(body)
        finally:
            self._handling = None
        self.wire.observer.after(frame)

    def lengthLimitExceeded(self, length: int) -> None:
        frame = Frame(self.wire, len(self.wire.frames) + 1, self.clock.seconds(), length, None)
        self.wire.frames.append(frame)
        self._handling = frame
        try:
            super().lengthLimitExceeded(length)
        finally:
            self._handling = None

    def send(self, msg: dict[str, Any]) -> None:
        if not self._closing and self.transport is not None:
            self.wire.note_sent(msg, self._handling, self.clock.seconds())
            self.wire.observer.sent(self.wire, msg)
        super().send(msg)

    def abort(self) -> None:
        """Close at once, whatever is still to be sent."""
        transport: Any = self.transport
        if transport is not None:
            transport.abortConnection()

    def cut(self) -> None:
        """The referee drops this connection (what was sent still goes out first)."""
        self.wire.dropped = True
        self.close()

    def connectionLost(self, reason: Any = None) -> None:
        super().connectionLost(reason)
        if self.wire.closed is None:
            self.wire.closed = self.clock.seconds()
            self.wire.close_pings()
            self.wire.observer.lost(self.wire)


class RefereeFactory(ServerFactory):
    """The server's factory, building :class:`RefereeConnection` under ``observer``."""

    def __init__(self, reactor: Any, limits: Limits, observer: Observer, **options: Any) -> None:
        super().__init__(reactor, limits, **options)
        self.observer = observer
        self._count = 0

    def buildProtocol(self, addr: Any) -> RefereeConnection:
        self._count += 1
        conn = RefereeConnection(self, self._count)
        conn.factory = self
        return conn

    @property
    def port_number(self) -> int:
        return int(self.listening.getHost().port)

    def listen(self) -> None:
        """Listen on 127.0.0.1, any free port."""
        self.listening: Any = self.reactor.listenTCP(0, self, interface=HOST)
        use_direct_writes(self.listening)
        self.hub.bots.address = (HOST, self.port_number)

    def stop_now(self) -> None:
        """Close every connection, stop listening and stop the bots the server started, without
        waiting for any of it (nothing here may wait: this also runs as the kit is interrupted)."""
        hub: Hub = self.hub
        if hub.shutting_down:
            return
        hub.shutdown()
        for conn in list(self.connections):
            if isinstance(conn, RefereeConnection):
                conn.abort()
        self.listening.stopListening()

    async def stop(self) -> None:
        """:meth:`stop_now`, then wait a moment for the bot programs to end."""
        self.stop_now()
        idle = self.hub.bots.when_idle().addTimeout(BOTS_GRACE, self.reactor)
        await idle.addErrback(lambda _: None)
