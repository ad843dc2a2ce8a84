"""Whole games in the full-screen client, at the smallest and at a wide terminal (the two ends
of the stacked and the side-by-side layouts; the usual 80x24 is played by the pilot and snapshot
tests): a person who types the first choice every time plays each game to its end, against
random bots over a loopback server, and the screen holds together all along (every pane inside
the terminal, no line wider than its pane)."""

from __future__ import annotations

import asyncio
import time

import pytest
from rich.text import Text
from tui_scripted import local_game, my_turn, played, quit_app, until

from client.tui import loop as guest
from client.tui.app import CosmoportApp
from client.tui.panes import TextPane

pytestmark = pytest.mark.slow

GAMES = [("cosmic_run", 2, 3), ("alien_artifacts", 2, 3)]
SIZES = [(60, 20), (160, 50)]


def over(app: CosmoportApp) -> bool:
    console = app.line_console
    return console is not None and console.game is not None and console.game.over is not None


def check_screen(app: CosmoportApp, width: int, height: int) -> None:
    for pane in app.query(TextPane):
        if not pane.display:
            continue
        region = pane.region
        assert region.right <= width and region.bottom <= height, pane.id
        inner = pane.content_region.width
        widest = max((Text.from_ansi(line).cell_len for line in pane.lines), default=0)
        assert widest <= inner, (pane.id, widest, inner)


async def whole_game(game: str, players: int, seed: int, size: tuple[int, int]) -> int:
    app, reactor = local_game(game, seed, players)
    moves = 0
    try:
        async with app.run_test(size=size) as pilot:
            while True:
                await until(pilot, lambda: my_turn(app) or over(app), limit=60)
                if over(app):
                    break
                await played(pilot, app, "1", "enter")
                moves += 1
                if moves % 10 == 1:
                    check_screen(app, *size)
            check_screen(app, *size)
            assert "Game over" in str(app.query_one("#menu").border_title)
            await quit_app(pilot, app)
    finally:
        await guest.stop(reactor)
    return moves


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("game", "players", "seed"), GAMES, ids=lambda g: str(g))
def test_a_whole_game_is_played_to_its_end(
    game: str, players: int, seed: int, size: tuple[int, int]
) -> None:
    start = time.perf_counter()
    moves = asyncio.run(whole_game(game, players, seed, size))
    assert moves > 10
    print(f"{game} at {size}: {moves} moves in {time.perf_counter() - start:.1f} s")
