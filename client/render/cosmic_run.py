"""Cosmic Run on one screen: pure functions from a view (and the legal list) to lines of text.

The board, at most 80 columns and 14 lines::

    Cosmic Run  round 6/13  meteor deck 30, card M09 (3 1 4)  alien deck 22
    P1 x..  ++...i.....i....]  A1 B0 C1 D0
    ...
    P6 x..  ...D..B.....C..A.....i..........i.......]  A15 B6 C12 D3  lead ACBD
    Dice  W1 [5]  W2 [3]  W3 [6]  W4 [4]  W5 [5]  Y 5>P2  free: re-roll
    Row   A1 Sprocket 5 6 Miner                 A2 Atlas-9 1 3 Cartographer +W2
          A3 Wend 4 5 Cartographer              A4 Vell 1 2 Patron
      A Ann                 0 VP  0 cr  tokens 0         found 0  Pim, Orra
    > B Random bot 1 (you)  1 VP  0 cr  tokens 1 [3]     found 0  Grib

Each track shows spaces 0 .. length-1 and the planet (``]``); a letter is a ship (``+``: more
than one), ``@`` the Drone, ``i`` a face-down Infodere token; ``x`` are meteor hits. Placed dice
read ``Y 5>P2``, unplaced ones ``[5]``. Seat lines: score track VP, crystals, Infodere tokens
(their values in your own line), planets discovered, aliens held. The client only reads the
view: names and abilities of aliens come from the game's data tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from client.render.menu import Entry, action_of, label_of
from client.style import Style, clip, pad
from games.cosmic_run.data import ABILITY_TEXT, ALIEN_INDEX, ALIENS, STRIKE_CARDS

WIDTH = 80
DICE = ("W1", "W2", "W3", "W4", "W5", "Y")
_STRIKES = dict(STRIKE_CARDS)


def mark(seat: int) -> str:
    """The letter of a seat on the board: A, B, C, D."""
    return chr(ord("A") + seat)


def alien_text(alien_id: str) -> str:
    """``Myrr 5 5 Navigator P5``: name, faces and ability of an alien card."""
    index = ALIEN_INDEX.get(alien_id)
    if index is None:
        return alien_id
    alien = ALIENS[index]
    faces = " ".join(str(f) for f in alien.faces)
    ability = ABILITY_TEXT.get(alien.ability, alien.ability).split(":")[0]
    return f"{alien.name} {faces} {ability.format(planet=alien.navigator_planet)}"


def alien_name(alien_id: str) -> str:
    index = ALIEN_INDEX.get(alien_id)
    return alien_id if index is None else ALIENS[index].name


def _header(view: dict[str, Any], style: Style) -> str:
    meteor = view.get("meteor") or {}
    card = meteor.get("card")
    parts = [style.bold("Cosmic Run")]
    if view.get("is_over"):
        parts.append(style.bold("game over"))
    elif view.get("last_round"):
        parts.append(style.bad(f"LAST ROUND {view['round']}/{view['max_rounds']}"))
    else:
        parts.append(f"round {view['round']}/{view['max_rounds']}")
    deck = f"meteor deck {meteor.get('deck_left', '?')}"
    if card == "X":
        deck += ", card: miss"
    elif card is not None:
        targets = " ".join(str(n) for n in _STRIKES.get(card, ()))
        deck += f", card {card} ({targets})" if targets else f", card {card}"
    parts.append(deck)
    parts.append(f"alien deck {view.get('alien_deck_left', '?')}")
    return "  ".join(parts)


def _track(planet: dict[str, Any], style: Style) -> str:
    length = planet["length"]
    cells: list[str] = ["."] * length
    for space in planet.get("tokens") or []:
        if 0 <= space < length:
            cells[space] = style.paint("i", "yellow")
    at: dict[int, list[str]] = {}
    for seat, pos in enumerate(planet.get("ships") or []):
        if isinstance(pos, int):
            at.setdefault(pos, []).append(style.seat(seat, mark(seat)))
    drone = planet.get("drone")
    if isinstance(drone, int):
        at.setdefault(drone, []).append(style.paint("@", "red"))
    for pos, marks in at.items():
        if 0 <= pos < length:
            cells[pos] = marks[0] if len(marks) == 1 else style.bold("+")
    return "".join(cells) + "]"


def _positions(planet: dict[str, Any], style: Style) -> str:
    parts = [
        style.seat(seat, f"{mark(seat)}{pos}")
        for seat, pos in enumerate(planet.get("ships") or [])
        if isinstance(pos, int)
    ]
    if isinstance(planet.get("drone"), int):
        parts.append(f"@{planet['drone']}")
    return " ".join(parts)


def _planet_line(planet: dict[str, Any], view: dict[str, Any], style: Style) -> str:
    number = planet["planet"]
    hits = planet.get("hits", 0)
    damage = style.bad("x" * hits) + "." * max(0, 3 - hits)
    head = f"P{number} {damage}  "
    status = planet.get("status")
    if status != "open":
        word = style.good("discovered") if status == "discovered" else style.bad("destroyed")
        return f"{head}{word}"
    line = f"{head}{_track(planet, style)}  {_positions(planet, style)}"
    order = view.get("p6_order")
    if number == 6 and order and len(order) > 1:
        names = ["@" if s == "drone" else mark(s) if isinstance(s, int) else "?" for s in order]
        line += f"  lead {''.join(names)}"
    return line


def _dice_line(view: dict[str, Any], style: Style) -> str:
    parts = []
    for die in view.get("dice") or []:
        name, value, at = die.get("die"), die.get("value"), die.get("at")
        if at is None:
            parts.append(style.bold(f"{name} [{value}]"))
        else:
            parts.append(style.dim(f"{name} {value}>{at}"))
    line = "Dice  " + "  ".join(parts)
    free = view.get("free_uses") or {}
    spare = [k.replace("reroll", "re-roll") for k in ("reroll", "nudge", "flip") if free.get(k)]
    if spare and view.get("decision") == "assign":
        line += "  free: " + ", ".join(spare)
    return line


def _row_lines(view: dict[str, Any], style: Style) -> list[str]:
    on: dict[str, list[str]] = {}
    for die in view.get("dice") or []:
        if isinstance(die.get("at"), str) and die["at"].startswith("A"):
            on.setdefault(die["at"], []).append(str(die.get("die")))
    cells = []
    for slot, alien in enumerate(view.get("row") or []):
        name = f"A{slot + 1}"
        if alien is None:
            cells.append(style.dim(f"{name} (empty)"))
            continue
        text = f"{name} {alien_text(alien)}"
        if name in on:
            text += " " + style.bold("+" + "+".join(on[name]))
        cells.append(text)
    lines = []
    for i in range(0, len(cells), 2):
        pair = cells[i : i + 2]
        head = "Row   " if i == 0 else "      "
        lines.append(head + "  ".join(pad(clip(c, 36), 36) for c in pair).rstrip())
    return lines


def _seat_lines(view: dict[str, Any], names: Sequence[str], style: Style) -> list[str]:
    me = view.get("seat")
    turn = view.get("current_player")
    width = max([len(_name(names, s.get("seat", i))) for i, s in enumerate(view["seats"])] + [4])
    width = min(width + (6 if me is not None else 0), 22)
    lines = []
    for i, info in enumerate(view["seats"]):
        seat = info.get("seat", i)
        pointer = style.bold(">") if seat == turn else " "
        who = _name(names, seat) + (" (you)" if seat == me else "")
        who = style.seat(seat, pad(clip(f"{mark(seat)} {who}", width + 2), width + 2))
        tokens = f"tokens {info.get('infodere_count', 0)}"
        values = info.get("infodere")
        if values:
            tokens += " [" + " ".join(str(v) for v in values) + "]"
        aliens = ", ".join(alien_name(a) for a in info.get("aliens") or [])
        line = (
            f"{pointer} {who} {info.get('vp', 0):>2} VP  {info.get('crystals', 0)} cr  "
            f"{pad(tokens, 16)} found {info.get('discovered', 0)}  {aliens}"
        )
        lines.append(clip(line.rstrip(), WIDTH))
    return lines


def _name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return f"seat {seat}"


def board(view: dict[str, Any], names: Sequence[str], style: Style) -> list[str]:
    """The whole board: header, six tracks, dice, alien row, one line per seat."""
    lines = [_header(view, style)]
    lines.extend(_planet_line(p, view, style) for p in view["planets"])
    if not view.get("is_over"):
        lines.append(_dice_line(view, style))
    lines.extend(_row_lines(view, style))
    lines.extend(_seat_lines(view, names, style))
    if view.get("solo"):
        lines.append(style.dim("  @ the Drone"))
    return [clip(line, WIDTH) for line in lines]


def decision(view: dict[str, Any], names: Sequence[str]) -> str:
    """What the seat to play must decide, in words."""
    kind = view.get("decision")
    who = _name(names, view.get("current_player"))
    if kind == "assign":
        if view.get("assigned_since_roll"):
            return f"{who}: place a die, or roll the rest"
        return f"{who}: place at least one die"
    if kind == "boost":
        return f"{who}: boost a planet, or not"
    if kind == "retire":
        retire = view.get("retire") or {}
        incoming = retire.get("incoming")
        extra = f" ({alien_name(incoming)} is coming)" if incoming else ""
        return f"{who}: retire an alien to make room{extra}"
    return f"{who} to play"


def entries(view: dict[str, Any], legal: Sequence[Any]) -> list[Entry]:
    """Menu entries: placements grouped by die, abilities grouped by kind."""
    values = {i: d.get("value") for i, d in enumerate(view.get("dice") or [])}
    result = []
    for i, item in enumerate(legal):
        action, label = action_of(item), label_of(item)
        kind = action[0] if action else None
        number = i + 1
        try:
            if kind == "assign":
                die, target = action[1], action[2]
                tag = f"{target}!" if "ends rolling" in label else target
                result.append(Entry(number, tag, f"{DICE[die]}={values.get(die)} on"))
            elif kind in ("reroll", "flip"):
                verb = "Re-roll" if kind == "reroll" else "Flip"
                group = f"{verb} ({_price(label)})"
                tag = DICE[action[1]] if kind == "reroll" else _to(label, DICE[action[1]])
                result.append(Entry(number, tag, group))
            elif kind == "nudge":
                group = f"Nudge ({_price(label)})"
                result.append(Entry(number, _to(label, DICE[action[1]]), group))
            elif kind == "boost":
                result.append(Entry(number, action[1], f"Boost +1 ({_price(label)})"))
            elif kind == "retire":
                result.append(Entry(number, f"{action[1]} {alien_name(action[1])}", "Retire"))
            else:
                result.append(Entry(number, label))
        except (IndexError, TypeError, KeyError):
            result.append(Entry(number, label))
    return result


def footnote(legal: Sequence[Any]) -> str | None:
    if any("ends rolling" in label_of(item) for item in legal):
        return "(P6!: the yellow die on P6 ends rolling)"
    return None


def _price(label: str) -> str:
    """The price in a label's last brackets, short: ``1 cr``, ``free``."""
    start = label.rfind("(")
    price = label[start + 1 : label.rfind(")")] if start >= 0 else ""
    if price.startswith("free"):
        return "free"
    return price.replace(" crystals", " cr").replace(" crystal", " cr")


def _to(label: str, die: str) -> str:
    """``W2 to 5`` from ``Nudge W2 (a 4) to 5 (...)``."""
    marker = label.find(" to ")
    if marker < 0:
        return die
    rest = label[marker + 4 :].split(" ")[0]
    return f"{die} to {rest}"


def final(view: dict[str, Any], names: Sequence[str], style: Style) -> list[str]:
    """The final score sheet from ``view['final']`` (empty if the view has none)."""
    info = view.get("final")
    if not isinstance(info, dict):
        return []
    totals = info.get("total") or []
    order = [s for group in view.get("ranking") or [] for s in group]
    lines = [style.bold(f"{'':24}track  aliens  infodere  crystals  total")]
    for place, seat in enumerate(order, start=1):
        row = (
            f"{place}. {pad(clip(_name(names, seat), 20), 20)} "
            f"{info['track'][seat]:>5}  {info['held_aliens'][seat]:>6}  "
            f"{info['infodere_vp'][seat]:>8}  {info['crystals_vp'][seat]:>8}  "
            f"{totals[seat]:>5}"
        )
        lines.append(style.seat(seat, row))
    if "solo_rank" in info:
        verdict = style.good("a win") if info.get("solo_win") else style.bad("a loss")
        lines.append(f"Solo rank: {info['solo_rank']} ({verdict}).")
    return lines
