"""The full-screen client: a Textual app around the line console.

The app owns the panes and the command line; the console (:class:`.bridge.PaneConsole`) owns
everything else, exactly as on a line terminal: each line typed goes to ``Console.line``, each
click on a menu entry too (as its number), and the console writes to a :class:`.bridge.PaneScreen`
that feeds the log and tells the app when to redraw. A redraw reads the console's state (its game
tracker: the view, the legal actions, the names), renders each pane at its width
(:mod:`.content`) and places the panes for the terminal's size (:mod:`.layout`).

The session (server, connection, console) is started by a ``start`` coroutine function given to
the app, which runs it on the app's reactor once mounted and exits with its status when it ends.
Long answers (``help``, ``rules``, ``legend``, ``hint``, ``log``, ``actions``...) open in the
reader pane instead of the log, where they can be read whole and scrolled.

Keys: F1 (or ``?`` on an empty command line) the legend, F2 the rules, Escape (or ``q`` on an
empty command line) closes the reader, F12 a screenshot, Ctrl+Q quits, Page Up/Down scroll the
reader when it is open (else the log), Up/Down recall earlier lines.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, ClassVar

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Input, Label
from twisted.logger import Logger

from client.console.commands import Console
from client.text.style import strip, visible_len
from client.tui import content, layout
from client.tui.bridge import PaneConsole, PaneScreen
from client.tui.panes import LogPane, MenuPane, TextPane

Quit = Callable[[int], None]
Attach = Callable[[Console, Quit], None]
Start = Callable[[Any, PaneScreen, Attach, type[Console]], Coroutine[Any, Any, int]]
"""Runs a whole session: (reactor, screen, attach, console class) -> exit status. It builds a
console of the class on the screen and hands it to ``attach`` with its quit function."""

_log = Logger()

SAID_KEPT = 20
KEYS = {"legend": "F1", "rules": "F2"}
CLOSE = ("Esc or q closes", "PgUp/PgDn scroll")
CHAT_TIP = "`chat TEXT` talks to your table (to the lobby when at none)."
PLACEHOLDERS = (
    "a choice or a command (help) · F1 legend · F2 rules · ^Q quit",
    "a choice or a command (help) · F1 legend · ^Q quit",
    "a choice, or help · F1 legend · ^Q quit",
    "a choice, or help",
    "",
)
"""What the empty command line says, the longest that fits."""
Answer = Callable[[int], "str | list[str]"]


class CommandLine(Input):
    """The command line: ``?`` on an empty line toggles the legend, ``q`` closes the reader,
    Up and Down recall lines."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "recall(-1)", show=False),
        Binding("down", "recall(1)", show=False),
    ]

    class LegendKey(Message):
        """``?`` was pressed on an empty command line."""

    class CloseKey(Message):
        """``q`` was pressed on an empty command line while the reader is open."""

    def __init__(self) -> None:
        super().__init__(placeholder=PLACEHOLDERS[0], id="command", select_on_focus=False)
        self.history: list[str] = []
        self.recalled = 0
        self.reader_open = False

    async def _on_key(self, event: events.Key) -> None:
        if not self.value and (
            event.character == "?" or (event.character == "q" and self.reader_open)
        ):
            event.stop()
            event.prevent_default()
            self.post_message(self.LegendKey() if event.character == "?" else self.CloseKey())
            return
        await super()._on_key(event)

    def remember(self, line: str) -> None:
        if line and (not self.history or self.history[-1] != line):
            self.history.append(line)
        self.recalled = len(self.history)

    def action_recall(self, step: int) -> None:
        if not self.history:
            return
        self.recalled = max(0, min(len(self.history), self.recalled + step))
        self.value = self.history[self.recalled] if self.recalled < len(self.history) else ""
        self.cursor_position = len(self.value)


class CosmoportApp(App[int]):
    """Board, menu, log, players, chat and legend panes around the console."""

    CSS_PATH = "app.tcss"
    TITLE = "Cosmoport"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "toggle_help('legend')", "Legend"),
        Binding("f2", "toggle_help('rules')", "Rules"),
        Binding("escape", "close_help", show=False),
        Binding("f12", "screenshot", "Screenshot"),
        Binding("ctrl+q", "quit", "Quit", priority=True),
        Binding("pageup", "scroll_log(-1)", show=False),
        Binding("pagedown", "scroll_log(1)", show=False),
    ]

    def __init__(
        self, start: Start | None = None, *, reactor: Any = None, game: str | None = None
    ) -> None:
        super().__init__()
        self.start = start
        self.reactor = reactor
        self.default_game = game
        self.line_console: Console | None = None
        self.quit_with: Quit | None = None
        self.help_kind: str | None = None  # "legend", "rules", "answer" or None
        self.reading: tuple[str, Answer] | None = None  # the answer open: its title and lines
        self.help_auto = True  # the legend fills a wide screen's spare rows until toggled
        self.pane_screen = PaneScreen(self, self.log_width)
        self.plan: layout.Plan | None = None
        self.code: int | None = None
        self.ready = False  # composed and mounted: the panes can be drawn
        self.said: deque[str] = deque(maxlen=SAID_KEPT)  # the log's last lines, plain
        self.early: list[str] = []  # lines said before the log pane was there
        self.problem = ""  # the last drawing failure reported
        self.clock_shown: str | None = None  # the turn timer line the board shows

    # --- building ----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Vertical(id="game"):
                yield TextPane("Board", id="board")
                yield TextPane("Legend", id="help")
                yield MenuPane("Your move", id="menu")
            with Vertical(id="people"):
                yield TextPane("Players", id="players")
                yield LogPane("Log", id="log")
                yield LogPane("Chat", id="chat")
        with Horizontal(id="bottom"):
            yield Label("", id="prompt")
            yield CommandLine()

    def on_mount(self) -> None:
        self.query_one(CommandLine).focus()
        self.ready = True
        self.query_one("#log", LogPane).add(self.early)
        self.early = []
        self.query_one("#chat", LogPane).add([self.pane_screen.style.note(CHAT_TIP)])
        self.redraw()
        self.set_interval(1.0, self._count_down)
        if self.start is not None:
            from twisted.internet import defer

            session: defer.Deferred[int] = defer.ensureDeferred(
                self.start(self.reactor, self.pane_screen, self.attach, PaneConsole)
            )
            session.addCallbacks(self._ended, self._failed)

    def _count_down(self) -> None:
        """Once a second: the board again when the turn timer's line shows another time."""
        console = self.line_console
        shown = console.clock_text() if console is not None else None
        if shown != self.clock_shown:
            self.redraw()

    def attach(self, console: Console, quit_with: Quit) -> None:
        """The session's console, and how to end the session."""
        self.line_console = console
        self.quit_with = quit_with
        self.redraw()

    def _ended(self, code: Any) -> None:
        self.code = code if isinstance(code, int) else 0
        self.exit(self.code)

    def _failed(self, failure: Any) -> None:
        self.write_log([f"The session failed: {failure.getErrorMessage()}"])
        self._ended(1)

    # --- what the console asks for (bridge.Panes) ---------------------------------------

    def write_log(self, lines: list[str]) -> None:
        self.said.extend(content.plain(lines))
        if self.ready:
            self.query_one("#log", LogPane).add(lines)
        else:
            self.early.extend(lines)

    def prompted(self, prompt: str) -> None:
        self.redraw()

    def read(self, title: str, lines: Answer) -> None:
        """Open the reader on a long answer: ``lines(width)`` at the reader's width."""
        self.reading = (title, lines)
        self.help_kind = "answer"
        self.help_auto = False
        self.redraw()
        if self.ready:
            self.query_one("#help", TextPane).scroll_home(animate=False)

    def chat(self, line: str) -> None:
        if self.ready:
            self.query_one("#chat", LogPane).add([line])

    def screenshot(self, filename: str | None) -> str:
        """Save an SVG of the screen to ``filename`` (default: a new ``cosmoport-N.svg`` in the
        current directory) once the screen is up to date; the path it goes to (from the current
        directory when it is in it)."""
        path = Path(filename).expanduser() if filename else _free_name(Path.cwd())
        if path.suffix.lower() != ".svg":
            path = path.with_name(path.name + ".svg")
        path = path.resolve()
        if not path.parent.is_dir():
            raise OSError(f"there is no folder {path.parent}")
        # After the next refresh the panes hold the latest lines; after the one that follows,
        # the log has scrolled to them: then the screen is what the person sees.
        self.call_after_refresh(self.call_after_refresh, self._save_screenshot, path)
        return str(path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path)

    def _save_screenshot(self, path: Path) -> None:
        try:
            path.write_text(self.export_screenshot(), encoding="utf-8")
        except OSError as error:
            self.write_log([self.pane_screen.style.bad(f"! The screenshot was not saved: {error}")])

    def log_width(self) -> int:
        return self.plan.log_width if self.plan is not None else 78

    # --- input -----------------------------------------------------------------------

    def on_input_submitted(self, event: Input.Submitted) -> None:
        line = event.value
        event.input.value = ""
        command_line = self.query_one(CommandLine)
        command_line.remember(line.strip())
        self.send(line)

    def send(self, line: str) -> None:
        """``line`` to the console, as if typed (echoed into the log)."""
        if self.line_console is None:
            return
        self.write_log([self.pane_screen.style.note(f"> {line}")])
        self.line_console.line(line)

    def on_menu_pane_chosen(self, event: MenuPane.Chosen) -> None:
        self.send(str(event.number))

    def on_command_line_legend_key(self, event: CommandLine.LegendKey) -> None:
        self.action_toggle_help("legend")

    def on_command_line_close_key(self, event: CommandLine.CloseKey) -> None:
        self.action_close_help()

    def action_toggle_help(self, kind: str) -> None:
        shown = self.help_kind or (
            "legend" if self.plan is not None and self.plan.help and self.help_auto else None
        )
        self.help_kind = None if shown == kind else kind
        self.help_auto = False
        self.redraw()
        if self.help_kind is not None and self.ready:
            self.query_one("#help", TextPane).scroll_home(animate=False)

    def action_close_help(self) -> None:
        """Escape: close the reader (the legend, the rules or an answer)."""
        if self.help_kind is not None or (self.plan is not None and self.plan.help):
            self.help_kind = None
            self.help_auto = False
            self.reading = None
            self.redraw()

    def action_screenshot(self, filename: str | None = None, path: str | None = None) -> None:
        if self.line_console is not None and isinstance(self.line_console, PaneConsole):
            self.line_console.do_screenshot(filename or "")
            self.line_console.prompt()
        else:
            self.write_log([f"Screenshot saved: {self.screenshot(filename)}"])

    async def action_quit(self) -> None:
        """Ctrl+Q: leave, after asking once in the middle of a game."""
        console = self.line_console
        if console is not None and not console.may_quit("Press Ctrl+Q again"):
            return
        self.end_session()

    def end_session(self) -> None:
        """Leave: the session closes its connections (and its server), then the app exits."""
        if self.quit_with is not None:
            self.quit_with(0)
        else:
            self.exit(0)

    def action_scroll_log(self, pages: int) -> None:
        """Page Up/Down: scroll the reader when it is open, else the log."""
        pane: TextPane | LogPane = self.query_one("#log", LogPane)
        if self.plan is not None and self.plan.help:
            pane = self.query_one("#help", TextPane)
        if pages < 0:
            pane.scroll_page_up(animate=False)
        else:
            pane.scroll_page_down(animate=False)

    # --- drawing ---------------------------------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        self.redraw(event.size.width, event.size.height)

    def redraw(self, width: int | None = None, height: int | None = None) -> None:
        """Every pane again from the console's state, placed for the terminal's size (a pane
        that cannot be drawn is reported in the log, once: it never ends the session)."""
        if not self.ready:
            return
        try:
            self._redraw(width or self.size.width, height or self.size.height)
        except Exception as error:
            problem = f"(could not draw the screen: {error!r})"
            if problem != self.problem:
                self.problem = problem
                _log.failure("drawing the panes")
                self.write_log([self.pane_screen.style.note(problem)])

    def _redraw(self, width: int, height: int) -> None:
        height = height or self.size.height
        wide, left, right = layout.sides(width)
        text_width = max(1, left - layout.GUTTER)
        console = self.line_console
        board, board_title = content.board(console, text_width)
        self.clock_shown = console.clock_text() if console is not None else None
        menu, targets, menu_title = content.menu(console, text_width)
        people = content.players(console, right - layout.GUTTER) if wide else []
        mode = "auto" if self.help_auto and wide else "off"
        if self.help_kind:
            mode = "read" if self.help_kind == "answer" else "on"
        reader, reader_title = self._reader(text_width) if mode != "off" else ([], "")

        def plan_for() -> layout.Plan:
            return layout.plan(
                width,
                height,
                board=len(board),
                menu=len(menu),
                help_mode=mode,
                players=len(people),
                reading=len(reader),
            )

        def short(plan: layout.Plan) -> bool:
            return 0 < plan.board < len(board) + plan.titled

        # Short of rows, the command line says how to type a choice and whose time runs (they
        # are never out of sight there), in place of the menu's and the board's last lines.
        plan = plan_for()
        prompt, typing = self._command_line(width, short(plan))
        if typing:
            menu, targets, menu_title = content.menu(console, text_width, typing=False)
            plan = plan_for()
        if short(plan) and self.clock_shown:
            board, board_title = content.board(console, text_width, clock=False)
            plan = plan_for()
        previous, self.plan = self.plan, plan
        self._place(plan)
        board_pane = self.query_one("#board", TextPane)
        if board_pane.show(board, board_title) or plan != previous:
            board_pane.keep_in_sight(content.own_rows(board))
        self.query_one(MenuPane).show_menu(menu, targets, menu_title, content.previews(console))
        self.query_one("#players", TextPane).show(people)
        if plan.help:
            self.query_one("#help", TextPane).show(reader, reader_title)
        self.query_one("#log", LogPane).set_width(plan.log_width)
        self.query_one("#chat", LogPane).set_width(plan.log_width)
        command_line = self.query_one(CommandLine)
        command_line.reader_open = bool(plan.help)
        self.query_one("#prompt", Label).update(f"{prompt} >" if prompt else ">")
        room = width - visible_len(prompt) - 3
        shown = (typing, *PLACEHOLDERS) if typing else PLACEHOLDERS
        command_line.placeholder = next(p for p in shown if len(p) <= room)

    def _command_line(self, width: int, short: bool) -> tuple[str, str]:
        """(prompt, how to type a choice) for the command line: the console's prompt and the
        time left; when ``short`` of rows and it fits (after a shorter prompt if need be), the
        menu's line on how to type a choice, which the menu then leaves out."""
        console = self.line_console
        said = self.pane_screen.prompt.rstrip().removesuffix(">").rstrip()
        clock = console.deciding_clock_text() if console is not None else None
        prompts = [said, said.partition(" (")[0]] if short else [said]
        for prompt in dict.fromkeys(" · ".join(p for p in (head, clock) if p) for head in prompts):
            room = width - visible_len(prompt) - 3
            typing = strip(content.typing_hint(console, room)) if short else ""
            if typing and len(typing) <= room:
                return prompt, typing
        return " · ".join(p for p in (said, clock) if p), ""

    def _reader(self, width: int) -> tuple[list[str], str]:
        """(lines, title) of the reader: the answer open, the rules or the legend."""
        kind = self.help_kind or "legend"
        if kind == "answer" and self.reading is not None:
            title, answer = self.reading
            said = answer(width)
            lines = content.fitted(said.split("\n") if isinstance(said, str) else said, width)
            return lines, _title(width, title, *CLOSE)
        game = content.game_of(self.line_console, self.default_game)
        lines = (content.rules if kind == "rules" else content.legend)(game, width)
        closes = f"{KEYS[kind]}, {CLOSE[0]}"
        return lines, _title(width, kind.capitalize(), closes, *CLOSE[1:])

    def _place(self, plan: layout.Plan) -> None:
        self.screen.set_class(plan.wide, "-wide")
        self.screen.set_class(plan.titled, "-titled")
        self.query_one("#game").styles.width = plan.left if plan.wide else "1fr"
        self.query_one("#game").styles.height = "1fr" if plan.wide else "auto"
        self.query_one("#people").styles.height = "1fr"
        for name in ("board", "help", "menu", "players", "log", "chat"):
            rows = getattr(plan, name)
            widget = self.query_one(f"#{name}")
            widget.display = rows > 0
            if rows:
                widget.styles.height = rows


def _title(width: int, *parts: str) -> str:
    """The parts joined with `` · ``, as many as fit ``width`` columns (the first always)."""
    title = parts[0]
    for part in parts[1:]:
        if len(title) + 3 + len(part) > width:
            break
        title += f" · {part}"
    return title


def _free_name(folder: Path) -> Path:
    number = 1
    while (folder / f"cosmoport-{number}.svg").exists():
        number += 1
    return folder / f"cosmoport-{number}.svg"
