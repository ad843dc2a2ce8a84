"""Talking to a Cosmoport server: one connection, and a session that survives dropped ones.

Two layers, neither of which knows anything about consoles or games:

- :class:`Connection` is one TCP connection (a Twisted protocol). It frames with
  ``Int32StringReceiver`` and :mod:`protocol`'s codec, numbers requests and resolves each one's
  Deferred with the reply that echoes its ``id`` (or fails it with :class:`ServerError`), answers
  ``ping`` with ``pong``, watches for a silent server, and hands every other message to
  ``on_message``. :func:`connect` opens one and says ``hello``.
- :class:`Client` is a session with one server across connections: when a connection drops it
  reconnects (with growing delays), says ``hello`` again and takes its seat back with the last
  seat token (``resume``; the rotated token is kept), or watches its table again. Given a
  :class:`client.tokens.TokenStore` it also keeps its seat tokens on disk, so that a new process
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

from client.tokens import KeptSeat, TokenStore, server_id_key, server_key
from protocol import (
    DISCONNECTING,
    MAX_SERVER_FRAME,
    PROTOCOL_VERSION,
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

RETRY_DELAYS: tuple[float, ...] = (0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 15.0, 15.0, 15.0, 15.0)
"""Seconds before each reconnection attempt; after the last one the client gives up."""

FINAL_CODES = frozenset(DISCONNECTING - {"limit/heartbeat", "server/shutting_down"}) | {
    "session/bad_version",
    "limit/connections",
    "limit/server_full",
}
"""Codes after which reconnecting is pointless (or rude): the server meant to let us go. Not
``server/shutting_down``: to its players a server stopped with Ctrl+C is one its host is about
to start again (its database keeps every table), as after a crash."""

_log = Logger()


class ServerError(Exception):
    """The server refused a request (an ``error`` or ``reject``): its ``code`` and ``message``."""

    def __init__(self, code: str, message: str, request: str | None = None) -> None:
        super().__init__(code, message)
        self.code = code
        self.message = message
        self.request = request

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    @classmethod
    def from_message(cls, msg: Message) -> ServerError:
        return cls(str(msg.get("code", "")), str(msg.get("message", "")), msg.get("request"))


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

    def hello(self, name: str, labels: bool = True) -> defer.Deferred[Message]:
        """The handshake: fires with ``welcome`` (fails with :class:`ServerError` otherwise).

        ``labels=False`` asks for the legal actions without their labels (a bot reads none)."""
        msg: Message = {
            "type": "hello",
            "version": PROTOCOL_VERSION,
            "name": name,
            "client": CLIENT_NAME,
        }
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


async def _connect(
    reactor: Any,
    host: str,
    port: int,
    name: str,
    on_message: OnMessage | None,
    timeout: float,
    labels: bool = True,
) -> Connection:
    conn = await connectProtocol(endpoint(reactor, host, port, timeout), Connection(reactor))
    conn.on_message = on_message
    try:
        await conn.hello(name, labels)
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


# --- a session across connections ----------------------------------------------------------------


class Client:
    """A session with one server that survives dropped connections.

    ``on_message`` gets every push and broadcast (see the module docstring); ``on_status`` gets
    ``(event, detail)`` about the link itself:

    - ``"lost"`` ``{"error": ServerError | None}``: the connection dropped;
    - ``"retrying"`` ``{"attempt": n, "delay": seconds}``: a reconnection is scheduled;
    - ``"reconnected"`` ``{"welcome": msg}``: a new connection is up (in the lobby);
    - ``"resumed"`` ``{"reply": resumed msg}``: the seat is held again (a snapshot follows);
    - ``"seat_lost"`` ``{"error": ServerError}``: the token no longer works;
    - ``"gave_up"`` ``{"error": ...}``: no more attempts (or reconnecting is pointless).

    The client remembers the last seat token (from ``joined`` and ``resumed``, which rotates
    it) and the table it watches, so that it can come back after a drop. With a ``tokens``
    store it keeps the token on disk too, from the protocol alone:

    - ``joined`` and ``resumed`` save the (new) token of that table at once, before the ``pong``
      that kills the old one goes out;
    - the token is forgotten when the game ends (``game_over``), when the table is closed
      (``left`` with reason ``closed``), when the server refuses it (``session/bad_token``),
      and when ``left`` answers a ``leave`` from a table that has not started (the place is
      freed). A ``leave`` during a game keeps it: the seat is held for it.

    A bot, for example::

        client = Client(reactor, "127.0.0.1", 7777, "MCTS bot 1", on_message=handle)
        await client.start()                                  # the welcome
        await client.request({"type": "join", "table": 3})    # joined: the token is kept
        # handle(msg) sees every snapshot/update; when msg["legal"] is not empty:
        client.request({"type": "act", "version": msg["version"], "action": choice})
        await client.close()
    """

    def __init__(
        self,
        reactor: Any,
        host: str,
        port: int,
        name: str,
        on_message: OnMessage | None = None,
        on_status: Callable[[str, dict[str, Any]], None] | None = None,
        retry_delays: Sequence[float] = RETRY_DELAYS,
        tokens: TokenStore | None = None,
        labels: bool = True,
    ) -> None:
        self.reactor = reactor
        self.labels = labels  # False: the legal actions come without labels (bots read none)
        self.host = host
        self.port = port
        self.server = server_key(host, port)
        self.name = name
        self.on_message = on_message
        self.on_status = on_status
        self.retry_delays = tuple(retry_delays)
        self.connection: Connection | None = None
        self.welcome: Message | None = None
        self.token: str | None = None
        self.tokens = tokens
        self.seated = False
        self.table_id: int | None = None
        """The table of the seat ``token`` names (kept after a ``leave`` during a game)."""
        self.table_state: str | None = None
        """That table's state as last heard: ``waiting``, ``playing``, ``finished``..."""
        self.watching: int | None = None
        self.done: defer.Deferred[None] = defer.Deferred()
        self._closing = False
        self._attempt = 0
        self._retry: Any = None

    # --- API -----------------------------------------------------------------------------

    @property
    def is_open(self) -> bool:
        return self.connection is not None and self.connection.is_open

    def start(self) -> defer.Deferred[Message]:
        """The first connection and ``hello``: fires with ``welcome``; errors are not retried."""
        d = connect(
            self.reactor, self.host, self.port, self.name, self._dispatch, labels=self.labels
        )
        return d.addCallback(self._attached)

    def request(self, msg: Message) -> defer.Deferred[Message]:
        """Like :meth:`Connection.request`; fails with :class:`ConnectionClosed` while offline."""
        if self.connection is None or not self.connection.is_open:
            return defer.fail(ConnectionClosed("not connected to the server"))
        d = self.connection.request(msg).addCallback(self._note)
        if msg.get("type") == "resume":
            d.addErrback(self._refused_token, msg.get("token"))
        return d

    def kept_seats(self) -> list[KeptSeat]:
        """The seats kept on disk for this server, the most recent first (none without a store)."""
        return self.tokens.seats(self.server) if self.tokens is not None else []

    def send(self, msg: Message) -> None:
        if self.connection is None or not self.connection.is_open:
            raise ConnectionClosed("not connected to the server")
        self.connection.send(msg)

    def close(self) -> defer.Deferred[None]:
        """Leave for good: close the connection, stop any reconnection; fires once done."""
        self._closing = True
        if self._retry is not None and self._retry.active():
            self._retry.cancel()
        if self.connection is not None and self.connection.is_open:
            self.connection.close()
        elif not self.done.called:
            self.done.callback(None)
        return self.done

    # --- internals -----------------------------------------------------------------------

    def _attached(self, conn: Connection) -> Message:
        self.connection = conn
        self.welcome = conn.welcome
        self._attempt = 0
        conn.closed.addCallback(self._lost, conn)
        assert conn.welcome is not None
        self._known_as(conn.welcome.get("server_id"))
        return conn.welcome

    def _known_as(self, server_id: Any) -> None:
        """Key what we keep of this server by the id it gave (the same whatever address we
        typed), moving there any seat kept under its address (PROTOCOL.md 6.1)."""
        if not isinstance(server_id, str) or not 0 < len(server_id) <= 64:
            return  # a server too old to say who it is: its address it stays
        key = server_id_key(server_id)
        if key == self.server:
            return
        if self.tokens is not None and not self.server.startswith("id:"):
            self.tokens.move(self.server, key)
        self.server = key

    def _note(self, msg: Message) -> Message:
        """Follow a reply: where the session is, and the seat token (kept on disk if asked)."""
        kind = msg.get("type")
        if kind in ("joined", "resumed"):
            self.token = msg.get("token", self.token)
            self.seated = True
            self.watching = None
            table = msg.get("table")
            if isinstance(table, dict):
                self.table_id = table.get("id")
                self.table_state = table.get("state")
                self._keep_token(msg, table)
        elif kind == "spectating":
            table = msg.get("table")
            self.watching = table.get("id") if isinstance(table, dict) else None
        elif kind == "left":
            if self.seated and self.table_state == "waiting":
                self._token_died()  # leaving a table that has not started frees the place
            self.seated = False
            self.watching = None
        return msg

    def _dispatch(self, msg: Message) -> None:
        """Follow a push (or a broadcast reply) about our table, then hand it on."""
        kind = msg.get("type")
        if kind == "left" and msg.get("reason") == "closed":
            if msg.get("table") == self.table_id:
                self._token_died()
            self.seated = False
            self.watching = None
            self.token = None
        elif self.seated and kind in ("started", "table_update"):
            table = msg.get("table")
            if isinstance(table, dict) and table.get("id") == self.table_id:
                self.table_state = table.get("state")
        elif self.seated and kind == "game_over" and msg.get("table") == self.table_id:
            # The in-memory token stays (a drop now still comes back to the final scores), but
            # there is nothing left to take back in a later run.
            self.table_state = "finished"
            self._forget_table()
        if self.on_message is not None:
            self.on_message(msg)

    def _keep_token(self, reply: Message, table: dict[str, Any]) -> None:
        """Save the token of ``joined``/``resumed`` (or forget it if that game is over)."""
        if self.tokens is None or not isinstance(self.token, str):
            return
        if table.get("state") not in ("waiting", "playing"):
            self._forget_table()
            return
        # Before the start a table map lists places; after it, engine seats.
        index = reply.get("slot") if table.get("state") == "waiting" else reply.get("seat")
        seats = table.get("seats") or []
        name = self.name
        if isinstance(index, int) and 0 <= index < len(seats) and isinstance(seats[index], dict):
            name = str(seats[index].get("name") or name)
        self.tokens.save(self.server, int(table["id"]), self.token, name, str(table.get("game")))

    def _forget_table(self) -> None:
        if self.tokens is not None and isinstance(self.table_id, int):
            self.tokens.forget(self.server, self.table_id)

    def _token_died(self) -> None:
        self._forget_table()
        self.token = None
        self.table_id = None
        self.table_state = None

    def _refused_token(self, failure: Failure, token: Any) -> Failure:
        """A ``resume`` refused with ``session/bad_token``: that token is forgotten everywhere."""
        error = failure.value
        if isinstance(error, ServerError) and error.code == "session/bad_token":
            if token == self.token:
                self.token = None
                self.table_id = None
                self.table_state = None
            if self.tokens is not None and isinstance(token, str):
                self.tokens.forget_token(self.server, token)
        return failure

    def _status(self, event: str, **detail: Any) -> None:
        if self.on_status is not None:
            try:
                self.on_status(event, detail)
            except Exception:
                _log.failure("reporting {event}", event=event)

    def _lost(self, _: None, conn: Connection) -> None:
        if conn is not self.connection:
            return
        error = conn.final_error
        if self._closing:
            if not self.done.called:
                self.done.callback(None)
            return
        self._status("lost", error=error)
        if error is not None and error.code in FINAL_CODES:
            self._give_up(error)
            return
        self._schedule()

    def _schedule(self) -> None:
        if self._attempt >= len(self.retry_delays):
            self._give_up(ConnectionClosed("the server cannot be reached"))
            return
        delay = self.retry_delays[self._attempt]
        self._attempt += 1
        self._status("retrying", attempt=self._attempt, delay=delay)
        self._retry = self.reactor.callLater(delay, self._reconnect)

    def _give_up(self, error: Exception) -> None:
        self._status("gave_up", error=error)
        if not self.done.called:
            self.done.callback(None)

    def _reconnect(self) -> None:
        if self._closing:
            return
        d = connect(
            self.reactor, self.host, self.port, self.name, self._dispatch, labels=self.labels
        )
        d.addCallbacks(self._reconnected, self._reconnect_failed)

    def _reconnect_failed(self, failure: Failure) -> None:
        if self._closing:
            return
        error = failure.value
        if isinstance(error, ServerError) and error.code in FINAL_CODES:
            self._give_up(error)
            return
        self._schedule()

    def _reconnected(self, conn: Connection) -> None:
        if self._closing:
            conn.close()
            return
        welcome = self._attached(conn)
        self._status("reconnected", welcome=welcome)
        if self.seated and self.token is not None:
            self.request({"type": "resume", "token": self.token}).addCallbacks(
                lambda reply: self._status("resumed", reply=reply), self._resume_failed
            )
        elif self.watching is not None:
            table = self.watching
            self.request({"type": "spectate", "table": table}).addErrback(
                lambda f: self._status("seat_lost", error=f.value)
            )

    def _resume_failed(self, failure: Failure) -> None:
        if isinstance(failure.value, ServerError):
            self.seated = False
            self.token = None
            self._status("seat_lost", error=failure.value)
        # A dropped connection during the resume: the next reconnection tries again.
