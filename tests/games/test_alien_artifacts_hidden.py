"""Alien Artifacts hidden information (§11): views leak nothing, determinize is consistent."""

import random

import msgpack
import pytest
from aa_helpers import M, R, clear_empire, give_artifact, give_card, new, play, set_hand

from games.alien_artifacts import GAME
from games.alien_artifacts import data as d

COMMON = {"game", "players", "seat", "current_player", "is_over", "scores", "ranking"}


def _walk(state, steps, seed):
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def _shuffle_hidden(st, seat, seed):
    """The same public state with every part hidden from ``seat`` shuffled."""
    other = st.clone()
    rng = random.Random(seed)
    det = GAME.determinize(other.view(seat), seat, rng.randrange(1 << 30))
    return det


def test_view_has_the_common_keys_and_plain_values():
    st = _walk(GAME.new(3, 5), 40, 5)
    for seat in (None, 0, 1, 2):
        v = st.view(seat)
        assert set(v) >= COMMON and v["seat"] == seat and v["game"] == "alien_artifacts"
        assert msgpack.unpackb(msgpack.packb(v)) == v  # lists only, no tuples


def test_own_hand_store_plan_and_artifacts_are_visible_only_to_the_owner():
    st = new(["COM", "SU"])
    give_artifact(st, 0, "AR05")
    v0, v1, spec = st.view(0), st.view(1), st.view(None)
    assert v0["seats"][0]["hand"] == [d.RESOURCE_NAMES[c] for c in st.hand[0]]
    assert v0["seats"][0]["store"] == [d.RESOURCE_NAMES[c] for c in st.store[0]]
    assert v0["seats"][0]["artifacts"] == ["AR05"] and v0["seats"][0]["defence"].startswith("DP")
    for v in (v1, spec):
        seat0 = v["seats"][0]
        assert all(isinstance(x, int) for x in seat0["hand"])
        assert seat0["hand_count"] == 3 and seat0["store_count"] == 3
        assert seat0["artifacts"] == [0] and isinstance(seat0["defence"], int)
        text = repr(seat0)
        assert not any(d.RESOURCE_NAMES[c] in text for c in st.hand[0] + st.store[0])
        assert "AR05" not in text


@pytest.mark.parametrize("seed", range(12))
def test_views_do_not_depend_on_hidden_parts(seed):
    """Two states that differ only in what ``seat`` cannot see give ``seat`` equal views."""
    n = 2 + seed % 4
    st = _walk(GAME.new(n, seed), 30 + 7 * seed, seed)
    for seat in [None, *range(n)]:
        v = st.view(seat)
        for k in range(3):
            det = GAME.determinize(v, seat, 1000 * seed + k)
            assert det.view(seat) == v
        # No deck order anywhere: the resource deck is a count; hidden market cards are None.
        assert set(v["deck"]) == {"count", "gen"}


def test_a_view_never_names_another_seats_hidden_cards():
    for seed in range(20):
        n = 2 + seed % 4
        st = _walk(GAME.new(n, seed), 60, seed)
        for seat in [None, *range(n)]:
            v = st.view(seat)
            for p in range(n):
                if p == seat:
                    continue
                s = v["seats"][p]
                assert all(isinstance(x, int) for x in s["hand"])
                assert all(isinstance(x[0], int) for x in s["store"])
                assert s["defence"] is None or isinstance(s["defence"], int)
            # Pools name hidden cards only as sets per generation, in id order.
            for _, cards in v["pools"]["resource"]:
                assert cards == sorted(cards)


def test_star_chart_cards_are_known_to_their_viewer_only():
    st = new(["LEA", "BIO"])
    give_artifact(st, 0, "AR10")
    from aa_helpers import to_pre

    to_pre(st, 0)
    play(st, ("play_artifact", "AR10"), ("deck", "ship"))
    assert st.view(0)["market"]["ship"][1] is not None
    assert st.view(1)["market"]["ship"][1] is None and st.view(None)["market"]["ship"][1] is None


def test_determinize_keeps_harvest_knowledge_of_store_cards():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "P05")  # Explore
    from games.alien_artifacts import mechanics as core

    core.produce(st, 0, M["P05"], 6, [])
    v = st.view(1)
    for seed in range(40):
        det = GAME.determinize(v, 1, seed)
        for c, (_, sym, hit) in zip(det.store[0], v["seats"][0]["store"], strict=True):
            assert (d.SYMBOL_NAMES[d.RESOURCE_SYMBOL[c]] == sym) == hit


def test_determinize_samples_other_hands_uniformly():
    st = new(["LEA", "BIO"])
    v = st.view(0)
    counts = {}
    for seed in range(3000):
        det = GAME.determinize(v, 0, seed)
        c = det.hand[1][0]
        counts[c] = counts.get(c, 0) + 1
    # 51 candidate cards, 3000 samples: each ~59 times.
    assert len(counts) == 51 and max(counts.values()) < 110 and min(counts.values()) > 25


def test_determinize_lets_a_paying_opponent_finish():
    st = new(["LEA", "BIO"])
    set_hand(st, 0, ["R29", "R30", "R31"])
    from aa_helpers import clear_empire as ce

    ce(st, 0)
    give_card(st, 0, "P07")
    play(st, ("mine",))
    assert st.phase == 3  # PAY, waiting for seat 0
    v = st.view(1)
    for seed in range(30):
        det = GAME.determinize(v, 1, seed)
        assert det.legal_actions()


def test_determinized_state_plays_to_the_end():
    st = _walk(GAME.new(4, 8), 120, 8)
    for seat in (None, 0, 1, 2, 3):
        det = GAME.determinize(msgpack.unpackb(msgpack.packb(st.view(seat))), seat, 3)
        _walk(det, 10_000, 1)
        assert det.is_over


def test_events_are_public():
    """Events never name a card that went into a hidden place."""
    st = new(["LEA", "BIO"])
    set_hand(st, 0, ["R01", "R02"])
    events = play(st, ("pass",), ("discard", 0), ("done",))
    drawn = [d.RESOURCE_NAMES[c] for c in st.hand[0]]
    text = repr(events)
    assert "R01" in text and not any(x in text for x in drawn if x != "R02")
    assert R["R02"] in st.hand[0]


def _fresh_view(st, seat):
    """``st.view(seat)`` built from scratch, bypassing the state's cache of public parts."""
    cached = st._public
    st._public = None
    try:
        return st.view(seat)
    finally:
        st._public = cached


@pytest.mark.parametrize("seed", [3, 8])
def test_the_cached_public_part_of_views_follows_every_change(seed):
    st = GAME.new(3, seed)
    rng = random.Random(seed)
    steps = 0
    while not st.is_over and steps < 400:
        before = [st.view(seat) for seat in (None, 0, 1, 2)]  # fills the cache
        copy = st.clone()  # shares the cache while identical
        st.apply(rng.choice(st.legal_actions()))
        steps += 1
        for seat in (None, 0, 1, 2):
            assert st.view(seat) == _fresh_view(st, seat)
            assert copy.view(seat) == before[0 if seat is None else seat + 1]
    assert steps > 50


def test_a_state_edited_directly_is_viewed_afresh_once_its_legal_list_is_reset():
    st = new(("SU", "LEA"))
    st.view(0)
    set_hand(st, 0, ["R01", "R02"])  # the test helpers reset the legal list after an edit
    assert st.view(0)["seats"][0]["hand"] == ["R01", "R02"]
    assert st.view(1)["seats"][0]["hand_count"] == 2


def test_a_change_that_leaves_an_equal_legal_list_still_shows_in_the_views():
    # Consecutive decisions can offer equal legal lists: the cache must follow the list object
    # that every change makes anew, not its contents.
    st = _walk(GAME.new(3, 4), 30, 4)
    before = st.view(1)
    st.vp[0] += 5
    st._legal = list(st._legal)  # what apply() leaves after a change: a new, here equal, list
    assert st.view(1)["seats"][0]["vp"] == before["seats"][0]["vp"] + 5
    assert st.view(1) == _fresh_view(st, 1)
