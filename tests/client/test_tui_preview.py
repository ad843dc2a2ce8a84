"""The full-screen menu says what the choice under the mouse will do, in its bottom border."""

from __future__ import annotations

import asyncio

import pytest
from test_tui_snapshots import fixed_app

from client.games import preview
from client.tui.panes import MenuBody, MenuPane


@pytest.mark.parametrize("game", ["cosmic_run", "alien_artifacts"])
def test_the_choice_under_the_mouse_shows_its_preview(game: str) -> None:
    asyncio.run(hover_every_choice(game))


async def hover_every_choice(game: str) -> None:
    app = fixed_app(game)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        pane = app.query_one(MenuPane)
        body = app.query_one(MenuBody)
        tracker = app.line_console.game
        expected = preview.previews(tracker.view, tracker.legal)
        assert list(pane.previews) == expected and any(expected)
        shown = 0
        for row, targets in enumerate(body.targets):
            for start, _, number in targets:
                await pilot.hover(MenuBody, offset=(start, row))
                await pilot.pause()
                assert pane.border_subtitle == (expected[number - 1] or "")
                shown += bool(expected[number - 1])
        assert shown > 0
        await pilot.hover(MenuBody, offset=(0, len(body.targets) + 5))
        await pilot.pause()
        assert pane.border_subtitle == ""
