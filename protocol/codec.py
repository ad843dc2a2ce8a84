"""The one codec: a message (a ``dict``) to a frame body and back, in msgpack.

Nothing else in Cosmoport imports msgpack. :func:`encode` writes strings as msgpack ``str`` and
never uses ``bin``. :func:`decode` accepts exactly one msgpack map whose keys are strings, made
only of maps, arrays, strings, integers, floats, booleans and nil, within the shape any client
message can have: nested at most :data:`MAX_DEPTH` containers deep, no container of more than
:data:`MAX_ENTRIES` entries, at most :data:`MAX_VALUES` values in all. Anything else raises
:class:`~protocol.errors.ProtocolError` with code ``proto/bad_msgpack`` (or ``proto/bad_message``
for a valid value that is not a map).

The shape is checked by a scan of the bytes *before* msgpack builds a single object, and the
scan gives up at the first value past a limit, so what a frame can cost is bounded by what the
largest valid message costs, whatever its content (``bench/decode.py`` measures it). The limits
are derived from the message catalogue and its field limits, never set by hand.
"""

from __future__ import annotations

import threading
from typing import Any

import msgpack  # type: ignore[import-untyped]  # ships no type information

from protocol.errors import ProtocolError
from protocol.fields import (
    ACTION_MAX_PARTS,
    OPTION_LIST_MAX,
    OPTIONS_MAX_KEYS,
    VERSIONS_MAX,
    Field,
)
from protocol.framing import MAX_FRAME, MAX_SERVER_FRAME
from protocol.messages import CATALOGUE

# (values, depth) of each field kind whose value is a container: how many msgpack values it
# holds at most, itself included, and how many containers deep it goes. Any other kind a client
# sends is one scalar (tests/protocol/test_protocol_decode_limits.py keeps this table complete).
_CONTAINER_KINDS: dict[str, tuple[int, int]] = {
    "action": (1 + ACTION_MAX_PARTS, 1),
    "options": (1 + OPTIONS_MAX_KEYS * (2 + OPTION_LIST_MAX), 2),  # key, value, array items
    "versions": (1 + VERSIONS_MAX, 1),
}


def _message_shape(fields: tuple[Field, ...]) -> tuple[int, int, int]:
    """(entries, values, depth) of the largest message with these fields (and ``type``).

    Fields only the server fills in (a ``chat``'s ``from``...) are counted too: a little room
    to spare, never too little."""
    values = 1 + 2  # the map, the `type` key and its string
    depth = 0
    for field in fields:
        field_values, field_depth = _CONTAINER_KINDS.get(field.kind, (1, 0))
        values += 1 + field_values
        depth = max(depth, field_depth)
    return 1 + len(fields), values, 1 + depth


_SHAPES = [_message_shape(m.fields) for m in CATALOGUE if m.sender in ("client", "both")]

MAX_DEPTH = max(depth for _entries, _values, depth in _SHAPES)
"""Deepest container nesting in a client message (the message map is level 1; ``options``
and its arrays make 3)."""

V1_MAX_DEPTH = 8
"""The nesting version 1 admits (as it was first written): deeper than any client message, so a
frame nested 4 to 8 deep is decoded and refused for its fields (``proto/bad_message``, echoing its
``id`` and ``type``), within the same entry and value caps (``bench/decode.py`` measures it)."""


def depth_for(version: int | None) -> int:
    """The nesting the server decodes a session's frames with: version 1's until the session has
    agreed on version 2 or later (``None``: no ``hello`` yet), :data:`MAX_DEPTH` then."""
    return MAX_DEPTH if version is not None and version >= 2 else V1_MAX_DEPTH


MAX_ENTRIES = max(
    max(entries for entries, _values, _depth in _SHAPES),
    ACTION_MAX_PARTS,
    OPTIONS_MAX_KEYS,
    OPTION_LIST_MAX,
)
"""Most entries in one container of a client message (array items, or map keys)."""

MAX_VALUES = max(values for _entries, values, _depth in _SHAPES)
"""Most msgpack values in one client message, every container, map key and scalar counted."""

# What each first byte of a msgpack value is, for the scan: a scalar of fixed size (its size in
# bytes, header included), or one of the codes below.
_STR8, _STR16, _STR32 = -1, -2, -3
_FIXARRAY, _ARRAY16, _ARRAY32 = -4, -5, -6
_FIXMAP, _MAP16, _MAP32 = -7, -8, -9
_REFUSED = 0  # bin, ext (the timestamp included) and the never-used 0xc1


def _first_bytes() -> tuple[int, ...]:
    table = [_REFUSED] * 256
    for byte in range(0x80):
        table[byte] = 1  # positive fixint
    for byte in range(0xE0, 0x100):
        table[byte] = 1  # negative fixint
    for byte in range(0x80, 0x90):
        table[byte] = _FIXMAP
    for byte in range(0x90, 0xA0):
        table[byte] = _FIXARRAY
    for byte in range(0xA0, 0xC0):
        table[byte] = 1 + (byte & 0x1F)  # fixstr
    sizes = {0xC0: 1, 0xC2: 1, 0xC3: 1, 0xCA: 5, 0xCB: 9, 0xCC: 2, 0xCD: 3, 0xCE: 5, 0xCF: 9}
    sizes |= {0xD0: 2, 0xD1: 3, 0xD2: 5, 0xD3: 9}  # nil, booleans, floats, integers
    sizes |= {0xD9: _STR8, 0xDA: _STR16, 0xDB: _STR32, 0xDC: _ARRAY16, 0xDD: _ARRAY32}
    sizes |= {0xDE: _MAP16, 0xDF: _MAP32}
    for byte, size in sizes.items():
        table[byte] = size
    return tuple(table)


_FIRST_BYTE = _first_bytes()
_LONG_STR = frozenset((0xD9, 0xDA, 0xDB))
_LENGTH_BYTES = {_STR8: 1, _STR16: 2, _STR32: 4, _ARRAY16: 2, _ARRAY32: 4, _MAP16: 2, _MAP32: 4}

# One reusable packer per thread: ``msgpack.packb`` allocates a fresh buffer on every call, and
# encoding is on the server's hot path (one frame per seat per action).
_local = threading.local()


class Prepacked(dict[str, Any]):
    """A message some of whose values are already encoded (``raw``: key -> the msgpack bytes
    of its value), for a large value sent again and again unchanged, such as a finished game's
    record: :func:`encode` copies those bytes in instead of encoding the value again. To
    everything else it is the plain message, values included."""

    __slots__ = ("raw",)

    def __init__(self, msg: dict[str, Any], raw: dict[str, bytes]) -> None:
        super().__init__(msg)
        self.raw = raw


def _packer() -> Any:
    packer = getattr(_local, "packer", None)
    if packer is None:
        packer = _local.packer = msgpack.Packer(use_bin_type=True, autoreset=True)
    return packer


def encode_value(value: Any) -> bytes:
    """The msgpack bytes of one value, as :func:`encode` writes it inside a message (for the
    ``raw`` of a :class:`Prepacked`)."""
    packer = _packer()
    try:
        body: bytes = packer.pack(value)
    except BaseException:
        _local.packer = None
        raise
    return body


def encode(msg: dict[str, Any]) -> bytes:
    """The frame body for ``msg`` (no length header: see :func:`protocol.framing.frame`)."""
    packer = _packer()
    try:
        if type(msg) is Prepacked:
            raw = msg.raw
            parts = [packer.pack_map_header(len(msg))]
            for key, value in msg.items():
                parts.append(packer.pack(key))
                parts.append(raw[key] if key in raw else packer.pack(value))
            return b"".join(parts)
        body: bytes = packer.pack(msg)
    except BaseException:
        _local.packer = None  # a failed pack may leave partial bytes in the buffer
        raise
    return body


def decode(body: bytes, *, max_depth: int | None = MAX_DEPTH) -> dict[str, Any]:
    """The message in one frame body.

    The server decodes what clients send with the default: the shape is scanned first, within
    the client limits (``max_depth`` containers deep). ``max_depth=None`` is for a client
    decoding frames from the server it trusts, which are larger and deeper (views, up to
    :data:`~protocol.framing.MAX_SERVER_FRAME`): no scan, msgpack's own checks only.
    """
    if max_depth is None:
        value = _unpack(body, MAX_SERVER_FRAME, MAX_SERVER_FRAME)
    else:
        _scan(body, max_depth)
        value = _unpack(body, MAX_ENTRIES, MAX_FRAME)
    if not isinstance(value, dict):
        raise ProtocolError("proto/bad_message", f"a message is a msgpack map, not {_kind(value)}")
    return value


def _unpack(body: bytes, max_entries: int, max_str: int) -> Any:
    try:
        return msgpack.unpackb(
            body,
            raw=False,
            strict_map_key=True,
            use_list=True,
            max_str_len=max_str,
            max_bin_len=0,
            max_ext_len=0,
            max_array_len=max_entries,
            max_map_len=max_entries,
        )
    except Exception as exc:  # msgpack raises ValueError subclasses, TypeError, UnicodeError...
        raise ProtocolError("proto/bad_msgpack", f"not one valid msgpack value ({exc})") from None


def _bad(why: str) -> ProtocolError:
    return ProtocolError("proto/bad_msgpack", why)


def _scan(body: bytes, max_depth: int) -> None:
    """Check that ``body`` is one msgpack value within the client limits, building nothing.

    A container is charged for every value it announces the moment its header is read, so the
    scan refuses a frame before it has walked more than :data:`MAX_VALUES` values, however the
    frame was made.
    """
    first_byte = _FIRST_BYTE
    budget = MAX_VALUES - 1  # the value of the whole frame
    pos = 0
    left, in_map = 1, False  # values still to read at the current level; is that level a map?
    outer: list[tuple[int, bool]] = []  # the same for every enclosing level
    try:
        while True:
            while left:
                left -= 1
                if in_map:  # an entry: a string key, then the value
                    key = body[pos]
                    if 0xA0 <= key <= 0xBF:  # the short strings every key of ours is
                        pos += 1 + (key & 0x1F)
                    elif key in _LONG_STR:
                        pos = _skip_str(body, pos)
                    else:
                        raise _bad("map keys must be strings")
                size = first_byte[body[pos]]
                if size > 0:
                    pos += size
                    continue
                if size == _REFUSED:
                    raise _bad(f"0x{body[pos]:02x}: binary, ext and reserved types are not allowed")
                if size >= _STR32:
                    pos = _skip_str(body, pos)
                    continue
                if size in (_FIXARRAY, _FIXMAP):
                    entries = body[pos] & 0x0F
                    pos += 1
                else:
                    width = _LENGTH_BYTES[size]
                    entries = int.from_bytes(body[pos + 1 : pos + 1 + width], "big")
                    pos += 1 + width
                if len(outer) >= max_depth:
                    raise _bad(
                        f"containers nested deeper than {max_depth} levels (the nesting limit "
                        "of this protocol version)"
                    )
                if entries > MAX_ENTRIES:
                    raise _bad(f"a container of {entries} entries (at most {MAX_ENTRIES})")
                outer.append((left, in_map))
                in_map = size <= _FIXMAP
                left = entries
                budget -= 2 * entries if in_map else entries
                if budget < 0:
                    raise _bad(f"more than {MAX_VALUES} values in one message")
            if not outer:
                break
            left, in_map = outer.pop()
    except IndexError:
        raise _bad("the frame ends inside a value") from None
    if pos != len(body):
        raise _bad("bytes after the value" if pos < len(body) else "the frame ends inside a value")


def _skip_str(body: bytes, pos: int) -> int:
    """The position after the string whose header is at ``pos``."""
    size = _FIRST_BYTE[body[pos]]
    if size > 0:
        return pos + size
    width = _LENGTH_BYTES[size]
    return pos + 1 + width + int.from_bytes(body[pos + 1 : pos + 1 + width], "big")


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a float"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bytes):
        return "binary"
    if isinstance(value, list):
        return "an array"
    if value is None:
        return "nil"
    return "an extension type"
