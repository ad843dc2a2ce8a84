"""The wire format: framing, the message catalogue, one encode/decode, error codes.

Nothing outside this package imports msgpack. No reactor use here: the server and the client
drive these functions from their own Twisted protocols (``stopping`` is handed the reactor it
stops). PROTOCOL.md at the project root is the
specification written from this package.
"""

from protocol.codec import MAX_DEPTH, V1_MAX_DEPTH, decode, depth_for, encode
from protocol.errors import DISCONNECTING, ERROR_CODES, REJECT_CODES, ProtocolError
from protocol.fields import check_name
from protocol.framing import HEADER_FORMAT, HEADER_SIZE, MAX_FRAME, MAX_SERVER_FRAME, frame
from protocol.messages import (
    BOT_LEVELS,
    BOT_TOKEN_VARIABLE,
    BY_TYPE,
    CATALOGUE,
    CLIENT_TYPES,
    PROTOCOL_VERSION,
    SERVER_TYPES,
    SUPPORTED_VERSIONS,
    check_server_message,
    negotiate,
    validate,
)

__all__ = [
    "BOT_LEVELS",
    "BOT_TOKEN_VARIABLE",
    "BY_TYPE",
    "CATALOGUE",
    "CLIENT_TYPES",
    "DISCONNECTING",
    "ERROR_CODES",
    "HEADER_FORMAT",
    "HEADER_SIZE",
    "MAX_DEPTH",
    "MAX_FRAME",
    "MAX_SERVER_FRAME",
    "PROTOCOL_VERSION",
    "REJECT_CODES",
    "SERVER_TYPES",
    "SUPPORTED_VERSIONS",
    "V1_MAX_DEPTH",
    "ProtocolError",
    "check_name",
    "check_server_message",
    "decode",
    "depth_for",
    "encode",
    "frame",
    "negotiate",
    "validate",
]
