"""What the PettingZoo and OpenSpiel adapters share: one game and player count's action table,
observation encoder (:class:`games.encoding.Encoder`) and rewards (numpy needed; nothing else of
the research extra)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from cosmoport.envs.rewards import check_reward, final_rewards
from games.api import Game, State, View, check_players, get
from games.encoding import Encoder, layout

__all__ = ["Spec", "layout"]


class Spec:
    """One game, player count, options and reward scheme, with everything derived from them."""

    def __init__(
        self,
        game: str,
        players: int,
        options: Mapping[str, Any] | None = None,
        reward: str = "rank",
    ) -> None:
        self.rules: Game = get(game)
        check_players(self.rules, players)
        self.game = game
        self.players = players
        self.options = dict(options) if options else None
        self.reward = check_reward(reward)
        self.encoder = Encoder(game, players)
        self.table = self.encoder.table
        self.layout = self.encoder.layout
        self.size = self.encoder.size
        self.high = np.asarray(self.layout.highs(), dtype=np.float32)
        # Fail now, not in the first game, on an option the engine refuses.
        self.rules.new(players, 0, self.options)

    def new(self, seed: int) -> State:
        return self.rules.new(self.players, seed, self.options)

    def encode(self, view: View) -> np.ndarray:
        """The observation vector of ``view`` (one seat's view)."""
        return self.encoder.encode(view)

    def encode_state(self, state: State, seat: int) -> np.ndarray:
        """The observation vector of ``seat`` in ``state`` (as ``encode(state.view(seat))``)."""
        return self.encoder.encode_state(state, seat)

    def encode_state_into(self, state: State, seat: int, out: np.ndarray) -> None:
        """Write the observation vector of ``seat`` in ``state`` into ``out`` (all 0)."""
        self.encoder.encode_state_into(state, seat, out)

    def encode_into(self, view: View, out: np.ndarray) -> None:
        """Write the observation vector of ``view`` into ``out``, which must be all 0."""
        self.encoder.encode_into(view, out)

    def legal(self, state: State) -> list[int]:
        """The legal actions of ``state`` as integers, in the engine's order."""
        return self.encoder.indexes(state.legal_actions())

    def mask(self, state: State, seat: int) -> np.ndarray:
        """1 for each action ``seat`` may play now (all 0 for a seat not to act)."""
        if state.current_player != seat:
            return self.encoder.mask()
        return self.encoder.mask(state.legal_actions())

    def rewards(self, state: State) -> list[float]:
        """Each seat's reward once ``state`` is over."""
        return final_rewards(state, self.reward)
