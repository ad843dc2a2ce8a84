"""Laying text out to a width without cutting words: the renderers' one line-breaking helper.

A renderer hands over *chunks*: pieces that belong together (``W1 [5]``, ``A15 B6``,
``R08 R2/B3 a4 Xtm``), which may hold spaces and colour codes. :func:`flow` puts them one after
another and starts a new, indented line when the next chunk does not fit, so a name never
parts from its value. A chunk wider than a whole line is broken between its words, and a single
word wider than the line (never seen from 40 columns up) is folded onto the next: nothing is
ever cut.
"""

from __future__ import annotations

from collections.abc import Sequence

from client.text.style import split_at, visible_len


def flow(
    chunks: Sequence[str], width: int, *, first: str = "", indent: int = 2, sep: str = "  "
) -> list[str]:
    """``first`` then the chunks, ``sep`` between them, wrapped at ``width`` under ``indent``."""
    width = max(width, 1)
    indent = min(indent, max(0, width // 2))
    lines: list[str] = []
    current = first
    placed = False  # a chunk is on ``current`` already
    lead = " " * indent
    for chunk in chunks:
        if not chunk:
            continue
        joined = current + (sep if placed else "") + chunk
        if visible_len(joined) <= width:
            current, placed = joined, True
            continue
        if placed or (current.strip() and visible_len(lead + chunk) <= width):
            lines.append(current.rstrip())
            current, placed = lead, False
            if visible_len(current + chunk) <= width:
                current, placed = current + chunk, True
                continue
        # Wider than a line: break it between its words.
        pieces = words(current + chunk, width, indent)
        lines.extend(pieces[:-1])
        current, placed = pieces[-1], True
    if current.strip() or not lines:
        lines.append(current.rstrip())
    return lines


def words(text: str, width: int, indent: int = 2) -> list[str]:
    """``text`` wrapped between words at ``width``, continued under ``indent`` spaces."""
    width = max(width, 1)
    indent = min(indent, max(0, width // 2))
    lead_len = len(text) - len(text.lstrip(" "))
    lines: list[str] = []
    current = text[:lead_len]
    placed = False
    for word in text[lead_len:].split(" "):
        if not word:
            continue
        joined = current + (" " if placed else "") + word
        if visible_len(joined) <= width:
            current, placed = joined, True
            continue
        if placed:
            lines.append(current)
            current = " " * indent
        while visible_len(current + word) > width:  # wider than a whole line: folded
            head, word = split_at(word, width - visible_len(current))
            lines.append(current + head)
            current = " " * indent
        current, placed = current + word, True
    lines.append(current)
    return lines


def hanging(head: str, text: str, width: int) -> list[str]:
    """``head`` then ``text`` wrapped at ``width``, the continuation lines under the text's first
    column (a hanging indent; at most half the width deep)."""
    return words(head + text, width, visible_len(head))


def columns(cells: Sequence[str], width: int, *, lead: str = "", gap: int = 2) -> list[str]:
    """Cells in as many equal columns as fit after ``lead`` (one a line if none fit twice)."""
    if not cells:
        return []
    cell = max(visible_len(c) for c in cells)
    room = width - visible_len(lead)
    count = max(1, (room + gap) // (cell + gap)) if cell <= room else 1
    count = min(count, len(cells))
    blank = " " * visible_len(lead)
    lines = []
    for start in range(0, len(cells), count):
        row = cells[start : start + count]
        text = (" " * gap).join(pad_to(c, cell) for c in row).rstrip()
        head = lead if start == 0 else blank
        if visible_len(head + text) <= width:
            lines.append(head + text)
        else:
            lines.extend(words(head + text, width, visible_len(lead) + 2))
    return lines


def pad_to(text: str, width: int) -> str:
    return text + " " * max(0, width - visible_len(text))
