"""The one codec: a message (a ``dict``) to a frame body and back, in msgpack.

Nothing else in Cosmoport imports msgpack. :func:`encode` writes strings as msgpack ``str`` and
never uses ``bin``; :func:`decode` accepts exactly one msgpack map whose keys are strings, made
only of maps, arrays, strings, integers, floats, booleans and nil, nested at most ``max_depth``
containers deep. Anything else raises :class:`~protocol.errors.ProtocolError` with code
``proto/bad_msgpack`` (or ``proto/bad_message`` for a valid value that is not a map).
"""

from __future__ import annotations

import threading
from typing import Any

import msgpack  # type: ignore[import-untyped]  # ships no type information

from protocol.errors import ProtocolError
from protocol.framing import MAX_FRAME

MAX_DEPTH = 8
"""Deepest container nesting accepted in a client message (the top-level map counts as 1)."""

_SCALARS = (str, int, float, bool, type(None))

# One reusable packer per thread: ``msgpack.packb`` allocates a fresh buffer on every call, and
# encoding is on the server's hot path (one frame per seat per action).
_local = threading.local()


def encode(msg: dict[str, Any]) -> bytes:
    """The frame body for ``msg`` (no length header: see :func:`protocol.framing.frame`)."""
    packer = getattr(_local, "packer", None)
    if packer is None:
        packer = _local.packer = msgpack.Packer(use_bin_type=True, autoreset=True)
    try:
        body: bytes = packer.pack(msg)
    except BaseException:
        _local.packer = None  # a failed pack may leave partial bytes in the buffer
        raise
    return body


def decode(body: bytes, *, max_depth: int | None = MAX_DEPTH) -> dict[str, Any]:
    """The message in one frame body.

    ``max_depth=None`` skips the shape walk (nesting depth, string keys, allowed kinds): for a
    client decoding frames from a server it trusts. The server always checks.
    """
    try:
        value = msgpack.unpackb(
            body,
            raw=False,
            strict_map_key=True,
            use_list=True,
            max_str_len=MAX_FRAME,
            max_bin_len=0,
            max_ext_len=0,
            max_array_len=MAX_FRAME,
            max_map_len=MAX_FRAME,
        )
    except Exception as exc:  # msgpack raises ValueError subclasses, TypeError, UnicodeError...
        raise ProtocolError("proto/bad_msgpack", f"not one valid msgpack value ({exc})") from None
    if not isinstance(value, dict):
        raise ProtocolError("proto/bad_message", f"a message is a msgpack map, not {_kind(value)}")
    if max_depth is not None:
        _check_shape(value, max_depth)
    return value


def _check_shape(root: dict[str, Any], max_depth: int) -> None:
    # Iterative walk: a hostile frame must not be able to exhaust Python's recursion limit.
    stack: list[tuple[Any, int]] = [(root, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > max_depth:
            raise ProtocolError(
                "proto/bad_msgpack", f"containers nested deeper than {max_depth} levels"
            )
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    raise ProtocolError("proto/bad_msgpack", "map keys must be strings")
                if not isinstance(item, _SCALARS):
                    stack.append((item, depth + 1))
        elif isinstance(value, list):
            for item in value:
                if not isinstance(item, _SCALARS):
                    stack.append((item, depth + 1))
        else:
            raise ProtocolError("proto/bad_msgpack", f"{_kind(value)} values are not allowed")


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
