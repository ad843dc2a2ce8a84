"""The thin connection protocol: frames in, decoded messages to the session; messages out, framed.

Framing is Twisted's ``Int32StringReceiver`` with ``MAX_LENGTH`` set to the protocol's inbound
cap, so an oversized length header is refused before its body is buffered: the client gets
``proto/frame_too_large`` and is disconnected, and whatever else it sent is ignored. Each frame
is counted against the session's rate before it is decoded, so a flood costs no decoding; a frame
that does not decode is handed to the session as an error (the connection stays open).

The connection registers itself as the transport's streaming producer so it learns when a
client stops reading; if the server would have to queue more than ``Limits.send_backlog`` bytes
for it, the connection is aborted rather than letting memory grow, and past
``Limits.send_budget`` bytes queued for all slow readers together the hub drops the slowest
first (:meth:`server.hub.Hub.queued`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from twisted.internet.interfaces import IPushProducer
from twisted.logger import Logger
from twisted.protocols.basic import Int32StringReceiver
from twisted.python.failure import Failure
from zope.interface import implementer

from protocol import MAX_FRAME, MAX_SERVER_FRAME, ProtocolError, decode, encode
from server.hub import Hub
from server.session import Session

_log = Logger()

# The body most recently encoded, by message identity: a table sends the same message object to
# every spectator (and the lobby one table_update to every session), so it is encoded once.
# A message dict is never changed after it has been handed to ``send``.
_last_encoded: tuple[dict[str, Any] | None, bytes] = (None, b"")


@implementer(IPushProducer)
class Connection(Int32StringReceiver):
    """One TCP client."""

    MAX_LENGTH = MAX_FRAME

    def __init__(
        self, hub: Hub, registry: set[Connection] | None = None, timer: Any = None
    ) -> None:
        self.hub = hub
        self._registry = registry  # the factory's open connections
        self._timer = timer  # an IReactorTime for hold(); without one, hold() does nothing
        self.session: Session | None = None
        self._closing = False
        self._send_paused = False
        self._backlog = 0
        self._held: Any = None  # the delayed call that reads again (see hold)
        self._flush_if_late: Callable[[], None] | None = None  # see connectionMade

    @property
    def _link(self) -> Any:
        """The transport: Twisted's TCP transport (or a test's in-memory one), at once an
        ITCPTransport, an IConsumer and an IPushProducer, which no single interface says."""
        return self.transport

    # --- Twisted callbacks ---------------------------------------------------------------

    def connectionMade(self) -> None:
        if self._registry is not None:
            self._registry.add(self)
        address = _host(self._link.getPeer())
        refusal = self.hub.admission(address)
        if refusal is not None:
            self.hub.refused(address, refusal.code)
            self.send({"type": "reject", "code": refusal.code, "message": refusal.message})
            self.close()
            return
        self._link.registerProducer(self, True)
        # Answers go out at the end of the reactor round, or sooner after a stall (DirectServer).
        self._flush_if_late = getattr(self.transport, "flush_if_late", None)
        if hasattr(self.transport, "setTcpNoDelay"):
            self._link.setTcpNoDelay(True)  # a game is interactive: never wait for Nagle
        self.session = self.hub.open_session(self, address)

    def dataReceived(self, data: bytes) -> None:
        if not self._closing:
            super().dataReceived(data)

    def stringReceived(self, body: bytes) -> None:
        if self._closing or self.session is None:
            return
        if not self.session.admit():  # counted before decoding: past the rate, never decoded
            return
        try:
            msg = decode(body, max_depth=self.session.decode_depth)
        except ProtocolError as err:
            self.session.receive_garbage(err)
            return
        self.session.receive(msg)
        if self._flush_if_late is not None:
            self._flush_if_late()

    def lengthLimitExceeded(self, length: int) -> None:
        err = ProtocolError(
            "proto/frame_too_large", f"a frame of {length} bytes exceeds the {MAX_FRAME}-byte cap"
        )
        if self.session is not None:
            self.session.fail(err)
        self.close()

    def connectionLost(self, reason: Failure | None = None) -> None:
        self._closing = True
        self.hub.drained(self)
        if self._held is not None and self._held.active():
            self._held.cancel()
        if self._registry is not None:
            self._registry.discard(self)
        if self.session is not None:
            self.session.connection_lost()

    # --- Peer, for the session -----------------------------------------------------------

    def send(self, msg: dict[str, Any]) -> None:
        global _last_encoded
        if self._closing or self.transport is None:
            return
        if _last_encoded[0] is msg:
            body = _last_encoded[1]
        else:
            body = encode(msg)
            _last_encoded = (msg, body)
        if len(body) > MAX_SERVER_FRAME:
            _log.error("sending a {size}-byte {kind} frame", size=len(body), kind=msg.get("type"))
        self.sendString(body)
        if self._send_paused:
            self._backlog += len(body) + 4
            if self._backlog > self.hub.limits.send_backlog:
                _log.warn(
                    "dropping a client that does not read ({n} bytes queued)", n=self._backlog
                )
                self.drop()
            else:
                self.hub.queued(self, len(body) + 4)  # may drop the slowest readers, us too

    def drop(self) -> None:
        """Cut a client that reads too slowly for what the server may queue for it."""
        if self._closing:
            return
        self._closing = True
        self.hub.drained(self)
        self._link.abortConnection()

    def hold(self, seconds: float) -> None:
        """Read nothing more from this client for ``seconds`` (it acts faster than act_rate)."""
        if self._closing or self.paused or self.transport is None or self._timer is None:
            return
        self.paused = True  # frames already read wait in the receiver's buffer...
        self._link.pauseProducing()  # ...and the socket is not read
        self._held = self._timer.callLater(seconds, self._read_again)

    def _read_again(self) -> None:
        self._held = None
        if self._closing:
            return
        self.paused = False
        self._link.resumeProducing()
        self.dataReceived(b"")  # whatever arrived meanwhile

    def close(self) -> None:
        if not self._closing:
            self._closing = True
            # A paused producer would keep Twisted from closing once the buffer drains (it
            # resumes the producer instead): we produce nothing more, so unregister first.
            if getattr(self.transport, "producer", None) is not None:
                self._link.unregisterProducer()
            self._link.loseConnection()

    # --- IPushProducer: the transport's write buffer is full / drained -------------------

    def pauseProducing(self) -> None:
        self._send_paused = True

    def resumeProducing(self) -> None:
        self._send_paused = False
        self._backlog = 0
        self.hub.drained(self)

    def stopProducing(self) -> None:
        self._closing = True


def _host(address: Any) -> str:
    return str(getattr(address, "host", address))
