"""Cosmic Run choices by name: the menu's entries and what a typed name stands for.

Every choice has a name that means the same thing for the whole turn, whatever the server's
list looks like after each placement:

- a placement is a die and a place: ``W3 P5``, ``Y P6``, ``W1 A2``, ``W4 T``; typed in any case
  and spacing (``w3p5``), the die by its number (``3 5``, ``3 p5``), or by its value: ``4s P5``
  is "a die showing 4 on P5" (the white dice first; the yellow one only off P6, where it would
  end the rolling), so typing it four times puts four 4s on P5;
- ``roll``, ``reroll W2``, ``nudge W2 to 5`` (or ``nudge W2 +``/``-``), ``flip W2``,
  ``boost P3``, ``pass``, ``retire A05`` (or the alien's name).

Every unplaced die has its own menu row, repeated values included. The server lists a move of
equal white dice once, with the lower-numbered die (they are interchangeable), so ``W4 P5``
with W2 and W4 both showing 4 sends the server's ``W2 P5``: the same move. The console then
keeps the name typed for the die that moved (:mod:`.dice_names`): the log and the board say W4.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from client.text.menu import Entry, Resolved, action_of, label_of, squash
from games.cosmic_run.data import ALIEN_INDEX, ALIENS

DICE = ("W1", "W2", "W3", "W4", "W5", "Y")
YELLOW = 5
_DIE = r"(w?[1-5]|y|[1-6]s)"
_PLACE = r"(p[1-6]|[1-6]|a[1-4]|t|tech)"
_ASSIGN = re.compile(rf"(?:put|place)?{_DIE}(?:on|to|>)?{_PLACE}")
_ASSIGN_BACK = re.compile(r"(p[1-6]|a[1-4]|t)(w[1-5]|y|[1-6]s)")
_REROLL = re.compile(rf"(?:re-?roll|rr){_DIE}")
_FLIP = re.compile(rf"flip{_DIE}(?:to[1-6])?")
_NUDGE = re.compile(rf"nudge{_DIE}(?:to)?(\+1?|-1?|up|down|[1-6])")
_BOOST = re.compile(r"boost(?:p)?([1-6])")


def _dice(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [d if isinstance(d, dict) else {} for d in view.get("dice") or []]


def _unplaced(view: dict[str, Any]) -> list[int]:
    return [i for i, d in enumerate(_dice(view)) if d.get("at") is None and i < len(DICE)]


def _twins(view: dict[str, Any], die: int) -> list[int]:
    """The die, then the other unplaced white dice showing the same value (interchangeable)."""
    if die == YELLOW:
        return [die]
    dice = _dice(view)
    value = dice[die].get("value")
    same = [i for i in _unplaced(view) if i != YELLOW and dice[i].get("value") == value]
    return [die] + [i for i in same if i != die]


def _price(label: str) -> str:
    """The price in a label's last brackets, short: ``1 cry``, ``free`` (``cr`` is Alien
    Artifacts' credits: crystals are ``cry``)."""
    start = label.rfind("(")
    price = label[start + 1 : label.rfind(")")] if start >= 0 else ""
    if price.startswith("free"):
        return "free"
    return price.replace(" crystals", " cry").replace(" crystal", " cry")


def alien_name(alien_id: str) -> str:
    index = ALIEN_INDEX.get(alien_id)
    return alien_id if index is None else ALIENS[index].name


def entries(view: dict[str, Any], legal: Sequence[Any], names: Sequence[str] = ()) -> list[Entry]:
    """Menu entries: a row per unplaced die with its places, then rolling and the abilities."""
    dice = _dice(view)
    by_die: dict[tuple[str, int], list[tuple[int, list[Any], str]]] = {}
    rest: list[Entry] = []
    for number, item in enumerate(legal, start=1):
        action, label = action_of(item), label_of(item)
        kind = action[0] if action else None
        if kind in ("assign", "reroll", "nudge", "flip") and len(action) > 1:
            by_die.setdefault((kind, action[1]), []).append((number, action, label))
        elif kind == "roll":
            count = label.split(" ")[2] if label.startswith("Roll the ") else ""
            detail = f"({count} dice)" if count.isdigit() and count != "1" else ""
            rest.append(Entry(number, "roll", name="roll", detail=detail, section="more"))
        elif kind == "boost" and len(action) > 1:
            group = f"boost ({_price(label)}, +1 step)"
            rest.append(Entry(number, action[1], group, f"boost {action[1]}", section="more"))
        elif kind == "pass":
            detail = "(no boost)" if label == "No boost" else ""
            rest.append(Entry(number, "pass", name="pass", detail=detail, section="more"))
        elif kind == "retire" and len(action) > 1:
            alien = str(action[1])
            vp = re.search(r"(\d+) VP", label)
            detail = f"{alien_name(alien)}" + (f" ({vp.group(1)} VP)" if vp else "")
            rest.append(Entry(number, alien, "retire", f"retire {alien}", detail, "more"))
        else:
            rest.append(Entry(number, label))

    def rows(kind: str, show: Callable[[int, list[Any], str], tuple[str, str]]) -> list[Entry]:
        """One group per unplaced die, borrowing the moves of its listed twin."""
        result = []
        for die in _unplaced(view):
            listed = next((by_die[(kind, t)] for t in _twins(view, die) if (kind, t) in by_die), [])
            for number, action, label in listed:
                group, tag = show(die, action, label)
                name = f"{DICE[die]} {tag.rstrip('!')}" if kind == "assign" else f"{kind} {tag}"
                section = {"assign": "dice", "nudge": "nudge"}.get(kind, "more")
                result.append(Entry(number, tag, group, name, section=section))
        return result

    def place(die: int, action: list[Any], label: str) -> tuple[str, str]:
        ends = die == YELLOW and action[2] == "P6" and "ends rolling" in label
        return f"{DICE[die]} [{dice[die].get('value')}]", f"{action[2]}!" if ends else action[2]

    def change(die: int, action: list[Any], label: str) -> tuple[str, str]:
        kind, value = action[0], dice[die].get("value")
        if kind == "reroll":
            return f"reroll ({_price(label)})", DICE[die]
        if kind == "flip":
            to = 7 - value if isinstance(value, int) else "?"
            return f"flip ({_price(label)})", f"{DICE[die]} to {to}"
        to = value + action[2] if isinstance(value, int) else "?"
        return f"nudge ({_price(label)})", f"{DICE[die]} to {to}"

    result = rows("assign", place)
    result += [e for e in rest if e.tag == "roll"]
    for kind in ("reroll", "nudge", "flip"):
        result += rows(kind, change)
    result += [e for e in rest if e.tag != "roll"]
    return result


def footnote(legal: Sequence[Any]) -> str | None:
    if any("ends rolling" in label_of(item) for item in legal):
        return "(P6!: Y on P6 ends rolling)"
    return None


def hint(view: dict[str, Any], shown: Sequence[Entry], width: int = 80) -> str:
    """How to type a choice, with examples from this very menu."""
    named = [e.name for e in shown if e.name]
    if not named:
        return ""
    place = next((e for e in shown if e.section == "dice"), None)
    if place is None:
        examples = ", ".join(f"`{n}`" for n in dict.fromkeys(named[:1] + named[-1:]))
        return f"Type a choice ({examples}), or a number from `actions`."
    dice = _dice(view)
    white = [dice[i].get("value") for i in _unplaced(view) if i != YELLOW]
    repeated = sorted({v for v in white if white.count(v) > 1 and isinstance(v, int)})
    example = f"`{place.name}`"
    for value in repeated:  # a place that die may take, for a true example
        places = [
            e for e in shown if e.section == "dice" and e.group and e.group.endswith(f"[{value}]")
        ]
        if places:
            # `4s P2` puts one die showing 4 on P2 (whichever one), never all of them.
            where = places[0].tag.rstrip("!")
            typed = f"`{value}s {where}`"
            short = f"Type a die and a place: {example}; {typed}: one {value} on {where}."
            if width < len(short):
                break  # too narrow for the second example
            if width < 78:
                return short
            one = f"one die showing {value} on {where}"
            return f"Type a die and a place: {example}, or {typed}: {one}."
    if width < 78:
        return f"Type a die and a place: {example}."
    return f"Type a die and a place ({example}), or a number from `actions`."


def _die_choices(view: dict[str, Any], spec: str, kind: str, place: str | None) -> list[int]:
    """The dice a typed die (``w3``, ``3``, ``y``, ``4s``) may stand for, best first."""
    if spec.endswith("s"):
        value = int(spec[0])
        dice = _dice(view)
        found = [i for i in _unplaced(view) if i != YELLOW and dice[i].get("value") == value]
        yellow = YELLOW in _unplaced(view) and dice[YELLOW].get("value") == value
        if yellow and not (kind == "assign" and place == "P6"):
            found.append(YELLOW)
        return found
    return [YELLOW if spec == "y" else int(spec.lstrip("w")) - 1]


def _spoken(spec: str) -> str:
    if spec.endswith("s"):
        return f"a die showing {spec[0]}"
    return "Y" if spec == "y" else f"W{spec.lstrip('w')}"


def _pick(
    view: dict[str, Any],
    legal: Sequence[Any],
    spec: str,
    kind: str,
    rest: Callable[[int], list[Any] | None],
    shown: str,
    place: str | None = None,
) -> Resolved:
    dice = _dice(view)
    if not dice:
        return Resolved(None, f"`{shown}` is not a choice now: no dice are being placed.")
    candidates = _die_choices(view, spec, kind, place)
    if spec.endswith("s") and not candidates:
        yellow = dice[YELLOW] if len(dice) > YELLOW else {}
        if yellow.get("at") is None and str(yellow.get("value")) == spec[0]:
            return Resolved(None, f"Only Y shows a {spec[0]}: `Y P6` puts it there (rolling ends).")
        return Resolved(None, f"No unplaced die shows a {spec[0]}: `{shown}` is not possible.")
    for die in candidates:
        if die >= len(dice):
            continue
        at = dice[die].get("at")
        if at is not None:
            return Resolved(None, f"{DICE[die]} is already placed (on {at}).")
        for twin in _twins(view, die) if not spec.endswith("s") else [die]:
            tail = rest(twin)
            if tail is None:
                continue
            index = _index(legal, [kind, twin, *tail])
            if index is not None:
                if twin == die:
                    return Resolved(index)
                value = dice[die].get("value")
                note = (
                    f"({DICE[twin]} shows a {value} too: "
                    f"the game moves {DICE[twin]}, the same move.)"
                )
                return Resolved(index, note, renamed=(die, twin))
    return Resolved(None, f"`{shown}` is not possible now ({_spoken(spec)}).")


def _index(legal: Sequence[Any], action: list[Any]) -> int | None:
    for i, item in enumerate(legal):
        if action_of(item) == action:
            return i
    return None


def _place(text: str) -> str:
    if text in ("t", "tech"):
        return "T"
    return text.upper() if text[0] in "pa" else f"P{text}"


def resolve(
    view: dict[str, Any], legal: Sequence[Any], text: str, names: Sequence[str] = ()
) -> Resolved | None:
    """What ``text`` names: a legal action, the reason it is not possible, or None (no name)."""
    typed = squash(text)
    shown = " ".join(text.split())
    if typed == "roll":
        index = _index(legal, ["roll"])
        if index is None:
            why = "place a die first" if view.get("decision") == "assign" else "not now"
            return Resolved(None, f"You cannot roll now: {why}.")
        return Resolved(index)
    if typed in ("pass", "noboost", "no", "skip"):
        index = _index(legal, ["pass"])
        return Resolved(index, "" if index is not None else "There is nothing to pass now.")
    if match := _ASSIGN.fullmatch(typed):
        spec, place = match.group(1), _place(match.group(2))
        return _pick(view, legal, spec, "assign", lambda die: [place], shown, place)
    if match := _ASSIGN_BACK.fullmatch(typed):
        spec, place = match.group(2), _place(match.group(1))
        return _pick(view, legal, spec, "assign", lambda die: [place], shown, place)
    if match := _REROLL.fullmatch(typed):
        return _pick(view, legal, match.group(1), "reroll", lambda die: [], shown)
    if match := _FLIP.fullmatch(typed):
        return _pick(view, legal, match.group(1), "flip", lambda die: [], shown)
    if match := _NUDGE.fullmatch(typed):
        way = match.group(2)
        dice = _dice(view)

        def delta(die: int) -> list[Any] | None:
            if way in ("+", "+1", "up"):
                return [1]
            if way in ("-", "-1", "down"):
                return [-1]
            value = dice[die].get("value") if die < len(dice) else None
            step = int(way) - value if isinstance(value, int) else 0
            return [step] if step in (-1, 1) else None

        return _pick(view, legal, match.group(1), "nudge", delta, shown)
    if match := _BOOST.fullmatch(typed):
        index = _index(legal, ["boost", f"P{match.group(1)}"])
        if index is None:
            return Resolved(None, f"You cannot boost P{match.group(1)} now.")
        return Resolved(index)
    if typed.startswith("retire") and len(typed) > len("retire"):
        return _retire(legal, typed[len("retire") :], shown)
    return _retire(legal, typed, shown, quiet=True)


def _retire(legal: Sequence[Any], typed: str, shown: str, quiet: bool = False) -> Resolved | None:
    """``retire A05``, ``retire Myrr``, or the id or name alone during a retire decision."""
    for i, item in enumerate(legal):
        action = action_of(item)
        if len(action) < 2 or action[0] != "retire":
            continue
        alien = str(action[1])
        spellings = {squash(alien), squash(alien_name(alien)), squash(alien + alien_name(alien))}
        if alien[1:].isdigit():
            spellings.add(f"a{int(alien[1:])}")
        if typed in spellings:
            return Resolved(i)
    return None if quiet else Resolved(None, f"`{shown}` is not an alien you can retire now.")
