"""Cosmic Run rules beyond the seed: set-up, solo, phases, scoring, game end, the action model."""

from __future__ import annotations

from collections import Counter

import pytest
from cr_helpers import at_roll, give, new, of_type, put, touch, turn

from games.cosmic_run.codes import BOOST, DESTROYED, DISCOVERED, OPEN, OVER, RETIRE
from games.cosmic_run.data import (
    ALIENS,
    INFODERE_VALUES,
    MISS,
    TOKEN_SPACES,
    solo_rank,
)

ALL_T = tuple((d, "T") for d in range(6))


# --- §2 set-up ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "deck", "crystals", "vp"),
    [
        (1, 20, [1], [0]),
        (2, 36, [1, 2], [0, 3]),
        (3, 45, [1, 2, 3], [0, 2, 3]),
        (4, 52, [1, 2, 3, 4], [0, 1, 2, 3]),
    ],
)
def test_setup_follows_the_player_count_table(players, deck, crystals, vp):
    state = new(players=players, seed=11)
    # One card was turned over for seat 0's first turn.
    assert len(state.meteor_deck) + (state.meteor_card >= 0) == deck
    cards = Counter([*state.meteor_deck, state.meteor_card])
    assert cards[MISS] == deck - 12 and all(cards[c] == 1 for c in range(12))
    assert state.crystals == crystals and state.vp == vp


def test_setup_places_ten_infodere_tokens_face_down_and_boxes_four():
    state = new(seed=3)
    assert all(state.board_tokens) and len(state.board_tokens) == 10 == len(TOKEN_SPACES)
    assert sorted(state.board_tokens + state.box) == sorted(INFODERE_VALUES)
    assert len(state.box) == 4
    assert TOKEN_SPACES == (
        (0, 5),
        (0, 11),
        (1, 3),
        (1, 6),
        (2, 3),
        (3, 2),
        (4, 1),
        (5, 10),
        (5, 21),
        (5, 32),
    )


def test_setup_turns_four_aliens_face_up_and_keeps_26_in_the_deck():
    state = new(seed=3)
    assert all(a >= 0 for a in state.row) and len(state.alien_deck) == 26
    assert sorted(state.row + state.alien_deck) == list(range(30))


def test_setup_stacks_planet_6_start_in_seat_order():
    state = new(players=4, seed=3)
    assert state.view(None)["p6_order"] == [0, 1, 2, 3]  # bottom (ahead) first
    assert all(state.pos[s] == [0] * 6 for s in range(4))


def test_same_seed_same_setup_other_seed_other_setup():
    assert new(seed=8).view(0) == new(seed=8).view(0)
    assert new(seed=8).view(0) != new(seed=9).view(0)


# --- §1.4 solo ------------------------------------------------------------------------------


def test_solo_setup_drone_on_every_start_on_top_of_planet_6():
    state = new(players=1, seed=2)
    assert state.drone == [0] * 6 and state.crystals == [1] and state.vp == [0]
    assert state.view(0)["p6_order"] == [0, "drone"]


@pytest.mark.parametrize(
    ("red", "planet", "steps"), [(1, 0, 3), (2, 1, 2), (3, 2, 2), (4, 3, 1), (5, 4, 1), (6, 5, 7)]
)
def test_solo_drone_moves_by_the_table(red, planet, steps):
    state = at_roll(new(players=1), [6] * 6, later=[red])
    state.meteor_deck.append(MISS)
    events = turn(state, *ALL_T)
    assert of_type(events, "drone_roll")[0] == {
        "type": "drone_roll",
        "value": red,
        "planet": planet + 1,
    }
    assert state.drone[planet] == steps


def test_solo_drone_on_a_closed_planet_takes_the_next_open_one_wrapping():
    state = at_roll(new(players=1), [6] * 6, later=[5])
    state.status[4] = DESTROYED
    state.status[5] = DISCOVERED
    state.meteor_deck.append(MISS)
    turn(state, *ALL_T)
    assert state.drone[0] == 3  # 5 closed, 6 closed, wrap to 1


def test_solo_drone_discovery_scores_the_player_as_another_ship():
    state = at_roll(new(players=1), [6] * 6, later=[4])
    state.drone[3] = 2
    state.pos[0][3] = 2  # worth 3 VP
    vp = state.vp[0]
    state.meteor_deck.append(MISS)
    events = turn(state, *ALL_T)
    scored = of_type(events, "planet_scored")[0]
    assert scored["by"] == "drone" and scored["how"] == "discovered"
    assert state.vp[0] == vp + 3 and state.discovered[0] == 0


def test_solo_drone_takes_a_planet_6_rank_and_its_vp_go_to_nobody():
    state = at_roll(new(players=1), [6] * 6)
    state.hits[5] = 2
    state.drone[5] = 20
    state.pos[0][5] = 10
    state.meteor_deck.append(0)  # M01: 1-3-6 ... make P1 and P3 closed so P6 is struck
    state.status[0] = DISCOVERED
    state.status[2] = DISCOVERED
    vp = state.vp[0]
    turn(state, *ALL_T)
    assert state.status[5] == DESTROYED and state.vp[0] == vp + 2  # drone 1st (5 lost), you 2nd


def test_solo_drone_never_takes_tokens():
    state = at_roll(new(players=1), [6] * 6, later=[5])
    state.meteor_deck.append(MISS)
    turn(state, *ALL_T)
    assert state.drone[4] == 1 and state.board_tokens[6] != 0  # P5 space 1 keeps its token


@pytest.mark.parametrize(
    ("vp", "rank"),
    [
        (0, "Cadet"),
        (39, "Cadet"),
        (40, "Pilot"),
        (49, "Pilot"),
        (50, "Captain"),
        (59, "Captain"),
        (60, "Admiral"),
        (80, "Admiral"),
    ],
)
def test_solo_rank_table(vp, rank):
    assert solo_rank(vp) == rank


def test_solo_game_ends_at_the_end_of_the_turn_that_closes_the_last_planet():
    state = at_roll(new(players=1), [1, 6, 6, 6, 6, 6])
    state.status[1:] = [DISCOVERED] * 5
    state.pos[0][0] = 15
    events = turn(state, (0, "P1"), *[(d, "T") for d in range(1, 6)])
    over = of_type(events, "game_over")[0]
    assert state.is_over and over["solo_rank"] == solo_rank(over["total"][0])
    assert over["solo_win"] == (over["total"][0] >= 50)


# --- §3.1 phase 1 -----------------------------------------------------------------------------


def test_no_open_planet_skips_phase_1_without_drawing():
    state = at_roll(new(players=2), [6] * 6)
    state.status = [DISCOVERED] * 6
    state.final_round = True
    left = len(state.meteor_deck)
    events = turn(state, *ALL_T)
    assert not of_type(events, "meteor") and len(state.meteor_deck) == left
    assert state.view(None)["meteor"]["card"] is None


def test_empty_deck_storm_destroys_open_planets_in_order_and_ends_at_once():
    state = at_roll(new(), [6] * 6)
    state.meteor_deck.clear()
    state.status[1] = DISCOVERED
    events = turn(state, *ALL_T)
    scored = of_type(events, "planet_scored")
    assert [e["planet"] for e in scored] == [1, 3, 4, 5, 6]
    assert all(e["how"] == "destroyed" for e in scored)
    assert state.is_over and not of_type(events[events.index(scored[-1]) :], "roll")


def test_storm_comes_at_the_start_of_a_round():
    for players in (2, 3, 4):
        state = new(players=players, seed=1)
        assert (len(state.meteor_deck) + 1) % players == 0


# --- §3.2 phase 2 -----------------------------------------------------------------------------


def test_closed_planets_and_empty_slots_accept_no_dice():
    state = at_roll(new(), [1, 2, 3, 4, 5, 6], row=[None, "A08", None, None])
    state.status[0] = DISCOVERED
    state.status[3] = DESTROYED
    touch(state)
    targets = {a[2] for a in state.legal_actions() if a[0] == "assign"}
    assert targets == {"P2", "P3", "P5", "P6", "A2", "T"}


def test_technology_card_always_accepts_even_at_five_crystals():
    state = at_roll(new(), [1, 2, 3, 4, 5, 6])
    state.crystals[0] = 5
    touch(state)
    assert all(("assign", d, "T") in state.legal_actions() for d in range(6))


def test_crystal_abilities_cost_one_and_two():
    state = at_roll(new(), [2, 2, 3, 4, 5, 6], later=[6])
    state.crystals[0] = 3
    touch(state)
    state.apply(("reroll", 0))
    assert state.crystals[0] == 2 and state.dice[0] == 6
    state.apply(("nudge", 1, -1))
    assert state.crystals[0] == 0 and state.dice[1] == 1
    assert not [a for a in state.legal_actions() if a[0] in ("reroll", "nudge")]


def test_nudge_needs_two_crystals_reroll_one():
    state = at_roll(new(), [2, 2, 3, 4, 5, 6])
    state.crystals[0] = 1
    touch(state)
    kinds = {a[0] for a in state.legal_actions()}
    assert "reroll" in kinds and "nudge" not in kinds


def test_abilities_do_not_meet_the_assign_duty():
    state = at_roll(new(), [2, 2, 3, 4, 5, 6], later=[1, 1])
    state.crystals[0] = 5
    touch(state)
    state.apply(("reroll", 0))
    state.apply(("nudge", 2, 1))
    assert ("roll",) not in state.legal_actions()


def test_boost_is_offered_after_step_3a_and_adds_a_step():
    state = at_roll(new(), [3, 3, 6, 6, 6, 6])
    state.crystals[0] = 2
    touch(state)
    put(state, (0, "P2"), (1, "P2"), (2, "T"), (3, "T"), (4, "T"))
    put(state, (5, "T"))  # 4 dice on T: 2 + 4 = 6 -> 5 crystals, Boost affordable
    assert state.phase == BOOST and state.legal_actions() == [("boost", "P2"), ("pass",)]
    state.apply(("boost", "P2"))
    assert state.pos[0][1] == 2 and state.crystals[0] == 2


def test_boost_is_skipped_when_not_affordable_or_no_dice_step():
    state = at_roll(new(), [3, 3, 1, 1, 1, 1])
    state.crystals[0] = 0
    put(state, (0, "P2"), (1, "P2"), (2, "P4"), (3, "P4"), (4, "P4"), (5, "P3"))
    assert state.phase != BOOST and state.pos[0][1] == 1
    state = at_roll(new(), [3, 4, 6, 6, 6, 6])
    state.crystals[0] = 5
    put(state, (0, "P2"), (1, "P2"), *[(d, "T") for d in range(2, 6)])
    assert state.phase != BOOST


# --- §3.3 phase 3 -----------------------------------------------------------------------------


def test_step_3c_moves_planets_in_order_and_scores_each_before_the_next():
    state = at_roll(new(), [1, 2, 3, 4, 5, 6])
    state.pos[0][0] = 15
    state.pos[0][5] = 30
    touch(state)
    events = turn(state, (0, "P1"), (1, "P6"), (2, "P6"), (3, "P6"), (4, "P6"), (5, "P6"))
    order = [(e["type"], e.get("planet")) for e in events if e["type"] in ("move", "planet_scored")]
    assert order == [("move", 1), ("planet_scored", 1), ("move", 6), ("planet_scored", 6)]


def test_overshooting_stops_on_the_planet():
    state = at_roll(new(), [1, 2, 3, 4, 5, 6])
    state.pos[0][5] = 35
    events = turn(state, (0, "T"), (1, "P6"), (2, "P6"), (3, "P6"), (4, "P6"), (5, "P6"))
    move = next(e for e in of_type(events, "move") if e["planet"] == 6)
    assert (move["from"], move["to"]) == (35, 40)  # 4 white values + 6 pips, 5 lost
    assert state.status[5] == DISCOVERED


def test_step_3d_recruits_in_slot_order_with_a_retire_decision_each():
    state = at_roll(new(), [6, 3, 1, 1, 1, 1], row=["A07", "A08", "A13", None])
    give(state, 0, "A01", "A02", "A03", "A04", "A05")
    put(state, (0, "A1"), (1, "A2"), (2, "T"), (3, "T"), (4, "T"), (5, "T"))
    assert state.phase == RETIRE and state.view(0)["retire"] == {"slot": "A1", "incoming": "A07"}
    state.apply(("retire", "A07"))  # the incoming card goes straight to the retired pile
    assert state.phase == RETIRE and state.view(0)["retire"] == {"slot": "A2", "incoming": "A08"}
    state.apply(("retire", "A01"))
    assert sorted(ALIENS[a].id for a in state.held[0]) == ["A02", "A03", "A04", "A05", "A08"]
    assert [ALIENS[a].id for a in state.retired] == ["A07", "A01"]


# --- §4 scoring ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("planet", "space", "vp"),
    [
        (0, 3, 0),
        (0, 4, 1),
        (0, 9, 2),
        (0, 12, 3),
        (0, 15, 4),
        (1, 1, 0),
        (1, 2, 1),
        (1, 8, 4),
        (2, 0, 0),
        (2, 4, 4),
        (3, 1, 2),
        (3, 2, 3),
        (4, 1, 4),
    ],
)
def test_other_ships_score_the_vp_of_their_space(planet, space, vp):
    state = at_roll(new(), [6] * 6)
    state.pos[1][planet] = space
    state.hits[planet] = 2
    card = {0: 0, 1: 1, 2: 2, 3: 3, 4: 4}[planet]  # M01..M05 have tops 1..5
    state.meteor_deck.append(card)
    before = state.vp[1]
    turn(state, *ALL_T)
    assert state.status[planet] == DESTROYED and state.vp[1] == before + vp


@pytest.mark.parametrize(("planet", "vp"), [(0, 10), (1, 10), (2, 9), (3, 9), (4, 12), (5, 18)])
def test_discoverer_vp(planet, vp):
    state = at_roll(new(), [1, 1, 1, 1, 1, 6])
    state.pos[0][planet] = {0: 15, 1: 8, 2: 4, 3: 2, 4: 1, 5: 39}[planet]
    before = state.vp[0]
    dice = {0: [(0, "P1")], 5: [(0, "P6")]}.get(
        planet, [(d, f"P{planet + 1}") for d in range(planet + 1)]
    )
    rest = [(d, "T") for d in range(6) if d not in {x for x, _ in dice}]
    turn(state, *dice, *rest)
    assert state.status[planet] == DISCOVERED and state.vp[0] == before + vp


def test_planet_6_rank_example_from_the_spec():
    # Blue reaches the planet; Red and Green on 31, Green arrived first; Yellow on 0.
    state = at_roll(new(players=4), [3, 4, 5, 6, 2, 6])
    blue, red, green = 0, 1, 2  # yellow (seat 3) stays on the start space
    state.pos[blue][5] = 36
    state.pos[green][5] = 31
    state.stamp[green] = 10
    state.pos[red][5] = 31
    state.stamp[red] = 11
    state.next_stamp = 12
    before = state.vp[:]
    turn(state, (0, "P6"), (1, "P6"), (2, "P6"), (3, "P6"), (4, "T"), (5, "T"))
    gained = [state.vp[s] - before[s] for s in range(4)]
    assert gained == [18, 2, 5, 0]


def test_planet_6_destroyed_ranks_from_the_leader_with_5():
    state = at_roll(new(players=3), [6] * 6)
    state.pos[0][5], state.pos[1][5], state.pos[2][5] = 4, 9, 0
    state.hits[5] = 2
    state.meteor_deck.append(5)  # M06: 6-2-5
    before = state.vp[:]
    turn(state, *ALL_T)
    assert [state.vp[s] - before[s] for s in range(3)] == [2, 5, 0]


def test_a_scored_planet_closes_its_track_and_boxes_its_tokens():
    state = at_roll(new(), [1, 6, 6, 6, 6, 6])
    state.pos[0][0] = 15
    tokens = [state.board_tokens[0], state.board_tokens[1]]
    box = list(state.box)
    turn(state, (0, "P1"), *[(d, "T") for d in range(1, 6)])
    assert state.status[0] == DISCOVERED and state.board_tokens[:2] == [0, 0]
    assert sorted(state.box) == sorted(box + tokens)
    view = state.view(None)["planets"][0]
    assert view["ships"] is None and view["tokens"] == []
    assert all(a[2] != "P1" for a in state.legal_actions() if a[0] == "assign")


# --- §6 game end --------------------------------------------------------------------------------


def test_last_planet_closing_finishes_the_round():
    state = at_roll(new(players=3), [1, 6, 6, 6, 6, 6])
    state.status[1:] = [DISCOVERED] * 5
    state.pos[0][0] = 15
    events = turn(state, (0, "P1"), *[(d, "T") for d in range(1, 6)])
    assert "last_round" in [e["type"] for e in events] and state.turn == 1 and not state.is_over
    # Seats 1 and 2 still play, dice only to aliens and technology, no meteor.
    assert {a[2] for a in state.legal_actions() if a[0] == "assign"} <= {
        "A1",
        "A2",
        "A3",
        "A4",
        "T",
    }
    at_roll(state, [6] * 6, row=[None] * 4)
    events = turn(state, *ALL_T)
    assert not of_type(events, "meteor") and state.turn == 2 and not state.is_over
    at_roll(state, [6] * 6, row=[None] * 4)
    events = turn(state, *ALL_T)
    assert state.is_over and of_type(events, "game_over")


def test_last_planet_closing_in_the_last_seat_ends_the_game_after_that_turn():
    state = at_roll(new(players=2), [1, 6, 6, 6, 6, 6], seat=1)
    state.status[1:] = [DISCOVERED] * 5
    state.pos[1][0] = 15
    turn(state, (0, "P1"), *[(d, "T") for d in range(1, 6)])
    assert state.is_over and state.phase == OVER and state.current_player is None


def test_final_scoring_adds_held_aliens_infodere_and_half_the_crystals():
    state = at_roll(new(), [6] * 6)
    give(state, 0, "A01", "A07")  # 2 + 1 VP
    state.tokens[0] = [4, 2]
    state.crystals[0] = 0
    state.meteor_deck.clear()
    state.vp[0] = 10
    touch(state)
    turn(state, *ALL_T)  # 6 dice on T: 5 crystals (limit)
    assert state.is_over
    # Track 10 + storm VP; aliens 3; Infodere 6; crystals 5 // 2 = 2.
    final = state.final
    assert final["held_aliens"][0] == 3 and final["infodere_vp"][0] == 6
    assert final["crystals_vp"][0] == 2
    assert state.scores()[0] == final["track"][0] + 3 + 6 + 2


@pytest.mark.parametrize(
    ("discovered", "tokens", "crystals", "expected"),
    [
        ((1, 0), ([], []), (0, 0), [[0], [1]]),
        ((0, 0), ([1], []), (0, 0), [[0], [1]]),
        ((0, 0), ([], []), (0, 1), [[1], [0]]),
        ((0, 0), ([], []), (1, 1), [[0, 1]]),
    ],
)
def test_tie_breakers(discovered, tokens, crystals, expected):
    state = new()
    state.discovered = list(discovered)
    state.tokens = [list(t) for t in tokens]
    state.crystals = list(crystals)
    state.final = {"total": [20, 20]}
    assert state.ranking() == expected


def test_higher_total_wins_regardless_of_tie_breakers():
    state = new()
    state.discovered = [3, 0]
    state.final = {"total": [19, 20]}
    assert state.ranking() == [[1], [0]]


# --- §8 the action model --------------------------------------------------------------------------


def test_identical_white_dice_are_listed_once_by_their_lowest_index_yellow_always():
    state = at_roll(new(), [4, 2, 4, 2, 4, 4])
    dice = {a[1] for a in state.legal_actions() if a[0] == "assign"}
    assert dice == {0, 1, 5}


def test_legal_list_is_in_canonical_order():
    state = at_roll(new(), [1, 3, 3, 5, 6, 2], row=["A08", "A07", None, "A09"], free=(1, 1, 1))
    state.crystals[0] = 5
    put(state, (4, "P3"))
    legal = state.legal_actions()
    kinds = [a[0] for a in legal]
    order = ["assign", "roll", "reroll", "nudge", "flip"]
    assert kinds == sorted(kinds, key=order.index)
    targets = ["P1", "P2", "P3", "P4", "P5", "P6", "A1", "A2", "A3", "A4", "T"]
    assigns = [(a[1], targets.index(a[2])) for a in legal if a[0] == "assign"]
    assert assigns == sorted(assigns)
    nudges = [(a[1], a[2]) for a in legal if a[0] == "nudge"]
    assert nudges == sorted(nudges) and (0, -1) not in nudges  # a 1 cannot go to 0
    assert ("assign", 0, "P1") in legal and ("assign", 0, "A4") in legal


def test_no_decision_point_offers_more_than_79_actions():
    import random

    for seed in range(60):
        state = new(players=1 + seed % 4, seed=seed)
        chooser = random.Random(seed)
        while not state.is_over:
            legal = state.legal_actions()
            assert 1 <= len(legal) <= 79
            state.apply(legal[chooser.randrange(len(legal))])


def test_labels_read_like_a_player_would_say_them():
    state = at_roll(new(), [1, 3, 3, 5, 6, 2], row=["A08", "A07", None, "A09"])
    state.crystals[0] = 2
    touch(state)
    assert state.label(("assign", 4, "P6")) == "Put W5 (a 6) on planet 6"
    assert state.label(("assign", 5, "P6")) == (
        "Put the yellow die (a 2) on planet 6: ends rolling, 5 dice lost"
    )
    assert state.label(("assign", 1, "A1")) == "Put W2 (a 3) on Pim (A1)"
    assert state.label(("assign", 0, "T")) == "Put W1 (a 1) on your technology card (+1 crystal)"
    assert state.label(("reroll", 3)) == "Re-roll W4 (a 5) (1 crystal)"
    assert state.label(("nudge", 3, 1)) == "Nudge W4 (a 5) to 6 (2 crystals)"
    put(state, (0, "T"))
    assert state.label(("roll",)) == "Roll the 5 unassigned dice"


def test_open_planets_stay_open_until_scored():
    state = new()
    assert state.status == [OPEN] * 6
