"""Renderers: a game view (and the legal actions) to lines of text for a terminal of any width.

Pure functions; each game's own drawing is its plug-in's (:mod:`client.games`). This module picks
the plug-in by the view's ``game`` key and falls back to a plain listing for a game it does not
know, or for a view it cannot draw (a newer server must never crash the client).

Every function takes ``width`` (80 by default) and keeps every line within it, breaking lines
between whole pieces of text, never inside a word; a wide screen gets more columns. Seats are
named one way everywhere: the seat letter and the player's name (``B Bob``).

Choices have stable names (``W3 P5``, ``build P16``): :func:`choices` lists them with the
number each stands for, :func:`resolve` reads one typed by the player.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from client.games import GamePlugin, plugin
from client.games.narrate import label_text
from client.text import menu as menus
from client.text.flow import flow, words
from client.text.game_names import title
from client.text.menu import Entry, Resolved, label_of, layout, plain_entries, shorten
from client.text.style import Style
from client.text.wording import seat_name

WIDTH = 80
MAX_LINES = menus.MAX_LINES
T = TypeVar("T")

__all__ = [
    "Entry",
    "Resolved",
    "board",
    "choices",
    "final",
    "full_list",
    "menu",
    "resolve",
    "seat_name",
    "title",
]


def _plugin(view: dict[str, Any]) -> GamePlugin | None:
    return plugin(view.get("game"))


def _safe(draw: Callable[[], list[T]], fallback: Callable[[], list[T]]) -> list[T]:
    """``draw()``, or ``fallback()`` if the view is not what the renderer expects."""
    try:
        return draw()
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return fallback()


def generic_board(
    view: dict[str, Any], names: Sequence[str], style: Style, width: int = WIDTH
) -> list[str]:
    """Any game: its name, the scores and whose turn it is."""
    lines = [style.bold(title(str(view.get("game", "?"))))]
    scores = view.get("scores") or []
    for seat, score in enumerate(scores):
        pointer = ">" if seat == view.get("current_player") else " "
        you = " (you)" if seat == view.get("seat") else ""
        lines.extend(words(f"{pointer} {seat_name(names, seat)}{you}: {score} VP", width, 4))
    return lines


def board(
    view: dict[str, Any], names: Sequence[str], style: Style, width: int = WIDTH
) -> list[str]:
    """The board of ``view`` for a reader who knows ``names`` by seat."""
    game = _plugin(view)
    if game is None:
        return generic_board(view, names, style, width)
    return _safe(
        lambda: game.board(view, names, style, width),
        lambda: generic_board(view, names, style, width),
    )


def choices(view: dict[str, Any], legal: Sequence[Any], names: Sequence[str] = ()) -> list[Entry]:
    """The menu's entries: each choice's stable name, the number it stands for, what it shows.

    Every unplaced die has entries of its own, so one number can appear more than once (equal
    dice make the same move); every legal action has at least one entry.
    """
    game = _plugin(view)
    if game is None:
        return plain_entries(legal)

    return _safe(lambda: list(game.entries(view, legal, names)), lambda: plain_entries(legal))


def resolve(
    view: dict[str, Any], legal: Sequence[Any], text: str, names: Sequence[str] = ()
) -> Resolved | None:
    """What a typed name stands for in ``legal`` (None: ``text`` names no choice at all)."""
    game = _plugin(view)
    typed = menus.squash(text)
    found: Resolved | None = None
    if game is not None:
        try:
            found = game.resolve(view, legal, text, names)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            found = None
    if found is not None:
        return found
    # Any entry's name as shown, for whatever a game's own reader does not know.
    for entry in choices(view, legal, names):
        if entry.name and menus.squash(entry.name) == typed and 1 <= entry.number <= len(legal):
            return Resolved(entry.number - 1)
    return None


def menu(
    view: dict[str, Any],
    legal: Sequence[Any],
    names: Sequence[str],
    style: Style,
    width: int = WIDTH,
    limit: int | None = MAX_LINES,
    typing: bool = True,
) -> list[str]:
    """What to decide, the choices by name, and (``typing``) how to type one (``limit`` menu
    lines at most, all with None)."""
    game = _plugin(view)
    head = _safe(
        lambda: [game.decision(view, names) if game else "Your move"], lambda: ["Your move"]
    )[0]
    extra = _safe(lambda: [game.footnote(legal) or ""], lambda: [""])[0] if game else ""
    lines = [style.bold(line) for line in words(head, width, 2)]
    if extra:  # on the decision's line when it fits: a turn of four players must fit 24 rows
        lines = lines[:-1] + flow([style.note(extra)], width, first=lines[-1] + "   ", indent=2)
    shown = choices(view, legal, names)
    lines += shorten(layout(shown, style, width), limit)
    text = typing_hint(view, legal, names, width) if typing else ""
    if text:
        lines += [style.note(line) for line in words(text, width, 2)]
    return lines


def typing_hint(
    view: dict[str, Any], legal: Sequence[Any], names: Sequence[str], width: int
) -> str:
    """How to type a choice of the menu, in ``width`` columns if the game has a short way."""
    game = _plugin(view)
    if game is None:
        return ""
    shown = choices(view, legal, names)
    return _safe(lambda: [game.hint(view, shown, width) or ""], lambda: [""])[0]


def final(
    view: dict[str, Any],
    msg: dict[str, Any] | None,
    names: Sequence[str],
    style: Style,
    width: int = WIDTH,
) -> list[str]:
    """The end of a game: ranking and scores (from ``game_over``), and the game's details."""
    scores = (msg or {}).get("scores") or view.get("scores") or []
    ranking = (msg or {}).get("ranking") or view.get("ranking") or []
    lines = [style.bold("=== Game over ===")]
    place = 1
    for group in ranking:
        tied = " (tied)" if len(group) > 1 else ""
        for seat in group:
            score = scores[seat] if isinstance(seat, int) and seat < len(scores) else "?"
            you = " (you)" if seat == view.get("seat") else ""
            text = f"{place}. {seat_name(names, seat)}{you}: {score} VP{tied}"
            lines.extend(style.seat(seat, line) for line in words(text, width, 3))
        place += len(group)
    game = _plugin(view)
    if game is not None:
        lines += _safe(lambda: game.final(view, names, style, width), list)
    return lines


def full_list(
    legal: Sequence[Any],
    style: Style,
    width: int = WIDTH,
    *,
    view: dict[str, Any] | None = None,
    names: Sequence[str] = (),
    entries: Sequence[Entry] | None = None,
) -> list[str]:
    """Every legal action on its own line: number, stable name and full label.

    With the ``view`` the names are the game's (or those of ``entries``, if given) and the
    labels name seats by letter and name.
    """
    if view is None:
        return menus.full_list(legal, style, width, entries or ())
    game = str(view.get("game"))
    shown = choices(view, legal, names) if entries is None else entries

    def label(item: Any) -> str:
        return label_text(game, label_of(item), names)

    return menus.full_list(legal, style, width, shown, label)
