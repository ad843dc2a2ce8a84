"""How people name the games, in one place: ``cr``, ``cosmic-run``, ``"Cosmic Run"``...

The vocabulary shared by the console, its teaching commands (rules, legend, cards), the
renderers and the command lines (``cosmoport play``, ``demo``, ``conformance``, ``tournament``).
Every name comes from the engines' registry (:func:`games.names`) and each game's title
(``Game.title``): the initials of the title (``cr``), the title run together (``cosmicrun``)
and each of its words (``cosmic``, ``run``) name the game, so a new game needs no entry here.
"""

from __future__ import annotations

import argparse
import functools

import games


@functools.cache
def titles() -> dict[str, str]:
    """Game id -> the game's human name (``Cosmic Run``)."""
    return {name: games.get(name).title for name in games.names()}


@functools.cache
def aliases() -> dict[str, str]:
    """Short and run-together names (no ``_``) -> game id: ``cr``, ``cosmicrun``, ``cosmic``.
    A word that two titles share names neither game."""
    found: dict[str, str] = {}
    shared: set[str] = set()
    for game, text in titles().items():
        words = text.lower().split()
        for alias in ("".join(word[0] for word in words), "".join(words), *words):
            if found.setdefault(alias, game) != game:
                shared.add(alias)
    return {alias: game for alias, game in found.items() if alias not in shared}


def game_name(text: str) -> str:
    """``cosmic_run`` for ``cosmic-run``, ``Cosmic Run``, ``cr``... (unknown names pass through)."""
    key = text.strip().lower().replace("-", "_").replace(" ", "_")
    return aliases().get(key.replace("_", ""), key)


def short_name(game: str) -> str:
    """The two-letter name of a game (``cr``), or its id if it has none."""
    return next((alias for alias, g in aliases().items() if g == game and len(alias) == 2), game)


def title(game: str) -> str:
    """A game's human name (its id with spaces for a game we do not know)."""
    return titles().get(game, game.replace("_", " ").title())


def game_choices(known: list[str] | None = None, last: str = "or") -> str:
    """How to name the games: ``cosmic-run (cr) or alien-artifacts (aa)`` (``last``: the word
    before the last one)."""
    names = sorted(known if known is not None else games.names(), reverse=True)
    spelled = [f"{g.replace('_', '-')} ({short_name(g)})" for g in names]
    if len(spelled) > 1:
        return ", ".join(spelled[:-1]) + f" {last} " + spelled[-1]
    return "".join(spelled)


def game_argument(text: str) -> str:
    """An ``argparse`` type: a game as people write it (``cosmic-run``, ``Cosmic Run``, ``cr``)
    to its id; any other name is refused with the choices."""
    name = game_name(text)
    if name not in games.names():
        raise argparse.ArgumentTypeError(f"no game {text!r}: choose {game_choices()}")
    return name
