"""The full-screen replay: ``cosmoport replay`` on a terminal.

A game record on the whole screen, like a game being played: the board at the current position
from the chosen viewpoint (it scrolls when taller than its pane), the moves up to the position
(the one that led here with its events, the earlier ones above it) and a status line: the
position ``k/N``, whose view is shown and the keys. Right or ``n`` steps forward, Left or
``p`` back, Home and End go to the start and the end (on an empty command line: once something
is typed they edit it); every command of the line console is typed on the command line at the
bottom (``seat B``, ``all``, ``log 10``, ``help``, ``12``...); ``q`` or Ctrl+Q quits.

The viewer (``cosmoport.replay.Viewer``, seen here as :class:`Viewer`) does all the work: which
position, whose view, what may be shown of the hidden cards, every word. This module only lays
its lines out: drawn at each pane's width, and any line still too wide wrapped (never cut).
Answers other than a position (``log``, ``help``) open in the moves pane until the next step or
Escape; a one-line answer (``That was the last move...``) shows above the status line.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Input, Label, Static

from client.text.flow import flow
from client.text.style import Style
from client.text.wording import plural
from client.tui import layout
from client.tui.panes import TextPane, fitted

KEYS_ON_EMPTY = {
    "right": "next",
    "n": "next",
    "left": "previous",
    "p": "previous",
    "home": "start",
    "end": "end",
    "q": "quit",
}
"""Keys that step (or quit) when the command line is empty, and the viewer's command for each."""
KEY_HELP = ("←/→ n/p Home/End", "seat X, all, log, help", "q quit")
MOVES_SHARE = 30
"""Per cent of the rows the moves pane takes when the panes are stacked."""
MOVES_MIN = 3
PLACEHOLDER = "a command: seat B, all, spectator, log, help, 12..."


class Viewer(Protocol):
    """What the app needs of ``cosmoport.replay.Viewer`` (the client may not import it)."""

    position: int
    viewpoint: int | str | None
    done: bool
    width: int
    style: Style

    @property
    def total(self) -> int: ...

    def command(self, text: str) -> list[str]: ...

    def show(self) -> list[str]: ...

    def move_lines(self) -> list[str]: ...

    def view_lines(self) -> list[str]: ...

    def log_line(self, index: int) -> str: ...

    def whose(self) -> str: ...

    def intro(self) -> list[str]: ...


# --- laying the lines out (pure) ---------------------------------------------------------------


def wrap(lines: Iterable[str], width: int, indent: int = 2) -> list[str]:
    """``lines`` within ``width`` columns, as the game's panes wrap them (:func:`.panes.fitted`):
    broken between words, continued ``indent`` columns further in, never cut."""
    return fitted(lines, width, indent)


def status(viewer: Viewer, width: int, message: Sequence[str] = ()) -> list[str]:
    """The status line (two or three when narrow, wrapped between its parts): the position,
    whose view is shown, the keys; below any one-line answer of the last command."""
    style = viewer.style
    whose = viewer.whose()
    seen = "all cards shown" if whose == "everything" else f"as {whose}"
    where = style.bold(f"move {viewer.position}/{viewer.total}") + f", {seen}"
    keys = [style.note(part) for part in KEY_HELP]
    return wrap(message, width) + flow([where, *keys], width, indent=0)


def moves(viewer: Viewer, rows: int, width: int) -> list[str]:
    """The moves up to the position, in ``rows`` lines when they fit: the one that led here
    marked ``>`` with its events, the earlier ones above, and below how many are left.

    Never a later move: its label may tell what a seat held (``Discard R09``) before the
    position shows it, which the viewer never does (it shows a label once its move is made).
    """
    style = viewer.style
    position, total = viewer.position, viewer.total
    current = wrap([_marked(_entry(viewer, position))], width, 5) + wrap(_events(viewer), width)
    current[0] = style.bold(current[0])
    left = total - position
    after = f"{plural(left, 'move')} to go: → or n" if left else "the end of the record"
    current += [style.note(line) for line in wrap([f"      {after}"], width)]
    room = rows - len(current)
    above: list[str] = []
    earlier = position - 1
    while earlier >= 0:
        lines = wrap([_entry(viewer, earlier)], width, 5)
        if len(lines) > room:
            break
        above = lines + above
        room -= len(lines)
        earlier -= 1
    return above + current


def _entry(viewer: Viewer, position: int) -> str:
    """The line of the move that led to ``position`` (``   0. the start of the game`` for 0)."""
    if position == 0:
        return f"{0:>4}. the start of the game"
    return viewer.log_line(position - 1)


def _marked(line: str) -> str:
    return ">" + line[1:] if line.startswith(" ") else "> " + line


def _events(viewer: Viewer) -> list[str]:
    """What the move that led here did (the viewer's lines under its move line), indented."""
    return ["    " + line for line in viewer.move_lines()[1:]]


@dataclass(frozen=True)
class Plan:
    """Where the panes go: side by side (``wide``) or stacked, their rows and text widths."""

    wide: bool
    titled: bool
    left: int
    board: int
    moves: int
    board_width: int
    moves_width: int


def plan(width: int, height: int, status_rows: int) -> Plan:
    """The panes for a ``width`` x ``height`` terminal with ``status_rows`` of status line (and
    the command line): wide as the game's screen is (:func:`client.tui.layout.sides`)."""
    wide, left, right = layout.sides(width)
    titled = height >= layout.TITLED
    rows = max(2, height - status_rows - 1)
    if wide:
        board = moves_rows = rows
    else:
        moves_rows = min(rows - 1, max(MOVES_MIN + titled, rows * MOVES_SHARE // 100))
        board = rows - moves_rows
    return Plan(
        wide=wide,
        titled=titled,
        left=left if wide else width,
        board=board,
        moves=moves_rows,
        board_width=max(1, left - layout.GUTTER),
        moves_width=max(1, (right if wide else width) - layout.GUTTER),
    )


# --- the app -----------------------------------------------------------------------------------


class ReplayLine(Input):
    """The command line: on an empty line the stepping keys step, ``q`` quits."""

    class Step(Message):
        """A stepping key was pressed on an empty command line: the viewer's ``command``."""

        def __init__(self, command: str) -> None:
            super().__init__()
            self.command = command

    def __init__(self) -> None:
        super().__init__(placeholder=PLACEHOLDER, id="command", select_on_focus=False)

    async def _on_key(self, event: events.Key) -> None:
        command = KEYS_ON_EMPTY.get(event.key)
        if command is not None and not self.value:
            event.stop()
            event.prevent_default()
            self.post_message(self.Step(command))
            return
        await super()._on_key(event)


class ReplayApp(App[int]):
    """A game record on the whole screen: the board, the moves, the status and command lines."""

    CSS_PATH = "replay.tcss"
    TITLE = "Cosmoport replay"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", priority=True),
        Binding("escape", "moves", show=False),
        Binding("pageup", "scroll_board(-1)", show=False),
        Binding("pagedown", "scroll_board(1)", show=False),
        Binding("up", "scroll_board(-0.1)", show=False),
        Binding("down", "scroll_board(0.1)", show=False),
    ]

    def __init__(self, viewer: Viewer) -> None:
        super().__init__()
        self.viewer = viewer
        self.answer: list[str] | None = viewer.intro()  # the moves pane shows it until a step
        self.answer_title = "This game"
        self.message: list[str] = []
        self.layout_plan: Plan | None = None
        self.ready = False

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield TextPane("Board", id="board")
            yield TextPane("Moves", id="moves")
        yield Static("", id="status")
        with Horizontal(id="bottom"):
            yield Label(">", id="prompt")
            yield ReplayLine()

    def on_mount(self) -> None:
        self.query_one(ReplayLine).focus()
        self.ready = True
        self.redraw()

    def on_resize(self, event: events.Resize) -> None:
        self.redraw(event.size.width, event.size.height)

    # --- input -------------------------------------------------------------------------

    def on_replay_line_step(self, event: ReplayLine.Step) -> None:
        self.run_command(event.command)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.input.value = ""
        self.run_command(event.value)

    def run_command(self, text: str) -> None:
        """One of the viewer's commands; its answer on screen (the position, or the answer in
        the moves pane, or a one-line note above the status line)."""
        viewer = self.viewer
        width = self.layout_plan.moves_width if self.layout_plan else layout.LEFT_MIN
        viewer.width = width  # an answer (help) fits the moves pane
        lines = viewer.command(text)
        if viewer.done:
            self.exit(0)
            return
        if lines == viewer.show():
            self.answer, self.message = None, []
        elif len(lines) == 1:
            self.message = lines
        else:
            word = text.strip().split(" ")[0].lower() or "answer"
            self.answer, self.message = lines, []
            self.answer_title = word.capitalize() if word.isalpha() else "Answer"
        self.redraw()
        pane = self.query_one("#moves", TextPane)
        if self.answer is not None and self.answer_title == "Log":
            pane.call_after_refresh(pane.scroll_end, animate=False)
        else:
            pane.scroll_home(animate=False)

    def action_moves(self) -> None:
        """Escape: the moves again in place of an answer, and the note gone."""
        self.answer, self.message = None, []
        self.redraw()

    def action_scroll_board(self, pages: float) -> None:
        board = self.query_one("#board", TextPane)
        step = max(1, int(abs(pages) * board.scrollable_content_region.height))
        board.scroll_relative(y=step if pages > 0 else -step, animate=False)

    async def action_quit(self) -> None:
        self.exit(0)

    # --- drawing -----------------------------------------------------------------------

    def redraw(self, width: int | None = None, height: int | None = None) -> None:
        """Every pane again from the viewer, placed for the terminal's size."""
        if not self.ready:
            return
        width = width or self.size.width
        height = height or self.size.height
        viewer = self.viewer
        status_lines = status(viewer, max(1, width - 1), self.message)
        plan_ = plan(width, height, len(status_lines))
        self.layout_plan = plan_
        viewer.width = plan_.board_width
        board = wrap(viewer.view_lines(), plan_.board_width)
        title = 1 if plan_.titled else 0
        if self.answer is not None:
            moves_lines = wrap(self.answer, plan_.moves_width)
            moves_title = f"{self.answer_title} (Esc: the moves)"
        else:
            moves_lines = moves(viewer, plan_.moves - title, plan_.moves_width)
            moves_title = "Moves"
        self.screen.set_class(plan_.wide, "-wide")
        self.screen.set_class(plan_.titled, "-titled")
        board_pane = self.query_one("#board", TextPane)
        moves_pane = self.query_one("#moves", TextPane)
        board_pane.styles.width = plan_.left if plan_.wide else "1fr"
        board_pane.styles.height = plan_.board
        moves_pane.styles.height = plan_.moves
        board_pane.show(board, f"Board at move {viewer.position}/{viewer.total}")
        moves_pane.show(moves_lines, moves_title)
        shown = self.query_one("#status", Static)
        shown.styles.height = len(status_lines)
        shown.update(Text.from_ansi("\n".join(status_lines), no_wrap=True, end=""))
