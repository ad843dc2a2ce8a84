"""What the kit prints: progress lines while it runs, then the checklist.

Plain text, one item a line, wrapped at :data:`WIDTH` columns; colour (``client.text.style``) only
when the output is a terminal and neither ``--no-color`` nor ``NO_COLOR`` says otherwise, so a
pipe or a file gets the same words without escape codes.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from typing import TextIO

from client.text.style import Style

WIDTH = 100


@dataclass
class Line:
    """One line of the checklist: passed or not, what the spec expects, what the program did."""

    name: str
    passed: bool
    expected: str
    did: list[str] = field(default_factory=list)  # on a pass: a summary; else the problems


def seconds(value: float) -> str:
    """``3 ms``, ``0.4 s``, ``12 s``."""
    if value < 0.1:
        return f"{value * 1000:.0f} ms"
    return f"{value:.1f} s" if value < 10 else f"{value:.0f} s"


class Printer:
    """Writes progress and the checklist to ``out``."""

    def __init__(self, out: TextIO, style: Style) -> None:
        self.out = out
        self.style = style

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def begin(self, number: int, total: int, title: str) -> None:
        self.out.write(f"[{number}/{total}] {title} ... ")
        self.out.flush()

    def end(self, ok: bool, text: str) -> None:
        self.say(self.style.good(text) if ok else self.style.bad(text))

    def checklist(self, lines: list[Line]) -> None:
        style = self.style
        self.say()
        self.say(style.bold("Checklist"))
        for line in lines:
            mark = style.good("pass") if line.passed else style.bad("FAIL")
            summary = "; ".join(line.did) if line.passed and line.did else ""
            head = f"  {mark}  {line.name}" + (f": {summary}" if summary else "")
            self.say(_wrap(head, "          "))
            if line.passed:
                continue
            self.say(_wrap(f"        expected: {line.expected}", " " * 18))
            for number, problem in enumerate(line.did or ["(nothing to say)"]):
                label = "it did:  " if number == 0 else " " * 9
                self.say(_wrap(f"        {label} {problem}", " " * 18))
        passed = sum(line.passed for line in lines)
        self.say()
        if passed == len(lines):
            self.say(style.good(f"All {len(lines)} checks passed."))
        else:
            self.say(style.bad(f"{len(lines) - passed} of {len(lines)} checks failed."))


def _wrap(text: str, indent: str) -> str:
    return "\n".join(
        textwrap.wrap(text, WIDTH, subsequent_indent=indent, break_on_hyphens=False) or [text]
    )
