"""Alien Artifacts setup (§2): factions, market, aliens, plans, artifacts, hands, options."""

import pytest
from aa_helpers import M, empire, names, new, phase, projects

import games
from games.alien_artifacts import GAME
from games.alien_artifacts import data as d


def test_game_object():
    assert GAME.name == "alien_artifacts" and GAME.title == "Alien Artifacts"
    assert (GAME.min_players, GAME.max_players) == (2, 5)


@pytest.mark.parametrize("players", [1, 6, 0, True, "2"])
def test_player_count_is_checked(players):
    with pytest.raises(ValueError):
        GAME.new(players, 1)


@pytest.mark.parametrize(
    "options",
    [
        {"colour": "red"},
        {"factions": "fair"},
        {"factions": ["SU", "SU"]},
        {"factions": ["XX", "SU"]},
    ],
)
def test_bad_options_raise_value_error(options):
    with pytest.raises(ValueError, match=r"option|faction"):
        GAME.new(2, 1, options)


def test_registered_in_the_games_registry():
    assert "alien_artifacts" in games.names()
    assert games.get("alien_artifacts") is GAME


def test_random_factions_are_different_and_the_default():
    for seed in range(20):
        st = GAME.new(5, seed)
        assert len(set(st.factions)) == 5
    assert {tuple(GAME.new(2, s).factions) for s in range(30)} != {(0, 1)}


def test_free_choice_goes_in_reverse_seat_order():
    st = GAME.new(3, 4, {"factions": "choice"})
    assert phase(st) == "choose_faction" and st.current_player == 2
    st.apply(("faction", "EPI"))
    assert st.current_player == 1 and ("faction", "EPI") not in st.legal_actions()
    st.apply(("faction", "SU"))
    assert st.current_player == 0
    st.apply(("faction", "CLO"))
    assert [d.FACTION_NAMES[f] for f in st.factions] == ["CLO", "SU", "EPI"]
    assert st.current_player == 0 and phase(st) in ("choose_action", "pre_action")


def test_player_start_credits_vp_and_starting_card():
    st = new(["SU", "COM", "BIO", "EPI", "LEA"])
    assert st.credits == [8] * 5 and st.vp == [0] * 5
    assert empire(st, 0) == [["S01", "operative"]]
    assert empire(st, 1) == [["P01", "operative"]]
    assert empire(st, 2) == [["T12", "operative"]]
    assert empire(st, 3) == [["P03", "logistic"]]
    assert empire(st, 4) == [["S08", "logistic"]]
    assert empire(new(["CLO", "SU"]), 0) == [["S03", "logistic"]]


def test_starting_cards_of_factions_in_play_leave_the_market():
    st = new(["SU", "COM"])
    assert M["S01"] not in st.market[0] and M["P01"] not in st.market[2]
    # Starting cards of factions not in play are ordinary market cards (ruling 38).
    for name in ("S03", "S08", "T12", "P03"):
        c = M[name]
        assert c in st.market[c // 16] or any(c in p for p in st.proj)


def test_starting_projects_follow_the_faction_list():
    st = new(["SU", "COM", "BIO", "EPI", "LEA", "CLO"][:5])
    kinds = [[c[0] for c in projects(st, p)] for p in range(5)]
    assert kinds == [
        ["S", "P", "S"],
        ["P", "S", "T"],
        ["T", "P", "S"],
        ["T", "S", "T"],
        ["T", "P", "S"],
    ]
    assert all(dep == 0 for deps in st.pdep for dep in deps)
    assert [c[0] for c in projects(new(["CLO", "SU"]), 0)] == ["S", "T", "P"]


def test_market_tops_are_face_up_and_decks_complete():
    st = new(["SU", "COM"])
    total = sum(len(m) for m in st.market) + sum(len(p) for p in st.proj) + 2
    assert total == 48
    v = st.view(None)
    for name in d.TYPE_NAMES:
        assert v["market"][name][0] is not None
        assert all(x is None for x in v["market"][name][1:])


def test_alien_display_defence_plans_and_artifacts():
    st = new(["SU", "COM", "BIO"])
    assert len(st.display) == 3 and len(st.alien_deck) == 5 and st.alien_discard == []
    assert len(set(st.plan)) == 3 and len(st.ddeck) == 7
    assert len(st.adeck) == 14 and all(a == [] for a in st.arts)


def test_each_player_is_dealt_three_cards():
    st = new(["SU", "LEA", "BIO"])
    assert [len(h) for h in st.hand] == [3, 3, 3]
    assert len(st.deck) == 54 - 9


def test_community_starts_with_three_stored_cards_and_no_harvest():
    st = new(["COM", "SU"])
    assert len(st.store[0]) == 3 and st.vp[0] == 0
    assert len(st.deck) == 54 - 6 - 3


def test_round_one_and_seat_zero_first():
    st = new(["SU", "LEA", "BIO"])
    assert st.round == 1 and st.current_player == 0 and not st.final


def test_setup_deal_never_exhausts_the_deck():
    # Ruling 41: 5 players with Community take 18 cards at most.
    st = new(["COM", "SU", "BIO", "EPI", "LEA"])
    assert len(st.deck) == 54 - 15 - 3 and st.round == 1


def test_same_seed_same_game_and_different_seeds_differ():
    a, b = GAME.new(3, 99), GAME.new(3, 99)
    assert a.view(None) == b.view(None) and names(a.hand[0]) == names(b.hand[0])
    assert any(GAME.new(3, s).view(0) != a.view(0) for s in range(100, 105))
