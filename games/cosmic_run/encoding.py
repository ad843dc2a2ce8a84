"""Cosmic Run's observation: one seat's view as a fixed-length float32 vector.

The encoder reads nothing but the view (``State.view(seat)``), so it can hold nothing the seat
may not see. Seats are counted from the observer: "seat +0" is the observer, "seat +1" the next
seat in turn order, and so on; the blocks of seats a smaller game lacks stay 0. The layout is
the same at every player count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.cosmic_run.codes import (
    OPEN,
    OVER,
    PHASE_NAMES,
    RETIRE,
    STATUS_NAMES,
    TARGET_INDEX,
    TARGET_NAMES,
    UNASSIGNED,
)
from games.cosmic_run.data import (
    ALIEN_INDEX,
    ALIENS,
    BOOST_COST,
    INFODERE_VALUES,
    MAX_PLAYERS,
    METEOR_IDS,
    METEOR_INDEX,
    MISS_CARDS_USED,
    NUDGE_COST,
    REROLL_COST,
    STRIKE_CARDS,
    TOKEN_AT,
    TOKEN_SPACES,
)
from games.cosmic_run.mechanics import ability_cost
from games.cosmic_run.state import CosmicRunState
from games.cosmic_run.views import p6_order
from games.layout import Layout, write_standing, write_turn

if TYPE_CHECKING:
    import numpy as np

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
STATE_TYPE = CosmicRunState
"""The engine state :func:`encode_state` reads."""
_STATUS = {name: i for i, name in enumerate(STATUS_NAMES)}
_DECISION_AT = {name: i for i, name in enumerate(_DECISIONS)}
_VALUES = sorted(set(INFODERE_VALUES))
_VALUE_AT = {value: i for i, value in enumerate(_VALUES)}
# The state's codes are the indexes the view's names map to: encode_state uses them directly.
assert all(_STATUS[name] == i for i, name in enumerate(STATUS_NAMES))
assert list(PHASE_NAMES[:OVER]) == _DECISIONS and PHASE_NAMES[OVER] is None
assert all(METEOR_INDEX[card] == i for i, card in enumerate(METEOR_IDS))
assert all(ALIEN_INDEX[alien.id] == i for i, alien in enumerate(ALIENS))
assert all(TOKEN_AT[spot] == i for i, spot in enumerate(TOKEN_SPACES))
assert all(TARGET_INDEX[name] == i for i, name in enumerate(TARGET_NAMES))


def encode(view: dict[str, Any], out: np.ndarray) -> None:
    """Write ``view`` (a seat's) into ``out`` (zeros, ``SIZE`` long)."""
    n = view["players"]
    me = view["seat"]
    over = view["is_over"]
    write_turn(out, n, me, view["current_player"], over, (_PLAYERS, _CURRENT, _OVER))
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
    write_standing(out, view["scores"], view["ranking"], me, (_SCORES, _RANK))


def encode_state(st: CosmicRunState, me: int, out: np.ndarray) -> None:
    """Write seat ``me``'s observation of ``st`` into ``out`` (zeros, ``SIZE`` long): the same
    vector as ``encode(st.view(me), out)``, byte for byte, made from the state without building
    the view (what the environments do each step). It reads only what the view shows: the
    public state and ``me``'s own Infodere tokens (everyone's once the game is over)."""
    n = st.n
    over = st.phase == OVER
    active = st.turn
    write_turn(out, n, me, None if over else active, over, (_PLAYERS, _CURRENT, _OVER))
    if not over:  # the phase codes before OVER are the decisions, in order
        out[_DECISION + st.phase] = 1
    out[_ROUND] = st.round
    out[_MAX_ROUNDS] = (len(STRIKE_CARDS) + MISS_CARDS_USED[n]) // n
    out[_LAST] = st.final_round
    out[_TURN + (active - me) % n] = 1
    out[_METEOR_LEFT] = len(st.meteor_deck)
    if st.meteor_card >= 0:
        out[_METEOR + st.meteor_card] = 1
    status = st.status
    for p in range(6):
        base = _PLANET + 9 * p
        out[base + status[p]] = 1
        out[base + 3] = st.hits[p]
        if status[p] == OPEN:
            for s in range(n):
                out[base + 4 + (s - me) % n] = st.pos[s][p]
            if st.solo:
                out[base + 8] = st.drone[p]
    for index, present in enumerate(st.board_tokens):
        if present:
            out[_TOKENS + index] = 1
    if status[5] == OPEN:
        for place, who in enumerate(p6_order(st), start=1):
            out[_P6 + (SEATS if who == "drone" else (who - me) % n)] = place
    for die in range(6):
        base = _DICE + 13 * die
        out[base] = st.dice[die]
        at = st.loc[die]
        out[base + 1 + (0 if at == UNASSIGNED else 1 + at)] = 1
    out[_SINCE_ROLL] = st.assigned_since_roll
    free = st.free
    out[_FREE] = free[0]
    out[_FREE + 1] = free[1]
    out[_FREE + 2] = free[2]
    out[_COSTS] = ability_cost(st, active, REROLL_COST)
    out[_COSTS + 1] = ability_cost(st, active, NUDGE_COST)
    out[_COSTS + 2] = ability_cost(st, active, BOOST_COST)
    for slot, alien in enumerate(st.row):
        if alien >= 0:
            out[_ROW + _N_ALIENS * slot + alien] = 1
    out[_DECK_LEFT] = len(st.alien_deck)
    for alien in st.retired:
        out[_RETIRED + alien] = 1
    if st.phase == RETIRE:
        slot = st.retire_slot
        out[_RETIRE_SLOT + slot] = 1
        if st.row[slot] >= 0:
            out[_RETIRE_IN + st.row[slot]] = 1
    for s in range(n):
        base = _SEATS + _SEAT_SIZE * ((s - me) % n)
        out[base] = st.vp[s]
        out[base + 1] = st.crystals[s]
        tokens = st.tokens[s]
        out[base + 2] = len(tokens)
        out[base + 3] = st.discovered[s]
        for alien in st.held[s]:
            out[base + 4 + alien] = 1
        if over or s == me:
            for value in tokens:
                out[base + 4 + _N_ALIENS + _VALUE_AT[value]] += 1
            out[base + 4 + _N_ALIENS + 5] = 1
    write_standing(out, st.scores(), st.ranking() if over else None, me, (_SCORES, _RANK))
