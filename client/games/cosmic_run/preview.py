"""What a Cosmic Run action will do, on one full state (see :mod:`client.games.preview`)."""

from __future__ import annotations

from typing import Any

from client.games.outcome import Outcome
from client.text.wording import listing, plural, signed
from games.cosmic_run import data as cr
from games.cosmic_run.codes import BOOST, RETIRE, SLOT0, TARGET_INDEX, TECH
from games.cosmic_run.mechanics import dice_steps, holds, unfilled_faces

# Events after which play is no longer the seat's own turn: what follows (the next meteor, the
# Drone's roll) is not what the action did.
_CR_CUT = frozenset({"turn", "drone_roll", "storm", "game_over"})


def observe(st: Any, action: tuple[Any, ...], seat: int) -> Outcome:
    after = st.clone()
    events = after.apply(action)
    out = Outcome()
    numbers = out.numbers
    moves: dict[int, int] = {}
    discovered: list[int] = []
    recruited: list[str] = []
    retired: list[str] = []
    rolling_ended = False

    def add(key: str, value: int) -> None:
        numbers[key] = numbers.get(key, 0) + value

    for event in events:
        kind = event["type"]
        if kind in _CR_CUT:
            if kind == "game_over":
                out.notes.append("ends the game")
            elif kind != "storm":
                out.notes.append("ends your turn")
            break
        mine = event.get("seat") == seat
        if kind == "planet_scored":
            add("vp", event["vp"][seat])
            out.shown.add("vp")
            if event["by"] == seat:
                discovered.append(event["planet"])
        elif kind == "move" and mine:
            moves[event["planet"]] = event["to"]
        elif kind == "crystals" and mine:
            add("crystals", event["gained"])
        elif kind in ("boost", "reroll", "nudge") and mine:
            add("crystals", -event["crystals"])
            if kind == "reroll":
                out.notes.append(f"re-roll {cr.DIE_NAMES[event['die']]}")
        elif kind == "infodere" and mine:
            add("tokens", 1)
        elif kind == "recruit" and mine:
            recruited.append(_alien_name(event["alien"]))
        elif kind == "retire" and mine:
            retired.append(_alien_name(event["alien"]))
            add("vp", event["vp"])
        elif kind == "envoy" and mine:
            add("vp", event["vp"])
        elif kind == "roll" and mine:
            add("dice", len(event["dice"]))
        elif kind == "rolling_ends":
            lost = len(event["lost"])
            out.first.append(
                "ends rolling" + (f": {plural(lost, 'die', 'dice')} lost" if lost else "")
            )
            rolling_ended = True
        elif kind == "last_round":
            out.notes.append("starts the last round")
    for planet, space in sorted(moves.items()):
        if planet in discovered:
            text = f"discover planet {planet}"
        else:
            text = f"ship to space {space} on P{planet}"
        out.items[f"ship P{planet}"] = (text, "")
    for name in retired:
        if name in recruited:  # the incoming alien itself went straight to the retired pile
            recruited.remove(name)
    if retired:
        out.items["retire"] = ("retire " + listing(retired), "")
    if recruited:
        out.items["recruit"] = ("recruit " + listing(recruited), "")
    if after.current_player == seat and after.phase == BOOST:
        out.notes.append("then you may boost")
    elif after.current_player == seat and after.phase == RETIRE:
        out.notes.append(f"then retire an alien (you may hold {cr.MAX_HELD})")
    if action and action[0] == "assign" and not rolling_ended:
        out.first.extend(_cr_projection(out, st, after, action, seat))
    return out


def _alien_name(alien_id: str) -> str:
    index = cr.ALIEN_INDEX.get(alien_id)
    return alien_id if index is None else cr.ALIENS[index].name


def _cr_projection(
    out: Outcome, before: Any, after: Any, action: tuple[Any, ...], seat: int
) -> list[str]:
    """What a die placed now will do once rolling ends (the dice as placed so far, plus it)."""
    die, target = action[1], TARGET_INDEX[action[2]]
    value = after.dice[die]
    if target < 6:
        planet = target
        old, new = dice_steps(before)[planet], dice_steps(after)[planet]
        if new > old:
            out.projected[f"ship P{planet + 1}"] = projected_ship(after, seat, planet, new)
            return [_step_text(after, seat, planet, new, new - old)]
        if 1 <= planet <= 4:
            size = cr.SET_SIZE[planet]
            same = sum(1 for d in range(6) if after.loc[d] == planet and after.dice[d] == value)
            return [f"no step yet (P{planet + 1}: {same % size} of {size} equal dice)"]
        if planet == 5:
            return [f"no step: P6 already has a {value}"]
        return []
    if target == TECH:
        return [_tech_text(before, after, seat)]
    slot = target - SLOT0
    alien = cr.ALIENS[after.row[slot]]
    left = unfilled_faces(after, slot)
    if not left:
        text = f"recruit {alien.name} this turn"
        if len(after.held[seat]) >= cr.MAX_HELD:
            text += f" (you hold {cr.MAX_HELD}: retire one)"
        return [text]
    faces = " ".join(str(f) for f in left)
    return [f"{alien.name}: {plural(len(left), 'more die', 'more dice')} to recruit ({faces})"]


def projected_ship(st: Any, seat: int, planet: int, steps: int) -> int:
    """The space ``seat``'s ship on ``planet`` (0-based) reaches with ``steps`` dice steps."""
    if steps:
        steps += cr.NAVIGATOR_STEPS * sum(1 for a in st.held[seat] if cr.NAVIGATES[a] == planet)
    return min(cr.TRACK_LENGTH[planet], st.pos[seat][planet] + steps)


def _step_text(st: Any, seat: int, planet: int, steps: int, gained: int) -> str:
    space = projected_ship(st, seat, planet, steps)
    text = f"+{plural(gained, 'step')} on P{planet + 1} when rolling ends"
    if space >= cr.TRACK_LENGTH[planet]:
        vp = cr.DISCOVERER_VP[planet] + cr.CARTOGRAPHER_VP * holds(st, seat, cr.CARTOGRAPHER)
        return f"{text} (reaches the planet: +{vp} VP)"
    return f"{text} (ship to space {space})"


def _tech_text(before: Any, after: Any, seat: int) -> str:
    miners = cr.MINER_CRYSTALS * holds(after, seat, cr.MINER)
    held = after.crystals[seat]

    def gain(on_tech: int) -> int:
        total = held + on_tech + (miners if on_tech else 0)
        return min(cr.MAX_CRYSTALS, total) - held

    more = gain(after.loc.count(TECH)) - gain(before.loc.count(TECH))
    if not more and held + 1 > cr.MAX_CRYSTALS:
        return f"+0 crystals when rolling ends (you hold the most, {cr.MAX_CRYSTALS})"
    return f"{signed(more, 'crystal')} when rolling ends"
