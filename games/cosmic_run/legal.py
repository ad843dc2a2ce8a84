"""The legal action lists of Cosmic Run (§8.2), in the canonical order of the spec.

Actions are tuples built once at import time, so a legal list allocates nothing but itself:

``("assign", die, target)``: die 0-5 (5 = yellow); target ``"P1"``-``"P6"``, ``"A1"``-``"A4"``
or ``"T"``;
``("roll",)``, ``("reroll", die)``, ``("nudge", die, -1 | 1)``, ``("flip", die)``,
``("boost", "P1"-"P6")``, ``("pass",)``, ``("retire", alien_id)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.api import Action
from games.cosmic_run.codes import (
    ASSIGN,
    BOOST,
    FREE_FLIP,
    FREE_REROLL,
    FREE_TUNE,
    OPEN,
    RETIRE,
    SLOT0,
    TARGET_NAMES,
    UNASSIGNED,
)
from games.cosmic_run.data import (
    ALIENS,
    MAX_CARDS_WITH_DICE_PER_TURN,
    NUDGE_COST,
    REROLL_COST,
    YELLOW,
)
from games.cosmic_run.mechanics import ability_cost, boostable_planets, unfilled_faces

if TYPE_CHECKING:
    from games.cosmic_run.state import CosmicRunState

ASSIGN_ACTIONS = tuple(tuple(("assign", die, name) for name in TARGET_NAMES) for die in range(6))
ROLL: Action = ("roll",)
REROLL = tuple(("reroll", die) for die in range(6))
NUDGE = tuple((("nudge", die, -1), ("nudge", die, 1)) for die in range(6))
FLIP = tuple(("flip", die) for die in range(6))
BOOST_ACTIONS = tuple(("boost", f"P{planet + 1}") for planet in range(6))
PASS: Action = ("pass",)
RETIRE_ACTIONS = tuple(("retire", alien.id) for alien in ALIENS)


def legal_actions(st: CosmicRunState) -> list[Action]:
    phase = st.phase
    if phase == ASSIGN:
        return _assign_actions(st)
    if phase == BOOST:
        result = [BOOST_ACTIONS[p] for p in boostable_planets(st)]
        result.append(PASS)
        return result
    if phase == RETIRE:
        incoming = st.row[st.retire_slot]
        return [RETIRE_ACTIONS[a] for a in sorted([*st.held[st.turn], incoming])]
    return []


def listed_dice(st: CosmicRunState) -> list[int]:
    """Unassigned dice that actions may name: the lowest index of equal white values, and Y."""
    dice = st.dice
    loc = st.loc
    listed = []
    seen = 0  # bit mask of white values already listed
    for die in range(5):
        if loc[die] == UNASSIGNED:
            bit = 1 << dice[die]
            if not seen & bit:
                seen |= bit
                listed.append(die)
    if loc[YELLOW] == UNASSIGNED:
        listed.append(YELLOW)
    return listed


def _assign_actions(st: CosmicRunState) -> list[Action]:
    dice = st.dice
    loc = st.loc
    status = st.status
    listed = listed_dice(st)

    # Row cards that accept a die this turn, with their unfilled faces.
    used_slots = {where - SLOT0 for where in loc if SLOT0 <= where < SLOT0 + 4}
    room_for_new_card = len(used_slots) < MAX_CARDS_WITH_DICE_PER_TURN
    open_faces: list[tuple[int, list[int]]] = []
    row = st.row
    for slot in range(4):
        if row[slot] >= 0 and (room_for_new_card or slot in used_slots):
            faces = unfilled_faces(st, slot)
            if faces:
                open_faces.append((slot, faces))

    result: list[Action] = []
    append = result.append
    for die in listed:
        value = dice[die]
        acts = ASSIGN_ACTIONS[die]
        if value == 1 and status[0] == OPEN:
            append(acts[0])
        for planet in range(1, 6):
            if status[planet] == OPEN:
                append(acts[planet])
        for slot, faces in open_faces:
            if value in faces:
                append(acts[SLOT0 + slot])
        append(acts[10])

    if st.assigned_since_roll:
        result.append(ROLL)

    seat = st.turn
    crystals = st.crystals[seat]
    free = st.free
    if free[FREE_REROLL] or crystals >= ability_cost(st, seat, REROLL_COST):
        result.extend(REROLL[die] for die in listed)
    if free[FREE_TUNE] or crystals >= ability_cost(st, seat, NUDGE_COST):
        for die in listed:
            value = dice[die]
            if value > 1:
                append(NUDGE[die][0])
            if value < 6:
                append(NUDGE[die][1])
    if free[FREE_FLIP]:
        result.extend(FLIP[die] for die in listed)
    return result
