"""The one codec: what it accepts, what it refuses and with which code."""

from __future__ import annotations

import struct

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol import MAX_DEPTH, ProtocolError, decode, encode, frame
from protocol.codec import Prepacked, encode_value
from protocol.framing import HEADER_SIZE, MAX_FRAME, body_length


def code_of(body: bytes) -> str:
    with pytest.raises(ProtocolError) as info:
        decode(body)
    return info.value.code


def test_a_message_survives_a_round_trip():
    msg = {"type": "act", "id": 7, "version": 3, "action": ["assign", 2, "P3"]}
    assert decode(encode(msg)) == msg


def test_strings_are_msgpack_str_never_bin():
    assert encode({"a": "b"}) == b"\x81\xa1a\xa1b"


def test_frame_prefixes_a_big_endian_length():
    body = encode({"type": "ping"})
    assert frame(body) == struct.pack(">I", len(body)) + body
    assert HEADER_SIZE == 4
    assert body_length(frame(body)[:4]) == len(body)


def test_the_inbound_cap_is_64_kib():
    assert MAX_FRAME == 65536


@pytest.mark.parametrize(
    "value",
    [[1, 2], "text", 5, None, True, 1.5],
    ids=["array", "str", "int", "nil", "bool", "float"],
)
def test_a_top_level_other_than_a_map_is_a_bad_message(value):
    assert code_of(msgpack.packb(value)) == "proto/bad_message"


@pytest.mark.parametrize(
    "body",
    [
        b"",  # nothing at all
        b"\xc1",  # the one never-used msgpack byte
        b"\x82\xa1a",  # a map announcing more than it holds
        msgpack.packb({"a": 1}) + b"\x00",  # trailing bytes after the value
        b"\x81\xa1a\xc4\x01x",  # binary value
        b"\x81\xa1a\xd4\x05\x00",  # ext type value
        msgpack.packb({"a": msgpack.Timestamp(1)}),  # the timestamp extension
        b"\x81\x01\xa1a",  # integer map key
        b"\x81\xa2\xff\xfe\x01",  # invalid UTF-8 in a key
        b"\xdf\xff\xff\xff\xff",  # a map header claiming 4 billion entries
    ],
    ids=[
        "empty",
        "reserved-byte",
        "truncated",
        "trailing",
        "bin",
        "ext",
        "timestamp",
        "int-key",
        "bad-utf8",
        "huge-map-header",
    ],
)
def test_anything_but_one_plain_msgpack_value_is_bad_msgpack(body):
    assert code_of(body) == "proto/bad_msgpack"


def nested(depth: int) -> dict:
    msg: dict = {"type": "ping"}
    inner: list = []
    msg["x"] = inner
    for _ in range(depth - 2):
        new: list = []
        inner.append(new)
        inner = new
    return msg


def test_nesting_up_to_the_limit_decodes():
    assert decode(encode(nested(MAX_DEPTH)))["type"] == "ping"


def test_nesting_beyond_the_limit_is_refused():
    assert code_of(encode(nested(MAX_DEPTH + 1))) == "proto/bad_msgpack"


def test_deep_nesting_inside_a_full_frame_is_refused_without_recursion_errors():
    body = b"\x81\xa1a" + b"\x91" * (MAX_FRAME - 4) + b"\xc0"
    assert code_of(body) == "proto/bad_msgpack"


def test_a_trusting_decoder_skips_the_shape_walk():
    deep = encode(nested(MAX_DEPTH + 5))
    assert decode(deep, max_depth=None)["type"] == "ping"


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**64 - 1),
    st.text(max_size=20),
    st.floats(allow_nan=False),
)
values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)


@given(st.dictionaries(st.text(max_size=8), values, max_size=6))
def test_any_plain_map_round_trips(msg):
    try:
        decoded = decode(encode(msg))
    except ProtocolError as err:  # only nesting may legitimately refuse
        assert err.code == "proto/bad_msgpack"
        return
    assert decoded == msg


@given(st.binary(max_size=200))
def test_random_bytes_decode_or_raise_protocol_error_only(data):
    try:
        result = decode(data)
    except ProtocolError as err:
        assert err.code in ("proto/bad_msgpack", "proto/bad_message")
    else:
        assert isinstance(result, dict)


def test_a_message_that_cannot_be_encoded_leaves_the_encoder_clean():
    with pytest.raises(TypeError):
        encode({"type": "x", "bad": object()})
    assert decode(encode({"type": "ping"})) == {"type": "ping"}


def test_nothing_outside_the_protocol_package_imports_msgpack():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    offenders = []
    for package in ("games", "server", "client", "ai", "cosmoport"):
        for path in (root / package).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            if "import msgpack" in text or "from msgpack" in text:
                offenders.append(str(path.relative_to(root)))
    assert offenders == []


@given(
    st.dictionaries(
        st.text(max_size=8),
        st.recursive(
            st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(max_size=20),
            lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner),
            max_leaves=12,
        ),
        max_size=6,
    ),
    st.data(),
)
def test_a_prepacked_message_encodes_to_the_very_bytes_of_the_plain_one(msg, data):
    """A finished game's record is encoded once and its bytes copied into each reply: the
    frame is byte for byte the one encoding the whole message gives."""
    raw_keys = data.draw(st.sets(st.sampled_from(sorted(msg)))) if msg else set()
    packed = Prepacked(msg, {key: encode_value(msg[key]) for key in raw_keys})
    assert packed == msg
    assert encode(packed) == encode(msg)
    assert decode(encode(packed), max_depth=None) == msg
