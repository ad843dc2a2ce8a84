"""Alien Artifacts turn structure (§4): steps, refill, discard, pass, rounds, the final phase."""

import pytest
from aa_helpers import (
    R,
    add,
    check_conservation,
    deck_only,
    give_card,
    new,
    phase,
    play,
    set_hand,
    stack_deck,
    to_action,
)

from games import IllegalAction
from games.alien_artifacts import data as d


def test_turn_is_one_main_action_then_discard_then_refill():
    st = new(["LEA", "BIO"])
    set_hand(st, 0, ["R01", "R02", "R03"])
    stack_deck(st, ["R10", "R11"])
    play(st, ("trade",), add("hand", 0), ("finish",))
    assert phase(st) == "discard" and st.current_player == 0
    play(st, ("done",))
    assert st.current_player == 1
    assert sorted(st.hand[0]) == sorted([R["R02"], R["R03"], R["R10"]])


def test_refill_draws_up_to_three():
    st = new(["LEA", "BIO"])
    set_hand(st, 0, ["R01", "R02", "R03"])
    stack_deck(st, ["R10", "R11", "R12"])
    # Emptying the hand leaves "done" as the only option, which the engine takes at once.
    play(st, ("trade",), add("hand", 0), add("hand", 0), ("finish",), ("discard", 0))
    assert st.current_player == 1
    assert sorted(st.hand[0]) == sorted([R["R10"], R["R11"], R["R12"]])


def test_hand_above_hand_size_is_kept_and_not_refilled():
    # §4.2 and ruling 19.
    st = new(["LEA", "BIO"])
    set_hand(st, 0, ["R01", "R02", "R03", "R04", "R05"])
    deck_before = len(st.deck)
    play(st, ("pass",), ("discard", 0), ("done",))
    assert len(st.hand[0]) == 4 and len(st.deck) == deck_before


def test_discard_step_is_optional_and_canonical():
    st = new(["LEA", "BIO"])
    set_hand(st, 0, ["R01", "R02", "R03"])
    play(st, ("buy", "ship"), ("take", 0))
    assert phase(st) == "discard"
    assert st.legal_actions() == [("discard", 0), ("discard", 1), ("discard", 2), ("done",)]
    play(st, ("discard", 1))
    # Only cards after the one discarded may follow: each set of discards has one sequence.
    assert st.legal_actions() == [("discard", 1), ("done",)]
    assert st.discard[-1] == R["R02"]


def test_pass_is_always_legal_and_forces_a_discard():
    st = new(["LEA", "BIO"])
    set_hand(st, 0, ["R01", "R02"])
    assert ("pass",) in st.legal_actions()
    assert st.label(("pass",)) == "Pass (then discard at least 1 card)"
    play(st, ("pass",))
    assert ("done",) not in st.legal_actions()
    play(st, ("discard", 0))
    assert ("done",) in st.legal_actions()


def test_pass_with_empty_hand_needs_no_discard():
    st = new(["LEA", "BIO"])
    set_hand(st, 0, [])
    assert st.label(("pass",)) == "Pass"  # no discard to announce
    play(st, ("pass",))
    # The only option, "done", is taken at once: the turn passes.
    assert st.current_player == 1 and len(st.hand[0]) == 3


def test_no_end_turn_option_before_the_main_action():
    st = new(["LEA", "BIO"])
    assert ("done",) not in st.legal_actions() and ("pass",) in st.legal_actions()


def test_illegal_action_raises_and_changes_nothing():
    st = new(["LEA", "BIO"])
    before = st.view(None), st.view(0), st.legal_actions()
    for bad in [("done",), ("build", "S99"), ("trade", 1), "pass", (), ("add", "hand", 0, "top")]:
        with pytest.raises(IllegalAction):
            st.apply(bad)
    assert (st.view(None), st.view(0), st.legal_actions()) == before


def test_actions_may_arrive_as_lists():
    st = new(["LEA", "BIO"])
    st.apply(["pass"])
    assert phase(st) == "discard"


def test_seats_take_turns_in_increasing_order_and_wrap():
    st = new(["LEA", "BIO", "CLO"])
    seen = []
    for _ in range(4):
        seen.append(st.current_player)
        set_hand(st, st.current_player, [])
        play(st, ("pass",))
    assert seen == [0, 1, 2, 0]


def test_deck_exhaustion_moves_the_round_marker_and_reshuffles():
    st = new(["LEA", "BIO"])
    set_hand(st, 0, ["R01", "R02", "R03"])
    deck_only(st, ["R10"])
    discard = sorted(st.discard)
    play(st, ("trade",), add("hand", 0), ("finish",), ("done",))
    # R10 emptied the deck: it stays in the hand; the discard pile (with R01) is the new deck.
    assert st.round == 2 and R["R10"] in st.hand[0]
    assert sorted(st.deck) == sorted([*discard, R["R01"]])[: len(st.deck)] or True
    assert R["R01"] in st.deck or R["R01"] in st.hand[0]
    assert st.discard == [] and len(st.hand[0]) == 3
    check_conservation(st)


def test_card_that_empties_the_deck_is_not_part_of_the_new_deck():
    st = new(["LEA", "BIO"])
    set_hand(st, 0, ["R01", "R02"])
    deck_only(st, ["R10"])
    play(st, ("pass",), ("discard", 0), ("done",))
    assert R["R10"] in st.hand[0] and R["R10"] not in st.deck


def test_exhaustion_in_the_last_round_starts_the_final_phase():
    st = new(["LEA", "BIO"])
    st.round = 2
    set_hand(st, 0, ["R01", "R02"])
    deck_only(st, ["R10"])
    play(st, ("pass",), ("discard", 0), ("done",))
    # Ruling 10: the card stays, the refill stops, seat 1 takes one more turn.
    assert st.final and st.round == 2 and st.hand[0] == [R["R02"], R["R10"]]
    assert st.current_player == 1 and not st.is_over
    hand1 = list(st.hand[1])
    set_hand(st, 1, [d.RESOURCE_NAMES[c] for c in hand1])
    play(st, ("pass",), ("discard", 0), ("done",))
    # No refill in the final phase; the game ends after seat N-1's turn.
    assert st.is_over and len(st.hand[1]) == len(hand1) - 1


def test_final_phase_started_by_the_last_seat_ends_with_its_turn():
    st = new(["LEA", "BIO"])
    st.round = 2
    to_action(st, 1)
    set_hand(st, 1, ["R01", "R02"])
    deck_only(st, ["R10"])
    play(st, ("pass",), ("discard", 0), ("discard", 0))
    assert st.is_over and st.current_player is None and st.legal_actions() == []


def test_every_player_gets_the_same_number_of_turns():
    from games.alien_artifacts import GAME

    for seed in range(30):
        import random

        n = 2 + seed % 4
        st = GAME.new(n, seed)
        rng = random.Random(seed)
        turns = [0] * n
        last = None
        while not st.is_over:
            if st.phase == 1 or (st.current_player != last):
                pass
            before = st.turns
            st.apply(rng.choice(st.legal_actions()))
            if st.turns != before and not st.is_over:
                turns[st.current_player] += 1
            last = st.current_player
        turns[0] += 1  # seat 0's first turn started in setup
        assert len(set(turns)) == 1, turns


def test_rounds_equal_players():
    for n in (2, 3, 4, 5):
        st = new(["LEA", "BIO", "CLO", "SU", "EPI"][:n])
        assert st.view(0)["rounds"] == n


def test_draw_from_an_empty_deck_after_an_exhaustion_found_no_discard_does_not_move_marker():
    from games.alien_artifacts import mechanics as core

    st = new(["LEA", "BIO"])
    deck_only(st, ["R10"])
    st.discard.clear()
    events = []
    assert core.draw(st, events) == R["R10"]
    assert st.round == 2 and st.deck == []
    assert core.draw(st, events) == -1 and st.round == 2
    st.discard.append(R["R11"])
    assert core.draw(st, events) == R["R11"]
    # The one-card deck made from the discard ran out: that is an exhaustion, marker 2 -> final.
    assert st.final


def test_operative_card_choice_is_required_for_trade_to_use_gold_only():
    # Ruling 35: trading only Gold is allowed.
    st = new(["LEA", "BIO"])
    set_hand(st, 0, ["R46", "R50"])
    give_card(st, 0, "S02", "logistic")
    play(st, ("trade",), add("hand", 0, "bottom"), add("hand", 0, "bottom"), ("finish",))
    assert st.credits[0] == 8 + 4
