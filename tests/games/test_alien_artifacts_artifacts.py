"""Every Alien Artifact (§8), played, with the windows and the one-per-turn rule."""

import pytest
from aa_helpers import (
    A,
    M,
    R,
    add,
    clear_empire,
    clear_projects,
    give_artifact,
    give_card,
    give_project,
    new,
    phase,
    play,
    set_hand,
    stack_deck,
    to_action,
    to_pre,
)

from games.alien_artifacts import codes as k
from games.alien_artifacts import data as d
from games.alien_artifacts import mechanics as core


def _pre(st, *arts):
    for a in arts:
        give_artifact(st, 0, a)
    return to_pre(st, 0)


def test_artifacts_offered_per_window():
    st = _pre(new(["LEA", "BIO"]), "AR01", "AR13", "AR14", "AR08")
    acts = st.legal_actions()
    assert ("play_artifact", "AR01") not in acts  # B only
    assert {("play_artifact", x) for x in ("AR08", "AR13", "AR14")} <= set(acts)
    st.phase = k.POST_ACTION
    st._legal = None
    acts = st.legal_actions()
    assert ("play_artifact", "AR01") in acts and ("play_artifact", "AR08") in acts
    assert ("play_artifact", "AR13") not in acts and ("play_artifact", "AR14") not in acts


def test_one_artifact_per_turn():
    st = _pre(new(["LEA", "BIO"]), "AR08", "AR11")
    play(st, ("play_artifact", "AR08"))
    assert st.credits[0] == 13 and phase(st) == "choose_action"  # nothing else was left
    play(st, ("pass",))
    assert not any(a[0] == "play_artifact" for a in st.legal_actions())


def test_identical_copies_are_one_choice():
    st = _pre(new(["LEA", "BIO"]), "AR08", "AR09", "AR11")
    acts = [a for a in st.legal_actions() if a[0] == "play_artifact"]
    assert acts == [("play_artifact", "AR08"), ("play_artifact", "AR11")]


def test_ar01_temporal_loop_gives_an_extra_main_action():
    st = new(["LEA", "BIO"])
    give_artifact(st, 0, "AR01")
    set_hand(st, 0, ["R01", "R15", "R29"])
    play(st, ("trade",), add("hand", 0), ("finish",))
    assert phase(st) == "post_action"
    play(st, ("play_artifact", "AR01"))
    assert phase(st) == "choose_action"
    play(st, ("trade",), add("hand", 0), ("finish",))
    assert phase(st) == "discard" and st.credits[0] == 8 + 3 + 3
    assert st.adiscard == [A["AR01"]]


def test_ar01_pass_brings_the_mandatory_discard():
    # Ruling 31.
    st = new(["LEA", "BIO"])
    give_artifact(st, 0, "AR01")
    set_hand(st, 0, ["R01", "R15", "R29"])
    play(st, ("trade",), add("hand", 0), ("finish",), ("play_artifact", "AR01"), ("pass",))
    assert ("done",) not in st.legal_actions()


def test_ar02_instant_assembly_completes_a_project_without_payment():
    st = new(["LEA", "BIO"])
    clear_projects(st, 0)
    give_project(st, 0, "T05", deposit=3)
    give_project(st, 0, "S04")
    st.pcards[0][0] = []
    give_card(st, 0, "T13", "logistic")
    _pre(st, "AR02")
    assert ("play_artifact", "AR02") in st.legal_actions()
    play(st, ("play_artifact", "AR02"))
    assert st.legal_actions() == [("project", "T05"), ("project", "S04")]
    play(st, ("project", "S04"), ("side", "operative"))
    # On-build attack, and T13's credit.
    assert phase(st) == "attack_target" and st.credits[0] == 9
    play(st, ("target", "player", 1))
    assert phase(st) == "choose_action"  # back to the pre-action step, nothing left there


def test_ar02_needs_a_project():
    st = new(["LEA", "BIO"])
    clear_projects(st, 0)
    _pre(st, "AR02")
    assert ("play_artifact", "AR02") not in st.legal_actions()


@pytest.mark.parametrize("art", ["AR03", "AR04"])
def test_resource_cache_draws_three_cards(art):
    st = _pre(new(["LEA", "BIO"]), art, "AR11")
    play(st, ("play_artifact", art))
    assert len(st.hand[0]) == 6


def test_ar05_alien_warfleet_ships_attack_without_payment():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "S04")
    give_card(st, 0, "S07")
    _pre(st, "AR05")
    play(st, ("play_artifact", "AR05"))
    assert phase(st) == "attack_target" and st.attacker == M["S04"]
    play(st, ("target", "player", 1))
    assert st.attacker == M["S07"]


def test_ar06_xeno_archive_scores_techs_without_t12_credits():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "T12", "logistic")
    give_card(st, 0, "T13")  # 1 per 3 cards: 3 cards -> 1
    give_card(st, 0, "T03")  # 8 credits -> 2
    _pre(st, "AR06")
    play(st, ("play_artifact", "AR06"))
    assert st.vp[0] == 3 and st.credits[0] == 8


def test_ar07_planet_seeder_two_cards_per_operative_planet_with_harvest():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "P05")  # Explore
    give_card(st, 0, "P06", "logistic")
    stack_deck(st, ["R01", "R02"])
    _pre(st, "AR07")
    play(st, ("play_artifact", "AR07"))
    assert st.store[0] == [R["R01"], R["R02"]] and st.vp[0] == 2


@pytest.mark.parametrize("art", ["AR08", "AR09"])
def test_credit_hoard_gives_five_credits(art):
    st = _pre(new(["LEA", "BIO"]), art)
    play(st, ("play_artifact", art))
    assert st.credits[0] == 13


def test_ar10_star_chart_look_at_five_take_one_rest_to_the_bottom():
    st = new(["LEA", "BIO"])
    _pre(st, "AR10")
    deck = list(st.market[d.PLANET])
    play(st, ("play_artifact", "AR10"))
    assert st.legal_actions() == [("deck", "ship"), ("deck", "tech"), ("deck", "planet")]
    play(st, ("deck", "planet"))
    assert st.legal_actions() == [("take", i) for i in range(5)]
    # The player sees the five; the other seat only the face-up top.
    v0, v1 = st.view(0)["market"]["planet"], st.view(1)["market"]["planet"]
    assert v0[:5] == [d.MARKET_NAMES[c] for c in deck[:5]]
    assert v1[0] == d.MARKET_NAMES[deck[0]] and v1[1:5] == [None] * 4
    play(st, ("take", 2))
    assert st.proj[0][-1] == deck[2]
    assert st.market[d.PLANET] == deck[5:] + deck[:2] + deck[3:5]
    v1 = st.view(1)["market"]["planet"]
    assert v1[0] == d.MARKET_NAMES[deck[5]]
    assert v1[-4] == d.MARKET_NAMES[deck[0]] and v1[-3:] == [None] * 3
    assert st.view(0)["market"]["planet"][-3:] == [
        d.MARKET_NAMES[c] for c in (deck[1], deck[3], deck[4])
    ]


def test_ar10_star_chart_with_fewer_than_five_cards():
    st = new(["LEA", "BIO"])
    st.market[d.SHIP][2:] = []
    st.market[d.TECH].clear()
    st.market[d.PLANET].clear()
    _pre(st, "AR10")
    play(st, ("play_artifact", "AR10"))  # one deck: chosen at once
    assert st.legal_actions() == [("take", 0), ("take", 1)]


def test_ar10_needs_a_market_card():
    st = new(["LEA", "BIO"])
    for deck in st.market:
        deck.clear()
    _pre(st, "AR10")
    assert ("play_artifact", "AR10") not in st.legal_actions()


@pytest.mark.parametrize("art", ["AR11", "AR12"])
def test_ancient_relic_gives_three_vp(art):
    st = _pre(new(["LEA", "BIO"]), art)
    play(st, ("play_artifact", art))
    assert st.vp[0] == 3


def test_ar13_overdrive_core_raises_every_limit_by_two():
    st = _pre(new(["BIO", "LEA"]), "AR13")
    play(st, ("play_artifact", "AR13"))
    assert core.limit(st, 0, d.A_TRADE) == 4 and core.limit(st, 0, d.A_PILGRIMAGE) == 4
    set_hand(st, 0, ["R11", "R12", "R13", "R14"])
    play(st, ("trade",), add("hand", 0), add("hand", 0), add("hand", 0), add("hand", 0))
    assert st.credits[0] == 8 + 1 + 2 + 2 + 2


def test_ar14_universal_converter_any_half_pays_builds_and_trades():
    st = new(["LEA", "BIO"])
    clear_projects(st, 0)
    give_project(st, 0, "P07")
    set_hand(st, 0, ["R01", "R02"])  # Red/Blue only: no planet payment normally
    _pre(st, "AR14")
    assert ("build", "P07") not in to_action(st.clone()).legal_actions()
    play(st, ("play_artifact", "AR14"))
    assert ("build", "P07") in st.legal_actions()
    play(st, ("build", "P07"), add("hand", 0, "top"), add("hand", 0, "bottom"))
    assert phase(st) == "choose_side"


def test_ar14_does_not_help_operative_actions():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "P07")
    set_hand(st, 0, ["R01", "R02"])
    _pre(st, "AR14")
    play(st, ("play_artifact", "AR14"))
    assert ("mine",) not in st.legal_actions()


def test_artifacts_may_be_played_in_window_b_after_the_action():
    st = new(["LEA", "BIO"])
    give_artifact(st, 0, "AR11")
    play(st, ("pass",))
    assert phase(st) == "post_action"
    play(st, ("play_artifact", "AR11"))
    assert st.vp[0] == 3 and phase(st) == "discard"


def test_unused_artifacts_score_one_vp_at_the_end():
    from games.alien_artifacts import scoring

    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    clear_empire(st, 1)
    give_artifact(st, 0, "AR11")
    give_artifact(st, 0, "AR05")
    st.credits = [0, 0]
    scoring.final_scoring(st, [])
    assert st.vp == [2, 0]
