"""End to end: `cosmoport play` in a pseudo-terminal, as a person would run it.

The embedded server listens on a free loopback port; the bots are real network clients. Bounded:
every wait has a pexpect timeout and each game a cap on the number of moves typed.
"""

from __future__ import annotations

import os
import sys

import pytest

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.slow

MOVE = r"Your move \((?:a name, or 1-\d+|Enter: the only choice)\)> "
OVER = r"Type `leave` to go back to the lobby, `again` for a new game, or `quit`\."
TIMEOUT = 20


def spawn(*args: str, colour: bool = False) -> pexpect.spawn:
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    flags = [] if colour else ["--no-color"]
    child = pexpect.spawn(
        sys.executable,
        ["-m", "cosmoport", "play", "--plain", *args, *flags, "--bot-delay", "0", "--name", "Ann"],
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(24, 80),
        env=env,
    )
    child.delaybeforesend = None  # no pause before each line typed
    return child


def take_turns(child: pexpect.spawn, limit: int) -> tuple[int, bool]:
    """Answer every move prompt with the first action; (moves typed, whether the game ended)."""
    for moves in range(limit):
        if child.expect([MOVE, OVER]) == 1:
            return moves, True
        child.sendline("" if "Enter" in child.after else "1")
    return limit, False


def quit_now(child: pexpect.spawn, in_game: bool) -> None:
    child.sendline("quit")
    if in_game:
        child.expect("Type `quit` again")
        child.sendline("quit")
    child.expect("Goodbye.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_whole_solo_cosmic_run_game_in_a_terminal() -> None:
    child = spawn("cosmic-run", "--players", "1", "--seed", "7")
    child.expect(r"Cosmoport: Cosmic Run solo \(seed 7\)")
    child.expect("The game of Cosmic Run starts!")
    child.expect(r"P6 \.\.\.  \+\.{9}i")  # the board: every ship on the start of planet 6
    child.expect(MOVE)
    child.sendline("help")
    child.expect("play that choice")
    child.sendline("1")
    moves, over = take_turns(child, 600)
    assert over and moves > 20
    assert "Solo rank:" in child.before
    assert "\x1b[1m" not in child.before  # --no-color: no colour codes, only line erasing
    quit_now(child, in_game=False)


def test_alien_artifacts_against_two_bots_for_a_few_turns_in_colour() -> None:
    child = spawn("aa", "--players", "3", "--seed", "2", "--bots", "random", colour=True)
    child.expect("Alien Artifacts")
    child.expect("Random bot 2")
    moves, over = take_turns(child, 25)
    assert moves == 25 and not over
    child.sendline("board")
    child.expect("\x1b\\[1mAlien Artifacts\x1b\\[0m")  # colour on a terminal without NO_COLOR
    child.expect(r"hand     R\d\d")
    quit_now(child, in_game=True)


def test_by_default_the_other_seats_are_mcts_bot_programs() -> None:
    child = spawn("cosmic-run", "--seed", "5")
    child.expect(r"Cosmic Run against 1 normal \(MCTS\) bot")
    child.expect("Normal bot 1", timeout=60)  # the server started it; it sat down
    moves, over = take_turns(child, 12)
    assert moves == 12 and not over
    quit_now(child, in_game=True)


def test_bad_arguments_are_refused_before_anything_starts() -> None:
    child = spawn("chess")
    child.expect("cosmoport play: no game 'chess'")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
