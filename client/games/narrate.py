"""Public game events as one line of text each ("Meteor card M09 strikes planet 4: hit 2 of 3").

Pure functions over the event dicts the engines produce (see each game's docs and PROTOCOL.md);
the console client, the demo and the replay viewer print them. Each game's plug-in tells its own
events (:meth:`client.games.GamePlugin.narrate`); an event no plug-in knows, or one it cannot
read, falls back to a plain listing of its fields, so a newer server never breaks an older
client. :func:`label_text` puts an engine's action label into the same words (seats by letter
and name, counts that agree).
"""

from __future__ import annotations

import re
from typing import Any

from client.games import plugin
from client.text.wording import Names, agree, seat_name, who

Event = dict[str, Any]

_UNREADABLE = (KeyError, IndexError, TypeError, ValueError, AttributeError)


def plain(event: Event) -> str:
    """Any event as its type and fields (``drone_roll: value=3``)."""
    fields = ", ".join(f"{k}={v}" for k, v in event.items() if k != "type")
    kind = event.get("type", "?")
    return f"{kind}: {fields}" if fields else str(kind)


def situation(game: str, view: dict[str, Any], names: Names) -> list[str]:
    """Lines that describe where a game stands (for a first look at a game in progress); the
    plug-in's, or whose turn it is."""
    if view.get("is_over"):
        return ["The game is over."]
    found = plugin(game)
    if found is not None:
        try:
            lines = found.situation(view, names)
        except _UNREADABLE:
            lines = []
        if lines:
            return lines
    return [f"It is {who(names, view.get('current_player'))}'s turn."]


def narrate(game: str, event: Event, names: Names) -> str | None:
    """One line for ``event`` of ``game`` (``None``: nothing worth printing)."""
    found = plugin(game)
    try:
        return found.narrate(event, names) if found else plain(event)
    except _UNREADABLE:
        return plain(event)


def told_by_label(game: str, event: Event) -> bool:
    """Whether the label of the action that caused ``event`` already says what it does (a
    narration that prints the label skips such an event)."""
    found = plugin(game)
    return found is not None and found.told_by_label(event)


_SEAT_NUMBER = re.compile(r"\bseat (\d+)\b")


def label_text(game: str, label: str, names: Names) -> str:
    """An engine's action label in the console's words: seats by letter and name ("attacks
    B Bob (Bionics)", not "seat 1"), nothing the board does not show, counts that agree
    ("1 die lost")."""
    text = _SEAT_NUMBER.sub(lambda m: seat_name(names, int(m.group(1))), label)
    found = plugin(game)
    return agree(found.label(text) if found is not None else text)
