"""Renderers: a game view (and the legal actions) to lines of text for an 80x24 terminal.

Pure functions, one module per game (:mod:`.cosmic_run`, :mod:`.alien_artifacts`); this module
picks the right one by the view's ``game`` key and falls back to a plain listing for a game it
does not know, or for a view it cannot draw (a newer server must never crash the client).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any, TypeVar

from client.render import alien_artifacts, cosmic_run
from client.render.menu import Entry, full_list, layout, plain_entries, shorten
from client.style import Style, clip

WIDTH = 80
T = TypeVar("T")
RENDERERS: dict[str, ModuleType] = {
    "cosmic_run": cosmic_run,
    "alien_artifacts": alien_artifacts,
}

__all__ = ["board", "final", "full_list", "menu", "title"]

TITLES = {"cosmic_run": "Cosmic Run", "alien_artifacts": "Alien Artifacts"}


def title(game: str) -> str:
    """A game's human name (its id with spaces for a game we do not know)."""
    return TITLES.get(game, game.replace("_", " ").title())


def _module(view: dict[str, Any]) -> ModuleType | None:
    return RENDERERS.get(str(view.get("game")))


def _safe(draw: Callable[[], list[T]], fallback: Callable[[], list[T]]) -> list[T]:
    """``draw()``, or ``fallback()`` if the view is not what the renderer expects."""
    try:
        return draw()
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return fallback()


def _who(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return f"seat {seat}"


def generic_board(view: dict[str, Any], names: Sequence[str], style: Style) -> list[str]:
    """Any game: its name, the scores and whose turn it is."""
    lines = [style.bold(title(str(view.get("game", "?"))))]
    scores = view.get("scores") or []
    for seat, score in enumerate(scores):
        pointer = ">" if seat == view.get("current_player") else " "
        you = " (you)" if seat == view.get("seat") else ""
        lines.append(clip(f"{pointer} {_who(names, seat)}{you}: {score} VP", WIDTH))
    return lines


def board(view: dict[str, Any], names: Sequence[str], style: Style) -> list[str]:
    """The board of ``view`` for a reader who knows ``names`` by seat."""
    module = _module(view)
    if module is None:
        return generic_board(view, names, style)
    return _safe(
        lambda: module.board(view, names, style), lambda: generic_board(view, names, style)
    )


def menu(
    view: dict[str, Any], legal: Sequence[Any], names: Sequence[str], style: Style
) -> list[str]:
    """What to decide and the numbered legal actions, compact (see :mod:`.menu`)."""
    module = _module(view)

    def entries() -> list[Entry]:
        return module.entries(view, legal) if module else plain_entries(legal)

    def head() -> list[str]:
        return [style.bold(module.decision(view, names) if module else "Your move")]

    lines = _safe(head, lambda: [style.bold("Your move")])
    note = getattr(module, "footnote", None)
    if note is not None:
        text = _safe(lambda: [note(legal) or ""], lambda: [""])[0]
        if text:  # on the decision's line: a turn of four players must still fit 24 rows
            lines[0] = clip(f"{lines[0]}   {style.note(text)}", WIDTH)
    lines += shorten(layout(_safe(entries, lambda: plain_entries(legal)), style, WIDTH))
    return lines


def final(
    view: dict[str, Any], msg: dict[str, Any] | None, names: Sequence[str], style: Style
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
            lines.append(style.seat(seat, f"{place}. {_who(names, seat)}{you}: {score} VP{tied}"))
        place += len(group)
    module = _module(view)
    if module is not None:
        lines += _safe(lambda: module.final(view, names, style), list)
    return [clip(line, WIDTH) for line in lines]
