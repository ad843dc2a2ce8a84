"""The PettingZoo environments: PettingZoo's own API and seed tests at every player count, the
same games as the engine, observations that only the seat's own view decides, the rewards."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from cosmoport.envs import aec_env
from cosmoport.envs.core import Spec
from cosmoport.envs.pettingzoo_env import CosmoportAEC
from games.api import get

COUNTS = [("cosmic_run", n) for n in (1, 2, 3, 4)] + [("alien_artifacts", n) for n in (2, 3, 4, 5)]

# What api_test says of every environment whose observation is a dict with an action mask
# (PettingZoo's own card and board games are exempted from these two by name).
EXPECTED_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}


@pytest.mark.parametrize(("game", "players"), COUNTS)
def test_pettingzoo_api_and_seed_tests(game: str, players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(aec_env(game, players), num_cycles=300)
        seed_test(lambda: aec_env(game, players), num_cycles=300)
    assert {str(w.message) for w in caught} <= EXPECTED_WARNINGS


def _random_play(env: CosmoportAEC, seed: int) -> list[int]:
    """Play a whole game with random legal actions; the actions played."""
    rng = random.Random(seed)
    played: list[int] = []
    for agent in env.agent_iter():
        observation, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        assert info["view"]["current_player"] == int(agent.split("_")[1])
        action = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
        played.append(action)
        env.step(action)
    return played


@pytest.mark.parametrize(("game", "players"), [("cosmic_run", 3), ("alien_artifacts", 4)])
def test_a_seed_is_the_engine_game_of_that_seed(game: str, players: int) -> None:
    env = aec_env(game, players)
    env.reset(seed=11)
    played = _random_play(env, 5)
    final = env.state_
    state = get(game).new(players, 11)
    table = env.spec_.table
    for action in played:
        state.apply(table.actions[action])
    assert state.is_over
    assert state.view(None) == final.view(None)
    # The next unseeded game follows the seed too, and differs from the first.
    env.reset(seed=11)
    env.reset()
    again = aec_env(game, players)
    again.reset(seed=11)
    again.reset()
    assert env.game_seed == again.game_seed != 11


@pytest.mark.parametrize(("game", "players"), COUNTS)
def test_the_observation_is_the_seats_view_and_nothing_else(game: str, players: int) -> None:
    """Two states that differ only in what a seat cannot see (other hands, deck orders, the
    generator) give that seat the same observation; a different view gives another one."""
    rules = get(game)
    spec = Spec(game, players)
    env = aec_env(game, players)
    rng = random.Random(players)
    for seed in range(3):
        state = rules.new(players, seed)
        for _ in range(rng.randrange(5, 120)):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        for seat in range(players):
            view = state.view(seat)
            one = rules.determinize(view, seat, 1)
            two = rules.determinize(view, seat, 2)
            env.reset(seed=0)
            env._state, env._views = one, {}
            first = env.observe(f"player_{seat}")
            env._state, env._views = two, {}
            second = env.observe(f"player_{seat}")
            assert np.array_equal(first["observation"], second["observation"])
            assert np.array_equal(first["action_mask"], second["action_mask"])
            assert np.array_equal(first["observation"], spec.encode(view))
            if players > 1 and not state.is_over:
                other = (seat + 1) % players
                assert not np.array_equal(spec.encode(state.view(other)), first["observation"])
        # The hidden parts did differ (the deck order, at least): the observation ignored them.
        deck = "alien_deck" if game == "cosmic_run" else "deck"
        samples = [rules.determinize(state.view(0), 0, s) for s in (1, 2)]
        if len(getattr(samples[0], deck)) > 3:
            assert getattr(samples[0], deck) != getattr(samples[1], deck)


def test_rewards_rank_and_vp() -> None:
    for game, players in [("cosmic_run", 3), ("alien_artifacts", 2), ("cosmic_run", 1)]:
        for reward in ("rank", "vp"):
            env = aec_env(game, players, reward=reward)
            env.reset(seed=3)
            totals = dict.fromkeys(env.possible_agents, 0.0)
            rng = random.Random(3)
            for agent in env.agent_iter():
                observation, cumulative, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    totals[agent] = cumulative
                    env.step(None)
                    continue
                assert cumulative == 0.0  # rewards come at the end only
                env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
            state = env.state_
            scores = state.scores()
            ranking = state.ranking()
            values = [totals[f"player_{s}"] for s in range(players)]
            if players > 1:
                assert sum(values) == pytest.approx(0.0)
            if reward == "rank" and players > 1:
                if len(ranking[0]) == 1:
                    assert values[ranking[0][0]] == 1.0
                if len(ranking[-1]) == 1:
                    assert values[ranking[-1][0]] == -1.0
            elif reward == "vp" and players > 1:
                mean_others = (sum(scores) - scores[0]) / (players - 1)
                assert values[0] == pytest.approx(scores[0] - mean_others)
            elif reward == "rank":
                assert values == [1.0 if scores[0] >= 50 else -1.0]


def test_illegal_actions_and_bad_arguments_are_refused() -> None:
    env = aec_env("cosmic_run", 2)
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)
    with pytest.raises(ValueError, match="not legal"):
        env.step(10_000)
    with pytest.raises(ValueError, match="reward"):
        aec_env("cosmic_run", 2, reward="money")
    with pytest.raises(ValueError, match="players"):
        aec_env("alien_artifacts", 6)
    with pytest.raises(ValueError):
        aec_env("alien_artifacts", 2, colour="red")
    chosen = aec_env("alien_artifacts", 2, factions="choice")
    chosen.reset(seed=2)
    assert chosen.infos[chosen.agent_selection]["view"]["phase"] == "choose_faction"


def test_ansi_render_is_the_console_board() -> None:
    env = aec_env("alien_artifacts", 3, render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    assert isinstance(text, str)
    assert "Alien Artifacts" in text
    assert "player_1" in text
    quiet = aec_env("cosmic_run", 2)
    quiet.reset(seed=4)
    assert quiet.render() is None
