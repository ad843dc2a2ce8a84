"""Light per-game judgement for the bots: how good a position looks to one seat.

``value(view, seat)`` estimates the VP a seat will end with, from that seat's own view only. The
greedy bot maximises it one action ahead; the search uses it to score playouts it cuts short.
These are rules of thumb read off the game's public numbers, not the rules themselves: the
engine stays the only judge of what is legal and what happens.
"""

from __future__ import annotations

from collections.abc import Callable

from games.api import View
from games.cosmic_run import data as cr

Value = Callable[[View, int], float]

# --- Cosmic Run ----------------------------------------------------------------------------------

_CR_ALIEN_VP = {alien.id: alien.vp for alien in cr.ALIENS}
_CR_ABILITY_WORTH = {  # rough VP an ability is worth over the rest of a game
    cr.NAVIGATOR: 1.5,
    cr.REROLLER: 1.0,
    cr.TUNER: 1.0,
    cr.FLIPPER: 0.8,
    cr.MINER: 0.8,
    cr.PATRON: 1.0,
    cr.TINKERER: 0.8,
    cr.PROSPECTOR: 0.5,
    cr.ENVOY: 1.0,
    cr.SEER: 1.0,
    cr.SURVEYOR: 0.5,
    cr.SALVAGER: 0.8,
    cr.CARTOGRAPHER: 2.0,
}
_CR_ABILITY = {alien.id: alien.ability for alien in cr.ALIENS}
_CR_FACES = {alien.id: alien.faces for alien in cr.ALIENS}
_MEAN_TOKEN = sum(cr.INFODERE_VALUES) / len(cr.INFODERE_VALUES)


def _cr_pending_steps(view: View) -> tuple[list[float], float, float]:
    """Steps, crystals and alien VP the active seat's placed dice are heading for this turn.

    Complete sets count in full; a started set counts in part while dice are left to roll.
    """
    dice = view["dice"]
    left = sum(1 for d in dice if d["at"] is None)
    steps = [0.0] * 6
    counts: list[dict[int, int]] = [{} for _ in range(6)]
    crystals = 0.0
    on_card: dict[str, list[int]] = {}
    for die, info in enumerate(dice):
        at = info["at"]
        if at is None:
            continue
        if at == "T":
            crystals += 1
        elif at[0] == "P":
            planet = int(at[1:]) - 1
            value = info["value"]
            if planet == 5 and die == 5:
                steps[5] += value
            else:
                counts[planet][value] = counts[planet].get(value, 0) + 1
        else:
            on_card.setdefault(at, []).append(info["value"])
    steps[0] += counts[0].get(1, 0)
    for planet in range(1, 5):
        k = cr.SET_SIZE[planet]
        for count in counts[planet].values():
            steps[planet] += count // k
            if left:
                steps[planet] += 0.35 * (count % k) / k * min(1.0, left / (k - count % k))
    steps[5] += sum(1 for v in counts[5] if v)
    aliens = 0.0
    for slot, values in on_card.items():
        alien = view["row"][int(slot[1:]) - 1]
        if alien is None:
            continue
        worth = _CR_ALIEN_VP[alien] + _CR_ABILITY_WORTH[_CR_ABILITY[alien]]
        complete = len(values) == len(_CR_FACES[alien])
        aliens += worth if complete else (0.4 * worth if left else 0.0)
    return steps, crystals, aliens


def _cr_track_value(planet: int, pos: float, best_other: int, hits: int) -> float:
    length = cr.TRACK_LENGTH[planet]
    if pos >= length:
        return float(cr.DISCOVERER_VP[planet])
    progress = pos / length
    chance = progress * progress * (1.0 if pos >= best_other else 0.5) * (1.0 - 0.25 * hits)
    # Planet 6 scores by rank; a ship that has left the start is worth a few VP there.
    base = (3.0 * progress if pos > 0 else 0.0) if planet == 5 else cr.SPACE_VP[planet][int(pos)]
    return base + (cr.DISCOVERER_VP[planet] - base) * chance


def cosmic_run_value(view: View, seat: int) -> float:
    """Expected final VP of ``seat``, roughly."""
    me = view["seats"][seat]
    if view["is_over"]:
        return float(view["scores"][seat])
    value = float(me["vp"])
    for alien in me["aliens"]:
        value += _CR_ALIEN_VP[alien] + _CR_ABILITY_WORTH[_CR_ABILITY[alien]] * 0.5
    known = me["infodere"]
    value += sum(known) if known is not None else me["infodere_count"] * _MEAN_TOKEN
    pending = [0.0] * 6
    crystals = float(me["crystals"])
    if view["turn"] == seat and view["decision"] == "assign":
        pending, extra_crystals, alien_worth = _cr_pending_steps(view)
        crystals += extra_crystals
        value += alien_worth
    value += 0.6 * min(crystals, cr.MAX_CRYSTALS)
    players = view["players"]
    for planet, info in enumerate(view["planets"]):
        if info["status"] != "open":
            continue
        ships = info["ships"]
        others = [ships[s] for s in range(players) if s != seat]
        if view.get("solo") and info["drone"] is not None:
            others.append(info["drone"])
        best_other = max(others, default=0)
        pos = ships[seat] + pending[planet]
        value += _cr_track_value(planet, pos, best_other, info["hits"])
    return value


# --- Alien Artifacts ---------------------------------------------------------------------------


def alien_artifacts_value(view: View, seat: int) -> float:
    """Expected final VP of ``seat``: VP so far, built cards' end VP, and what is on the way."""
    if view["is_over"]:
        return float(view["scores"][seat])
    me = view["seats"][seat]
    value = float(me["vp"])
    for _card, side in me["empire"]:
        value += 4.0 if side == "logistic" else 2.0
        value += 1.0  # a built card also works for the rest of the game
    value += 1.0 * me["artifact_count"]
    rounds_left = max(0, view["rounds"] - view["round"]) + 1
    value += 0.3 * me["credits"] * min(1.0, rounds_left / 2)
    for project in me["projects"]:
        value += 0.7 * project["deposit"]  # five or so symbols build a card worth about 4 VP
    pending = view.get("pending") or {}
    if view["current_player"] == seat and pending.get("pay_action"):
        # Symbols being paid count before the payment is finished, so paying looks good.
        per_symbol = _AA_PAY_WORTH.get(pending["pay_action"], 0.5)
        value += per_symbol * pending.get("pay_value", 0)
    return value


_AA_PAY_WORTH = {"ship": 0.7, "tech": 0.7, "planet": 0.7, "trade": 0.3}


# --- fallback ------------------------------------------------------------------------------------


def score_value(view: View, seat: int) -> float:
    """For a game without its own heuristic: the public score."""
    return float(view["scores"][seat])


VALUES: dict[str, Value] = {
    "cosmic_run": cosmic_run_value,
    "alien_artifacts": alien_artifacts_value,
}


# How many actions a playout plays before the heuristic judges the position: about two turns.
# Random moves much further ahead than that say more about the dice than about the decision.
PLAYOUT_STEPS: dict[str, int | None] = {"cosmic_run": 20, "alien_artifacts": 30}


# VP that count as a clear lead in each game (how rewards squash a margin).
VALUE_SCALE: dict[str, float] = {"cosmic_run": 10.0, "alien_artifacts": 8.0}


def value_scale(game: str) -> float:
    return VALUE_SCALE.get(game, 10.0)


def playout_steps(game: str) -> int | None:
    return PLAYOUT_STEPS.get(game)


def value_function(game: str) -> Value:
    return VALUES.get(game, score_value)


def relative_value(value: Value, view: View, seat: int) -> float:
    """A seat's value minus the best opponent's (both judged from ``seat``'s view)."""
    mine = value(view, seat)
    players = view["players"]
    if players == 1:
        return mine
    return mine - max(value(view, other) for other in range(players) if other != seat)
