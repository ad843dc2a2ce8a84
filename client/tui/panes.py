"""The app's panes: scrolling text (board, legend, players, chat), the clickable menu, the log.

Lines arrive as the renderers make them (text with ANSI colour codes, already fitted to the
pane's width) and are shown with Rich's ``Text.from_ansi``. The log keeps its lines and wraps
them again when its width changes.

The menu is told where its choices are (:mod:`.targets`); a click anywhere on one chooses it
(:class:`MenuPane.Chosen`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence

from rich.text import Text
from textual import events
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import RichLog, Static

from client.text.flow import words
from client.text.style import strip, visible_len
from client.tui.targets import Target

LOG_KEPT = 1000
"""Lines the log pane keeps (older ones scroll away for good; `log` still has the game's)."""


def fitted(lines: Iterable[str], width: int, indent: int = 2) -> list[str]:
    """``lines`` within ``width`` visible columns: a longer one is wrapped between its words,
    its continuation ``indent`` columns further in than it starts (never cut: a word wider than
    the line is folded)."""
    width = max(1, width)
    out: list[str] = []
    for line in lines:
        if visible_len(line) <= width:
            out.append(line)
            continue
        plain = strip(line)
        out.extend(words(line, width, len(plain) - len(plain.lstrip(" ")) + indent))
    return out


def ansi_text(lines: Sequence[str]) -> Text:
    """The lines as one Rich text (colours from their ANSI codes)."""
    return Text.from_ansi("\n".join(lines), no_wrap=True, end="")


class TextPane(VerticalScroll, can_focus=False):
    """A titled pane of lines that scrolls when they do not fit."""

    def __init__(self, title: str, *, id: str) -> None:
        super().__init__(id=id)
        self.border_title = title
        self.body = Static("", classes="body")
        self.lines: list[str] = []

    def compose(self) -> Iterable[Static]:
        yield self.body

    def show(self, lines: Sequence[str], title: str | None = None) -> bool:
        """Show ``lines`` (and ``title``); whether the lines changed."""
        if title is not None:
            self.border_title = title
        if list(lines) == self.lines:
            return False
        self.lines = list(lines)
        self.body.update(ansi_text(self.lines))
        return True

    def keep_in_sight(self, rows: range) -> None:
        """Scroll, once the pane is laid out, so that ``rows`` of its lines are in sight (from
        the top if they fit there; else as many of them as fit, from their first)."""
        if rows:
            self.call_after_refresh(self._bring, rows)

    def _bring(self, rows: range) -> None:
        height = self.scrollable_content_region.height
        if height <= 0:
            return
        top = 0 if rows.stop <= height else min(rows.start, rows.stop - height)
        if not self.scroll_y <= rows.start < rows.stop <= self.scroll_y + height:
            self.scroll_to(y=top, animate=False)


class MenuBody(Static):
    """The menu's text, which knows where each choice is and lights the one under the mouse."""

    def __init__(self) -> None:
        super().__init__("", classes="body")
        self.targets: list[list[Target]] = []
        self.text = Text()
        self.hover: tuple[int, Target] | None = None

    def set(self, text: Text, targets: list[list[Target]]) -> None:
        self.text, self.targets, self.hover = text, targets, None
        self.update(text)

    def target_at(self, x: int, y: int) -> Target | None:
        """The choice at column ``x`` of line ``y``, if any."""
        if not 0 <= y < len(self.targets):
            return None
        for target in self.targets[y]:
            start, end, _ = target
            if start <= x < max(end, start + 1):
                return target
        return None

    def number_at(self, x: int, y: int) -> int | None:
        target = self.target_at(x, y)
        return target[2] if target is not None else None

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        number = self.number_at(offset.x, offset.y) if offset is not None else None
        if number is not None:
            event.stop()
            self.post_message(MenuPane.Chosen(number))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        offset = event.get_content_offset(self)
        target = self.target_at(offset.x, offset.y) if offset is not None else None
        self._light(None if target is None or offset is None else (offset.y, target))

    def on_leave(self, event: events.Leave) -> None:
        self._light(None)

    def _light(self, hover: tuple[int, Target] | None) -> None:
        if hover == self.hover:
            return
        self.hover = hover
        pane = self.parent
        if isinstance(pane, MenuPane):  # what the choice under the mouse will do
            pane.border_subtitle = pane.preview_of(hover[1][2] if hover is not None else None)
        shown = self.text
        if hover is not None:
            row, (start, end, _) = hover
            at = sum(len(line) + 1 for line in self.text.plain.split("\n")[:row])
            shown = self.text.copy()
            shown.stylize("reverse", at + start, at + end)
        self.update(shown)


class MenuPane(TextPane):
    """The decision and its numbered choices; clicking a choice plays it."""

    class Chosen(Message):
        """The person clicked the menu entry ``number``."""

        def __init__(self, number: int) -> None:
            super().__init__()
            self.number = number

    def __init__(self, title: str, *, id: str) -> None:
        super().__init__(title, id=id)
        self.body = MenuBody()
        self.previews: Sequence[str | None] = ()

    def preview_of(self, number: int | None) -> str:
        """What choice ``number`` will do (for the pane's bottom border), or nothing."""
        if number is None or not 0 < number <= len(self.previews):
            return ""
        return self.previews[number - 1] or ""

    def show_menu(
        self,
        lines: Sequence[str],
        targets: list[list[Target]],
        title: str | None = None,
        previews: Sequence[str | None] = (),
    ) -> None:
        """Show ``lines``, with the choices at ``targets`` (one list a line) to click, and
        ``previews`` (what each choice number will do) for the one under the mouse."""
        self.previews = previews
        if title is not None:
            self.border_title = title
        body = self.body
        assert isinstance(body, MenuBody)
        if list(lines) != self.lines or targets != body.targets:
            self.lines = list(lines)
            body.set(ansi_text(self.lines), targets)


class LogPane(RichLog, can_focus=False):
    """Lines said, newest at the bottom, wrapped to the pane (the log, and chat)."""

    def __init__(self, title: str, *, id: str) -> None:
        super().__init__(id=id, wrap=True, markup=False, highlight=False, min_width=1)
        self.border_title = title
        self.kept: deque[str] = deque(maxlen=LOG_KEPT)
        self.text_width = 0

    def add(self, lines: Sequence[str]) -> None:
        self.kept.extend(lines)
        if self.text_width:
            for line in lines:
                self.write(Text.from_ansi(line), width=self.text_width)

    def set_width(self, width: int) -> None:
        """Wrap to ``width`` columns from now on (every kept line again, if it changed)."""
        if width == self.text_width:
            return
        self.text_width = width
        self.clear()
        for line in self.kept:
            self.write(Text.from_ansi(line), width=width)
