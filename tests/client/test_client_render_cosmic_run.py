# ruff: noqa: E501  (literal colour screens are long)
"""Cosmic Run screens: the renderer against literal expected screens, plain and in colour.

Positions come from the engine (seeded games are identical byte for byte), the names are fixed;
each screen is the board followed by the menu of named choices (or the final sheet).
"""

from __future__ import annotations

from client_helpers import legal_of, position

from client import render
from client.games.cosmic_run import board as cosmic_run
from client.games.cosmic_run import names as cosmic_run_names
from client.text.menu import layout
from client.text.style import Style, strip

NAMES = ["Ann", "Random bot 1", "Random bot 2", "Random bot 3"]


def screen(players: int, seed: int, steps: int, chooser: int, colour: bool = False) -> str:
    state = position("cosmic_run", players, seed, steps, chooser)
    seat = state.current_player if not state.is_over else 0
    view, names, style = state.view(seat), NAMES[:players], Style(colour)
    lines = render.board(view, names, style)
    if state.is_over:
        lines += render.final(view, None, names, style)
    else:
        lines += render.menu(view, legal_of(state), names, style)
    return "\n".join(lines) + "\n"


CASES = [
    ("START_2P", (2, 5, 0, 0), False),
    ("MIDGAME_4P", (4, 5, 150, 3), False),
    ("SOLO_OVER", (1, 5, 10**5, 3), False),
    ("START_2P_COLOUR", (2, 5, 0, 0), True),
]
"""The golden screens: (name, screen() arguments, colour)."""


# cosmic_run, 2 players, seed 5, 0 random actions (chooser seed 0)
START_2P = """\
Cosmic Run  round 1/18  meteor deck 35, card: miss  alien deck 26
P1 ...  +....i.....i....]  A0 B0
P2 ...  +..i..i..]  A0 B0
P3 ...  +..i.]  A0 B0
P4 ...  +.i]  A0 B0
P5 ...  +i]  A0 B0
P6 ...  +.........i..........i..........i.......]  A0 B0  lead AB
Dice  W1 [2]  W2 [4]  W3 [3]  W4 [6]  W5 [2]  Y [2]
Row   A1 Myrr 5 5 Navigator P5             A2 Drumm 2 Miner
      A3 Haskel 6 Tinkerer                 A4 Bexa 2 2 Navigator P2
> A Ann (you)           0 VP  1 cry  tokens 0        found 0
  B Random bot 1        3 VP  2 cry  tokens 0        found 0
A Ann: place at least one die   (P6!: Y on P6 ends rolling)
W1 [2]  P2 P3 P4 P5 P6 A2 A4 T    W2 [4]  P2 P3 P4 P5 P6 T
W3 [3]  P2 P3 P4 P5 P6 T          W4 [6]  P2 P3 P4 P5 P6 A3 T
W5 [2]  P2 P3 P4 P5 P6 A2 A4 T    Y [2]   P2 P3 P4 P5 P6! A2 A4 T
reroll (1 cry)  W1 W2 W3 W4 W5 Y
Type a die and a place: `W1 P2`, or `2s P2`: one die showing 2 on P2.
"""

# cosmic_run, 4 players, seed 5, 150 random actions (chooser seed 3)
MIDGAME_4P = """\
Cosmic Run  round 6/13  meteor deck 30, card: miss  alien deck 22
P1 x..  ++...i.....i....]  A1 B0 C1 D0
P2 x..  +..i..i..]  A0 B0 C0 D0
P3 ...  +..i.]  A0 B0 C0 D0
P4 x..  +.i]  A0 B0 C0 D0
P5 x..  +i]  A0 B0 C0 D0
P6 x..  ...D..B.....C..A.....i..........i.......]  A15 B6 C12 D3  lead ACBD
Dice  W1 [5]  W2 [3]  W3 [6]  W4 [4]  W5 [5]  Y 5>P2  free: re-roll
Row   A1 Sprocket 5 6 Miner                A2 Atlas-9 1 3 Cartographer
      A3 Wend 4 5 Cartographer             A4 Vell 1 2 Patron
  A Ann                 0 VP  0 cry  tokens 0        found 0  Pim, Orra
> B Random bot 1 (you)  1 VP  0 cry  tokens 0        found 0  Grib
  C Random bot 2        2 VP  0 cry  tokens 1        found 0  Haskel
  D Random bot 3        3 VP  0 cry  tokens 0        found 0
B Random bot 1: place a die, or roll the rest
W1 [5]  P2 P3 P4 P5 P6 A1 A3 T   W2 [3]  P2 P3 P4 P5 P6 A2 T
W3 [6]  P2 P3 P4 P5 P6 A1 T      W4 [4]  P2 P3 P4 P5 P6 A3 T
W5 [5]  P2 P3 P4 P5 P6 A1 A3 T
roll (5 dice)                   reroll (free)  W1 W2 W3 W4 W5
Type a die and a place: `W1 P2`, or `5s P2`: one die showing 5 on P2.
"""

# cosmic_run, 1 players, seed 5, 100000 random actions (chooser seed 3)
SOLO_OVER = """\
Cosmic Run  game over  meteor deck 3, card M04 (4 6 3)  alien deck 23
P1 xxx  destroyed
P2 xx.  discovered
P3 x..  discovered
P4 x..  discovered
P5 x..  discovered
P6 xxx  destroyed
Row   A1 Tarn 3 3 Navigator P3             A2 Atlas-9 1 3 Cartographer
      A3 Gloam 2 4 Salvager                A4 Marrow 4 6 Re-roller
  A Ann (you)   2 VP  4 cry  tokens 1 [2]    found 0  Wend, Drumm, Kettle
  @ the Drone
=== Game over ===
1. A Ann (you): 9 VP
                        track  aliens  infodere  crystals  total
1. A Ann                    2       3         2         2      9
Solo rank: Cadet (a loss).
"""

START_2P_COLOUR = (
    "\x1b[1mCosmic Run\x1b[0m  round 1/18  meteor deck 35, card: miss  alien deck 26\n"
    "P1 ...  \x1b[1m+\x1b[0m....\x1b[33mi\x1b[0m.....\x1b[33mi\x1b[0m....]  \x1b[36mA0\x1b[0m \x1b[33mB0\x1b[0m\n"
    "P2 ...  \x1b[1m+\x1b[0m..\x1b[33mi\x1b[0m..\x1b[33mi\x1b[0m..]  \x1b[36mA0\x1b[0m \x1b[33mB0\x1b[0m\n"
    "P3 ...  \x1b[1m+\x1b[0m..\x1b[33mi\x1b[0m.]  \x1b[36mA0\x1b[0m \x1b[33mB0\x1b[0m\n"
    "P4 ...  \x1b[1m+\x1b[0m.\x1b[33mi\x1b[0m]  \x1b[36mA0\x1b[0m \x1b[33mB0\x1b[0m\n"
    "P5 ...  \x1b[1m+\x1b[0m\x1b[33mi\x1b[0m]  \x1b[36mA0\x1b[0m \x1b[33mB0\x1b[0m\n"
    "P6 ...  \x1b[1m+\x1b[0m.........\x1b[33mi\x1b[0m..........\x1b[33mi\x1b[0m..........\x1b[33mi\x1b[0m.......]  \x1b[36mA0\x1b[0m \x1b[33mB0\x1b[0m  lead AB\n"
    "Dice  \x1b[1mW1 [2]\x1b[0m  \x1b[1mW2 [4]\x1b[0m  \x1b[1mW3 [3]\x1b[0m  \x1b[1mW4 [6]\x1b[0m  \x1b[1mW5 [2]\x1b[0m  \x1b[1mY [2]\x1b[0m\n"
    "Row   A1 Myrr 5 5 Navigator P5             A2 Drumm 2 Miner\n"
    "      A3 Haskel 6 Tinkerer                 A4 Bexa 2 2 Navigator P2\n"
    "\x1b[1m>\x1b[0m \x1b[36mA Ann (you)         \x1b[0m  0 VP  1 cry  tokens 0        found 0\n"
    "  \x1b[33mB Random bot 1      \x1b[0m  3 VP  2 cry  tokens 0        found 0\n"
    "\x1b[1mA Ann: place at least one die\x1b[0m   \x1b[90m(P6!: Y on P6 ends rolling)\x1b[0m\n"
    "W1 [2]  \x1b[1mP2\x1b[0m \x1b[1mP3\x1b[0m \x1b[1mP4\x1b[0m \x1b[1mP5\x1b[0m \x1b[1mP6\x1b[0m \x1b[1mA2\x1b[0m \x1b[1mA4\x1b[0m \x1b[1mT\x1b[0m    W2 [4]  \x1b[1mP2\x1b[0m \x1b[1mP3\x1b[0m \x1b[1mP4\x1b[0m \x1b[1mP5\x1b[0m \x1b[1mP6\x1b[0m \x1b[1mT\x1b[0m\n"
    "W3 [3]  \x1b[1mP2\x1b[0m \x1b[1mP3\x1b[0m \x1b[1mP4\x1b[0m \x1b[1mP5\x1b[0m \x1b[1mP6\x1b[0m \x1b[1mT\x1b[0m          W4 [6]  \x1b[1mP2\x1b[0m \x1b[1mP3\x1b[0m \x1b[1mP4\x1b[0m \x1b[1mP5\x1b[0m \x1b[1mP6\x1b[0m \x1b[1mA3\x1b[0m \x1b[1mT\x1b[0m\n"
    "W5 [2]  \x1b[1mP2\x1b[0m \x1b[1mP3\x1b[0m \x1b[1mP4\x1b[0m \x1b[1mP5\x1b[0m \x1b[1mP6\x1b[0m \x1b[1mA2\x1b[0m \x1b[1mA4\x1b[0m \x1b[1mT\x1b[0m    Y [2]   \x1b[1mP2\x1b[0m \x1b[1mP3\x1b[0m \x1b[1mP4\x1b[0m \x1b[1mP5\x1b[0m \x1b[1mP6!\x1b[0m \x1b[1mA2\x1b[0m \x1b[1mA4\x1b[0m \x1b[1mT\x1b[0m\n"
    "reroll (1 cry)  \x1b[1mW1\x1b[0m \x1b[1mW2\x1b[0m \x1b[1mW3\x1b[0m \x1b[1mW4\x1b[0m \x1b[1mW5\x1b[0m \x1b[1mY\x1b[0m\n"
    "\x1b[90mType a die and a place: `W1 P2`, or `2s P2`: one die showing 2 on P2.\x1b[0m\n"
)


def test_first_decision_of_a_two_player_game() -> None:
    assert screen(2, 5, 0, 0) == START_2P


def test_four_players_mid_game_with_ships_on_the_tracks_and_aliens_held() -> None:
    assert screen(4, 5, 150, 3) == MIDGAME_4P


def test_solo_game_over_shows_the_drone_and_the_final_sheet() -> None:
    assert screen(1, 5, 10**5, 3) == SOLO_OVER


def test_colour_screen() -> None:
    assert screen(2, 5, 0, 0, colour=True) == START_2P_COLOUR


def test_colour_only_adds_escape_codes() -> None:
    for args in [(2, 5, 0, 0), (4, 5, 150, 3), (1, 5, 10**5, 3), (3, 9, 40, 1)]:
        assert strip(screen(*args, colour=True)) == screen(*args)


def test_every_line_fits_80_columns_and_a_turn_fits_24_rows() -> None:
    for players in (1, 2, 3, 4):
        for steps in (0, 25, 60, 120, 400):
            text = screen(players, 11, steps, players)
            lines = text.splitlines()
            assert all(len(line) <= 80 for line in lines), text
            over = position("cosmic_run", players, 11, steps, players).is_over
            assert len(lines) <= (24 if over else 22), text  # a turn leaves room for the prompt


def test_a_spectator_sees_no_hidden_token_values_and_no_you() -> None:
    state = position("cosmic_run", 2, 5, 200, 3)
    assert not state.is_over and any(s["infodere_count"] for s in state.view(None)["seats"])
    lines = cosmic_run.board(state.view(None), NAMES[:2], Style(False))
    seat_lines = [line for line in lines if "tokens" in line]
    assert len(seat_lines) == 2
    assert not any("(you)" in line or "[" in line for line in seat_lines)
    mine = cosmic_run.board(state.view(0), NAMES[:2], Style(False))
    assert sum("[" in line for line in mine if "tokens" in line) <= 1


def test_a_view_it_cannot_read_falls_back_to_the_scores() -> None:
    view = {"game": "cosmic_run", "players": 2, "seat": 0, "current_player": 1, "scores": [4, 7]}
    assert render.board(view, ["Ann", "Bob"], Style(False)) == [
        "Cosmic Run",
        "  A Ann (you): 4 VP",
        "> B Bob: 7 VP",
    ]


def test_every_legal_action_has_an_entry_whose_name_resolves_to_it() -> None:
    for args in [(2, 5, 0, 0), (4, 5, 150, 3), (3, 9, 40, 1), (2, 3, 7, 2)]:
        state = position("cosmic_run", *args)
        view, legal = state.view(state.current_player), legal_of(state)
        entries = cosmic_run_names.entries(view, legal)
        assert {e.number for e in entries} == set(range(1, len(legal) + 1))
        for entry in entries:
            found = render.resolve(view, legal, entry.name)
            assert found is not None and found.index == entry.number - 1, entry
        text = "\n".join(layout(entries, Style(False)))
        assert all(e.tag in text for e in entries)
