"""Colour for the console: ANSI codes when enabled, the plain text otherwise.

Renderers take a :class:`Style` and wrap words in it; with colour off every method returns its
text unchanged, so the same renderer draws both screens. :func:`colour_wanted` decides: colour
when the output is a terminal, unless ``--no-color`` was given or ``NO_COLOR`` is set (any
value, per no-color.org). :func:`visible_len` and :func:`clip` measure and cut text by what shows
on screen, ignoring escape codes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

_CODES = {
    "bold": "1",
    "dim": "2",
    "red": "31",
    "green": "32",
    "yellow": "33",
    "blue": "34",
    "magenta": "35",
    "cyan": "36",
    "grey": "90",
}
_RESET = "\x1b[0m"
_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")

SEAT_COLOURS = ("cyan", "yellow", "magenta", "green", "blue")
"""Colour of each seat's mark and name, by seat."""


class Style:
    """Wraps text in ANSI colour codes when ``enabled``."""

    def __init__(self, enabled: bool = False) -> None:
        self.enabled = enabled

    def paint(self, text: str, *names: str) -> str:
        if not self.enabled or not text or not names:
            return text
        codes = ";".join(_CODES[name] for name in names)
        return f"\x1b[{codes}m{text}{_RESET}"

    def bold(self, text: str) -> str:
        return self.paint(text, "bold")

    def dim(self, text: str) -> str:
        return self.paint(text, "dim")

    def seat(self, seat: Any, text: str) -> str:
        """``text`` in the colour of ``seat`` (no colour for anything but a seat number)."""
        if isinstance(seat, int) and not isinstance(seat, bool) and seat >= 0:
            return self.paint(text, SEAT_COLOURS[seat % len(SEAT_COLOURS)])
        return text

    def good(self, text: str) -> str:
        return self.paint(text, "green")

    def bad(self, text: str) -> str:
        return self.paint(text, "red")

    def note(self, text: str) -> str:
        return self.paint(text, "grey")


PLAIN = Style(False)


def colour_wanted(stream: Any, no_color_flag: bool, environ: Mapping[str, str]) -> bool:
    """Whether to colour what goes to ``stream``."""
    if no_color_flag or environ.get("NO_COLOR", "") != "":
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (OSError, ValueError):
        return False


def strip(text: str) -> str:
    """``text`` without colour codes."""
    return _ESCAPE.sub("", text)


def visible_len(text: str) -> int:
    return len(strip(text))


def clip(text: str, width: int) -> str:
    """``text`` cut to ``width`` visible characters (an ellipsis marks a cut), codes kept whole."""
    if visible_len(text) <= width:
        return text
    out: list[str] = []
    shown = 0
    pos = 0
    coloured = False
    while pos < len(text) and shown < width - 1:
        match = _ESCAPE.match(text, pos)
        if match:
            out.append(match.group())
            coloured = match.group() != _RESET
            pos = match.end()
            continue
        out.append(text[pos])
        shown += 1
        pos += 1
    out.append("~")
    if coloured:
        out.append(_RESET)
    return "".join(out)


def split_at(text: str, count: int) -> tuple[str, str]:
    """``text`` split after ``count`` visible characters (at least one), colour codes kept."""
    count = max(1, count)
    shown = 0
    pos = 0
    while pos < len(text) and shown < count:
        match = _ESCAPE.match(text, pos)
        if match:
            pos = match.end()
            continue
        shown += 1
        pos += 1
    return text[:pos], text[pos:]


def pad(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` visible characters (never cut)."""
    return text + " " * max(0, width - visible_len(text))
