"""Renderers at any width, and one way of naming seats on every screen.

Boards, menus, final sheets and the full list of both games, from many seeded positions, at 60,
80 and 160 columns: no line is wider than asked, and no word is cut (the words are those of the
same screen laid out with all the room it wants: wrapping only moves whole words). Seats show as
their letter and name; no screen says "seat 1", "place 0" or "slot 2".
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from client_helpers import legal_of, position

from client import render
from client.games import plugin
from client.games.alien_artifacts import board as alien_artifacts
from client.text.menu import item_text
from client.text.style import Style, strip, visible_len

PLAIN = Style(False)
NAMES = ["Ann", "Random bot 1", "Random bot 2", "A rather long player name", "Eve"]
WIDTHS = (60, 80, 160)
ROOMY = {60: alien_artifacts.WIDE - 1, 80: alien_artifacts.WIDE - 1, 160: 10_000}
"""The unwrapped layout each width is compared with (the same screen, all the room it wants)."""
SEATS = {"cosmic_run": (1, 2, 3, 4), "alien_artifacts": (2, 3, 4, 5)}
STEPS = (0, 3, 30, 90, 200, 10**5)


def positions(game: str) -> Iterator[tuple[Any, int]]:
    for players in SEATS[game]:
        for steps in STEPS:
            yield position(game, players, 11 + players, steps, players), players


def words(lines: list[str]) -> Counter[str]:
    return Counter(strip("\n".join(lines)).split())


def hint_words(view: dict[str, Any], legal: list[Any], names: list[str], width: int) -> Counter:
    module = plugin(view["game"])
    assert module is not None
    return Counter(module.hint(view, render.choices(view, legal, names), width).split())


def screens(state: Any, players: int, width: int) -> dict[str, list[str]]:
    """Every renderer's lines for ``state`` at ``width`` (menus whole: no line limit)."""
    seat = state.current_player if not state.is_over else 0
    view, names = state.view(seat), NAMES[:players]
    shown = {"board": render.board(view, names, PLAIN, width)}
    if state.is_over:
        shown["final"] = render.final(view, None, names, PLAIN, width)
    else:
        legal = legal_of(state)
        shown["menu"] = render.menu(view, legal, names, PLAIN, width, limit=None)
        shown["full"] = render.full_list(legal, PLAIN, width, view=view, names=names)
    return shown


@pytest.mark.parametrize("game", sorted(SEATS))
def test_no_line_is_wider_than_asked_and_no_word_is_cut(game: str) -> None:
    for state, players in positions(game):
        for width in WIDTHS:
            shown = screens(state, players, width)
            roomy = screens(state, players, ROOMY[width])
            for key, lines in shown.items():
                text = "\n".join(lines)
                assert all(visible_len(line) <= width for line in lines), (width, text)
                assert "~" not in text, text  # the mark of a cut
                mine, whole = words(lines), words(roomy[key])
                if key == "menu":
                    seat = state.current_player
                    view, legal = state.view(seat), legal_of(state)
                    mine -= hint_words(view, legal, NAMES[:players], width)
                    whole -= hint_words(view, legal, NAMES[:players], ROOMY[width])
                assert mine == whole, (width, key, text)


@pytest.mark.parametrize("game", sorted(SEATS))
def test_every_menu_entry_stays_on_one_line_with_its_heading_at_60_columns(game: str) -> None:
    for state, players in positions(game):
        if state.is_over:
            continue
        view, legal = state.view(state.current_player), legal_of(state)
        lines = render.menu(view, legal, NAMES[:players], PLAIN, 60, limit=None)
        for entry in render.choices(view, legal, NAMES[:players]):
            shown = item_text(entry, PLAIN)
            assert any(shown in line for line in lines), (entry, lines)
            if entry.group:
                assert any(entry.group in line for line in lines), (entry, lines)


def test_a_wide_screen_takes_fewer_lines_and_shows_more() -> None:
    state = position("cosmic_run", 4, 5, 150, 3)
    view, legal = state.view(state.current_player), legal_of(state)
    names = NAMES[:4]
    for draw in (
        lambda w: render.board(view, names, PLAIN, w),
        lambda w: render.menu(view, legal, names, PLAIN, w),
    ):
        assert len(draw(160)) < len(draw(80)) < len(draw(60))
    assert any(
        line.startswith("Row") and "A4 " in line for line in render.board(view, names, PLAIN, 160)
    )
    aa = position("alien_artifacts", 3, 7, 1, 1)
    aa_view = aa.view(aa.current_player)
    narrow = "\n".join(render.board(aa_view, names[:3], PLAIN, 80))
    wide = "\n".join(render.board(aa_view, names[:3], PLAIN, 160))
    assert "P08 Iron Belt" in wide and "P08 Iron Belt" not in narrow  # another seat's project


def test_the_default_width_is_80() -> None:
    state = position("alien_artifacts", 3, 7, 1, 1)
    view, legal = state.view(0), legal_of(state)
    assert render.board(view, NAMES[:3], PLAIN) == render.board(view, NAMES[:3], PLAIN, 80)
    assert render.menu(view, legal, NAMES[:3], PLAIN) == render.menu(
        view, legal, NAMES[:3], PLAIN, 80
    )


@pytest.mark.parametrize("game", sorted(SEATS))
def test_seats_are_named_by_letter_and_name_never_by_number(game: str) -> None:
    for state, players in positions(game):
        if players > 4:
            continue
        for width in (60, 80):
            text = "\n".join(
                line for lines in screens(state, players, width).values() for line in lines
            )
            assert not re.search(r"\b(seat|place|slot) \d", text), text
            turn = state.current_player
            if turn is not None:
                assert f"{chr(65 + turn)} {NAMES[turn]}:" in text  # the decision line
