"""One test per numbered ruling of §13 (edge cases and clarifications)."""

from aa_helpers import (
    A,
    M,
    R,
    add,
    clear_empire,
    clear_projects,
    deck_only,
    give_artifact,
    give_card,
    give_project,
    new,
    phase,
    play,
    set_display,
    set_hand,
    set_plan,
    set_store,
    stack_deck,
    to_action,
    to_pre,
)

from games.alien_artifacts import codes as k
from games.alien_artifacts import data as d
from games.alien_artifacts import mechanics as core
from games.alien_artifacts import scoring


def _arm(st, p, ship, card):
    if M[ship] not in st.empire[p]:
        give_card(st, p, ship)
    stack_deck(st, [card])
    st.cur, st.phase, st.attacker, st.queue, st.ctx = p, k.ATTACK_TARGET, M[ship], [], k.CTX_MAIN
    st._legal = None


def test_ruling_01_empty_market_deck_cannot_be_bought_from():
    st = new(["SU", "BIO"])
    for deck in st.market:
        deck.clear()
    to_action(st)
    assert not any(a[0] == "buy" for a in st.legal_actions())


def test_ruling_02_without_credits_you_must_take_a_revealed_card():
    st = new(["SU", "BIO"])
    st.credits[0] = 6
    to_action(st)
    play(st, ("buy", "ship"), ("dig",))
    assert st.credits[0] == 0 and st.legal_actions() == [("take", 0), ("take", 1)]


def test_ruling_03_pass_is_always_legal_and_trade_with_any_usable_card():
    st = new(["SU", "BIO"])
    set_hand(st, 0, [])
    assert st.legal_actions()[-1] == ("pass",) and ("trade",) not in st.legal_actions()
    set_store(st, 0, ["R01"])
    assert ("trade",) in st.legal_actions()


def test_ruling_04_zero_cost_build_is_the_main_action_with_on_build_effects():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    clear_projects(st, 0)
    for planet in ("P02", "P04", "P08"):
        give_card(st, 0, planet, "logistic")
    give_project(st, 0, "S04")
    set_hand(st, 0, [])
    play(st, ("build", "S04"), ("side", "operative"))
    assert phase(st) == "attack_target"


def test_ruling_05_deposit_keeps_its_value_when_the_cost_changes():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    clear_projects(st, 0)
    give_project(st, 0, "S04", deposit=4)
    give_card(st, 0, "S07")
    assert st.pdep[0] == [4] and core.build_cost(st, 0, d.SHIP) == 6


def test_ruling_06_deposited_cards_are_not_reshuffled():
    st = new(["LEA", "BIO"])
    clear_projects(st, 0)
    give_project(st, 0, "S04")
    set_hand(st, 0, ["R01", "R02", "R05"])
    st.pcards[0][0].append(st.hand[0].pop())
    deck_only(st, ["R10"])
    play(st, ("pass",), ("discard", 0), ("done",))
    assert st.round == 2 and R["R05"] not in st.deck and R["R05"] in st.pcards[0][0]


def test_ruling_07_attack_card_that_empties_the_deck():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    _arm(st, 0, "S13", "R02")
    deck_only(st, ["R02"])
    play(st, ("target", "player", 1))
    assert st.round == 2 and st.discard == [R["R02"]]


def test_ruling_08_no_card_to_reveal_cancels_the_attack():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    _arm(st, 0, "S13", "R02")
    deck_only(st, [])
    st.discard.clear()
    st.final = True
    events = play(st, ("target", "player", 1))
    assert any(e.get("cancelled") for e in events) and st.attacked >> M["S13"] & 1


def test_ruling_09_refill_continues_from_the_new_deck():
    st = new(["LEA", "BIO"])
    set_hand(st, 0, ["R01", "R02"])
    deck_only(st, ["R10"])
    play(st, ("pass",), ("discard", 0), ("discard", 0))
    assert st.round == 2 and len(st.hand[0]) == 3 and R["R10"] in st.hand[0]


def test_ruling_10_refill_stops_when_the_last_round_runs_out():
    st = new(["LEA", "BIO"])
    st.round = 2
    set_hand(st, 0, ["R01", "R02"])
    deck_only(st, ["R10"])
    play(st, ("pass",), ("discard", 0), ("discard", 0))
    assert st.final and st.hand[0] == [R["R10"]] and st.current_player == 1


def test_ruling_11_production_continues_after_an_exhaustion():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    deck_only(st, ["R10"])
    core.produce(st, 0, M["P05"], 3, [])
    assert st.round == 2 and len(st.store[0]) == 3 and st.store[0][0] == R["R10"]


def test_ruling_12_a_player_always_has_a_defence_plan():
    st = new(["LEA", "BIO", "SU"])
    clear_empire(st, 0)
    for i in range(12):
        _arm(st, 0, "S13", "R02")
        st.attacked = 0
        play(st, ("target", "player", 1 + i % 2))
        assert all(p >= 0 for p in st.plan) and len(set(st.plan)) == 3


def test_ruling_13_damaged_ship_rebuilt_goes_last_and_does_not_attack_again():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "S13")
    give_card(st, 0, "T05", "logistic")
    set_display(st, ["AL6", "AL1", "AL2"])
    _arm(st, 0, "S13", "R01")  # value 2 on AL6: Damaged
    play(st, ("target", "alien", 0))
    assert st.proj[0][-1] == M["S13"] and st.pdep[0][-1] == 0
    give_artifact(st, 0, "AR02")
    st.art_played = False
    st.phase = k.POST_ACTION
    st._legal = None
    play(st, ("play_artifact", "AR02"), ("project", "S13"), ("side", "operative"))
    assert st.empire[0][-1] == M["S13"] and phase(st) != "attack_target"


def test_ruling_14_destroyed_ship_can_be_bought_again():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    set_display(st, ["AL2", "AL1", "AL3"])
    _arm(st, 0, "S05", "R01")
    play(st, ("target", "alien", 0))
    assert st.market[d.SHIP][-1] == M["S05"]
    to_action(st, 1)
    st.credits[1] = 40
    play(st, ("buy", "ship"))
    while ("dig",) in st.legal_actions():
        play(st, ("dig",))
    play(st, st.legal_actions()[-1])
    assert st.proj[1][-1] == M["S05"]


def test_ruling_15_no_artifact_left_gives_one_vp_and_still_loots():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    set_display(st, ["AL3", "AL1", "AL2"])
    st.arts[1].extend(st.adeck)
    st.adeck.clear()
    _arm(st, 0, "S04", "R04")
    play(st, ("target", "alien", 0))
    assert (st.vp[0] == 1 and st.alien_discard[-1] == 2) or st.display[0] != 2


def test_ruling_16_looting_with_an_empty_alien_deck_can_bring_it_back():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    set_display(st, ["AL3", "AL1", "AL2"])
    st.alien_discard.extend(st.alien_deck)
    st.alien_deck.clear()
    _arm(st, 0, "S04", "R04")
    play(st, ("target", "alien", 0))
    assert sorted(st.alien_deck + st.display) == list(range(8)) and st.alien_discard == []


def test_ruling_17_vp_never_below_zero():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    set_plan(st, 1, "DP04")
    st.vp[1] = 1
    _arm(st, 0, "S04", "R03")  # value 5: Strike 2
    play(st, ("target", "player", 1))
    assert st.vp == [2, 0]


def test_ruling_18_raid_takes_only_what_the_defender_has():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    set_plan(st, 1, "DP08")
    st.credits[1] = 1
    credits = st.credits[0]
    _arm(st, 0, "S04", "R03")  # value 5: Raid 4
    play(st, ("target", "player", 1))
    assert st.credits == [credits + 1, 0]


def test_ruling_19_hand_above_hand_size_is_kept():
    st = new(["LEA", "BIO"])
    give_artifact(st, 0, "AR03")
    to_pre(st, 0)
    play(st, ("play_artifact", "AR03"), ("pass",), ("discard", 0), ("done",))
    assert len(st.hand[0]) == 5


def test_ruling_20_overpaying_only_with_the_last_card():
    st = new(["LEA", "BIO"])
    clear_projects(st, 0)
    give_project(st, 0, "T05", deposit=4)
    set_hand(st, 0, ["R01", "R02"])
    play(st, ("build", "T05"), add("hand", 0, "bottom"))
    assert phase(st) == "choose_side" and R["R02"] in st.hand[0]


def test_ruling_21_gold_never_pays_operative_actions_or_pilgrimage():
    st = new(["EPI", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "S04")
    set_hand(st, 0, ["R46", "R45", "R43"])  # Red 2/Gold 2, Red 2/Gold 1, Red 3/Gold 1
    play(st, ("offensive",))
    assert all(a[3] == "top" for a in st.legal_actions() if a[0] == "add")


def test_ruling_22_store_cards_count_toward_the_limit_and_cannot_be_discarded():
    st = new(["SU", "BIO"])
    set_hand(st, 0, ["R01"])
    set_store(st, 0, ["R02", "R03"])
    play(st, ("trade",), add("hand", 0), add("store", 0))
    assert phase(st) == "discard" or st.current_player == 1
    assert st.store[0] == [R["R03"]]
    st = new(["LEA", "BIO"])
    set_hand(st, 0, ["R01"])
    set_store(st, 0, ["R02"])
    play(st, ("pass",))
    assert ("discard", 1) not in st.legal_actions()


def test_ruling_23_discounts_stack_with_floors():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    for planet in ("P05", "P07", "P11", "P12"):
        give_card(st, 0, planet, "logistic")
    give_card(st, 0, "T11", "logistic")
    assert core.build_cost(st, 0, d.PLANET) == 0 and core.buy_price(st, 0, d.PLANET) == 2
    give_card(st, 0, "S04", "logistic")
    give_card(st, 0, "S12", "logistic")
    assert core.limit(st, 0, d.A_SHIP) == 4


def test_ruling_24_operative_action_needs_an_operative_card_income_may_score_zero():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "T08")
    set_hand(st, 0, ["R01", "R11", "R29"])
    acts = st.legal_actions()
    assert ("income",) in acts and ("offensive",) not in acts and ("mine",) not in acts


def test_ruling_25_income_conditions_are_evaluated_together():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "T03")
    give_card(st, 0, "T13")
    events = []
    scoring.score_techs(st, 0, events, "income")
    assert events[0]["techs"] == [["T03", 2], ["T13", 0]] and st.vp[0] == 2


def test_ruling_26_a_technology_counts_itself():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "T12")
    give_card(st, 0, "T01")
    assert scoring.tech_score(st, 0, M["T12"]) == 1
    give_card(st, 0, "T04")
    assert scoring.tech_score(st, 0, M["T04"]) == 0  # operative T04 is not logistic


def test_ruling_27_projects_and_damaged_ships_do_not_count():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    clear_projects(st, 0)
    give_card(st, 0, "T07")
    give_project(st, 0, "S04")
    assert scoring.tech_score(st, 0, M["T07"]) == 0
    give_card(st, 0, "S13")
    set_display(st, ["AL6", "AL1", "AL2"])
    _arm(st, 0, "S13", "R01")
    play(st, ("target", "alien", 0))
    assert core.build_cost(st, 0, d.SHIP) == 5


def test_ruling_28_setup_is_not_a_build():
    st = new(["SU", "BIO", "COM"])
    assert st.vp == [0, 0, 0] and st.attacked == 0 and len(st.store[2]) == 3
    assert st.credits == [8, 8, 8]


def test_ruling_29_a_ship_that_attacked_this_turn_is_skipped_in_an_offensive():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "S04")
    give_card(st, 0, "S07")
    st.attacked = 1 << M["S04"]
    to_action(st, 0)
    st.attacked = 1 << M["S04"]
    set_hand(st, 0, ["R01", "R29"])
    play(st, ("offensive",), add("hand", 0), add("hand", 0, "bottom"))
    assert st.attacker == M["S07"]


def test_ruling_30_warfleet_after_an_offensive_attacks_with_no_ship_that_attacked():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "S04")
    give_artifact(st, 0, "AR05")
    set_hand(st, 0, ["R01", "R29", "R15"])
    play(st, ("offensive",), add("hand", 0), add("hand", 0, "bottom"), ("target", "player", 1))
    assert phase(st) == "post_action"
    play(st, ("play_artifact", "AR05"))
    assert phase(st) == "discard"


def test_ruling_31_the_extra_action_follows_the_normal_rules():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "S04")
    give_artifact(st, 0, "AR01")
    set_hand(st, 0, ["R01", "R29", "R30", "R31", "R15"])
    play(st, ("offensive",), add("hand", 0), add("hand", 0, "bottom"), ("target", "player", 1))
    play(st, ("play_artifact", "AR01"), ("offensive",), add("hand", 0, "bottom"))
    assert phase(st) == "discard"  # S04 already attacked this turn


def test_ruling_32_one_artifact_per_turn_even_with_the_extra_action():
    st = new(["LEA", "BIO"])
    give_artifact(st, 0, "AR01")
    give_artifact(st, 0, "AR11")
    play(st, ("pass",), ("play_artifact", "AR01"))
    assert phase(st) == "choose_action"
    play(st, ("pass",))
    assert not any(a[0] == "play_artifact" for a in st.legal_actions())


def test_ruling_33_overdrive_and_converter_only_before_the_action():
    st = new(["LEA", "BIO"])
    give_artifact(st, 0, "AR13")
    give_artifact(st, 0, "AR14")
    play(st, ("pass",))
    assert phase(st) == "discard"  # POST_ACTION had nothing to offer


def test_ruling_34_artifacts_in_the_final_phase_and_unused_ones_score():
    st = new(["LEA", "BIO"])
    st.final = True
    give_artifact(st, 0, "AR11")
    to_pre(st, 0)
    assert ("play_artifact", "AR11") in st.legal_actions()
    play(st, ("start_action",), ("pass",))
    assert ("play_artifact", "AR11") in st.legal_actions()


def test_ruling_35_trade_gold_only_and_needs_a_card():
    st = new(["SU", "BIO"])
    set_hand(st, 0, ["R50", "R54"])
    play(st, ("trade",), add("hand", 0, "bottom"), add("hand", 0, "bottom"))
    assert st.credits[0] == 8 + 4


def test_ruling_36_pilgrimage_limit_is_two_and_costs_two_credits():
    st = new(["EPI", "BIO"])
    give_card(st, 0, "S07", "logistic")  # names Offensive, not Pilgrimage
    assert core.limit(st, 0, d.A_PILGRIMAGE) == 2
    set_hand(st, 0, ["R12", "R13", "R14"])  # 2+2+2 Red needs three cards
    assert ("pilgrimage",) not in st.legal_actions()


def test_ruling_37_league_bonus_and_t03_count_credits_at_scoring():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "T03")
    st.credits[0] = 10
    assert scoring.faction_bonus(st, 0) == 3 and scoring.tech_score(st, 0, M["T03"]) == 2
    scoring.final_scoring(st, [])
    assert st.credits[0] == 10


def test_ruling_38_unused_starting_cards_are_market_cards():
    st = new(["SU", "BIO"])
    in_market = [c for deck in st.market for c in deck] + [c for p in st.proj for c in p]
    assert all(M[x] in in_market for x in ("P01", "P03", "S08", "S03"))


def test_ruling_39_you_cannot_attack_yourself():
    st = new(["LEA", "BIO"])
    _arm(st, 0, "S04", "R01")
    assert ("target", "player", 0) not in st.legal_actions()


def test_ruling_40_full_ties_are_shared():
    st = new(["LEA", "BIO", "SU"])
    st.vp = [5, 5, 5]
    st.credits = [3, 3, 4]
    assert st.ranking() == [[2], [0, 1]] or len(st.empire[0]) != len(st.empire[1])
    clear_empire(st, 0)
    clear_empire(st, 1)
    assert st.ranking() == [[2], [0, 1]]


def test_ruling_41_setup_never_exhausts_the_deck():
    st = new(["COM", "SU", "BIO", "EPI", "LEA"])
    assert len(st.deck) == 36 and st.round == 1


def test_ruling_42_final_phase_draws_come_from_the_reshuffled_discard():
    st = new(["LEA", "BIO"])
    st.final = True
    deck_only(st, [])
    give_artifact(st, 0, "AR03")
    to_pre(st, 0)
    n_discard = len(st.discard)
    play(st, ("play_artifact", "AR03"))
    assert len(st.hand[0]) == 6 and st.round == 1 and len(st.deck) == n_discard - 3
    assert A["AR03"] in st.adiscard
