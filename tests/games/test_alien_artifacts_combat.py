"""Alien Artifacts combat (§7): attack value, every alien and defence-plan row, protections."""

import pytest
from aa_helpers import (
    AL,
    M,
    R,
    check_conservation,
    clear_empire,
    deck_only,
    give_card,
    new,
    phase,
    play,
    set_display,
    set_plan,
    stack_deck,
    to_action,
)

from games.alien_artifacts import codes as k
from games.alien_artifacts import combat
from games.alien_artifacts import data as d

# A resource card for each attack number.
NUMBER_CARD = {1: "R01", 2: "R02", 3: "R03", 4: "R04"}


def arm(st, p, ship, number, side="operative"):
    """Seat ``p`` has ``ship`` due to attack; the next reveal has attack number ``number``."""
    if M[ship] not in st.empire[p]:
        give_card(st, p, ship, side)
    stack_deck(st, [NUMBER_CARD[number]])
    st.cur = p
    st.phase = k.ATTACK_TARGET
    st.ctx = k.CTX_MAIN
    st.attacker = M[ship]
    st.queue = []
    st._legal = None


def ship_place(st, p, ship):
    c = M[ship]
    if c in st.empire[p]:
        return "empire"
    if c in st.proj[p]:
        return "project"
    if c in st.market[d.SHIP]:
        return "market"
    return "?"


def test_attack_value_is_the_middle_number_plus_bonuses():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    assert combat.attack_value(st, 0, M["S04"], 3, -1) == 5
    give_card(st, 0, "T02", "logistic")
    assert combat.attack_value(st, 0, M["S04"], 3, -1) == 6
    assert combat.attack_value(st, 0, M["S14"], 3, 1) == 3 + 1 + 1 + 1  # Raider vs player
    give_card(st, 1, "T14", "logistic")
    assert combat.attack_value(st, 0, M["S14"], 3, 1) == 5
    assert combat.attack_value(st, 0, M["S14"], 3, -1) == 5  # T14 only against players


def test_maximum_attack_value_example_gives_1_vp_and_2_credits():
    # Seed: "My attack value is 4 (the maximum)... the reward for 4 is 1 VP and 2 credits."
    st = new(["LEA", "BIO"])
    set_display(st, ["AL1", "AL7", "AL3"])
    clear_empire(st, 0)
    arm(st, 0, "S05", 4)  # Science Vessel: +0, rider +1 credit
    credits = st.credits[0]
    events = play(st, ("target", "alien", 0))
    attack = next(e for e in events if e["type"] == "attack")
    assert attack["card"] == "R04" and attack["value"] == 4
    assert st.vp[0] == 1 and st.credits[0] == credits + 2 + 1


ALIEN_CASES = [(a, v) for a in range(8) for v in range(1, 7)]


@pytest.mark.parametrize(
    ("alien", "value"), ALIEN_CASES, ids=[f"AL{a + 1}-{v}" for a, v in ALIEN_CASES]
)
def test_alien_system_result_row(alien, value):
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    name = d.ALIEN_NAMES[alien]
    others = [x for x in d.ALIEN_NAMES if x != name][:2]
    set_display(st, [name, *others])
    if value == 1:
        ship, number = "S05", 1  # +0 (Salvager rider: +1 credit if it stays)
    elif value == 6:
        ship, number = "S04", 4  # +2
    else:
        ship, number = "S13", value - 1  # +1
    arm(st, 0, ship, number)
    vp, credits, arts = st.vp[0], st.credits[0], len(st.arts[0])
    play(st, ("target", "alien", 0))
    hit, cr, gain_vp, art = d.ALIEN_TABLE[alien][value - 1]
    stays = hit == d.NO_HIT
    rider = 1 if ship == "S05" and stays else 0
    assert st.vp[0] == vp + gain_vp
    assert st.credits[0] == credits + cr + rider
    assert len(st.arts[0]) == arts + art
    assert ship_place(st, 0, ship) == ("empire", "project", "market")[hit]
    assert (st.display[0] == alien) == (not art)  # looted systems are replaced
    if art:
        assert st.alien_discard[-1] == alien
    assert st.discard[-1] == R[NUMBER_CARD[number]]
    check_conservation(st)


DEF_CASES = [(p, v) for p in range(10) for v in range(1, 6)]


@pytest.mark.parametrize(
    ("plan", "value"), DEF_CASES, ids=[f"DP{p + 1:02d}-{v}" for p, v in DEF_CASES]
)
def test_defence_plan_result_row(plan, value):
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    set_plan(st, 1, d.DEFENCE_NAMES[plan])
    st.vp[1] = 1
    st.credits[1] = 2
    if value == 5:
        ship, number = "S04", 3
    else:
        ship, number = "S13", value - 1 if value > 1 else 1
    if value == 1:
        ship = "S05"
    arm(st, 0, ship, number)
    vp, credits = st.vp[0], st.credits[0]
    play(st, ("target", "player", 1))
    rep, raid, strike, fortify = d.DEFENCE_TABLE[plan][value - 1]
    taken = min(raid, 2)
    rider = 1 if ship == "S05" and not rep else 0
    assert st.credits[0] == credits + taken + rider
    assert st.credits[1] == 2 - taken + fortify
    assert st.vp[0] == vp + strike
    assert st.vp[1] == max(0, 1 - strike)  # ruling 17: VP never below 0
    assert ship_place(st, 0, ship) == ("project" if rep else "empire")
    # The revealed plan is discarded and replaced at once (§7.2 step 8).
    assert st.ddiscard[-1] == plan and st.plan[1] != plan and st.plan[1] >= 0
    assert len(st.arts[0]) == 0  # attacking a player never gives artifacts
    check_conservation(st)


def test_attack_value_zero_or_above_six_uses_the_end_rows():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "T02", "logistic")
    set_display(st, ["AL3", "AL1", "AL2"])
    arm(st, 0, "S04", 4)  # 4 + 2 + 1 = 7 -> the 6+ row: Artifact
    play(st, ("target", "alien", 0))
    assert len(st.arts[0]) == 1


def test_damaged_ship_returns_to_the_construction_area_with_deposit_zero():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    set_display(st, ["AL6", "AL1", "AL2"])
    arm(st, 0, "S13", 1)  # value 2 on AL6: Damaged
    play(st, ("target", "alien", 0))
    assert st.proj[0][-1] == M["S13"] and st.pdep[0][-1] == 0 and M["S13"] not in st.empire[0]


def test_destroyed_ship_goes_to_the_bottom_of_the_ship_deck():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    set_display(st, ["AL2", "AL1", "AL3"])
    arm(st, 0, "S05", 1)  # value 1 on AL2: Destroyed
    play(st, ("target", "alien", 0))
    assert st.market[d.SHIP][-1] == M["S05"]
    assert st.view(1)["market"]["ship"][-1] == "S05"  # its place is public


def test_destroyed_ship_into_an_empty_deck_becomes_the_top_card():
    # Ruling 1 / 14.
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    set_display(st, ["AL2", "AL1", "AL3"])
    give_card(st, 0, "S05")
    st.market[d.SHIP].clear()
    arm(st, 0, "S05", 1)
    play(st, ("target", "alien", 0))
    assert st.market[d.SHIP] == [M["S05"]] and st.view(None)["market"]["ship"] == ["S05"]


@pytest.mark.parametrize("ship", ["S02", "S09"])
def test_armoured_ships_ignore_damaged(ship):
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    set_display(st, ["AL6", "AL2", "AL3"])
    arm(st, 0, ship, 1)
    play(st, ("target", "alien", 0))
    assert M[ship] in st.empire[0]
    # ...but not Destroyed.
    arm(st, 0, ship, 1)
    st.attacked = 0
    play(st, ("target", "alien", 1))
    assert st.market[d.SHIP][-1] == M[ship]


def test_deflector_shields_turn_destroyed_into_damaged_and_ignore_damaged():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "T07", "logistic")
    set_display(st, ["AL2", "AL6", "AL3"])
    arm(st, 0, "S05", 1)
    play(st, ("target", "alien", 0))  # Destroyed -> Damaged
    assert st.proj[0][-1] == M["S05"]
    arm(st, 0, "S13", 1)
    play(st, ("target", "alien", 1))  # value 2 on AL6: Damaged -> nothing
    assert M["S13"] in st.empire[0]


def test_armoured_ship_with_deflector_shields_ignores_destroyed():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "T07", "logistic")
    set_display(st, ["AL2", "AL6", "AL3"])
    arm(st, 0, "S09", 1)
    play(st, ("target", "alien", 0))
    assert M["S09"] in st.empire[0]


def test_repelled_is_damaged_and_protections_apply():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    set_plan(st, 1, "DP04")
    arm(st, 0, "S02", 2)  # Armoured, value 2: Repelled has no effect
    play(st, ("target", "player", 1))
    assert M["S02"] in st.empire[0]


def test_salvage_drones_pay_when_a_ship_leaves():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "T10", "logistic")
    set_display(st, ["AL6", "AL1", "AL3"])
    credits = st.credits[0]
    arm(st, 0, "S13", 1)
    play(st, ("target", "alien", 0))
    assert st.credits[0] == credits + 3


def test_riders_only_if_the_ship_stays():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "T16", "logistic")
    set_display(st, ["AL3", "AL6", "AL1"])
    credits = st.credits[0]
    arm(st, 0, "S05", 2)  # AL3 value 2: +1 cr; Salvager +1; Xeno Linguistics +1
    play(st, ("target", "alien", 0))
    assert st.credits[0] == credits + 3
    credits = st.credits[0]
    arm(st, 0, "S13", 1)  # AL6 value 2: Damaged: no riders
    st.attacked = 0
    play(st, ("target", "alien", 1))
    assert st.credits[0] == credits


def test_xeno_linguistics_only_against_aliens():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "T16", "logistic")
    set_plan(st, 1, "DP03")
    credits = st.credits[0]
    arm(st, 0, "S13", 1)  # value 2 on DP03: nothing
    play(st, ("target", "player", 1))
    assert st.credits[0] == credits


def test_looting_refills_the_slot_and_reshuffles_the_alien_discard_when_needed():
    # Ruling 16.
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    set_display(st, ["AL3", "AL1", "AL2"])
    st.alien_discard.extend(st.alien_deck)
    st.alien_deck.clear()
    arm(st, 0, "S04", 4)
    play(st, ("target", "alien", 0))
    assert len(st.display) == 3 and len(st.alien_deck) + len(st.alien_discard) == 5
    assert st.alien_discard == [] and st.display[0] in range(8)
    check_conservation(st)


def test_artifact_with_empty_supply_gives_one_vp_and_still_loots():
    # Ruling 15.
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    set_display(st, ["AL3", "AL1", "AL2"])
    st.arts[1].extend(st.adeck)
    st.adeck.clear()
    arm(st, 0, "S04", 4)
    vp = st.vp[0]
    play(st, ("target", "alien", 0))
    assert st.vp[0] == vp + 1 and st.display[0] != AL["AL3"]


def test_artifact_deck_reshuffles_its_discard():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    set_display(st, ["AL3", "AL1", "AL2"])
    st.adiscard.extend(st.adeck[1:])
    st.arts[1].append(st.adeck[0])
    st.adeck.clear()
    arm(st, 0, "S04", 4)
    play(st, ("target", "alien", 0))
    assert len(st.arts[0]) == 1 and st.adiscard == [] and len(st.adeck) == 12 and st.agen_cur == 1


def test_cannot_attack_yourself():
    # Ruling 39.
    st = new(["LEA", "BIO", "CLO"])
    arm(st, 1, "S04", 2)
    assert ("target", "player", 1) not in st.legal_actions()
    assert [a for a in st.legal_actions() if a[1] == "player"] == [
        ("target", "player", 0),
        ("target", "player", 2),
    ]


def test_each_ship_attacks_at_most_once_per_turn():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "S07")
    give_card(st, 0, "S16")
    st.attacked = 1 << M["S07"]
    to_action(st, 0)
    st.attacked = 1 << M["S07"]
    from aa_helpers import add, set_hand

    set_hand(st, 0, ["R01", "R29"])
    play(st, ("offensive",), add("hand", 0), add("hand", 0, "bottom"))
    assert st.attacker == M["S16"]
    play(st, ("target", "alien", 0))
    assert phase(st) != "attack_target" or st.attacker != M["S07"]


def test_attack_is_cancelled_when_no_card_can_be_revealed():
    # Ruling 8.
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    arm(st, 0, "S04", 2)
    deck_only(st, [])
    st.discard.clear()
    st.final = True
    events = play(st, ("target", "alien", 0))
    assert next(e for e in events if e["type"] == "attack")["cancelled"]
    assert st.attacked >> M["S04"] & 1 and st.vp[0] == 0


def test_attack_reveal_that_empties_the_deck_resolves_after_the_exhaustion():
    # Ruling 7: the marker moves, then the card goes onto the new (empty) discard pile.
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    set_display(st, ["AL3", "AL1", "AL2"])
    arm(st, 0, "S13", 2)  # value 3 on AL3: +2 cr
    deck_only(st, ["R02"])
    play(st, ("target", "alien", 0))
    assert st.round == 2 and st.discard == [R["R02"]] and R["R02"] not in st.deck


def test_new_defence_plan_comes_from_the_reshuffled_defence_discard():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    st.ddiscard.extend(st.ddeck)
    st.ddeck.clear()
    arm(st, 0, "S04", 2)
    old = st.plan[1]
    play(st, ("target", "player", 1))
    assert st.plan[1] != st.plan[0] and st.dgen_cur == 1
    assert old in st.ddeck or st.plan[1] == old
    check_conservation(st)
