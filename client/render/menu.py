"""The numbered list of legal actions, laid out compactly for an 80-column terminal.

A game's renderer turns each legal action into an :class:`Entry`: its number (1-based position
in the server's list), an optional ``group`` and a short ``tag``. Consecutive entries of one group
share a line that starts with the group's heading (``W1=2 on:  1 P2  2 P3 ...``); entries without
a group show their full label and are packed side by side when they fit. Long lists therefore
take a few lines instead of one line per action. :func:`full_list` is the plain one-per-line
list (the ``actions`` command).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from client.style import Style, clip, pad, visible_len

MAX_LINES = 10
"""Menu lines shown with the board; the rest is left to the ``actions`` command."""


@dataclass(frozen=True)
class Entry:
    number: int
    tag: str
    group: str | None = None


def label_of(item: Any) -> str:
    """The label of one ``legal`` item (the action's words if the label is missing)."""
    if isinstance(item, dict):
        label = item.get("label")
        if isinstance(label, str) and label:
            return label
        action = item.get("action")
        if isinstance(action, list):
            return " ".join(str(x) for x in action)
    return str(item)


def action_of(item: Any) -> list[Any]:
    action = item.get("action") if isinstance(item, dict) else None
    return action if isinstance(action, list) else []


def plain_entries(legal: Sequence[Any]) -> list[Entry]:
    return [Entry(i + 1, label_of(item)) for i, item in enumerate(legal)]


def layout(entries: Sequence[Entry], style: Style, width: int = 80) -> list[str]:
    """The entries as menu lines of at most ``width`` visible characters."""
    heads = [len(e.group) for e in entries if e.group is not None]
    head_width = min(max(heads), 22) if heads else 0
    lines: list[str] = []
    i = 0
    while i < len(entries):
        group = entries[i].group
        j = i
        while j < len(entries) and entries[j].group == group:
            j += 1
        chunk = entries[i:j]
        if group is None:
            lines.extend(_pack(chunk, style, width))
        else:
            lines.extend(_group_lines(group, chunk, head_width, style, width))
        i = j
    return lines


def _item(entry: Entry, style: Style) -> str:
    return f"{style.bold(str(entry.number).rjust(2))} {entry.tag}"


def _pack(chunk: Sequence[Entry], style: Style, width: int) -> list[str]:
    lines: list[str] = []
    current = ""
    for entry in chunk:
        item = _item(entry, style)
        if current and visible_len(current) + 3 + visible_len(item) <= width:
            current = pad(current, _column(visible_len(current) + 3)) + item
        else:
            if current:
                lines.append(current)
            current = clip(item, width)
    if current:
        lines.append(current)
    return lines


def _column(at: int) -> int:
    # Line packed items up on a 40-column grid when they can: easier to read than a ragged row.
    return 40 if at <= 40 else at


def _group_lines(
    group: str, chunk: Sequence[Entry], head_width: int, style: Style, width: int
) -> list[str]:
    head = pad(clip(group, head_width), head_width) + " "
    indent = " " * (head_width + 1)
    lines: list[str] = []
    current = head
    fresh = True
    for entry in chunk:
        item = _item(entry, style)
        if not fresh and visible_len(current) + 2 + visible_len(item) > width:
            lines.append(current)
            current, fresh = indent, True
        current = current + ("" if fresh else "  ") + item
        fresh = False
    lines.append(clip(current, width))
    return lines


def shorten(lines: list[str], limit: int = MAX_LINES) -> list[str]:
    """At most ``limit`` menu lines; a last line says how to see the rest."""
    if len(lines) <= limit:
        return lines
    hidden = len(lines) - (limit - 1)
    return [*lines[: limit - 1], f"   ... {hidden} more lines: type `actions` for the full list"]


def full_list(legal: Sequence[Any], style: Style, width: int = 80) -> list[str]:
    """Every legal action on its own line, with its full label."""
    return [clip(_item(e, style), width) for e in plain_entries(legal)]
