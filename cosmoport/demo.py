"""``cosmoport demo``: watch a seeded game between random players, turn by turn.

Each turn opens with the board as a spectator sees it; then come the turn's moves, each with its
public events narrated as the console narrates them. On a terminal the demo paces itself (one
turn a second by default: ``--delay``, or ``--fast`` for no pause); into a pipe or a file it
prints at once unless ``--delay`` asks for pauses, so ``cosmoport demo | head`` works. The same
seed gives the same game.

:func:`turns` makes the text, one :class:`Frame` per pause; :func:`show` writes frames and
pauses through the sleeper it is given, so tests need no clock.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import games
from client import render
from client.console.screen import Screen
from client.games.narrate import label_text, narrate, situation, told_by_label
from client.text.game_names import game_argument, game_choices
from client.text.style import Style, colour_wanted
from client.text.wording import plural, seat_name
from client.text.wording import who as who_of

DEFAULT_DELAY = 1.0
MOVE_SHARE = 0.25  # a move's pause, as a share of a turn's
NAMES = ("Ann", "Bob", "Cyd", "Dee", "Eve")


@dataclass
class Frame:
    """Lines to print, then a pause: ``turn`` (a new turn and its board) or ``move``."""

    lines: list[str]
    kind: str


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game",
        type=game_argument,
        default="cosmic_run",
        metavar="GAME",
        help=f"which game: {game_choices()} (default: cosmic-run)",
    )
    parser.add_argument("--players", type=int, default=2, help="how many players (default: 2)")
    parser.add_argument("--seed", type=int, default=None, help="replay a game (default: a new one)")
    pace = parser.add_mutually_exclusive_group()
    pace.add_argument(
        "--delay",
        type=float,
        default=None,
        metavar="SECONDS",
        help=f"pause this long at each new turn, a quarter of it after each move (default: "
        f"{DEFAULT_DELAY:g} on a terminal, no pause into a pipe or a file)",
    )
    pace.add_argument("--fast", action="store_true", help="no pause at all")
    parser.add_argument("--no-color", action="store_true", help="no colours (also: NO_COLOR=1)")


def turns(game_id: str, players: int, seed: int, style: Style) -> Iterator[Frame]:
    """The game of ``seed`` between random players: the opening, each turn with its board,
    each move with its events, and the final result (``ValueError`` for a bad player count)."""
    state = games.get(game_id).new(players=players, seed=seed)
    names = list(NAMES[:players])
    chooser = random.Random(seed)
    yield Frame(situation(game_id, state.view(None), names) + _board(state, names, style), "turn")
    while not state.is_over:
        legal = state.legal_actions()
        action = legal[chooser.randrange(len(legal))]
        who = who_of(names, state.current_player)
        move = [f"  > {who}: {label_text(game_id, state.label(action), names)}"]
        opening: list[str] = []
        for event in state.apply(action):
            if event["type"] == "turn":
                opening.append("")  # from here on, the next turn's lines
            text = narrate(game_id, event, names)
            if not text or told_by_label(game_id, event):
                continue  # the chosen action already said it
            if opening:
                opening.append(text if event["type"] == "turn" else f"    {text}")
            else:
                move.append(f"    {text}")
        yield Frame(move, "move")
        if opening and not state.is_over:
            yield Frame(opening[1:] + _board(state, names, style), "turn")
        elif opening:
            yield Frame(opening[1:], "move")
    yield Frame(["", *render.final(state.view(None), None, names, style)], "move")


def _board(state: Any, names: list[str], style: Style) -> list[str]:
    return render.board(state.view(None), names, style)


def show(
    frames: Iterator[Frame], screen: Screen, delay: float, sleep: Callable[[float], Any]
) -> None:
    """Print each frame, then pause: ``delay`` seconds after a turn's board, a quarter of
    it after a move (no pause at all for a ``delay`` of 0)."""
    for frame in frames:
        screen.show(frame.lines)
        pause = delay if frame.kind == "turn" else delay * MOVE_SHARE
        if pause > 0:
            sleep(pause)


def pace(args: argparse.Namespace, terminal: bool) -> float:
    """Seconds to pause at each turn: none with ``--fast``, ``--delay`` if given, else the
    default on a terminal and none into a pipe."""
    if args.fast:
        return 0.0
    if args.delay is not None:
        return max(0.0, args.delay)
    return DEFAULT_DELAY if terminal else 0.0


def run(
    args: argparse.Namespace,
    *,
    write: Callable[[str], Any] | None = None,
    sleep: Callable[[float], Any] = time.sleep,
    terminal: bool | None = None,
) -> int:
    game = games.get(args.game)
    if not game.min_players <= args.players <= game.max_players:
        players = f"{game.min_players} to {game.max_players}"
        print(f"cosmoport demo: {game.title} takes {players} players", file=sys.stderr)
        return 2
    if terminal is None:
        terminal = sys.stdout.isatty()
    style = Style(colour_wanted(sys.stdout, args.no_color, os.environ) if write is None else False)
    width = shutil.get_terminal_size().columns if terminal and write is None else 80
    screen = Screen(write or _write, style, width=max(60, width))
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    names = ", ".join(seat_name(NAMES, seat) for seat in range(args.players))
    random_players = plural(args.players, "random player")
    replay = f"cosmoport demo --game {args.game.replace('_', '-')} --players {args.players}"
    screen.show(
        [
            style.bold(f"{game.title}: {random_players} ({names}), seed {seed}"),
            f"The same game again: {replay} --seed {seed}",
        ]
    )
    try:
        show(turns(args.game, args.players, seed, style), screen, pace(args, terminal), sleep)
    except ValueError as error:
        print(f"cosmoport demo: {error}", file=sys.stderr)
        return 2
    return 0


def _write(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()
