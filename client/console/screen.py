"""The console's output: whole lines, plus a prompt that survives text arriving meanwhile.

Text from the server arrives while the person may be looking at a prompt. On a terminal the
screen erases the prompt line before printing new lines; the console draws the (maybe new)
prompt again with :meth:`Screen.set_prompt` once it has said everything. Elsewhere (a pipe, a
test) prompts are not written at all and lines are simply appended. Long lines are wrapped to
the width with a hanging indent.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable

from client.text.style import Style, visible_len

ERASE_LINE = "\r\x1b[K"


class Screen:
    """Writes lines and the prompt through ``write`` (a function taking text)."""

    def __init__(
        self,
        write: Callable[[str], None],
        style: Style | None = None,
        *,
        interactive: bool = False,
        width: int = 80,
    ) -> None:
        self.write = write
        self.style = style or Style(False)
        self.interactive = interactive
        self.width = width
        self.prompt = ""
        self._prompt_shown = False

    def show(self, lines: str | Iterable[str]) -> None:
        """Print ``lines`` (a string may hold several, separated by newlines)."""
        if isinstance(lines, str):
            lines = lines.split("\n")
        out = []
        for line in lines:
            out.extend(self.wrap(line))
        if not out:
            return
        text = "".join(line + "\n" for line in out)
        if self._prompt_shown:
            text = ERASE_LINE + text
            self._prompt_shown = False
        self.write(text)

    def wrap(self, line: str) -> list[str]:
        """``line`` cut at word boundaries to the width (coloured lines are left alone)."""
        if visible_len(line) <= self.width or "\x1b" in line:
            return [line]
        indent = " " * (len(line) - len(line.lstrip(" ")) + 2)
        return textwrap.wrap(
            line,
            self.width,
            subsequent_indent=indent,
            break_on_hyphens=False,
            break_long_words=False,  # a path or a command stays whole, even if too long
        ) or [line]

    def set_prompt(self, prompt: str) -> None:
        """Show ``prompt`` (replacing any prompt on screen)."""
        if prompt == self.prompt and self._prompt_shown:
            return
        if self._prompt_shown:
            self.write(ERASE_LINE)
            self._prompt_shown = False
        self.prompt = prompt
        self._draw_prompt()

    def input_done(self) -> None:
        """The person pressed Enter: the cursor is on a fresh line, no prompt on it."""
        self._prompt_shown = False

    def _draw_prompt(self) -> None:
        if self.interactive and self.prompt and not self._prompt_shown:
            self.write(self.style.bold(self.prompt))
            self._prompt_shown = True
