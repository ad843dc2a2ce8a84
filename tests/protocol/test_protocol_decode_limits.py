"""The decoder's limits: every client message fits them, nothing else gets past them cheaply.

The codec refuses a frame whose shape no client message can have (too deep, too wide, too many
values) before msgpack builds anything; what it accepts is exactly what msgpack decodes. Costs
are measured by ``bench/decode.py``; here, memory stands in for work, because it can be asserted
exactly: a frame refused by the scan allocates next to nothing, whatever it claims.
"""

from __future__ import annotations

import contextlib
import copy
import struct
import tracemalloc
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protocol import CATALOGUE, MAX_FRAME, ProtocolError, decode, encode, validate
from protocol.codec import MAX_DEPTH, MAX_ENTRIES, MAX_VALUES, V1_MAX_DEPTH, depth_for
from protocol.fields import (
    ACTION_MAX_PARTS,
    ACTION_STR_MAX,
    CHAT_MAX,
    ID_STR_MAX,
    INT_MAX,
    NAME_MAX,
    OPTION_KEY_MAX,
    OPTION_LIST_MAX,
    OPTIONS_MAX_KEYS,
    TOKEN_MAX,
    VERSIONS_MAX,
)

ISSUE_13_FRAME = b"\xdd\x00\x01\x00\x00" * 1024
"""The frame of issue 13: 1,024 nested array headers, each claiming 65,536 entries."""


def code_of(body: bytes) -> str:
    with pytest.raises(ProtocolError) as info:
        decode(body)
    return info.value.code


def peak_bytes_allocated(body: bytes) -> int:
    """The most memory decoding ``body`` held at once (beyond what was held before)."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before, _ = tracemalloc.get_traced_memory()
        with contextlib.suppress(ProtocolError):
            decode(body)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - before


# --- the amplification frames ----------------------------------------------------------------


def test_the_amplification_frame_of_issue_13_is_refused_as_bad_msgpack():
    assert code_of(ISSUE_13_FRAME) == "proto/bad_msgpack"


def _open_levels(width: int, scalar: bytes) -> bytes:
    level = b"\xdc" + struct.pack(">H", width) + scalar * (width - 1)
    return level * (MAX_FRAME // len(level))


def _array_filling_the_frame(item: bytes) -> bytes:
    head = b"\x82\xa4type\xa4ping\xa1x"
    count = (MAX_FRAME - len(head) - 3) // len(item)
    return head + b"\xdc" + struct.pack(">H", count) + item * count


HOSTILE = {
    "issue 13": ISSUE_13_FRAME,
    "array32 headers, frame full": b"\xdd\x00\x01\x00\x00" * (MAX_FRAME // 5),
    "map32 headers, frame full": b"\xdf\x00\x01\x00\x00\xa0" * (MAX_FRAME // 6),
    "array16 headers, frame full": b"\xdc\xff\xff" * (MAX_FRAME // 3),
    "fixarray headers, frame full": b"\x91" * MAX_FRAME,
    "open wide arrays of strings": _open_levels(MAX_ENTRIES, b"\xa2ab"),
    "array of empty arrays": _array_filling_the_frame(b"\x90"),
    "array of nils": _array_filling_the_frame(b"\xc0"),
    "map of many keys": b"\xde\xff\xff"
    + b"".join(b"\xa2%02x\xc0" % (i % 256) for i in range(5000)),
    "array32 claiming 2^32-1 entries": b"\x81\xa1x\xdd\xff\xff\xff\xff",
}


@pytest.mark.parametrize("body", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_frame_is_refused_before_anything_is_built(body):
    # Before the limits, the issue's frame made msgpack allocate about 70 MB.
    assert code_of(body) == "proto/bad_msgpack"
    assert peak_bytes_allocated(body) < 16 * 1024


# --- every client message fits ----------------------------------------------------------------


def _largest_options() -> dict[str, Any]:
    return {f"{i:0{OPTION_KEY_MAX}d}": [INT_MAX] * OPTION_LIST_MAX for i in range(OPTIONS_MAX_KEYS)}


LARGEST: dict[str, Any] = {
    "int": INT_MAX,
    "int|nil": INT_MAX,
    "str": "s",
    "bool": True,
    "id": "i" * ID_STR_MAX,
    "name": "n" * NAME_MAX,
    "text": "t" * CHAT_MAX,
    "token": "k" * TOKEN_MAX,
    "action": ["a" * ACTION_STR_MAX] * ACTION_MAX_PARTS,
    "options": _largest_options(),
    "versions": [INT_MAX] * VERSIONS_MAX,
}
"""For each field kind a client sends, its largest value (the most values, the deepest)."""


def largest_message(kind: str) -> dict[str, Any]:
    """A valid message of type ``kind`` with every field a client may send at its largest."""
    spec = next(m for m in CATALOGUE if m.type == kind)
    msg: dict[str, Any] = {"type": kind}
    for field in spec.fields:
        try:  # a field only the server fills in is refused before any other check
            validate({"type": kind, field.name: None})
        except ProtocolError as err:
            if "has no field" in err.message:
                continue
        assert field.kind == "choice" or field.kind in LARGEST, (
            f"`{kind}.{field.name}` is a client field of kind {field.kind!r}: give its largest "
            "value in LARGEST, and its shape in protocol.codec if it is a container"
        )
        if field.kind == "choice":
            msg[field.name] = field.choices[0]
        elif field.kind == "int" and field.high is not None:
            msg[field.name] = field.high
        else:
            msg[field.name] = copy.deepcopy(LARGEST[field.kind])
    validate(msg)
    return msg


CLIENT_MESSAGES = sorted(m.type for m in CATALOGUE if m.sender in ("client", "both"))


@pytest.mark.parametrize("kind", CLIENT_MESSAGES)
def test_the_largest_message_of_every_client_type_decodes(kind):
    msg = largest_message(kind)
    validate(msg)
    assert decode(encode(msg)) == msg


def test_the_limits_are_those_of_the_largest_messages():
    assert MAX_DEPTH == 3  # the message map, `options`, an option's array
    assert V1_MAX_DEPTH == 8  # version 1, as first written
    widest = max(ACTION_MAX_PARTS, OPTIONS_MAX_KEYS, OPTION_LIST_MAX)
    assert widest == MAX_ENTRIES
    largest = max(_values(largest_message(kind)) for kind in CLIENT_MESSAGES)
    assert largest == MAX_VALUES


def _values(value: Any) -> int:
    """Every msgpack value in ``value``: itself, and each map key and item within."""
    if isinstance(value, dict):
        return 1 + sum(1 + _values(item) for item in value.values())
    if isinstance(value, list):
        return 1 + sum(_values(item) for item in value)
    return 1


def test_one_level_deeper_than_the_limit_is_refused():
    msg = largest_message("create")
    msg["options"]["deeper"] = [[1]]
    del msg["options"][next(iter(msg["options"]))]
    assert code_of(encode(msg)) == "proto/bad_msgpack"


def test_one_entry_wider_than_the_limit_is_refused():
    assert decode(encode({"type": "ping", "x": [0] * MAX_ENTRIES}))
    assert code_of(encode({"type": "ping", "x": [0] * (MAX_ENTRIES + 1)})) == "proto/bad_msgpack"
    assert code_of(encode({"type": "ping", "x": {str(i): 0 for i in range(MAX_ENTRIES + 1)}})) == (
        "proto/bad_msgpack"
    )


def test_one_value_more_than_the_limit_is_refused():
    msg = largest_message("create")
    assert _values(msg) == MAX_VALUES
    assert decode(encode(msg)) == msg
    msg["options"][next(iter(msg["options"]))] = INT_MAX  # frees 32 values, then one too many
    msg["x"] = [0] * (OPTION_LIST_MAX - 1)
    assert _values(msg) == MAX_VALUES + 1
    assert code_of(encode(msg)) == "proto/bad_msgpack"


def test_a_trusting_decoder_takes_the_server_frames_wide_and_deep():
    tables = [{"id": i, "seats": [[f"p{j}", None] for j in range(5)]} for i in range(2000)]
    deep: Any = "leaf"
    for _ in range(20):
        deep = {"d": [deep]}
    msg = {"type": "tables", "tables": tables, "deep": deep}
    assert decode(encode(msg), max_depth=None) == msg


# --- anything else raises ProtocolError, and agrees with msgpack ------------------------------


class _Pairs(list):  # type: ignore[type-arg]
    """A msgpack map as its raw (key, value) pairs: duplicate keys still count as entries."""


def reference(body: bytes) -> tuple[str, Any]:
    """What the codec should make of ``body``, worked out the slow and obvious way."""
    try:
        value = msgpack.unpackb(
            body, raw=False, strict_map_key=False, object_pairs_hook=_Pairs, use_list=True
        )
    except Exception:
        return "proto/bad_msgpack", None
    values = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        values += 1
        if isinstance(item, _Pairs | list) and (depth > MAX_DEPTH or len(item) > MAX_ENTRIES):
            return "proto/bad_msgpack", None
        if isinstance(item, _Pairs):
            for key, child in item:
                if not isinstance(key, str):
                    return "proto/bad_msgpack", None
                values += 1
                stack.append((child, depth + 1))
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
        elif not isinstance(item, str | int | float | bool | type(None)):
            return "proto/bad_msgpack", None  # bin, ext, timestamps
    if values > MAX_VALUES:
        return "proto/bad_msgpack", None
    if not isinstance(value, _Pairs):
        return "proto/bad_message", None
    return "ok", _plain(value)


def _plain(value: Any) -> Any:
    if isinstance(value, _Pairs):
        return {key: _plain(child) for key, child in value}
    if isinstance(value, list):
        return [_plain(child) for child in value]
    return value


def check_against_reference(body: bytes) -> None:
    expected, value = reference(body)
    try:
        decoded = decode(body)
    except ProtocolError as err:
        assert err.code == expected, (err, body.hex())
        return
    assert expected == "ok", body.hex()
    assert msgpack.packb(decoded) == msgpack.packb(value)  # NaN-proof equality


SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_SCALAR_MAKERS = (
    lambda arg: b"\xc0",
    lambda arg: b"\xc3",
    lambda arg: b"\xc2",
    lambda arg: bytes([arg & 0x7F]),
    lambda arg: bytes([0xE0 | (arg & 0x1F)]),
    lambda arg: b"\xcc" + bytes([arg]),
    lambda arg: b"\xd1" + bytes([arg, arg]),
    lambda arg: b"\xcf" + bytes([arg]) * 8,
    lambda arg: b"\xcb" + struct.pack(">d", arg / 3),
    lambda arg: b"\xca" + struct.pack(">f", -arg / 7),
    lambda arg: msgpack.packb("s" * (arg % 40)),
    lambda arg: msgpack.packb("é" * (arg % 20)),
    lambda arg: b"\xa2\xc3\x28",  # invalid UTF-8
    lambda arg: b"\xc4\x01" + bytes([arg]),  # bin
    lambda arg: b"\xd4" + bytes([arg & 0x7F, arg]),  # ext (-1: a timestamp)
    lambda arg: bytes([arg]),  # any byte at all: a header, the never-used 0xc1...
)


def build(program: bytes) -> bytes:
    """msgpack bytes made by following ``program``, one choice per byte (0 once it runs out).

    Mostly well formed: every scalar type (bin and ext included), containers up to one entry
    wider and two levels deeper than the limits, map keys now and then not strings, headers
    now and then claiming one entry more or fewer than they hold, a stray byte here and there.
    Hypothesis draws the program as plain bytes, which is quick and shrinks well.
    """
    choices = iter(program)

    def choose() -> int:
        return next(choices, 0)

    def value(depth: int) -> bytes:
        op = choose()
        if op % 16 < 12 or depth > MAX_DEPTH + 1:
            kind = op // 16
            if kind >= 12 and choose() % 4:  # the refused kinds, a quarter as often
                kind -= 12
            return _SCALAR_MAKERS[kind](choose())
        is_map = op % 16 >= 14
        entries = choose() % (MAX_ENTRIES + 2)
        items = []
        for _ in range(entries):
            key = b""
            if is_map:
                key = value(depth + 1) if choose() % 8 == 7 else msgpack.packb(f"k{choose()}")
            items.append(key + value(depth + 1))
        lie = {1: 1, 2: -1}.get(choose() % 16, 0)
        return _header(is_map, max(0, entries + lie), op // 16 % 3) + b"".join(items)

    return value(0)


def _header(is_map: bool, count: int, form: int) -> bytes:
    if form == 0 and count < 16:
        return bytes([(0x80 if is_map else 0x90) | count])
    if form <= 1 and count < 65536:
        return (b"\xde" if is_map else b"\xdc") + struct.pack(">H", count)
    return (b"\xdf" if is_map else b"\xdd") + struct.pack(">I", count)


structured = st.one_of(
    st.binary(max_size=300).map(build),
    st.binary(max_size=300).map(lambda program: build(b"\x0e" + program)),  # a map
)
"""msgpack byte strings (see :func:`build`), half of them maps at the top."""


@SETTINGS
@given(st.binary(max_size=2000))
def test_random_bytes_raise_protocol_error_only_and_agree_with_msgpack(body):
    check_against_reference(body)


@SETTINGS
@given(structured, st.binary(max_size=2))
def test_structured_frames_raise_protocol_error_only_and_agree_with_msgpack(body, tail):
    check_against_reference(body)
    check_against_reference(body + tail)
    check_against_reference(body[: len(body) // 2])


def _nested_values(depth: int) -> st.SearchStrategy[Any]:
    scalars = st.one_of(
        st.none(), st.booleans(), st.integers(-(2**63), 2**64 - 1), st.floats(), st.text()
    )
    if depth == 1:
        return scalars
    inner = _nested_values(depth - 1)
    return st.one_of(
        scalars,
        st.lists(inner, max_size=MAX_ENTRIES),
        st.dictionaries(st.text(max_size=6), inner, max_size=MAX_ENTRIES),
    )


@SETTINGS
@given(st.dictionaries(st.text(max_size=6), _nested_values(MAX_DEPTH - 1), max_size=MAX_ENTRIES))
def test_every_map_within_the_limits_round_trips(msg):
    body = encode(msg)
    check_against_reference(body)
    if _values(msg) <= MAX_VALUES:
        assert msgpack.packb(decode(body)) == msgpack.packb(msg)


def test_protocol_md_states_the_decoder_limits():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "PROTOCOL.md").read_text(encoding="utf-8")
    section = text[text.index("## 2. Encoding") : text.index("## 3. Versioning")]
    assert f"nested at most **{MAX_DEPTH}** containers deep" in section
    assert f"more than **{MAX_ENTRIES}** entries" in section
    assert f"at most **{MAX_VALUES:,}** msgpack values" in section
    limits = text[text.index("## 8. Limits") : text.index("## 9. Message reference")]
    assert (
        f"nesting {MAX_DEPTH} levels ({V1_MAX_DEPTH} in version 1 and before the `hello`),\n"
        f"{MAX_ENTRIES} entries" in limits
    )
    assert f"{MAX_VALUES:,} values in all" in limits
    version_1 = text[text.index("### 3.2 Version 1") : text.index("## 4. Conventions")]
    assert f"nest up to **{V1_MAX_DEPTH}** containers deep" in version_1


def test_version_1_decodes_eight_levels_within_the_same_caps():
    """Version 1's nesting: 8 levels are decoded (and refused for their fields), 9 are not; the
    entry and value caps are the same as version 2's."""
    assert depth_for(None) == depth_for(1) == V1_MAX_DEPTH and depth_for(2) == MAX_DEPTH
    deep: Any = 1
    for _ in range(V1_MAX_DEPTH - 1):
        deep = [deep]
    body = encode({"type": "ping", "x": deep})
    assert decode(body, max_depth=V1_MAX_DEPTH)["x"] == deep
    with pytest.raises(ProtocolError, match="nested deeper than 3"):
        decode(body)
    deeper = encode({"type": "ping", "x": [deep]})
    with pytest.raises(ProtocolError, match="nested deeper than 8"):
        decode(deeper, max_depth=V1_MAX_DEPTH)
    wide = encode({"type": "ping", "x": [[0] * (MAX_ENTRIES + 1)]})
    with pytest.raises(ProtocolError, match="entries"):
        decode(wide, max_depth=V1_MAX_DEPTH)
    for hostile in HOSTILE.values():
        with pytest.raises(ProtocolError):
            decode(hostile, max_depth=V1_MAX_DEPTH)
