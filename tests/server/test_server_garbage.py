"""Garbage in: every kind of bad input gets an error or a disconnect, and other tables carry on."""

from __future__ import annotations

import struct

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_helpers import MemoryServer

from protocol import CLIENT_TYPES, MAX_FRAME, encode, frame

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class World:
    """A server with a game in progress between two well-behaved clients, and a troublemaker."""

    def __init__(self, greet: bool) -> None:
        self.server = MemoryServer()
        self.table, (self.a, self.b) = self.server.table_with(2, options={"target": 100})
        self.a.received()
        self.b.received()
        self.version = 0
        self.bad = self.server.client("10.9.9.9")
        if greet:
            self.bad.hello("troll")

    def others_carry_on(self) -> None:
        seat = self.server.hub.lobby.table(self.table).engine.current_player
        actor = (self.a, self.b)[seat]
        got = actor.request({"type": "act", "version": self.version, "action": ["step", 1]})
        assert actor.one("update", got)["version"] == self.version + 1
        self.version += 1
        fresh = self.server.greeted("newcomer", host="10.1.2.3")
        fresh.one("tables", fresh.request({"type": "list"}))

    def only_errors(self) -> None:
        for msg in self.bad.received():
            assert msg["type"] in ("error", "reject"), msg


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**63), 2**64 - 1),
    st.text(max_size=10),
    st.floats(),
    st.binary(max_size=10),
)
any_value = st.recursive(
    scalars,
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(scalars, kids, max_size=4),
    max_leaves=15,
)


@SETTINGS
@given(data=st.binary(max_size=400), greet=st.booleans())
def test_random_bytes(data, greet):
    world = World(greet)
    world.bad.send_raw(data)
    world.only_errors()
    world.others_carry_on()


@SETTINGS
@given(body=st.binary(max_size=300), greet=st.booleans())
def test_random_bodies_in_well_formed_frames(body, greet):
    world = World(greet)
    world.bad.send_raw(frame(body))
    world.only_errors()
    world.others_carry_on()


@SETTINGS
@given(value=any_value, greet=st.booleans())
def test_valid_msgpack_of_the_wrong_shape(value, greet):
    world = World(greet)
    world.bad.send_raw(frame(msgpack.packb(value, use_bin_type=True)))
    world.only_errors()
    world.others_carry_on()


@SETTINGS
@given(
    kind=st.sampled_from(sorted(CLIENT_TYPES)),
    fields=st.dictionaries(
        st.sampled_from(
            [
                "id",
                "version",
                "name",
                "table",
                "action",
                "token",
                "text",
                "slot",
                "game",
                "players",
                "options",
                "seating",
                "autostart",
                "client",
                "x",
            ]
        ),
        any_value,
        max_size=4,
    ),
    greet=st.booleans(),
)
def test_known_types_with_random_fields(kind, fields, greet):
    world = World(greet)
    msg = {"type": kind, **fields}
    try:
        data = frame(msgpack.packb(msg, use_bin_type=True))
    except (OverflowError, ValueError):
        return
    world.bad.send_raw(data)
    world.bad.received()  # some of these are valid requests; the catalogue checks the replies
    world.others_carry_on()


@SETTINGS
@given(cut=st.integers(min_value=1, max_value=60))
def test_a_truncated_frame_waits_and_a_drop_then_cleans_up(cut):
    world = World(greet=True)
    data = frame(encode({"type": "chat", "text": "x" * 50}))
    world.bad.send_raw(data[: min(cut, len(data) - 1)])
    assert world.bad.received() == []
    world.bad.drop()
    world.others_carry_on()
    assert all(s.name != "troll" for s in world.server.hub.sessions)


@SETTINGS
@given(length=st.integers(min_value=MAX_FRAME + 1, max_value=2**32 - 1), greet=st.booleans())
def test_oversized_length_headers_disconnect(length, greet):
    world = World(greet)
    world.bad.send_raw(struct.pack(">I", length) + b"\x80" * 10)
    assert world.bad.error() == "proto/frame_too_large"
    assert world.bad.disconnected
    world.others_carry_on()


@SETTINGS
@given(depth=st.integers(min_value=9, max_value=MAX_FRAME // 2), kind=st.sampled_from("ml"))
def test_deep_nesting(depth, kind):
    world = World(greet=True)
    opener = b"\x81\xa1x" if kind == "m" else b"\x91"
    body = b"\x82\xa4type\xa4ping\xa1x" + opener * depth + b"\xc0"
    world.bad.send_raw(frame(body[:MAX_FRAME]))
    world.only_errors()
    world.others_carry_on()


def test_a_stream_of_mixed_garbage_then_a_good_request_still_gets_an_answer():
    world = World(greet=True)
    for data in (
        frame(b"\xc1"),
        frame(msgpack.packb([1, 2])),
        frame(encode({"type": "nope"})),
        frame(encode({"type": "act", "version": -1, "action": []})),
    ):
        world.bad.send_raw(data)
    codes = [m["code"] for m in world.bad.received()]
    assert codes == [
        "proto/bad_msgpack",
        "proto/bad_message",
        "proto/unknown_type",
        "proto/bad_message",
    ]
    world.bad.one("pong", world.bad.request({"type": "ping"}))
