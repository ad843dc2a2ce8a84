"""Alien Artifacts actions other than builds: Buy (§5.4), Trade (§5.5), Pilgrimage (§5.6),
operative actions (§5.7)."""

import pytest
from aa_helpers import (
    M,
    R,
    add,
    clear_empire,
    give_card,
    new,
    phase,
    play,
    projects,
    set_hand,
    set_store,
    stack_deck,
    to_action,
)

from games.alien_artifacts import data as d
from games.alien_artifacts import mechanics as core


def test_buy_costs_five_credits_and_takes_the_top_card():
    st = new(["SU", "BIO"])
    top = st.market[d.TECH][0]
    play(st, ("buy", "tech"))
    assert st.credits[0] == 3 and phase(st) == "buy_pick"
    assert st.legal_actions() == [("take", 0), ("dig",)]
    play(st, ("take", 0))
    assert projects(st, 0)[-1] == d.MARKET_NAMES[top] and st.pdep[0][-1] == 0
    assert st.market[d.TECH][0] != top


def test_dig_costs_one_credit_and_unchosen_cards_go_to_the_bottom_in_order():
    st = new(["SU", "BIO"])
    deck = list(st.market[d.SHIP])
    play(st, ("buy", "ship"), ("dig",), ("dig",))
    assert st.credits[0] == 8 - 5 - 2
    assert st.legal_actions() == [("take", 0), ("take", 1), ("take", 2), ("dig",)]
    play(st, ("take", 1))
    assert projects(st, 0)[-1] == d.MARKET_NAMES[deck[1]]
    assert st.market[d.SHIP] == [*deck[3:], deck[0], deck[2]]


def test_dug_cards_are_public_knowledge():
    st = new(["SU", "BIO"])
    deck = list(st.market[d.SHIP])
    play(st, ("buy", "ship"), ("dig",), ("take", 0))
    v = st.view(1)["market"]["ship"]
    assert v[-1] == d.MARKET_NAMES[deck[1]] and st.view(None)["market"]["ship"][-1] is not None


def test_cannot_dig_without_credits_or_past_the_last_card():
    # Ruling 2 and ruling 1.
    st = new(["SU", "BIO"])
    st.credits[0] = 5
    to_action(st)
    play(st, ("buy", "ship"))
    assert st.phase != 6 or ("dig",) not in st.legal_actions()
    st = new(["SU", "BIO"])
    st.market[d.PLANET][1:] = []
    to_action(st)
    before = len(st.market[d.PLANET])
    play(st, ("buy", "planet"))
    assert before == 1 and st.market[d.PLANET] == []


def test_cannot_buy_from_an_empty_deck_or_without_the_price():
    st = new(["SU", "BIO"])
    st.market[d.TECH].clear()
    st.credits[0] = 4
    to_action(st)
    assert not any(a[0] == "buy" for a in st.legal_actions())
    st.credits[0] = 5
    to_action(st)
    assert [a for a in st.legal_actions() if a[0] == "buy"] == [("buy", "ship"), ("buy", "planet")]


def test_buy_price_discounts_and_floor_two():
    st = new(["LEA", "BIO"])
    assert core.buy_price(st, 0, d.SHIP) == 3  # League -2
    give_card(st, 0, "T05", "logistic")
    assert core.buy_price(st, 0, d.SHIP) == 2
    give_card(st, 0, "P02", "logistic")
    assert core.buy_price(st, 0, d.SHIP) == 2  # floor
    assert core.buy_price(st, 1, d.SHIP) == 5
    give_card(st, 1, "P03", "logistic")
    assert core.buy_price(st, 1, d.TECH) == 4


def test_trade_gives_one_credit_per_symbol():
    st = new(["SU", "BIO"])
    set_hand(st, 0, ["R01", "R04"])
    play(st, ("trade",), add("hand", 0), add("hand", 0))
    assert st.credits[0] == 8 + 6


def test_trade_keeps_to_one_colour_with_gold_wild():
    st = new(["SU", "BIO"])
    set_hand(st, 0, ["R43", "R01", "R15"])
    play(st, ("trade",), add("hand", 0, "bottom"))  # Gold 1 leaves every colour open
    assert len([a for a in st.legal_actions() if a[0] == "add"]) == 4
    st = new(["SU", "BIO"])
    set_hand(st, 0, ["R01", "R02", "R15"])
    play(st, ("trade",), add("hand", 0, "top"))  # Red fixes the colour
    assert st.legal_actions() == [add("hand", 0, "top"), ("finish",)]


def test_trade_is_bound_by_the_production_limit():
    st = new(["SU", "BIO"])
    set_hand(st, 0, ["R01", "R02", "R03"])
    play(st, ("trade",), add("hand", 0), add("hand", 0))
    assert st.credits[0] == 14 and len(st.hand[0]) == 1


def test_trade_needs_a_card():
    # Ruling 35 and ruling 3.
    st = new(["SU", "BIO"])
    set_hand(st, 0, [])
    assert ("trade",) not in st.legal_actions()
    set_hand(st, 0, ["R11"])
    assert ("trade",) in st.legal_actions()


def test_offensive_costs_five_red_and_every_operative_ship_attacks_in_empire_order():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "S07")
    give_card(st, 0, "S04", "logistic")
    give_card(st, 0, "S16")
    set_hand(st, 0, ["R01", "R29"])
    play(st, ("offensive",), add("hand", 0), add("hand", 0, "bottom"))
    assert phase(st) == "attack_target" and st.attacker == M["S07"]
    play(st, ("target", "player", 1))
    assert st.attacker == M["S16"]


def test_operative_action_refuses_gold():
    # Ruling 21.
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "S07")
    set_hand(st, 0, ["R43", "R44"])  # Red 3/Gold 1 twice: 6 Red, Gold not allowed
    play(st, ("offensive",))
    assert all(a[3] == "top" for a in st.legal_actions() if a[0] == "add")
    set_hand(st, 0, ["R46", "R11"])  # Red 2 + Red 1 + Gold 2 would be 5 only with Gold
    to_action(st)
    assert ("offensive",) not in st.legal_actions()


def test_operative_action_needs_an_operative_card_of_its_type():
    # Ruling 24.
    st = new(["LEA", "BIO"])
    set_hand(st, 0, ["R01", "R02", "R15"])
    acts = st.legal_actions()
    assert ("offensive",) not in acts and ("income",) not in acts and ("mine",) not in acts


def test_operative_payment_never_dead_ends():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "T01")
    set_hand(st, 0, ["R01", "R11", "R24"])  # Blue 3, Blue 3, Blue 3
    play(st, ("income",))
    assert sorted(a for a in st.legal_actions() if a[0] == "add") == [
        add("hand", 0, "bottom"),
        add("hand", 1, "bottom"),
    ]  # the last card alone cannot reach 5


def test_collect_income_scores_techs_on_the_state_after_payment():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "T03")  # 1 VP per 4 credits
    st.credits[0] = 8
    set_hand(st, 0, ["R01", "R11"])
    play(st, ("income",), add("hand", 0, "bottom"), add("hand", 0, "bottom"))
    assert st.vp[0] == 2


def test_income_is_legal_even_if_it_scores_nothing():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "T08")
    set_hand(st, 0, ["R01", "R11"])
    assert ("income",) in st.legal_actions()
    play(st, ("income",), add("hand", 0, "bottom"), add("hand", 0, "bottom"))
    assert st.vp[0] == 0


def test_mine_planets_produces_one_card_per_operative_planet():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "P05")  # Explore
    give_card(st, 0, "P06", "logistic")
    give_card(st, 0, "P08")  # Exploit
    set_hand(st, 0, ["R29", "R30"])
    stack_deck(st, ["R01", "R03"])  # Explore, Exploit
    play(st, ("mine",), add("hand", 0), add("hand", 0))
    assert st.store[0] == [R["R01"], R["R03"]] and st.vp[0] == 4


def test_pilgrimage_costs_two_credits_and_five_of_one_colour_for_an_artifact():
    st = new(["EPI", "BIO"])
    set_hand(st, 0, ["R01", "R02", "R15"])
    assert ("pilgrimage",) in st.legal_actions()
    play(st, ("pilgrimage",), add("hand", 0))
    assert st.pay_col == d.RED
    play(st, add("hand", 0))
    assert st.credits[0] == 6 and len(st.arts[0]) == 1 and st.gained[0] == 1


def test_pilgrimage_never_uses_gold_and_needs_two_credits():
    # Ruling 36.
    st = new(["EPI", "BIO"])
    set_hand(st, 0, ["R43", "R11"])  # Red 3 + Red 1 (+ Gold 1 would make 5)
    assert ("pilgrimage",) not in st.legal_actions()
    set_hand(st, 0, ["R01", "R02"])
    st.credits[0] = 1
    to_action(st)
    assert ("pilgrimage",) not in st.legal_actions()


def test_only_episcopacy_has_pilgrimage():
    st = new(["SU", "EPI"])
    set_hand(st, 0, ["R01", "R02", "R03"])
    assert ("pilgrimage",) not in st.legal_actions()


@pytest.mark.parametrize("kind", ["offensive", "income", "mine"])
def test_operative_actions_are_never_deposits(kind):
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, {"offensive": "S07", "income": "T01", "mine": "P05"}[kind])
    set_hand(st, 0, ["R11", "R25", "R39"])  # 1 of each colour only
    assert (kind,) not in st.legal_actions()


def test_store_cards_pay_operative_actions():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "P05")
    set_hand(st, 0, [])
    set_store(st, 0, ["R29", "R30"])
    assert ("mine",) in st.legal_actions()
