"""Scenario tests for every alien ability of §5.4, their stacking, and the alien VP of §5.3.

Abilities with once-per-turn uses and Patrons are tested from a real turn start (seat 1 ends its
turn, seat 0's turn begins), so the engine itself counts the uses.
"""

from __future__ import annotations

import pytest
from cr_helpers import (
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
from games.cosmic_run.codes import ASSIGN, BOOST, DESTROYED, DISCOVERED, RETIRE
from games.cosmic_run.data import ALIENS, TOKEN_AT


def own_turn(dice, *aliens, crystals=0, later=(), players=2, row=(None, None, None, None)):
    """Seat 0 holds ``aliens`` and ``crystals``; seat 1 ends its turn and seat 0's turn starts
    with a roll showing ``dice`` (``later`` scripts the rolls after it).

    Returns the state and the events of seat 0's turn start.
    """
    state = at_roll(new(players), [6] * 6, seat=players - 1, row=list(row))
    give(state, 0, *aliens)
    state.crystals[0] = crystals
    events = pass_turn(state, [*dice, *later])
    assert state.turn == 0 and state.phase == ASSIGN and state.dice == list(dice)
    start = [i for i, e in enumerate(events) if e["type"] == "turn"][-1]
    return touch(state), events[start:]


def kinds(state):
    return {a[0] for a in state.legal_actions()}


def paid(events, kind):
    return [e["crystals"] for e in of_type(events, kind)]


# --- Navigator (A01-A06) -----------------------------------------------------------------------

NAVIGATOR_CASES = [
    ("A01", 0, [1, 6, 6, 6, 6, 6], 1),  # one 1 on P1
    ("A02", 1, [2, 2, 6, 6, 6, 6], 2),  # a pair on P2
    ("A03", 2, [3, 3, 3, 6, 6, 6], 3),  # three of a kind on P3
    ("A04", 3, [4, 4, 4, 4, 6, 6], 4),  # four of a kind on P4
    ("A05", 4, [5, 5, 5, 5, 5, 6], 5),  # five of a kind on P5
    ("A06", 5, [1, 6, 6, 6, 6, 6], 1),  # one white die on P6
]


@pytest.mark.parametrize(("alien", "planet", "dice", "on_planet"), NAVIGATOR_CASES)
def test_navigator_adds_one_step_on_its_planet(alien, planet, dice, on_planet):
    state = at_roll(new(), dice, row=[None] * 4)
    give(state, 0, alien)
    state.crystals[0] = 0
    calm(state)
    name = f"P{planet + 1}"
    turn(state, *[(d, name) for d in range(on_planet)], *tech(*range(on_planet, 6)))
    assert state.pos[0][planet] == 2  # 1 dice step + 1 (P5: that is the planet itself)
    assert sum(state.pos[0]) == 2  # and nowhere else


def test_navigator_needs_a_dice_step_on_its_planet():
    state = at_roll(new(), [3, 3, 5, 5, 1, 2], row=[None] * 4)
    give(state, 0, "A03")  # Navigator P3
    calm(state)
    turn(state, (0, "P3"), (1, "P3"), (2, "P2"), (3, "P2"), *tech(4, 5))  # only a pair on P3
    assert state.pos[0][2] == 0 and state.pos[0][1] == 1


# --- Re-roller (A07, A08, A19, A20) ------------------------------------------------------------


@pytest.mark.parametrize("alien", ["A07", "A08", "A19", "A20"])
def test_reroller_rerolls_one_die_free_once_per_turn(alien):
    state, _ = own_turn([2, 3, 4, 5, 6, 1], alien, later=[6])
    assert state.view(0)["free_uses"]["reroll"] == 1
    assert ("reroll", 0) in state.legal_actions()
    events = state.apply(("reroll", 0))
    assert paid(events, "reroll") == [0] and state.dice[0] == 6 and state.crystals[0] == 0
    assert state.dice[1:] == [3, 4, 5, 6, 1]
    assert "reroll" not in kinds(state)  # the use is spent and crystals cannot pay
    with pytest.raises(IllegalAction):
        state.apply(("reroll", 1))


def test_reroller_use_comes_back_in_your_next_turn():
    state, _ = own_turn([2, 3, 4, 5, 6, 1], "A07", later=[6])
    state.apply(("reroll", 0))
    assert "reroll" not in kinds(state)
    calm(state)
    put(state, *tech(0, 1, 2, 3, 4, 5))  # seat 1's turn starts
    state.crystals[0] = 0
    pass_turn(state, [2, 3, 4, 5, 6, 1])  # seat 0 again
    assert state.turn == 0 and state.view(0)["free_uses"]["reroll"] == 1
    assert paid(state.apply(("reroll", 0)), "reroll") == [0]


def test_reroller_works_only_in_its_owners_turns():
    state = at_roll(new(), [6] * 6, row=[None] * 4)
    give(state, 0, "A07")
    state.crystals[1] = 0
    pass_turn(state, [2, 3, 4, 5, 6, 1])  # seat 1's turn
    assert state.turn == 1 and state.view(1)["free_uses"]["reroll"] == 0
    assert "reroll" not in kinds(state)


def test_two_rerollers_give_two_free_uses():
    state, _ = own_turn([2, 3, 4, 5, 6, 1], "A07", "A08", later=[5, 5])
    assert state.view(0)["free_uses"]["reroll"] == 2
    events = state.apply(("reroll", 0)) + state.apply(("reroll", 1))
    assert paid(events, "reroll") == [0, 0] and state.dice[:2] == [5, 5]
    assert "reroll" not in kinds(state)


def test_free_reroll_is_spent_before_crystals():
    state, _ = own_turn([2, 3, 4, 5, 6, 1], "A07", crystals=2, later=[6, 6])
    first = state.apply(("reroll", 0))
    assert paid(first, "reroll") == [0] and state.crystals[0] == 2
    second = state.apply(("reroll", 1))
    assert paid(second, "reroll") == [1] and state.crystals[0] == 1


# --- Tuner (A09, A10, A21, A22) ----------------------------------------------------------------


@pytest.mark.parametrize("alien", ["A09", "A10", "A21", "A22"])
def test_tuner_nudges_one_die_free_once_per_turn(alien):
    state, _ = own_turn([3, 6, 1, 2, 4, 5], alien)
    assert state.view(0)["free_uses"]["nudge"] == 1
    legal = state.legal_actions()
    assert ("nudge", 1, 1) not in legal and ("nudge", 2, -1) not in legal  # within 1-6
    assert ("nudge", 1, -1) in legal and ("nudge", 2, 1) in legal
    events = state.apply(("nudge", 0, 1))
    assert paid(events, "nudge") == [0] and state.dice[0] == 4 and state.crystals[0] == 0
    assert "nudge" not in kinds(state)


def test_free_nudge_is_spent_before_crystals():
    state, _ = own_turn([3, 6, 1, 2, 4, 5], "A09", crystals=2)
    assert paid(state.apply(("nudge", 0, -1)), "nudge") == [0] and state.crystals[0] == 2
    assert paid(state.apply(("nudge", 1, -1)), "nudge") == [2] and state.crystals[0] == 0
    assert state.dice[:2] == [2, 5]


# --- Flipper (A11, A23) ------------------------------------------------------------------------


@pytest.mark.parametrize("alien", ["A11", "A23"])
def test_flipper_turns_one_die_to_its_opposite_face_once_per_turn(alien):
    state, _ = own_turn([2, 3, 4, 5, 6, 1], alien, crystals=5)
    assert state.view(0)["free_uses"]["flip"] == 1
    events = state.apply(("flip", 0))
    assert paid(events, "flip") == [0] and state.dice[0] == 5 and state.crystals[0] == 5
    assert "flip" not in kinds(state)  # crystals never buy a flip


def test_no_flip_without_a_flipper():
    state, _ = own_turn([2, 3, 4, 5, 6, 1], crystals=5)
    assert "flip" not in kinds(state) and {"reroll", "nudge"} <= kinds(state)


# --- Miner (A12, A24, A25) ---------------------------------------------------------------------


@pytest.mark.parametrize("alien", ["A12", "A24", "A25"])
def test_miner_adds_a_crystal_when_a_die_is_on_the_technology_card(alien):
    state = at_roll(new(), [1, 2, 3, 4, 5, 6], row=[None] * 4)
    give(state, 0, alien)
    state.crystals[0] = 0
    calm(state)
    turn(state, (0, "T"), (1, "T"), (2, "P6"), (3, "P6"), (4, "P6"), (5, "P6"))
    assert state.crystals[0] == 2 + 1


def test_miner_gives_nothing_without_a_die_on_the_technology_card():
    state = at_roll(new(), [1, 2, 3, 4, 5, 6], row=[None] * 4)
    give(state, 0, "A12")
    state.crystals[0] = 0
    calm(state)
    turn(state, *[(d, "P6") for d in range(6)])
    assert state.crystals[0] == 0 and state.pos[0][5] == 5 + 6


def test_two_miners_give_two():
    state = at_roll(new(), [1, 2, 3, 4, 5, 6], row=[None] * 4)
    give(state, 0, "A12", "A24")
    state.crystals[0] = 0
    calm(state)
    turn(state, (0, "T"), (1, "P6"), (2, "P6"), (3, "P6"), (4, "P6"), (5, "P6"))
    assert state.crystals[0] == 1 + 2


# --- Patron (A13, A26) -------------------------------------------------------------------------


@pytest.mark.parametrize("alien", ["A13", "A26"])
def test_patron_gives_a_crystal_before_the_first_roll(alien):
    state, events = own_turn([6] * 6, alien, crystals=0)
    assert state.crystals[0] == 1
    kinds_in_order = types(events)
    gain = [e for e in of_type(events, "crystals") if e["source"] == "patron"]
    assert gain == [{"type": "crystals", "seat": 0, "source": "patron", "gained": 1, "returned": 0}]
    assert kinds_in_order.index("meteor") < kinds_in_order.index("crystals")
    assert kinds_in_order.index("crystals") < kinds_in_order.index("roll")


def test_patron_obeys_the_crystal_limit():
    state, events = own_turn([6] * 6, "A13", crystals=5)
    assert state.crystals[0] == 5
    assert [(e["gained"], e["returned"]) for e in of_type(events, "crystals")] == [(0, 1)]


def test_two_patrons_give_two():
    state, _ = own_turn([6] * 6, "A13", "A26", crystals=1)
    assert state.crystals[0] == 3


def test_patron_works_only_in_its_owners_turn():
    state = at_roll(new(), [6] * 6, row=[None] * 4)
    give(state, 1, "A13")
    state.crystals[0] = 0
    calm(state)
    turn(state, *tech(0, 1, 2, 3, 4, 5))  # seat 1's turn starts: its Patron pays seat 1
    assert state.crystals == [5, 3]


def test_patron_still_pays_in_last_round_turns_but_not_in_a_storm_turn():
    state = at_roll(new(), [6] * 6, row=[None] * 4)
    give(state, 1, "A13")
    state.crystals[1] = 0
    state.status = [DISCOVERED] * 6
    state.final_round = True
    touch(state)
    events = turn(state, *tech(0, 1, 2, 3, 4, 5))  # no phase 1, but a phase 2 for seat 1
    assert state.turn == 1 and state.crystals[1] == 1
    assert [e["source"] for e in of_type(events, "crystals") if e["seat"] == 1] == ["patron"]
    state = at_roll(new(), [6] * 6, row=[None] * 4)
    give(state, 1, "A13")
    state.crystals[1] = 0
    state.meteor_deck.clear()
    turn(state, *tech(0, 1, 2, 3, 4, 5))  # storm in seat 1's turn: no phase 2
    assert state.is_over and state.crystals[1] == 0


# --- Tinkerer (A14) ----------------------------------------------------------------------------


def test_tinkerer_makes_reroll_1_and_nudge_1():
    state, _ = own_turn([3, 6, 1, 2, 4, 5], "A14", crystals=2, later=[5])
    assert state.view(0)["costs"] == {"reroll": 1, "nudge": 1, "boost": 2}
    assert paid(state.apply(("reroll", 0)), "reroll") == [1]  # never below 1
    assert paid(state.apply(("nudge", 1, -1)), "nudge") == [1]
    assert state.crystals[0] == 0 and state.dice[:2] == [5, 5]


def test_tinkerer_makes_boost_cost_2():
    state = at_roll(new(), [3, 3, 1, 2, 4, 5], row=[None] * 4)
    give(state, 0, "A14")
    state.crystals[0] = 0
    calm(state)
    put(state, (0, "P2"), (1, "P2"), (2, "T"), (3, "T"), (4, "P6"), (5, "P6"))
    assert state.crystals[0] == 2 and state.phase == BOOST  # 2 crystals are enough
    state.apply(("boost", "P2"))
    assert state.crystals[0] == 0 and state.pos[0][1] == 2


def test_without_tinkerer_two_crystals_do_not_boost():
    state = at_roll(new(), [3, 3, 1, 2, 4, 5], row=[None] * 4)
    state.crystals[0] = 0
    calm(state)
    events = put(state, (0, "P2"), (1, "P2"), (2, "T"), (3, "T"), (4, "P6"), (5, "P6"))
    assert "boost" not in types(events) and state.turn == 1 and state.crystals[0] == 2


# --- Prospector (A15) --------------------------------------------------------------------------


def test_prospector_gives_a_crystal_for_each_token_taken():
    state = at_roll(new(), [1, 4, 4, 2, 3, 5], row=[None] * 4)
    give(state, 0, "A15")
    state.crystals[0] = 0
    state.pos[0][0] = 4
    state.pos[0][1] = 2
    calm(state)
    events = turn(state, (0, "P1"), (1, "P2"), (2, "P2"), (3, "P5"), (4, "P5"), (5, "P5"))
    assert len(state.tokens[0]) == 2  # P1 space 5 and P2 space 3
    assert state.board_tokens[TOKEN_AT[(0, 5)]] == state.board_tokens[TOKEN_AT[(1, 3)]] == 0
    assert [e["source"] for e in of_type(events, "crystals")] == ["prospector", "prospector"]
    assert state.crystals[0] == 2


def test_prospector_obeys_the_crystal_limit():
    state = at_roll(new(), [4, 4, 1, 2, 3, 5], row=[None] * 4)
    give(state, 0, "A15")
    state.crystals[0] = 5
    state.pos[0][1] = 2
    calm(state)
    turn(state, (0, "P2"), (1, "P2"), *tech(2, 3, 4, 5))
    assert len(state.tokens[0]) == 1 and state.crystals[0] == 5


# --- Envoy (A16) -------------------------------------------------------------------------------


def test_envoy_scores_1_vp_per_recruit_of_another_alien():
    state = at_roll(new(), [6, 3, 5, 1, 1, 1], row=["A07", "A08", None, None])
    give(state, 0, "A16")
    vp = state.vp[0]
    calm(state)
    events = turn(state, (0, "A1"), (1, "A2"), *tech(2, 3, 4, 5))
    assert state.vp[0] == vp + 2 and len(of_type(events, "envoy")) == 2


def test_envoy_does_not_count_its_own_recruit():
    state = at_roll(new(), [5, 1, 1, 1, 1, 1], row=["A16", None, None, None])
    vp = state.vp[0]
    calm(state)
    events = turn(state, (0, "A1"), *tech(1, 2, 3, 4, 5))
    assert ids(state.held[0]) == ["A16"] and state.vp[0] == vp and not of_type(events, "envoy")


@pytest.mark.parametrize(
    ("retire", "vp", "envoy"),
    [
        ("A16", 1, False),  # Orra retired to make room: the recruit no longer counts
        ("A07", 1 + 1, True),  # the incoming card retired at once: it still counts
        ("A01", 2 + 1, True),  # another card retired: Orra stays and counts the recruit
    ],
)
def test_envoy_with_a_forced_retirement(retire, vp, envoy):
    state = at_roll(new(), [6, 1, 1, 1, 1, 1], row=["A07", None, None, None])
    give(state, 0, "A16", "A01", "A02", "A03", "A04")
    before = state.vp[0]
    calm(state)
    turn(state, (0, "A1"), *tech(1, 2, 3, 4, 5))
    assert state.phase == RETIRE
    events = state.apply(("retire", retire))
    assert state.vp[0] == before + vp
    assert bool(of_type(events, "envoy")) == envoy


# --- Seer (A17) --------------------------------------------------------------------------------


def _storm_after_seat_1(*seat0_aliens):
    state = at_roll(new(), [1, 2, 3, 4, 5, 6], seat=1, row=[None] * 4)
    give(state, 0, *seat0_aliens)
    state.crystals = [5, 5]
    state.meteor_deck.clear()
    turn(state, *[(d, "P2") for d in range(6)])  # six lone dice: nothing gained
    assert state.is_over
    return state


def test_seer_scores_each_leftover_crystal():
    state = _storm_after_seat_1("A17")
    assert state.final["crystals_vp"] == [5, 2]  # seat 1 without Nim: 5 // 2


# --- Surveyor (A18) ----------------------------------------------------------------------------


@pytest.mark.parametrize(("space", "gained"), [(1, 1 + 1), (0, 0)])
def test_surveyor_scores_when_a_meteor_destroys_a_planet_with_its_ship_off_start(space, gained):
    state = at_roll(new(), [6] * 6, row=[None] * 4)
    give(state, 0, "A18")
    state.pos[0][2] = space  # P3 space 1 is worth 1 VP
    state.hits[2] = 2
    vp = state.vp[0]
    pass_turn(state, card="M03")  # destroyed in seat 1's phase 1
    assert state.status[2] == DESTROYED and state.turn == 1
    assert state.vp[0] == vp + gained


def test_surveyor_scores_for_each_planet_the_storm_destroys():
    state = at_roll(new(), [6] * 6, seat=1, row=[None] * 4)
    give(state, 0, "A18")
    state.pos[0][0] = 4  # 1 VP
    state.pos[0][1] = 2  # 1 VP
    state.pos[0][5] = 3  # P6 rank 1: 5 VP
    state.meteor_deck.clear()
    vp = state.vp[0]
    turn(state, *tech(0, 1, 2, 3, 4, 5))
    assert state.is_over and state.vp[0] == vp + 1 + 1 + 5 + 3


def test_surveyor_does_not_score_a_discovery():
    state = at_roll(new(), [3, 3, 3, 6, 6, 6], row=[None] * 4)
    give(state, 0, "A18")
    state.pos[0][2] = 4
    vp = state.vp[0]
    calm(state)
    turn(state, (0, "P3"), (1, "P3"), (2, "P3"), *tech(3, 4, 5))
    assert state.status[2] == DISCOVERED and state.vp[0] == vp + 9


# --- Salvager (A27, A28) -----------------------------------------------------------------------


@pytest.mark.parametrize("alien", ["A27", "A28"])
def test_salvager_pays_for_dice_lost_in_sets_and_on_incomplete_cards(alien):
    state = at_roll(new(), [2, 2, 2, 5, 4, 6], row=["A04", None, None, None])
    give(state, 0, alien)
    state.crystals[0] = 0
    calm(state)
    # Three 2s on P2 (one lost), a lone 5 on P4 (lost), one 4 on the [4, 4] card (lost).
    turn(state, (0, "P2"), (1, "P2"), (2, "P2"), (3, "P4"), (4, "A1"), (5, "T"))
    assert state.pos[0][1] == 1 and ids(state.held[0]) == [alien]
    assert state.crystals[0] == 1 + 3


def test_salvager_ignores_dice_left_when_yellow_ends_phase_2():
    state = at_roll(new(), [2, 3, 4, 5, 6, 1], row=[None] * 4)
    give(state, 0, "A27")
    state.crystals[0] = 0
    calm(state)
    put(state, (0, "P3"), (5, "P6"))  # W1 lost on P3; W2-W5 left unassigned
    assert state.turn == 1 and state.crystals[0] == 1


def test_salvager_ignores_duplicate_values_on_p6_and_complete_sets():
    state = at_roll(new(), [3, 3, 3, 3, 5, 1], row=[None] * 4)
    give(state, 0, "A27")
    state.crystals[0] = 0
    calm(state)
    turn(state, (0, "P2"), (1, "P2"), (2, "P6"), (3, "P6"), (4, "P6"), (5, "P6"))
    assert state.crystals[0] == 0 and state.pos[0][5] == 2 + 1


def test_two_salvagers_give_two_per_lost_die():
    state = at_roll(new(), [2, 3, 4, 5, 6, 1], row=[None] * 4)
    give(state, 0, "A27", "A28")
    state.crystals[0] = 0
    calm(state)
    turn(state, (0, "P3"), *[(d, "P6") for d in range(1, 6)])  # one lone die lost
    assert state.crystals[0] == 2  # one Salvager alone would give 1


# --- Cartographer (A29, A30) -------------------------------------------------------------------


@pytest.mark.parametrize("alien", ["A29", "A30"])
def test_cartographer_scores_2_vp_per_discovery(alien):
    state = at_roll(new(), [1, 6, 6, 6, 6, 6], row=[None] * 4)
    give(state, 0, alien)
    state.pos[0][0] = 15
    vp = state.vp[0]
    calm(state)
    turn(state, (0, "P1"), *tech(1, 2, 3, 4, 5))
    assert state.status[0] == DISCOVERED and state.vp[0] == vp + 10 + 2


def test_cartographer_of_another_player_does_not_score_your_discovery():
    state = at_roll(new(), [1, 6, 6, 6, 6, 6], row=[None] * 4)
    give(state, 1, "A29")
    vp = state.vp[:]
    state.pos[0][0] = 15
    calm(state)
    turn(state, (0, "P1"), *tech(1, 2, 3, 4, 5))
    assert [state.vp[0] - vp[0], state.vp[1] - vp[1]] == [10, 0]


# --- stacking ----------------------------------------------------------------------------------


def test_navigator_and_boost_both_apply_to_the_same_planet():
    state = at_roll(new(), [3, 3, 3, 1, 2, 6], row=[None] * 4)
    give(state, 0, "A03")
    state.crystals[0] = 3
    calm(state)
    put(state, (0, "P3"), (1, "P3"), (2, "P3"), (3, "P5"), (4, "P5"), (5, "P5"))
    assert state.legal_actions() == [("boost", "P3"), ("pass",)]
    state.apply(("boost", "P3"))
    assert state.pos[0][2] == 1 + 1 + 1 and state.crystals[0] == 0


def test_all_crystal_gains_obey_the_limit_of_5():
    state = at_roll(new(), [2, 3, 4, 5, 6, 1], row=[None] * 4)
    give(state, 0, "A12", "A27")  # Miner, Salvager
    state.crystals[0] = 3
    calm(state)
    events = turn(state, (0, "P3"), (1, "P4"), *tech(2, 3, 4, 5))
    step_3a = [e for e in of_type(events, "crystals") if e["seat"] == 0]
    # 3 + 4 (card) + 1 (Miner) + 2 (two lost dice) = 10: 2 kept, 5 returned.
    assert [(e["gained"], e["returned"]) for e in step_3a] == [(2, 5)]
    assert state.crystals[0] == 5


# --- alien VP (§5.3) ---------------------------------------------------------------------------


@pytest.mark.parametrize("card", ALIENS, ids=[a.id for a in ALIENS])
def test_alien_vp_by_faces(card):
    faces = card.faces
    expected = 2 if len(faces) == 2 and faces[0] == faces[1] else 1
    assert card.vp == expected
    assert (card.id in {"A01", "A02", "A03", "A04", "A05", "A06"}) == (expected == 2)


def test_held_aliens_score_one_face_1_two_different_1_two_equal_2():
    state = _storm_after_seat_1("A07", "A19", "A01")
    assert state.final["held_aliens"] == [1 + 1 + 2, 0]


@pytest.mark.parametrize(("alien", "vp"), [("A07", 1), ("A19", 1), ("A01", 2)])
def test_retired_alien_scores_its_face_vp(alien, vp):
    state = at_roll(new(), [3, 6, 6, 6, 6, 6], row=["A08", None, None, None])
    others = [a for a in ("A07", "A19", "A01", "A02", "A03", "A04") if a != alien][:4]
    give(state, 0, alien, *others)
    before = state.vp[0]
    calm(state)
    turn(state, (0, "A1"), *tech(1, 2, 3, 4, 5))
    assert state.phase == RETIRE
    events = state.apply(("retire", alien))
    assert state.vp[0] == before + vp and alien not in ids(state.held[0])
    assert of_type(events, "retire") == [{"type": "retire", "seat": 0, "alien": alien, "vp": vp}]


# --- timing: an alien recruited this turn ------------------------------------------------------


def test_reroller_recruited_this_turn_is_not_usable_until_next_turn():
    state = at_roll(new(), [6, 2, 3, 4, 5, 1], row=["A07", None, None, None])
    state.crystals[0] = 0
    touch(state)
    put(state, (0, "A1"))  # Grib's card is complete, but it is not held yet
    assert "reroll" not in kinds(state) and state.view(0)["free_uses"]["reroll"] == 0
    calm(state)
    turn(state, *tech(1, 2, 3, 4, 5))
    assert "A07" in ids(state.held[0]) and state.turn == 1
    state.crystals[0] = 0
    pass_turn(state, [2, 3, 4, 5, 6, 1])
    assert state.turn == 0 and ("reroll", 0) in state.legal_actions()
    assert paid(state.apply(("reroll", 0)), "reroll") == [0]


def test_tinkerer_recruited_this_turn_does_not_cheapen_this_turns_boost():
    state = at_roll(new(), [6, 3, 3, 1, 2, 4], row=["A14", None, None, None])
    state.crystals[0] = 0
    calm(state)
    events = put(state, (0, "A1"), (1, "P2"), (2, "P2"), (3, "T"), (4, "T"), (5, "P5"))
    assert state.crystals[0] == 2 and "A14" in ids(state.held[0])
    assert "boost" not in types(events) and state.turn == 1  # step 3b came before step 3d


def test_navigator_recruited_this_turn_gives_no_step_this_turn():
    state = at_roll(new(), [6, 6, 1, 2, 3, 4], row=["A06", None, None, None])
    state.crystals[0] = 0
    calm(state)
    turn(state, (0, "A1"), (1, "A1"), (2, "P6"), (3, "T"), (4, "T"), (5, "T"))
    assert "A06" in ids(state.held[0]) and state.pos[0][5] == 1  # 3c came before 3d


def test_surveyor_recruited_this_turn_triggers_in_the_next_players_turn():
    state = at_roll(new(), [4, 1, 1, 1, 1, 1], row=["A18", None, None, None])
    state.pos[0][2] = 1  # 1 VP
    state.hits[2] = 2
    next_card(state, "M03")  # P3 destroyed in seat 1's phase 1
    vp = state.vp[0]
    turn(state, (0, "A1"), *tech(1, 2, 3, 4, 5))
    assert state.status[2] == DESTROYED and state.turn == 1
    assert state.vp[0] == vp + 1 + 1
