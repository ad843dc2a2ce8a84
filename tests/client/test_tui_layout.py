"""The full-screen client's parts that need no screen: the layout, the menu's click targets,
the console's screen, and the choice between full screen and the line console."""

from __future__ import annotations

import io
from typing import Any

import pytest
from client_helpers import legal_of, position

from client import render
from client.console.terminal import full_screen_wanted
from client.text.style import Style, strip
from client.tui import content, layout
from client.tui.bridge import PaneScreen
from client.tui.targets import covered, named_targets, numbered_targets

# --- layout ------------------------------------------------------------------------------


@pytest.mark.parametrize("width", [60, 80, 100, 119, 120, 160, 220])
@pytest.mark.parametrize("height", [20, 24, 29, 30, 50])
@pytest.mark.parametrize(("board", "menu"), [(12, 9), (16, 3), (30, 40), (1, 1)])
@pytest.mark.parametrize("mode", ["off", "auto", "on", "read"])
def test_the_panes_fill_the_rows_without_overlapping(
    width: int, height: int, board: int, menu: int, mode: str
) -> None:
    plan = layout.plan(
        width, height, board=board, menu=menu, help_mode=mode, players=3, reading=board + 5
    )
    rows = height - 1  # the command line
    heights = [plan.board, plan.help, plan.menu, plan.players, plan.log, plan.chat]
    assert min(heights) >= 0
    assert plan.wide == (width >= layout.WIDE)
    title = 1 if height >= layout.TITLED else 0
    assert plan.menu >= min(menu + title, 3)
    if plan.wide:
        assert plan.board + plan.help + plan.menu == rows
        assert plan.players + plan.log + plan.chat == rows
        assert plan.left + plan.right == width and plan.right >= layout.RIGHT_MIN
    else:
        assert plan.board + plan.help + plan.menu + plan.log == rows
        assert plan.log >= layout.LOG_MIN + title
        assert plan.players == plan.chat == 0 and plan.left == width
    if mode == "off":
        assert plan.help == 0
    if mode in ("on", "read"):
        assert plan.help > 0
    if plan.board:  # the menu leaves the board a few rows
        assert plan.board >= min(layout.BOARD_MIN, board + title)


def test_the_whole_menu_and_five_log_lines_are_shown_the_board_takes_the_rest() -> None:
    plan = layout.plan(80, 24, board=12, menu=9)
    assert (plan.board, plan.menu, plan.log) == (9, 9, 5)
    assert not plan.titled and plan.text_width == 78 and plan.log_width == 78
    long_menu = layout.plan(80, 24, board=12, menu=30)
    assert (long_menu.board, long_menu.menu, long_menu.log) == (layout.BOARD_MIN, 16, 5)


def test_a_wide_screen_puts_the_people_beside_the_game() -> None:
    plan = layout.plan(160, 50, board=14, menu=6, players=3)
    assert plan.wide and plan.titled
    assert (plan.left, plan.right) == (88, 72)
    assert plan.players == 4 and plan.chat == 9 and plan.log == 49 - 4 - 9


def test_the_legend_takes_the_boards_place_only_when_asked_and_short_of_room() -> None:
    on = layout.plan(80, 24, board=12, menu=9, help_mode="on")
    assert on.board == 0 and on.help == 9
    auto = layout.plan(80, 24, board=12, menu=9, help_mode="auto")
    assert auto.board == 9 and auto.help == 0
    roomy = layout.plan(160, 50, board=14, menu=6, help_mode="auto")
    assert roomy.board == 15 and roomy.help == 49 - 15 - 7


def test_an_answer_goes_below_the_board_only_when_it_fits_there_whole() -> None:
    below = layout.plan(160, 50, board=14, menu=6, help_mode="read", reading=20)
    assert below.board == 15 and below.help == 49 - 15 - 7
    instead = layout.plan(160, 50, board=14, menu=6, help_mode="read", reading=40)
    assert instead.board == 0 and instead.help == 49 - 7
    stacked = layout.plan(80, 24, board=6, menu=5, help_mode="read", reading=4)
    assert (stacked.board, stacked.help, stacked.menu, stacked.log) == (6, 7, 5, 5)
    short = layout.plan(80, 24, board=12, menu=5, help_mode="read", reading=4)
    assert (short.board, short.help, short.menu, short.log) == (0, 13, 5, 5)


# --- where the menu's choices are ---------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "players", "seed", "steps"),
    [
        ("cosmic_run", 2, 3, 25),
        ("cosmic_run", 2, 11, 0),
        ("alien_artifacts", 3, 5, 14),
        ("alien_artifacts", 2, 8, 30),
    ],
)
@pytest.mark.parametrize("width", [58, 78, 98, 140])
def test_every_choice_of_the_menu_can_be_clicked_where_its_tag_is_shown(
    game: str, players: int, seed: int, steps: int, width: int
) -> None:
    state = position(game, players, seed, steps)
    seat = state.current_player
    view, legal, names = state.view(seat), legal_of(state), ["Ann", "Bob", "Cyd"][:players]
    lines, targets, title = content.menu(_console(view, legal, names, seat), width)
    assert title == "Your move"
    assert covered(targets) == set(range(1, len(legal) + 1))
    assert len(targets) == len(lines)
    entries = render.choices(view, legal, names)
    for line, row in zip(lines, targets, strict=True):
        text = strip(line)
        assert all(0 <= start < end <= len(text) for start, end, _ in row)
        for start, end, number in row:
            shown = text[start:end]
            tags = {e.tag for e in entries if e.number == number} | {str(number)}
            assert any(shown.lstrip().startswith(tag) for tag in tags), (shown, tags)


def test_a_numbered_list_is_clickable_on_its_numbers_and_the_lines_that_go_on() -> None:
    style = Style(True)
    lines = [
        style.bold("Your move"),
        f"{style.bold('  1')} Put W1 on planet 2",
        f"{style.bold('  2')} Put W1 on planet 3, which is a long way",
        "      off (continued)",
        f"{style.bold(' 12')} Roll",
    ]
    targets = numbered_targets(lines, 12)
    assert targets[0] == []
    assert [n for _, _, n in targets[1]] == [1]
    assert targets[3] == [(6, len("      off (continued)"), 2)]
    assert targets[4][0][:1] == (1,) and targets[4][0][2] == 12


def test_a_layout_that_does_not_line_up_is_not_guessed() -> None:
    state = position("cosmic_run", 2, 3, 25)
    view, legal = state.view(state.current_player), legal_of(state)
    assert named_targets(view, legal, ["A", "B"], ["something else entirely"], 78) is None


def _console(view: dict[str, Any], legal: list[Any], names: list[str], seat: int) -> Any:
    from client_helpers import FakeClient

    from client.console.commands import Console
    from client.console.tracker import GameTracker

    console = Console(FakeClient(), PaneScreen(_Panes()))
    console.game = GameTracker(1, str(view["game"]), names, seat)
    console.game.receive({"type": "snapshot", "version": 1, "view": view, "legal": legal})
    return console


# --- the console's screen ------------------------------------------------------------------


class _Panes:
    def __init__(self) -> None:
        self.logged: list[list[str]] = []
        self.prompts: list[str] = []

    def write_log(self, lines: list[str]) -> None:
        self.logged.append(lines)

    def prompted(self, prompt: str) -> None:
        self.prompts.append(prompt)

    def chat(self, line: str) -> None:
        pass

    def screenshot(self, filename: str | None) -> str:
        return filename or "shot.svg"


def test_the_pane_screen_sends_lines_to_the_log_and_prompts_to_the_app() -> None:
    panes = _Panes()
    screen = PaneScreen(panes, lambda: 57)
    screen.show("one\ntwo")
    screen.show([])
    screen.set_prompt("lobby> ")
    assert panes.logged == [["one", "two"]]
    assert panes.prompts == ["lobby> "] and screen.prompt == "lobby> "
    assert screen.width == 57 and screen.style.enabled


# --- full screen or line console ------------------------------------------------------------


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_full_screen_only_on_two_terminals_that_can_draw_and_without_plain() -> None:
    tty, pipe = _Tty(), io.StringIO()
    term = {"TERM": "xterm-256color"}
    assert full_screen_wanted(False, tty, tty, term)
    assert not full_screen_wanted(True, tty, tty, term)
    assert not full_screen_wanted(False, pipe, tty, term)
    assert not full_screen_wanted(False, tty, pipe, term)
    assert not full_screen_wanted(False, tty, tty, {"TERM": "dumb"})
