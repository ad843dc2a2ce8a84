"""The app driven by a script instead of a person: for the tests and for the README's pictures.

:func:`local_game` makes the app of ``cosmoport play`` (an embedded server on a free loopback
port, random bots that answer at once) on a private reactor on the running loop; the caller runs
it with ``App.run_test`` and plays with the pilot (:func:`until`, :func:`play_first`).

``.venv/bin/python tests/client/tui_scripted.py [FOLDER]``, from the repository's root, plays a
seeded game of each game at 100x32 for a few turns and saves a screenshot of each, taken by the
app's own ``screenshot`` command, as ``FOLDER/cosmic-run.svg`` and ``FOLDER/alien-artifacts.svg``
(default folder: ``docs/screenshots``).

It lives with the tests, not in ``client/``: it plays ``cosmoport play``'s session, embedded
server included, which the client package may not import (tests/test_architecture.py).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from client.console.commands import Console
from client.tui import loop as guest
from client.tui.app import Attach, CosmoportApp
from client.tui.bridge import PaneScreen
from cosmoport import play

WAIT = 20.0
"""Seconds a scripted wait may take at most (a bound, not a pause: nothing sleeps)."""
SHOT_SIZE = (100, 32)
SHOTS = {
    "cosmic_run": ("cosmic-run.svg", 2, 7, 8),
    "alien_artifacts": ("alien-artifacts.svg", 3, 4, 1),
}
"""Game: (file name, players, seed, moves of the person before the picture)."""


def play_args(game: str, seed: int, players: int = 2, name: str = "Ann") -> argparse.Namespace:
    """The arguments of ``cosmoport play GAME --bots random --bot-delay 0``."""
    return argparse.Namespace(
        game=game,
        players=players,
        name=name,
        bots="random",
        seed=seed,
        bot_delay=0.0,
        no_color=False,
        plain=False,
    )


def local_game(game: str, seed: int, players: int = 2) -> tuple[CosmoportApp, Any]:
    """The app of ``cosmoport play`` against random bots, and its reactor (started; stop it
    with :func:`client.tui.loop.stop` once the app has run). Call with the loop running."""
    reactor = guest.guest_reactor()
    guest.start(reactor, reap_children=False)
    args = play_args(game, seed, players)

    def start(reactor: Any, screen: PaneScreen, attach: Attach, kind: type[Console]) -> Any:
        return play.session(reactor, args, screen, attach, kind)

    return CosmoportApp(start, reactor=reactor, game=game), reactor


async def until(pilot: Any, done: Callable[[], bool], limit: float = WAIT) -> None:
    """Let the app (and the network) run until ``done()``; TimeoutError after ``limit`` s."""
    async with asyncio.timeout(limit):
        while not done():
            await pilot.pause()


def my_turn(app: CosmoportApp) -> bool:
    console = app.line_console
    return bool(console is not None and console.game is not None and console.game.my_turn)


def version(app: CosmoportApp) -> int:
    console = app.line_console
    return console.game.version if console is not None and console.game is not None else -1


async def play_first(pilot: Any, app: CosmoportApp, moves: int) -> None:
    """Type ``1`` (the first choice) at each of the person's next ``moves`` turns."""
    for _ in range(moves):
        await until(pilot, lambda: my_turn(app))
        await played(pilot, app, "1", "enter")
    await until(pilot, lambda: my_turn(app))


async def played(pilot: Any, app: CosmoportApp, *keys: str) -> None:
    """Press ``keys`` and wait for the game to move on (its version to change)."""
    before = version(app)
    await pilot.press(*keys)
    await until(pilot, lambda: version(app) > before)


async def quit_app(pilot: Any, app: CosmoportApp) -> None:
    """Ctrl+Q, and wait for the session to close (server, connections)."""
    await pilot.press("ctrl+q")
    if app.line_console is not None and app.line_console.quit_armed:  # asked: in a game
        await pilot.press("ctrl+q")
    await until(pilot, lambda: app.code is not None)


async def shoot(game: str) -> Path:
    """Play a seeded game of ``game`` a few turns in, and save the screen in the current
    directory with the ``screenshot`` command, as a person would."""
    name, players, seed, moves = SHOTS[game]
    app, reactor = local_game(game, seed, players)
    path = Path.cwd() / name
    path.unlink(missing_ok=True)
    try:
        async with app.run_test(size=SHOT_SIZE) as pilot:
            await play_first(pilot, app, moves)
            await pilot.press(*f"screenshot {name}", "enter")
            await until(pilot, path.exists)
            await quit_app(pilot, app)
    finally:
        await guest.stop(reactor)
    return path


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    folder = Path(words[0] if words else "docs/screenshots").resolve()
    folder.mkdir(parents=True, exist_ok=True)
    os.chdir(folder)
    for game in SHOTS:
        print(asyncio.run(shoot(game)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
