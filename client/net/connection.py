"""Talking to a Cosmoport server: one connection (the session that survives dropped ones is
:class:`client.net.session.Client`, built on this).

Two layers, neither of which knows anything about consoles or games:

- :class:`Connection` is one TCP connection (a Twisted protocol). It frames with
  ``Int32StringReceiver`` and :mod:`protocol`'s codec, numbers requests and resolves each one's
  Deferred with the reply that echoes its ``id`` (or fails it with :class:`ServerError`), answers
  ``ping`` with ``pong``, watches for a silent server, and hands every other message to
  ``on_message``. :func:`connect` opens one and says ``hello``.
- :class:`Client` is a session with one server across connections: when a connection drops it
  reconnects (with growing delays), says ``hello`` again and takes its seat back with the last
  seat token (``resume``; the rotated token is kept), or watches its table again. Given a
  :class:`client.net.tokens.TokenStore` it also keeps its seat tokens on disk, so that a new process
  can take the seat back after this one was killed. The console and the bots use it.

Routing of what the server sends (PROTOCOL.md section 4):

- ``ping`` is answered at once and goes nowhere else.
- A message whose ``id`` names a pending request settles that request: ``error`` (and ``reject``)
  fail it with :class:`ServerError`, anything else is its result.
- Everything else goes to ``on_message``, and so do the requester's own copies of broadcasts
  (:data:`BROADCASTS`: the ``update`` after an ``act``, the ``chat`` one said, ``started``): one
  code path draws every game message, whoever caused it.

Time comes from the injected reactor (``IReactorTime``), so tests drive it with a fake clock.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from twisted.internet import defer, task
from twisted.internet.endpoints import TCP4ClientEndpoint, TCP6ClientEndpoint, connectProtocol
from twisted.logger import Logger
from twisted.protocols.basic import Int32StringReceiver
from twisted.python.failure import Failure

from protocol import (
    DISCONNECTING,
    MAX_SERVER_FRAME,
    SUPPORTED_VERSIONS,
    ProtocolError,
    decode,
    encode,
)

Message = dict[str, Any]
OnMessage = Callable[[Message], None]

CLIENT_NAME = "cosmoport-client 0.1"

BROADCASTS = frozenset({"update", "snapshot", "started", "chat", "game_over", "table_update"})
"""Reply types that are also broadcasts: besides settling the request they go to ``on_message``."""

QUIET_AFTER = 30.0
"""Seconds without a word from the server before the client pings it."""
DEAD_AFTER = 60.0
"""Seconds without a word from the server (not even a ``pong``) before the connection is cut."""
WATCH_EVERY = 5.0

_log = Logger()


class ServerError(Exception):
    """The server refused a request (an ``error`` or ``reject``): its ``code`` and ``message``."""

    def __init__(
        self, code: str, message: str, request: str | None = None, supported: Any = None
    ) -> None:
        super().__init__(code, message)
        self.code = code
        self.message = message
        self.request = request
        self.supported = supported if isinstance(supported, list) else []
        """With ``session/bad_version``: the protocol versions the server speaks."""

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    @classmethod
    def from_message(cls, msg: Message) -> ServerError:
        return cls(
            str(msg.get("code", "")),
            str(msg.get("message", "")),
            msg.get("request"),
            msg.get("supported"),
        )


class ConnectionClosed(Exception):
    """The connection ended (or was never there) before the request had its reply."""


# --- one connection ------------------------------------------------------------------------------


class Connection(Int32StringReceiver):
    """One connection to a server: requests with Deferred replies, pushes to ``on_message``.

    ``clock`` (an ``IReactorTime``) runs the silence watchdog; without one there is none.
    ``closed`` fires (with None) when the connection is gone; ``lost_reason`` then holds
    Twisted's reason and ``final_error`` the disconnecting error or reject the server sent
    last, if any.
    """

    MAX_LENGTH = MAX_SERVER_FRAME

    def __init__(self, clock: Any = None, on_message: OnMessage | None = None) -> None:
        self.clock = clock
        self.on_message = on_message
        self.welcome: Message | None = None
        self.final_error: ServerError | None = None
        self.closed: defer.Deferred[None] = defer.Deferred()
        self.lost_reason: Failure | None = None
        self._pending: dict[int, defer.Deferred[Message]] = {}
        self._next_id = 0
        self._last_heard = 0.0
        self._pinged = False
        self._watchdog: task.LoopingCall | None = None
        self._gone = False

    # --- Twisted callbacks ---------------------------------------------------------------

    def connectionMade(self) -> None:
        transport: Any = self.transport
        if hasattr(transport, "setTcpNoDelay"):
            transport.setTcpNoDelay(True)  # a game is interactive: never wait for Nagle
        if self.clock is not None:
            self._last_heard = self.clock.seconds()
            self._watchdog = task.LoopingCall(self._watch)
            self._watchdog.clock = self.clock
            self._watchdog.start(WATCH_EVERY, now=False)

    def stringReceived(self, body: bytes) -> None:
        if self.clock is not None:
            self._last_heard = self.clock.seconds()
            self._pinged = False
        try:
            msg = decode(body, max_depth=None)
        except ProtocolError as err:
            _log.warn("ignoring an undecodable frame from the server: {err}", err=err)
            return
        kind = msg.get("type")
        if not isinstance(kind, str):
            return
        if kind == "ping":
            self.send({"type": "pong", **({"id": msg["id"]} if "id" in msg else {})})
            return
        if kind in ("error", "reject") and (kind == "reject" or msg.get("code") in DISCONNECTING):
            self.final_error = ServerError.from_message(msg)
        if kind == "welcome":
            self.welcome = msg
        waiter = self._pending.pop(msg["id"], None) if _hashable(msg.get("id")) else None
        if waiter is not None:
            if kind in ("error", "reject"):
                waiter.errback(ServerError.from_message(msg))
            else:
                waiter.callback(msg)
            if kind not in BROADCASTS:
                return
        elif kind == "reject":
            self._fail_pending(ServerError.from_message(msg))
        self._deliver(msg)

    def connectionLost(self, reason: Failure | None = None) -> None:
        self._gone = True
        if self._watchdog is not None and self._watchdog.running:
            self._watchdog.stop()
        self._fail_pending(self.final_error or ConnectionClosed("the connection was closed"))
        self.lost_reason = reason
        if not self.closed.called:
            self.closed.callback(None)

    # --- what users of a connection call -------------------------------------------------

    @property
    def is_open(self) -> bool:
        return self.transport is not None and not self._gone

    def send(self, msg: Message) -> None:
        """Send ``msg`` as is (no ``id`` added, no reply awaited)."""
        if not self.is_open:
            raise ConnectionClosed("not connected")
        self.sendString(encode(msg))

    def request(self, msg: Message) -> defer.Deferred[Message]:
        """Send ``msg`` with a fresh ``id``; the Deferred fires with the reply that echoes it.

        It fails with :class:`ServerError` if the server refuses the request and with
        :class:`ConnectionClosed` if the connection ends first.
        """
        if not self.is_open:
            return defer.fail(ConnectionClosed("not connected"))
        self._next_id += 1
        request_id = self._next_id
        waiter: defer.Deferred[Message] = defer.Deferred()
        self._pending[request_id] = waiter
        self.send({**msg, "id": request_id})
        return waiter

    def hello(
        self, name: str, labels: bool = True, versions: Sequence[int] = SUPPORTED_VERSIONS
    ) -> defer.Deferred[Message]:
        """The handshake: fires with ``welcome`` (fails with :class:`ServerError` otherwise).

        It offers every protocol version in ``versions`` (the newest first; the server picks
        one, ``welcome.version``). ``labels=False`` asks for the legal actions without their
        labels (a bot reads none)."""
        msg: Message = {
            "type": "hello",
            "version": versions[0],
            "name": name,
            "client": CLIENT_NAME,
        }
        if len(versions) > 1:
            msg["versions"] = list(versions)
        if not labels:
            msg["labels"] = False
        return self.request(msg)

    def close(self) -> defer.Deferred[None]:
        """Close the connection; the Deferred fires once it is gone."""
        if self.is_open:
            transport: Any = self.transport
            transport.loseConnection()
        return self.closed

    # --- internals -----------------------------------------------------------------------

    def _deliver(self, msg: Message) -> None:
        if self.on_message is None:
            return
        try:
            self.on_message(msg)
        except Exception:
            _log.failure("handling a {kind} message", kind=msg.get("type"))

    def _fail_pending(self, error: Exception) -> None:
        pending, self._pending = self._pending, {}
        for waiter in pending.values():
            waiter.errback(error)

    def _watch(self) -> None:
        silent = self.clock.seconds() - self._last_heard
        if silent >= DEAD_AFTER:
            _log.info("the server has been silent for {s:.0f}s: dropping", s=silent)
            transport: Any = self.transport
            transport.abortConnection()
        elif silent >= QUIET_AFTER and not self._pinged:
            self._pinged = True
            self.send({"type": "ping"})


def _hashable(value: Any) -> bool:
    return isinstance(value, int | str) and not isinstance(value, bool)


def endpoint(reactor: Any, host: str, port: int, timeout: float = 10.0) -> Any:
    """A client endpoint for ``host:port`` (IPv6 when ``host`` is an IPv6 address)."""
    if ":" in host:
        return TCP6ClientEndpoint(reactor, host, port, timeout=timeout)
    return TCP4ClientEndpoint(reactor, host, port, timeout=timeout)


OLD_VERSION = (1,)
"""What the client says to a server that speaks only protocol version 1."""


async def _connect(
    reactor: Any,
    host: str,
    port: int,
    name: str,
    on_message: OnMessage | None,
    timeout: float,
    labels: bool = True,
    versions: Sequence[int] = SUPPORTED_VERSIONS,
) -> Connection:
    conn = await connectProtocol(endpoint(reactor, host, port, timeout), Connection(reactor))
    conn.on_message = on_message
    try:
        try:
            await conn.hello(name, labels, versions)
        except ServerError as refused:
            if versions == OLD_VERSION:
                raise
            if refused.code == "proto/bad_message" and refused.request == "hello":
                # A server from before version 2 does not know ``versions``: ask in version 1.
                await conn.hello(name, labels, OLD_VERSION)
            elif refused.code == "session/bad_version" and OLD_VERSION[0] in refused.supported:
                conn.close()  # rejected for the version alone: a new connection, in version 1
                args = (reactor, host, port, name, on_message, timeout, labels, OLD_VERSION)
                return await _connect(*args)
            else:
                raise
    except Exception:
        conn.close()
        raise
    return conn


def connect(
    reactor: Any,
    host: str,
    port: int,
    name: str,
    on_message: OnMessage | None = None,
    timeout: float = 10.0,
    labels: bool = True,
) -> defer.Deferred[Connection]:
    """Connect to ``host:port`` and say ``hello`` as ``name``: a welcomed :class:`Connection`.

    Fails with :class:`ServerError` on a ``reject`` or a refused ``hello`` (e.g.
    ``lobby/bad_name``), or with Twisted's connection errors. ``labels=False``: the legal
    actions come without their labels.
    """
    return defer.ensureDeferred(_connect(reactor, host, port, name, on_message, timeout, labels))
