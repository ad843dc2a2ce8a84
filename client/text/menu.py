"""The legal actions as a menu of names, laid out to any width.

A game's renderer turns each legal action into an :class:`Entry`: its ``number`` (1-based
position in the server's list), a stable ``name`` to type (``W1 P2``, ``build P16``), the
``tag`` shown for it (the part of the name after its group's heading, in bold), an optional
``group`` heading and ``detail`` (a price, what it does). Consecutive entries of one group share
a line that starts with the heading (``W1 [2]  P2 P3 P4 T``); entries without a group show their
tag and detail. Groups and lone entries of one ``section`` are put side by side in columns when
the width allows, so a wide screen takes fewer lines. :func:`full_list` is the plain
one-per-line list with numbers, names and the server's labels (the ``actions`` command).

Names stay valid for the whole decision: numbers move as the server's list changes, names do
not (see :func:`squash` for how typed text is compared).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from client.text.flow import flow, pad_to
from client.text.style import Style, visible_len

MAX_LINES = 10
"""Menu lines shown with the board in line mode; the rest is left to the ``actions`` command."""
GAP = 3
"""Spaces between the columns of a section."""


@dataclass(frozen=True)
class Entry:
    number: int
    tag: str
    group: str | None = None
    name: str = ""
    detail: str = ""
    section: str | None = None


@dataclass(frozen=True)
class Resolved:
    """What a typed name stands for: ``index`` into the legal list, or None with the reason.

    ``renamed`` is ``(typed, listed)`` when the piece typed and the piece the listed action
    names differ but are interchangeable (Cosmic Run: two dice showing the same value, by their
    numbers): a client may keep the typed name for the piece that moves, and then leave out
    ``message``, which explains the substitution."""

    index: int | None
    message: str = ""
    renamed: tuple[int, int] | None = None


def squash(text: str) -> str:
    """Typed text for comparison: lower case, no spaces, quotes or a closing ``!``/``.``."""
    text = re.sub(r"[\s`'\"]+", "", text.lower())
    return text.rstrip("!.")


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
    """A game we cannot name: each action by its number and label."""
    return [Entry(i + 1, label_of(item)) for i, item in enumerate(legal)]


def item_text(entry: Entry, style: Style) -> str:
    """One entry as shown: its tag in bold and the detail, or the number and label."""
    if not entry.name:
        text = f"{style.bold(str(entry.number).rjust(2))} {entry.tag}"
    else:
        text = style.bold(entry.tag)
    return f"{text} {entry.detail}" if entry.detail else text


@dataclass
class _Block:
    head: str | None
    items: list[str]


def _sections(entries: Sequence[Entry], style: Style) -> list[list[_Block]]:
    sections: list[list[_Block]] = []
    key: Any = object()
    for entry in entries:
        section = entry.section if entry.section is not None else (entry.group or "")
        if section != key:
            sections.append([])
            key = section
        blocks = sections[-1]
        text = item_text(entry, style)
        if entry.group is not None and blocks and blocks[-1].head == entry.group:
            blocks[-1].items.append(text)
        else:
            blocks.append(_Block(entry.group, [text]))
    return sections


def layout(entries: Sequence[Entry], style: Style, width: int = 80) -> list[str]:
    """The entries as menu lines of at most ``width`` visible characters."""
    lines: list[str] = []
    for blocks in _sections(entries, style):
        lines.extend(_section_lines(blocks, width))
    return lines


def _section_lines(blocks: list[_Block], width: int) -> list[str]:
    heads = [len(b.head) for b in blocks if b.head is not None]
    head_width = min(max(heads), 22, width // 3) if heads else 0

    def lead(block: _Block) -> str:
        return "" if block.head is None else pad_to(block.head, head_width) + "  "

    def sep(block: _Block) -> str:
        return "  " if any(" " in item for item in block.items) or block.head is None else " "

    natural = [visible_len(lead(b) + sep(b).join(b.items)) for b in blocks]
    cell = max(natural)
    count = max(1, (width + GAP) // (cell + GAP)) if cell <= width else 1
    lines: list[str] = []
    row: list[str] = []

    def flush() -> None:
        if row:
            lines.append((" " * GAP).join(pad_to(c, cell) for c in row).rstrip())
            row.clear()

    for block, size in zip(blocks, natural, strict=True):
        if count > 1 and size <= cell:
            row.append(lead(block) + sep(block).join(block.items))
            if len(row) == count:
                flush()
            continue
        flush()
        indent = head_width + 2 if block.head is not None else 4
        lines.extend(flow(block.items, width, first=lead(block), indent=indent, sep=sep(block)))
    flush()
    return lines


def shorten(lines: list[str], limit: int | None = MAX_LINES) -> list[str]:
    """At most ``limit`` menu lines (all with None); a last line says how to see the rest."""
    if limit is None or len(lines) <= limit:
        return lines
    hidden = len(lines) - (limit - 1)
    return [*lines[: limit - 1], f"   ... {hidden} more lines: type `actions` for the full list"]


def full_list(
    legal: Sequence[Any],
    style: Style,
    width: int = 80,
    entries: Sequence[Entry] = (),
    label: Callable[[Any], str] = label_of,
) -> list[str]:
    """Every legal action on its own line: number, name (from ``entries``) and full label."""
    names: dict[int, str] = {}
    for entry in entries:
        names.setdefault(entry.number, entry.name)
    name_width = min(max([len(n) for n in names.values()] + [0]), 20)
    lines = []
    for number, item in enumerate(legal, start=1):
        name = names.get(number, "")
        head = f"{style.bold(str(number).rjust(3))} "
        if name_width:
            head += pad_to(name, name_width) + "  "
        indent = min(visible_len(head), 26)
        lines.extend(flow(label(item).split(" "), width, first=head, indent=indent, sep=" "))
    return lines
