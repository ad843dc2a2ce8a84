"""The mechanics every other module shares: dice steps, lost dice, ability counts and costs.

What the dice and held aliens are worth, below the turn flow. Used by the turn flow
(:mod:`.rules`), scoring (:mod:`.scoring`), the legal-action lists (:mod:`.legal`), the labels
(:mod:`.labels`) and the views (:mod:`.views`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.cosmic_run.codes import OPEN, SLOT0, UNASSIGNED
from games.cosmic_run.data import (
    ALIEN_ABILITY,
    ALIEN_FACES,
    BOOST_COST,
    MIN_COST,
    SET_SIZE,
    TINKERER,
    TINKERER_DISCOUNT,
    YELLOW,
)

if TYPE_CHECKING:
    from games.cosmic_run.state import CosmicRunState


def holds(st: CosmicRunState, seat: int, ability: str) -> int:
    """How many held aliens of ``seat`` have ``ability``."""
    count = 0
    for alien in st.held[seat]:
        if ALIEN_ABILITY[alien] == ability:
            count += 1
    return count


def ability_cost(st: CosmicRunState, seat: int, base: int) -> int:
    """A crystal ability's cost for ``seat``: the Tinkerer takes 1 off, never below 1."""
    if holds(st, seat, TINKERER):
        return max(MIN_COST, base - TINKERER_DISCOUNT)
    return base


def unfilled_faces(st: CosmicRunState, slot: int) -> list[int]:
    """Faces of the card in row slot ``slot`` (0-3) that no die covers yet."""
    faces = list(ALIEN_FACES[st.row[slot]])
    target = SLOT0 + slot
    dice = st.dice
    for die, where in enumerate(st.loc):
        if where == target:
            faces.remove(dice[die])
    return faces


def dice_steps(st: CosmicRunState) -> list[int]:
    """Steps earned from the dice on each planet this turn (§3.2.3)."""
    dice = st.dice
    loc = st.loc
    counts = [[0] * 7 for _ in range(6)]
    for die in range(6):
        where = loc[die]
        if 0 <= where < 6:
            counts[where][dice[die]] += 1
    steps = [0] * 6
    steps[0] = counts[0][1]
    for planet in range(1, 5):
        k = SET_SIZE[planet]
        steps[planet] = sum(c // k for c in counts[planet])
    p6 = counts[5]
    if loc[YELLOW] == 5:
        p6[dice[YELLOW]] -= 1
        steps[5] = dice[YELLOW]
    steps[5] += sum(1 for c in p6 if c)
    return steps


def lost_dice(st: CosmicRunState) -> int:
    """Dice lost in incomplete sets on P2-P5 and on incomplete alien cards (Salvager, §5.4).

    Dice left unassigned when the yellow die ended phase 2 do not count.
    """
    dice = st.dice
    loc = st.loc
    counts = [[0] * 7 for _ in range(6)]
    on_card = [0, 0, 0, 0]
    for die in range(6):
        where = loc[die]
        if 1 <= where <= 4:
            counts[where][dice[die]] += 1
        elif SLOT0 <= where < SLOT0 + 4:
            on_card[where - SLOT0] += 1
    lost = 0
    for planet in range(1, 5):
        k = SET_SIZE[planet]
        lost += sum(c % k for c in counts[planet])
    for slot in range(4):
        if on_card[slot] and on_card[slot] < len(ALIEN_FACES[st.row[slot]]):
            lost += on_card[slot]
    return lost


def boostable_planets(st: CosmicRunState) -> list[int]:
    """Planets Boost may target now: open, with at least 1 dice step; [] if unaffordable."""
    seat = st.turn
    if st.crystals[seat] < ability_cost(st, seat, BOOST_COST):
        return []
    steps = dice_steps(st)
    return [p for p in range(6) if steps[p] and st.status[p] == OPEN]


def unassigned(st: CosmicRunState) -> int:
    """How many dice are still unassigned."""
    return st.loc.count(UNASSIGNED)
