"""The line console inside the full-screen app: what it writes on, and what it does differently.

:class:`client.console.commands.Console` writes everything to a screen and knows nothing of panes.
Here its screen is a :class:`PaneScreen`: lines go to the log pane, the prompt to the command line,
and every prompt (the console prompts after each line typed, each message from the server and
each answer to a request) tells the app to redraw its panes from the console's state.

:class:`PaneConsole` is the console with four changes: the board and the action menu are not
written into the log after each move (their panes show them; the ``board`` command still writes
the board there), long answers (``help``, ``rules``, ``log``...) open in the reader pane, chat
also goes to the chat pane, and ``screenshot [FILE]`` saves the screen.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol

from client.console.commands import Console
from client.text.style import Style


class Panes(Protocol):
    """What the console may ask of the app."""

    def write_log(self, lines: list[str]) -> None: ...

    def prompted(self, prompt: str) -> None: ...

    def chat(self, line: str) -> None: ...

    def read(self, title: str, lines: Callable[[int], str | list[str]]) -> None: ...

    def screenshot(self, filename: str | None) -> str: ...


class PaneScreen:
    """A :class:`client.console.screen.Screen` look-alike writing to the app's panes.

    Text is styled with ANSI codes whatever the colour setting: the app turns them into its own
    styles, and drops the colours itself when ``NO_COLOR`` (or ``--no-color``) asks it to.
    """

    def __init__(self, panes: Panes, width: Callable[[], int] = lambda: 80) -> None:
        self.panes = panes
        self.style = Style(True)
        self.interactive = True
        self.prompt = ""
        self._width = width

    @property
    def width(self) -> int:
        """Columns of the log: what the console wraps its help to."""
        return self._width()

    def show(self, lines: str | Iterable[str]) -> None:
        if isinstance(lines, str):
            lines = lines.split("\n")
        lines = list(lines)
        if lines:
            self.panes.write_log(lines)

    def set_prompt(self, prompt: str) -> None:
        self.prompt = prompt
        self.panes.prompted(prompt)

    def input_done(self) -> None:
        pass


class PaneConsole(Console):
    """The console of the full-screen client (see the module's docstring)."""

    screen: PaneScreen

    def show_board(self) -> None:
        game = self.game
        if game is None or game.view is None:
            super().show_board()  # says there is nothing to show

    def do_board(self, rest: str) -> None:
        """board: write the board into the log too (also `b`)."""
        super().show_board()

    def answer(self, title: str, lines: Callable[[int], str | list[str]]) -> None:
        """Open a long answer in the reader pane (the log says where it went)."""
        self.screen.panes.read(title, lines)
        self.say(self.style.note(f"({title}: shown above; Esc or `q` closes it)"))

    def on_chat(self, msg: dict[str, Any]) -> None:
        super().on_chat(msg)
        scope = "" if msg.get("scope") != "lobby" else "(lobby) "
        who = self.style.bold(str(msg.get("from", "?")))
        self.screen.panes.chat(f"{scope}{who}: {msg.get('text', '')}")

    def do_screenshot(self, rest: str) -> None:
        """screenshot [FILE]: save the screen as an SVG picture (also F12).

        FILE defaults to a new cosmoport-N.svg in the current directory.
        """
        try:
            path = self.screen.panes.screenshot(rest.strip() or None)
        except OSError as error:
            self.say(self.style.bad(f"! Could not save the screenshot: {error}"))
            return
        self.say(f"Screenshot saved: {path}")
