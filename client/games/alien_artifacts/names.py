"""Alien Artifacts choices by name: the menu's entries and what a typed name stands for.

A choice is named by a word and the code the board shows, so the name keeps its meaning while
the server's list (and the hand's order) changes during a turn: ``build P16``, ``buy ship``
(or ``buy S05``, the deck's top card), ``pay R08 top``, ``place T07 op``, ``attack AL4``,
``attack B``, ``take S05``, ``discard R29``, ``play AR02``, ``keep AR05``, ``complete T11``,
``look ship``, ``quartermaster R34``, ``faction SU``, and single words: ``trade``,
``offensive``, ``income``, ``mine``, ``pilgrimage``, ``pass``, ``finish``, ``dig``, ``go``,
``done``. Typed names ignore case and spaces, and most may leave out the word (``R08 top``,
``AL4``, ``op``, ``SU``) when nothing else in the menu shares the rest.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from client.games.alien_artifacts import payment
from client.text.menu import Entry, Resolved, action_of, label_of, squash
from games import seat_letter
from games.alien_artifacts import data as d

_MARKET = {name: i for i, name in enumerate(d.MARKET_NAMES)}
_RESOURCE = {name: i for i, name in enumerate(d.RESOURCE_NAMES)}
_ALIEN = {name: i for i, name in enumerate(d.ALIEN_NAMES)}
_ARTIFACT = {name: i for i, name in enumerate(d.ARTIFACT_NAMES)}
_DEFENCE = {name: i for i, name in enumerate(d.DEFENCE_NAMES)}
_FACTION = {name: i for i, name in enumerate(d.FACTION_NAMES)}
COLOUR_SHORT = ("R", "B", "G", "Gd")
SIDES = {"operative": "op", "logistic": "log"}
VERBS = {
    "faction", "play", "quartermaster", "qm", "go", "build", "buy", "trade", "offensive",
    "income", "mine", "pilgrimage", "pass", "pay", "finish", "place", "attack", "take", "dig",
    "complete", "look", "keep", "discard", "done",
}  # fmt: skip
"""First words of the names: a line starting with one is a choice, even if not a legal one."""


mark = seat_letter


def title_of(card: Any) -> str:
    """The title of a named card (``Dreadnought`` for ``S12``), ``""`` if unknown."""
    if not isinstance(card, str):
        return ""
    for table, titles in (
        (_MARKET, d.MARKET_TITLES),
        (_ALIEN, d.ALIEN_TITLES),
        (_ARTIFACT, d.ARTIFACT_TITLES),
        (_DEFENCE, d.DEFENCE_TITLES),
    ):
        index = table.get(card)
        if index is not None:
            return str(titles[index])
    return ""


def card_name(card: Any) -> str:
    """``S12 Dreadnought`` for any named card; ``??`` for a hidden one."""
    if not isinstance(card, str):
        return "??"
    title = title_of(card)
    return f"{card} {title}" if title else card


def half(card: str, which: int) -> tuple[str, int] | None:
    """(colour name, value) of a resource card's top (0) or bottom (1) half."""
    index = _RESOURCE.get(card)
    if index is None:
        return None
    return d.COLOUR_NAMES[d.HALF_COLOUR[index][which]], d.HALF_VALUE[index][which]


def halves(card: Any) -> str:
    """``G3/Gd1``: a resource card's two halves, short."""
    index = _RESOURCE.get(card) if isinstance(card, str) else None
    if index is None:
        return ""
    return "/".join(
        f"{COLOUR_SHORT[d.HALF_COLOUR[index][w]]}{d.HALF_VALUE[index][w]}" for w in (0, 1)
    )


def faction_title(code: Any) -> str:
    """``Star Union`` for ``SU``."""
    index = _FACTION.get(code) if isinstance(code, str) else None
    return d.FACTION_TITLES[index] if index is not None else "no faction yet"


def _in_brackets(label: str) -> str:
    found = re.search(r"\(([^()]*)\)\s*$", label)
    return f"({found.group(1)})" if found else ""


def _after(label: str, marker: str) -> str:
    at = label.find(marker)
    return label[at + len(marker) :] if at >= 0 else ""


class _Reader:
    """One menu's context: the viewer's cards, the pending decision, the names of seats."""

    def __init__(self, view: dict[str, Any], names: Sequence[str]) -> None:
        seats = view.get("seats") or []
        me = view.get("seat")
        self.view = view
        self.names = names
        self.mine: dict[str, Any] = (
            seats[me] if isinstance(me, int) and 0 <= me < len(seats) else {}
        )
        self.pending: dict[str, Any] = view.get("pending") or {}

    def card_at(self, where: str, index: Any) -> Any:
        cards = self.mine.get(where) or []
        return cards[index] if isinstance(index, int) and 0 <= index < len(cards) else None

    def taken(self, index: Any, label: str) -> str:
        """The market card ``["take", index]`` takes (from the view, else the label)."""
        deck = self.pending.get(
            "chart_deck" if self.view.get("phase") == "star_chart_pick" else "buy_deck"
        )
        cards = (self.view.get("market") or {}).get(deck) or []
        if isinstance(index, int) and 0 <= index < len(cards) and isinstance(cards[index], str):
            return str(cards[index])
        found = re.search(r"\b([STP]\d\d)\b", label)
        return found.group(1) if found else str(index)

    def entry(self, number: int, action: list[Any], label: str) -> tuple[Entry, set[str]]:
        """The entry of one legal action, and the other spellings it answers to."""
        kind = str(action[0]) if action else ""
        arg = action[1] if len(action) > 1 else None
        if kind == "faction":
            code = str(arg)
            title = faction_title(code)
            return Entry(number, code, "faction", f"faction {code}", title), {code, title}
        if kind in ("play_artifact", "keep"):
            verb = "play" if kind == "play_artifact" else "keep"
            return Entry(number, str(arg), verb, f"{verb} {arg}", title_of(arg)), {str(arg)}
        if kind in ("quartermaster", "discard"):
            card = self.card_at("hand", arg)
            code = str(card if card is not None else arg)
            detail = halves(card)
            head = "quartermaster (discard, draw 1)" if kind == "quartermaster" else "discard"
            extra = {f"qm {code}", code} if kind == "quartermaster" else {code}
            return Entry(number, code, head, f"{kind} {code}", detail), extra
        if kind in ("start_action", "continue"):
            where = "main action" if kind == "start_action" else "discard step"
            return Entry(number, "go", name="go", detail=f"(on to the {where})"), {kind}
        if kind == "build":
            found = re.search(r"(\d+ \w+) still to pay", label)
            cost = found.group(1) if found else "complete" if "nothing to pay" in label else ""
            detail = title_of(arg) + (f": {cost}" if cost else "")
            return Entry(number, str(arg), "build", f"build {arg}", detail), {str(arg)}
        if kind == "buy":
            found = re.search(r"for (\d+) credits", label)
            top = ((self.view.get("market") or {}).get(arg) or [None])[0]
            parts = [f"{found.group(1)} cr"] if found else []
            if isinstance(top, str):  # its name is on the board's Market line
                parts.append(f"top {top}")
            detail = f"({', '.join(parts)})" if parts else ""
            extra = {f"buy {top}"} if isinstance(top, str) else set()
            extra |= {f"buy {str(arg)[0]}"}
            return Entry(number, str(arg), "buy", f"buy {arg}", detail), extra
        if kind == "add":
            where = str(arg)
            card = self.card_at(where, action[2] if len(action) > 2 else None)
            code = str(card if card is not None else action[2] if len(action) > 2 else "?")
            which = str(action[3]) if len(action) > 3 else "?"
            colour = half(code, 1 if which == "bottom" else 0)
            detail = f"({colour[0]} {colour[1]})" if colour else ""
            tag = f"{code} {which}"
            spellings = {
                tag,
                f"{code} {which[0]}",
                f"pay {code} {which[0]}",
                f"pay from {where} {tag}",
            }
            return Entry(number, tag, f"pay from {where}", f"pay {tag}", detail), spellings
        if kind == "side":
            card = self.pending.get("side_card")
            code = str(card) if isinstance(card, str) else "it"
            side = SIDES.get(str(arg), str(arg))
            spellings = {side, str(arg), f"place {side}", f"place {arg}", f"{code} {side}"}
            detail = f"({arg} side)"
            return Entry(number, side, f"place {code}", f"place {code} {side}", detail), spellings
        if kind == "target":
            return self.target(number, action)
        if kind == "take":
            code = self.taken(arg, label)
            return Entry(number, code, "take", f"take {code}", title_of(code)), {code}
        if kind == "project":
            spellings = {str(arg), f"project {arg}", f"assemble {arg}"}
            return Entry(number, str(arg), "complete", f"complete {arg}", title_of(arg)), spellings
        if kind == "deck":
            spellings = {f"deck {arg}", f"chart {arg}", f"look at {arg}"}
            head = "look (Star Chart)"
            return Entry(number, str(arg), head, f"look {arg}", "deck"), spellings
        words = {"finish": "finish", "dig": "dig", "done": "done", "pass": "pass"}
        words |= {k: k for k in ("trade", "offensive", "income", "mine", "pilgrimage")}
        if kind in words:
            detail = _short(kind, label) or _in_brackets(label)
            return Entry(number, kind, name=kind, detail=detail), set()
        return Entry(number, label), set()

    def target(self, number: int, action: list[Any]) -> tuple[Entry, set[str]]:
        attacker = self.pending.get("attacker")
        head = f"attack with {attacker}" if isinstance(attacker, str) else "attack"
        if len(action) > 2 and action[1] == "alien":
            display = (self.view.get("aliens") or {}).get("display") or []
            slot = action[2]
            alien = display[slot] if isinstance(slot, int) and 0 <= slot < len(display) else None
            code = str(alien) if isinstance(alien, str) else f"slot {slot}"
            return Entry(number, code, head, f"attack {code}", title_of(alien)), {code}
        seat = action[2] if len(action) > 2 else None
        letter = mark(seat) if isinstance(seat, int) and 0 <= seat < 26 else "?"
        seats = self.view.get("seats") or []
        info = seats[seat] if isinstance(seat, int) and 0 <= seat < len(seats) else {}
        who = self.names[seat] if isinstance(seat, int) and 0 <= seat < len(self.names) else ""
        detail = f"{who} ({faction_title(info.get('faction'))})".strip()
        spellings = {f"attack {who}", who} if who else set()
        return Entry(number, letter, head, f"attack {letter}", detail), spellings


def _short(kind: str, label: str) -> str:
    if kind == "pilgrimage":
        return "(2 cr + 5 of one colour: an artifact)"
    if kind == "dig":
        return "(1 cr: reveal the next card)"
    if kind == "trade":
        return "(cards for credits)"
    if kind == "finish":
        rest = _after(label, "Finish paying: ")
        return f"({rest})" if rest else ""
    if kind == "done":
        return "(end the turn, refill)"
    return ""


def _read(
    view: dict[str, Any], legal: Sequence[Any], names: Sequence[str]
) -> list[tuple[Entry, set[str]]]:
    reader = _Reader(view, names)
    result = []
    for number, item in enumerate(legal, start=1):
        action, label = action_of(item), label_of(item)
        try:
            entry, spellings = reader.entry(number, action, label)
        except (IndexError, KeyError, TypeError, ValueError):
            entry, spellings = Entry(number, label), set()
        if entry.group is not None:  # one section: the groups' headings line up
            entry = replace(entry, section="groups")
        result.append((entry, spellings))
    return result


def entries(view: dict[str, Any], legal: Sequence[Any], names: Sequence[str] = ()) -> list[Entry]:
    """Menu entries: a word and a card, planet or seat code each, grouped by the word."""
    return [entry for entry, _ in _read(view, legal, names)]


_BOUND = "\u00a0"  # a no-break space: the note is wrapped as one piece, on a line of its own


def hint(view: dict[str, Any], shown: Sequence[Entry], width: int = 80) -> str:
    """How to type a choice; while paying, also why a card that could pay is not offered."""
    named = [e.name for e in shown if e.name]
    if not named:
        return ""
    examples = ", ".join(f"`{n}`" for n in dict.fromkeys(named[:1] + named[-1:]))
    if width < 78:
        text = f"Type a choice: {examples}."
    else:
        text = f"Type a choice ({examples}), or a number from `actions`."
    offered = [e.tag for e in shown if e.group is not None and e.group.startswith("pay from")]
    note = payment.why_not(view, offered, width) if view.get("phase") == "pay" else None
    return f"{text} {note.replace(' ', _BOUND)}" if note else text


def resolve(
    view: dict[str, Any], legal: Sequence[Any], text: str, names: Sequence[str] = ()
) -> Resolved | None:
    """What ``text`` names: a legal action, the reason it is not one, or None (no name at all)."""
    typed = squash(text)
    if not typed:
        return None
    read = _read(view, legal, names)
    found: dict[int, Entry] = {}
    for entry, spellings in read:
        if not entry.name:
            continue
        if typed in {squash(entry.name)} | {squash(s) for s in spellings}:
            found[entry.number] = entry
    if len(found) == 1:
        return Resolved(next(iter(found)) - 1)
    if found:
        options = ", ".join(f"`{e.name}`" for e in found.values())
        return Resolved(None, f"`{' '.join(text.split())}` could be {options}: type one of them.")
    first = text.split()[0].lower() if text.split() else ""
    if first in VERBS:
        return Resolved(None, f"`{' '.join(text.split())}` is not a choice now (see the menu).")
    return None
