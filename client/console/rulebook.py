"""The rules inside the client: ``docs/rules/<game>.md`` browsed by topic, as plain lines.

Each ``##`` heading of a rulebook is a topic. :func:`topics` lists them; :func:`text` renders one
(or the list) wrapped to a width: headings, paragraphs, bullets with a hanging indent, tables as
aligned columns when they fit, with wrapped cells when their words fit, else one block per row.
A topic is named by its key (the title in lower case, words joined by ``-``), its number, or the
start of its title. The rulebooks live in the repository, beside the package; an installed wheel
has none, and then every answer is one line saying so.
"""

from __future__ import annotations

import difflib
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

import games
from client.text.game_names import game_choices, game_name, title

RULES_DIR = Path(__file__).resolve().parents[2] / "docs" / "rules"
_ITEM = re.compile(r"^(\s*)([-*]|\d+\.)\s+(.*)$")
_RULE_ROW = re.compile(r"^\|?\s*:?-{3,}")


@dataclass(frozen=True)
class Topic:
    key: str
    title: str
    body: tuple[str, ...]


def game_id(game: str) -> str:
    """``cosmic_run`` for ``cosmic-run``, ``cr``...: the console's own reading of a game name."""
    return game_name(game)


def file_name(game: str) -> str | None:
    """The file of ``game``'s rulebook in the rules folder (``cosmic-run.md``), if it is a game."""
    name = game_id(game)
    return f"{name.replace('_', '-')}.md" if name in games.names() else None


def slug(heading: str) -> str:
    """A topic's key: ``phase-2-dice`` for ``Phase 2: dice``."""
    return "-".join(re.findall(r"[a-z0-9]+", heading.lower()))


def _load(game: str) -> list[Topic] | str:
    """The topics of ``game``'s rulebook, or a one-line reason why there are none."""
    name = file_name(game)
    if name is None:
        return f"No rules for `{game}`: the games are {game_choices(last='and')}."
    path = RULES_DIR / name
    try:
        source = path.read_text(encoding="utf-8")
    except OSError:
        return f"The rules are not installed here: docs/rules/{name} is missing."
    found: list[Topic] = []
    heading: str | None = None
    body: list[str] = []
    for line in source.splitlines():
        if line.startswith("## "):
            if heading is not None:
                found.append(Topic(slug(heading), heading, tuple(body)))
            heading, body = line[3:].strip(), []
        elif heading is not None:
            body.append(line)
    if heading is not None:
        found.append(Topic(slug(heading), heading, tuple(body)))
    return found


def topics(game: str) -> list[tuple[str, str]]:
    """(key, title) of every topic of ``game``'s rules, in order (none if they are missing)."""
    loaded = _load(game)
    return [] if isinstance(loaded, str) else [(t.key, t.title) for t in loaded]


def text(game: str, topic: str | None, width: int, *, footer: bool = True) -> list[str]:
    """Topic ``topic`` of ``game``'s rules (None: the list of topics) as lines of ``width``.

    A topic ends with a line naming the next one, unless ``footer`` is false (a screen that
    shows the whole rulebook at once has no use for it)."""
    width = max(width, 20)
    loaded = _load(game)
    if isinstance(loaded, str):
        return wrap(loaded, width)
    name = title(game_id(game))
    if topic is None or not topic.strip():
        return _index(name, loaded, width)
    found = find(loaded, topic)
    if isinstance(found, str):
        return wrap(found, width)
    number = loaded.index(found) + 1
    lines = wrap(found.title, width)
    lines.append("-" * min(width, max(len(line) for line in lines)))
    lines += render_markdown(list(found.body), width)
    while lines and not lines[-1]:
        lines.pop()
    if not footer:
        return lines
    where = f"{name} rules, topic {number} of {len(loaded)}."
    if number < len(loaded):
        where += f" Next: `rules {number + 1}` ({loaded[number].title})."
    return [*lines, "", *wrap(where, width)]


def _index(name: str, loaded: list[Topic], width: int) -> list[str]:
    lines = wrap(f"{name} rules: {len(loaded)} topics.", width)
    digits = len(str(len(loaded)))
    for number, entry in enumerate(loaded, start=1):
        head = f"  {number:>{digits}}  "
        lines += textwrap.wrap(
            entry.title,
            width,
            initial_indent=head,
            subsequent_indent=" " * len(head),
            break_on_hyphens=False,
        )
    example = loaded[min(2, len(loaded) - 1)]
    how = (
        f"Type `rules TOPIC` with a topic's number or the start of its title, e.g. "
        f"`rules {loaded.index(example) + 1}` or `rules {example.title.split()[0].lower()}`."
    )
    return [*lines, "", *wrap(how, width)]


def find(loaded: list[Topic], query: str) -> Topic | str:
    """The topic ``query`` names, or a message saying why none.

    By number, by key or whole title, by a unique start of its title or key, and last by a
    unique piece of its title (``meteor``), all case-insensitive.
    """
    wanted = " ".join(query.lower().split())
    if wanted.isdigit():
        number = int(wanted)
        if 1 <= number <= len(loaded):
            return loaded[number - 1]
        return f"There is no topic {number}: the topics are numbered 1 to {len(loaded)}."
    for entry in loaded:
        if wanted in (entry.key, entry.title.lower()):
            return entry
    matches = [
        t
        for t in loaded
        if t.title.lower().startswith(wanted) or t.key.startswith(slug(wanted) or wanted)
    ]
    if not matches:  # then a word inside a title: `rules meteor` for "Phase 1: meteor"
        matches = [t for t in loaded if wanted in t.title.lower()]
    if len(matches) == 1:
        return matches[0]
    if matches:
        names = ", ".join(f"{loaded.index(t) + 1} {t.title}" for t in matches)
        return f"`{query}` could be several topics: {names}. Type more of the title, or a number."
    close = difflib.get_close_matches(wanted, [t.title.lower() for t in loaded], n=3, cutoff=0.5)
    hint = ""
    if close:
        titles = [t.title for t in loaded if t.title.lower() in close]
        hint = " Did you mean " + " or ".join(titles) + "?"
    return f"No rules topic `{query}`.{hint} Type `rules` for the list of topics."


def wrap(line: str, width: int, indent: str = "", hang: str | None = None) -> list[str]:
    """One paragraph wrapped to ``width`` without breaking words (unless a word is wider)."""
    return textwrap.wrap(
        line,
        width,
        initial_indent=indent,
        subsequent_indent=indent if hang is None else hang,
        break_on_hyphens=False,
    ) or [indent.rstrip()]


def inline(text: str) -> str:
    """Markdown emphasis dropped (``**Red**`` reads Red); code spans keep their backquotes."""
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text)
    return re.sub(r"(?<![\w*])\*(\S(?:.*?\S)?)\*(?![\w*])", r"\1", text)


def render_markdown(source: list[str], width: int) -> list[str]:
    """The markdown lines of one topic as plain lines of at most ``width`` characters."""
    out: list[str] = []
    block: list[str] = []  # the paragraph or list item being gathered
    item: tuple[str, str] | None = None  # (first-line indent, hanging indent) of a list item
    table: list[str] = []
    code: list[str] | None = None

    def flush() -> None:
        nonlocal block, item
        if block:
            joined = inline(" ".join(part.strip() for part in block))
            if item is None:
                out.extend(wrap(joined, width))
            else:
                out.extend(wrap(joined, width, item[0], item[1]))
        block, item = [], None

    def flush_table() -> None:
        nonlocal table
        if table:
            out.extend(render_table(table, width))
        table = []

    def gap() -> None:
        if out and out[-1]:
            out.append("")

    for raw in source:
        line = raw.rstrip()
        if code is not None:
            if line.strip().startswith("```"):
                out.extend(code)
                code = None
            else:
                code.append(line[:width])
            continue
        if line.strip().startswith("```"):
            flush()
            flush_table()
            gap()
            code = []
            continue
        if line.lstrip().startswith("|"):
            flush()
            if not table:
                gap()
            table.append(line.strip())
            continue
        flush_table()
        if not line.strip():
            flush()
            gap()
            continue
        if line.startswith("#"):
            flush()
            gap()
            out.extend(wrap(inline(line.lstrip("#").strip()), width))
            continue
        match = _ITEM.match(line)
        if match:
            flush()
            spaces, marker, rest = match.groups()
            level = (len(spaces) + 1) // 3
            first = "  " * level + marker + " "
            item = (first, " " * len(first))
            block = [rest]
            continue
        block.append(line)
    flush()
    flush_table()
    if code:
        out.extend(code)
    while out and not out[0]:
        out.pop(0)
    return out


def _cells(row: str) -> list[str]:
    row = row.strip()
    row = row.removeprefix("|").removesuffix("|")
    return [inline(cell.strip()) for cell in row.split("|")]


def render_table(rows: list[str], width: int) -> list[str]:
    """A markdown table in ``width`` columns: aligned, with wrapped cells, or a block per row."""
    parsed = [_cells(r) for r in rows if not _RULE_ROW.match(r)]
    if not parsed:
        return []
    columns = max(len(r) for r in parsed)
    parsed = [r + [""] * (columns - len(r)) for r in parsed]
    natural = [max(len(r[c]) for r in parsed) for c in range(columns)]
    gaps = 2 * (columns - 1)
    if sum(natural) + gaps <= width:
        return _grid(parsed, natural)
    least = [
        max([len(word) for r in parsed for word in r[c].split()] + [1]) for c in range(columns)
    ]
    if sum(least) + gaps <= width:
        widths = list(least)
        spare = width - gaps - sum(widths)
        # Share the room left by how much each column would still like to have.
        wants = [n - w for n, w in zip(natural, widths, strict=True)]
        total = sum(wants)
        for c in range(columns):
            extra = spare * wants[c] // total if total else 0
            widths[c] += extra
        return _grid(parsed, widths)
    return _records(parsed, width)


def _grid(rows: list[list[str]], widths: list[int]) -> list[str]:
    """Aligned columns; when a cell takes several lines, a blank line between rows."""
    cells = [
        [
            textwrap.wrap(cell, w, break_on_hyphens=False) or [""]
            for cell, w in zip(row, widths, strict=True)
        ]
        for row in rows
    ]
    spaced = any(len(c) > 1 for row in cells[1:] for c in row)
    out: list[str] = []
    for index, row in enumerate(cells):
        for k in range(max(len(c) for c in row)):
            parts = [
                (c[k] if k < len(c) else "").ljust(w) for c, w in zip(row, widths, strict=True)
            ]
            out.append("  ".join(parts).rstrip())
        if index == 0:
            out.append("  ".join("-" * w for w in widths))
        elif spaced and index < len(cells) - 1:
            out.append("")
    return out


def _records(rows: list[list[str]], width: int) -> list[str]:
    header, *body = rows
    out: list[str] = []
    for index, row in enumerate(body):
        if index:
            out.append("")
        out.extend(wrap(row[0] or "-", width))
        for name, cell in zip(header[1:], row[1:], strict=True):
            if cell:
                out.extend(wrap(f"{name}: {cell}", width, "  ", "    "))
    return out
