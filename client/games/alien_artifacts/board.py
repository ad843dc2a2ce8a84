"""Alien Artifacts on one screen: pure functions from a view (and the legal list) to text lines.

The board (10-17 lines with 2-5 players at 80 columns)::

    Alien Artifacts  round 1/3  turn 1  deck 42  discard 0
    Aliens   AL6 Sentinel Array   AL1 Kepler Outpost   AL5 Ancient Vault
    Market   S05 Science Vessel   T15 Quartermaster   P02 Forge World
    > A Ann (you)     Bionics        0 VP   8 cr  plan DP08 Evacuation
        hand     R08 R2/B3 a4 Xtm  R33 G3/R2 a1 Xpl  R27 B2/G2 a2 Xpt
        projects T11 Colonial Charter  P06 Ice Giant  S12 Dreadnought [2]
        empire   T12 Research Grants (op)
      B Random bot 1  Community      0 VP   8 cr  hand 3  store 3  artifacts 0
        projects P08 S03 T03
        empire   P01:op

The viewer's own seat comes first, in full; the others show ids only (``info ID`` explains a
card), on one line each when more than three play so that five seats still fit 24 rows. From
120 columns the others' cards show their names too. Lines wrap between whole pieces (a card, a
count), never inside a word.

The menu's entries and the names typed to choose them are :mod:`.names`'s.

A resource card reads ``R08 R2/B3 a4 Xtm``: its top half (Red 2), bottom half (Blue 3), attack
number and 4X symbol. Cards hidden from the viewer arrive as integers (the generation of their
deck) and are drawn face down (``??``). Names come from the game's data tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from client.games.alien_artifacts.names import (
    COLOUR_SHORT,
    card_name,
    faction_title,
    mark,
)
from client.text.flow import flow, words
from client.text.style import Style, pad
from client.text.wording import seat_name
from games.alien_artifacts import data as d

WIDTH = 80
WIDE = 120
"""From this width the other seats' cards show their names too."""
_RESOURCE = {name: i for i, name in enumerate(d.RESOURCE_NAMES)}
_COLOUR_STYLE = ("red", "blue", "green", "yellow")
SYMBOL_SHORT = ("Xpl", "Xpa", "Xpt", "Xtm")
PHASE_WORDS = {
    "choose_faction": "choose a faction",
    "pre_action": "before the action: play an artifact, or go on",
    "choose_action": "choose the main action",
    "pay": "pay, one card half at a time, then finish",
    "choose_side": "choose the side of the completed card",
    "attack_target": "choose what the ship attacks",
    "buy_pick": "take a revealed card, or dig",
    "choose_project": "choose the project to complete",
    "choose_deck": "choose a market deck",
    "star_chart_pick": "take a card (Star Chart)",
    "keep_artifact": "keep one artifact",
    "post_action": "after the action: play an artifact, or go on",
    "discard": "discard cards, then end the turn",
}


def resource(card: Any, style: Style) -> str:
    """``R08 R2/B3 a4 Xtm`` for a named resource card, ``??`` for a hidden one."""
    index = _RESOURCE.get(card) if isinstance(card, str) else None
    if index is None:
        return "??" if not isinstance(card, str) else card
    halves = []
    for which in (0, 1):
        colour = d.HALF_COLOUR[index][which]
        text = f"{COLOUR_SHORT[colour]}{d.HALF_VALUE[index][which]}"
        halves.append(style.paint(text, _COLOUR_STYLE[colour]))
    symbol = SYMBOL_SHORT[d.RESOURCE_SYMBOL[index]]
    return f"{card} {'/'.join(halves)} a{d.ATTACK_NUMBER[index]} {symbol}"


def _name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return mark(seat) if isinstance(seat, int) and 0 <= seat < 26 else "?"


def _header(view: dict[str, Any], style: Style) -> list[str]:
    parts = [style.bold("Alien Artifacts")]
    if view.get("is_over"):
        parts.append(style.bold("game over"))
    else:
        parts.append(f"round {view.get('round')}/{view.get('rounds')}")
    parts.append(f"turn {view.get('turn')}")
    deck = view.get("deck") or {}
    parts.append(f"deck {deck.get('count', '?')}")
    parts.append(f"discard {len(view.get('discard') or [])}")
    if view.get("final_phase") and not view.get("is_over"):
        parts.append(style.bad("FINAL PHASE"))
    return parts


def _row(head: str, items: Sequence[str], width: int, indent: str = "    ") -> list[str]:
    """``head`` then the items, wrapped to the width under a hanging indent (a head of nine
    letters, ``artifacts``, still keeps a space before its first item)."""
    first = indent + pad(head, 8) + " "
    return flow(list(items) or ["-"], width, first=first, indent=len(indent) + 9)


def _projects(seat: dict[str, Any], short: bool = False) -> list[str]:
    items = []
    for project in seat.get("projects") or []:
        card = project.get("card")
        if short:
            items.append(str(card) + (f"[{project['deposit']}]" if project.get("deposit") else ""))
            continue
        text = card_name(card)
        if project.get("deposit"):
            text += f" [{project['deposit']}]"
        items.append(text)
    return items


def _empire(seat: dict[str, Any], short: bool = False) -> list[str]:
    items = []
    for entry in seat.get("empire") or []:
        card, side = [*entry, None, None][:2] if isinstance(entry, list) else (entry, None)
        tag = "op" if side == "operative" else "log"
        items.append(f"{card}:{tag}" if short else f"{card_name(card)} ({tag})")
    return items


def _who(view: dict[str, Any], index: int, names: Sequence[str]) -> str:
    return f"{mark(index)} {_name(names, index)}" + (" (you)" if index == view.get("seat") else "")


def _seat_lines(
    view: dict[str, Any], index: int, names: Sequence[str], style: Style, width: int
) -> list[str]:
    seat = view["seats"][index]
    me = view.get("seat")
    size = min(22, max(len(_who(view, i, names)) for i in range(len(view["seats"]))))
    pointer = style.bold(">") if index == view.get("current_player") else " "
    who = _who(view, index, names)
    lead = f"{pointer} {style.seat(index, pad(who, size))}  "
    chunks = [
        f"{pad(faction_title(seat.get('faction')), 12)} {seat.get('vp', 0):>3} VP "
        f"{seat.get('credits', 0):>3} cr"
    ]
    artifacts = seat.get("artifacts") or []
    wide = width >= WIDE
    if index == me:
        plan = seat.get("defence")
        if isinstance(plan, str):
            chunks.append(f"plan {card_name(plan)}")
        lines = flow(chunks, width, first=lead, indent=4)
        lines += _row("hand", [resource(c, style) for c in seat.get("hand") or []], width)
        if seat.get("store"):
            lines += _row("store", [resource(c, style) for c in seat["store"]], width)
        if artifacts:
            lines += _row("artifacts", [card_name(a) for a in artifacts], width)
        lines += _row("projects", _projects(seat), width)
        lines += _row("empire", _empire(seat), width)
        return lines
    chunks.append(f"hand {seat.get('hand_count', 0)}")
    if seat.get("store_count"):
        chunks.append(f"store {seat['store_count']}")
    chunks.append(f"artifacts {seat.get('artifact_count', 0)}")
    lines = flow(chunks, width, first=lead, indent=4)
    if wide:  # room for the cards' names
        lines += _row("projects", _projects(seat), width)
        lines += _row("empire", _empire(seat), width)
        return lines
    projects = " ".join(_projects(seat, short=True)) or "-"
    empire = " ".join(_empire(seat, short=True)) or "-"
    if len(view["seats"]) > 3:  # one line each, so that five seats still fit 24 rows
        return lines + flow(
            [f"projects {projects}", f"empire {empire}"], width, first="    ", indent=13, sep="   "
        )
    lines += _row("projects", [projects], width)
    lines += _row("empire", [empire], width)
    return lines


def _pending(view: dict[str, Any]) -> str | None:
    phase = view.get("phase")
    pending = view.get("pending") or {}
    if phase == "pay":
        what = pending.get("pay_action")
        project = pending.get("pay_project")
        target = f"{what} {card_name(project)}" if project else str(what)
        need = pending.get("pay_requirement")
        paid = pending.get("paid") or []
        colour = pending.get("pay_colour")
        text = f"Paying for {target}: {pending.get('pay_value', 0)}"
        if isinstance(need, int) and need >= 0:
            text += f" of {need}"
        if colour:
            text += f" {colour}"
        text += f", cards {len(paid)}/{pending.get('pay_limit', '?')}"
        if paid:
            text += " (" + ", ".join(f"{c} {h}" for c, h in paid) + ")"
        return text
    if phase == "attack_target" and pending.get("attacker"):
        return f"Attacking with {card_name(pending['attacker'])}"
    if phase == "buy_pick" and pending.get("buy_deck"):
        return f"Buying from the {pending['buy_deck']} deck"
    if phase == "choose_side" and pending.get("side_card"):
        return f"Completed: {card_name(pending['side_card'])}"
    return None


def board(
    view: dict[str, Any], names: Sequence[str], style: Style, width: int = WIDTH
) -> list[str]:
    """The whole board: header, alien systems, market tops, every seat (the viewer in full)."""
    lines = flow(_header(view, style), width, indent=2)
    aliens = view.get("aliens") or {}
    systems = [card_name(a) if a else "(empty)" for a in aliens.get("display") or []]
    lines += flow(systems, width, first="Aliens   ", indent=9, sep="   ")
    market = view.get("market") or {}
    tops = []
    for deck in ("ship", "tech", "planet"):
        cards = market.get(deck) or []
        tops.append(card_name(cards[0]) if cards else f"({deck} deck empty)")
    lines += flow(tops, width, first="Market   ", indent=9, sep="   ")
    seats = view.get("seats") or []
    me = view.get("seat")
    order = ([me] if isinstance(me, int) else []) + [i for i in range(len(seats)) if i != me]
    for index in order:
        lines.extend(_seat_lines(view, index, names, style, width))
    pending = _pending(view)
    if pending and not view.get("is_over"):
        lines += [style.bold(line) for line in words(pending, width, 2)]
    return lines


def decision(view: dict[str, Any], names: Sequence[str]) -> str:
    who = seat_name(names, view.get("current_player"))
    return f"{who}: {PHASE_WORDS.get(str(view.get('phase')), 'to play')}"


_FINAL_HEAD = "faction           VP  credits  empire"


def final(
    view: dict[str, Any], names: Sequence[str], style: Style, width: int = WIDTH
) -> list[str]:
    """Final standing with factions, VP, credits and empire sizes (the tie-breakers)."""
    seats = view.get("seats") or []
    order = [s for group in view.get("ranking") or [] for s in group]
    size = max([len(seat_name(names, s)) for s in order] + [22])
    if 3 + size + 1 + len(_FINAL_HEAD) > width:  # the names' own width, then two lines each
        size = max([len(seat_name(names, s)) for s in order] + [1])
    one_line = 3 + size + 1 + len(_FINAL_HEAD) <= width
    lines = [style.bold(" " * (size + 4 if one_line else 3) + _FINAL_HEAD)]
    for place, seat in enumerate(order, start=1):
        info = seats[seat] if 0 <= seat < len(seats) else {}
        numbers = (
            f"{pad(faction_title(info.get('faction')), 15)} {info.get('vp', 0):>4}  "
            f"{info.get('credits', 0):>7}  {len(info.get('empire') or []):>6}"
        )
        if one_line:
            lines.append(
                style.seat(seat, f"{place}. {pad(seat_name(names, seat), size)} {numbers}")
            )
        else:
            lines.append(style.seat(seat, f"{place}. {seat_name(names, seat)}"))
            lines.append(style.seat(seat, f"   {numbers}"))
    return lines
