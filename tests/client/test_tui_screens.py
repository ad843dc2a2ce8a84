"""What the full-screen client shows at 60x20, 80x24 and 160x50, both games at 2 and 4 players:
on the person's turn, and with each long answer open in the reader.

No server: the console is fed the messages a server would send, from a seeded engine, with a
turn timer (:mod:`test_tui_snapshots` draws the same way, as pictures). Each test reads the
screen as text and asserts what a player needs is on it:

- on the turn: the person's own row of the board, the time they have left, the whole menu, the
  last five lines of the log;
- with an answer open (``help``, ``hint``, ``legend``, ``rules``, ``log``, ``info``,
  ``actions``): its start, how to close it, and (scrolled) its end; Escape closes it;
- everywhere: no line cut short with ``~``.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from client_helpers import FakeClient, table_map
from rich.console import Console as RichConsole
from test_tui_snapshots import seeded_app
from twisted.internet import defer

from client.console import hints
from client.text.style import strip
from client.tui import content
from client.tui.app import CosmoportApp
from client.tui.bridge import PaneConsole
from client.tui.panes import MenuPane, TextPane

pytestmark = pytest.mark.slow

SIZES = [(60, 20), (80, 24), (160, 50)]
POSITIONS = {
    # (game, players): (seed, moves from the start)
    ("cosmic_run", 2): (11, 9),
    ("cosmic_run", 4): (11, 60),
    ("alien_artifacts", 2): (5, 14),
    ("alien_artifacts", 4): (5, 14),
}
CARD = {"cosmic_run": "A01", "alien_artifacts": "T11"}
ANSWERS = ["help", "hint", "legend", "rules", "log 14", "info", "actions"]
CLOCK = {"decision": 30.0, "banks": [120.0] * 4}


def fixed_app(game: str, players: int) -> CosmoportApp:
    """The app at A's turn of a seeded game, with a turn timer (30 s a decision, 2 minutes of
    bank) that the console's fixed clock never runs down."""
    seed, moves = POSITIONS[(game, players)]
    return seeded_app(game, players, seed, moves, {**CLOCK, "banks": CLOCK["banks"][:players]})


def screen_lines(app: CosmoportApp) -> list[str]:
    """The screen as plain text, one string a row."""
    width, height = app.size
    console = RichConsole(
        width=width, height=height, file=io.StringIO(), record=True, color_system=None
    )
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text().split("\n")[:height]


def assert_nothing_cut(rows: list[str]) -> None:
    cut = [row for row in rows if "~" in row]
    assert not cut, "cut with ~: " + repr(cut)


def on_screen(rows: list[str], line: str) -> bool:
    """Whether ``line`` (plain) is shown on some row (its start, when wrapped)."""
    text = strip(line).strip()
    return any(text[:40] in row for row in rows)


def run(game: str, players: int, size: tuple[int, int], script: Callable[..., Awaitable[Any]]):
    async def main() -> None:
        app = fixed_app(game, players)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot, app)

    asyncio.run(main())


async def settle(pilot: Any) -> None:
    """Let the panes lay out and scroll (a scroll waits for the refresh after a layout)."""
    for _ in range(3):
        await pilot.pause()


@pytest.fixture(autouse=True)
def _quick_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    """``hint`` answers at once (no thread pool here): a small search, the same rules."""

    def at_once(reactor: Any, view: Any, legal: Any, seed: int) -> defer.Deferred[Any]:
        return defer.succeed(hints.hint(view, legal, seed=seed, iterations=30))

    monkeypatch.setattr(hints, "hint_async", at_once)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("game", "players"), list(POSITIONS), ids=lambda p: str(p))
def test_at_your_turn_your_row_your_time_the_menu_and_five_log_lines_are_on_screen(
    game: str, players: int, size: tuple[int, int]
) -> None:
    async def script(pilot: Any, app: CosmoportApp) -> None:
        await settle(pilot)
        rows = screen_lines(app)
        assert_nothing_cut(rows)
        board = app.query_one("#board", TextPane)
        own = content.own_rows(board.lines)
        assert own, "the board names the person (you)"
        for index in own[:3]:
            assert on_screen(rows, board.lines[index]), board.lines[index]
        assert any("0:30 left + 2:00 bank" in row for row in rows), "the time left"
        menu = app.query_one(MenuPane)
        assert menu.lines and menu.region.height >= len(menu.lines), "the whole menu"
        for line in menu.lines:
            assert on_screen(rows, line), line
        said = [line for line in app.said if line.strip()][-5:]
        assert len(said) == 5
        for line in said:
            assert on_screen(rows, line), line

    run(game, players, size, script)


@pytest.mark.parametrize("answer", ANSWERS)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("game", "players"), list(POSITIONS), ids=lambda p: str(p))
def test_a_long_answer_opens_in_the_reader_whole_and_escape_closes_it(
    game: str, players: int, size: tuple[int, int], answer: str
) -> None:
    typed = f"info {CARD[game]}" if answer == "info" else answer

    async def script(pilot: Any, app: CosmoportApp) -> None:
        said = len(app.said)
        app.send(typed)
        await settle(pilot)
        reader = app.query_one("#help", TextPane)
        assert reader.display and reader.region.height > 1, "the reader is open"
        assert len(app.said) <= said + 2, "the answer is not in the log"
        rows = screen_lines(app)
        assert_nothing_cut(rows)
        assert any("Esc or q closes" in row for row in rows), "how to close it is said"
        lines = [line for line in reader.lines if strip(line).strip()]
        assert lines, "the reader shows something"
        assert on_screen(rows, lines[0])
        assert any("left + 2:00 bank" in row for row in rows), "the time left stays in sight"
        reader.scroll_end(animate=False)
        await settle(pilot)
        rows = screen_lines(app)
        assert on_screen(rows, lines[-1]), "scrolled, the answer's end is in sight"
        assert_nothing_cut(rows)
        await pilot.press("escape")
        await settle(pilot)
        assert not app.query_one("#help", TextPane).display, "Escape closes the reader"

    run(game, players, size, script)


def test_q_on_an_empty_command_line_closes_the_reader_and_page_keys_scroll_it() -> None:
    async def script(pilot: Any, app: CosmoportApp) -> None:
        app.send("rules")
        await settle(pilot)
        reader = app.query_one("#help", TextPane)
        assert reader.display and reader.scroll_y == 0
        await pilot.press("pagedown")
        await settle(pilot)
        assert reader.scroll_y > 0
        await pilot.press("q")
        await settle(pilot)
        assert not reader.display
        assert app.query_one("#command").value == ""  # the q closed, it was not typed

    run("cosmic_run", 2, (80, 24), script)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_lobby_and_its_hints_are_wrapped_not_cut(size: tuple[int, int]) -> None:
    async def main() -> None:
        app = CosmoportApp()
        console = PaneConsole(FakeClient("Ann"), app.pane_screen, clock=lambda: 0.0)
        console.tables = {
            n: table_map(n, game, ["A long player name", None, None][:players])
            for n, (game, players) in enumerate(
                [("cosmic_run", 2), ("alien_artifacts", 3), ("cosmic_run", 3)], start=1
            )
        }
        app.attach(console, lambda code: None)
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            rows = screen_lines(app)
            assert_nothing_cut(rows)
            said = " ".join(" ".join(rows).split())  # wrapped lines read on
            assert "`join TABLE` sits at one, `help` lists every command." in said
            assert said.count("A long player name") == 3

    asyncio.run(main())
