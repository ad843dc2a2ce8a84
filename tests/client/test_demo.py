"""``cosmoport demo``: any spelling of a game, the board each turn, paced on a terminal only."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cosmoport import cli, demo


def parse(*argv: str) -> object:
    return cli.build_parser().parse_args(["demo", *argv])


def watch(*argv: str, terminal: bool) -> tuple[str, list[float]]:
    """What the demo prints and the pauses it asks for (no clock: the sleeper records)."""
    out: list[str] = []
    pauses: list[float] = []
    status = demo.run(parse(*argv), write=out.append, sleep=pauses.append, terminal=terminal)
    assert status == 0
    return "".join(out), pauses


@pytest.mark.parametrize(
    ("typed", "game"),
    [
        ("cosmic-run", "cosmic_run"),
        ("cosmic_run", "cosmic_run"),
        ("cr", "cosmic_run"),
        ("Cosmic Run", "cosmic_run"),
        ("alien-artifacts", "alien_artifacts"),
        ("alien_artifacts", "alien_artifacts"),
        ("aa", "alien_artifacts"),
    ],
)
def test_demo_takes_a_game_by_any_of_its_names(typed: str, game: str) -> None:
    assert parse("--game", typed).game == game  # type: ignore[attr-defined]


def test_demo_refuses_an_unknown_game_with_the_choices(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse("--game", "chess")
    assert "cosmic-run (cr) or alien-artifacts (aa)" in capsys.readouterr().err


def test_on_a_terminal_the_demo_pauses_a_second_a_turn_and_shows_the_board() -> None:
    text, pauses = watch("--seed", "1", terminal=True)
    turns = text.count("-- Round ")
    assert turns == 36  # 18 rounds of 2 players, then the storm
    assert text.count("Cosmic Run  round") == turns  # the board as each turn opens
    assert pauses.count(demo.DEFAULT_DELAY) == turns
    assert set(pauses) == {demo.DEFAULT_DELAY, demo.DEFAULT_DELAY * demo.MOVE_SHARE}
    assert "-- Storm (after round 18) --" in text and "=== Game over ===" in text


def test_the_board_comes_before_each_turns_first_decision() -> None:
    text, _ = watch("--seed", "1", "--fast", terminal=True)
    lines = text.split("\n")
    opening = lines.index("-- Round 1: Bob's turn --")
    first_move = next(i for i in range(opening, len(lines)) if lines[i].startswith("  > Bob:"))
    assert any(line.startswith("Cosmic Run  round 1/18") for line in lines[opening:first_move])


def test_into_a_pipe_the_demo_never_pauses_unless_asked() -> None:
    _, pauses = watch("--seed", "1", terminal=False)
    assert pauses == []
    _, pauses = watch("--seed", "1", "--delay", "0.2", terminal=False)
    assert 0.2 in pauses and 0.05 in pauses


def test_fast_never_pauses_and_the_same_seed_gives_the_same_game() -> None:
    text, pauses = watch("--seed", "3", "--game", "aa", "--players", "3", "--fast", terminal=True)
    assert pauses == []
    again, _ = watch("--seed", "3", "--game", "aa", "--players", "3", terminal=False)
    assert text == again
    assert "Alien Artifacts: 3 random players (A Ann, B Bob, C Cyd), seed 3" in text
    assert "--game alien-artifacts --players 3 --seed 3" in text


def test_a_bad_player_count_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert demo.run(parse("--players", "9"), write=print, sleep=print, terminal=False) == 2
    assert "Cosmic Run takes 1 to 4 players" in capsys.readouterr().err


def test_demo_into_head_stops_quietly() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "cosmoport", "demo", "--seed", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    head = [proc.stdout.readline() for _ in range(5)]
    proc.stdout.close()  # the reader leaves, as `head` does
    assert proc.wait(timeout=60) == 0
    assert proc.stderr.read() == b""
    assert head[0].startswith(b"Cosmic Run: 2 random players")
