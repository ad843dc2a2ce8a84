"""Cosmic Run on one screen: pure functions from a view (and the legal list) to lines of text.

The board, 14 lines at 80 columns (any width: lines wrap between whole pieces, never inside one;
a wide screen puts the alien row on one line)::

    Cosmic Run  round 6/13  meteor deck 30, card M09 (3 1 4)  alien deck 22
    P1 x..  ++...i.....i....]  A1 B0 C1 D0
    ...
    P6 x..  ...D..B.....C..A.....i..........i.......]  A15 B6 C12 D3  lead ACBD
    Dice  W1 [5]  W2 [3]  W3 [6]  W4 [4]  W5 [5]  Y 5>P2  free: re-roll
    Row   A1 Sprocket 5 6 Miner                 A2 Atlas-9 1 3 Cartographer +W2
          A3 Wend 4 5 Cartographer              A4 Vell 1 2 Patron
      A Ann                 0 VP  0 cry  tokens 0        found 0  Pim, Orra
    > B Random bot 1 (you)  1 VP  0 cry  tokens 1 [3]    found 0  Grib

Each track shows spaces 0 .. length-1 and the planet (``]``); a letter is a ship (``+``: more
than one), ``@`` the Drone, ``i`` a face-down Infodere token; ``x`` are meteor hits. Placed dice
read ``Y 5>P2``, unplaced ones ``[5]``. Seat lines: score track VP, crystals, Infodere tokens
(their values in your own line), planets discovered, aliens held. The client only reads the
view: names and abilities of aliens come from the game's data tables.

The menu's entries and the names typed to choose them are :mod:`.names`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from client.text.flow import columns, flow, pad_to
from client.text.style import Style, pad, visible_len
from client.text.wording import seat_name
from games import seat_letter
from games.cosmic_run.data import ABILITY_TEXT, ALIEN_INDEX, ALIENS, STRIKE_CARDS

WIDTH = 80
_STRIKES = dict(STRIKE_CARDS)


mark = seat_letter


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


def _header(view: dict[str, Any], style: Style) -> list[str]:
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
    return parts


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


def _planet_lines(
    planet: dict[str, Any], view: dict[str, Any], style: Style, width: int
) -> list[str]:
    number = planet["planet"]
    hits = planet.get("hits", 0)
    damage = style.bad("x" * hits) + "." * max(0, 3 - hits)
    head = f"P{number} {damage}  "
    status = planet.get("status")
    if status != "open":
        word = style.good("discovered") if status == "discovered" else style.bad("destroyed")
        return [f"{head}{word}"]
    chunks = [_positions(planet, style)]
    order = view.get("p6_order")
    if number == 6 and order and len(order) > 1:
        names = ["@" if s == "drone" else mark(s) if isinstance(s, int) else "?" for s in order]
        chunks.append(f"lead {''.join(names)}")
    return flow(chunks, width, first=f"{head}{_track(planet, style)}  ", indent=visible_len(head))


def _dice_lines(view: dict[str, Any], style: Style, width: int) -> list[str]:
    parts = []
    for die in view.get("dice") or []:
        name, value, at = die.get("die"), die.get("value"), die.get("at")
        if at is None:
            parts.append(style.bold(f"{name} [{value}]"))
        else:
            parts.append(style.dim(f"{name} {value}>{at}"))
    free = view.get("free_uses") or {}
    spare = [k.replace("reroll", "re-roll") for k in ("reroll", "nudge", "flip") if free.get(k)]
    if spare and view.get("decision") == "assign":
        parts.append("free: " + ", ".join(spare))
    return flow(parts, width, first="Dice  ", indent=6)


def _row_lines(view: dict[str, Any], style: Style, width: int) -> list[str]:
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
    if not cells:
        return []
    # 35-character cells: two a line from 78 columns (a full-screen pane's 80), four at 160.
    cells = [pad_to(c, 35) for c in cells]
    return columns(cells, width, lead="Row   ")


def _seat_lines(view: dict[str, Any], names: Sequence[str], style: Style, width: int) -> list[str]:
    me = view.get("seat")
    turn = view.get("current_player")
    size = max([len(_name(names, s.get("seat", i))) for i, s in enumerate(view["seats"])] + [4])
    size = min(size + (6 if me is not None else 0), 22)
    rows = []
    for i, info in enumerate(view["seats"]):
        seat = info.get("seat", i)
        pointer = style.bold(">") if seat == turn else " "
        label = f"{mark(seat)} {_name(names, seat)}" + (" (you)" if seat == me else "")
        tokens = f"tokens {info.get('infodere_count', 0)}"
        values = info.get("infodere")
        if values:
            tokens += " [" + " ".join(str(v) for v in values) + "]"
        aliens = ", ".join(alien_name(a) for a in info.get("aliens") or [])
        lead = f"{pointer} {style.seat(seat, pad(label, size + 2))}"
        rows.append((lead, info, tokens, aliens))
    lines = [
        f"{lead} {info.get('vp', 0):>2} VP  {info.get('crystals', 0)} cry  "
        f"{pad(tokens, 15)} found {info.get('discovered', 0)}  {aliens}".rstrip()
        for lead, info, tokens, aliens in rows
    ]
    if all(visible_len(line) <= width for line in lines):
        return lines
    lines = []  # narrow: the same words, flowed under each name
    for lead, info, tokens, aliens in rows:
        chunks = [f"{info.get('vp', 0)} VP", f"{info.get('crystals', 0)} cry", tokens]
        chunks += [f"found {info.get('discovered', 0)}", aliens]
        lines.extend(flow(chunks, width, first=lead + "  ", indent=4))
    return lines


def _name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return mark(seat) if isinstance(seat, int) and 0 <= seat < 26 else "?"


def board(
    view: dict[str, Any], names: Sequence[str], style: Style, width: int = WIDTH
) -> list[str]:
    """The whole board: header, six tracks, dice, alien row, one line per seat."""
    lines = flow(_header(view, style), width, indent=2)
    for planet in view["planets"]:
        lines.extend(_planet_lines(planet, view, style, width))
    if not view.get("is_over"):
        lines.extend(_dice_lines(view, style, width))
    lines.extend(_row_lines(view, style, width))
    lines.extend(_seat_lines(view, names, style, width))
    if view.get("solo"):
        lines.append(style.dim("  @ the Drone"))
    return lines


def decision(view: dict[str, Any], names: Sequence[str]) -> str:
    """What the seat to play must decide, in words."""
    kind = view.get("decision")
    person = seat_name(names, view.get("current_player"))
    if kind == "assign":
        if view.get("assigned_since_roll"):
            return f"{person}: place a die, or roll the rest"
        return f"{person}: place at least one die"
    if kind == "boost":
        return f"{person}: boost a planet, or not"
    if kind == "retire":
        retire = view.get("retire") or {}
        incoming = retire.get("incoming")
        extra = f" ({alien_name(incoming)} is coming)" if incoming else ""
        return f"{person}: retire an alien to make room{extra}"
    return f"{person} to play"


_FINAL_HEAD = "track  aliens  infodere  crystals  total"


def final(
    view: dict[str, Any], names: Sequence[str], style: Style, width: int = WIDTH
) -> list[str]:
    """The final score sheet from ``view['final']`` (empty if the view has none)."""
    info = view.get("final")
    if not isinstance(info, dict):
        return []
    totals = info.get("total") or []
    order = [s for group in view.get("ranking") or [] for s in group]
    size = max([len(seat_name(names, s)) for s in order] + [20])
    if 3 + size + 1 + len(_FINAL_HEAD) > width:  # the names' own width, then two lines each
        size = max([len(seat_name(names, s)) for s in order] + [1])
    one_line = 3 + size + 1 + len(_FINAL_HEAD) <= width
    lines = [style.bold(" " * (size + 4 if one_line else 3) + _FINAL_HEAD)]
    for place, seat in enumerate(order, start=1):
        numbers = (
            f"{info['track'][seat]:>5}  {info['held_aliens'][seat]:>6}  "
            f"{info['infodere_vp'][seat]:>8}  {info['crystals_vp'][seat]:>8}  "
            f"{totals[seat]:>5}"
        )
        if one_line:
            lines.append(
                style.seat(seat, f"{place}. {pad(seat_name(names, seat), size)} {numbers}")
            )
        else:  # the name alone, the numbers under the heading
            lines.append(style.seat(seat, f"{place}. {seat_name(names, seat)}"))
            lines.append(style.seat(seat, f"   {numbers}"))
    if "solo_rank" in info:
        verdict = style.good("a win") if info.get("solo_win") else style.bad("a loss")
        lines.append(f"Solo rank: {info['solo_rank']} ({verdict}).")
    return lines
