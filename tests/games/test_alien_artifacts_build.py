"""Alien Artifacts payments (§5.2, §12.3) and build actions (§5.3, §6)."""

from aa_helpers import (
    M,
    R,
    add,
    clear_empire,
    clear_projects,
    empire,
    give_card,
    give_project,
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


def _ships(st, p, count):
    clear_empire(st, p)
    for name in ("S07", "S12", "S16", "S10")[:count]:
        give_card(st, p, name, "operative")


def test_third_ship_costs_seven():
    # Seed example: two ships in the empire, the third costs 5 + 2 = 7 military.
    st = new(["LEA", "BIO"])
    _ships(st, 0, 2)
    assert core.build_cost(st, 0, d.SHIP) == 7


def test_third_ship_with_a_military_logistic_planet_costs_five():
    st = new(["LEA", "BIO"])
    _ships(st, 0, 2)
    give_card(st, 0, "P02", "logistic")  # Forge World: ships cost 2 less
    assert core.build_cost(st, 0, d.SHIP) == 5


def test_cost_counts_cards_of_the_type_on_either_side():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "T01", "logistic")
    give_card(st, 0, "T02", "operative")
    give_card(st, 0, "S04", "operative")
    assert core.build_cost(st, 0, d.TECH) == 7
    assert core.build_cost(st, 0, d.SHIP) == 6
    assert core.build_cost(st, 0, d.PLANET) == 5


def test_logistic_planets_stack_and_cost_floor_is_zero():
    # Ruling 23.
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    for name in ("P02", "P04", "P08", "P10"):
        give_card(st, 0, name, "logistic")
    assert core.build_cost(st, 0, d.SHIP) == 0
    assert core.build_cost(st, 0, d.PLANET) == 9


def test_colonial_charter_makes_planets_one_cheaper():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "T11", "logistic")
    give_card(st, 0, "P05", "logistic")  # planets -2
    assert core.build_cost(st, 0, d.PLANET) == 5 + 1 - 2 - 1


def test_operative_planet_gives_no_discount():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "P02", "operative")
    assert core.build_cost(st, 0, d.SHIP) == 5


def test_build_completes_when_payment_covers_the_cost():
    st = new(["LEA", "BIO"])
    clear_projects(st, 0)
    give_project(st, 0, "S04")
    set_hand(st, 0, ["R01", "R29", "R15"])  # Red 3, Red 3 (bottom), Blue/Green
    # Paying removes the card: R29 moves up to hand index 0.
    events = play(st, ("build", "S04"), add("hand", 0), add("hand", 0, "bottom"))
    # 6 >= 5: finish was the only option; now the side.
    assert phase(st) == "choose_side"
    assert any(e["type"] == "completed" for e in events)
    assert st.legal_actions() == [("side", "logistic"), ("side", "operative")]
    play(st, ("side", "logistic"))
    assert empire(st, 0)[-1] == ["S04", "logistic"] and projects(st, 0) == []
    assert st.discard[-2:] == [R["R01"], R["R29"]]


def test_paying_uses_one_half_per_card_and_loses_the_other():
    st = new(["LEA", "BIO"])
    clear_projects(st, 0)
    give_project(st, 0, "T05")
    set_hand(st, 0, ["R01"])
    play(st, ("build", "T05"))
    assert st.legal_actions() == [add("hand", 0, "bottom")] or st.pay_val == 3


def test_build_offers_only_halves_of_the_type_colour_or_gold():
    st = new(["LEA", "BIO"])
    clear_projects(st, 0)
    give_project(st, 0, "P05")
    set_hand(st, 0, ["R01", "R15", "R51"])  # Red/Blue, Blue/Green, Green/Gold
    play(st, ("build", "P05"))
    assert st.legal_actions() == [
        add("hand", 1, "bottom"),
        add("hand", 2, "top"),
        add("hand", 2, "bottom"),
    ]


def test_no_build_option_without_a_fitting_card():
    st = new(["LEA", "BIO"])
    clear_projects(st, 0)
    give_project(st, 0, "P05")
    set_hand(st, 0, ["R01", "R02"])  # Red/Blue only
    assert ("build", "P05") not in st.legal_actions()


def test_gold_is_wild_for_builds():
    st = new(["LEA", "BIO"])
    clear_projects(st, 0)
    give_project(st, 0, "S04")
    set_hand(st, 0, ["R46", "R50"])  # Red 2/Gold 2, Blue 2/Gold 2
    play(st, ("build", "S04"), add("hand", 0, "bottom"), add("hand", 0, "bottom"))
    # A deposit of 4; the rest of the turn had single options only, so seat 1 is to move.
    assert st.pdep[0][0] == 4 and st.current_player == 1


def test_production_limit_is_two_cards():
    st = new(["LEA", "BIO"])
    clear_projects(st, 0)
    give_project(st, 0, "S04")
    set_hand(st, 0, ["R11", "R39", "R43"])  # Red 1, Red 3, Red 3
    play(st, ("build", "S04"), add("hand", 0), add("hand", 0, "bottom"))
    # Two cards paid (4 < 5): a deposit, no third card.
    assert st.pdep[0] == [4] and len(st.hand[0]) == 1


def test_deposit_over_two_turns_completes_the_card():
    st = new(["LEA", "BIO"])
    clear_projects(st, 0)
    give_project(st, 0, "S04")
    _ships(st, 0, 2)  # cost 7
    set_hand(st, 0, ["R11", "R39", "R15"])
    play(st, ("build", "S04"), add("hand", 0), add("hand", 0, "bottom"))
    assert st.pdep[0] == [4] and sorted(st.pcards[0][0]) == [R["R11"], R["R39"]]
    # The deposited cards stay under the project (ruling 6), not in the discard.
    assert R["R11"] not in st.discard
    to_action(st, 0)
    set_hand(st, 0, ["R01", "R02"])
    play(st, ("build", "S04"), add("hand", 0))
    assert phase(st) == "choose_side"
    assert R["R11"] in st.discard and R["R01"] in st.discard


def test_cost_is_computed_again_at_each_build():
    # Ruling 5: the cost rises after another card of the type is built.
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    clear_projects(st, 0)
    give_project(st, 0, "S04", deposit=5)
    give_card(st, 0, "S07")
    set_hand(st, 0, ["R11", "R39"])
    events = play(st, ("build", "S04"))
    assert events[0]["cost"] == 6 and st.pay_req == 1 and phase(st) == "pay"


def test_zero_card_build_when_the_deposit_covers_the_cost():
    # Ruling 4: a logistic planet gained after a deposit makes a 0-card build possible.
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    clear_projects(st, 0)
    give_project(st, 0, "S04", deposit=4)
    give_card(st, 0, "P02", "logistic")
    set_hand(st, 0, [])
    assert ("build", "S04") in st.legal_actions()
    play(st, ("build", "S04"))
    assert phase(st) == "choose_side"


def test_overpaying_only_with_the_last_card():
    # P6 / ruling 20: once the cost is covered, no card may be added; the excess is lost.
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    clear_projects(st, 0)
    give_project(st, 0, "S04", deposit=3)
    give_card(st, 0, "S03", "logistic")  # limit 3 for ships
    set_hand(st, 0, ["R01", "R02", "R03"])
    play(st, ("build", "S04"), add("hand", 0))
    assert phase(st) == "choose_side"  # 3 + 3 >= 5: nothing more could be added


def test_logistic_ship_raises_the_limit_of_its_action():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "S04", "logistic")
    give_card(st, 0, "S12", "logistic")
    assert core.limit(st, 0, d.A_SHIP) == 4
    assert core.limit(st, 0, d.A_TECH) == 2


def test_planet_store_cards_pay_and_count_toward_the_limit():
    st = new(["LEA", "BIO"])
    clear_projects(st, 0)
    give_project(st, 0, "P05")
    set_hand(st, 0, ["R29"])
    set_store(st, 0, ["R31", "R33"])
    play(st, ("build", "P05"), add("hand", 0), add("store", 0))
    assert phase(st) == "choose_side"
    assert st.store[0] == [R["R33"]]


def test_canonical_add_order_has_no_duplicates():
    st = new(["LEA", "BIO"])
    clear_projects(st, 0)
    give_project(st, 0, "S04")
    _ships(st, 0, 3)  # cost 8, nothing can complete
    set_hand(st, 0, ["R11", "R39"])
    set_store(st, 0, ["R13"])
    play(st, ("build", "S04"), add("hand", 1, "bottom"))
    # Only cards numbered after the one added: the store card (hand 0 is skipped for good).
    assert st.legal_actions() == [add("store", 0), ("finish",)]


def test_side_choice_operative_ship_attacks_at_once():
    st = new(["LEA", "BIO"])
    clear_projects(st, 0)
    give_project(st, 0, "S04")
    set_hand(st, 0, ["R01", "R29"])
    play(st, ("build", "S04"), add("hand", 0), add("hand", 0, "bottom"), ("side", "operative"))
    assert phase(st) == "attack_target" and st.attacker == M["S04"]


def test_operative_planet_produces_three_when_built_with_harvest():
    st = new(["LEA", "BIO"])
    clear_projects(st, 0)
    give_project(st, 0, "P05")  # Ocean Deep: Explore
    set_hand(st, 0, ["R29", "R33"])
    stack_deck(st, ["R01", "R02", "R05"])  # Explore, Expand, Explore
    play(st, ("build", "P05"), add("hand", 0), add("hand", 0), ("side", "operative"))
    assert st.store[0] == [R["R01"], R["R02"], R["R05"]] and st.vp[0] == 4


def test_operative_technology_does_not_score_when_built():
    st = new(["LEA", "BIO"])
    clear_projects(st, 0)
    give_project(st, 0, "T13")
    set_hand(st, 0, ["R15", "R16"])
    play(st, ("build", "T13"), add("hand", 0), add("hand", 0), ("side", "operative"))
    assert st.vp[0] == 0


def test_logistic_discount_does_not_change_the_card_just_completed():
    st = new(["LEA", "BIO"])
    clear_projects(st, 0)
    give_project(st, 0, "P02")
    set_hand(st, 0, ["R29", "R30"])
    events = play(st, ("build", "P02"), add("hand", 0), add("hand", 0), ("side", "logistic"))
    assert next(e for e in events if e["type"] == "action")["cost"] == 5


def test_completed_card_goes_to_the_end_of_the_empire():
    st = new(["LEA", "BIO"])
    clear_projects(st, 0)
    give_project(st, 0, "T05")
    set_hand(st, 0, ["R15", "R16"])
    play(st, ("build", "T05"), add("hand", 0), add("hand", 0), ("side", "logistic"))
    assert [c for c, _ in empire(st, 0)] == ["S08", "T05"]
