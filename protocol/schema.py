"""The message catalogue as a JSON Schema (draft 2020-12), for clients in other languages.

Every message type gets one schema per direction it travels in (``client-hello``,
``server-welcome``, ``client-chat`` and ``server-chat``...), built from the catalogue's fields and
their kinds, so that other languages can generate types and validators from it. The schema is
published as ``docs/protocol.schema.json``; a test checks that the file is what this module
generates now. To refresh it after changing the catalogue::

    python -m protocol.schema > docs/protocol.schema.json

What a client sends is described as strictly as the server checks it (no field the message does
not define). What a server sends admits fields it does not list: clients must ignore them (strict
in, tolerant out, PROTOCOL.md section 2). Two rules JSON cannot say are left to prose: integers
must travel as msgpack integers (JSON Schema counts ``2.0`` as an integer; the server refuses a
float), and "printable" is approximated by refusing control characters and line breaks.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from protocol.fields import (
    ACTION_MAX_PARTS,
    ACTION_STR_MAX,
    CHAT_MAX,
    CLOCK_KEYS,
    ID_INT_MAX,
    ID_INT_MAX_V1,
    ID_INT_MIN,
    ID_INT_MIN_V1,
    ID_STR_MAX,
    INT_MAX,
    INT_MIN,
    NAME_MAX,
    OPTION_KEY_MAX,
    OPTION_LIST_MAX,
    OPTION_STR_MAX,
    OPTIONS_MAX_KEYS,
    TABLE_INFO_KEYS,
    TOKEN_MAX,
    VERSIONS_MAX,
    VIEW_KEYS,
    Field,
)
from protocol.messages import (
    _SERVER_NEEDS,
    _SERVER_ONLY_FIELDS,
    CATALOGUE,
    PROTOCOL_VERSION,
    SUPPORTED_VERSIONS,
    Message,
)

DRAFT = "https://json-schema.org/draft/2020-12/schema"

# ``ID_INT_MIN``..``ID_INT_MAX``: the integer ids ``protocol.fields.check_id`` accepts, imported
# from there so that the schema and the catalogue cannot disagree.

STR_MAX = 256
"""A ``str`` field's length limit when the field gives none (``protocol.fields._check_str``)."""

# Control characters (C0, DEL, C1) and the Unicode line and paragraph separators. The end of a
# pattern is written ``(?![\s\S])``, not ``$``, which some regex engines (Python's) also match
# before a final line break.
_CONTROL = "\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029"
_END = "(?![\\s\\S])"
_NAME_PATTERN = f"^[^\\s{_CONTROL}](?:[^{_CONTROL}]*[^\\s{_CONTROL}])?{_END}"
_TEXT_PATTERN = f"^[^{_CONTROL}]*{_END}"


_SHARED_KINDS = (
    "id",
    "versions",
    "name",
    "text",
    "token",
    "action",
    "options",
    "table",
    "view",
    "events",
    "legal",
    "clock",
)


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/$defs/{name}"}


def _integer(low: int | None = None, high: int | None = None) -> dict[str, Any]:
    return {
        "type": "integer",
        "minimum": INT_MIN if low is None else low,
        "maximum": INT_MAX if high is None else high,
    }


def _string(low: int | None = None, high: int | None = None) -> dict[str, Any]:
    return {
        "type": "string",
        "minLength": 0 if low is None else low,
        "maxLength": STR_MAX if high is None else high,
    }


def _or_nil(schema: dict[str, Any]) -> dict[str, Any]:
    return {**schema, "type": [schema["type"], "null"]}


def _option_scalar() -> dict[str, Any]:
    return {
        "anyOf": [
            {"type": "string", "maxLength": OPTION_STR_MAX},
            _integer(),
            {"type": "boolean"},
            {"type": "null"},
        ]
    }


def shared_definitions() -> dict[str, Any]:
    """The field kinds that are containers or carry rules of their own, as ``$defs``."""
    return {
        "id": {
            "description": "Request id, echoed by the reply: an integer from −2³¹ to 2⁵³ − 1 "
            "(sent as a msgpack integer, never a float: a float id is refused with "
            "`proto/bad_message` and no `id`) or a string of at most "
            f"{ID_STR_MAX} characters. In a session of version 1, see `id-version-1`.",
            "anyOf": [
                _integer(ID_INT_MIN, ID_INT_MAX),
                {"type": "string", "maxLength": ID_STR_MAX},
            ],
        },
        "id-version-1": {
            "description": "A request id in a session whose `welcome.version` is 1: any 64-bit "
            "msgpack integer (int 64 or uint 64), or a string of at most "
            f"{ID_STR_MAX} characters. Replace `id` by it to check a version-1 client.",
            "anyOf": [
                _integer(ID_INT_MIN_V1, ID_INT_MAX_V1),
                {"type": "string", "maxLength": ID_STR_MAX},
            ],
        },
        "versions": {
            "description": "Protocol versions a client speaks (`hello.versions`).",
            "type": "array",
            "minItems": 1,
            "maxItems": VERSIONS_MAX,
            "items": _integer(0),
        },
        "name": {
            "description": f"1 to {NAME_MAX} printable characters, no space at either end.",
            "type": "string",
            "minLength": 1,
            "maxLength": NAME_MAX,
            "pattern": _NAME_PATTERN,
        },
        "text": {
            "description": f"1 to {CHAT_MAX} printable characters, no line breaks.",
            "type": "string",
            "minLength": 1,
            "maxLength": CHAT_MAX,
            "pattern": _TEXT_PATTERN,
        },
        "token": {"type": "string", "minLength": 1, "maxLength": TOKEN_MAX},
        "action": {
            "description": "A game action, as listed in `legal`.",
            "type": "array",
            "minItems": 1,
            "maxItems": ACTION_MAX_PARTS,
            "items": {"anyOf": [{"type": "string", "maxLength": ACTION_STR_MAX}, _integer()]},
        },
        "options": {
            "description": "A game's variant options.",
            "type": "object",
            "maxProperties": OPTIONS_MAX_KEYS,
            "propertyNames": {"minLength": 1, "maxLength": OPTION_KEY_MAX},
            "additionalProperties": {
                "anyOf": [
                    _option_scalar(),
                    {"type": "array", "maxItems": OPTION_LIST_MAX, "items": _option_scalar()},
                ]
            },
        },
        "table": {
            "description": "A table map (PROTOCOL.md section 7).",
            "type": "object",
            "required": sorted(TABLE_INFO_KEYS),
        },
        "view": {
            "description": "A game view: the common keys, then the game's own (section 12).",
            "type": "object",
            "required": sorted(VIEW_KEYS),
        },
        "events": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"type": {"type": "string"}},
                "required": ["type"],
            },
        },
        "clock": {
            "description": "A table's turn timer as of the message (section 7), or nil.",
            "type": ["object", "null"],
            "properties": {
                "seat": {"type": ["integer", "null"]},
                "decision": {"type": "number", "minimum": 0},
                "banks": {"type": "array", "items": {"type": "number", "minimum": 0}},
                "auto": {"type": "array", "items": {"type": "boolean"}},
                "paused": {"type": "boolean"},
            },
            "required": sorted(CLOCK_KEYS),
        },
        "legal": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"action": _ref("action"), "label": {"type": "string"}},
                "required": ["action"],  # no label for a client whose hello said `labels: false`
                "additionalProperties": False,
            },
        },
    }


def field_schema(field: Field) -> dict[str, Any]:
    """The schema of one field's value."""
    kind = field.kind
    if kind == "int":
        schema = _integer(field.low, field.high)
    elif kind == "int|nil":
        schema = _or_nil(_integer(field.low, field.high))
    elif kind == "str":
        schema = _string(field.low, field.high)
    elif kind == "str|nil":
        schema = _or_nil(_string(field.low, field.high))
    elif kind == "choice":
        schema = {"type": "string", "enum": list(field.choices)}
    elif kind == "bool":
        schema = {"type": "boolean"}
    elif kind == "map":
        schema = {"type": "object"}
    elif kind == "list":
        schema = {"type": "array"}
    elif kind in _SHARED_KINDS:
        schema = _ref(kind)
    else:
        raise ValueError(f"field kind {kind!r} has no JSON Schema: add it to protocol/schema.py")
    return schema


def message_schema(msg: Message, direction: str) -> dict[str, Any]:
    """The schema of ``msg`` as ``direction`` (``client`` or ``server``) sends it."""
    client = direction == "client"
    excluded = _SERVER_ONLY_FIELDS.get(msg.type, frozenset()) if client else frozenset()
    fields = [f for f in msg.fields if f.name not in excluded]
    properties: dict[str, Any] = {"type": {"const": msg.type}}
    for field in fields:
        properties[field.name] = {"description": field.doc, **field_schema(field)}
    required = ["type", *(f.name for f in fields if f.required)]
    if not client:
        needs = _SERVER_NEEDS.get(msg.type, frozenset())
        required += sorted(needs - set(required))
    schema: dict[str, Any] = {
        "title": f"{msg.type} ({direction} → {'server' if client else 'client'})",
        "description": msg.doc,
        "type": "object",
        "properties": properties,
        "required": required,
    }
    if client:
        schema["additionalProperties"] = False
        if msg.reply:
            schema["x-reply"] = list(msg.reply)
    return schema


def directions(msg: Message) -> tuple[str, ...]:
    return ("client", "server") if msg.sender == "both" else (msg.sender,)


def generate() -> dict[str, Any]:
    """The whole protocol as one JSON Schema document."""
    defs = shared_definitions()
    by_direction: dict[str, list[dict[str, str]]] = {"client": [], "server": []}
    for msg in CATALOGUE:
        for direction in directions(msg):
            name = f"{direction}-{msg.type}"
            defs[name] = message_schema(msg, direction)
            by_direction[direction].append(_ref(name))
    defs["client-message"] = {
        "description": "Any message a client sends to a server.",
        "oneOf": by_direction["client"],
    }
    defs["server-message"] = {
        "description": "Any message a server sends to a client.",
        "oneOf": by_direction["server"],
    }
    return {
        "$schema": DRAFT,
        "$id": f"urn:cosmoport:protocol:{PROTOCOL_VERSION}",
        "title": f"Cosmoport protocol, version {PROTOCOL_VERSION}",
        "x-supported-versions": list(SUPPORTED_VERSIONS),
        "description": (
            "Every message of the Cosmoport protocol (PROTOCOL.md), one schema per message and "
            "direction in $defs: `client-TYPE` for what a client sends, `server-TYPE` for what "
            "a server sends; `client-message` and `server-message` admit any of them. Messages "
            "travel as msgpack maps in length-prefixed frames; integers must be msgpack "
            "integers, never floats. Version 1 (still spoken: PROTOCOL.md 3.2) differs only in "
            "what a client may send: integer ids of 64 bits (`id-version-1`) and frames nested "
            "up to 8 containers deep. Generated from protocol/messages.py by "
            "`python -m protocol.schema`: do not edit by hand."
        ),
        "anyOf": [_ref("client-message"), _ref("server-message")],
        "$defs": defs,
    }


def render() -> str:
    """The schema file's text: stable key order, two-space indent, a final line break."""
    return json.dumps(generate(), indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    sys.stdout.write(render())


if __name__ == "__main__":
    main()
