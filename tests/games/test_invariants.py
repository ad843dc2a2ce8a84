"""Seeded random games of every registered game, checking the engine contract at every step.

Cheap checks run at every step of every game; the expensive ones (every legal action applies,
refusals change nothing, clone independence, determinize, msgpack round trips) run at a seeded
sample of steps, so thousands of games stay within a few tens of seconds.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import msgpack
import pytest

import games
from games import IllegalAction

# Games per player count. Cosmic Run: 4 counts x 600 = 2,400 games; Alien Artifacts: 4 counts x 750
# = 3,000 games.
GAMES_PER_COUNT = {"cosmic_run": 600, "alien_artifacts": 750}
# Share of steps that get the expensive checks.
DEEP_CHECK_RATE = 0.02
MAX_STEPS = 20_000

CASES = [
    (name, players)
    for name in games.names()
    for players in range(games.get(name).min_players, games.get(name).max_players + 1)
]

NOT_ACTIONS: list[Any] = [None, (), ("no-such-action",), "roll", 7, ("pass", "pass", "pass")]


def _seats(state: Any, players: int) -> list[int | None]:
    return [*range(players), None]


def _roundtrip(value: Any) -> Any:
    return msgpack.unpackb(msgpack.packb(value, use_bin_type=True), raw=False, strict_map_key=True)


def _fingerprint(state: Any, players: int) -> Any:
    return (
        [state.view(seat) for seat in _seats(state, players)],
        state.legal_actions(),
        state.current_player,
        state.is_over,
        state.scores(),
    )


def _check_ranking(state: Any, players: int) -> None:
    ranking = state.ranking()
    flat = [seat for group in ranking for seat in group]
    assert sorted(flat) == list(range(players))
    assert all(group for group in ranking)
    scores = state.scores()
    assert len(scores) == players
    for better, worse in itertools.pairwise(ranking):
        assert min(scores[s] for s in better) >= max(scores[s] for s in worse)


def _deep_checks(
    game: Any, state: Any, players: int, rng: random.Random, seen_actions: set[Any]
) -> None:
    legal = state.legal_actions()
    before = _fingerprint(state, players)

    # Every legal action applies, to a clone, without touching the original.
    for action in legal:
        copy = state.clone()
        events = copy.apply(action)
        assert isinstance(events, list)
        assert _roundtrip(events) == events
        assert isinstance(state.label(action), str) and state.label(action)
    assert _fingerprint(state, players) == before, "applying to a clone changed the original"

    # A refused action changes nothing, random generator included.
    refusals = NOT_ACTIONS + [a for a in seen_actions if a not in legal][:5]
    refusals.append((*legal[0], 99))
    twin = state.clone()
    for bad in refusals:
        with pytest.raises(IllegalAction):
            state.apply(bad)
    assert _fingerprint(state, players) == before
    action = legal[rng.randrange(len(legal))]
    assert state.clone().apply(action) == twin.clone().apply(action), "refusal moved the RNG"

    # Clones evolve identically and independently.
    a, b = state.clone(), state.clone()
    assert a.apply(action) == b.apply(action)
    assert _fingerprint(a, players) == _fingerprint(b, players)
    assert _fingerprint(state, players) == before

    # Views: msgpack round trip, determinize reproduces them and offers the same legal list.
    for seat in _seats(state, players):
        view = state.view(seat)
        assert _roundtrip(view) == view, f"view of seat {seat} changes through msgpack"
        for key in ("game", "players", "seat", "current_player", "is_over", "scores", "ranking"):
            assert key in view
        assert view["seat"] == seat and view["current_player"] == state.current_player
        sample = game.determinize(_roundtrip(view), seat, rng.randrange(2**31))
        assert sample.view(seat) == view, f"determinize({seat}) does not give back the view"
        if seat == state.current_player:
            assert sample.legal_actions() == legal
            # The sampled state plays on like any state.
            sample.apply(legal[rng.randrange(len(legal))])


def _play(game: Any, players: int, seed: int, deep_rate: float) -> tuple[list[Any], Any]:
    """Play one random game with checks; return the actions and the final state."""
    rng = random.Random(seed)
    state = game.new(players=players, seed=seed)
    actions: list[Any] = []
    seen: set[Any] = set()
    for _ in range(MAX_STEPS):
        legal = state.legal_actions()
        assert bool(legal) == (not state.is_over)
        assert (state.current_player is None) == state.is_over
        if state.is_over:
            break
        assert 0 <= state.current_player < players
        assert len(legal) == len(set(legal)), "duplicate legal actions"
        if rng.random() < deep_rate:
            _deep_checks(game, state, players, rng, seen)
        action = legal[rng.randrange(len(legal))]
        seen.add(action)
        state.apply(action)
        actions.append(action)
    else:
        pytest.fail(f"{game.name} {players}p seed {seed} did not end in {MAX_STEPS} steps")
    _check_ranking(state, players)
    for seat in _seats(state, players):
        view = state.view(seat)
        assert view["is_over"] and view["ranking"] == state.ranking()
        assert view["scores"] == state.scores()
    return actions, state


@pytest.mark.parametrize(("name", "players"), CASES)
def test_random_games_keep_the_contract(name: str, players: int) -> None:
    game = games.get(name)
    count = GAMES_PER_COUNT.get(name, 200)
    for seed in range(count):
        _play(game, players, seed * 7919 + players, DEEP_CHECK_RATE if seed % 10 == 0 else 0.0)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_same_seed_and_actions_replay_identically(name: str, players: int) -> None:
    game = games.get(name)
    for seed in range(5):
        actions, final = _play(game, players, seed, 0.0)
        state = game.new(players=players, seed=seed)
        replayed = game.new(players=players, seed=seed)
        for action in actions:
            assert state.apply(action) == replayed.apply(action)
        assert _fingerprint(state, players) == _fingerprint(final, players)
        assert _fingerprint(replayed, players) == _fingerprint(final, players)


@pytest.mark.parametrize("name", games.names())
def test_different_seeds_give_different_games(name: str) -> None:
    game = games.get(name)
    players = max(2, game.min_players)
    views = {repr(game.new(players=players, seed=seed).view(None)) for seed in range(20)}
    assert len(views) > 1


@pytest.mark.parametrize("name", games.names())
def test_player_counts_out_of_range_are_refused(name: str) -> None:
    game = games.get(name)
    for players in (game.min_players - 1, game.max_players + 1, 0, -1):
        with pytest.raises(ValueError):
            game.new(players=players, seed=1)


@pytest.mark.parametrize("name", games.names())
def test_unknown_options_are_refused(name: str) -> None:
    game = games.get(name)
    with pytest.raises(ValueError, match="no_such_option"):
        game.new(players=max(2, game.min_players), seed=1, options={"no_such_option": 1})


def test_registry_names_and_unknown_game() -> None:
    assert "cosmic_run" in games.names()
    for name in games.names():
        game = games.get(name)
        assert game.name == name
        assert isinstance(game, games.Game)
        assert isinstance(game.new(players=game.max_players, seed=3), games.State)
    with pytest.raises(KeyError, match="unknown game 'chess'"):
        games.get("chess")
