"""Entrants as users write them: built-in bots with settings, programs, and the errors."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

import games
from ai.bots import GreedyBot, MCTSBot, RandomBot
from tournament.entrants import EntrantError, bot_seed, check_program, parse, parse_all


def test_a_bare_level_is_that_bot_with_its_own_budget() -> None:
    entrant = parse("hard")
    assert (entrant.kind, entrant.name, entrant.iterations, entrant.seconds) == (
        "hard", "hard", None, None,
    )  # fmt: skip
    assert entrant.budget() == "2500 iterations or 1 s"


def test_settings_override_the_budget_and_name_the_entrant() -> None:
    entrant = parse("normal:seconds=0.2,exploration=1.0")
    assert entrant.seconds == 0.2 and entrant.exploration == 1.0 and entrant.iterations is None
    assert entrant.name == "normal:seconds=0.2,exploration=1"
    assert parse("hard:iterations=4000").iterations == 4000
    assert parse("greedy:name=Greedy Gus").name == "Greedy Gus"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("hardest", "unknown entrant 'hardest'"),
        ("hard:iterations=lots", "iterations is search iterations per decision"),
        ("hard:iterations=0", "not '0'"),
        ("hard:seconds=-1", "seconds is search time"),
        ("hard:depth=3", "unknown setting 'depth'"),
        ("hard:iterations", "key=value"),
        ("random:iterations=5", "random does not search"),
        ("cmd:", "no program after cmd:"),
        ("cmd:./bot 'unclosed", "does not parse"),
        ("cmd[fast]:./bot", "takes the settings name=NAME, reuse and tc=BANK"),
        ("", "an empty entrant"),
    ],
)
def test_bad_entrants_get_one_clear_line(spec: str, message: str) -> None:
    with pytest.raises(EntrantError, match=message.replace("(", r"\(")) as caught:
        parse(spec)
    assert "\n" not in str(caught.value)


def test_a_program_is_its_command_split_like_a_shell_would() -> None:
    entrant = parse("cmd:./mybot --fast 'two words'")
    assert entrant.is_program and entrant.command == ("./mybot", "--fast", "two words")
    assert entrant.name == "mybot" and not entrant.reuse
    named = parse("cmd[name=Mine,reuse]:python3 bot.py")
    assert (named.name, named.reuse, named.command) == ("Mine", True, ("python3", "bot.py"))


def test_a_missing_or_unrunnable_program_is_refused(tmp_path: Path) -> None:
    with pytest.raises(EntrantError, match=r"no program '\./nothing-here'"):
        check_program(parse("cmd:./nothing-here"), cwd=str(tmp_path))
    script = tmp_path / "bot.sh"
    script.write_text("#!/bin/sh\n")
    with pytest.raises(EntrantError, match="not executable"):
        check_program(parse(f"cmd:{script}"))
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    check_program(parse(f"cmd:{script}"))
    with pytest.raises(EntrantError, match="on the PATH"):
        check_program(parse("cmd:no-such-program-anywhere-42"))
    check_program(parse(f"cmd:{os.path.basename(os.environ.get('SHELL', 'sh'))}"))


def test_names_are_made_unique_and_the_event_budget_fills_unset_ones() -> None:
    entrants = parse_all(["hard", "hard", "hard:iterations=9", "greedy"], {"iterations": 40})
    assert [e.name for e in entrants] == ["hard", "hard#2", "hard:iterations=9", "greedy"]
    assert [e.iterations for e in entrants] == [40, 40, 9, None]


def test_each_kind_builds_its_bot_and_settings_reach_the_search() -> None:
    game = games.get("cosmic_run")
    assert isinstance(parse("random").make_bot(game, 1), RandomBot)
    assert isinstance(parse("greedy").make_bot(game, 1), GreedyBot)
    bot = parse("easy:iterations=7,exploration=1.5").make_bot(game, 1)
    assert isinstance(bot, MCTSBot)
    assert (bot.search.iterations, bot.search.seconds, bot.search.exploration) == (7, None, 1.5)
    with pytest.raises(EntrantError, match="plays over the network"):
        parse("cmd:./bot").make_bot(game, 1)


def test_an_entrant_survives_its_trip_through_the_database() -> None:
    for spec in ("hard:iterations=5,name=H", "cmd[reuse]:./bot -x"):
        entrant = parse(spec)
        assert type(entrant).from_dict(entrant.to_dict()) == entrant


def test_bot_seeds_depend_on_the_game_and_the_seat_only() -> None:
    assert bot_seed(5, 0) == bot_seed(5, 0)
    assert len({bot_seed(5, 0), bot_seed(5, 1), bot_seed(6, 0)}) == 3
