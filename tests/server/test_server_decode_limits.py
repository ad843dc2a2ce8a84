"""Undecodable frames cost the sender its rate, and a frame over the rate is never decoded."""

from __future__ import annotations

from typing import Any

import pytest
from server_helpers import MemoryServer

import server.connection
from protocol import decode, encode, frame
from server.limits import Limits

AMPLIFIER = frame(b"\xdd\x00\x01\x00\x00" * 1024)
"""The frame of issue 13: nested array headers claiming 65,536 entries each."""


@pytest.fixture
def decoded(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """Every frame body the server decodes, in order."""
    bodies: list[bytes] = []

    def counting_decode(body: bytes, **options: Any) -> dict[str, Any]:
        bodies.append(body)
        return decode(body, **options)

    monkeypatch.setattr(server.connection, "decode", counting_decode)
    return bodies


def codes(messages: list[dict[str, Any]]) -> list[str]:
    return [m["code"] for m in messages if m["type"] in ("error", "reject")]


def test_amplification_frames_are_charged_against_the_rate_until_the_connection_is_cut():
    server = MemoryServer(Limits(rate=5, burst=10))
    client = server.greeted("Ann")  # 1 message of the burst
    client.send_raw(AMPLIFIER * 9)
    assert codes(client.received()) == ["proto/bad_msgpack"] * 9
    assert not client.disconnected
    client.send_raw(AMPLIFIER)
    assert client.error() == "limit/rate"
    assert client.disconnected


def test_a_frame_over_the_rate_is_refused_before_it_is_decoded(decoded):
    server = MemoryServer(Limits(rate=5, burst=10))
    client = server.greeted("Ann")
    client.send_raw(AMPLIFIER * 20)  # one read: the burst, then ten more
    assert codes(client.received()) == ["proto/bad_msgpack"] * 9 + ["limit/rate"]
    assert client.disconnected
    assert len(decoded) == 1 + 9  # the hello and the frames within the burst, nothing more


def test_before_hello_too_a_frame_over_the_rate_is_not_decoded(decoded):
    server = MemoryServer(Limits(rate=5, burst=3))
    client = server.client()
    client.send_raw(AMPLIFIER * 5)
    assert codes(client.received()) == ["proto/bad_msgpack"] * 3 + ["limit/rate"]
    assert client.disconnected
    assert len(decoded) == 3


def test_a_steady_sender_of_garbage_is_answered_but_never_cut_off():
    server = MemoryServer(Limits(rate=5, burst=5))
    client = server.greeted("Ann")
    for _ in range(30):
        server.clock.advance(0.25)  # 4 per second, within the rate
        client.send_raw(AMPLIFIER)
        assert client.error() == "proto/bad_msgpack"
    assert not client.disconnected
    assert client.one("pong", client.request({"type": "ping"}))


def test_the_largest_valid_create_is_still_a_request_like_any_other():
    server = MemoryServer()
    client = server.greeted("Ann")
    options = {f"o{i:02d}": list(range(32)) for i in range(32)}
    client.send_raw(
        frame(
            encode(
                {"type": "create", "game": "secret_race", "players": 2, "options": options, "id": 1}
            )
        )
    )
    assert client.error() == "lobby/bad_options"  # decoded and validated: the game refused it
