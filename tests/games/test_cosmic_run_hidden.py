"""Hidden information in Cosmic Run (§7) and determinization (§8.5)."""

from __future__ import annotations

import random
from collections import Counter

from cr_helpers import at_roll, new, of_type, turn

import games
from games.cosmic_run.data import INFODERE_VALUES, MISS, TOKEN_AT

GAME = games.get("cosmic_run")


def _shuffle_hidden(state, seat, rng: random.Random):
    """A twin of ``state`` that differs only in what ``seat`` cannot see."""
    twin = state.clone()
    others = [s for s in range(state.n) if s != seat]
    # Every token value the seat cannot see: opponents', the board's and the box's.
    slots = [("board", i) for i, v in enumerate(twin.board_tokens) if v]
    slots += [("box", i) for i in range(len(twin.box))]
    slots += [("seat", s, i) for s in others for i in range(len(twin.tokens[s]))]
    values = [
        twin.board_tokens[x[1]]
        if x[0] == "board"
        else twin.box[x[1]]
        if x[0] == "box"
        else twin.tokens[x[1]][x[2]]
        for x in slots
    ]
    rng.shuffle(values)
    for slot, value in zip(slots, values, strict=True):
        if slot[0] == "board":
            twin.board_tokens[slot[1]] = value
        elif slot[0] == "box":
            twin.box[slot[1]] = value
        else:
            twin.tokens[slot[1]][slot[2]] = value
    rng.shuffle(twin.meteor_deck)
    rng.shuffle(twin.alien_deck)
    return twin


def test_views_do_not_change_when_only_hidden_parts_change():
    checked = 0
    for seed in range(120):
        players = 1 + seed % 4
        rng = random.Random(seed)
        state = GAME.new(players=players, seed=seed)
        while not state.is_over:
            if rng.random() < 0.05:
                for seat in [*range(players), None]:
                    twin = _shuffle_hidden(state, seat, rng)
                    assert twin.view(seat) == state.view(seat)
                    checked += 1
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    assert checked > 500


def test_a_view_shows_its_own_token_values_and_only_counts_of_others():
    state = at_roll(new(players=3), [1, 1, 6, 6, 6, 6])
    state.pos[0][0] = 3
    state.tokens[1] = [5]
    value = state.board_tokens[TOKEN_AT[(0, 5)]]
    turn(state, (0, "P1"), (1, "P1"), (2, "T"), (3, "T"), (4, "T"), (5, "T"))
    for seat in (0, 1, 2, None):
        seats = state.view(seat)["seats"]
        assert seats[0]["infodere_count"] == 1 and seats[1]["infodere_count"] == 1
        assert seats[0]["infodere"] == ([value] if seat == 0 else None)
        assert seats[1]["infodere"] == ([5] if seat == 1 else None)


def test_board_tokens_are_named_by_space_never_by_value():
    state = new(seed=4)
    for seat in (0, 1, None):
        planets = state.view(seat)["planets"]
        assert [p["tokens"] for p in planets] == [[5, 11], [3, 6], [3], [2], [1], [10, 21, 32]]


def test_everyone_sees_every_held_token_once_the_game_is_over():
    state = at_roll(new(), [6] * 6)
    state.tokens = [[3, 1], [4]]
    state.meteor_deck.clear()
    turn(state, *[(d, "T") for d in range(6)])
    assert state.is_over
    for seat in (0, 1, None):
        assert [s["infodere"] for s in state.view(seat)["seats"]] == [[1, 3], [4]]


def test_no_event_carries_a_token_value_or_a_deck_order():
    for seed in range(40):
        state = GAME.new(players=2 + seed % 3, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            legal = state.legal_actions()
            for event in state.apply(legal[rng.randrange(len(legal))]):
                if event["type"] == "infodere":
                    assert set(event) == {"type", "seat", "planet", "space"}
                assert "deck" not in repr(event)


def test_removed_meteor_cards_are_not_in_any_view():
    state = at_roll(new(), [6] * 6)
    state.meteor_deck += [MISS, 8, 3]  # M04, then M09, then a miss
    turn(state, *[(d, "T") for d in range(6)])
    at_roll(state, [6] * 6)
    events = turn(state, *[(d, "T") for d in range(6)])
    assert of_type(events, "meteor")[0]["card"] == "M09"
    view = repr(state.view(0)) + repr(state.view(None))
    assert "M04" not in view and "M09" in view


def test_determinize_keeps_own_tokens_and_deals_the_rest_uniformly():
    state = at_roll(new(players=3), [6] * 6)
    state.tokens[0] = [5, 4]
    state.tokens[1] = [1, 1]
    view = state.view(0)
    firsts = Counter()
    opponents = Counter()
    for seed in range(3000):
        sample = GAME.determinize(view, 0, seed)
        assert sample.tokens[0] == [4, 5]
        assert len(sample.tokens[1]) == 2 and len(sample.tokens[2]) == 0
        everything = sample.board_tokens + sample.box + sample.tokens[1] + sample.tokens[0]
        assert sorted(v for v in everything if v) == sorted(INFODERE_VALUES)
        opponents.update(sample.tokens[1])
        firsts[sample.alien_deck[-1]] += 1
    # Unknown values: 14 tokens minus 5 and 4 -> twelve, of which four are 1s and one is a 4.
    assert 0.25 < opponents[1] / 6000 < 0.42  # expected 4/12
    assert opponents[5] == 0  # the only 5 is ours
    unseen = set(range(30)) - set(state.row) - {a for h in state.held for a in h}
    assert set(firsts) == unseen
    assert max(firsts.values()) < 2 * min(firsts.values())


def test_determinized_meteor_deck_has_the_public_size_and_make_up():
    state = new(players=2, seed=1)
    view = state.view(1)
    for seed in range(50):
        sample = GAME.determinize(view, 1, seed)
        assert len(sample.meteor_deck) == view["meteor"]["deck_left"]
        counts = Counter(sample.meteor_deck)
        assert counts[MISS] <= 24 and all(counts[c] <= 1 for c in range(12))
        if state.meteor_card != MISS:
            assert state.meteor_card not in sample.meteor_deck
