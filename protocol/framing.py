"""Framing constants: every message travels as a 4-byte big-endian length, then that many bytes.

The bytes are one msgpack map (see :mod:`protocol.codec`). The server refuses an inbound frame
whose length header exceeds :data:`MAX_FRAME` before reading its body, answers with an error and
disconnects. Frames from the server may be larger (a full game view); clients should accept at
least :data:`MAX_SERVER_FRAME`.
"""

from __future__ import annotations

import struct

HEADER_FORMAT = "!I"
"""``struct`` format of the length header: unsigned 32-bit, network (big-endian) order."""

HEADER_SIZE = struct.calcsize(HEADER_FORMAT)
"""Bytes in the length header (4)."""

MAX_FRAME = 64 * 1024
"""Largest frame body a client may send (65,536 bytes, header not counted)."""

MAX_SERVER_FRAME = 1024 * 1024
"""Largest frame body the server ever sends; clients should accept frames up to this size."""

_HEADER = struct.Struct(HEADER_FORMAT)


def frame(body: bytes) -> bytes:
    """``body`` with its length header in front: exactly the bytes that go on the wire."""
    return _HEADER.pack(len(body)) + body


def body_length(header: bytes) -> int:
    """The body length announced by a 4-byte header."""
    (length,) = _HEADER.unpack(header)
    return int(length)
