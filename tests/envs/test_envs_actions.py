"""The fixed action spaces: sizes, a few pinned numbers (an agent trained on one version keeps
its meaning on the next), and every action the engines offer in random games is in them."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from cosmoport.envs.actions import action_table
from games.api import get

COUNTS = [("cosmic_run", n) for n in (1, 2, 3, 4)] + [("alien_artifacts", n) for n in (2, 3, 4, 5)]


def test_sizes_and_pinned_numbers() -> None:
    for n in (1, 2, 3, 4):
        table = action_table("cosmic_run", n)
        assert len(table) == 128
        assert table.actions[0] == ("assign", 0, "P1")
        assert table.actions[65] == ("assign", 5, "T")
        assert table.actions[66] == ("roll",)
        assert table.actions[74] == ("nudge", 0, 1)
        assert table.actions[97] == ("pass",)
        assert table.actions[127] == ("retire", "A30")
    for n in (2, 3, 4, 5):
        table = action_table("alien_artifacts", n)
        assert len(table) == 600 + n
        assert table.actions[0] == ("build", "S01")
        assert table.actions[95] == ("project", "P16")
        assert table.actions[138] == ("trade",)
        assert table.actions[148] == ("start_action",)
        assert table.actions[152] == ("take", 0)
        assert table.actions[344] == ("add", "hand", 0, "top")
        assert table.actions[599] == ("add", "store", 63, "bottom")
        assert table.actions[-1] == ("target", "player", n - 1)
        assert table.index[("target", "player", 0)] == 600


def test_out_of_range_player_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="2 to 5 players"):
        action_table("alien_artifacts", 1)
    with pytest.raises(KeyError):
        action_table("chess", 2)


@pytest.mark.parametrize(("game", "players"), COUNTS)
def test_every_action_offered_in_random_games_is_in_the_table(game: str, players: int) -> None:
    table = action_table(game, players)
    rules = get(game)
    seen: set[int] = set()
    for seed in range(3):
        state = rules.new(players, seed)
        rng = random.Random(seed)
        while not state.is_over:
            legal = state.legal_actions()
            seen.update(table.index[action] for action in legal)  # KeyError if missing
            state.apply(rng.choice(legal))
    assert len(seen) > 20


def test_the_tables_need_no_numpy() -> None:
    code = (
        "import sys, cosmoport.envs, cosmoport.envs.docs\n"
        "cosmoport.envs.action_table('alien_artifacts', 3)\n"
        "assert 'numpy' not in sys.modules, 'numpy imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
