"""``info NAME``: what a card, faction, alien, planet or board symbol of either game means.

Reference text only (names, faces, costs, printed effects), from the games' data tables and the
legend (:mod:`client.games.legend`): the client applies no rule. A card is found by its id (``A14``,
``T07``, ``AL3``) or its name (``Haskel``, ``Iron Belt``, ``Community``), a Cosmic Run planet by
``P3``, an alien ability by its name (``Navigator``), and anything the board shows by its symbol
(``+``, ``found``, ``op``). The text of every card is ``docs/cards.md``, for people and for
authors of other clients; rewrite it with ``python -m client.games.cards docs/cards.md`` after
changing a game's data (a test checks).
"""

from __future__ import annotations

import difflib
import re
import sys
from pathlib import Path
from typing import Any

from client.games import plugin, plugins
from client.games.legend import explain
from client.text.flow import words
from client.text.game_names import title


def card_info(code: str, view: dict[str, Any] | None = None) -> list[str]:
    """Lines saying what ``code`` is: a card id (``A14``, ``M03``, ``S05``, ``AL3``, ``R08``...),
    a name (``Haskel``, ``Iron Belt``, ``Community``), a Cosmic Run planet (``P3``), an alien
    ability (``Navigator``) or a symbol of a board (``+``, ``found``, ``op``); any case.

    With the ``view`` of a game in progress, a game may add what it means for the viewer now
    (Alien Artifacts: ``info trade`` tells the viewer's production limit for Trade)."""
    text = " ".join(code.split())
    return [*_info(text), *_here(text, view)]


def _info(text: str) -> list[str]:
    lines = _by_id(text.upper())
    if lines:
        return lines
    describers = [found.describe for found in plugins()]
    for describe in (_by_name, *describers, _symbol, _by_start):
        lines = describe(text)
        if lines:
            return lines
    return [_unknown(text)]


def _here(text: str, view: dict[str, Any] | None) -> list[str]:
    if not isinstance(view, dict):
        return []
    found = plugin(view.get("game"))
    in_game = getattr(found, "in_game", None)
    return list(in_game(text, view)) if callable(in_game) else []


def card_lines(code: str, width: int, view: dict[str, Any] | None = None) -> list[str]:
    """:func:`card_info` laid out to ``width``: a long line goes on under its own text (two
    spaces deeper than its indent), never back at the first column."""
    lines: list[str] = []
    for line in card_info(code, view):
        lead = len(line) - len(line.lstrip(" "))
        lines.extend(words(line, width, lead + 2))
    return lines


def _by_id(code: str) -> list[str]:
    for found in plugins():
        lines = found.card(code)
        if lines:
            return lines
    return []


def _names() -> dict[str, list[str]]:
    """Every card's and faction's name, in lower case, to the ids that bear it."""
    named: dict[str, list[str]] = {}
    for name, code in (pair for found in plugins() for pair in found.card_names()):
        named.setdefault(name.lower(), []).append(code)
        if name.startswith("The "):  # "League" for The League
            named.setdefault(name[4:].lower(), []).append(code)
    return named


NAMES = _names()


def _by_name(text: str) -> list[str]:
    """A card by its name (``Iron Belt``, ``Community``), in any case."""
    return _named(NAMES.get(text.lower()) or [])


def _by_start(text: str) -> list[str]:
    """A card by the unique start of its name (``iron`` for Iron Belt)."""
    wanted = text.lower()
    starts = {tuple(c) for name, c in NAMES.items() if name.startswith(wanted)}
    return _named(list(starts.pop())) if len(wanted) >= 3 and len(starts) == 1 else []


def _named(codes: list[str]) -> list[str]:
    if not codes:
        return []
    lines = _by_id(codes[0])
    if len(codes) > 1:
        lines = [*lines, f"  ({len(codes)} copies: {', '.join(codes)}, all the same)"]
    return lines


def _symbol(text: str) -> list[str]:
    lines = []
    for game, symbol in explain(text):
        lines.append(f"`{symbol.shown}` on the {title(game)} board: {symbol.meaning}.")
    return lines


def _vocabulary() -> list[str]:
    words = [*NAMES, *(word.lower() for found in plugins() for word in found.words())]
    for found in plugins():
        for _, group in found.legend:
            for symbol in group:
                words += [symbol.shown.lower(), *(k.lower() for k in symbol.keys)]
    return words


def _unknown(text: str) -> str:
    wanted = text.lower()
    close = difflib.get_close_matches(wanted, _vocabulary(), n=4, cutoff=0.7)
    if close:
        shown = [_display(c) for c in close]
        return f"No card `{text}` in either game. Did you mean {', '.join(shown)}?"
    return (
        f"No card `{text}` in either game. Ids look like A14, M03, S05, T11, P02, AL3, AR10, SU; "
        "names and board symbols work too (`info Haskel`, `info +`)."
    )


def _display(word: str) -> str:
    """A close match as people write it: ``Iron Belt``, ``T07``, ``found``."""
    codes = NAMES.get(word)
    if codes:
        return _by_id(codes[0])[0].split(" (")[0].split(":")[0]
    if re.fullmatch(r"[a-z]{1,3}\d{1,2}", word):
        return word.upper()
    return word


def reference() -> str:
    """Every card of both games, by id, as the markdown of ``docs/cards.md``."""
    sections = [section for found in plugins() for section in found.card_sections]
    lines = [
        "# Cards",
        "",
        "<!-- Generated by `python -m client.games.cards docs/cards.md` from the games' data",
        "     tables; do not edit by hand. -->",
        "",
        "Every card and piece id that views, events and actions use (PROTOCOL.md section 12),",
        "with what the card is and does, as the console's `info CARD` shows it. The rules that use",
        "them are in `docs/rules/`. Cosmic Run's meteor deck also holds miss cards, `X`, which",
        "strike nothing.",
    ]
    for heading, codes in sections:
        lines += ["", f"## {heading}", ""]
        for code in codes:
            first, *more = card_info(code)
            lines.append(f"- **{code}**{first.removeprefix(code)}")
            lines += [f"  - {line.strip()}" for line in more]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m client.games.cards docs/cards.md")
    Path(sys.argv[1]).write_text(reference(), encoding="utf-8")
