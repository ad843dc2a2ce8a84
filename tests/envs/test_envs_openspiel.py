"""The OpenSpiel games: registration, the information state, resampling by ``determinize``, and
OpenSpiel's own ISMCTSBot playing whole games of each."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from cosmoport.envs import register_openspiel
from cosmoport.envs.openspiel_game import CosmoportState

NAMES = register_openspiel()
COUNTS = [("python_cosmoport_cosmic_run", n) for n in (1, 2, 3, 4)] + [
    ("python_cosmoport_alien_artifacts", n) for n in (2, 3, 4, 5)
]


def test_registration_is_idempotent_and_listed() -> None:
    assert register_openspiel() == NAMES
    assert set(NAMES) <= set(pyspiel.registered_names())
    game = pyspiel.load_game("python_cosmoport_alien_artifacts")
    assert game.num_players() == 2
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    with pytest.raises(ValueError, match="2 to 5 players"):
        pyspiel.load_game("python_cosmoport_alien_artifacts", {"players": 9})


@pytest.mark.parametrize(("name", "players"), COUNTS)
def test_random_games_through_pyspiel(name: str, players: int) -> None:
    game = pyspiel.load_game(name, {"players": players, "seed": players})
    rng = np.random.RandomState(players)
    state = game.new_initial_state()
    size = game.information_state_tensor_size()
    assert size == game.observation_tensor_size()
    steps = 0
    while not state.is_terminal():
        player = state.current_player()
        assert 0 <= player < players
        legal = state.legal_actions()
        assert legal == sorted(legal) and max(legal) < game.num_distinct_actions()
        if steps % 25 == 0:
            tensor = state.information_state_tensor(player)
            assert len(tensor) == size
            assert state.observation_string(player) == state.information_state_string(player)
            clone = state.clone()
            assert clone.history() == state.history()
            assert str(clone) == str(state)
        state.apply_action(int(rng.choice(legal)))
        steps += 1
    returns = state.returns()
    assert len(returns) == players
    if players > 1:
        assert sum(returns) == pytest.approx(0.0)
    assert max(returns) <= game.max_utility() and min(returns) >= game.min_utility()
    assert steps <= game.max_game_length()


@pytest.mark.parametrize(("name", "players"), COUNTS)
def test_openspiels_own_random_simulation_test(name: str, players: int) -> None:
    """pyspiel's basic checks of a game: legal actions, clones, returns, observations, bounds
    (without serialization: a sampled-stochastic Python game cannot save its generator)."""
    game = pyspiel.load_game(name, {"players": players, "seed": 10 + players})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_seed_gives_the_same_games() -> None:
    def firsts(seed: int) -> list[str]:
        game = pyspiel.load_game("python_cosmoport_cosmic_run", {"players": 2, "seed": seed})
        return [str(game.new_initial_state()) for _ in range(2)]

    assert firsts(5) == firsts(5)
    assert firsts(5)[0] != firsts(5)[1]
    assert firsts(5) != firsts(6)


def test_resample_keeps_the_seats_information_state() -> None:
    game = pyspiel.load_game("python_cosmoport_alien_artifacts", {"players": 3, "seed": 2})
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    for _ in range(40):
        state.apply_action(int(rng.choice(state.legal_actions())))
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    samples = [state.resample_from_infostate(player, sampler) for _ in range(4)]
    for sample in samples:
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.information_state_tensor(player) == state.information_state_tensor(player)
        assert sample.legal_actions() == state.legal_actions()
    # Successive samples deal the hidden cards differently.
    assert len({str(sample.engine.view(None)) + str(sample.engine.deck) for sample in samples}) > 1


@pytest.mark.parametrize(
    "name", ["python_cosmoport_cosmic_run", "python_cosmoport_alien_artifacts"]
)
def test_ismcts_bot_plays_a_whole_game(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """OpenSpiel's own ISMCTSBot, unchanged, in every seat of a 2-player game."""
    resamples: list[bool] = []
    original = CosmoportState.resample_from_infostate

    def checked(self: CosmoportState, player: int, sampler: object) -> CosmoportState:
        sample = original(self, player, sampler)
        same = sample.information_state_string(player) == self.information_state_string(player)
        resamples.append(same)
        return sample

    monkeypatch.setattr(CosmoportState, "resample_from_infostate", checked)
    game = pyspiel.load_game(name, {"players": 2, "seed": 9})
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bots = [
        ismcts.ISMCTSBot(game, evaluator, 2.0, 4, random_state=np.random.RandomState(seat))
        for seat in range(2)
    ]
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves > 50
    assert sorted(state.returns()) == [-1.0, 1.0] or state.returns() == [0.0, 0.0]
    assert len(resamples) > moves and all(resamples)
