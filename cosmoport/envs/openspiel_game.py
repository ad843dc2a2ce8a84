"""Both games as OpenSpiel (``pyspiel``) Python games: :func:`register_openspiel`.

``pyspiel.load_game("python_cosmoport_cosmic_run", {"players": 3, "seed": 7})``. Parameters:
``players``, ``seed`` (the game's seed sequence: the k-th state of the game first used plays the
k-th game of the sequence; the same program gets the same games), ``reward`` (``"rank"`` or
``"vp"``) and, for Alien Artifacts, ``factions`` (``"random"`` or ``"choice"``).

Chance mode: **sampled stochastic**. Dice, shuffles and draws are resolved inside the engine's
``apply`` by the state's own seeded generator, so there are no chance nodes; a clone carries the
generator (the same future), and :meth:`CosmoportState.resample_from_infostate` deals a full state
consistent with one seat's view (the engine's ``determinize``) with a fresh generator, which is
what information-set search (``ISMCTSBot``) needs.

Information state and observation are both the seat's view (the engine's view holds all a seat
may know, its memory of public facts included): the string is the view as canonical JSON, the
tensor its encoding (docs/research.md).
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from cosmoport.envs.core import Spec
from cosmoport.envs.rewards import VP_BOUND
from games.api import State, get

NAMES = {
    "cosmic_run": "python_cosmoport_cosmic_run",
    "alien_artifacts": "python_cosmoport_alien_artifacts",
}
"""Our game name -> its OpenSpiel short name."""

_DEFAULT_PLAYERS = {"cosmic_run": 2, "alien_artifacts": 2}
_MAX_LENGTH = {"cosmic_run": 4000, "alien_artifacts": 100000}
"""``max_game_length``, which OpenSpiel asks for: generous estimates, not proven bounds (random
games take 150 to 400 actions; Cosmic Run's turns and rounds are capped by its decks, Alien
Artifacts' game by the engine's safety cap of 5000 turns)."""


def _defaults(game: str) -> dict[str, Any]:
    """The parameters of ``game`` and their default values."""
    parameters: dict[str, Any] = {"players": _DEFAULT_PLAYERS[game], "seed": 0, "reward": "rank"}
    if game == "alien_artifacts":
        parameters["factions"] = "random"
    return parameters


def _game_type(game: str) -> pyspiel.GameType:
    rules = get(game)
    parameters = _defaults(game)
    return pyspiel.GameType(
        short_name=NAMES[game],
        long_name=f"Cosmoport {rules.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.GENERAL_SUM
            if rules.min_players == 1
            else pyspiel.GameType.Utility.ZERO_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=rules.max_players,
        min_num_players=rules.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


class _Shared:
    """Game-level data every state of one loaded game shares (never copied by a clone)."""

    def __init__(self, spec: Spec, seed: int) -> None:
        self.spec = spec
        self.seeds = random.Random(seed)
        self.resamples = random.Random(seed ^ 0x5EED)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class _Engine:
    """The engine state of one OpenSpiel state, made on first use; a deep copy is the
    engine's own ``clone`` (OpenSpiel clones a Python state by deep-copying its attributes)."""

    def __init__(self, shared: _Shared, state: State | None = None) -> None:
        self.shared = shared
        self._state = state

    @property
    def state(self) -> State:
        if self._state is None:
            self._state = self.shared.spec.new(self.shared.seeds.randrange(2**63))
        return self._state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(self.shared, self.state.clone())


class CosmoportGame(pyspiel.Game):
    """One of our games at one player count, for OpenSpiel."""

    def __init__(self, game: str, params: dict[str, Any]) -> None:
        params = {**_defaults(game), **params}
        players = int(params["players"])
        options = None
        if game == "alien_artifacts" and params.get("factions", "random") != "random":
            options = {"factions": params["factions"]}
        spec = Spec(game, players, options, str(params["reward"]))
        bound = 1.0 if spec.reward == "rank" else VP_BOUND
        info = pyspiel.GameInfo(
            num_distinct_actions=len(spec.table),
            max_chance_outcomes=0,
            num_players=players,
            min_utility=-bound,
            max_utility=bound,
            # Zero-sum games declare their sum; Cosmic Run, general-sum for its solo game, may not.
            utility_sum=0.0 if get(game).min_players > 1 else None,
            max_game_length=_MAX_LENGTH[game],
        )
        super().__init__(_game_type(game), info, params)
        self._shared = _Shared(spec, int(params["seed"]))

    def new_initial_state(self) -> CosmoportState:
        return CosmoportState(self, _Engine(self._shared))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ViewObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError("only a seat's own view is supported (public and own private info)")
        return ViewObserver(self._shared.spec)


class CosmoportState(pyspiel.State):
    """A game in progress; the engine state is ``self.engine``."""

    def __init__(self, game: CosmoportGame, engine: _Engine) -> None:
        super().__init__(game)
        self._engine = engine

    @property
    def engine(self) -> State:
        """The engine state (every seat's secrets)."""
        return self._engine.state

    def current_player(self) -> int:
        seat = self.engine.current_player
        return pyspiel.PlayerId.TERMINAL if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._engine.shared.spec.legal(self.engine))

    def _apply_action(self, action: int) -> None:
        self.engine.apply(self._engine.shared.spec.table.actions[action])

    def _action_to_string(self, player: int, action: int) -> str:
        return " ".join(map(str, self._engine.shared.spec.table.actions[action]))

    def is_terminal(self) -> bool:
        return self.engine.is_over

    def returns(self) -> list[float]:
        state = self.engine
        if not state.is_over:
            return [0.0] * self._engine.shared.spec.players
        return self._engine.shared.spec.rewards(state)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CosmoportState:
        """A state ``player_id`` cannot tell from this one: the hidden parts dealt at random
        (the engine's ``determinize``), with a fresh generator for the chance still to come."""
        shared = self._engine.shared
        draw = probability_sampler() if callable(probability_sampler) else 0.0
        seed = shared.resamples.randrange(2**62) ^ int(draw * 2**30)
        view = self.engine.view(player_id)
        sample = shared.spec.rules.determinize(view, player_id, seed)
        return CosmoportState(self.get_game(), _Engine(shared, sample))

    def __str__(self) -> str:
        return _canonical(self.engine.view(None))


def _canonical(view: dict[str, Any]) -> str:
    return json.dumps(view, sort_keys=True, separators=(",", ":"))


class ViewObserver:
    """OpenSpiel's observer: a seat's view, as a vector and as a string."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.tensor = np.zeros(spec.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CosmoportState, player: int) -> None:
        self.tensor.fill(0)
        self.spec.encode_state_into(state.engine, player, self.tensor)

    def string_from(self, state: CosmoportState, player: int) -> str:
        return _canonical(state.engine.view(player))


class CosmicRunGame(CosmoportGame):
    """``python_cosmoport_cosmic_run``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__("cosmic_run", dict(params or {}))


class AlienArtifactsGame(CosmoportGame):
    """``python_cosmoport_alien_artifacts``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__("alien_artifacts", dict(params or {}))


_CLASSES: dict[str, type[CosmoportGame]] = {
    "cosmic_run": CosmicRunGame,
    "alien_artifacts": AlienArtifactsGame,
}


def register_openspiel() -> list[str]:
    """Register both games with pyspiel (again is harmless); returns their short names."""
    registered = set(pyspiel.registered_names())
    for game, name in NAMES.items():
        if name not in registered:
            pyspiel.register_game(_game_type(game), _CLASSES[game])
    return list(NAMES.values())
