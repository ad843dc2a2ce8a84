"""What an `error` echoes (PROTOCOL.md 4.1): the request's `id` if it was valid, whatever else
was wrong; its `type` as `request` if that was a string; neither for a frame that could not be
read. Replies come in the order of the requests, so an error without `id` is still placed."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest
from server_helpers import MemoryServer

from protocol import encode, frame
from protocol.fields import ID_INT_MAX, ID_INT_MIN
from server.limits import Limits


def greeted() -> Any:
    return MemoryServer().greeted("Ann")


def only_error(client: Any) -> dict[str, Any]:
    [error] = client.received()
    assert error["type"] == "error"
    return error


def echoed(error: dict[str, Any]) -> tuple[Any, Any]:
    return error.get("id", "none"), error.get("request", "none")


@pytest.mark.parametrize(
    ("msg", "code", "echo"),
    [
        ({"id": 5, "text": "hi"}, "proto/bad_message", (5, "none")),  # no type
        ({"type": 3, "id": "a"}, "proto/bad_message", ("a", "none")),  # type not a string
        ({"type": "teleport", "id": 5}, "proto/unknown_type", (5, "teleport")),
        ({"type": "ping", "id": float(2**53)}, "proto/bad_message", ("none", "ping")),
        ({"type": "ping", "id": 7.0}, "proto/bad_message", ("none", "ping")),
        ({"type": "ping", "id": 2**53}, "proto/bad_message", ("none", "ping")),
        ({"type": "ping", "id": ID_INT_MIN - 1}, "proto/bad_message", ("none", "ping")),
        ({"type": "ping", "id": "i" * 65}, "proto/bad_message", ("none", "ping")),
        ({"type": "ping", "id": [1]}, "proto/bad_message", ("none", "ping")),
        ({"type": "chat", "id": 8, "text": ""}, "proto/bad_message", (8, "chat")),
        ({"type": "chat", "id": 8, "text": "x", "colour": 1}, "proto/bad_message", (8, "chat")),
        ({"type": "join", "id": 9, "table": 1, "name": " x"}, "lobby/bad_name", (9, "join")),
        (
            {"type": "act", "id": 10, "version": 0, "action": ["x"]},
            "session/wrong_state",
            (10, "act"),
        ),
        ({"type": "join", "table": 99}, "lobby/no_such_table", ("none", "join")),
    ],
)
def test_an_error_echoes_a_valid_id_and_a_string_type(
    msg: dict[str, Any], code: str, echo: tuple[Any, Any]
) -> None:
    client = greeted()
    client.send(msg)
    error = only_error(client)
    assert error["code"] == code
    assert echoed(error) == echo
    assert not client.disconnected


def test_a_long_unknown_type_is_echoed_cut_to_40_characters() -> None:
    client = greeted()
    client.send({"type": "t" * 100, "id": 1})
    assert only_error(client)["request"] == "t" * 40


@pytest.mark.parametrize(
    "body",
    [
        b"\xc1",
        msgpack.packb([1, 2]),
        msgpack.packb("hello"),
        msgpack.packb({"type": "ping"}) + b"\x00",
    ],
)
def test_an_error_about_a_frame_that_is_no_message_echoes_nothing(body: bytes) -> None:
    client = greeted()
    client.send_raw(frame(body))
    error = only_error(client)
    assert error["code"] in ("proto/bad_msgpack", "proto/bad_message")
    assert echoed(error) == ("none", "none")


def test_the_largest_integer_id_is_echoed_as_an_integer() -> None:
    client = greeted()
    client.send({"type": "ping", "id": ID_INT_MAX})
    [pong] = client.received()
    assert pong == {"type": "pong", "id": ID_INT_MAX}
    client.send({"type": "ping", "id": ID_INT_MIN})
    assert client.received() == [{"type": "pong", "id": ID_INT_MIN}]


def test_a_float_id_in_hello_is_refused_without_an_id_and_the_session_still_waits() -> None:
    client = MemoryServer().client()
    client.send({"type": "hello", "version": 1, "name": "Ann", "id": float(2**53)})
    error = only_error(client)
    assert (error["code"], echoed(error)) == ("proto/bad_message", ("none", "hello"))
    assert not client.disconnected
    client.hello("Ann")


def test_a_reject_for_a_version_echoes_the_valid_id_and_no_request() -> None:
    client = MemoryServer().client()
    client.send({"type": "hello", "version": 3, "name": "Ann", "id": "h"})
    [reject] = client.received()
    assert reject["type"] == "reject" and reject["id"] == "h" and "request" not in reject


def test_replies_and_errors_come_in_the_order_of_the_requests() -> None:
    client = greeted()
    requests = [
        {"type": "ping", "id": 1},
        {"type": "ping", "id": 2.5},  # refused, without an id
        {"type": "list", "id": 3},
        {"type": "pong", "id": 4},  # no reply
        {"type": "spectate", "table": 42, "id": 5},
        {"type": "chat", "text": "hi", "id": 6},
    ]
    client.send_raw(b"".join(frame(encode(m)) for m in requests))
    got = [(m["type"], m.get("id")) for m in client.received()]
    assert got == [("pong", 1), ("error", None), ("tables", 3), ("error", 5), ("chat", 6)]


def test_errors_that_answer_no_request_carry_neither_id_nor_request() -> None:
    server = MemoryServer(Limits(rate=1, burst=2))
    client = server.greeted("Ann")
    client.send({"type": "ping", "id": 1})
    client.send({"type": "ping", "id": 2})  # past the burst
    error = client.received()[-1]
    assert error["code"] == "limit/rate" and echoed(error) == ("none", "none")
