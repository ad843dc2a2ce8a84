"""The legend: every symbol and abbreviation a game's board and menus show, in player words.

Each game's plug-in holds its own legend (``client/games/<game>/legend.py``, beside the board it
explains); this module holds its pieces (:class:`Symbol`) and lays a game's legend out for a
width (:func:`legend`); :func:`explain` answers ``info`` about one symbol or word
(``+``, ``found``, ``op``). Each :class:`Symbol` is shown as the board shows it, with the board
tokens it stands for (``pattern``: ``5>P2`` for any placed die) and the words ``info`` knows it by.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

from client.games import plugin, plugins
from client.text.game_names import game_choices, game_name, title


@dataclass(frozen=True)
class Symbol:
    shown: str
    """As the board or menu shows it, e.g. ``Y 5>P2``."""
    meaning: str
    pattern: str = ""
    """A regular expression for the board tokens this explains (``\\d>P[1-6]``), if any."""
    keys: tuple[str, ...] = ()
    """What ``info`` finds it by, besides ``shown`` itself (case does not matter)."""


Section = tuple[str, tuple[Symbol, ...]]


def _sections(game: str) -> tuple[Section, ...] | None:
    found = plugin(game_name(game))
    return found.legend if found is not None else None


def symbols(game: str) -> list[Symbol]:
    """Every symbol of ``game``'s legend, in order (none for a game we do not know)."""
    return [symbol for _, group in _sections(game) or () for symbol in group]


def legend(game: str, width: int) -> list[str]:
    """``game``'s legend as lines of at most ``width`` characters (the symbol, then its meaning)."""
    width = max(width, 20)
    sections = _sections(game)
    if sections is None:
        return _wrap(
            f"No legend for `{game}`: the games are {game_choices(last='and')}.",
            width,
        )
    column = min(18, max(8, width // 4))
    lines = _wrap(f"{title(game_name(game))}: what the board shows", width)
    for heading, group in sections:
        lines += ["", heading]
        for symbol in group:
            lines += _entry(symbol, column, width)
    lines += [
        "",
        *_wrap("`info` with any symbol, card or name says more, e.g. `info found`.", width),
    ]
    return lines


def _wrap(text: str, width: int, indent: str = "", hang: str = "") -> list[str]:
    return textwrap.wrap(
        text, width, initial_indent=indent, subsequent_indent=hang, break_on_hyphens=False
    )


def _entry(symbol: Symbol, column: int, width: int) -> list[str]:
    """``  x..     meteor hits...`` with the meaning under a hanging indent."""
    hang = " " * (column + 4)
    head = f"  {symbol.shown}"
    if len(head) + 2 <= column + 4:
        return _wrap(symbol.meaning, width, head.ljust(column + 4), hang)
    return _wrap(symbol.shown, width, "  ", "    ") + _wrap(symbol.meaning, width, hang, hang)


def explain(word: str) -> list[tuple[str, Symbol]]:
    """(game, symbol) for every legend entry that ``info WORD`` should show, in both games."""
    wanted = " ".join(word.lower().split())
    matches = []
    for found in plugins():
        for _, group in found.legend:
            for symbol in group:
                names = {symbol.shown.lower(), *(k.lower() for k in symbol.keys)}
                if wanted in names or (symbol.pattern and re.fullmatch(symbol.pattern, word, re.I)):
                    matches.append((found.game, symbol))
    return matches
