"""How people name the games, in one place: ``cr``, ``cosmic-run``, ``"Cosmic Run"``...

The vocabulary shared by the console, its teaching commands (rules, legend, cards), the
renderers and the command lines (``cosmoport play``, ``demo``, ``conformance``, ``tournament``).
It imports nothing of the client, so every module of the client can import it.
"""

from __future__ import annotations

import argparse

import games

GAME_ALIASES = {
    "cr": "cosmic_run",
    "cosmic": "cosmic_run",
    "cosmicrun": "cosmic_run",
    "run": "cosmic_run",
    "aa": "alien_artifacts",
    "alien": "alien_artifacts",
    "alienartifacts": "alien_artifacts",
    "artifacts": "alien_artifacts",
}
"""Short and run-together names (no ``_``) -> game id."""

TITLES = {"cosmic_run": "Cosmic Run", "alien_artifacts": "Alien Artifacts"}
"""Game id -> the game's human name."""


def game_name(text: str) -> str:
    """``cosmic_run`` for ``cosmic-run``, ``Cosmic Run``, ``cr``... (unknown names pass through)."""
    key = text.strip().lower().replace("-", "_").replace(" ", "_")
    return GAME_ALIASES.get(key.replace("_", ""), key)


def short_name(game: str) -> str:
    """The two-letter name of a game (``cr``), or its id if it has none."""
    return next((alias for alias, g in GAME_ALIASES.items() if g == game and len(alias) == 2), game)


def title(game: str) -> str:
    """A game's human name (its id with spaces for a game we do not know)."""
    return TITLES.get(game, game.replace("_", " ").title())


def game_choices(known: list[str] | None = None) -> str:
    """How to name the games: ``cosmic-run (cr) or alien-artifacts (aa)``."""
    names = sorted(known if known is not None else games.names(), reverse=True)
    spelled = [f"{g.replace('_', '-')} ({short_name(g)})" for g in names]
    return ", ".join(spelled[:-1]) + " or " + spelled[-1] if len(spelled) > 1 else "".join(spelled)


def game_argument(text: str) -> str:
    """An ``argparse`` type: a game as people write it (``cosmic-run``, ``Cosmic Run``, ``cr``)
    to its id; any other name is refused with the choices."""
    name = game_name(text)
    if name not in games.names():
        raise argparse.ArgumentTypeError(f"no game {text!r}: choose {game_choices()}")
    return name
