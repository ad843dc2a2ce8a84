# ruff: noqa: E501  (literal colour screens are long)
"""Alien Artifacts screens: the renderer against literal expected screens, plain and in colour.

Positions come from the engine (seeded games are identical byte for byte), the names are fixed;
each screen is the board followed by the menu of named choices (or the final standing).
"""

from __future__ import annotations

from client_helpers import legal_of, position

from client import render
from client.games.alien_artifacts import board as alien_artifacts
from client.text.style import Style, strip

NAMES = ["Ann", "Random bot 1", "Random bot 2", "Random bot 3", "Random bot 4"]


def screen(players: int, seed: int, steps: int, chooser: int, colour: bool = False) -> str:
    state = position("alien_artifacts", players, seed, steps, chooser)
    seat = state.current_player if not state.is_over else 0
    view, names, style = state.view(seat), NAMES[:players], Style(colour)
    lines = render.board(view, names, style)
    if state.is_over:
        lines += render.final(view, None, names, style)
    else:
        lines += render.menu(view, legal_of(state), names, style)
    return "\n".join(lines) + "\n"


CASES = [
    ("PAYING_3P", (3, 7, 1, 1), False),
    ("DISCARD_5P", (5, 7, 150, 1), False),
    ("OVER_2P", (2, 7, 10**5, 1), False),
    ("PAYING_3P_COLOUR", (3, 7, 1, 1), True),
]
"""The golden screens: (name, screen() arguments, colour)."""


# alien_artifacts, 3 players, seed 7, 1 random actions (chooser seed 1)
PAYING_3P = """\
Alien Artifacts  round 1/3  turn 1  deck 42  discard 0
Aliens   AL6 Sentinel Array   AL1 Kepler Outpost   AL5 Ancient Vault
Market   S05 Science Vessel   T15 Quartermaster   P02 Forge World
> A Ann (you)     Bionics        0 VP   8 cr  plan DP08 Evacuation
    hand     R08 R2/B3 a4 Xtm  R33 G3/R2 a1 Xpl  R27 B2/G2 a2 Xpt
    projects T11 Colonial Charter  P06 Ice Giant  S12 Dreadnought
    empire   T12 Research Grants (op)
  B Random bot 1  Community      0 VP   8 cr  hand 3  store 3  artifacts 0
    projects P08 S03 T03
    empire   P01:op
  C Random bot 2  Episcopacy     0 VP   8 cr  hand 3  artifacts 0
    projects T06 S11 T08
    empire   P03:log
Paying for ship S12 Dreadnought: 0 of 5, cards 0/2
A Ann: pay, one card half at a time, then finish
pay from hand  R08 top (Red 2)  R33 bottom (Red 2)
Type a choice (`pay R08 top`, `pay R33 bottom`), or a number from `actions`.
"""

# alien_artifacts, 5 players, seed 7, 150 random actions (chooser seed 1)
DISCARD_5P = """\
Alien Artifacts  round 3/5  turn 41  deck 26  discard 1
Aliens   AL6 Sentinel Array   AL1 Kepler Outpost   AL5 Ancient Vault
Market   S12 Dreadnought   T13 Cloning Vats   P04 Red Dunes
> A Ann (you)     Bionics        0 VP   0 cr  plan DP04 Minefield
    hand     R29 G3/R3 a1 Xpl  R41 G2/R2 a2 Xpl  R38 G3/R1 a3 Xpa
    projects T11 Colonial Charter [2]  P06 Ice Giant  S06 Survey Ship
             P13 Gas Harvest
    empire   T12 Research Grants (op)  S14 Privateer (op)
  B Random bot 1  Community      2 VP   1 cr  hand 3  store 3  artifacts 0
    projects S08   empire P01:op S05:log T03:op P08:op
  C Random bot 2  Episcopacy     0 VP   4 cr  hand 3  artifacts 0
    projects T06[2] S13   empire P03:log S15:log T08:op
  D Random bot 3  Clone Clans    0 VP   1 cr  hand 3  artifacts 0
    projects T15[3] P02 T05[2] P12   empire S03:log S07:op
  E Random bot 4  Star Union     0 VP   1 cr  hand 3  artifacts 0
    projects S10[5] P10[2] S09 S02[2] S04   empire S01:op
A Ann: discard cards, then end the turn
discard  R29 G3/R3  R41 G2/R2  R38 G3/R1
Type a choice (`discard R29`, `discard R38`), or a number from `actions`.
"""

# alien_artifacts, 2 players, seed 7, 100000 random actions (chooser seed 1)
OVER_2P = """\
Alien Artifacts  game over  turn 50  deck 0  discard 33
Aliens   AL6 Sentinel Array   AL1 Kepler Outpost   AL5 Ancient Vault
Market   S07 Battlecruiser   T08 Xenoarchaeology   P13 Gas Harvest
  A Ann (you)     Bionics       24 VP   0 cr  plan DP08 Evacuation
    hand     R45 R2/Gd1 a3 Xpl  R19 B3/G2 a1 Xpt  R38 G3/R1 a3 Xpa
    projects S10 Colony Ship [3]  S05 Science Vessel [5]  P12 Ring World
    empire   T12 Research Grants (op)  T11 Colonial Charter (log)
             S15 Carrier (log)  P05 Ocean Deep (log)
  B Random bot 1  Community     24 VP   9 cr  hand 3  store 10  artifacts 0
    projects P02 S08[4]
    empire   P01:op T06:log T03:log P07:op S03:op
=== Game over ===
1. B Random bot 1: 24 VP
2. A Ann (you): 24 VP
                          faction           VP  credits  empire
1. B Random bot 1         Community         24        9       5
2. A Ann                  Bionics           24        0       4
"""

PAYING_3P_COLOUR = (
    "\x1b[1mAlien Artifacts\x1b[0m  round 1/3  turn 1  deck 42  discard 0\n"
    "Aliens   AL6 Sentinel Array   AL1 Kepler Outpost   AL5 Ancient Vault\n"
    "Market   S05 Science Vessel   T15 Quartermaster   P02 Forge World\n"
    "\x1b[1m>\x1b[0m \x1b[36mA Ann (you)   \x1b[0m  Bionics        0 VP   8 cr  plan DP08 Evacuation\n"
    "    hand     R08 \x1b[31mR2\x1b[0m/\x1b[34mB3\x1b[0m a4 Xtm  R33 \x1b[32mG3\x1b[0m/\x1b[31mR2\x1b[0m a1 Xpl  R27 \x1b[34mB2\x1b[0m/\x1b[32mG2\x1b[0m a2 Xpt\n"
    "    projects T11 Colonial Charter  P06 Ice Giant  S12 Dreadnought\n"
    "    empire   T12 Research Grants (op)\n"
    "  \x1b[33mB Random bot 1\x1b[0m  Community      0 VP   8 cr  hand 3  store 3  artifacts 0\n"
    "    projects P08 S03 T03\n"
    "    empire   P01:op\n"
    "  \x1b[35mC Random bot 2\x1b[0m  Episcopacy     0 VP   8 cr  hand 3  artifacts 0\n"
    "    projects T06 S11 T08\n"
    "    empire   P03:log\n"
    "\x1b[1mPaying for ship S12 Dreadnought: 0 of 5, cards 0/2\x1b[0m\n"
    "\x1b[1mA Ann: pay, one card half at a time, then finish\x1b[0m\n"
    "pay from hand  \x1b[1mR08 top\x1b[0m (Red 2)  \x1b[1mR33 bottom\x1b[0m (Red 2)\n"
    "\x1b[90mType a choice (`pay R08 top`, `pay R33 bottom`), or a number from `actions`.\x1b[0m\n"
)


def test_paying_for_a_build_with_three_players() -> None:
    assert screen(3, 7, 1, 1) == PAYING_3P


def test_five_players_keep_to_one_line_per_other_seat() -> None:
    assert screen(5, 7, 150, 1) == DISCARD_5P


def test_game_over_standing() -> None:
    assert screen(2, 7, 10**5, 1) == OVER_2P


def test_colour_screen() -> None:
    assert screen(3, 7, 1, 1, colour=True) == PAYING_3P_COLOUR


def test_colour_only_adds_escape_codes() -> None:
    for args in [(3, 7, 1, 1), (5, 7, 150, 1), (2, 7, 10**5, 1), (4, 3, 90, 2)]:
        assert strip(screen(*args, colour=True)) == screen(*args)


def test_every_line_fits_80_columns_and_a_turn_fits_24_rows() -> None:
    for players in (2, 3, 4, 5):
        for steps in (0, 40, 120, 250):
            state = position("alien_artifacts", players, 21, steps, players)
            text = screen(players, 21, steps, players)
            lines = text.splitlines()
            assert all(len(line) <= 80 for line in lines), text
            if not state.is_over:
                assert len(lines) <= 23, text


def test_hidden_cards_of_other_seats_are_never_named() -> None:
    state = position("alien_artifacts", 3, 7, 60, 1)
    text = "\n".join(alien_artifacts.board(state.view(0), NAMES[:3], Style(False)))
    hidden = [card for seat in (1, 2) for card in state.view(seat)["seats"][seat]["hand"]]
    assert hidden and not any(card in text for card in hidden)
    own = state.view(0)["seats"][0]["hand"]
    assert own and all(card in text for card in own)


def test_a_resource_card_shows_both_halves_attack_number_and_symbol() -> None:
    assert alien_artifacts.resource("R08", Style(False)) == "R08 R2/B3 a4 Xtm"
    assert alien_artifacts.resource("R45", Style(False)) == "R45 R2/Gd1 a3 Xpl"
    assert alien_artifacts.resource(3, Style(False)) == "??"
