"""The search: it finds the winning move in positions where one move wins, and is reproducible."""

from __future__ import annotations

import random

import pytest

import games
from ai.bots import GreedyBot, MCTSBot, RandomBot, make_bot
from ai.mcts import ISMCTS, rank_rewards

# Positions from seeded random games (game seed = chooser seed) where exactly one legal move
# wins: on every sampled hidden world, that move and random play after it win for the mover,
# and every other move loses. Found once by search; (game, seed, actions played, winning move).
DECISIVE = [
    ("cosmic_run", 368, 255, ("boost", "P6")),
    ("alien_artifacts", 4, 158, ("continue",)),
    ("alien_artifacts", 65, 199, ("add", "hand", 1, "bottom")),
    ("alien_artifacts", 101, 164, ("play_artifact", "AR02")),
]


def _position(name: str, seed: int, steps: int) -> games.State:
    state = games.get(name).new(players=2, seed=seed)
    chooser = random.Random(seed)
    for _ in range(steps):
        legal = state.legal_actions()
        state.apply(legal[chooser.randrange(len(legal))])
    return state


@pytest.mark.parametrize(("name", "seed", "steps", "best"), DECISIVE)
def test_search_takes_the_winning_move(name, seed, steps, best):
    state = _position(name, seed, steps)
    seat = state.current_player
    assert best in state.legal_actions() and len(state.legal_actions()) > 1
    bot = MCTSBot(games.get(name), random.Random(1), iterations=200)
    assert bot.choose(state.view(seat), state.legal_actions()) == best
    assert bot.last is not None and bot.last.iterations == 200
    assert max(bot.last.visits, key=bot.last.visits.get) == best


@pytest.mark.parametrize(("name", "seed", "steps", "best"), DECISIVE[:2])
def test_the_same_seed_gives_the_same_search(name, seed, steps, best):
    state = _position(name, seed + 0, steps - 3)  # a position before the decisive one
    seat = state.current_player
    results = []
    for _ in range(2):
        search = ISMCTS(games.get(name), rng=random.Random(42), iterations=60)
        result = search.search(state.view(seat), seat, state.legal_actions())
        results.append((result.action, result.visits))
    assert results[0] == results[1]


def test_search_only_returns_a_listed_action():
    state = _position("cosmic_run", 3, 10)
    seat = state.current_player
    legal = state.legal_actions()[-2:]
    search = ISMCTS(games.get("cosmic_run"), rng=random.Random(0), iterations=50)
    assert search.search(state.view(seat), seat, legal).action in legal


def test_a_single_legal_action_needs_no_search():
    state = _position("cosmic_run", 3, 10)
    seat = state.current_player
    only = state.legal_actions()[0]
    result = ISMCTS(games.get("cosmic_run"), rng=random.Random(0), iterations=50).search(
        state.view(seat), seat, [only]
    )
    assert result.action == only and result.iterations == 0


def test_time_budget_uses_the_injected_clock():
    ticks = iter(range(1000))
    state = _position("cosmic_run", 5, 4)
    seat = state.current_player
    search = ISMCTS(
        games.get("cosmic_run"),
        rng=random.Random(0),
        iterations=None,
        seconds=5,
        clock=lambda: float(next(ticks)),
    )
    result = search.search(state.view(seat), seat, state.legal_actions())
    # The clock advances 1 per reading: start, then one reading per iteration until 5 passed.
    assert result.iterations == 5


def test_budget_is_required_and_checked():
    game = games.get("cosmic_run")
    with pytest.raises(ValueError, match="budget"):
        ISMCTS(game, rng=random.Random(0), iterations=None, seconds=None)
    with pytest.raises(ValueError):
        ISMCTS(game, rng=random.Random(0), iterations=0)
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("grandmaster", game, 1)
    with pytest.raises(ValueError, match="unknown level"):
        MCTSBot(game, random.Random(0), level="impossible")


def test_rank_rewards_favour_the_winner_and_share_ties():
    state = games.get("cosmic_run").new(players=3, seed=1)
    state.final = {"total": [30, 10, 30]}
    state.discovered = [0, 0, 0]
    state.tokens = [[], [], []]
    state.crystals = [0, 0, 0]
    rewards = rank_rewards(state)
    assert rewards[0] == rewards[2] > rewards[1]


@pytest.mark.parametrize("name", games.names())
def test_every_bot_plays_a_whole_game_from_views_alone(name):
    game = games.get(name)
    state = game.new(players=2, seed=9)
    bots = [GreedyBot(game, random.Random(1)), MCTSBot(game, random.Random(2), iterations=8)]
    seen_seats = set()
    while not state.is_over:
        seat = state.current_player
        view = state.view(seat)
        seen_seats.add(view["seat"])
        action = bots[seat].choose(view, state.legal_actions())
        assert action in state.legal_actions()
        state.apply(action)
    assert seen_seats == {0, 1}
    assert RandomBot(random.Random(0)).choose({}, [("x",)]) == ("x",)
