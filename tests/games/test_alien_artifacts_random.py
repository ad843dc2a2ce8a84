"""Seeded random Alien Artifacts games: invariants over a few thousand games, 2-5 players."""

import random

import pytest
from aa_helpers import check_conservation

from games import IllegalAction
from games.alien_artifacts import GAME
from games.alien_artifacts import codes as k

GAMES_PER_COUNT = 600


def _invariants(st):
    check_conservation(st)
    assert all(v >= 0 for v in st.vp) and all(c >= 0 for c in st.credits)
    assert len(st.display) == 3 and all(p >= 0 for p in st.plan)
    assert 1 <= st.round <= st.n


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_every_invariant(players):
    for seed in range(GAMES_PER_COUNT):
        st = GAME.new(players, seed * 7 + players)
        rng = random.Random(seed)
        steps = 0
        while not st.is_over:
            acts = st.legal_actions()
            assert acts and len(acts) == len(set(acts)) and len(acts) <= 60
            if seed % 50 == 0:
                _invariants(st)
            st.apply(rng.choice(acts))
            steps += 1
        _invariants(st)
        assert st.legal_actions() == [] and st.current_player is None
        assert st.final and st.round == players
        flat = [p for g in st.ranking() for p in g]
        assert sorted(flat) == list(range(players))
        assert st.scores()[st.ranking()[0][0]] == max(st.scores())


def test_same_seed_and_actions_replay_identically():
    for seed in range(40):
        n = 2 + seed % 4
        a = GAME.new(n, seed)
        b = GAME.new(n, seed)
        rng = random.Random(seed)
        while not a.is_over:
            act = rng.choice(a.legal_actions())
            assert a.apply(act) == b.apply(act)
        assert a.view(None) == b.view(None) and a.scores() == b.scores()


def test_clone_is_independent_and_continues_identically():
    for seed in range(30):
        st = GAME.new(2 + seed % 4, seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(5, 200)):
            if st.is_over:
                break
            st.apply(rng.choice(st.legal_actions()))
        if st.is_over:
            continue
        before = st.view(None)
        c = st.clone()
        r1, r2 = random.Random(1), random.Random(1)
        while not c.is_over:
            c.apply(r1.choice(c.legal_actions()))
        assert st.view(None) == before
        while not st.is_over:
            st.apply(r2.choice(st.legal_actions()))
        assert st.view(None) == c.view(None)


def test_refused_actions_change_nothing_in_any_phase():
    seen = set()
    for seed in range(60):
        st = GAME.new(2 + seed % 4, seed)
        rng = random.Random(seed)
        while not st.is_over:
            if st.phase not in seen:
                seen.add(st.phase)
                before = st.view(None), st.view(st.current_player), st.legal_actions()
                with pytest.raises(IllegalAction):
                    st.apply(("nonsense", 1))
                assert (st.view(None), st.view(st.current_player), st.legal_actions()) == before
            st.apply(rng.choice(st.legal_actions()))
    assert {k.CHOOSE_ACTION, k.PAY, k.DISCARD, k.CHOOSE_SIDE, k.ATTACK_TARGET} <= seen


def test_every_label_reads_as_text():
    for seed in range(20):
        st = GAME.new(2 + seed % 4, seed)
        rng = random.Random(seed)
        while not st.is_over:
            for a in st.legal_actions():
                text = st.label(a)
                assert isinstance(text, str) and text and "(" not in text[:1]
            st.apply(rng.choice(st.legal_actions()))


def test_free_faction_choice_games_end():
    for seed in range(40):
        st = GAME.new(3, seed, {"factions": "choice"})
        rng = random.Random(seed)
        while not st.is_over:
            st.apply(rng.choice(st.legal_actions()))
        assert len(set(st.factions)) == 3
