"""What each pane shows, from the console's state: pure functions of the console and a width.

The board, the menu and the end of a game come from :mod:`client.render`, like the line
console's, drawn at the pane's width (and any line still too long cut to fit); the legend from
:mod:`client.games.legend`, the rules from :mod:`client.console.rulebook`.
"""

from __future__ import annotations

from rich.text import Text

from client import render
from client.console import rulebook
from client.console.commands import Console
from client.console.game_commands import seat_list
from client.console.where import Where
from client.games import legend as legends
from client.games import preview
from client.games.narrate import label_text
from client.text.style import Style, strip
from client.text.wording import letter
from client.tui.panes import fitted
from client.tui.targets import Target, covered, named_targets, numbered_targets


def game_of(console: Console | None, default: str | None = None) -> str | None:
    """The game the person is playing or about to play (``cosmic_run``...), if any."""
    if console is not None and console.game is not None:
        return console.game.game
    table = console.table if console is not None else None
    if isinstance(table, dict) and isinstance(table.get("game"), str):
        return str(table["game"])
    return default


def board(console: Console | None, width: int, clock: bool = True) -> tuple[list[str], str]:
    """(lines, title) of the board pane: the game (and, with ``clock``, the turn timer's line),
    the table being filled, or the lobby."""
    if console is None:
        return ["Connecting..."], "Cosmoport"
    style = console.style
    game = console.game
    if game is not None and game.view is not None:
        title = f"{render.title(game.game)}, table {game.table_id}"
        lines = fitted(render.board(game.view, game.names, style, width), width)
        timer = console.clock_text() if clock else None
        return lines + (fitted([style.note(timer)], width) if timer else []), title
    if console.table is not None:
        table = console.table
        lines = [console.describe_table(table)]
        if console.where == Where.TABLE and table.get("state") == "waiting":
            lines.append(style.note("Waiting for every place to be taken..."))
        return fitted(lines, width), f"Table {console.table_id}"
    tables = [console.describe_table(t) for t in console.tables.values()]
    lines = tables or [style.note("No tables known: `list` asks the server.")]
    return fitted(lines, width), "Lobby"


def own_rows(lines: list[str]) -> range:
    """Where the person's own part of a board is: the line naming them ``(you)`` and the lines
    indented under it (their hand, projects...); empty when they have no seat."""
    plain = [strip(line) for line in lines]
    for start, line in enumerate(plain):
        if "(you)" not in line:
            continue
        column = len(line) - len(line.lstrip(" >"))  # where the seat's letter is
        stop = start + 1
        while stop < len(plain) and len(plain[stop]) - len(plain[stop].lstrip(" ")) > column:
            stop += 1
        return range(start, stop)
    return range(0)


def previews(console: Console | None) -> list[str | None]:
    """What each of the person's choices will do (see :mod:`client.games.preview`), while it is
    their turn: shown for the choice under the mouse."""
    game = console.game if console is not None else None
    if game is None or game.view is None or game.over is not None or not game.my_turn:
        return []
    try:
        return preview.previews(game.view, game.legal)
    except Exception:  # a preview is a help, never a reason to fail drawing the screen
        return []


def menu(
    console: Console | None, width: int, typing: bool = True
) -> tuple[list[str], list[list[Target]], str]:
    """(lines, where each choice is on them, title) of the menu pane.

    During the person's turn: :func:`client.render.menu` whole (the pane scrolls; without the
    line on how to type a choice unless ``typing``), its choices found by :mod:`.targets`; if
    some cannot be found, the numbered full list instead, so that every choice can be clicked.
    """
    style = console.style if console is not None else Style(True)
    game = console.game if console is not None else None
    if console is None or game is None or game.view is None:
        return fitted(lobby_hints(console, style), width), [], "What next"
    view = game.view
    if game.over is not None:
        lines = fitted(render.final(view, game.over, game.names, style, width), width)
        return lines, [], "Game over"
    if game.my_turn:
        legal, names = game.legal, game.names
        lines = render.menu(view, legal, names, style, width, limit=None, typing=typing)
        lines = fitted(lines, width)
        found = named_targets(view, legal, names, lines, width)
        if found is None:
            found = numbered_targets(lines, len(legal))
        if covered(found) != set(range(1, len(legal) + 1)):
            entries = render.choices(view, legal, names)
            listed = fitted(render.full_list(legal, style, width, entries=entries), width)
            lines = lines[:1] + listed
            found = numbered_targets(lines, len(legal))
        if game.undo is not None:  # offered exactly when the server allows it
            undo = label_text(game.game, game.undo, names)
            lines = lines + fitted([style.note(f"`undo` takes back: {undo}")], width)
        return lines, found, "Your move"
    if view.get("is_over"):
        return [style.note("The game is over.")], [], "Game over"
    waiting = f"Waiting for {game.name(view.get('current_player'))}..."
    if game.seat is None:
        waiting = f"Watching: {game.name(view.get('current_player'))} to play."
    return fitted([style.note(waiting)], width), [], "Waiting"


def typing_hint(console: Console | None, width: int) -> str:
    """How to type a choice, in ``width`` columns, during the person's turn (else nothing)."""
    game = console.game if console is not None else None
    if game is None or game.view is None or game.over is not None or not game.my_turn:
        return ""
    try:
        return render.typing_hint(game.view, game.legal, game.names, width)
    except Exception:  # a hint is a help, never a reason to fail drawing the screen
        return ""


def lobby_hints(console: Console | None, style: Style) -> list[str]:
    if console is None:
        return [style.note("Starting...")]
    if console.where == Where.TABLE:
        return ["`bot` fills a free place with a bot; `start` begins once every place is taken."]
    if console.where == Where.WATCHING:
        return [style.note("Waiting for the game to start.")]
    return [
        "`list` shows the tables, `create cr 2` or `create aa 3` opens one, "
        "`join TABLE` sits at one, `help` lists every command."
    ]


def players(console: Console | None, width: int) -> list[str]:
    """One line a seat: whose turn it is, the seat's letter and name, the score."""
    if console is None:
        return []
    game = console.game
    style = console.style
    if game is None:
        names = [s.get("name", "?") for s in (console.table or {}).get("seats") or [] if s]
        return fitted([seat_list(names)] if names else [], width)
    view = game.view or {}
    scores = view.get("scores") or []
    away = _away(console)
    lines = []
    for seat, name in enumerate(game.names):
        pointer = ">" if seat == view.get("current_player") and game.over is None else " "
        you = " (you)" if seat == game.seat else ""
        score = f"{scores[seat]} VP" if seat < len(scores) else ""
        gone = style.note(" (away)") if seat in away else ""
        lines.append(style.seat(seat, f"{pointer} {letter(seat)} {name}{you}") + f"  {score}{gone}")
    return fitted(lines, width)


def _away(console: Console) -> set[int]:
    seats = (console.table or {}).get("seats") or []
    return {i for i, s in enumerate(seats) if isinstance(s, dict) and not s.get("connected", True)}


def legend(game: str | None, width: int) -> list[str]:
    """The symbols on screen explained (:func:`client.games.legend.legend`), or why not."""
    if game is None:
        return ["The legend explains the board of a game: start or join one first."]
    return fitted(legends.legend(game, width), width)


def rules(game: str | None, width: int) -> list[str]:
    """The whole rulebook of ``game`` (:mod:`client.console.rulebook`), or why not."""
    if game is None:
        return ["Start or join a game first: the rules shown are that game's."]
    lines: list[str] = []
    keys: list[str | None] = [key for key, _ in rulebook.topics(game)]
    for key in keys or [None]:
        if lines:
            lines.append("")
        lines.extend(rulebook.text(game, key, width))
    return fitted(lines, width)


def plain(lines: list[str]) -> list[str]:
    """Lines without their colour codes."""
    return [Text.from_ansi(line).plain for line in lines]
