"""Alien Artifacts on one screen: pure functions from a view (and the legal list) to text lines.

The board (80 columns; 10-17 lines with 2-5 players)::

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
card), on one line each when more than three play so that five seats still fit 24 rows.

A resource card reads ``R08 R2/B3 a4 Xtm``: its top half (Red 2), bottom half (Blue 3), attack
number and 4X symbol. Cards hidden from the viewer arrive as integers (the generation of their
deck) and are drawn face down (``??``). Names come from the game's data tables.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from client.render.menu import Entry, action_of, label_of
from client.style import Style, clip, pad, visible_len
from games.alien_artifacts import data as d

WIDTH = 80
_MARKET = {name: i for i, name in enumerate(d.MARKET_NAMES)}
_RESOURCE = {name: i for i, name in enumerate(d.RESOURCE_NAMES)}
_ALIEN = {name: i for i, name in enumerate(d.ALIEN_NAMES)}
_ARTIFACT = {name: i for i, name in enumerate(d.ARTIFACT_NAMES)}
_DEFENCE = {name: i for i, name in enumerate(d.DEFENCE_NAMES)}
_FACTION = {name: i for i, name in enumerate(d.FACTION_NAMES)}
_COLOUR_STYLE = ("red", "blue", "green", "yellow")
SYMBOL_SHORT = ("Xpl", "Xpa", "Xpt", "Xtm")
COLOUR_SHORT = ("R", "B", "G", "Gd")
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


def mark(seat: int) -> str:
    return chr(ord("A") + seat)


def card_name(card: Any) -> str:
    """``S12 Dreadnought`` for any named card; ``??`` for a hidden one."""
    if not isinstance(card, str):
        return "??"
    for table, titles in (
        (_MARKET, d.MARKET_TITLES),
        (_ALIEN, d.ALIEN_TITLES),
        (_ARTIFACT, d.ARTIFACT_TITLES),
        (_DEFENCE, d.DEFENCE_TITLES),
    ):
        index = table.get(card)
        if index is not None:
            return f"{card} {titles[index]}"
    return card


def half(card: str, which: int) -> tuple[str, int] | None:
    """(colour name, value) of a resource card's top (0) or bottom (1) half."""
    index = _RESOURCE.get(card)
    if index is None:
        return None
    return d.COLOUR_NAMES[d.HALF_COLOUR[index][which]], d.HALF_VALUE[index][which]


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
    return f"seat {seat}"


def faction_title(code: Any) -> str:
    """``Star Union`` for ``SU``."""
    index = _FACTION.get(code) if isinstance(code, str) else None
    return d.FACTION_TITLES[index] if index is not None else "no faction yet"


def _header(view: dict[str, Any], style: Style) -> str:
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
    return "  ".join(parts)


def _row(head: str, items: Sequence[str], indent: str = "    ") -> list[str]:
    """``head`` then the items, wrapped to the width under a hanging indent."""
    current = indent + pad(head, 9)
    lines: list[str] = []
    count = 0
    for item in items or ["-"]:
        candidate = current + ("  " if count else "") + item
        if count and visible_len(candidate) > WIDTH:
            lines.append(current)
            current, count = indent + " " * 9 + item, 1
        else:
            current, count = candidate, count + 1
    lines.append(current)
    return [clip(line, WIDTH) for line in lines]


def _projects(seat: dict[str, Any]) -> list[str]:
    items = []
    for project in seat.get("projects") or []:
        text = card_name(project.get("card"))
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


def _seat_lines(view: dict[str, Any], index: int, names: Sequence[str], style: Style) -> list[str]:
    seat = view["seats"][index]
    me = view.get("seat")
    width = min(22, max(len(_who(view, i, names)) for i in range(len(view["seats"]))))
    pointer = style.bold(">") if index == view.get("current_player") else " "
    who = pad(clip(_who(view, index, names), width), width)
    head = (
        f"{pointer} {style.seat(index, who)}  "
        f"{pad(faction_title(seat.get('faction')), 12)} {seat.get('vp', 0):>3} VP "
        f"{seat.get('credits', 0):>3} cr"
    )
    artifacts = seat.get("artifacts") or []
    if index == me:
        plan = seat.get("defence")
        if isinstance(plan, str):
            head += f"  plan {card_name(plan)}"
        lines = [clip(head, WIDTH)]
        lines += _row("hand", [resource(c, style) for c in seat.get("hand") or []])
        if seat.get("store"):
            lines += _row("store", [resource(c, style) for c in seat["store"]])
        if artifacts:
            lines += _row("artifacts", [card_name(a) for a in artifacts])
        lines += _row("projects", _projects(seat))
        lines += _row("empire", _empire(seat))
        return lines
    head += f"  hand {seat.get('hand_count', 0)}"
    if seat.get("store_count"):
        head += f"  store {seat['store_count']}"
    head += f"  artifacts {seat.get('artifact_count', 0)}"
    lines = [clip(head, WIDTH)]
    projects = " ".join(
        str(p.get("card", "?")) + (f"[{p['deposit']}]" if p.get("deposit") else "")
        for p in seat.get("projects") or []
    )
    empire = " ".join(_empire(seat, short=True)) or "-"
    if len(view["seats"]) > 3:  # one line each, so that five seats still fit 24 rows
        return [*lines, clip(f"    projects {projects or '-'}   empire {empire}", WIDTH)]
    lines += _row("projects", [projects or "-"])
    lines += _row("empire", [empire])
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


def board(view: dict[str, Any], names: Sequence[str], style: Style) -> list[str]:
    """The whole board: header, alien systems, market tops, every seat (the viewer in full)."""
    lines = [_header(view, style)]
    aliens = view.get("aliens") or {}
    systems = [card_name(a) if a else "(empty)" for a in aliens.get("display") or []]
    lines.append(clip("Aliens   " + "   ".join(systems), WIDTH))
    market = view.get("market") or {}
    tops = []
    for deck in ("ship", "tech", "planet"):
        cards = market.get(deck) or []
        tops.append(card_name(cards[0]) if cards else f"({deck} deck empty)")
    lines.append(clip("Market   " + "   ".join(tops), WIDTH))
    seats = view.get("seats") or []
    me = view.get("seat")
    order = ([me] if isinstance(me, int) else []) + [i for i in range(len(seats)) if i != me]
    for index in order:
        lines.extend(_seat_lines(view, index, names, style))
    pending = _pending(view)
    if pending and not view.get("is_over"):
        lines.append(clip(style.bold(pending), WIDTH))
    return lines


def decision(view: dict[str, Any], names: Sequence[str]) -> str:
    who = _name(names, view.get("current_player"))
    return f"{who}: {PHASE_WORDS.get(str(view.get('phase')), 'to play')}"


def entries(view: dict[str, Any], legal: Sequence[Any]) -> list[Entry]:
    """Menu entries: payments and discards grouped, everything else by its label."""
    seats = view.get("seats") or []
    me = view.get("seat")
    mine = seats[me] if isinstance(me, int) and 0 <= me < len(seats) else {}
    result = []
    for i, item in enumerate(legal):
        action, label = action_of(item), label_of(item)
        kind = action[0] if action else None
        number = i + 1
        try:
            if kind == "add":
                card = mine[action[1]][action[2]]
                which = 1 if action[3] == "bottom" else 0
                colour, value = half(card, which) or ("?", "?")
                group = "Pay from store" if action[1] == "store" else "Pay from hand"
                result.append(Entry(number, f"{card} {action[3]} {colour} {value}", group))
            elif kind in ("discard", "quartermaster"):
                group = "Discard" if kind == "discard" else "Quartermaster: discard"
                result.append(Entry(number, str(mine["hand"][action[1]]), group))
            elif kind == "build":
                result.append(Entry(number, _build_tag(action[1], label), "Build"))
            elif kind == "buy":
                found = re.search(r"for (\d+) credits", label)
                price = f" for {found.group(1)} cr" if found else ""
                result.append(Entry(number, f"{action[1]} deck{price}", "Buy"))
            elif kind == "take":
                result.append(Entry(number, label.split("take ")[-1].split("Take ")[-1], "Take"))
            else:
                result.append(Entry(number, label))
        except (IndexError, KeyError, TypeError):
            result.append(Entry(number, label))
    return result


def _build_tag(card: str, label: str) -> str:
    """``P16 Golden Fields: 6 Green`` from the label's ``(cost 6, 6 Green still to pay)``."""
    found = re.search(r"(\d+ \w+) still to pay", label)
    if found:
        return f"{card_name(card)}: {found.group(1)}"
    if "nothing to pay" in label:
        return f"{card_name(card)}: complete"
    return label.removeprefix("Build ")


def final(view: dict[str, Any], names: Sequence[str], style: Style) -> list[str]:
    """Final standing with factions, VP, credits and empire sizes (the tie-breakers)."""
    seats = view.get("seats") or []
    order = [s for group in view.get("ranking") or [] for s in group]
    lines = [style.bold(f"{'':26}faction           VP  credits  empire")]
    for place, seat in enumerate(order, start=1):
        info = seats[seat] if 0 <= seat < len(seats) else {}
        row = (
            f"{place}. {pad(clip(_name(names, seat), 22), 22)} "
            f"{pad(faction_title(info.get('faction')), 15)} {info.get('vp', 0):>4}  "
            f"{info.get('credits', 0):>7}  {len(info.get('empire') or []):>6}"
        )
        lines.append(style.seat(seat, row))
    return lines
