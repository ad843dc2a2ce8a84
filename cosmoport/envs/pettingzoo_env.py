"""Both games as PettingZoo ``AECEnv``s: :func:`aec_env` (docs/research.md).

Agents are ``player_0`` .. ``player_{N-1}``, seat 0 to N-1 (``player_0`` starts). Each
observation is ``{"observation": float32 vector, "action_mask": int8 vector}``; the agent's
view, as the engine gives it, is ``infos[agent]["view"]`` while the agent is the one to act
(with its ``"action_mask"`` too), and for every agent once the game is over (``{}``
otherwise). Rewards come at the end only.

Nothing is built before it is asked for: the observation vector when the agent observes (once
per step, however often it is asked), an info's values when they are read
(:class:`cosmoport.envs.lazy.LazyDict`). So a loop that plays from ``info["action_mask"]``
with ``last(observe=False)`` pays for neither the view nor its encoding. An info must be read
before the step that follows it: it describes the state of its step, which ``step`` changes.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from cosmoport.envs.core import Spec
from cosmoport.envs.lazy import LazyDict
from games.api import IllegalAction, State, View

_INFO_KEYS = ("view", "action_mask")
_FINAL_KEYS = ("view",)


class CosmoportAEC(AECEnv[str, dict[str, np.ndarray], int]):
    """One game of Cosmic Run or Alien Artifacts, seat by seat."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "cosmoport_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        players: int,
        *,
        reward: str = "rank",
        render_mode: str | None = None,
        options: dict[str, Any] | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.spec_ = Spec(game, players, options, reward)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        spec = self.spec_
        observation = spaces.Box(np.float32(0), spec.high, dtype=np.float32)
        mask = spaces.Box(0, 1, (len(spec.table),), dtype=np.int8)
        self.observation_spaces = {
            agent: spaces.Dict({"observation": observation, "action_mask": mask})
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(len(spec.table)) for agent in self.possible_agents
        }
        self._actions = spec.table.actions
        self._seeds = random.Random()
        self._state: State | None = None
        self._views: dict[int, View] = {}
        self._observations: dict[int, np.ndarray] = {}
        self._version = 0
        """Counts the changes of the game in progress (steps and resets), for stale infos."""
        self.game_seed: int | None = None
        """The engine seed of the game in progress: ``games.api.get(game).new(players,
        game_seed, options)`` is the same game."""

    def __str__(self) -> str:
        return f"cosmoport_{self.spec_.game}_v0"

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def state_(self) -> State:
        """The engine state of the game in progress (every seat's secrets: not for agents)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: the game of engine seed ``seed``, or the next of the seed sequence
        (the one the last ``seed`` started, else one seeded by the system). ``options`` is
        accepted and ignored: the game's options are given to :func:`aec_env`."""
        if seed is not None:
            self._seeds = random.Random(seed)
            self.game_seed = int(seed)
        else:
            self.game_seed = self._seeds.randrange(2**63)
        self._state = self.spec_.new(self.game_seed)
        self._changed()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def _changed(self) -> None:
        """The game has changed: every view, observation and mask made so far is out of date."""
        self._version += 1
        if self._views:
            self._views = {}
        if self._observations:
            self._observations = {}

    def _view(self, seat: int) -> View:
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self.state_.view(seat)
        return view

    def _mask(self, seat: int) -> np.ndarray:
        """A new action mask of ``seat`` (each caller gets its own: it is cheap to make)."""
        return self.spec_.mask(self.state_, seat)

    def _info(self, seat: int, mask: bool) -> LazyDict:
        """The info of ``seat``: its view (and its action mask), made when first read."""
        return LazyDict(_INFO_KEYS if mask else _FINAL_KEYS, self._make_info, self._version, seat)

    def _make_info(self, key: str, version: int, seat: int) -> Any:
        if self._version != version:
            raise RuntimeError(
                "this info belongs to an earlier step of the environment: read it before the "
                "next step() or reset()"
            )
        if key == "view":
            return self._view(seat)
        return self._mask(seat)

    def _select(self) -> None:
        """Point ``agent_selection`` at the seat to act and give it its view and mask."""
        seat = self.state_.current_player
        assert seat is not None
        agent = self.possible_agents[seat]
        self.agent_selection = agent
        self.infos[agent] = self._info(seat, mask=True)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        observation = self._observations.get(seat)
        if observation is None:
            view = self._views.get(seat)
            if view is not None:
                observation = self.spec_.encode(view)
            else:  # straight from the state: the same vector, without building the view
                observation = self.spec_.encode_state(self.state_, seat)
            self._observations[seat] = observation
        return {"observation": observation.copy(), "action_mask": self._mask(seat)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is not an action")
        state = self.state_
        try:
            number = int(action)
            if number < 0:
                raise IndexError(number)
            state.apply(self._actions[number])
        except (IndexError, IllegalAction):
            raise ValueError(
                f"action {action} is not legal for {agent} now (see the action_mask)"
            ) from None
        self._changed()
        self._cumulative_rewards[agent] = 0.0
        self.infos[agent] = {}  # its view is out of date; it gets the next when next to act
        if not state.is_over:
            # Rewards come at the end only: until then they are all 0 and stay so.
            self._select()
            return
        final = self.spec_.rewards(state)
        for seat, name in enumerate(self.possible_agents):
            self.rewards[name] = final[seat]
            self.terminations[name] = True
            self.infos[name] = self._info(seat, mask=False)
        self.agent_selection = agent
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The console's board, as the seat to act (or, once over, seat 0) sees it."""
        if self.render_mode is None:
            return None
        from client.render import board  # the console's renderer, loaded only when drawing
        from client.text.style import Style

        state = self.state_
        seat = state.current_player
        view = self._view(0 if seat is None else seat)
        names = list(self.possible_agents)
        return "\n".join(board(view, names, Style(False), 80))

    def close(self) -> None:
        self._changed()


def aec_env(
    game: str,
    players: int = 2,
    *,
    reward: str = "rank",
    render_mode: str | None = None,
    **options: Any,
) -> CosmoportAEC:
    """A PettingZoo AEC environment of ``game`` (``"cosmic_run"`` or ``"alien_artifacts"``)
    for ``players`` seats. ``reward``: ``"rank"`` (default) or ``"vp"``; ``render_mode``:
    ``None`` or ``"ansi"``; any other keyword is the game's own option (Alien Artifacts:
    ``factions="random" | "choice" | [codes]``). Call ``reset`` before use."""
    return CosmoportAEC(
        game, players, reward=reward, render_mode=render_mode, options=options or None
    )
