"""A TCP transport that sends a reactor round's writes together, without arming write watches.

Twisted's TCP transport queues every ``write`` and arms the socket's write watch
(``epoll_ctl``); the reactor then reports the socket writable on its next poll and the transport
sends and disarms the watch. A game server writes to several connections per action (every
seat gets its update), and on this project's machines arming the watch alone was a fifth of the
server's time (``bench/server.py``, sampled with py-spy). Sending each write at once instead is
worse: every ``send`` then wakes the reading process separately, where the reactor's batch of
sends woke it once.

:class:`DirectServer` keeps Twisted's buffers, producers and closing logic and changes one
thing: a ``write`` does not arm the watch but puts the transport on a list that is flushed once
per reactor round, after the round's events (a ``callLater(0)``), by calling the transport's
own ``doWrite``. What the kernel does not take, and any error, is handed back to the reactor by
arming the watch the ordinary way, so the ordinary path finishes the send or finds the error
and closes the connection. ``loseConnection`` arms the watch as usual, so queued data is still
sent before a close.

A round can be long: after a stall, one poll hands the reactor dozens of messages, and the
updates answering the first ones would wait until the last is handled. So the server calls
:meth:`DirectServer.flush_if_late` after each message it reads, and writes that have waited
:data:`LATE` seconds go out then (at 2,000 paced tables, p99 went from 21-29 ms to 10-11 ms
in the runs just before and after it).

:func:`use_direct_writes` installs it on a listening TCP port; any other port is left as it is.
"""

from __future__ import annotations

from collections.abc import Iterable
from time import perf_counter
from typing import Any
from weakref import WeakKeyDictionary

from twisted.internet import tcp
from twisted.logger import Logger

_log = Logger()


LATE = 0.002
"""Seconds a write may wait for the end of its reactor round: past that, the next message read
sends what waits (see :meth:`DirectServer.flush_if_late`)."""


class _Flusher:
    """The transports of one reactor with writes waiting for the end of this round."""

    def __init__(self, reactor: Any) -> None:
        self.reactor = reactor
        self.waiting: dict[DirectServer, None] = {}
        self._call: Any = None  # the pending callLater(0), if any
        self._since = 0.0  # perf_counter() when the first of the waiting writes came

    def add(self, transport: DirectServer) -> None:
        if not self.waiting:
            self._since = perf_counter()
        # Checked, not assumed: a pending call someone cancelled must not strand every write.
        if self._call is None or not self._call.active():
            self._call = self.reactor.callLater(0, self.flush)
        self.waiting[transport] = None

    def flush_if_late(self) -> None:
        if self.waiting and perf_counter() - self._since >= LATE:
            self._send()

    def flush(self) -> None:
        self._call = None
        self._send()

    def _send(self) -> None:
        waiting, self.waiting = self.waiting, {}
        for transport in waiting:
            try:
                transport.flush()
            except Exception:  # one connection's failure must not hold up the others
                _log.failure("flushing a connection's writes")
                try:
                    transport.fall_back()
                except Exception:
                    _log.failure("handing a connection's writes back to the reactor")


_flushers: WeakKeyDictionary[Any, _Flusher] = WeakKeyDictionary()


class DirectServer(tcp.Server):
    """``tcp.Server`` whose writes are sent once per reactor round without a write watch."""

    _deferring = False  # inside write(): startWriting() only notes the transport

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        flusher = _flushers.get(self.reactor)
        if flusher is None:
            flusher = _flushers[self.reactor] = _Flusher(self.reactor)
        self._flusher = flusher

    def write(self, data: bytes) -> None:
        self._deferring = True
        try:
            super().write(data)
        finally:
            self._deferring = False

    def writeSequence(self, iovec: Iterable[bytes]) -> None:
        self._deferring = True
        try:
            super().writeSequence(iovec)
        finally:
            self._deferring = False

    def startWriting(self) -> None:
        if self._deferring and not self.disconnecting:
            self._flusher.add(self)
        else:
            super().startWriting()

    def flush(self) -> None:
        """Send what is queued now; leave anything left over (or any error) to the reactor."""
        if not self.connected or self.disconnecting or getattr(self, "_writeDisconnecting", 0):
            return  # closing: loseConnection armed the watch, the reactor finishes the job
        if not self.dataBuffer and not getattr(self, "_tempDataBuffer", True):
            return  # the reactor sent it already (a write watch armed for another reason)
        result = self.doWrite()
        if result is not None or self.dataBuffer:  # emptied (b"") once everything is sent
            self.fall_back()

    def flush_if_late(self) -> None:
        """Send every connection's waiting writes now if the first of them has waited
        :data:`LATE` seconds: after a stall, one poll of the reactor hands over many messages at
        once, and the answers to the first ones need not wait until the last is handled."""
        self._flusher.flush_if_late()

    def fall_back(self) -> None:
        """Leave the rest to the reactor: arm the write watch the ordinary way."""
        super().startWriting()


SUPPORTED = all(
    hasattr(tcp.Server, name) for name in ("doWrite", "dataBuffer", "offset", "disconnecting")
)
"""Whether this Twisted has the parts of ``tcp.Server`` that :class:`DirectServer` uses."""


def use_direct_writes(port: Any) -> bool:
    """Make ``port`` (from ``reactor.listenTCP``) give new connections a :class:`DirectServer`.

    Returns whether it did: only a real ``tcp.Port`` with the stock transport is changed, so
    in-memory test reactors and an unfamiliar Twisted keep their own behaviour.
    """
    if SUPPORTED and isinstance(port, tcp.Port) and port.transport is tcp.Server:
        port.transport = DirectServer
        return True
    return False
