"""A session with one Cosmoport server that survives dropped connections: :class:`Client`.

It reconnects (with growing delays), says ``hello`` again and takes its seat back with the last
seat token, or watches its table again; one connection is :class:`client.net.connection.Connection`
(see that module for how messages are routed).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from twisted.internet import defer
from twisted.logger import Logger
from twisted.python.failure import Failure

from client.net.connection import (
    Connection,
    ConnectionClosed,
    Message,
    OnMessage,
    ServerError,
    connect,
)
from client.net.tokens import KeptSeat, TokenStore, server_id_key, server_key
from protocol import DISCONNECTING

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

_log = Logger(namespace="client.net.connection")


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
