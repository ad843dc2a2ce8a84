"""Cosmic Run's observation: one seat's view as a fixed-length float32 vector.

The encoder reads nothing but the view (``State.view(seat)``), so it can hold nothing the seat
may not see. Seats are counted from the observer: "seat +0" is the observer, "seat +1" the next
seat in turn order, and so on; the blocks of seats a smaller game lacks stay 0. The layout is
the same at every player count.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cosmoport.envs.layout import Layout
from games.cosmic_run.codes import PHASE_NAMES, STATUS_NAMES, TARGET_INDEX
from games.cosmic_run.data import (
    ALIEN_INDEX,
    ALIENS,
    INFODERE_VALUES,
    MAX_PLAYERS,
    METEOR_IDS,
    METEOR_INDEX,
    TOKEN_AT,
    TOKEN_SPACES,
)

SEATS = MAX_PLAYERS
_N_ALIENS = len(ALIENS)
_DECISIONS = [name for name in PHASE_NAMES if name is not None]

LAYOUT = Layout()
_add = LAYOUT.add
_PLAYERS = _add("players", SEATS, 1, "player count, one-hot (1 to 4)")
_CURRENT = _add("current", SEATS, 1, "the seat to act, one-hot by seat +0..+3; 0 once over")
_OVER = _add("is_over", 1, 1, "the game is over")
_DECISION = _add("decision", 3, 1, "the decision pending: assign, boost, retire (one-hot)")
_ROUND = _add("round", 1, 64, "the round number")
_MAX_ROUNDS = _add("max_rounds", 1, 64, "the most rounds this player count can last")
_LAST = _add("last_round", 1, 1, "this is the last round")
_TURN = _add("turn", SEATS, 1, "whose turn it is, one-hot by seat +0..+3")
_METEOR_LEFT = _add("meteor_deck_left", 1, 64, "meteor cards left in the deck")
_METEOR = _add("meteor_card", len(METEOR_IDS), 1, "this turn's meteor card, one-hot M01-M12, X")
_PLANET = _add(
    "planets",
    6 * 9,
    64,
    "per planet P1-P6 (9 each): status open/discovered/destroyed one-hot, hits, "
    "ships of seat +0..+3 (space, while open), the solo Drone's space",
)
_TOKENS = _add(
    "board_tokens",
    len(TOKEN_SPACES),
    1,
    "an Infodere token still lies on the marked space (P1 5, 11; P2 3, 6; P3 3; P4 2; P5 1; "
    "P6 10, 21, 32)",
)
_P6 = _add(
    "p6_order",
    SEATS + 1,
    8,
    "place on the P6 track (1 = ahead) of seat +0..+3 and of the Drone; 0 when P6 is closed",
)
_DICE = _add(
    "dice",
    6 * 13,
    6,
    "per die W1-W5, Y (13 each): its value, then where it lies one-hot: unassigned, "
    "P1-P6, A1-A4, T",
)
_SINCE_ROLL = _add("assigned_since_roll", 1, 1, "a die was assigned since the last roll")
_FREE = _add("free_uses", 3, 8, "free alien uses left this turn: reroll, nudge, flip")
_COSTS = _add("costs", 3, 8, "crystal cost for the seat to act: reroll, nudge, boost")
_ROW = _add("row", 4 * _N_ALIENS, 1, "the alien row A1-A4, each one-hot over A01-A30")
_DECK_LEFT = _add("alien_deck_left", 1, 64, "alien cards left in the deck")
_RETIRED = _add("retired", _N_ALIENS, 1, "retired aliens A01-A30")
_RETIRE_SLOT = _add("retire_slot", 4, 1, "retirement pending: the row slot A1-A4, one-hot")
_RETIRE_IN = _add("retire_incoming", _N_ALIENS, 1, "retirement pending: the incoming alien")
_SEAT_SIZE = 4 + _N_ALIENS + 5 + 1
_SEATS = _add(
    "seats",
    SEATS * _SEAT_SIZE,
    1000,
    f"per seat +0..+3 ({_SEAT_SIZE} each): VP, crystals, Infodere token count, planets "
    "discovered; aliens held A01-A30; Infodere tokens by value 1-5 (the observer's own, "
    "everyone's once the game is over, else 0); those values are shown (1/0)",
)
_SCORES = _add("scores", SEATS, 1000, "the score track (final VP once over) of seat +0..+3")
_RANK = _add("final_place", SEATS, 8, "once over: the place of seat +0..+3 (1 = first)")

SIZE = LAYOUT.size
_STATUS = {name: i for i, name in enumerate(STATUS_NAMES)}
_DECISION_AT = {name: i for i, name in enumerate(_DECISIONS)}
_VALUES = sorted(set(INFODERE_VALUES))


def encode(view: dict[str, Any], out: np.ndarray) -> None:
    """Write ``view`` (a seat's) into ``out`` (zeros, ``SIZE`` long)."""
    n = view["players"]
    me = view["seat"]
    out[_PLAYERS + n - 1] = 1
    current = view["current_player"]
    if current is not None:
        out[_CURRENT + (current - me) % n] = 1
    over = view["is_over"]
    out[_OVER] = over
    decision = view["decision"]
    if decision is not None:
        out[_DECISION + _DECISION_AT[decision]] = 1
    out[_ROUND] = view["round"]
    out[_MAX_ROUNDS] = view["max_rounds"]
    out[_LAST] = view["last_round"]
    out[_TURN + (view["turn"] - me) % n] = 1
    meteor = view["meteor"]
    out[_METEOR_LEFT] = meteor["deck_left"]
    if meteor["card"] is not None:
        out[_METEOR + METEOR_INDEX[meteor["card"]]] = 1
    for p, planet in enumerate(view["planets"]):
        base = _PLANET + 9 * p
        out[base + _STATUS[planet["status"]]] = 1
        out[base + 3] = planet["hits"]
        ships = planet["ships"]
        if ships is not None:
            for s, space in enumerate(ships):
                out[base + 4 + (s - me) % n] = space
        if planet["drone"] is not None:
            out[base + 8] = planet["drone"]
        for space in planet["tokens"]:
            out[_TOKENS + TOKEN_AT[(p, space)]] = 1
    order = view["p6_order"]
    if order is not None:
        for place, who in enumerate(order, start=1):
            out[_P6 + (SEATS if who == "drone" else (who - me) % n)] = place
    for d, die in enumerate(view["dice"]):
        base = _DICE + 13 * d
        out[base] = die["value"]
        at = die["at"]
        out[base + 1 + (0 if at is None else 1 + TARGET_INDEX[at])] = 1
    out[_SINCE_ROLL] = view["assigned_since_roll"]
    free = view["free_uses"]
    out[_FREE] = free["reroll"]
    out[_FREE + 1] = free["nudge"]
    out[_FREE + 2] = free["flip"]
    costs = view["costs"]
    out[_COSTS] = costs["reroll"]
    out[_COSTS + 1] = costs["nudge"]
    out[_COSTS + 2] = costs["boost"]
    for slot, alien in enumerate(view["row"]):
        if alien is not None:
            out[_ROW + _N_ALIENS * slot + ALIEN_INDEX[alien]] = 1
    out[_DECK_LEFT] = view["alien_deck_left"]
    for alien in view["retired"]:
        out[_RETIRED + ALIEN_INDEX[alien]] = 1
    retire = view["retire"]
    if retire is not None:
        out[_RETIRE_SLOT + int(retire["slot"][1:]) - 1] = 1
        if retire["incoming"] is not None:
            out[_RETIRE_IN + ALIEN_INDEX[retire["incoming"]]] = 1
    for s, seat in enumerate(view["seats"]):
        base = _SEATS + _SEAT_SIZE * ((s - me) % n)
        out[base] = seat["vp"]
        out[base + 1] = seat["crystals"]
        out[base + 2] = seat["infodere_count"]
        out[base + 3] = seat["discovered"]
        for alien in seat["aliens"]:
            out[base + 4 + ALIEN_INDEX[alien]] = 1
        tokens = seat["infodere"]
        if tokens is not None:
            for value in tokens:
                out[base + 4 + _N_ALIENS + _VALUES.index(value)] += 1
            out[base + 4 + _N_ALIENS + 5] = 1
    for s, score in enumerate(view["scores"]):
        out[_SCORES + (s - me) % n] = score
    ranking = view["ranking"]
    if ranking is not None:
        for place, group in enumerate(ranking, start=1):
            for s in group:
                out[_RANK + (s - me) % n] = place
