"""The direct-write TCP transport, over real sockets on 127.0.0.1 (port 0), each test bounded.

What must hold: every byte arrives, in order, whether the kernel takes a write whole or not;
a close right after writes still delivers them first; a client that stops reading still pauses
the producer (flow control is Twisted's); a peer that vanishes ends the connection cleanly; and
a write does not arm the reactor's write watch when the socket takes it whole; writes that
waited too long go out at the next message read.
"""

from __future__ import annotations

import struct
from typing import Any

import pytest_twisted
from twisted.internet import defer, protocol, reactor, tcp
from twisted.internet.address import IPv4Address
from twisted.internet.interfaces import IHalfCloseableProtocol, IPushProducer
from twisted.internet.testing import MemoryReactor, MemoryReactorClock, StringTransport
from twisted.logger import globalLogPublisher
from zope.interface import implementer

from protocol import MAX_FRAME, decode, encode, frame
from server import transport as transport_module
from server.limits import Limits
from server.service import ServerFactory, listen
from server.transport import LATE, DirectServer, use_direct_writes

TIMEOUT = 20.0


class Collector(protocol.Protocol):
    """The client side: keeps every byte; fires ``closed`` with them when the server closes."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.closed: defer.Deferred[bytes] = defer.Deferred()
        self.expect: tuple[int, defer.Deferred[bytes]] | None = None

    def wait_for(self, size: int) -> defer.Deferred[bytes]:
        """Fires with the data once ``size`` bytes have arrived (without any close)."""
        d: defer.Deferred[bytes] = defer.Deferred()
        self.expect = (size, d)
        self.dataReceived(b"")
        return d.addTimeout(TIMEOUT, reactor)

    def dataReceived(self, data: bytes) -> None:
        self.data += data
        if self.expect is not None and len(self.data) >= self.expect[0]:
            d, self.expect = self.expect[1], None
            d.callback(bytes(self.data))

    def connectionLost(self, reason: object = None) -> None:
        self.closed.callback(bytes(self.data))


class Served(protocol.Protocol):
    """The server side: hands itself to the test when connected; notes when it is lost."""

    def __init__(self, ready: defer.Deferred[Served]) -> None:
        self.ready = ready
        self.lost: defer.Deferred[None] = defer.Deferred()

    def connectionMade(self) -> None:
        self.ready.callback(self)

    def connectionLost(self, reason: object = None) -> None:
        self.lost.callback(None)


async def connected_pair() -> tuple[tcp.Port, Served, Collector]:
    ready: defer.Deferred[Served] = defer.Deferred()
    factory = protocol.Factory.forProtocol(lambda: Served(ready))
    port = reactor.listenTCP(0, factory, interface="127.0.0.1")
    assert use_direct_writes(port)
    client = Collector()
    await protocol.ClientCreator(reactor, lambda: client).connectTCP(
        "127.0.0.1", port.getHost().port
    )
    served = await ready.addTimeout(TIMEOUT, reactor)
    return port, served, client


async def close_pair(port: tcp.Port, served: Served, client: Collector) -> bytes:
    """Close the server side, wait for the client to see it, stop listening; what arrived."""
    served.transport.loseConnection()
    received = await client.closed.addTimeout(TIMEOUT, reactor)
    await port.stopListening()
    return received


def pattern(index: int, size: int) -> bytes:
    return bytes([index % 251]) * size


@pytest_twisted.ensureDeferred
async def test_the_port_gives_connections_the_direct_transport():
    port, served, client = await connected_pair()
    try:
        assert type(served.transport) is DirectServer
    finally:
        await close_pair(port, served, client)


@pytest_twisted.ensureDeferred
async def test_many_writes_larger_than_the_socket_buffer_arrive_whole_and_in_order_before_a_close():
    port, served, client = await connected_pair()
    # 8 MiB in one reactor round: far more than a loopback socket buffer takes at once, so the
    # flush leaves a remainder to the reactor; the close comes right after the writes.
    chunks = [pattern(i, 64 * 1024 + i) for i in range(128)]
    for chunk in chunks:
        served.transport.write(chunk)
    served.transport.writeSequence([b"tail-", b"end"])
    assert await close_pair(port, served, client) == b"".join(chunks) + b"tail-end"


@pytest_twisted.ensureDeferred
async def test_what_the_kernel_does_not_take_at_once_is_sent_later_without_a_close():
    port, served, client = await connected_pair()
    try:
        chunks = [pattern(i, 64 * 1024) for i in range(128)]  # 8 MiB in one round
        for chunk in chunks:
            served.transport.write(chunk)
        expected = b"".join(chunks)
        assert await client.wait_for(len(expected)) == expected
    finally:
        await close_pair(port, served, client)


@pytest_twisted.ensureDeferred
async def test_a_write_the_socket_takes_whole_never_arms_the_write_watch():
    port, served, client = await connected_pair()
    try:
        armed = []
        original = tcp.Server.startWriting

        def spy(self: tcp.Server) -> None:
            armed.append(self)
            original(self)

        tcp.Server.startWriting = spy  # type: ignore[method-assign]
        try:
            served.transport.write(b"hello")
            served.transport.write(b" there")
            await deferred_round()
        finally:
            tcp.Server.startWriting = original  # type: ignore[method-assign]
        assert armed == []
        assert served.transport not in reactor.getWriters()
    finally:
        assert await close_pair(port, served, client) == b"hello there"


def deferred_round() -> defer.Deferred[None]:
    """Fires after the reactor's next round (when the transport has flushed)."""
    d: defer.Deferred[None] = defer.Deferred()
    reactor.callLater(0, reactor.callLater, 0, d.callback, None)
    return d


@implementer(IPushProducer)
class Producer:
    def __init__(self) -> None:
        self.paused = 0

    def pauseProducing(self) -> None:
        self.paused += 1

    def resumeProducing(self) -> None:
        pass

    def stopProducing(self) -> None:
        pass


@pytest_twisted.ensureDeferred
async def test_a_client_that_stops_reading_pauses_the_producer():
    port, served, client = await connected_pair()
    producer = Producer()
    served.transport.registerProducer(producer, True)
    client.transport.pauseProducing()  # the client reads nothing more
    try:
        for i in range(256):  # 16 MiB, a round at a time until the kernel buffers are full
            served.transport.write(pattern(i, 64 * 1024))
            if i % 16 == 15:
                await deferred_round()
            if producer.paused:
                break
        assert producer.paused
    finally:
        served.transport.unregisterProducer()
        served.transport.abortConnection()
        client.transport.abortConnection()
        await served.lost.addTimeout(TIMEOUT, reactor)
        await port.stopListening()


@pytest_twisted.ensureDeferred
async def test_writing_to_a_vanished_peer_ends_the_connection_cleanly():
    port, served, client = await connected_pair()
    client.transport.abortConnection()  # a reset: the next sends fail
    await client.closed.addTimeout(TIMEOUT, reactor)
    for i in range(64):
        served.transport.write(pattern(i, 64 * 1024))
        await deferred_round()
        if served.lost.called:
            break
    await served.lost.addTimeout(TIMEOUT, reactor)
    await port.stopListening()


@pytest_twisted.ensureDeferred
async def test_a_connection_whose_flush_fails_still_gets_its_data_and_others_theirs():
    port, broken, broken_client = await connected_pair()
    port2, served, client = await connected_pair()
    original = DirectServer.flush

    def flaky(self: DirectServer) -> None:
        if self is broken.transport:
            raise RuntimeError("boom")
        original(self)

    logged: list[dict[str, Any]] = []
    DirectServer.flush = flaky  # type: ignore[method-assign]
    globalLogPublisher.addObserver(logged.append)
    try:
        broken.transport.write(b"to the broken one")
        served.transport.write(b"to the other one")
        await deferred_round()
    finally:
        globalLogPublisher.removeObserver(logged.append)
        DirectServer.flush = original  # type: ignore[method-assign]
    failures = [e["log_failure"].value for e in logged if "log_failure" in e]
    assert [str(f) for f in failures] == ["boom"]
    assert await broken_client.wait_for(17) == b"to the broken one"  # the reactor sent it
    assert await client.wait_for(16) == b"to the other one"
    for pair in ((broken, broken_client, port), (served, client, port2)):
        pair[0].transport.loseConnection()
        await pair[1].closed.addTimeout(TIMEOUT, reactor)
        await pair[2].stopListening()


@pytest_twisted.ensureDeferred
async def test_the_server_answers_a_framing_violation_then_closes_over_real_tcp():
    # The error frame is written, then the connection closed in the same round: the close
    # must not overtake the deferred write.
    port, factory = listen(reactor, "127.0.0.1", 0, Limits())
    try:
        client = Collector()
        await protocol.ClientCreator(reactor, lambda: client).connectTCP(
            "127.0.0.1", port.getHost().port
        )
        client.transport.write(struct.pack(">I", MAX_FRAME + 1))
        received = await client.closed.addTimeout(TIMEOUT, reactor)
        (size,) = struct.unpack(">I", received[:4])
        assert len(received) == 4 + size
        message = decode(received[4:], max_depth=None)
        assert (message["type"], message["code"]) == ("error", "proto/frame_too_large")
    finally:
        factory.hub.shutdown()
        await port.stopListening()


@implementer(IHalfCloseableProtocol)
class HalfCloser(protocol.Protocol):
    """Server side: in a timed call, writes then closes its write side; reads the reply."""

    def __init__(self, done: defer.Deferred[tuple[str, bytes]]) -> None:
        self.done = done
        self.got = b""

    def connectionMade(self) -> None:
        reactor.callLater(0, self.write_then_half_close)

    def write_then_half_close(self) -> None:
        self.transport.write(b"hello")
        self.transport.loseWriteConnection()

    def dataReceived(self, data: bytes) -> None:
        self.got += data

    def readConnectionLost(self) -> None:
        self.done.callback(("read side closed", self.got))
        self.transport.loseConnection()

    def writeConnectionLost(self) -> None:
        pass

    def connectionLost(self, reason: object = None) -> None:
        if not self.done.called:
            self.done.callback(("connection lost", self.got))


@implementer(IHalfCloseableProtocol)
class Replier(Collector):
    """Client side: on the server's end of stream, replies and closes its own write side."""

    def readConnectionLost(self) -> None:
        self.transport.write(b"reply after your end")
        self.transport.loseWriteConnection()

    def writeConnectionLost(self) -> None:
        pass


@pytest_twisted.ensureDeferred
async def test_a_half_close_after_a_write_keeps_the_read_side_open():
    done: defer.Deferred[tuple[str, bytes]] = defer.Deferred()
    port = reactor.listenTCP(0, protocol.Factory.forProtocol(lambda: HalfCloser(done)),
                             interface="127.0.0.1")  # fmt: skip
    assert use_direct_writes(port)
    client = Replier()
    try:
        await protocol.ClientCreator(reactor, lambda: client).connectTCP(
            "127.0.0.1", port.getHost().port
        )
        assert await done.addTimeout(TIMEOUT, reactor) == (
            "read side closed",
            b"reply after your end",
        )
        assert bytes(client.data) == b"hello"
    finally:
        if client.transport is not None:
            client.transport.abortConnection()
        await port.stopListening()


@pytest_twisted.ensureDeferred
async def test_writes_still_go_out_after_someone_cancelled_a_pending_flush():
    port, served, client = await connected_pair()
    try:
        served.transport.write(b"one")
        for call in reactor.getDelayedCalls():  # say, a test janitor cleaning the reactor up
            if getattr(call.func, "__self__", None) is served.transport._flusher:
                call.cancel()
        await deferred_round()
        served.transport.write(b" two")
        assert await client.wait_for(7) == b"one two"
    finally:
        await close_pair(port, served, client)


def test_other_ports_are_left_alone():
    memory = MemoryReactor()
    port = memory.listenTCP(0, protocol.Factory())
    assert use_direct_writes(port) is False

    class Custom(tcp.Server):
        pass

    real = tcp.Port(0, protocol.Factory(), interface="127.0.0.1", reactor=reactor)
    real.transport = Custom
    assert use_direct_writes(real) is False
    assert real.transport is Custom


@pytest_twisted.ensureDeferred
async def test_writes_that_waited_too_long_go_out_at_the_next_message_not_the_round_end(
    monkeypatch: Any,
) -> None:
    port, served, client = await connected_pair()
    try:
        flusher = served.transport._flusher
        now = [100.0]
        monkeypatch.setattr(transport_module, "perf_counter", lambda: now[0])
        served.transport.write(b"early")
        now[0] += LATE / 2
        served.transport.flush_if_late()  # not late yet: still waiting for the round's end
        assert served.transport in flusher.waiting
        now[0] += LATE / 2
        served.transport.flush_if_late()  # late: sent here and now, within this round
        assert flusher.waiting == {}
        assert not served.transport.dataBuffer and not served.transport._tempDataBuffer
        served.transport.write(b" late")  # a new wait starts; the round's end sends it
        assert served.transport in flusher.waiting
        assert await client.wait_for(10) == b"early late"
    finally:
        await close_pair(port, served, client)


def test_the_server_lets_the_transport_send_late_writes_after_each_message() -> None:
    class Transport(StringTransport):
        def __init__(self) -> None:
            super().__init__(peerAddress=IPv4Address("TCP", "10.0.0.1", 40001))
            self.checks = 0

        def flush_if_late(self) -> None:
            self.checks += 1

    clock = MemoryReactorClock()
    factory = ServerFactory(clock, Limits(rate=1e9, burst=10**9))
    transport = Transport()
    conn = factory.buildProtocol(transport.getPeer())
    conn.makeConnection(transport)
    hello = frame(encode({"type": "hello", "version": 1, "name": "Ann"}))
    ping = frame(encode({"type": "pong"}))
    conn.dataReceived(hello + ping)  # two messages in one read
    assert transport.checks == 2
    assert decode(transport.value()[4:])["type"] == "welcome"
