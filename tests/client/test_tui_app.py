"""The full-screen client against a real loopback server, driven by Textual's pilot.

Each test runs ``cosmoport play``'s session (embedded server on 127.0.0.1 port 0, random bots
that answer at once) in the app on the loop of its own ``asyncio.run``, with a private Twisted
reactor on that loop. Nothing sleeps: the pilot's ``pause`` lets the loop run, every wait is
bounded (``tui_scripted.until``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import RichLog
from tui_scripted import local_game, my_turn, played, quit_app, until

from client.text.style import visible_len
from client.tui import loop as guest
from client.tui.app import CommandLine, CosmoportApp
from client.tui.panes import MenuBody, MenuPane, TextPane

pytestmark = pytest.mark.slow

SIZES = [(60, 20), (80, 24), (160, 50)]
GAMES = [("cosmic_run", 2, 3), ("alien_artifacts", 3, 2)]


def run_game(
    game: str, players: int, seed: int, size: tuple[int, int], script: Callable[..., Awaitable[Any]]
) -> None:
    """``script(pilot, app)`` on the app of a local game, then quit; all on one new loop."""

    async def main() -> None:
        app, reactor = local_game(game, seed, players)
        try:
            async with app.run_test(size=size) as pilot:
                await script(pilot, app)
                await quit_app(pilot, app)
        finally:
            await guest.stop(reactor)
        assert app.code == 0

    asyncio.run(main())


def shown(app: CosmoportApp) -> dict[str, Any]:
    """The visible panes by id."""
    panes = [*app.query(TextPane), *app.query(RichLog)]
    return {pane.id: pane for pane in panes if pane.display and pane.region.height > 0}


def assert_fits(app: CosmoportApp) -> None:
    """Every pane within the screen, none over another, no line wider than its pane."""
    width, height = app.size
    panes = shown(app)
    regions = [pane.region for pane in panes.values()]
    for region in regions:
        assert region.x >= 0 and region.right <= width and region.bottom <= height - 1
    for i, a in enumerate(regions):
        for b in regions[i + 1 :]:
            assert not a.overlaps(b), (a, b)
    for name, pane in panes.items():
        room = pane.scrollable_content_region.width
        if isinstance(pane, RichLog):  # the log and chat: wrapped lines
            widest = max((strip.cell_length for strip in pane.lines), default=0)
        else:
            widest = max((visible_len(line) for line in pane.lines), default=0)
        assert widest <= room, name


def visible_target(app: CosmoportApp) -> tuple[int, int, int]:
    """A choice on a menu line that is on screen: (column, line, number)."""
    pane = app.query_one(MenuPane)
    body = app.query_one(MenuBody)
    rows = pane.scrollable_content_region.height
    for y, row in enumerate(body.targets[:rows]):
        for start, _, number in row:
            return start, y, number
    raise AssertionError(f"no choice on the menu's first {rows} lines: {pane.lines}")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("game", "players", "seed"), GAMES, ids=lambda g: str(g))
def test_a_game_against_bots_shows_its_panes_and_plays_by_keys_and_clicks(
    game: str, players: int, seed: int, size: tuple[int, int]
) -> None:
    async def script(pilot: Any, app: CosmoportApp) -> None:
        await until(pilot, lambda: my_turn(app))
        panes = shown(app)
        assert {"board", "menu", "log"} <= set(panes)
        assert app.line_console is not None and app.line_console.game is not None
        assert any(line.strip() for line in panes["board"].lines)
        assert ("players" in panes) == (size[0] >= 120)
        assert_fits(app)

        await played(pilot, app, "1", "enter")  # typed
        assert any("> 1" in line for line in app.said)
        command_line = app.query_one(CommandLine)
        await pilot.press("up")  # the last line typed comes back, and goes again
        assert command_line.value == "1"
        await pilot.press("down")
        assert command_line.value == ""

        await until(pilot, lambda: my_turn(app))
        x, y, number = visible_target(app)
        body = app.query_one(MenuBody)
        assert await pilot.hover(MenuBody, offset=(x, y))
        assert body.hover is not None and body.hover[1][2] == number  # lit under the mouse
        before = app.line_console.game.version
        assert await pilot.click(MenuBody, offset=(x, y))
        await until(pilot, lambda: app.line_console.game.version > before)

    run_game(game, players, seed, size, script)


@pytest.mark.parametrize(("game", "players", "seed"), GAMES, ids=lambda g: str(g))
def test_the_panes_reflow_when_the_terminal_is_resized(game: str, players: int, seed: int) -> None:
    async def script(pilot: Any, app: CosmoportApp) -> None:
        await until(pilot, lambda: my_turn(app))
        for width, height in [(160, 50), (60, 20), (100, 32), (80, 24)]:
            await pilot.resize_terminal(width, height)
            await until(pilot, lambda w=width, h=height: app.size == (w, h))
            await pilot.pause()
            assert app.plan is not None and app.plan.wide == (width >= 120)
            assert app.plan.text_width == app.query_one("#board").scrollable_content_region.width
            assert_fits(app)

    run_game(game, players, seed, (80, 24), script)


@pytest.mark.parametrize(("game", "players", "seed"), GAMES, ids=lambda g: str(g))
def test_question_mark_on_an_empty_line_toggles_the_legend_and_f2_the_rules(
    game: str, players: int, seed: int
) -> None:
    async def script(pilot: Any, app: CosmoportApp) -> None:
        await until(pilot, lambda: my_turn(app))
        help_pane = app.query_one("#help", TextPane)
        assert not help_pane.display
        await pilot.press("question_mark")
        assert help_pane.display and str(help_pane.border_title).startswith("Legend")
        assert any(line.strip() for line in help_pane.lines)
        assert app.query_one(CommandLine).value == ""
        assert_fits(app)
        await pilot.press("f2")
        assert help_pane.display and str(help_pane.border_title).startswith("Rules")
        await pilot.press("f2")
        assert not help_pane.display
        await pilot.press("f1")
        assert help_pane.display and "Esc" in str(help_pane.border_title)
        await pilot.press("escape")
        assert not help_pane.display
        await pilot.press("h", "question_mark")  # in a line, `?` is just typed
        assert app.query_one(CommandLine).value == "h?"
        assert not help_pane.display

    run_game(game, players, seed, (80, 24), script)


def test_the_screenshot_command_saves_an_svg_of_the_screen_and_says_where(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)

    async def script(pilot: Any, app: CosmoportApp) -> None:
        await until(pilot, lambda: my_turn(app))
        await pilot.press(*"screenshot", "enter")
        await pilot.press("f12")
        await pilot.press(*"screenshot mine", "enter")
        await pilot.press(*"screenshot nowhere/at/all.svg", "enter")
        await until(pilot, lambda: len(list(tmp_path.glob("*.svg"))) == 3)
        said = "\n".join(app.said)
        assert "Screenshot saved: mine.svg" in said
        assert "Could not save the screenshot: there is no folder" in said

    run_game("cosmic_run", 2, 3, (80, 24), script)
    saved = sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".svg")
    assert saved == ["cosmoport-1.svg", "cosmoport-2.svg", "mine.svg"]
    svg = (tmp_path / "mine.svg").read_text()
    assert svg.startswith("<svg") and "(you)" in svg


def test_join_shows_the_lobby_then_the_table_then_the_game() -> None:
    """``cosmoport join``'s session in the app: commands typed on the command line, the board
    pane following the person from the lobby to a table and into its game."""
    import random

    from twisted.internet import defer

    from client.console import join
    from client.net.network_bot import start_bots
    from server.limits import Limits
    from server.service import listen

    async def main() -> None:
        reactor = guest.guest_reactor()
        guest.start(reactor, reap_children=False)
        port, factory = listen(reactor, "127.0.0.1", 0, Limits(), rng=random.Random(1))
        number = port.getHost().port

        def start(reactor: Any, screen: Any, attach: Any, kind: Any) -> Any:
            return join.session(reactor, "127.0.0.1", number, "Ann", screen, attach, kind)

        app = CosmoportApp(start, reactor=reactor)
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                board = app.query_one("#board", TextPane)
                await until(pilot, lambda: board.border_title == "Lobby")
                await pilot.press(*"create cr 2", "enter")
                await until(pilot, lambda: str(board.border_title).startswith("Table"))
                table = app.line_console.table["id"]
                seated = start_bots(reactor, "127.0.0.1", number, table, 1, "cosmic_run", seed=3)
                bots = await seated.asFuture(asyncio.get_running_loop())
                await until(pilot, lambda: "Every place is taken" in "\n".join(app.said))
                await pilot.press(*"start", "enter")
                await until(pilot, lambda: str(board.border_title).startswith("Cosmic Run"))
                assert_fits(app)
                for bot in bots:
                    bot.close()
                await quit_app(pilot, app)
        finally:
            factory.hub.shutdown()
            await defer.maybeDeferred(port.stopListening).asFuture(asyncio.get_running_loop())
            await guest.stop(reactor)
        assert app.code == 0

    asyncio.run(main())


def test_ctrl_q_in_the_middle_of_a_game_asks_before_it_quits() -> None:
    async def script(pilot: Any, app: CosmoportApp) -> None:
        await until(pilot, lambda: my_turn(app))
        await pilot.press("ctrl+q")
        await until(pilot, lambda: any("Press Ctrl+Q again" in line for line in app.said))
        assert app.code is None  # still playing
        await pilot.press("x", "enter")  # anything else typed: the next Ctrl+Q asks again
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app.code is None
        assert sum("Press Ctrl+Q again" in line for line in app.said) == 2

    run_game("cosmic_run", 2, 3, (80, 24), script)  # (then quit_app presses it twice)
