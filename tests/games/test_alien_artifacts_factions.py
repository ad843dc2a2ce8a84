"""Faction abilities and end bonuses (§2.2), final scoring (§10.2) and the ranking (§10.3)."""

import pytest
from aa_helpers import (
    add,
    clear_empire,
    clear_projects,
    give_artifact,
    give_card,
    new,
    play,
    set_hand,
)

from games.alien_artifacts import data as d
from games.alien_artifacts import mechanics as core
from games.alien_artifacts import scoring


@pytest.mark.parametrize(
    ("faction", "kind"), [("SU", d.A_OFFENSIVE), ("COM", d.A_MINE), ("BIO", d.A_INCOME)]
)
def test_cheap_operative_action_costs_three(faction, kind):
    st = new([faction, "LEA"])
    assert core.operative_cost(st, 0, kind) == 3
    assert core.operative_cost(st, 1, kind) == 5


def test_star_union_offensive_with_one_card():
    st = new(["SU", "LEA"])
    set_hand(st, 0, ["R01", "R15"])
    play(st, ("offensive",), add("hand", 0))
    assert st.attacker == 0  # S01 Union Vanguard attacks


def test_community_mines_for_three_green():
    st = new(["COM", "LEA"])
    set_hand(st, 0, ["R29", "R15"])
    stored = len(st.store[0])
    assert ("mine",) in st.legal_actions()
    play(st, ("mine",), add("hand", 0))
    assert len(st.store[0]) in (stored, stored + 1)  # a store card may have paid


def test_bionics_income_for_three_blue():
    st = new(["BIO", "LEA"])
    set_hand(st, 0, ["R15", "R29"])
    play(st, ("income",), add("hand", 0))
    assert st.vp[0] == 0  # T12: 1 tech // 2 = 0, but the action was legal and paid


def test_league_buys_two_cheaper():
    st = new(["LEA", "SU"])
    play(st, ("buy", "planet"))
    assert st.credits[0] == 8 - 3


def test_clone_clans_plus_one_limit_on_builds_only():
    st = new(["CLO", "SU"])
    assert core.limit(st, 0, d.A_SHIP) == 2 + 1 + 1  # S03 logistic + Clone Clans
    assert core.limit(st, 0, d.A_TECH) == 3 and core.limit(st, 0, d.A_PLANET) == 3
    assert core.limit(st, 0, d.A_TRADE) == 2 and core.limit(st, 0, d.A_OFFENSIVE) == 2


def _end_state(faction):
    st = new([faction, "LEA" if faction == "SU" else "SU"])
    clear_empire(st, 0)
    clear_projects(st, 0)
    for name, side in (
        ("S04", "operative"),
        ("S02", "logistic"),
        ("P08", "operative"),
        ("T08", "logistic"),
    ):
        give_card(st, 0, name, side)
    st.credits[0] = 7
    st.gained[0] = 3
    return st


@pytest.mark.parametrize(
    ("faction", "bonus"),
    [
        ("SU", 1),  # operative ships
        ("COM", 1 + 1),  # planets + Exploit symbols (P08)
        ("BIO", 1 + 1),  # techs + Explore symbols (T08)
        ("EPI", 3),  # artifacts gained
        ("LEA", 2),  # 7 credits // 3
        ("CLO", 2),  # logistic cards
    ],
)
def test_faction_end_bonus(faction, bonus):
    st = _end_state(faction)
    assert scoring.faction_bonus(st, 0) == bonus


def test_final_scoring_adds_cards_techs_bonus_and_artifacts():
    st = _end_state("SU")
    give_card(st, 0, "T02")  # operative: 1 per operative ship -> 1
    give_artifact(st, 0, "AR11")
    st.vp[0] = 10
    scoring.final_scoring(st, [])
    # cards: 3 operative * 2 + 2 logistic * 4 = 14; T02: 1; SU: 1; artifact: 1
    assert st.vp[0] == 10 + 14 + 1 + 1 + 1


def test_ranking_breaks_ties_by_credits_then_empire_size():
    st = new(["LEA", "BIO", "SU"])
    st.vp = [10, 10, 9]
    st.credits = [2, 5, 50]
    assert st.ranking() == [[1], [0], [2]]
    st.credits = [5, 5, 50]
    give_card(st, 0, "S04")
    assert st.ranking() == [[0], [1], [2]]


def test_game_over_scores_and_ranking_agree():
    import random

    from games.alien_artifacts import GAME

    st = GAME.new(3, 11)
    rng = random.Random(3)
    while not st.is_over:
        st.apply(rng.choice(st.legal_actions()))
    v = st.view(None)
    assert v["scores"] == st.scores() and v["ranking"] == st.ranking()
    assert st.scores()[st.ranking()[0][0]] == max(st.scores())
