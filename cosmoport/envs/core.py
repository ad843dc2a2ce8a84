"""What the PettingZoo and OpenSpiel adapters share: one game and player count's action table,
observation encoder and rewards (numpy needed; nothing else of the research extra)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

import numpy as np

from cosmoport.envs import encode_alien_artifacts, encode_cosmic_run
from cosmoport.envs.actions import ActionTable, action_table
from cosmoport.envs.layout import Layout
from cosmoport.envs.rewards import check_reward, final_rewards
from games.api import Game, State, View, check_players, get

ENCODERS: dict[str, ModuleType] = {
    "cosmic_run": encode_cosmic_run,
    "alien_artifacts": encode_alien_artifacts,
}


def layout(game: str) -> Layout:
    """The observation layout of ``game`` (the same at every player count)."""
    get(game)  # an unknown name raises UnknownGame
    layout: Layout = ENCODERS[game].LAYOUT
    return layout


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
        self.table: ActionTable = action_table(game, players)
        module = ENCODERS[game]
        self.layout: Layout = module.LAYOUT
        self.size: int = module.SIZE
        self._encode: Callable[[View, np.ndarray], None] = module.encode
        self.high = np.asarray(self.layout.highs(), dtype=np.float32)
        # Fail now, not in the first game, on an option the engine refuses.
        self.rules.new(players, 0, self.options)

    def new(self, seed: int) -> State:
        return self.rules.new(self.players, seed, self.options)

    def encode(self, view: View) -> np.ndarray:
        """The observation vector of ``view`` (one seat's view)."""
        out = np.zeros(self.size, dtype=np.float32)
        self._encode(view, out)
        return out

    def encode_into(self, view: View, out: np.ndarray) -> None:
        """Write the observation vector of ``view`` into ``out``, which must be all 0."""
        self._encode(view, out)

    def legal(self, state: State) -> list[int]:
        """The legal actions of ``state`` as integers, in the engine's order."""
        index = self.table.index
        return [index[action] for action in state.legal_actions()]

    def mask(self, state: State, seat: int) -> np.ndarray:
        """1 for each action ``seat`` may play now (all 0 for a seat not to act)."""
        mask = np.zeros(len(self.table), dtype=np.int8)
        if state.current_player == seat:
            mask[self.legal(state)] = 1
        return mask

    def rewards(self, state: State) -> list[float]:
        """Each seat's reward once ``state`` is over."""
        return final_rewards(state, self.reward)
