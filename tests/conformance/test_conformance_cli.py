"""The command line of the kit: how a program and games are named, usage errors and a program
that cannot start (exit status 2), which runs each plan makes. No game is played here."""

from __future__ import annotations

import argparse
import io

import pytest
import pytest_twisted
from twisted.internet import reactor

from client.text.style import PLAIN
from conformance import cli, kit
from conformance.report import Printer


def parse(*words: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    return parser.parse_args(list(words))


def test_games_are_named_as_everywhere_else_and_both_by_default() -> None:
    options = cli.options_from(parse("--game", "cr", "--game", "Alien Artifacts", "--", "x"))
    assert options.games == ("cosmic_run", "alien_artifacts")
    assert cli.options_from(parse("--game", "cosmic-run", "--game", "cr", "x")).games == (
        "cosmic_run",
    )
    assert cli.options_from(parse("--", "node", "bot.mjs", "--table", "{table}")).command == (
        "node",
        "bot.mjs",
        "--table",
        "{table}",
    )
    assert cli.options_from(parse("x")).games == kit.GAMES
    with pytest.raises(SystemExit):
        parse("--game", "chess", "x")


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.run(parse("--")) == 2
    assert "name the program to check after --" in capsys.readouterr().err
    assert cli.run(parse("--timeout", "0", "--", "x")) == 2
    assert "--timeout must be more than 0" in capsys.readouterr().err


@pytest_twisted.ensureDeferred
async def test_a_program_that_cannot_start_exits_2() -> None:
    out = io.StringIO()
    options = kit.Options(("/nonexistent/bot",), ("cosmic_run",), 2.0, 1)
    status = await kit.check(reactor, options, Printer(out, PLAIN))
    assert status == 2
    assert "cannot run /nonexistent/bot: No such file or directory" in out.getvalue()


def test_each_claimed_game_is_played_and_the_scenarios_share_them() -> None:
    both = kit.plans(("cosmic_run", "alien_artifacts"), 100)
    assert [(p.key, p.game, p.seat) for p in both] == [
        ("game", "cosmic_run", 0),
        ("game", "alien_artifacts", 1),
        ("refusals", "cosmic_run", 0),
        ("resume", "alien_artifacts", 1),
        ("close", "cosmic_run", 0),
    ]
    one = kit.plans(("alien_artifacts",), 100)
    assert {p.game for p in one} == {"alien_artifacts"} and len(one) == 4
    assert len({p.seed for p in both}) == 5


def test_the_command_is_on_the_menu() -> None:
    from cosmoport.cli import build_parser

    assert "conformance" in build_parser().format_help()
