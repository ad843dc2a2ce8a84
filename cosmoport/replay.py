"""``cosmoport replay FILE|DB [GAME]``: step through a recorded game in the console.

A game record (``docs/records.md``) holds the seed, the options and every action of a game, so
the engine plays it again exactly: every board any seat saw, every event, the result. This
command reads a record from a ``.json`` file (one game), a ``.jsonl`` file (one game a line) or
a server's database, and shows it position by position, forward and back, from any seat's
side, a spectator's, or everyone's at once (every hidden card).

:class:`Viewer` does the work: it takes command lines and returns the lines to print, so tests
drive it directly. On a terminal :func:`run` opens it full screen (:mod:`client.tui.replay`:
the board, the moves up to the position, a status line, keys to step and a command line for
the same commands); with ``--plain`` (or ``--line``), or when standard input or output is not a
terminal, it is a thin loop around the viewer over standard input, a pipe alike (the end of
input quits).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from client import render
from client.console.game_commands import command_help, seat_named
from client.console.screen import Screen
from client.console.terminal import full_screen_wanted
from client.games import GamePlugin, plugin
from client.games.narrate import label_text, narrate, told_by_label
from client.text.style import Style, colour_wanted
from client.text.wording import article, cap, plural
from games import records, seat_letter
from games.records import Record, RecordError

SQLITE_MAGIC = b"SQLite format 3\x00"
ALL = "all"
"""The viewpoint that shows everything: the spectator's board and every seat's hidden part."""

COMMAND_ALIASES = {
    "": "next",
    "n": "next",
    "p": "previous",
    "prev": "previous",
    "back": "previous",
    "b": "board",
    "first": "start",
    "last": "end",
    "everything": "all",
    "spec": "spectator",
    "watch": "spectator",
    "l": "log",
    "?": "help",
    "h": "help",
    "q": "quit",
    "exit": "quit",
}

EPILOG = """\
FILE is a .json file (one game record) or a .jsonl file (one record a line); GAME picks a
game of a .jsonl file by its position, from 1 (default: the last one). A server's database
(the file `cosmoport serve` keeps its games in) works too: GAME is then the table id
(default: the game that finished last).

Commands, one a line (`help` lists them):
  Enter, n [K]     the next action (or K actions on)
  p [K]            the previous action (or K back)
  N                jump to the position after N actions (0: the start)
  start, end       the first or the last position
  seat X           the game as seat X saw it: a letter (A, B, ...), a number (1 for A,
                   2 for B, ...) or a player's name
  spectator        the game as a spectator saw it (the default)
  all              everything: the board and every seat's hidden cards
  log [N]          the actions so far with their labels (the last N)
  board            draw the position again
  q                quit

On a terminal the replay is full screen: Right or `n` steps forward, Left or `p` back,
Home and End go to the start and the end, and the commands above are typed on the command
line at the bottom (`q` or Ctrl+Q quits). `--plain` (or `--line`) keeps the line console.

Input may come from a pipe: each line is a command and the end of input quits, e.g.
  printf 'end\\nlog 5\\n' | cosmoport replay games.jsonl 3
The exit status is 2 for a record that cannot be replayed (or a bad argument) and 1 when
FILE cannot be read.
"""


class LoadError(Exception):
    """A record that cannot be read: the one-line message and the exit status."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


# --- loading ----------------------------------------------------------------------------------


def load(path: str, game: int | None) -> tuple[Record, str]:
    """The record ``game`` of the file or database at ``path``, and how to name it."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise LoadError(f"cannot read {path}: {exc.strerror or exc}", 1) from None
    if data.startswith(SQLITE_MAGIC):
        return _from_database(path, game)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise LoadError(f"{path} is not a game record: it is not UTF-8 text") from None
    lines = records.jsonl_lines(text)
    if path.endswith(".json") or not _looks_like_jsonl(path, lines):
        if game is not None and game != 1:
            raise LoadError(f"{path} holds one game: there is no game {game} in it")
        try:
            return records.loads(text), path
        except RecordError as exc:
            raise LoadError(f"{path}: {exc}") from None
    if not lines:
        raise LoadError(f"{path} holds no game")
    count = len(lines)
    position = count if game is None else game
    if not 1 <= position <= count:
        held = "one game" if count == 1 else f"{count} games"
        raise LoadError(f"{path} holds {held}: there is no game {game} (choose 1 to {count})")
    try:
        record = records.loads_line(lines[position - 1], position)
    except RecordError as exc:
        raise LoadError(f"{path}: {exc}") from None
    return record, f"{path}, game {position} of {count}"


def _looks_like_jsonl(path: str, lines: list[records.Line]) -> bool:
    """A ``.jsonl`` name, or (any other name) several lines of which the first is a record."""
    if path.endswith(".jsonl"):
        return True
    if len(lines) < 2:
        return False
    try:
        records.loads(lines[0].text)
    except RecordError:
        return False
    return True


def _from_database(path: str, table: int | None) -> tuple[Record, str]:
    """A record from a server database, through the server's own store."""
    try:
        from server.store import StoreError
        from server.store_records import load_record
    except ImportError as exc:
        raise LoadError(
            f"{path} is a server database, which this installation cannot read: {exc}"
        ) from None
    try:
        record = load_record(path, table)
    except StoreError as exc:  # its one line names the file already
        raise LoadError(str(exc)) from None
    shown = record.get("table", table) if isinstance(record, dict) else table
    return record, f"{path}, table {shown}"


# --- the viewer -------------------------------------------------------------------------------


class Viewer:
    """One record on screen: command lines in, lines of text out.

    The position is the number of actions applied (0: the start, ``len(timeline)``: the end);
    the viewpoint is a seat, ``None`` for a spectator, or :data:`ALL`. ``width`` is the
    columns the board and the help are drawn for (the full screen sets its pane's).
    """

    def __init__(self, record: Record, style: Style | None = None, source: str = "") -> None:
        self.timeline = records.Timeline(record)  # checks and replays: RecordError if it cannot
        self.record = record
        self.style = style or Style(False)
        self.source = source
        self.game: str = record["game"]
        self.names = [
            str(seat["name"]) or f"Seat {seat_letter(i)}" for i, seat in enumerate(record["seats"])
        ]
        self.position = 0
        self.viewpoint: int | str | None = None
        self.done = False
        self.width = render.WIDTH

    @property
    def total(self) -> int:
        return len(self.timeline)

    # --- input ---------------------------------------------------------------------------

    def command(self, text: str) -> list[str]:
        """The lines answering one command line."""
        text = text.strip()
        if text.isdigit():
            return self.jump(int(text))
        name, _, rest = text.partition(" ")
        name = COMMAND_ALIASES.get(name.lower(), name.lower())
        method = getattr(self, "do_" + name, None)
        if method is None:
            return [f"Unknown command `{text}`. Type `help` for the list."]
        lines: list[str] = method(rest.strip())
        return lines

    def prompt(self) -> str:
        return f"move {self.position}/{self.total}> "

    def jump(self, position: int) -> list[str]:
        """Go to the position after ``position`` actions and show it."""
        if not 0 <= position <= self.total:
            return [f"There is no move {position}: choose 0 (the start) to {self.total}."]
        self.position = position
        return self.show()

    def choose(self, text: str) -> str | None:
        """Take the viewpoint named by ``text``; what is wrong with it, or None."""
        word = text.strip().lower()
        if word in ("all", "everything"):
            self.viewpoint = ALL
        elif word in ("spectator", "none", ""):
            self.viewpoint = None
        elif word.isdigit() and 1 <= int(word) <= len(self.names):
            self.viewpoint = int(word) - 1  # seats by number from 1, in turn order: 1 is A
        else:
            seat = seat_named(text, self.names)
            if seat is None:
                return f"No seat `{text}`: seats are {self.seat_list()}."
            self.viewpoint = seat
        return None

    # --- commands ------------------------------------------------------------------------

    def do_next(self, rest: str) -> list[str]:
        """n [K]: the next action, or K actions on (Enter alone: the next one)."""
        if self.position >= self.total:
            return [f"That was the last move ({self.total}/{self.total}). `p` goes back."]
        return self.jump(min(self.total, self.position + _count(rest)))

    def do_previous(self, rest: str) -> list[str]:
        """p [K]: back one action, or K actions."""
        if self.position == 0:
            return ["This is the start of the game. `n` or Enter goes forward."]
        return self.jump(max(0, self.position - _count(rest)))

    def do_start(self, rest: str) -> list[str]:
        """start: the start of the game, before the first action (also `0`)."""
        return self.jump(0)

    def do_end(self, rest: str) -> list[str]:
        """end: the last position of the record, with the result."""
        return self.jump(self.total)

    def do_seat(self, rest: str) -> list[str]:
        """seat X: the game as seat X saw it (a letter A, B, ..., a number 1, 2, ... or a name)."""
        if not rest:
            return [f"Usage: seat X, where X is one of {self.seat_list()}."]
        problem = self.choose(rest)
        return [problem] if problem else self.show()

    def do_spectator(self, rest: str) -> list[str]:
        """spectator: the game as a spectator saw it, every hand hidden."""
        self.viewpoint = None
        return self.show()

    def do_all(self, rest: str) -> list[str]:
        """all: everything: the board and every seat's hidden cards."""
        self.viewpoint = ALL
        return self.show()

    def do_board(self, rest: str) -> list[str]:
        """board: draw the current position again (also `b`)."""
        return self.show()

    def do_log(self, rest: str) -> list[str]:
        """log [N]: the actions so far with their labels (the last N)."""
        if self.position == 0:
            return ["No action yet: this is the start of the game."]
        first = 0
        if rest.isdigit():
            first = max(0, self.position - int(rest))
        return [self.log_line(index) for index in range(first, self.position)]

    def do_help(self, rest: str) -> list[str]:
        """help: list the commands."""
        return command_help(
            self,
            "Commands:",
            ("N", "jump to the position after N actions (0: the start)."),
            self.width - 2,
        )

    def do_quit(self, rest: str) -> list[str]:
        """q: quit (also `exit`, or the end of input)."""
        self.done = True
        return []

    # --- output --------------------------------------------------------------------------

    def who(self, seat: Any) -> str:
        """``B Bob`` for seat 1."""
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.style.seat(seat, f"{seat_letter(seat)} {self.names[seat]}")
        return f"seat {seat}"

    def log_line(self, index: int) -> str:
        """The line of ``log`` for the action at ``index`` (from 0): ``  12. B Bob: label``."""
        move = self.timeline.moves[index]
        return f"{move.version + 1:>4}. {self.who(move.seat)}: {self.label(move)}"

    def whose(self) -> str:
        """Whose view is shown, in words: ``a spectator``, ``B Bob`` or ``everything``."""
        if self.viewpoint == ALL:
            return "everything"
        seat = self.viewpoint if isinstance(self.viewpoint, int) else None
        return "a spectator" if seat is None else self.who(seat)

    def label(self, move: Any) -> str:
        """A move's label in the console's words (seats by letter and name)."""
        return label_text(self.game, str(move.label), self.names)

    def seat_list(self) -> str:
        return ", ".join(f"{seat_letter(i)} {name}" for i, name in enumerate(self.names))

    def intro(self) -> list[str]:
        """What the record is: the game, the players, when; and how to move through it."""
        record = self.record
        title = render.title(self.game)
        options = record["options"]
        extra = " " + " ".join(f"{k}={v}" for k, v in options.items()) if options else ""
        head = f"{title}{extra}, {plural(record['players'], 'player')}, seed {record['seed']}"
        lines = [self.style.bold(head)]
        if self.source:
            lines.append(f"From {self.source}.")
        when = f"started {_when(record['started'])}"
        when += f", finished {_when(record['finished'])}" if record["finished"] else ", unfinished"
        where = f"table {record['table']}" if record.get("table") is not None else ""
        if record.get("server"):
            where += f" on {record['server']}"
        lines.append(cap(f"{where.strip()}: {when}." if where else f"{when}."))
        seats = []
        for seat, info in enumerate(record["seats"]):
            bot = f" ({info['bot']} bot)" if info.get("bot") else ""
            seats.append(f"{seat_letter(seat)} {self.names[seat]}{bot}")
        lines.append(f"Seats in turn order: {', '.join(seats)}.")
        for takeover in record["takeovers"]:
            lines.append(
                f"After move {takeover['version']}, {article(takeover['level'])} bot played for "
                f"{self.who(takeover['seat'])}."
            )
        note = records.edition_note(record)
        if note:
            lines.append(self.style.bad(f"Note: {note}."))
        moves = "no action" if self.total == 0 else plural(self.total, "action")
        lines.append(f"{cap(moves)}. Enter: next, `p`: back, `help`: all the commands.")
        return lines

    def show(self) -> list[str]:
        """The current position: the move that led here, its events, and the board."""
        return self.move_lines() + self.view_lines()

    def view_lines(self) -> list[str]:
        """The board at the current position from the viewpoint (with every seat's hidden part
        for :data:`ALL`), and the result at the end: all that depends on the viewpoint."""
        lines: list[str] = []
        state = self.timeline.state(self.position)
        viewpoint = self.viewpoint
        if viewpoint == ALL:
            lines.append(self.style.note("-- everything: every seat's hidden cards shown --"))
            view = state.view(None)
            lines += render.board(view, self.names, self.style, self.width)
            lines += self._hidden_lines(state)
        else:
            seat = viewpoint if isinstance(viewpoint, int) else None
            whose = "a spectator" if seat is None else self.who(seat)
            lines.append(self.style.note(f"-- as {whose} saw it --"))
            view = state.view(seat)
            lines += render.board(view, self.names, self.style, self.width)
        if self.position == self.total:
            lines += self._end_lines(state, view)
        return lines

    def move_lines(self) -> list[str]:
        """The move that led to the current position, its events and any bot taking over."""
        where = f"move {self.position}/{self.total}"
        if self.position == 0:
            lines = [self.style.bold(f"{where}: the start of the game")]
        else:
            move = self.timeline.moves[self.position - 1]
            lines = [self.style.bold(f"{where}: {self.who(move.seat)}: {self.label(move)}")]
            for event in move.events:
                if told_by_label(self.game, event):
                    continue  # the label already says it
                text = narrate(self.game, event, self.names)
                if text:
                    lines.append(f"  {text}")
        for takeover in self.record["takeovers"]:
            if takeover["version"] == self.position:
                lines.append(
                    self.style.note(
                        f"  From here {article(takeover['level'])} bot plays for "
                        f"{self.names[takeover['seat']]}."
                    )
                )
        return lines

    def _end_lines(self, state: Any, view: dict[str, Any]) -> list[str]:
        if not state.is_over:
            return [self.style.note("The record ends here: the game was not finished.")]
        result = self.record["result"] or records.result_of(state)
        return render.final(view, result, self.names, self.style, self.width)

    def _hidden_lines(self, state: Any) -> list[str]:
        """Each seat's part of its own view that the spectator's view hides."""
        public = state.view(None)
        plugged = plugin(self.game)
        lines = []
        for seat in range(len(self.names)):
            own = state.view(seat)
            mine = own.get("seats", [])[seat] if isinstance(own.get("seats"), list) else {}
            theirs = public.get("seats", [])[seat] if isinstance(public.get("seats"), list) else {}
            parts = [
                _secret(plugged, key, value, self.style)
                for key, value in mine.items()
                if value not in (None, [], "") and value != theirs.get(key)
            ]
            if plugged is not None:
                parts += plugged.pending_secret(
                    own.get("pending") or {}, public.get("pending") or {}, self.style
                )
            if parts:
                lines.append(f"  {self.who(seat)} hides:")
                lines.extend(f"      {part}" for part in parts)
        if not lines:
            return [self.style.note("Nothing is hidden at this point.")]
        return lines


def _secret(plugged: GamePlugin | None, key: str, value: Any, style: Style) -> str:
    """One hidden part of a seat in words: ``hand R08 R2/B3 a4 Xtm  ...``."""
    said = plugged.secret(key, value, style) if plugged is not None else None
    if said is not None:
        return said
    if isinstance(value, list):
        return f"{key} " + (" ".join(str(v) for v in value) or "-")
    return f"{key} {value}"


def _count(text: str) -> int:
    return int(text) if text.isdigit() and int(text) > 0 else 1


def _when(stamp: str) -> str:
    """``2026-12-03 22:31 UTC`` from a record time."""
    return f"{stamp[:10]} {stamp[11:16]} UTC"


# --- the command ------------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = EPILOG
    parser.add_argument(
        "source", metavar="FILE|DB", help="a .json or .jsonl game record file, or a server database"
    )
    parser.add_argument(
        "game",
        metavar="GAME",
        nargs="?",
        type=int,
        default=None,
        help="which game: its position in a .jsonl file (from 1; default: the last), or a "
        "database's table id (default: the game that finished last)",
    )
    parser.add_argument(
        "--seat",
        default="spectator",
        metavar="X",
        help="see the game as seat X saw it (a letter A, B, ..., a number 1, 2, ... or a name), "
        "or `all` for everything, or `spectator` (the default)",
    )
    parser.add_argument(
        "--move",
        default="0",
        metavar="N",
        help="start at the position after N actions (default 0: the start; `end`: the end)",
    )
    parser.add_argument("--no-color", action="store_true", help="no colours (also: NO_COLOR=1)")
    parser.add_argument(
        "--plain",
        "--line",
        action="store_true",
        help="the line console instead of the full screen (for screen readers, pipes, slow "
        "links); the default when not on a terminal",
    )


def _fail(message: str, status: int) -> int:
    print(f"cosmoport replay: {message}", file=sys.stderr)
    return status


def run(args: argparse.Namespace) -> int:
    try:
        record, source = load(args.source, args.game)
    except LoadError as exc:
        return _fail(str(exc), exc.status)
    style = Style(colour_wanted(sys.stdout, args.no_color, os.environ))
    try:
        viewer = Viewer(record, style, source)
    except RecordError as exc:
        note = records.edition_note(record)
        return _fail(f"{source}: {exc}" + (f" ({note})" if note else ""), 2)
    problem = viewer.choose(args.seat)
    if problem is not None:
        return _fail(problem, 2)
    move = viewer.total if args.move.strip().lower() == "end" else _number(args.move)
    if move is None or not 0 <= move <= viewer.total:
        return _fail(f"--move takes 0 to {viewer.total} or `end`, not {args.move!r}", 2)
    viewer.position = move
    if full_screen_wanted(getattr(args, "plain", False)):
        return _full_screen(viewer, args.no_color)
    screen = Screen(_write, style)
    screen.show(viewer.intro() + viewer.show())
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    while not viewer.done:
        try:
            line = input(style.bold(viewer.prompt()) if interactive else "")
        except EOFError:
            break
        screen.show(viewer.command(line))
    return 0


def _full_screen(viewer: Viewer, no_color: bool) -> int:
    """The replay on the whole screen (:mod:`client.tui.replay`); its exit status. A hang-up or
    ``SIGTERM`` quits as ``q`` does, so the terminal is always given back."""
    import asyncio
    import signal

    from client.tui.replay import ReplayApp

    if no_color:
        os.environ["NO_COLOR"] = "1"  # Textual reads it
    app = ReplayApp(viewer)

    async def main() -> int | None:
        loop = asyncio.get_running_loop()
        for number in (signal.SIGTERM, signal.SIGHUP):
            loop.add_signal_handler(number, app.exit, 0)
        return await app.run_async()

    return asyncio.run(main()) or 0


def _number(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isdigit() else None


def _write(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()
