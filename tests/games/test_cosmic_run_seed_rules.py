"""One test per seed rule [S1]-[S48] of the Cosmic Run spec (§0), plus the seed's 3-1-4 example."""

from __future__ import annotations

import random

import pytest
from cr_helpers import at_roll, give, new, of_type, put, touch, turn, types

from games.cosmic_run.codes import ASSIGN, DESTROYED, DISCOVERED, OPEN, RETIRE, UNASSIGNED
from games.cosmic_run.data import METEOR_INDEX, MISS, TOKEN_AT

M = METEOR_INDEX  # card id -> engine index


def _next_turn_card(state, card: str) -> None:
    """The next meteor card turned over will be ``card``."""
    state.meteor_deck.append(M[card] if card != "X" else MISS)


def test_s1_start_player_is_seat_0_then_clockwise():
    state = new(players=3)
    assert state.current_player == 0 and state.round == 1
    seen = []
    while len(seen) < 7:
        turn = of_type(state.apply(state.legal_actions()[-1]), "turn")
        seen += [(e["round"], e["seat"]) for e in turn]
    assert seen[:6] == [(1, 1), (1, 2), (2, 0), (2, 1), (2, 2), (3, 0)]


def test_s2_a_turn_is_meteor_then_dice_then_actions():
    state = at_roll(new(), [2, 2, 3, 4, 5, 6])
    _next_turn_card(state, "M01")
    events = turn(state, (0, "P2"), (1, "P2"), (2, "T"), (3, "T"), (4, "T"), (5, "T"))
    kinds = types(events)
    # Phase 3 (move) of this turn, then the next turn: phase 1 (meteor) before phase 2 (roll).
    assert kinds.index("move") < kinds.index("turn") < kinds.index("meteor") < kinds.index("roll")


def test_s3_miss_card_goes_straight_to_rolling():
    state = at_roll(new(), [6] * 6)
    _next_turn_card(state, "X")
    events = turn(state, *[(d, "T") for d in range(6)])
    assert [e["card"] for e in of_type(events, "meteor")] == ["X"]
    assert state.hits == [0] * 6 and state.phase == ASSIGN


def test_s3_first_hit_places_token_second_turns_it():
    state = at_roll(new(), [6] * 6)
    _next_turn_card(state, "M04")  # 4-6-3
    turn(state, *[(d, "T") for d in range(6)])
    assert state.hits[3] == 1
    at_roll(state, [6] * 6)
    _next_turn_card(state, "M04")
    turn(state, *[(d, "T") for d in range(6)])
    assert state.hits[3] == 2 and state.status[3] == OPEN


def test_s4_third_hit_destroys_the_planet_and_scores_it():
    state = at_roll(new(), [6] * 6)
    state.hits[3] = 2
    state.pos[1][3] = 2  # space 2 of P4 is worth 3 VP
    vp = state.vp[:]
    _next_turn_card(state, "M04")
    events = turn(state, *[(d, "T") for d in range(6)])
    scored = of_type(events, "planet_scored")
    assert scored and scored[0]["planet"] == 4 and scored[0]["how"] == "destroyed"
    assert state.status[3] == DESTROYED
    assert state.vp[1] == vp[1] + 3


def test_s5_closed_top_number_strikes_the_second():
    state = at_roll(new(), [6] * 6)
    state.status[2] = DISCOVERED  # M09 is 3-1-4
    _next_turn_card(state, "M09")
    turn(state, *[(d, "T") for d in range(6)])
    assert state.hits[0] == 1 and state.hits[3] == 0


def test_s6_closed_first_and_second_numbers_strike_the_third():
    state = at_roll(new(), [6] * 6)
    state.status[2] = DISCOVERED
    state.status[0] = DESTROYED
    _next_turn_card(state, "M09")
    turn(state, *[(d, "T") for d in range(6)])
    assert state.hits[3] == 1


def test_s7_all_three_numbers_closed_means_no_strike():
    state = at_roll(new(), [6] * 6)
    for planet in (2, 0, 3):
        state.status[planet] = DISCOVERED
    _next_turn_card(state, "M09")
    events = turn(state, *[(d, "T") for d in range(6)])
    meteor = of_type(events, "meteor")[0]
    assert meteor["card"] == "M09" and meteor["planet"] is None
    assert state.hits == [0] * 6


def test_seed_example_3_1_4_strikes_planet_4_for_its_second_hit():
    state = at_roll(new(), [6] * 6)
    state.status[2] = DISCOVERED
    state.status[0] = DISCOVERED
    state.hits[3] = 1
    _next_turn_card(state, "M09")
    events = turn(state, *[(d, "T") for d in range(6)])
    assert of_type(events, "meteor")[0] == {"type": "meteor", "card": "M09", "planet": 4, "hits": 2}
    assert state.hits[3] == 2 and state.status[3] == OPEN


def test_s8_turned_cards_leave_the_game_and_only_the_current_one_shows():
    state = at_roll(new(), [6] * 6)
    _next_turn_card(state, "M01")
    _next_turn_card(state, "M02")  # drawn first
    left = len(state.meteor_deck)
    turn(state, *[(d, "T") for d in range(6)])
    assert state.view(None)["meteor"] == {"deck_left": left - 1, "card": "M02"}
    at_roll(state, [6] * 6)
    turn(state, *[(d, "T") for d in range(6)])
    view = state.view(None)
    assert view["meteor"] == {"deck_left": left - 2, "card": "M01"}
    assert "M02" not in repr(view)


def test_s9_phase_2_rolls_all_six_dice():
    state = at_roll(new(), [6] * 6, later=[1, 2, 3, 4, 5, 6])
    events = turn(state, *[(d, "T") for d in range(6)])
    roll = of_type(events, "roll")[0]
    assert roll["seat"] == 1 and roll["dice"] == [0, 1, 2, 3, 4, 5]
    assert state.dice == [1, 2, 3, 4, 5, 6] and state.loc == [UNASSIGNED] * 6


def test_s10_an_assigned_die_never_moves_or_changes():
    state = at_roll(new(), [3, 4, 5, 6, 2, 1], later=[1, 1, 1, 1, 1])
    state.crystals[0] = 5
    touch(state)
    turn(state, (0, "P2"))
    legal = state.legal_actions()
    assert not [a for a in legal if a[0] != "roll" and len(a) > 1 and a[1] == 0]
    state.apply(("roll",))
    state.apply(("reroll", 1))
    assert state.dice[0] == 3 and state.loc[0] == 1


def test_s11_rolling_again_rolls_every_unassigned_die_and_only_those():
    state = at_roll(new(), [3, 4, 5, 6, 2, 1], later=[6, 6, 6])
    turn(state, (0, "T"), (2, "T"), (4, "P6"))
    events = state.apply(("roll",))
    assert of_type(events, "roll")[0]["dice"] == [1, 3, 5]
    assert state.dice == [3, 6, 5, 6, 2, 6]


def test_s12_at_least_one_die_must_be_assigned_after_each_roll():
    state = at_roll(new(), [3, 4, 5, 6, 2, 1], later=[2, 2, 2, 2, 2])
    assert ("roll",) not in state.legal_actions()
    turn(state, (0, "T"))
    assert ("roll",) in state.legal_actions()
    state.apply(("roll",))
    assert ("roll",) not in state.legal_actions()


def test_s13_rolling_goes_on_until_every_die_is_assigned():
    state = at_roll(new(), [3, 4, 5, 6, 2, 1], later=[4] * 20)
    seat = state.turn
    for die in range(5):
        put(state, (die, "T"))
        assert state.turn == seat and state.phase == ASSIGN
        assert not [a for a in state.legal_actions() if a[0] in ("pass", "stop", "end")]
        state.apply(("roll",))
    events = turn(state, (5, "T"))
    assert "rolling_ends" in types(events) and state.turn != seat


def test_s14_nothing_happens_while_dice_are_being_assigned():
    state = at_roll(new(), [1, 1, 3, 3, 5, 6])
    crystals = state.crystals[0]
    turn(state, (0, "P1"), (1, "P1"), (2, "P2"), (3, "P2"), (4, "T"))
    assert state.pos[0] == [0] * 6 and state.crystals[0] == crystals


def test_s15_s16_planet_1_takes_only_ones_each_a_step():
    state = at_roll(new(), [1, 1, 1, 2, 5, 6])
    legal = state.legal_actions()
    assert ("assign", 0, "P1") in legal and ("assign", 3, "P1") not in legal
    assert ("assign", 4, "P1") not in legal
    turn(state, (0, "P1"), (1, "P1"), (2, "P1"), (3, "T"), (4, "T"), (5, "T"))
    assert state.pos[0][0] == 3


def test_s17_planet_2_one_step_per_pair():
    state = at_roll(new(), [4, 4, 4, 4, 2, 6])
    turn(state, (0, "P2"), (1, "P2"), (2, "P2"), (3, "P2"), (4, "T"), (5, "T"))
    assert state.pos[0][1] == 2


@pytest.mark.parametrize(("planet", "size"), [(3, 3), (4, 4), (5, 5)])
def test_s18_planets_3_to_5_one_step_per_set(planet: int, size: int):
    state = at_roll(new(), [5] * size + [2] * (6 - size))
    turn(state, *[(d, f"P{planet}") for d in range(size)], *[(d, "T") for d in range(size, 6)])
    assert state.pos[0][planet - 1] == 1


def test_s19_sets_build_across_rolls_and_incomplete_ones_are_lost():
    state = at_roll(new(), [5, 5, 5, 2, 3, 4], later=[5, 1, 6, 2, 5])
    turn(state, (0, "P5"), (1, "P5"), (2, "P5"))
    state.apply(("roll",))  # W4=5, W5=1, Y=6
    turn(state, (3, "P5"))
    state.apply(("roll",))  # W5=2, Y=5
    turn(state, (4, "T"), (5, "P5"))
    assert state.pos[0][4] == 1  # five 5s over three rolls
    state = at_roll(new(), [5, 5, 5, 2, 3, 4])
    turn(state, (0, "P5"), (1, "P5"), (2, "P5"), (3, "T"), (4, "T"), (5, "T"))
    assert state.pos[0][4] == 0


def test_s20_planet_6_counts_different_white_values_plus_yellow_pips():
    state = at_roll(new(), [2, 2, 5, 3, 1, 4])
    turn(state, (0, "P6"), (1, "P6"), (2, "P6"), (3, "T"), (4, "T"), (5, "P6"))
    assert state.pos[0][5] == 2 + 4


def test_s21_yellow_on_planet_6_ends_phase_2_at_once():
    state = at_roll(new(), [2, 3, 4, 5, 6, 3])
    seat = state.turn
    events = turn(state, (0, "P6"), (5, "P6"))
    ended = of_type(events, "rolling_ends")[0]
    assert ended["lost"] == [1, 2, 3, 4]
    assert state.turn != seat


def test_s21_yellow_elsewhere_does_not_end_phase_2():
    state = at_roll(new(), [2, 3, 4, 5, 6, 3])
    turn(state, (5, "T"))
    assert state.phase == ASSIGN and state.turn == 0


def test_s22_s23_s24_dice_matching_an_alien_card_recruit_it():
    state = at_roll(new(), [6, 3, 2, 2, 2, 2], row=["A07", "A03", "A12", "A13"])
    legal = state.legal_actions()
    assert ("assign", 0, "A1") in legal and ("assign", 1, "A1") not in legal
    turn(state, (0, "A1"), (1, "T"), (2, "T"), (3, "T"), (4, "T"), (5, "T"))
    assert [a for a in state.held[0]] == [6]  # A07 Grib


def test_s25_s26_two_die_cards_fill_across_rolls_else_the_die_is_lost():
    state = at_roll(new(), [3, 1, 1, 1, 1, 1], later=[3, 1, 1, 1, 1], row=["A03", None, None, None])
    turn(state, (0, "A1"))
    state.apply(("roll",))
    turn(state, (1, "A1"), (2, "T"), (3, "T"), (4, "T"), (5, "T"))
    assert 2 in state.held[0]  # A03 Tarn
    state = at_roll(new(), [3, 1, 1, 1, 1, 1], row=["A03", None, None, None])
    turn(state, (0, "A1"), (1, "T"), (2, "T"), (3, "T"), (4, "T"), (5, "T"))
    assert state.held[0] == [] and state.row[0] == 2


def test_s27_the_yellow_die_can_recruit():
    state = at_roll(new(), [1, 1, 1, 1, 1, 6], row=["A07", None, None, None])
    assert ("assign", 5, "A1") in state.legal_actions()
    turn(state, (5, "A1"), *[(d, "T") for d in range(5)])
    assert state.held[0] == [6]


def test_s28_s45_s46_s47_one_crystal_per_die_on_the_technology_card():
    state = at_roll(new(), [1, 6, 3, 2, 2, 2])
    state.crystals[0] = 0
    turn(state, (0, "T"), (1, "T"), (5, "T"), (2, "P3"), (3, "P3"), (4, "P3"))
    assert state.crystals[0] == 3


def test_s29_a_turn_has_one_to_six_rolls():
    for seed in range(30):
        state = new(seed=seed)
        rolls = [1]  # the first turn's roll happened in new()
        chooser = random.Random(seed)
        while not state.is_over:
            legal = state.legal_actions()
            for event in state.apply(legal[chooser.randrange(len(legal))]):
                if event["type"] == "turn":
                    rolls.append(0)
                elif event["type"] == "roll":
                    rolls[-1] += 1
        # The storm's turn (if any) has no roll; every other turn has 1 to 6.
        assert all(1 <= count <= 6 for count in rolls[:-1]) and rolls[-1] <= 6


def test_s30_s31_s32_s33_phase_3_moves_by_the_assigned_dice():
    state = at_roll(new(), [1, 4, 4, 2, 6, 3])
    turn(state, (0, "P1"), (1, "P2"), (2, "P2"), (3, "P6"), (4, "P6"), (5, "P6"))
    assert state.pos[0][:6] == [1, 1, 0, 0, 0, 2 + 3]


def test_s34_reaching_a_planet_discovers_and_scores_it_at_once():
    state = at_roll(new(), [1, 6, 6, 6, 6, 6])
    state.pos[0][0] = 15
    state.pos[1][0] = 10  # worth 3 VP
    vp = state.vp[:]
    events = turn(state, (0, "P1"), (1, "T"), (2, "T"), (3, "T"), (4, "T"), (5, "T"))
    assert of_type(events, "planet_scored")[0]["how"] == "discovered"
    assert state.status[0] == DISCOVERED
    assert state.vp[0] == vp[0] + 10 and state.vp[1] == vp[1] + 3


def test_s35_on_planet_6_the_later_arrival_goes_on_top_and_lower_is_ahead():
    state = at_roll(new(), [3, 1, 1, 1, 1, 1])
    state.pos[1][5] = 39
    state.pos[0][5] = 38
    touch(state)
    turn(state, (0, "P6"), (1, "T"), (2, "T"), (3, "T"), (4, "T"), (5, "T"))  # seat 0 to 39
    assert state.pos[0][5] == 39 and state.stamp[0] > state.stamp[1]
    assert state.view(None)["p6_order"][:2] == [1, 0]


def test_s36_only_ending_exactly_on_a_token_takes_it():
    state = at_roll(new(), [1, 1, 1, 1, 1, 6])
    state.pos[0][0] = 3
    turn(state, (0, "P1"), (1, "P1"), (2, "T"), (3, "T"), (4, "T"), (5, "T"))  # 3 -> 5
    assert len(state.tokens[0]) == 1 and state.board_tokens[TOKEN_AT[(0, 5)]] == 0
    state = at_roll(new(), [1, 1, 1, 1, 1, 6])
    state.pos[0][0] = 3
    turn(state, (0, "P1"), (1, "P1"), (2, "P1"), (3, "T"), (4, "T"), (5, "T"))  # 3 -> 6
    assert state.tokens[0] == [] and state.board_tokens[TOKEN_AT[(0, 5)]] != 0


def test_s37_infodere_values_stay_secret_and_score_at_the_end():
    state = at_roll(new(), [1, 1, 6, 6, 6, 6])
    state.pos[0][0] = 3
    value = state.board_tokens[TOKEN_AT[(0, 5)]]
    events = turn(state, (0, "P1"), (1, "P1"), (2, "T"), (3, "T"), (4, "T"), (5, "T"))
    assert "value" not in of_type(events, "infodere")[0]
    assert state.view(0)["seats"][0]["infodere"] == [value]
    assert state.view(1)["seats"][0]["infodere"] is None
    assert state.view(1)["seats"][0]["infodere_count"] == 1
    before = state.vp[0]
    state.meteor_deck.clear()  # the storm ends the game at the next turn
    at_roll(state, [6] * 6)
    turn(state, *[(d, "T") for d in range(6)])
    assert state.is_over and state.final is not None
    assert state.final["infodere_vp"][0] == value
    assert state.scores()[0] >= before + value


def test_s38_s39_s40_recruiting_takes_the_card_and_refills_the_slot():
    state = at_roll(new(), [5, 1, 1, 1, 1, 1], row=["A16", None, None, None])
    top = state.alien_deck[-1]
    events = turn(state, (0, "A1"), (1, "T"), (2, "T"), (3, "T"), (4, "T"), (5, "T"))
    assert state.held[0] == [15] and state.row[0] == top
    assert of_type(events, "refill")[0]["slot"] == "A1"


def test_s41_with_the_alien_deck_empty_the_row_is_not_refilled():
    state = at_roll(new(), [5, 1, 1, 1, 1, 1], row=["A16", "A07", None, None])
    state.alien_deck.clear()
    turn(state, (0, "A1"), (1, "T"), (2, "T"), (3, "T"), (4, "T"), (5, "T"))
    assert state.row == [-1, 6, -1, -1]


def test_s42_at_most_three_alien_cards_per_turn():
    state = at_roll(new(), [6, 3, 1, 4, 2, 2], row=["A07", "A08", "A09", "A10"])
    turn(state, (0, "A1"), (1, "A2"), (2, "A3"))
    assert ("assign", 3, "A4") not in state.legal_actions()
    turn(state, (3, "T"), (4, "T"), (5, "T"))
    assert sorted(state.held[0]) == [6, 7, 8]


def test_s43_s44_a_sixth_alien_forces_a_retirement():
    state = at_roll(new(), [6, 1, 1, 1, 1, 1], row=["A07", None, None, None])
    give(state, 0, "A01", "A02", "A03", "A04", "A05")
    turn(state, (0, "A1"), (1, "T"), (2, "T"), (3, "T"), (4, "T"))
    turn(state, (5, "T"))
    assert state.phase == RETIRE
    assert state.legal_actions() == [
        ("retire", a) for a in ("A01", "A02", "A03", "A04", "A05", "A07")
    ]
    vp = state.vp[0]
    state.apply(("retire", "A02"))
    assert sorted(state.held[0]) == [0, 2, 3, 4, 6] and state.vp[0] == vp + 2


def test_s48_at_most_five_crystals():
    state = at_roll(new(), [1, 2, 3, 4, 5, 6])
    state.crystals[0] = 3
    events = turn(state, *[(d, "T") for d in range(6)])
    assert state.crystals[0] == 5
    assert of_type(events, "crystals")[0]["returned"] == 4
