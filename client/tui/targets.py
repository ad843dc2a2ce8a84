"""Where each choice of the menu is on screen, so that a click can play it.

The menu is :func:`client.render.menu`'s text. To find its entries, the same entries
(:func:`client.render.choices`) are laid out again (:func:`client.text.menu.layout`) with an
invisible mark in each one's tag: an escape sequence, which takes no column, so the marked layout
is the shown one column for column. Each mark gives where its entry's tag starts; the entry runs
from its number (when it shows one) to the end of its tag and detail. The marked lines are then
found among the menu's lines (after the decision's heading). Whatever does not line up is left
unclickable rather than guessed.

For a menu of numbered lines (:func:`client.render.full_list`, or a renderer without
``choices``), :func:`numbered_targets` reads the bold numbers instead: each starts an entry that
runs to the end of its line and over the indented lines after it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Any

from rich.text import Text

from client import render
from client.text import menu as menus
from client.text.style import Style, strip, visible_len

Target = tuple[int, int, int]
"""A choice on one line: (first column, column after its end, its number)."""

MARK = 7000
"""Marks are ``ESC [ MARK+i m``: codes no terminal is sent (the marked text is never shown)."""
_MARK = re.compile(r"\x1b\[(\d+)m")


def named_targets(
    view: dict[str, Any],
    legal: Sequence[Any],
    names: Sequence[str],
    lines: Sequence[str],
    width: int,
) -> list[list[Target]] | None:
    """Targets for the menu ``lines`` drawn from ``view`` at ``width``; None if they cannot be
    found (a layout that does not line up)."""
    try:
        entries = render.choices(view, legal, names)
        marked = [
            dataclasses.replace(e, tag=f"\x1b[{MARK + i}m{e.tag}") for i, e in enumerate(entries)
        ]
        marked_lines = menus.layout(marked, Style(True), width)
    except (TypeError, ValueError, AttributeError, KeyError, IndexError):
        return None
    shown = [strip(line) for line in lines]
    plain = [strip(line) for line in marked_lines]
    at = _find(shown, plain)
    if at is None:
        return None
    targets: list[list[Target]] = [[] for _ in lines]
    for row, line in enumerate(marked_lines):
        targets[at + row] = _widen(_marked_row(line, entries))
    return targets


def _widen(row: list[Target]) -> list[Target]:
    """Each choice takes the space up to the next one when only a separator lies between
    (``P2 P3``): easier to hit, and no gap to click in vain."""
    row = sorted(row)
    wide = []
    for i, (start, end, number) in enumerate(row):
        after = row[i + 1][0] if i + 1 < len(row) else end
        wide.append((start, after if 0 <= after - end <= 2 else end, number))
    return wide


def _find(lines: list[str], block: list[str]) -> int | None:
    if not block:
        return None
    for at in range(len(lines) - len(block) + 1):
        if [line.rstrip() for line in lines[at : at + len(block)]] == [
            line.rstrip() for line in block
        ]:
            return at
    return None


def _marked_row(line: str, entries: Sequence[Any]) -> list[Target]:
    """The entries marked on one laid-out line, by visible column."""
    found: list[Target] = []
    column = 0
    position = 0
    plain = strip(line)
    for match in _MARK.finditer(line):
        column += visible_len(line[position : match.start()])
        position = match.end()
        index = int(match.group(1)) - MARK
        if not 0 <= index < len(entries):
            continue
        entry = entries[index]
        start = column
        number = str(entry.number)
        if not entry.name and plain[:start].endswith(number + " "):
            start -= len(number) + 1  # the entry shows its number before its tag
        end = column + visible_len(entry.tag)
        if entry.detail:
            end += 1 + visible_len(entry.detail)
        found.append((max(0, start), min(end, len(plain.rstrip())), entry.number))
    return found


def numbered_targets(lines: Sequence[str], legal: int) -> list[list[Target]]:
    """Targets of a menu whose entries start with bold numbers from 1 to ``legal``."""
    targets: list[list[Target]] = []
    last: Target | None = None
    indent = 0
    for line in lines:
        text = Text.from_ansi(line)
        row = _bold_numbers(text, legal)
        plain = text.plain
        lead = len(plain) - len(plain.lstrip(" "))
        if row:
            last, indent = row[-1], row[0][0]
        elif last is not None and plain.strip() and lead > indent:
            row = [(lead, len(plain.rstrip()), last[2])]  # the label of ``last`` goes on
        else:
            last = None
        targets.append(row)
    return targets


def _bold_numbers(line: Text, legal: int) -> list[Target]:
    starts: list[tuple[int, int]] = []
    plain = line.plain
    for span in line.spans:
        style = span.style
        bold = "bold" in style if isinstance(style, str) else bool(style.bold)
        word = plain[span.start : span.end]
        if bold and word.strip().isdigit() and 1 <= int(word) <= legal:
            starts.append((span.start + len(word) - len(word.lstrip()), int(word)))
    starts.sort()
    ends = [start for start, _ in starts[1:]] + [len(plain.rstrip())] * bool(starts)
    return [(start, end, number) for (start, number), end in zip(starts, ends, strict=True)]


def covered(targets: Sequence[Sequence[Target]]) -> set[int]:
    """The numbers the targets can play."""
    return {number for row in targets for _, _, number in row}
