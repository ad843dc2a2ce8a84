"""Where each pane goes for a terminal size: a pure function of the size and the contents.

Two arrangements:

- **wide** (at least :data:`WIDE` columns): the game on the left (board, then the action menu,
  with the legend or rules between them when shown), the people on the right (players, the log,
  chat);
- **stacked** (narrower): board, menu and log one above the other, the log kept to a few lines;
  the players are on the board already and chat lines go to the log.

Panes have a title row when the terminal has rows to spare (:data:`TITLED`); below that they are
told apart by their background (the reader always has its title: it says how to close it). The
menu is shown whole unless that would leave the board fewer than :data:`BOARD_MIN` rows (it is
what the person acts on), the board takes what is left and scrolls, the log never goes below
:data:`LOG_MIN` lines: the last few things that happened stay in sight. Heights always add up to
the rows available: panes never overlap.

The reader (the ``help`` pane) shows the legend, the rules or a long answer typed for (``help``,
``hint``, ``log``...): below the board when both fit, else in the board's place.
"""

from __future__ import annotations

from dataclasses import dataclass

WIDE = 120
"""Columns from which the game and the people sit side by side."""
TITLED = 30
"""Rows from which each pane has a title row."""
LOG_MIN = 5
"""Fewest log lines shown (stacked)."""
BOARD_MIN = 2
"""Fewest board rows the menu leaves (below, it scrolls)."""
HELP_MIN = 8
"""Fewest rows for the legend or the rules beside the board; fewer, and they replace it."""
GUTTER = 2
"""Columns of a pane not used by its text: the left padding and the scroll bar."""
LEFT_MIN = 82
"""Columns of the game's side when wide (an 80-column board and its gutter)."""
RIGHT_MIN = 36
"""Fewest columns of the people's side when wide."""
CHAT_ROWS = 8
"""Chat lines shown when wide."""


@dataclass(frozen=True)
class Plan:
    """Rows of each pane (0: hidden) and the columns of the two sides."""

    wide: bool
    titled: bool
    left: int
    right: int
    board: int
    help: int
    menu: int
    players: int
    log: int
    chat: int

    @property
    def text_width(self) -> int:
        """Columns for the text of the game's panes (board, menu, legend)."""
        return max(1, self.left - GUTTER)

    @property
    def log_width(self) -> int:
        """Columns for the text of the log."""
        return max(1, (self.right if self.wide else self.left) - GUTTER)


def sides(width: int) -> tuple[bool, int, int]:
    """(wide, columns of the game's side, columns of the people's side) for ``width``."""
    if width < WIDE:
        return False, width, width
    left = min(max(LEFT_MIN, width * 55 // 100), width - RIGHT_MIN)
    return True, left, width - left


def plan(
    width: int,
    height: int,
    *,
    board: int,
    menu: int,
    help_mode: str = "off",
    players: int = 0,
    reading: int = 0,
) -> Plan:
    """The panes for a ``width`` x ``height`` terminal (the last row is the command line).

    ``board`` and ``menu`` are their numbers of lines, ``players`` those of the players' pane;
    ``help_mode`` says whether the legend (or the rules) is shown: ``on`` (below the board, or
    in its place when there is no room), ``auto`` (only where there is room to spare: a wide
    screen's), ``read`` (an answer of ``reading`` lines: below the board if it fits whole, else
    in the board's place) or ``off``.
    """
    wide, left, right = sides(width)
    rows = max(3, height - 1)
    titled = height >= TITLED
    title = 1 if titled else 0
    log_min = LOG_MIN + title
    game_rows = rows if wide else rows - log_min
    menu_rows = min(menu + title, max(3, game_rows - BOARD_MIN))
    board_rows, help_rows = _game_side(game_rows - menu_rows, board + title, help_mode, reading + 1)
    if wide:
        if board_rows:  # the board's side is filled: the menu sits at its foot
            board_rows = game_rows - menu_rows - help_rows
        players_rows = min(players + title, rows // 3) if players else 0
        chat_rows = min(CHAT_ROWS + title, max(0, rows - players_rows - log_min) // 3)
        log_rows = rows - players_rows - chat_rows
    else:
        players_rows = chat_rows = 0
        log_rows = rows - menu_rows - board_rows - help_rows
    return Plan(
        wide=wide,
        titled=titled,
        left=left,
        right=right if wide else width,
        board=board_rows,
        help=help_rows,
        menu=menu_rows,
        players=players_rows,
        log=log_rows,
        chat=chat_rows,
    )


def _game_side(rows: int, board: int, help_mode: str, reading: int) -> tuple[int, int]:
    """(board rows, help rows) sharing ``rows``: the board as tall as it needs (stacked, the
    log takes the rest), the legend below it when there is room, else (``on``) in its place;
    an answer (``read``, ``reading`` rows with its title) below it only when it fits whole."""
    if help_mode == "read":
        return (board, rows - board) if rows - board >= reading else (0, rows)
    if help_mode != "off" and rows - board >= HELP_MIN:
        return board, rows - board
    if help_mode == "on":
        return 0, rows
    return min(board, rows), 0
