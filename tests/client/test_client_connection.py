"""The client's Connection over a StringTransport: requests, replies, pushes, pings, watchdog."""

from __future__ import annotations

import struct
from typing import Any

import pytest
from twisted.internet import task
from twisted.internet.defer import succeed
from twisted.internet.testing import StringTransport

from client.net import connection
from client.net.connection import (
    DEAD_AFTER,
    QUIET_AFTER,
    Connection,
    ConnectionClosed,
    ServerError,
    connect,
)
from protocol import decode, encode, frame


def split(data: bytes) -> list[dict[str, Any]]:
    out = []
    while data:
        (size,) = struct.unpack(">I", data[:4])
        out.append(decode(data[4 : 4 + size], max_depth=None))
        data = data[4 + size :]
    return out


class Wire:
    def __init__(self, clock: Any = None) -> None:
        self.pushed: list[dict[str, Any]] = []
        self.conn = Connection(clock, on_message=self.pushed.append)
        self.transport = StringTransport()
        self.conn.makeConnection(self.transport)

    def sent(self) -> list[dict[str, Any]]:
        data = self.transport.value()
        self.transport.clear()
        return split(data)

    def feed(self, msg: dict[str, Any]) -> None:
        self.conn.dataReceived(frame(encode(msg)))


def outcome(d: Any) -> Any:
    box: list[Any] = []
    d.addBoth(box.append)
    return box[0] if box else None


def test_a_request_carries_a_fresh_id_and_fires_with_the_reply_that_echoes_it() -> None:
    wire = Wire()
    first = wire.conn.request({"type": "list"})
    second = wire.conn.request({"type": "list"})
    ids = [m["id"] for m in wire.sent()]
    assert ids[0] != ids[1]
    wire.feed({"type": "tables", "tables": [], "id": ids[1]})
    assert outcome(first) is None
    assert outcome(second)["id"] == ids[1]
    assert wire.pushed == []  # a plain reply is not a push


def test_an_error_reply_fails_the_request_with_its_code_and_message() -> None:
    wire = Wire()
    d = wire.conn.request({"type": "join", "table": 9})
    (sent,) = wire.sent()
    wire.feed({"type": "error", "code": "lobby/no_such_table", "message": "gone", "id": sent["id"]})
    failure = outcome(d)
    assert isinstance(failure.value, ServerError)
    assert (failure.value.code, failure.value.message) == ("lobby/no_such_table", "gone")


def test_a_broadcast_reply_settles_the_request_and_also_reaches_the_observer() -> None:
    wire = Wire()
    d = wire.conn.request({"type": "act", "version": 0, "action": ["roll"]})
    (sent,) = wire.sent()
    update = {"type": "update", "table": 1, "version": 1, "seat": 0, "view": {}, "events": []}
    wire.feed({**update, "legal": [], "id": sent["id"]})
    assert outcome(d)["type"] == "update"
    assert [m["type"] for m in wire.pushed] == ["update"]


def test_ping_is_answered_with_pong_echoing_its_id_and_goes_no_further() -> None:
    wire = Wire()
    wire.feed({"type": "ping", "id": "x7"})
    wire.feed({"type": "ping"})
    assert wire.sent() == [{"type": "pong", "id": "x7"}, {"type": "pong"}]
    assert wire.pushed == []


def test_unknown_messages_and_fields_reach_the_observer_untouched_and_break_nothing() -> None:
    wire = Wire()
    wire.feed({"type": "from_the_future", "shiny": [1, 2]})
    wire.feed({"type": "chat", "from": "Bob", "text": "hi", "mood": "good"})
    wire.feed({"no_type": True})
    assert [m["type"] for m in wire.pushed] == ["from_the_future", "chat"]


def test_an_undecodable_frame_is_ignored_and_the_connection_carries_on() -> None:
    wire = Wire()
    wire.conn.dataReceived(frame(b"\xc1\xc1"))
    wire.feed({"type": "chat", "from": "Bob", "text": "still here"})
    assert [m["text"] for m in wire.pushed] == ["still here"]
    assert wire.conn.is_open


def test_a_reject_fails_every_pending_request_and_is_kept_as_the_final_error() -> None:
    wire = Wire()
    d = wire.conn.request({"type": "hello", "version": 1, "name": "Ann"})
    wire.feed({"type": "reject", "code": "limit/server_full", "message": "full"})
    assert outcome(d).value.code == "limit/server_full"
    assert wire.conn.final_error is not None and wire.conn.final_error.code == "limit/server_full"


def test_losing_the_connection_fails_pending_requests_and_fires_closed() -> None:
    wire = Wire()
    d = wire.conn.request({"type": "list"})
    wire.conn.connectionLost(None)
    assert isinstance(outcome(d).value, ConnectionClosed)
    assert outcome(wire.conn.closed) is None and wire.conn.closed.called
    assert isinstance(outcome(wire.conn.request({"type": "list"})).value, ConnectionClosed)
    with pytest.raises(ConnectionClosed):
        wire.conn.send({"type": "pong"})


def test_hello_offers_protocol_versions_2_and_1_and_remembers_the_welcome() -> None:
    wire = Wire()
    d = wire.conn.hello("Ann")
    (sent,) = wire.sent()
    assert (sent["type"], sent["version"], sent["name"]) == ("hello", 2, "Ann")
    assert sent["versions"] == [2, 1]
    wire.feed(
        {
            "type": "welcome",
            "version": 1,
            "server": "s",
            "name": "Ann",
            "games": [],
            "limits": {},
            "id": sent["id"],
        }
    )
    assert outcome(d)["type"] == "welcome"
    assert wire.conn.welcome is not None


def test_a_silent_server_is_pinged_then_dropped() -> None:
    clock = task.Clock()
    wire = Wire(clock)
    clock.advance(QUIET_AFTER - 5)
    assert wire.sent() == []
    clock.advance(5)
    assert wire.sent() == [{"type": "ping"}]
    assert not wire.transport.disconnecting
    clock.advance(DEAD_AFTER - QUIET_AFTER)
    assert wire.transport.disconnecting


def test_anything_heard_from_the_server_resets_the_watchdog() -> None:
    clock = task.Clock()
    wire = Wire(clock)
    for _ in range(10):
        clock.advance(QUIET_AFTER - 10)
        wire.feed({"type": "ping"})
    assert [m["type"] for m in wire.sent()] == ["pong"] * 10
    assert not wire.transport.disconnecting


class FakeEndpoint:
    """Connections made by :func:`client.net.connection.connect`, on in-memory transports."""

    def __init__(self) -> None:
        self.made: list[Wire] = []

    def __call__(self, reactor: Any, host: str, port: int, timeout: float = 10.0) -> Any:
        return self

    def connect(self, factory: Any) -> Any:
        wire = Wire.__new__(Wire)
        wire.pushed = []
        wire.conn = factory.buildProtocol(None)
        wire.transport = StringTransport()
        wire.conn.makeConnection(wire.transport)
        self.made.append(wire)
        return succeed(wire.conn)


def connecting(monkeypatch: pytest.MonkeyPatch) -> tuple[FakeEndpoint, Any]:
    """``connect`` as Ann on in-memory connections: (the endpoint, the Deferred)."""
    fake = FakeEndpoint()
    monkeypatch.setattr(connection, "endpoint", fake)
    return fake, connect(task.Clock(), "192.0.2.1", 7777, "Ann")


def _welcome(version: int, request_id: int) -> dict[str, Any]:
    return {
        "type": "welcome",
        "version": version,
        "server": "s",
        "name": "Ann",
        "games": [],
        "limits": {},
        "id": request_id,
    }


def test_a_server_that_does_not_know_versions_is_asked_again_in_version_1(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake, d = connecting(monkeypatch)
    (wire,) = fake.made
    (first,) = wire.sent()
    wire.feed(
        {"type": "error", "code": "proto/bad_message", "message": "versions?", "request": "hello"}
        | {"id": first["id"]}
    )
    (second,) = wire.sent()
    assert second["version"] == 1 and "versions" not in second
    wire.feed(_welcome(1, second["id"]))
    assert outcome(d).welcome["version"] == 1


def test_a_server_of_version_1_alone_that_rejects_version_2_is_joined_in_version_1(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake, d = connecting(monkeypatch)
    (rejected,) = fake.made
    (first,) = rejected.sent()
    assert first["versions"] == [2, 1]
    rejected.feed(
        {"type": "reject", "code": "session/bad_version", "message": "1 only", "supported": [1]}
    )
    assert rejected.transport.disconnecting
    (again,) = fake.made[1:]
    (second,) = again.sent()
    assert second["version"] == 1 and "versions" not in second
    again.feed(_welcome(1, second["id"]))
    assert outcome(d).welcome["version"] == 1


def test_a_server_that_speaks_no_version_of_ours_is_not_asked_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake, d = connecting(monkeypatch)
    (wire,) = fake.made
    wire.sent()
    wire.feed({"type": "reject", "code": "session/bad_version", "message": "3", "supported": [3]})
    failure = outcome(d)
    assert isinstance(failure.value, ServerError) and failure.value.supported == [3]
    assert len(fake.made) == 1
