"""``cosmoport replay`` full screen (:mod:`client.tui.replay`), driven by Textual's pilot.

The records are test_replay's: seeded random games played on the engines. What the board pane
shows is compared with the console's renderer applied to the engine's own view at that position
(at the pane's width); the screen itself is read as text to check that no line is cut.
"""

from __future__ import annotations

import asyncio
import io
import re
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from test_replay import AA, CR, NAMES, PLAIN, contains, state_at

from client import render
from client.games.alien_artifacts import board as aa_render
from client.text.style import visible_len
from client.tui.panes import TextPane
from client.tui.replay import ReplayApp, ReplayLine, moves, status, wrap
from cosmoport import cli
from cosmoport import replay as rp
from games import records

SIZES = [(60, 20), (80, 24), (160, 50)]
Script = Callable[[Any, ReplayApp], Awaitable[None]]


def run_replay(record: dict[str, Any], size: tuple[int, int], script: Script) -> ReplayApp:
    """``script(pilot, app)`` on the replay of ``record`` at ``size``; the app, once closed."""
    app = ReplayApp(rp.Viewer(record, PLAIN, "test.jsonl"))

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot, app)

    asyncio.run(main())
    return app


def screen_text(app: ReplayApp) -> str:
    """The screen as plain text, as a terminal shows it."""
    width, height = app.size
    console = Console(record=True, width=width, height=height, file=io.StringIO())
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text()


def pane(app: ReplayApp, name: str) -> TextPane:
    return app.query_one(f"#{name}", TextPane)


def board_now(app: ReplayApp, record: dict[str, Any], seat: int | None = None) -> list[str]:
    """The renderer's board of ``record`` at the app's position as ``seat`` saw it, drawn at the
    board pane's width."""
    assert app.layout_plan is not None
    view = state_at(record, app.viewer.position).view(seat)
    return render.board(view, NAMES, PLAIN, app.layout_plan.board_width)


def assert_fits(app: ReplayApp) -> None:
    """Every pane's line within its pane, and no line of the screen cut short with ``~``."""
    for name in ("board", "moves"):
        shown = pane(app, name)
        room = shown.scrollable_content_region.width
        assert max(visible_len(line) for line in shown.lines) <= room, name
    text = screen_text(app)
    assert "~" not in text, text
    assert len(text.splitlines()) == app.size[1]


async def type_line(pilot: Any, text: str) -> None:
    await pilot.press(*[{" ": "space"}.get(c, c) for c in text], "enter")
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_keys_step_forward_and_back_and_end_shows_the_final_position(size: Any) -> None:
    total = len(CR["actions"])

    async def script(pilot: Any, app: ReplayApp) -> None:
        board = pane(app, "board")
        assert app.layout_plan is not None
        assert board.scrollable_content_region.width == app.layout_plan.board_width
        assert app.viewer.position == 0 and contains(board.lines, board_now(app, CR))
        start = list(board.lines)
        assert_fits(app)

        await pilot.press("right")
        assert app.viewer.position == 1
        assert contains(board.lines, board_now(app, CR)) and board.lines != start
        assert f"move 1/{total}" in screen_text(app)
        await pilot.press("n", "n")
        assert app.viewer.position == 3 and contains(board.lines, board_now(app, CR))
        await pilot.press("p")
        assert app.viewer.position == 2
        await pilot.press("left", "left")
        assert app.viewer.position == 0 and board.lines == start

        await pilot.press("end")
        assert app.viewer.position == total
        assert contains(board.lines, board_now(app, CR))
        assert any("=== Game over ===" in line for line in board.lines)
        assert f"move {total}/{total}" in screen_text(app)
        assert_fits(app)
        await pilot.press("right")  # past the end: said in one line, nothing moves
        assert app.viewer.position == total and "That was the last move" in screen_text(app)
        await pilot.press("home")
        assert app.viewer.position == 0 and board.lines == start
        await pilot.press("enter")  # Enter on an empty line: the next move, as in the console
        assert app.viewer.position == 1

    run_replay(CR, size, script)


def hands(record: dict[str, Any]) -> tuple[int, list[str], list[str]]:
    """A position where seats A and B both hold cards, and their cards as drawn."""
    for version in range(len(record["actions"]) // 2, len(record["actions"])):
        state = state_at(record, version)
        mine, theirs = (state.view(s)["seats"][s]["hand"] for s in (0, 1))
        if mine and len(theirs) >= 2:
            drawn = [[aa_render.resource(card, PLAIN) for card in hand] for hand in (mine, theirs)]
            return version, drawn[0], drawn[1]
    raise AssertionError("no position where A and B hold cards")


@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_typing_seat_1_shows_seat_as_view_and_hides_the_other_hands(size: Any) -> None:
    version, ann, bob = hands(AA)

    async def script(pilot: Any, app: ReplayApp) -> None:
        board = pane(app, "board")
        await type_line(pilot, str(version))
        assert app.viewer.position == version
        await type_line(pilot, "seat 1")
        assert app.viewer.viewpoint == 0
        assert "-- as A Ann saw it --" in board.lines and contains(
            board.lines, board_now(app, AA, 0)
        )
        text = "\n".join(board.lines) + "\n" + screen_text(app)
        assert "as A Ann" in screen_text(app)  # the status line
        for card in ann:
            assert card in "\n".join(board.lines)
        for card in bob:
            assert card not in text
        assert_fits(app)
        await pilot.press("right")  # the viewpoint stays while stepping
        assert contains(board.lines, board_now(app, AA, 0))
        await pilot.press("left")

        await type_line(pilot, "seat B")  # the same check can fail: Bob's cards, as Bob saw them
        for card in bob:
            assert card in "\n".join(board.lines)
        await type_line(pilot, "all")
        assert "-- everything: every seat's hidden cards shown --" in board.lines
        assert "  B Bob hides:" in board.lines and "all cards shown" in screen_text(app)
        await type_line(pilot, "spectator")
        assert not any(card in "\n".join(board.lines) for card in ann + bob)
        assert contains(board.lines, board_now(app, AA, None))

    run_replay(AA, size, script)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_typed_commands_answer_in_the_moves_pane_and_escape_brings_the_moves_back(
    size: Any,
) -> None:
    async def script(pilot: Any, app: ReplayApp) -> None:
        moves_pane = pane(app, "moves")
        intro = "Seats in turn order: A Ann, B Bob (easy bot), C Cy."
        assert intro in moves_pane.lines  # the intro first
        await type_line(pilot, "12")
        assert app.viewer.position == 12
        current = [line for line in moves_pane.lines if line.startswith(">")]
        assert current and current[0].startswith("> 12. ")
        assert not any(line.lstrip().startswith("13. ") for line in moves_pane.lines)  # no later
        await type_line(pilot, "log 3")
        assert app.answer_title == "Log"
        numbers = [re.match(r" *(\d+)\. ", line) for line in moves_pane.lines]
        assert [int(m.group(1)) for m in numbers if m] == [10, 11, 12]
        await pilot.press("escape")
        assert any(line.startswith("> 12. ") for line in moves_pane.lines)
        await type_line(pilot, "help")
        assert moves_pane.lines[0] == "Commands:" and any("seat X" in ln for ln in moves_pane.lines)
        assert_fits(app)
        await type_line(pilot, "seat Zed")
        assert "No seat `Zed`: seats are A Ann, B Bob, C Cy." in " ".join(screen_text(app).split())
        assert app.viewer.viewpoint is None
        await type_line(pilot, " n 5")  # `n` steps on an empty line: after a space, it is typed
        assert app.viewer.position == 17
        assert app.query_one(ReplayLine).value == ""
        assert_fits(app)

    run_replay(AA, size, script)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("record", [CR, AA], ids=["cosmic_run", "alien_artifacts"])
def test_no_line_is_cut_anywhere_in_a_game(record: dict[str, Any], size: Any) -> None:
    total = len(record["actions"])

    async def script(pilot: Any, app: ReplayApp) -> None:
        for command in ("", str(total // 3), "all", str(total // 2), "seat C", "end", "all"):
            await type_line(pilot, command)
            assert_fits(app)
            for line in screen_text(app).splitlines():
                assert len(line) <= size[0]

    run_replay(record, size, script)


@pytest.mark.parametrize("keys", [["q"], ["ctrl+q"]], ids=["q", "ctrl+q"])
def test_q_and_ctrl_q_quit_with_status_0(keys: list[str]) -> None:
    async def script(pilot: Any, app: ReplayApp) -> None:
        await pilot.press("right", *keys)
        await pilot.pause()
        assert not app.is_running

    app = run_replay(CR, (80, 24), script)
    assert app.return_code == 0


def test_q_is_a_letter_once_something_is_typed() -> None:
    async def script(pilot: Any, app: ReplayApp) -> None:
        await pilot.press("l", "o", "g", "space", "q")
        assert app.is_running and app.query_one(ReplayLine).value == "log q"
        await pilot.press("left", "n")  # and the keys that step edit the line
        assert app.query_one(ReplayLine).value == "log nq" and app.viewer.position == 0

    run_replay(CR, (80, 24), script)


def test_the_panes_reflow_when_the_terminal_is_resized_and_the_board_scrolls() -> None:
    async def script(pilot: Any, app: ReplayApp) -> None:
        await type_line(pilot, "all")
        await type_line(pilot, "100")
        for width, height in [(160, 50), (60, 20), (100, 32), (80, 24)]:
            await pilot.resize_terminal(width, height)
            await pilot.pause()
            assert app.size == (width, height)
            assert app.layout_plan is not None and app.layout_plan.wide == (width >= 120)
            assert pane(app, "board").scrollable_content_region.width == (
                app.layout_plan.board_width
            )
            assert_fits(app)
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        board = pane(app, "board")
        assert board.max_scroll_y > 0 and board.scroll_y == 0  # taller than its pane
        await pilot.press("pagedown")
        assert board.scroll_y > 0
        await pilot.press("pageup")
        assert board.scroll_y == 0
        await pilot.press("down")
        assert board.scroll_y == 1

    run_replay(AA, (80, 24), script)


# --- the pieces --------------------------------------------------------------------------------


def test_wrap_breaks_between_words_and_folds_what_cannot_break_never_cutting() -> None:
    line = "    hand " + " ".join(f"R{n:02} R2/B3 a4 Xtm" for n in range(12))
    for width in (20, 37, 58):
        lines = wrap([line], width)
        assert all(visible_len(piece) <= width for piece in lines)
        assert " ".join(" ".join(lines).split()) == " ".join(line.split())
        assert lines[1].startswith("      ")  # continued further in than the line starts
    folded = wrap(["x" * 25], 10)
    assert folded[0] == "x" * 10 and "".join(p.strip() for p in folded) == "x" * 25
    coloured = wrap(["\x1b[36mA Ann\x1b[0m plays a long word " + "y" * 30], 12)
    assert all(visible_len(piece) <= 12 for piece in coloured) and "~" not in "".join(coloured)


@pytest.mark.parametrize("width", [59, 79])
@pytest.mark.parametrize("seen", ["spectator", "all", "B"])
def test_the_status_line_fits_80_columns_and_wraps_at_60(width: int, seen: str) -> None:
    viewer = rp.Viewer(AA, PLAIN)
    viewer.position = 123
    viewer.choose(seen)
    lines = status(viewer, width)  # the status line's columns: all but the left padding
    assert all(visible_len(line) <= width for line in lines)
    assert len(lines) == (1 if width == 79 else 2)
    text = " ".join(lines)
    whose = {"spectator": "as a spectator", "all": "all cards shown", "B": "as B Bob"}[seen]
    for part in ("move 123/189, " + whose, "←/→ n/p Home/End", "seat X", "q quit"):
        assert part in text


def test_the_moves_pane_ends_at_the_position_and_fills_its_rows_with_earlier_moves() -> None:
    viewer = rp.Viewer(CR, PLAIN)
    viewer.position = 40
    lines = moves(viewer, 10, 78)
    assert len(lines) <= 10
    at = next(i for i, line in enumerate(lines) if line.startswith(">"))
    assert lines[at] == ">" + viewer.log_line(39)[1:]
    assert lines[at - 1] == viewer.log_line(38)
    assert lines[-1].strip() == f"{len(CR['actions']) - 40} moves to go: → or n"
    viewer.position = 0
    assert moves(viewer, 10, 78)[0] == ">  0. the start of the game"


def test_a_seat_may_be_named_by_its_number_from_1_in_turn_order() -> None:
    viewer = rp.Viewer(AA, PLAIN)
    assert "-- as C Cy saw it --" in viewer.command("seat 3") and viewer.viewpoint == 2
    assert viewer.command("seat 4") == ["No seat `4`: seats are A Ann, B Bob, C Cy."]
    assert viewer.command("seat 0") == ["No seat `0`: seats are A Ann, B Bob, C Cy."]
    assert viewer.viewpoint == 2


# --- the command -------------------------------------------------------------------------------


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_command_opens_the_full_screen_on_a_terminal_and_the_line_console_with_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text(f"{records.dumps(CR)}\n{records.dumps(AA)}\n", encoding="utf-8")
    opened: list[tuple[int, Any]] = []

    async def fake_run(app: ReplayApp) -> int:
        opened.append((app.viewer.position, app.viewer.viewpoint))
        return 0

    monkeypatch.setattr(ReplayApp, "run_async", fake_run)
    monkeypatch.setattr(sys, "stdin", Tty("q\n"))
    monkeypatch.setattr(sys, "stdout", Tty())
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setenv("NO_COLOR", "1")
    assert cli.main(["replay", str(path), "1", "--seat", "b", "--move", "7"]) == 0
    assert opened == [(7, 1)]
    for flag in ("--line", "--plain"):
        out = Tty()
        monkeypatch.setattr(sys, "stdout", out)
        monkeypatch.setattr(sys, "stdin", Tty("n\nq\n"))
        assert cli.main(["replay", str(path), "1", "--move", "7", flag]) == 0
        assert opened == [(7, 1)]  # not opened again
        assert f"move 8/{len(CR['actions'])}: " in out.getvalue()
