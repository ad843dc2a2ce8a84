"""Short human texts for Cosmic Run actions, e.g. "Put W4 (a 6) on planet 6"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.api import Action
from games.cosmic_run.codes import TARGET_INDEX, UNASSIGNED
from games.cosmic_run.data import (
    ALIEN_INDEX,
    ALIENS,
    BOOST_COST,
    DIE_NAMES,
    NUDGE_COST,
    REROLL_COST,
    YELLOW,
)
from games.cosmic_run.mechanics import ability_cost, boostable_planets

if TYPE_CHECKING:
    from games.cosmic_run.state import CosmicRunState

PLANET_WORDS = ("planet 1", "planet 2", "planet 3", "planet 4", "planet 5", "planet 6")
FREE_NAMES = ("Re-roller", "Tuner", "Flipper")


# Texts built once: labels are made for every legal action after every change.
_DIE_TEXT = tuple(
    tuple(
        f"{'the yellow die' if die == YELLOW else DIE_NAMES[die]} (a {value})" for value in range(7)
    )
    for die in range(6)
)
_FIXED_TARGETS = {"T": "your technology card (+1 crystal)"} | {
    f"P{planet}": f"planet {planet}" for planet in range(1, 7)
}


def die_text(st: CosmicRunState, die: int) -> str:
    return _DIE_TEXT[die][st.dice[die]]


def _target_text(st: CosmicRunState, target: str) -> str:
    text = _FIXED_TARGETS.get(target)
    if text is not None:
        return text
    alien = st.row[TARGET_INDEX[target] - 6]
    if alien < 0:
        return f"alien slot {target}"
    return f"{ALIENS[alien].name} ({target})"


def _price(st: CosmicRunState, free_kind: int, base: int) -> str:
    if st.free[free_kind]:
        return f"free: {FREE_NAMES[free_kind]}"
    cost = ability_cost(st, st.turn, base)
    return f"{cost} crystal{'s' if cost != 1 else ''}"


def label(st: CosmicRunState, action: Action) -> str:
    kind = action[0] if action else None
    if kind == "assign":
        die, target = action[1], action[2]
        text = f"Put {_DIE_TEXT[die][st.dice[die]]} on {_target_text(st, target)}"
        if die == YELLOW and target == "P6":
            unassigned = [d for d in range(6) if st.loc[d] == UNASSIGNED and d != YELLOW]
            text += ": ends rolling" + (f", {len(unassigned)} dice lost" if unassigned else "")
        return text
    if kind == "roll":
        left = st.loc.count(UNASSIGNED)
        return f"Roll the {left} unassigned {'die' if left == 1 else 'dice'}"
    if kind == "reroll":
        return f"Re-roll {die_text(st, action[1])} ({_price(st, 0, REROLL_COST)})"
    if kind == "nudge":
        die, delta = action[1], action[2]
        value = st.dice[die]
        return f"Nudge {die_text(st, die)} to {value + delta} ({_price(st, 1, NUDGE_COST)})"
    if kind == "flip":
        die = action[1]
        return f"Flip {die_text(st, die)} to {7 - st.dice[die]} ({_price(st, 2, 0)})"
    if kind == "boost":
        cost = ability_cost(st, st.turn, BOOST_COST)
        return f"Boost {PLANET_WORDS[int(action[1][1:]) - 1]}: +1 step ({cost} crystals)"
    if kind == "pass":
        return "No boost" if boostable_planets(st) else "Pass"
    if kind == "retire":
        alien = ALIENS[ALIEN_INDEX[action[1]]]
        incoming = st.retire_slot >= 0 and st.row[st.retire_slot] == ALIEN_INDEX[action[1]]
        whose = "the incoming " if incoming else ""
        vp = f"{alien.vp} VP"
        return f"Retire {whose}{alien.name} ({alien.id}, {vp}) to make room"
    return repr(action)
