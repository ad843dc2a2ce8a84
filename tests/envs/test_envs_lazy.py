"""The PettingZoo environment makes nothing before it is asked for: the observation when the
agent observes, an info's values when they are read (cosmoport.envs.lazy). What it makes is what
it made before it was lazy: the seat's own view, its encoding, the mask of its legal actions.
And the encoding needs no numpy to be imported (the base install)."""

from __future__ import annotations

import copy
import json
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cosmoport.envs import aec_env
from cosmoport.envs.lazy import LazyDict

ROOT = Path(__file__).resolve().parents[2]


def lazy(made: list[str]) -> LazyDict:
    def make(key: str, base: int) -> Any:
        made.append(key)
        return {"a": base, "b": [base + 1]}[key]

    return LazyDict(("a", "b"), make, 10)


def test_a_lazy_dict_makes_each_value_once_when_first_read() -> None:
    made: list[str] = []
    info = lazy(made)
    assert isinstance(info, dict) and "a" in info and len(info) == 2 and list(info) == ["a", "b"]
    assert made == []
    assert info["a"] == 10 and info.get("a") == 10 and info.get("zz", 5) == 5
    assert made == ["a"]
    plain = {"a": 10, "b": [11]}
    assert info == plain and plain == info
    assert made == ["a", "b"]


@pytest.mark.parametrize(
    "use",
    [
        lambda d: {**d},
        dict,
        lambda d: d.copy(),
        lambda d: json.loads(json.dumps(d)),
        lambda d: pickle.loads(pickle.dumps(d)),
        copy.deepcopy,
        lambda d: dict(d.items()),
        lambda d: {"a": d["a"], "b": d["b"]},
        lambda d: d | {},
    ],
)
def test_a_lazy_dict_reads_as_the_plain_dict(use: Any) -> None:
    assert use(lazy([])) == {"a": 10, "b": [11]}
    assert "10" in repr(lazy([]))


def test_a_lazy_dict_set_or_deleted_makes_nothing() -> None:
    made: list[str] = []
    info = lazy(made)
    info["a"] = 1
    del info["b"]
    info.update(c=3)
    assert info == {"a": 1, "c": 3} and made == []


def test_infos_are_made_when_read_and_hold_the_seat_s_view_and_mask() -> None:
    env = aec_env("alien_artifacts", 3)
    env.reset(seed=3)
    for _ in range(40):
        agent = env.agent_selection
        seat = env.possible_agents.index(agent)
        info = env.infos[agent]
        assert set(info) == {"view", "action_mask"}
        assert not env._views  # nothing made yet
        observation = env.observe(agent)
        assert info["view"] == env.state_.view(seat)
        assert info["action_mask"].tobytes() == observation["action_mask"].tobytes()
        assert observation["observation"].tobytes() == env.spec_.encode(info["view"]).tobytes()
        observation["observation"][:] = 7  # the agent's own copy
        assert env.observe(agent)["observation"].tobytes() == observation_again(env, seat)
        env.step(int(np.flatnonzero(info["action_mask"])[0]))


def observation_again(env: Any, seat: int) -> bytes:
    return bytes(env.spec_.encode(env.state_.view(seat)).tobytes())


def test_an_info_read_after_the_next_step_raises() -> None:
    env = aec_env("cosmic_run", 2)
    env.reset(seed=1)
    info = env.infos[env.agent_selection]
    first = info["action_mask"]
    env.step(int(np.flatnonzero(first)[0]))
    with pytest.raises(RuntimeError, match="earlier step"):
        info["view"]


def test_the_final_infos_hold_every_seat_s_view() -> None:
    env = aec_env("cosmic_run", 3)
    env.reset(seed=2)
    for agent in env.agent_iter():
        _obs, _reward, terminated, truncated, info = env.last(observe=False)
        if terminated or truncated:
            seat = env.possible_agents.index(agent)
            assert info["view"] == env.state_.view(seat)
            assert "action_mask" not in info
            env.step(None)
            continue
        env.step(int(np.flatnonzero(info["action_mask"])[-1]))


def test_the_encoding_and_the_tournament_import_no_numpy() -> None:
    code = (
        "import sys\n"
        "import cosmoport.cli, cosmoport.envs, games.encoding, tournament.game, tournament.host\n"
        "from games.encoding import action_table, layout\n"
        "assert len(action_table('cosmic_run', 2)) and layout('alien_artifacts').size\n"
        "assert 'numpy' not in sys.modules, 'numpy imported'\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
