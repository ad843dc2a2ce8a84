"""PROTOCOL.md's generated parts: the message reference, the error table, hex examples.

The catalogue is the source of truth; these functions render it as Markdown. PROTOCOL.md holds
their output between ``<!-- generated: NAME -->`` and ``<!-- end generated: NAME -->`` markers,
and a test checks that it is current. To refresh the file after changing the catalogue::

    python -m protocol.reference PROTOCOL.md
"""

from __future__ import annotations

import re
import struct
import sys
from typing import Any

from protocol.codec import encode
from protocol.errors import DISCONNECTING, ERROR_CODES, REJECT_CODES
from protocol.fields import KINDS, Field
from protocol.framing import frame
from protocol.messages import CATALOGUE, Message

_ARROW = {"client": "client → server", "server": "server → client", "both": "both ways"}

EXAMPLES: list[tuple[str, dict[str, Any]]] = [
    (
        "A client says hello, in versions 2 and 1",
        {"type": "hello", "version": 2, "versions": [2, 1], "name": "Ann", "id": 1},
    ),
    ("A client plays an action", {"type": "act", "version": 12, "action": ["assign", 2, "P3"]}),
    (
        "The server refuses a stale action",
        {"type": "error", "code": "action/stale", "message": "stale", "id": 7},
    ),
    ("A heartbeat", {"type": "ping"}),
]
"""Messages PROTOCOL.md shows byte by byte."""


def _kind_text(field: Field) -> str:
    low, high = field.low, field.high
    if field.kind == "choice":
        return "one of " + ", ".join(f"`{c}`" for c in field.choices)
    if field.kind == "int":
        if low is not None and high is not None:
            return f"integer from {low} to {high}"
        return f"integer ≥ {low}" if low is not None else "integer"
    if field.kind == "str":
        if high is not None:
            return f"string of at most {high} characters"
        return "string"
    return KINDS[field.kind][0]


def message_section(msg: Message) -> str:
    lines = [f"#### `{msg.type}` ({_ARROW[msg.sender]})", "", msg.doc]
    if msg.reply:
        lines += ["", "Reply: " + " or ".join(f"`{r}`" for r in msg.reply) + " (or `error`)."]
    lines.append("")
    if msg.fields:
        lines += ["| field | type | required | meaning |", "| --- | --- | --- | --- |"]
        for field in msg.fields:
            required = "yes" if field.required else "no"
            lines.append(f"| `{field.name}` | {_kind_text(field)} | {required} | {field.doc} |")
    else:
        lines.append("No fields besides `type`.")
    return "\n".join(lines)


def messages_markdown() -> str:
    return "\n\n".join(message_section(m) for m in CATALOGUE)


_REJECT_ONLY = frozenset(
    {"session/bad_version", "limit/connections", "limit/server_full", "limit/handshake_timeout"}
)


def errors_markdown() -> str:
    lines = ["| code | comes as | then | meaning |", "| --- | --- | --- | --- |"]
    for code, meaning in ERROR_CODES.items():
        if code in _REJECT_ONLY:
            kind = "`reject`"
        elif code in REJECT_CODES:
            kind = "`reject` or `error`"
        else:
            kind = "`error`"
        then = "disconnect" if code in DISCONNECTING or code in REJECT_CODES else "stays open"
        lines.append(f"| `{code}` | {kind} | {then} | {meaning} |")
    return "\n".join(lines)


def annotate(msg: dict[str, Any]) -> str:
    """A hex dump of ``msg``'s frame, one msgpack item per line, with what each item is."""
    data = frame(encode(msg))
    rows: list[tuple[bytes, str]] = [(data[:4], f"length: {len(data) - 4} bytes follow")]
    _walk(data, 4, rows)
    width = max(len(_hex(b)) for b, _ in rows) + 2
    return "\n".join(f"{_hex(b):<{width}}{text}".rstrip() for b, text in rows)


def _hex(chunk: bytes) -> str:
    return " ".join(f"{b:02x}" for b in chunk)


def _walk(data: bytes, pos: int, rows: list[tuple[bytes, str]]) -> int:
    """Annotate the msgpack item at ``pos``; return the position after it."""
    b = data[pos]
    if b <= 0x7F:
        rows.append((data[pos : pos + 1], f"integer {b} (positive fixint)"))
        return pos + 1
    if 0x80 <= b <= 0x8F or 0x90 <= b <= 0x9F:
        count = b & 0x0F
        is_map = b <= 0x8F
        rows.append(
            (
                data[pos : pos + 1],
                f"{'map' if is_map else 'array'} of {count} (fix{'map' if is_map else 'array'})",
            )
        )
        pos += 1
        for _ in range(count * (2 if is_map else 1)):
            pos = _walk(data, pos, rows)
        return pos
    if 0xA0 <= b <= 0xBF:
        n = b & 0x1F
        text = data[pos + 1 : pos + 1 + n].decode()
        rows.append((data[pos : pos + 1 + n], f'string "{text}" (fixstr, {n} bytes)'))
        return pos + 1 + n
    if b == 0xC0:
        rows.append((data[pos : pos + 1], "nil"))
        return pos + 1
    if b in (0xC2, 0xC3):
        rows.append((data[pos : pos + 1], "false" if b == 0xC2 else "true"))
        return pos + 1
    if b == 0xCC:
        rows.append((data[pos : pos + 2], f"integer {data[pos + 1]} (uint 8)"))
        return pos + 2
    if b == 0xCD:
        (value,) = struct.unpack(">H", data[pos + 1 : pos + 3])
        rows.append((data[pos : pos + 3], f"integer {value} (uint 16)"))
        return pos + 3
    if b == 0xD9:
        n = data[pos + 1]
        text = data[pos + 2 : pos + 2 + n].decode()
        rows.append((data[pos : pos + 2 + n], f'string "{text}" (str 8, {n} bytes)'))
        return pos + 2 + n
    if b >= 0xE0:
        rows.append((data[pos : pos + 1], f"integer {b - 256} (negative fixint)"))
        return pos + 1
    raise ValueError(f"no annotation for msgpack byte 0x{b:02x}")  # pragma: no cover


def examples_markdown() -> str:
    parts = []
    for title, msg in EXAMPLES:
        body = [f"{title}: `{_literal(msg)}`", "", "```text", annotate(msg), "```"]
        parts.append("\n".join(body))
    return "\n\n".join(parts)


def _literal(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f'"{k}": {_literal(v)}' for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_literal(v) for v in value) + "]"
    if isinstance(value, str):
        return f'"{value}"'
    if value is None:
        return "nil"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


SECTIONS = {
    "messages": messages_markdown,
    "errors": errors_markdown,
    "examples": examples_markdown,
}

_BLOCK = re.compile(
    r"<!-- generated: (?P<name>\w+) -->\n(?P<body>.*?)\n?<!-- end generated: (?P=name) -->",
    re.DOTALL,
)


def generated_blocks(text: str) -> dict[str, str]:
    """The generated sections of a PROTOCOL.md text, by name."""
    return {m.group("name"): m.group("body") for m in _BLOCK.finditer(text)}


def refresh(text: str) -> str:
    """``text`` with every generated section re-rendered from the catalogue."""

    def render(match: re.Match[str]) -> str:
        name = match.group("name")
        return f"<!-- generated: {name} -->\n{SECTIONS[name]()}\n<!-- end generated: {name} -->"

    return _BLOCK.sub(render, text)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m protocol.reference PROTOCOL.md", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        text = f.read()
    with open(argv[1], "w", encoding="utf-8") as f:
        f.write(refresh(text))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
