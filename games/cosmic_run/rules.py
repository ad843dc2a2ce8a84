"""The Cosmic Run turn: the start of a game, phases 1-3, the Drone and the last turn (§2-§6).

Set-up is dealt by :mod:`.setup`, planets and the end are scored by :mod:`.scoring`. ``play``
applies one legal action and then resolves everything automatic (chance included) up
to the next decision, collecting public events on the way. Events never carry hidden values:
an Infodere pick-up names the space, not the token.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.api import Action, Event
from games.cosmic_run import setup
from games.cosmic_run.codes import (
    ASSIGN,
    BOOST,
    DRONE,
    FREE_FLIP,
    FREE_REROLL,
    FREE_TUNE,
    OPEN,
    RETIRE,
    SLOT0,
    TARGET_INDEX,
    TARGET_NAMES,
    TECH,
    UNASSIGNED,
)
from games.cosmic_run.data import (
    ALIEN_FACES,
    ALIEN_INDEX,
    ALIEN_VP,
    ALIENS,
    BOOST_COST,
    DRONE_STEPS,
    ENVOY,
    ENVOY_VP,
    FLIPPER,
    HITS_TO_DESTROY,
    MAX_CRYSTALS,
    MAX_HELD,
    MINER,
    MINER_CRYSTALS,
    MISS,
    NAVIGATES,
    NAVIGATOR_STEPS,
    NUDGE_COST,
    PATRON,
    PATRON_CRYSTALS,
    PROSPECTOR,
    PROSPECTOR_CRYSTALS,
    REROLL_COST,
    REROLLER,
    SALVAGER,
    SALVAGER_CRYSTALS_PER_LOST_DIE,
    STRIKE_CARDS,
    STRIKE_TARGETS,
    TOKEN_AT,
    TRACK_LENGTH,
    TUNER,
    YELLOW,
)
from games.cosmic_run.mechanics import (
    ability_cost,
    boostable_planets,
    dice_steps,
    holds,
    lost_dice,
)
from games.cosmic_run.scoring import game_over, score_planet

if TYPE_CHECKING:
    from games.cosmic_run.state import CosmicRunState


def start_game(st: CosmicRunState) -> list[Event]:
    """Begin a new game on a fresh state: the deal (:func:`.setup.deal`), then seat 0's first
    turn up to its first decision; returns the events."""
    events = setup.deal(st)
    start_turn(st, events)
    return events


# --- applying an action -------------------------------------------------------------------------


def play(st: CosmicRunState, action: Action) -> list[Event]:
    """Apply one legal action, then everything automatic up to the next decision; the events."""
    events: list[Event] = []
    kind = action[0]
    if kind == "assign":
        _assign(st, action[1], TARGET_INDEX[action[2]], events)
    elif kind == "roll":
        roll(st, events)
    elif kind == "reroll":
        _reroll(st, action[1], events)
    elif kind == "nudge":
        _nudge(st, action[1], action[2], events)
    elif kind == "flip":
        _flip(st, action[1], events)
    elif kind == "boost":
        planet = int(action[1][1:]) - 1
        seat = st.turn
        cost = ability_cost(st, seat, BOOST_COST)
        st.crystals[seat] -= cost
        events.append({"type": "boost", "seat": seat, "planet": planet + 1, "crystals": cost})
        _move_ships(st, planet, events)
    elif kind == "pass":
        events.append({"type": "no_boost", "seat": st.turn})
        _move_ships(st, -1, events)
    elif kind == "retire":
        _retire_for_room(st, ALIEN_INDEX[action[1]], events)
    return events


def _assign(st: CosmicRunState, die: int, target: int, events: list[Event]) -> None:
    st.loc[die] = target
    st.assigned_since_roll = True
    events.append(
        {
            "type": "assign",
            "seat": st.turn,
            "die": die,
            "value": st.dice[die],
            "to": TARGET_NAMES[target],
        }
    )
    if die == YELLOW and target == 5:
        left = [d for d in range(6) if st.loc[d] == UNASSIGNED]
        events.append({"type": "rolling_ends", "seat": st.turn, "lost": left})
        _end_phase2(st, events)
    elif UNASSIGNED not in st.loc:
        events.append({"type": "rolling_ends", "seat": st.turn, "lost": []})
        _end_phase2(st, events)


def roll(st: CosmicRunState, events: list[Event]) -> None:
    """Roll every unassigned die, in ascending die index (§2.2)."""
    die_roll = st.rng.die
    dice = st.dice
    loc = st.loc
    rolled = []
    for die in range(6):
        if loc[die] == UNASSIGNED:
            dice[die] = die_roll()
            rolled.append(die)
    st.assigned_since_roll = False
    events.append({"type": "roll", "seat": st.turn, "dice": rolled, "values": dice[:]})


def _pay_ability(st: CosmicRunState, free_kind: int, base_cost: int) -> int:
    """Use a free alien use if one is left, else pay crystals; returns the crystals paid."""
    if st.free[free_kind]:
        st.free[free_kind] -= 1
        return 0
    seat = st.turn
    cost = ability_cost(st, seat, base_cost)
    st.crystals[seat] -= cost
    return cost


def _reroll(st: CosmicRunState, die: int, events: list[Event]) -> None:
    paid = _pay_ability(st, FREE_REROLL, REROLL_COST)
    old = st.dice[die]
    st.dice[die] = st.rng.die()
    events.append(
        {
            "type": "reroll",
            "seat": st.turn,
            "die": die,
            "from": old,
            "value": st.dice[die],
            "crystals": paid,
        }
    )


def _nudge(st: CosmicRunState, die: int, delta: int, events: list[Event]) -> None:
    paid = _pay_ability(st, FREE_TUNE, NUDGE_COST)
    old = st.dice[die]
    st.dice[die] = old + delta
    events.append(
        {
            "type": "nudge",
            "seat": st.turn,
            "die": die,
            "from": old,
            "value": st.dice[die],
            "crystals": paid,
        }
    )


def _flip(st: CosmicRunState, die: int, events: list[Event]) -> None:
    st.free[FREE_FLIP] -= 1
    old = st.dice[die]
    st.dice[die] = 7 - old
    events.append(
        {
            "type": "flip",
            "seat": st.turn,
            "die": die,
            "from": old,
            "value": st.dice[die],
            "crystals": 0,
        }
    )


# --- the turn -----------------------------------------------------------------------------------


def start_turn(st: CosmicRunState, events: list[Event]) -> None:
    """Phase 1 (meteor or storm), then the start of phase 2 up to the first ASSIGN decision."""
    seat = st.turn
    events.append({"type": "turn", "seat": seat, "round": st.round})
    st.meteor_card = -1
    if OPEN in st.status:
        if not st.meteor_deck:
            _storm(st, events)
            return
        _meteor(st, events)
    # Phase 2 (§3.2.1).
    patrons = holds(st, seat, PATRON)
    if patrons:
        _gain_crystals(st, seat, PATRON_CRYSTALS * patrons, "patron", events)
    free = st.free
    free[FREE_REROLL] = holds(st, seat, REROLLER)
    free[FREE_TUNE] = holds(st, seat, TUNER)
    free[FREE_FLIP] = holds(st, seat, FLIPPER)
    loc = st.loc
    for die in range(6):
        loc[die] = UNASSIGNED
    st.phase = ASSIGN
    roll(st, events)


def _meteor(st: CosmicRunState, events: list[Event]) -> None:
    card = st.meteor_deck.pop()
    st.meteor_card = card
    if card == MISS:
        events.append({"type": "meteor", "card": "X", "planet": None, "hits": None})
        return
    card_id = STRIKE_CARDS[card][0]
    for planet in STRIKE_TARGETS[card]:
        if st.status[planet] == OPEN:
            st.hits[planet] += 1
            hits = st.hits[planet]
            events.append({"type": "meteor", "card": card_id, "planet": planet + 1, "hits": hits})
            if hits >= HITS_TO_DESTROY:
                score_planet(st, planet, None, events)
            return
    events.append({"type": "meteor", "card": card_id, "planet": None, "hits": None})


def _storm(st: CosmicRunState, events: list[Event]) -> None:
    events.append({"type": "storm"})
    st.final_round = True  # the game ends at once: no "last round" to announce
    for planet in range(6):
        if st.status[planet] == OPEN:
            score_planet(st, planet, None, events)
    game_over(st, events)


def _gain_crystals(
    st: CosmicRunState, seat: int, amount: int, source: str, events: list[Event]
) -> None:
    before = st.crystals[seat]
    after = min(MAX_CRYSTALS, before + amount)
    st.crystals[seat] = after
    events.append(
        {
            "type": "crystals",
            "seat": seat,
            "source": source,
            "gained": after - before,
            "returned": before + amount - after,
        }
    )


def _end_phase2(st: CosmicRunState, events: list[Event]) -> None:
    """Step 3a (crystals), then the BOOST decision or straight on to moving."""
    seat = st.turn
    on_tech = st.loc.count(TECH)
    gained = on_tech
    if on_tech:
        gained += MINER_CRYSTALS * holds(st, seat, MINER)
    salvagers = holds(st, seat, SALVAGER)
    if salvagers:
        gained += SALVAGER_CRYSTALS_PER_LOST_DIE * salvagers * lost_dice(st)
    if gained:
        _gain_crystals(st, seat, gained, "step 3a", events)
    if boostable_planets(st):
        st.phase = BOOST
        return
    _move_ships(st, -1, events)


def _move_ships(st: CosmicRunState, boosted: int, events: list[Event]) -> None:
    """Step 3c, then step 3d from the first slot."""
    seat = st.turn
    steps = dice_steps(st)
    for alien in st.held[seat]:
        planet = NAVIGATES[alien]
        if planet >= 0 and steps[planet]:
            steps[planet] += NAVIGATOR_STEPS
    if boosted >= 0:
        steps[boosted] += 1
    for planet in range(6):
        if steps[planet] and st.status[planet] == OPEN:
            _move(st, seat, planet, steps[planet], events)
    _recruit_from(st, 0, events)


def _move(st: CosmicRunState, seat: int, planet: int, steps: int, events: list[Event]) -> None:
    """Move one ship (a seat's, or the Drone's) forward; take a token or discover (§3.3.3)."""
    track = st.drone if seat == DRONE else st.pos[seat]
    start = track[planet]
    length = TRACK_LENGTH[planet]
    space = min(length, start + steps)
    track[planet] = space
    if planet == 5:
        if seat == DRONE:
            st.drone_stamp = st.next_stamp
        else:
            st.stamp[seat] = st.next_stamp
        st.next_stamp += 1
    who: Any = "drone" if seat == DRONE else seat
    events.append({"type": "move", "seat": who, "planet": planet + 1, "from": start, "to": space})
    if space == length:
        score_planet(st, planet, seat, events)
        return
    token = TOKEN_AT.get((planet, space))
    if token is not None and st.board_tokens[token] and seat != DRONE:
        st.tokens[seat].append(st.board_tokens[token])
        st.board_tokens[token] = 0
        events.append({"type": "infodere", "seat": seat, "planet": planet + 1, "space": space})
        prospectors = holds(st, seat, PROSPECTOR)
        if prospectors:
            _gain_crystals(st, seat, PROSPECTOR_CRYSTALS * prospectors, "prospector", events)


# --- step 3d: recruiting (§3.3.4) -----------------------------------------------------------------


def _recruit_from(st: CosmicRunState, first_slot: int, events: list[Event]) -> None:
    seat = st.turn
    loc = st.loc
    for slot in range(first_slot, 4):
        alien = st.row[slot]
        if alien < 0:
            continue
        on_card = loc.count(SLOT0 + slot)
        if on_card == 0 or on_card < len(ALIEN_FACES[alien]):
            continue
        if len(st.held[seat]) >= MAX_HELD:
            st.retire_slot = slot
            st.phase = RETIRE
            return
        _recruit(st, slot, -1, events)
    _end_turn(st, events)


def _retire_for_room(st: CosmicRunState, alien: int, events: list[Event]) -> None:
    slot = st.retire_slot
    st.retire_slot = -1
    st.phase = ASSIGN  # transient; _recruit_from sets what comes next
    _recruit(st, slot, alien, events)
    _recruit_from(st, slot + 1, events)


def _recruit(st: CosmicRunState, slot: int, retire: int, events: list[Event]) -> None:
    """Recruit the card in ``slot``, first retiring ``retire`` (-1: no retirement needed)."""
    seat = st.turn
    held = st.held[seat]
    incoming = st.row[slot]
    events.append(
        {"type": "recruit", "seat": seat, "alien": ALIENS[incoming].id, "slot": f"A{slot + 1}"}
    )
    if retire >= 0:
        if retire != incoming:
            held.remove(retire)
        st.retired.append(retire)
        st.vp[seat] += ALIEN_VP[retire]
        events.append(
            {"type": "retire", "seat": seat, "alien": ALIENS[retire].id, "vp": ALIEN_VP[retire]}
        )
    if retire != incoming:
        held.append(incoming)
    envoys = sum(1 for a in held if a != incoming and ALIENS[a].ability == ENVOY)
    if envoys:
        st.vp[seat] += ENVOY_VP * envoys
        events.append({"type": "envoy", "seat": seat, "vp": ENVOY_VP * envoys})
    if st.alien_deck:
        st.row[slot] = st.alien_deck.pop()
        events.append({"type": "refill", "slot": f"A{slot + 1}", "alien": ALIENS[st.row[slot]].id})
    else:
        st.row[slot] = -1
        events.append({"type": "refill", "slot": f"A{slot + 1}", "alien": None})


# --- step 3e and the end ------------------------------------------------------------------------


def _end_turn(st: CosmicRunState, events: list[Event]) -> None:
    seat = st.turn
    loc = st.loc
    for die in range(6):
        loc[die] = UNASSIGNED
    if st.solo and OPEN in st.status:
        _drone_step(st, events)
    if st.final_round and seat == st.n - 1:
        game_over(st, events)
        return
    st.turn = (seat + 1) % st.n
    if st.turn == 0:
        st.round += 1
    start_turn(st, events)


def _drone_step(st: CosmicRunState, events: list[Event]) -> None:
    """Solo: roll the red die and move the Drone on that planet or the next open one (§1.4)."""
    red = st.rng.die()
    planet = red - 1
    while st.status[planet] != OPEN:
        planet = (planet + 1) % 6
    events.append({"type": "drone_roll", "value": red, "planet": planet + 1})
    _move(st, DRONE, planet, DRONE_STEPS[planet], events)
