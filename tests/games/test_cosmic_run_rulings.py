"""One scenario test per ruling of §9 "Edge cases and clarifications" of the Cosmic Run spec.

Each test names its item (§9.n). Positions are built with ``cr_helpers``; everything after the
set-up goes through the public ``apply`` / ``legal_actions``.
"""

from __future__ import annotations

import random

import pytest
from cr_helpers import (
    alien,
    at_roll,
    calm,
    give,
    ids,
    new,
    next_card,
    of_type,
    pass_turn,
    put,
    tech,
    touch,
    turn,
    types,
)

from games.api import IllegalAction
from games.cosmic_run.codes import ASSIGN, BOOST, DESTROYED, DISCOVERED, OPEN, RETIRE
from games.cosmic_run.data import METEOR_INDEX, TOKEN_AT

ABILITY_KINDS = ("reroll", "nudge", "flip")


def _targets(state, die=None):
    """Targets offered to ``die`` (or to any die) by the legal list."""
    return {
        a[2] for a in state.legal_actions() if a[0] == "assign" and (die is None or a[1] == die)
    }


def _ability_dice(state):
    return {a[1] for a in state.legal_actions() if a[0] in ABILITY_KINDS}


def _gained(state, before):
    return [state.vp[s] - before[s] for s in range(state.n)]


# --- phase 2: the dice ------------------------------------------------------------------------


def test_yellow_on_p6_with_dice_left_loses_them():  # §9.1
    state = at_roll(new(), [3, 3, 3, 5, 2, 4], row=[None] * 4)
    give(state, 0, "A27")  # a Salvager: the dice left unassigned must not count for it
    state.crystals[0] = 0
    calm(state)
    events = put(state, (3, "P2"), (4, "P6"))
    assert state.phase == ASSIGN and state.turn == 0
    events += state.apply(("assign", 5, "P6"))
    assert of_type(events, "rolling_ends") == [
        {"type": "rolling_ends", "seat": 0, "lost": [0, 1, 2]}
    ]
    assert state.turn == 1  # phase 2 ended at once, phase 3 ran, seat 1 plays
    assert state.pos[0][5] == 1 + 4  # one white value + 4 pips; the three 3s give nothing
    assert state.pos[0][1] == 0 and state.pos[0][2] == 0
    assert state.crystals[0] == 1  # the Salvager pays only for the lone 5 on P2


def test_yellow_cannot_go_to_closed_p6_and_is_a_normal_die():  # §9.2
    state = at_roll(new(), [2, 3, 4, 5, 6, 2], row=[None] * 4)
    state.status[5] = DISCOVERED
    touch(state)
    assert ("assign", 5, "P6") not in state.legal_actions()
    assert _targets(state, 5) == {"P2", "P3", "P4", "P5", "T"}
    put(state, (5, "P2"))
    assert state.phase == ASSIGN and state.turn == 0  # Y elsewhere does not end phase 2
    calm(state)
    turn(state, (0, "P2"), *tech(1, 2, 3, 4))
    assert state.pos[0][1] == 1  # Y (2) and W1 (2) make a pair


def test_yellow_showing_1_goes_to_p1_for_one_step():  # §9.3
    state = at_roll(new(), [6, 6, 6, 6, 6, 1], row=[None] * 4)
    assert "P1" in _targets(state, 5) and "P1" not in _targets(state, 0)
    calm(state)
    turn(state, (5, "P1"), *tech(0, 1, 2, 3, 4))
    assert state.pos[0][0] == 1


def test_yellow_on_p2_to_p5_counts_like_a_white_die_in_sets():  # §9.4
    state = at_roll(new(), [4, 2, 3, 5, 6, 4], row=[None] * 4)
    calm(state)
    turn(state, (0, "P2"), (5, "P2"), *tech(1, 2, 3, 4))
    assert state.pos[0][1] == 1  # white 4 + yellow 4 = a pair
    state = at_roll(new(), [3, 3, 1, 2, 5, 3], row=[None] * 4)
    calm(state)
    turn(state, (0, "P3"), (1, "P3"), (5, "P3"), *tech(2, 3, 4))
    assert state.pos[0][2] == 1  # two white 3s + yellow 3 = three of a kind


def test_duplicate_white_values_on_p6_give_nothing_extra():  # §9.5
    state = at_roll(new(), [2, 2, 5, 1, 3, 4], row=[None] * 4)
    put(state, (0, "P6"))
    assert ("assign", 1, "P6") in state.legal_actions()  # a repeated value is still legal
    calm(state)
    turn(state, (1, "P6"), (2, "P6"), (3, "T"), (4, "T"), (5, "P6"))
    assert state.pos[0][5] == 2 + 4  # white 2, 2, 5 -> 2 values; Y shows 4
    state = at_roll(new(), [4, 1, 2, 3, 5, 4], row=[None] * 4)
    calm(state)
    turn(state, (0, "P6"), *tech(1, 2, 3, 4), (5, "P6"))
    assert state.pos[0][5] == 1 + 4  # Y's value does not hide the white 4


def test_white_dice_on_p6_add_up_over_several_rolls():  # §9.6
    state = at_roll(new(), [3, 2, 2, 2, 2, 2], later=[2, 2, 2, 2, 2, 5, 6, 6, 1], row=[None] * 4)
    put(state, (0, "P6"))  # roll 1: a white 3
    state.apply(("roll",))
    put(state, (1, "T"))  # roll 2: nothing for P6
    state.apply(("roll",))
    assert state.dice[2] == 5
    calm(state)
    turn(state, (2, "P6"), *tech(3, 4, 5))  # roll 3: a white 5
    assert state.pos[0][5] == 2


@pytest.mark.parametrize(
    ("dice", "planet", "on_planet", "steps", "lost"),
    [
        ([6, 6, 6, 6, 1, 2], "P2", 4, 2, 0),  # four 6s on P2
        ([3, 3, 5, 5, 1, 2], "P2", 4, 2, 0),  # 3, 3, 5, 5 on P2
        ([4, 4, 4, 1, 2, 3], "P2", 3, 1, 1),  # three 4s on P2: one die lost
        ([6, 6, 6, 6, 6, 6], "P3", 6, 2, 0),  # six equal dice on P3
    ],
)
def test_several_sets_on_one_planet(dice, planet, on_planet, steps, lost):  # §9.7
    state = at_roll(new(), dice, row=[None] * 4)
    give(state, 0, "A28")  # a Salvager shows how many dice were lost
    state.crystals[0] = 0
    calm(state)
    index = int(planet[1]) - 1
    turn(state, *[(d, planet) for d in range(on_planet)], *tech(*range(on_planet, 6)))
    assert state.pos[0][index] == steps
    assert state.crystals[0] == (6 - on_planet) + lost


def test_p5_with_six_equal_dice_is_one_step_and_one_lost_die():  # §9.8
    state = at_roll(new(), [2] * 6, row=[None] * 4)
    give(state, 0, "A28")
    state.crystals[0] = 0
    calm(state)
    turn(state, *[(d, "P5") for d in range(6)])
    assert state.pos[0][4] == 1
    assert state.crystals[0] == 1  # the sixth die was lost (Salvager +1)


def test_a_started_set_may_be_abandoned_without_penalty():  # §9.9
    state = at_roll(new(), [5, 5, 5, 1, 2, 3], later=[4, 6, 6], row=[None] * 4)
    state.crystals[0] = 0
    vp = state.vp[:]
    put(state, (0, "P4"), (1, "P4"), (2, "P4"))  # hoping for a fourth 5
    state.apply(("roll",))
    assert state.dice[3:] == [4, 6, 6]
    calm(state)
    turn(state, *tech(3, 4, 5))
    assert state.pos[0][3] == 0 and state.vp == vp and state.crystals[0] == 3
    assert state.turn == 1


def test_p1_takes_only_ones_and_a_die_nudged_or_flipped_to_1_counts():  # §9.10
    state = at_roll(new(), [2, 6, 3, 4, 5, 5], row=[None] * 4, free=(0, 0, 1))
    give(state, 0, "A11")  # Flipper
    state.crystals[0] = 2
    touch(state)
    assert "P1" not in _targets(state)
    state.apply(("nudge", 0, -1))
    assert state.dice[0] == 1 and state.crystals[0] == 0
    assert ("assign", 0, "P1") in state.legal_actions()
    state.apply(("flip", 1))
    assert state.dice[1] == 1
    calm(state)
    turn(state, (0, "P1"), (1, "P1"), *tech(2, 3, 4, 5))
    assert state.pos[0][0] == 2


def test_nudge_and_flip_never_wrap():  # §9.11
    state = at_roll(new(), [1, 6, 2, 5, 3, 4])
    state.crystals[0] = 5
    touch(state)
    nudges = {(a[1], a[2]) for a in state.legal_actions() if a[0] == "nudge"}
    assert (0, -1) not in nudges and (0, 1) in nudges  # a 1 cannot become a 6
    assert (1, 1) not in nudges and (1, -1) in nudges  # a 6 cannot become a 1
    with pytest.raises(IllegalAction):
        state.apply(("nudge", 1, 1))
    assert state.dice[1] == 6 and state.crystals[0] == 5
    for value, opposite in [(1, 6), (6, 1), (2, 5), (5, 2), (3, 4), (4, 3)]:
        state = at_roll(new(), [value, 1, 1, 1, 1, 1], free=(0, 0, 1))
        state.apply(("flip", 0))
        assert state.dice[0] == opposite


def test_abilities_never_touch_assigned_dice_nor_work_after_phase_2():  # §9.12
    state = at_roll(new(), [2, 2, 3, 4, 5, 6], row=[None] * 4, free=(1, 1, 1))
    state.crystals[0] = 5
    touch(state)
    assert 0 in _ability_dice(state)
    put(state, (0, "P2"))
    assert 0 not in _ability_dice(state) and 1 in _ability_dice(state)
    for action in [("reroll", 0), ("nudge", 0, 1), ("flip", 0)]:
        with pytest.raises(IllegalAction):
            state.apply(action)
    assert state.dice[0] == 2
    put(state, (1, "P2"), *tech(2, 3, 4, 5))
    assert state.phase == BOOST  # phase 2 is over
    assert state.legal_actions() == [("boost", "P2"), ("pass",)]
    for action in [("reroll", 5), ("nudge", 5, -1), ("flip", 5)]:
        with pytest.raises(IllegalAction):
            state.apply(action)


def test_abilities_do_not_meet_the_assign_duty():  # §9.13
    state = at_roll(new(), [2, 3, 4, 5, 6, 1], later=[4] * 10, free=(0, 0, 1))
    state.crystals[0] = 5
    touch(state)
    assert ("roll",) not in state.legal_actions()
    state.apply(("reroll", 0))
    state.apply(("nudge", 1, 1))
    state.apply(("flip", 5))
    assert ("roll",) not in state.legal_actions()
    with pytest.raises(IllegalAction):
        state.apply(("roll",))
    put(state, (3, "T"))
    assert ("roll",) in state.legal_actions()
    state.apply(("roll",))
    state.apply(("reroll", 0))
    assert ("roll",) not in state.legal_actions()


def test_you_cannot_stop_rolling_and_the_technology_card_always_accepts():  # §9.14
    state = at_roll(new(), [1, 2, 3, 4, 5, 6], later=[6] * 30, row=[None] * 4)
    state.crystals[0] = 0
    calm(state)
    rolls = 0
    for _ in range(6):
        assert state.phase == ASSIGN and state.turn == 0
        legal = state.legal_actions()
        assert {a[0] for a in legal} <= {"assign", "roll"}  # no way to end phase 2 early
        listed = {a[1] for a in legal if a[0] == "assign"}
        assert all(("assign", die, "T") in legal for die in listed)
        state.apply(("assign", min(listed), "T"))
        if state.turn == 0:
            state.apply(("roll",))
            rolls += 1
    assert rolls == 5 and state.turn == 1  # one die per roll: six rolls, then phase 3


def test_technology_card_at_5_crystals_still_accepts_and_excess_returns():  # §9.15
    state = at_roll(new(), [1, 2, 3, 4, 5, 6], row=[None] * 4)
    state.crystals[0] = 5
    touch(state)
    assert all(("assign", d, "T") in state.legal_actions() for d in range(6))
    calm(state)
    events = turn(state, *tech(0, 1, 2, 3, 4, 5))
    assert state.crystals[0] == 5
    step_3a = [e for e in of_type(events, "crystals") if e["seat"] == 0]
    assert step_3a == [
        {"type": "crystals", "seat": 0, "source": "step 3a", "gained": 0, "returned": 6}
    ]


def test_technology_crystals_cannot_pay_phase_2_but_pay_boost():  # §9.16
    state = at_roll(new(), [3, 3, 1, 6, 6, 6], row=[None] * 4)
    state.crystals[0] = 0
    put(state, (3, "T"), (4, "T"), (5, "T"))
    assert not {a[0] for a in state.legal_actions()} & {"reroll", "nudge"}
    put(state, (0, "P2"), (1, "P2"), (2, "P1"))
    assert state.phase == BOOST
    assert state.legal_actions() == [("boost", "P1"), ("boost", "P2"), ("pass",)]
    calm(state)
    state.apply(("boost", "P2"))
    assert state.pos[0][:2] == [1, 2] and state.crystals[0] == 0


def test_boost_needs_a_dice_step_and_happens_once():  # §9.17
    state = at_roll(new(), [4, 4, 4, 1, 2, 6], row=[None] * 4)
    give(state, 0, "A02")  # Navigator P2: no dice step on P2, so no bonus and no Boost there
    give(state, 0, "A14")  # Tinkerer: Boost costs 2, so a second one would be affordable
    state.crystals[0] = 5
    calm(state)
    put(state, (0, "P3"), (1, "P3"), (2, "P3"), (3, "P2"), (4, "P2"), (5, "T"))
    assert state.legal_actions() == [("boost", "P3"), ("pass",)]
    events = state.apply(("boost", "P3"))
    assert len(of_type(events, "boost")) == 1 and state.turn == 1  # no second Boost decision
    assert state.pos[0][1] == 0 and state.pos[0][2] == 2
    assert state.crystals[0] == 3  # 5 (limit) - 2


def test_navigator_gives_exactly_one_step_on_its_own_planet_with_a_dice_step():  # §9.18
    state = at_roll(new(), [5, 5, 3, 3, 3, 1], row=[None] * 4)
    give(state, 0, "A02")  # Navigator P2
    state.crystals[0] = 0
    calm(state)
    turn(state, (0, "P2"), (1, "P2"), (2, "P3"), (3, "P3"), (4, "P3"), (5, "T"))
    assert state.pos[0][1] == 2 and state.pos[0][2] == 1  # P2 1 + 1; P3 unchanged
    state = at_roll(new(), [1, 2, 3, 4, 5, 6], row=[None] * 4)
    give(state, 0, "A02")
    state.crystals[0] = 0
    calm(state)
    turn(state, (0, "P1"), (1, "P2"), *tech(2, 3, 4, 5))  # a lone die on P2: no dice step
    assert state.pos[0][0] == 1 and state.pos[0][1] == 0


def test_overshooting_stops_on_the_planet_and_extra_steps_are_lost():  # §9.19
    state = at_roll(new(), [2, 2, 2, 5, 5, 5], row=[None] * 4)
    state.pos[0][2] = 4
    vp = state.vp[0]
    calm(state)
    events = turn(state, *[(d, "P3") for d in range(6)])  # two triples: 2 steps, 1 needed
    move = [e for e in of_type(events, "move") if e["seat"] == 0]
    assert [(m["planet"], m["from"], m["to"]) for m in move] == [(3, 4, 5)]
    assert state.status[2] == DISCOVERED and state.vp[0] == vp + 9


def test_one_scoring_at_a_time_in_planet_order():  # §9.20
    state = at_roll(new(), [1, 2, 3, 4, 5, 6], row=[None] * 4)
    state.status[1:5] = [DISCOVERED] * 4
    state.pos[0][0] = 15
    state.pos[0][5] = 35
    touch(state)
    events = turn(state, (0, "P1"), (1, "P6"), (2, "P6"), (3, "P6"), (4, "P6"), (5, "P6"))
    order = [
        (e["type"], e.get("planet"))
        for e in events[: types(events).index("turn")]
        if e["type"] in ("move", "planet_scored", "last_round")
    ]
    # P1 is scored (and the end check finds P6 still open) before the P6 ship moves.
    assert order == [
        ("move", 1),
        ("planet_scored", 1),
        ("move", 6),
        ("planet_scored", 6),
        ("last_round", None),
    ]


def test_last_planet_closing_in_phase_3_still_finishes_recruits_then_the_round():  # §9.21
    state = at_roll(new(), [1, 6, 2, 2, 2, 2], row=["A07", None, None, None])
    state.status[1:] = [DISCOVERED] * 5
    state.pos[0][0] = 15
    give(state, 0, "A01", "A02", "A03", "A04", "A05")
    vp = state.vp[0]
    events = turn(state, (0, "P1"), (1, "A1"), *tech(2, 3, 4, 5))
    assert "last_round" in types(events)
    assert state.phase == RETIRE and state.turn == 0  # step 3d goes on, with its decision
    assert [a[1] for a in state.legal_actions()] == ["A01", "A02", "A03", "A04", "A05", "A07"]
    state.apply(("retire", "A01"))
    assert state.vp[0] == vp + 10 + 2 and "A07" in ids(state.held[0])
    assert not state.is_over and state.turn == 1  # seat 1 still plays its turn
    assert _targets(state) <= {"A1", "A2", "A3", "A4", "T"}


def test_last_planet_destroyed_in_phase_1_still_plays_phases_2_and_3():  # §9.22
    state = at_roll(new(), [6] * 6, row=["A07", "A08", "A09", "A10"])
    state.status = [DISCOVERED, DISCOVERED, OPEN, DISCOVERED, DISCOVERED, DISCOVERED]
    state.hits[2] = 2
    events = pass_turn(state, card="M03")  # 3-5-2: the third hit on P3 in seat 1's phase 1
    assert state.status[2] == DESTROYED and "last_round" in types(events)
    assert state.turn == 1 and state.phase == ASSIGN and not state.is_over
    assert "T" in _targets(state) and _targets(state) <= {"A1", "A2", "A3", "A4", "T"}
    at_roll(state, [6, 1, 1, 1, 1, 1], row=["A07", "A08", "A09", "A10"])
    state.crystals[1] = 2
    events = turn(state, (0, "A1"), *tech(1, 2, 3, 4, 5))
    assert "A07" in ids(state.held[1]) and state.crystals[1] == 5  # phase 3 was carried out
    assert state.is_over  # seat 1 was the last seat of the round


def test_storm_ends_the_game_at_once_without_phase_2_or_3():  # §9.23
    state = at_roll(new(), [6] * 6, row=[None] * 4)
    state.pos[1][0] = 4  # 1 VP on P1
    state.meteor_deck.clear()
    vp = state.vp[:]
    events = turn(state, *tech(0, 1, 2, 3, 4, 5))
    after = types(events)[types(events).index("turn") :]
    assert after == ["turn", "storm", *["planet_scored"] * 6, "game_over"]
    assert state.is_over and state.status == [DESTROYED] * 6
    assert _gained(state, vp) == [0, 1]


def test_meteor_card_with_all_numbers_closed_hits_nothing_and_is_removed():  # §9.24
    state = at_roll(new(), [6] * 6, row=[None] * 4)
    state.status[0] = state.status[2] = state.status[3] = DISCOVERED  # M09 is 3-1-4
    next_card(state, "M09")
    hits = state.hits[:]
    left = len(state.meteor_deck)
    events = turn(state, *tech(0, 1, 2, 3, 4, 5))
    assert of_type(events, "meteor") == [
        {"type": "meteor", "card": "M09", "planet": None, "hits": None}
    ]
    assert state.hits == hits and len(state.meteor_deck) == left - 1
    assert METEOR_INDEX["M09"] not in state.meteor_deck


def test_third_meteor_destroys_a_planet_a_ship_could_have_reached():  # §9.25
    state = at_roll(new(), [6] * 6, row=[None] * 4)
    state.pos[1][4] = 1  # seat 1 needs one five of a kind to discover P5
    state.hits[4] = 2
    vp = state.vp[:]
    pass_turn(state, card="M05")  # 5-1-4, turned over at the start of seat 1's turn
    assert state.status[4] == DESTROYED and state.turn == 1
    assert _gained(state, vp) == [0, 4] and state.discovered == [0, 0]
    assert "P5" not in _targets(state)


def test_destroyed_planet_scores_by_position_surveyor_yes_cartographer_no():  # §9.26
    state = at_roll(new(), [6] * 6, row=[None] * 4)
    give(state, 0, "A29", "A18")  # Cartographer, Surveyor
    give(state, 1, "A30")  # Cartographer
    state.pos[0][1] = 8  # 4 VP
    state.pos[1][1] = 5  # 2 VP
    state.hits[1] = 2
    vp = state.vp[:]
    events = pass_turn(state, card="M02")  # 2-4-1
    scored = of_type(events, "planet_scored")
    assert [(e["planet"], e["how"], e["by"]) for e in scored] == [(2, "destroyed", None)]
    assert _gained(state, vp) == [4 + 1, 2]  # no discoverer VP, no Cartographer
    assert state.discovered == [0, 0]


def test_ties_on_p1_to_p5_score_the_same():  # §9.27
    state = at_roll(new(players=3), [1, 6, 6, 6, 6, 6], row=[None] * 4)
    state.pos[0][0] = 15
    state.pos[1][0] = state.pos[2][0] = 10  # 3 VP each
    vp = state.vp[:]
    calm(state)
    turn(state, (0, "P1"), *tech(1, 2, 3, 4, 5))
    assert _gained(state, vp) == [10, 3, 3]


def test_tie_on_p6_the_ship_lower_in_the_stack_is_ahead():  # §9.27
    state = at_roll(new(players=3), [2, 3, 6, 6, 6, 6], seat=1, row=[None] * 4)
    state.pos[0][5] = 39
    state.pos[1][5] = 18
    state.pos[2][5] = 20
    calm(state)
    turn(state, (0, "P6"), (1, "P6"), *tech(2, 3, 4, 5))  # seat 1 lands on seat 2's space
    assert state.pos[1][5] == 20 and state.view(None)["p6_order"] == [0, 2, 1]
    pass_turn(state, next_roll=[1, 6, 6, 6, 6, 6])  # seat 2's turn
    vp = state.vp[:]
    calm(state)
    turn(state, (0, "P6"), *tech(1, 2, 3, 4, 5))  # seat 0 discovers P6
    assert state.status[5] == DISCOVERED
    assert _gained(state, vp) == [18, 2, 5]  # seat 2 arrived first: lower, so ahead


def test_ships_on_the_start_space_score_0_and_take_no_rank():  # §9.28
    state = at_roll(new(players=4), [1, 6, 6, 6, 6, 6], row=[None] * 4)
    state.pos[0][5] = 39
    state.pos[1][5], state.pos[2][5], state.pos[3][5] = 0, 3, 2
    state.pos[1][0] = 0
    state.pos[2][0] = 4
    state.hits[0] = 2
    vp = state.vp[:]
    calm(state)
    turn(state, (0, "P6"), *tech(1, 2, 3, 4, 5))
    assert _gained(state, vp) == [18, 0, 5, 2]  # seat 1 on the start space skips the ranks
    vp = state.vp[:]
    pass_turn(state, card="M01")  # 1-3-6: P1 destroyed in seat 2's phase 1
    assert state.status[0] == DESTROYED
    assert _gained(state, vp) == [0, 0, 1, 0]


def test_a_ship_reaching_the_planet_takes_no_token_it_passes():  # §9.29
    state = at_roll(new(), [1, 2, 3, 4, 5, 6], row=[None] * 4)
    state.pos[0][5] = 30
    calm(state)
    events = turn(state, *[(d, "P6") for d in range(6)])  # 5 values + 6 pips = 11 steps
    assert state.status[5] == DISCOVERED and state.pos[0][5] == 40
    assert state.tokens[0] == [] and not of_type(events, "infodere")
    assert state.board_tokens[TOKEN_AT[(5, 32)]] == 0  # passed token went to the box


def test_an_emptied_token_space_stays_empty():  # §9.30
    state = at_roll(new(), [4, 4, 1, 1, 1, 1], row=[None] * 4)
    state.pos[0][1] = 2
    calm(state)
    turn(state, (0, "P2"), (1, "P2"), *tech(2, 3, 4, 5))
    assert state.pos[0][1] == 3 and len(state.tokens[0]) == 1
    assert state.board_tokens[TOKEN_AT[(1, 3)]] == 0
    at_roll(state, [5, 5, 6, 6, 6, 6], seat=1, row=[None] * 4)
    state.pos[1][1] = 2
    calm(state)
    events = turn(state, (0, "P2"), (1, "P2"), *tech(2, 3, 4, 5))
    assert state.pos[1][1] == 3 and state.tokens[1] == []
    assert not of_type(events, "infodere")


# --- aliens ------------------------------------------------------------------------------------


def test_two_dice_on_one_alien_card_in_one_roll():  # §9.31
    state = at_roll(new(), [4, 4, 1, 2, 3, 5], row=["A04", None, None, None])
    put(state, (0, "A1"))
    assert ("assign", 1, "A1") in state.legal_actions()
    calm(state)
    events = turn(state, (1, "A1"), *tech(2, 3, 4, 5))
    assert [e["alien"] for e in of_type(events, "recruit")] == ["A04"]
    assert ids(state.held[0]) == ["A04"]


def test_alien_card_accepts_only_its_unfilled_faces():  # §9.32
    state = at_roll(new(), [2, 2, 3, 4, 4, 6], row=["A19", "A04", None, None])
    put(state, (0, "A1"))  # A19 is [2, 3] and now holds a 2
    assert ("assign", 1, "A1") not in state.legal_actions()
    assert ("assign", 2, "A1") in state.legal_actions()
    put(state, (3, "A2"))  # A04 is [4, 4] and now holds one 4
    assert ("assign", 4, "A2") in state.legal_actions()
    assert _targets(state, 5) == {"P2", "P3", "P4", "P5", "P6", "T"}  # a 6 fits neither


def test_three_card_limit_counts_cards_not_dice():  # §9.33
    state = at_roll(new(), [4, 4, 6, 2, 1, 5], row=["A04", "A07", "A19", "A09"])
    put(state, (0, "A1"), (1, "A1"), (2, "A2"))  # three dice, two cards
    assert ("assign", 4, "A4") in state.legal_actions()
    put(state, (3, "A3"))  # third card, still incomplete (A19 wants a 3)
    assert ("assign", 4, "A4") not in state.legal_actions()
    assert not {t for t in _targets(state) if t.startswith("A")} - {"A1", "A2", "A3"}
    calm(state)
    turn(state, *tech(4, 5))
    assert ids(state.held[0]) == ["A04", "A07"]


def test_two_recruits_with_a_full_hand_ask_two_retire_decisions_in_slot_order():  # §9.34
    state = at_roll(new(), [6, 3, 1, 1, 1, 1], row=["A07", "A08", None, None])
    give(state, 0, "A01", "A02", "A03", "A04", "A05")
    vp = state.vp[0]
    calm(state)
    turn(state, (0, "A1"), (1, "A2"), *tech(2, 3, 4, 5))
    assert state.phase == RETIRE and state.view(0)["retire"]["incoming"] == "A07"
    assert [a[1] for a in state.legal_actions()] == ["A01", "A02", "A03", "A04", "A05", "A07"]
    state.apply(("retire", "A01"))
    assert state.phase == RETIRE and state.view(0)["retire"]["incoming"] == "A08"
    assert [a[1] for a in state.legal_actions()] == ["A02", "A03", "A04", "A05", "A07", "A08"]
    state.apply(("retire", "A02"))
    assert state.turn == 1 and ids(state.held[0]) == ["A03", "A04", "A05", "A07", "A08"]
    assert state.vp[0] == vp + 2 + 2


def test_retiring_the_incoming_alien_scores_it_and_envoy_counts_it():  # §9.35
    state = at_roll(new(), [6, 6, 1, 1, 1, 1], row=["A06", None, None, None])
    give(state, 0, "A16", "A01", "A02", "A03", "A04")  # Orra (Envoy) + 4
    vp = state.vp[0]
    calm(state)
    turn(state, (0, "A1"), (1, "A1"), *tech(2, 3, 4, 5))
    assert state.phase == RETIRE
    events = state.apply(("retire", "A06"))
    assert state.vp[0] == vp + 2 + 1  # A06 has two equal faces; Envoy +1
    assert of_type(events, "envoy") == [{"type": "envoy", "seat": 0, "vp": 1}]
    assert ids(state.held[0]) == ["A01", "A02", "A03", "A04", "A16"]
    assert ids(state.retired) == ["A06"]


def test_alien_recruited_this_turn_only_triggers_from_then_on():  # §9.36
    state = at_roll(new(), [5, 6, 6, 3, 3, 4], later=[1], row=["A16", "A14", "A07", None])
    state.crystals[0] = 3
    touch(state)
    put(state, (0, "A1"), (1, "A2"), (2, "A3"))  # Orra, Tinkerer, Grib (Re-roller)
    events = state.apply(("reroll", 5))  # no free Grib use yet: a paid re-roll
    assert of_type(events, "reroll")[0]["crystals"] == 1 and state.dice[5] == 1
    vp = state.vp[0]
    calm(state)
    events = put(state, (3, "P2"), (4, "P2"), (5, "P1"))
    assert "boost" not in types(events) and state.phase != BOOST  # Tinkerer not yet: 2 < 3
    assert state.turn == 1 and state.crystals[0] == 2
    assert ids(state.held[0]) == ["A07", "A14", "A16"]
    assert state.vp[0] == vp + 2  # Orra, recruited first in A1, counts A14 and A07
    assert [e["vp"] for e in of_type(events, "envoy")] == [1, 1]


def test_empty_alien_deck_leaves_slots_empty():  # §9.37
    state = at_roll(new(), [6, 1, 1, 1, 1, 1], row=["A07", None, None, None])
    state.alien_deck = [alien("A20"), alien("A19")]  # while the deck lasts: refill from the top
    calm(state)
    turn(state, (0, "A1"), *tech(1, 2, 3, 4, 5))
    assert ids(state.row[:1]) == ["A19"] and len(state.alien_deck) == 1
    state = at_roll(new(), [6, 1, 1, 1, 1, 1], row=["A07", None, None, None])
    state.alien_deck = []
    calm(state)
    events = turn(state, (0, "A1"), *tech(1, 2, 3, 4, 5))
    assert of_type(events, "refill") == [{"type": "refill", "slot": "A1", "alien": None}]
    assert state.row == [-1] * 4 and ids(state.held[0]) == ["A07"]
    assert state.turn == 1 and _targets(state) <= {"P1", "P2", "P3", "P4", "P5", "P6", "T"}


def test_last_round_dice_go_only_to_aliens_and_technology():  # §9.38
    state = at_roll(new(), [6, 1, 2, 3, 4, 5], row=[None, "A07", None, None])
    state.status = [DISCOVERED] * 6
    state.final_round = True
    touch(state)
    assert _targets(state, 0) == {"A2", "T"} and _targets(state, 1) == {"T"}
    at_roll(state, [6, 1, 2, 3, 4, 5], row=[None] * 4)
    assert _targets(state) == {"T"}
    turn(state, *tech(0, 1, 2, 3, 4, 5))
    assert state.crystals[0] == 5 and state.turn == 1


# --- scoring -----------------------------------------------------------------------------------


def _storm_end(vp0):
    """Seat 1 wastes its dice, then the storm ends the game at seat 0's turn."""
    state = at_roll(new(), [1, 2, 3, 4, 5, 6], seat=1, row=[None] * 4)
    state.crystals = [0, 0]
    state.vp[0] = vp0
    state.meteor_deck.clear()
    turn(state, *[(d, "P2") for d in range(6)])  # six lone dice: nothing gained
    assert state.is_over
    return state


def test_starting_vp_count_for_the_total_and_for_ties():  # §9.39
    assert new().vp == [0, 3]
    state = _storm_end(2)
    assert state.final["total"] == [2, 3] and state.ranking() == [[1], [0]]
    state = _storm_end(3)
    assert state.final["total"] == [3, 3] and state.ranking() == [[0, 1]]


def test_vp_never_go_down():  # §9.40
    for seed in range(8):
        state = new(players=1 + seed % 4, seed=100 + seed)
        chooser = random.Random(seed)
        while not state.is_over:
            before = state.vp[:]
            legal = state.legal_actions()
            events = state.apply(legal[chooser.randrange(len(legal))])
            assert all(state.vp[s] >= before[s] for s in range(state.n))
            assert all(v >= 0 for e in of_type(events, "planet_scored") for v in e["vp"])
        assert all(t >= v for t, v in zip(state.final["total"], state.vp, strict=True))


def test_p6_stack_keeps_its_order_when_a_ship_leaves_and_lands_on_top():  # §9.41
    state = at_roll(new(players=4), [2, 3, 6, 6, 6, 6], seat=1, row=[None] * 4)
    for seat in range(3):
        state.pos[seat][5] = 5  # stack bottom to top: seat 0, 1, 2
    state.pos[3][5] = 7
    assert state.view(None)["p6_order"] == [3, 0, 1, 2]
    calm(state)
    turn(state, (0, "P6"), (1, "P6"), *tech(2, 3, 4, 5))  # seat 1: 2 steps, 5 -> 7
    assert state.pos[1][5] == 7
    # Seat 1 sits on top of seat 3; seats 0 and 2 keep their order on space 5.
    assert state.view(None)["p6_order"] == [3, 1, 0, 2]


# --- solo --------------------------------------------------------------------------------------


def test_solo_drone_ranked_first_on_p6_takes_the_5_vp_from_nobody():  # §9.42
    state = at_roll(new(players=1), [6] * 6, row=[None] * 4)
    state.drone[5] = 20
    state.pos[0][5] = 10
    state.hits[5] = 2
    vp = state.vp[0]
    events = pass_turn(state, next_roll=[1], card="M06")  # red die 1 (P1); then 6-2-5
    scored = of_type(events, "planet_scored")
    assert [(e["planet"], e["how"]) for e in scored] == [(6, "destroyed")]
    assert state.vp[0] == vp + 2  # the Drone holds rank 1 (5 VP to nobody); you rank 2nd


def test_solo_red_die_on_a_closed_planet_counts_upward_wrapping():  # §9.43
    state = at_roll(new(players=1), [6] * 6, row=[None] * 4)
    state.status[5] = DISCOVERED
    state.status[0] = DESTROYED
    events = pass_turn(state, next_roll=[6])
    assert of_type(events, "drone_roll") == [{"type": "drone_roll", "value": 6, "planet": 2}]
    assert state.drone[1] == 2 and state.drone[0] == 0


def test_solo_drone_closing_the_last_planet_ends_the_game_at_once():  # §9.44
    state = at_roll(new(players=1), [6] * 6, row=[None] * 4)
    state.status = [DISCOVERED, DESTROYED, DISCOVERED, OPEN, DISCOVERED, DISCOVERED]
    state.drone[3] = 2
    state.pos[0][3] = 1  # 2 VP as another ship
    vp = state.vp[0]
    events = pass_turn(state, next_roll=[4])
    kinds = types(events)
    assert kinds[kinds.index("drone_roll") :] == [
        "drone_roll",
        "move",
        "planet_scored",
        "last_round",
        "game_over",
    ]
    assert state.is_over and state.vp[0] == vp + 2


def test_retiring_a_one_face_alien_scores_1_vp_like_two_different_faces():  # §9.45
    state = at_roll(new(), [3, 1, 6, 6, 6, 6], row=["A08", "A09", None, None])
    give(state, 0, "A07", "A19", "A01", "A02", "A03")
    vp = state.vp[0]
    calm(state)
    turn(state, (0, "A1"), (1, "A2"), *tech(2, 3, 4, 5))
    events = state.apply(("retire", "A07"))  # one face
    assert state.vp[0] == vp + 1
    assert of_type(events, "retire")[0]["vp"] == 1
    state.apply(("retire", "A19"))  # two different faces
    assert state.vp[0] == vp + 2


def test_a_lone_die_on_p2_to_p5_is_legal_and_lost_without_a_match():  # §9.46
    state = at_roll(new(), [1, 2, 3, 4, 5, 6], later=[1, 2, 3, 5, 6], row=[None] * 4)
    legal = state.legal_actions()
    assert all(("assign", 3, p) in legal for p in ("P2", "P3", "P4", "P5"))
    put(state, (3, "P3"))
    state.apply(("roll",))
    assert 4 not in [state.dice[d] for d in (0, 1, 2, 4, 5)]
    vp = state.vp[:]
    calm(state)
    turn(state, *tech(0, 1, 2, 4, 5))
    assert state.pos[0][2] == 0 and state.vp == vp


def test_order_within_an_assign_step_does_not_matter_except_yellow_on_p6():  # §9.47
    orders = [
        [(0, "P2"), (1, "P2"), (2, "P1"), (3, "P6"), (4, "T"), (5, "P6")],
        [(4, "T"), (3, "P6"), (2, "P1"), (0, "P2"), (1, "P2"), (5, "P6")],
    ]
    outcomes = []
    for order in orders:
        state = at_roll(new(), [3, 3, 1, 5, 6, 4], row=[None] * 4)
        calm(state)
        turn(state, *order)
        outcomes.append((state.pos[0][:], state.crystals[0], state.vp[0]))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][0] == [1, 1, 0, 0, 0, 1 + 4] and outcomes[0][1] == 2
    state = at_roll(new(), [3, 3, 1, 5, 6, 4], row=[None] * 4)
    calm(state)
    events = put(state, (5, "P6"))  # Y first: phase 2 is over at once, the rest is lost
    assert of_type(events, "rolling_ends")[0]["lost"] == [0, 1, 2, 3, 4]
    assert state.turn == 1
    assert state.pos[0] == [0, 0, 0, 0, 0, 4] and state.crystals[0] == 1


def test_free_and_paid_rerolls_in_the_same_step():  # §9.48
    state = at_roll(new(), [2, 3, 4, 5, 6, 1], later=[6, 5, 4], free=(1, 0, 0))
    give(state, 0, "A07")
    state.crystals[0] = 3
    touch(state)
    paid = []
    for die in (0, 1, 2):
        paid += [e["crystals"] for e in of_type(state.apply(("reroll", die)), "reroll")]
    assert paid == [0, 1, 1] and state.crystals[0] == 1
    assert state.dice == [6, 5, 4, 5, 6, 1]  # one die per re-roll, nothing else moved
