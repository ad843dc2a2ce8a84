"""The handshake: hello -> welcome or reject, admission limits, the handshake timeout."""

from __future__ import annotations

from server_helpers import MemoryServer

from protocol import PROTOCOL_VERSION
from server.limits import Limits


def test_hello_gets_a_welcome_with_games_and_limits():
    server = MemoryServer()
    client = server.client()
    welcome = client.hello("Ann")
    assert welcome["version"] == PROTOCOL_VERSION
    assert welcome["name"] == "Ann"
    assert welcome["id"] == 1
    names = {g["name"] for g in welcome["games"]}
    assert {"cosmic_run", "secret_race"} <= names
    assert welcome["limits"]["max_frame"] == 65536
    assert not client.disconnected


def test_an_unsupported_version_is_rejected_with_the_supported_ones_and_closed():
    server = MemoryServer()
    client = server.client()
    reply = client.one("reject", client.request({"type": "hello", "version": 99, "name": "Ann"}))
    assert reply["code"] == "session/bad_version"
    assert reply["supported"] == [PROTOCOL_VERSION, 1]
    assert reply["id"] == 1
    assert client.disconnected


def test_a_bad_name_in_hello_is_an_error_and_hello_may_be_retried():
    server = MemoryServer()
    client = server.client()
    assert client.error(client.request({"type": "hello", "version": 1, "name": " x"})) == (
        "lobby/bad_name"
    )
    assert not client.disconnected
    client.hello("x")


def test_nothing_but_hello_is_accepted_before_hello():
    server = MemoryServer()
    client = server.client()
    assert client.error(client.request({"type": "list"})) == "session/wrong_state"
    assert client.error(client.request({"type": "ping"})) == "session/wrong_state"
    client.hello()


def test_a_second_hello_is_the_wrong_state():
    server = MemoryServer()
    client = server.greeted("Ann")
    assert client.error(client.request({"type": "hello", "version": 1, "name": "B"})) == (
        "session/wrong_state"
    )


def test_no_hello_in_time_is_rejected_and_disconnected():
    server = MemoryServer(Limits(handshake_timeout=10, rate=1e9, burst=10**9))
    client = server.client()
    server.advance(9)
    assert client.received() == [] and not client.disconnected
    server.advance(1)
    reply = client.one("reject")
    assert reply["code"] == "limit/handshake_timeout"
    assert client.disconnected
    assert len(server.hub.sessions) == 0


def test_connections_per_address_are_limited_and_the_extra_one_rejected():
    server = MemoryServer(Limits(connections_per_address=2, rate=1e9, burst=10**9))
    first, second = server.client("10.0.0.5"), server.client("10.0.0.5")
    third = server.client("10.0.0.5")
    assert third.one("reject")["code"] == "limit/connections"
    assert third.disconnected
    other = server.client("10.0.0.6")  # another address is still welcome
    other.hello()
    first.hello()
    second.drop()
    fourth = server.client("10.0.0.5")  # a slot freed up
    fourth.hello()


def test_the_server_wide_connection_cap_rejects():
    server = MemoryServer(Limits(max_connections=2, rate=1e9, burst=10**9))
    server.client("10.0.0.1")
    server.client("10.0.0.2")
    extra = server.client("10.0.0.3")
    assert extra.one("reject")["code"] == "limit/server_full"


def test_shutdown_tells_every_client_and_refuses_new_ones():
    server = MemoryServer()
    early = server.client()
    greeted = server.greeted("Ann")
    server.hub.shutdown()
    assert early.one("reject")["code"] == "server/shutting_down"
    assert greeted.error() == "server/shutting_down"
    assert early.disconnected and greeted.disconnected
    late = server.client()
    assert late.one("reject")["code"] == "server/shutting_down"


def _hello(client, **fields):
    client.send({"type": "hello", "name": "Ann", "id": 1, **fields})
    return client.received()


def test_hello_agrees_on_the_newest_version_both_speak():
    server = MemoryServer()
    cases = [
        ({"version": 2, "versions": [2, 1]}, 2),
        ({"version": 2}, 2),
        ({"version": 1}, 1),  # a client written to version 1: it never sends `versions`
        ({"version": 1, "versions": [1]}, 1),
        ({"version": 5, "versions": [5, 4, 1]}, 1),
        ({"version": 1, "versions": [2]}, 2),  # `version` and `versions` are one list
    ]
    for fields, agreed in cases:
        client = server.client()
        [welcome] = _hello(client, **fields)
        assert (welcome["type"], welcome["version"]) == ("welcome", agreed), fields
        assert client.protocol.session.version == agreed
        assert client.protocol.session.decode_depth == (3 if agreed == 2 else 8)


def test_no_version_in_common_is_the_version_refusal_naming_what_the_server_speaks():
    client = MemoryServer().client()
    [reject] = _hello(client, version=4, versions=[4, 3])
    assert reject["code"] == "session/bad_version" and reject["supported"] == [2, 1]
    assert "speaks protocol versions 2 and 1, not 4 and 3" in reject["message"]
    assert client.disconnected


def test_a_version_1_session_keeps_64_bit_ids_and_8_levels_a_version_2_one_does_not():
    server = MemoryServer()
    old = server.client()
    assert _hello(old, version=1, id=2**53)[0]["id"] == 2**53
    old.send({"type": "ping", "id": 2**64 - 1})
    assert old.received() == [{"type": "pong", "id": 2**64 - 1}]
    old.send({"type": "ping", "id": 3, "x": [[[[[[[1]]]]]]]})  # 8 levels
    [error] = old.received()
    assert (error["code"], error["id"], error["request"]) == ("proto/bad_message", 3, "ping")
    new = server.client()
    [error] = _hello(new, version=2, versions=[2, 1], id=2**53)
    assert error["code"] == "proto/bad_message" and "id" not in error
    assert _hello(new, version=2, versions=[2, 1])[0]["type"] == "welcome"
    new.send({"type": "ping", "id": 3, "x": [[[1]]]})  # 4 levels
    [error] = new.received()
    assert error["code"] == "proto/bad_msgpack" and "nesting limit" in error["message"]
    new.send({"type": "ping", "id": 2**53})
    assert "id" not in new.received()[0]
