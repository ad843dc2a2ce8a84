"""The engine contract every part of Cosmoport drives a game through.

The server, the bots, tournaments and tests use nothing but this module's names. A game package
(``games.cosmic_run``, ``games.alien_artifacts``) provides one object satisfying :class:`Game`
whose ``new`` returns objects satisfying :class:`State`.

Vocabulary:

- A **seat** is an ``int`` from 0 to ``players - 1``. Seat 0 is the start player. Which person sits
  in which seat is the host's choice, never the engine's.
- An **action** is a small tuple of ``str`` and ``int``, e.g. ``("assign", 2, "P3")``. It is
  hashable, readable and msgpack-able. ``legal_actions()`` lists them in a deterministic
  (canonical) order; any decision point offers a short list.
- An **event** is a ``dict`` with a ``"type"`` key and plain values (``str``, ``int``, ``bool``,
  ``None``, lists and string-keyed dicts of those). Events are **public**: an event never carries
  anything hidden from any seat. A seat learns its own secrets from its view.
- A **view** is a ``dict`` of the same plain values: everything one seat (or a spectator, seat
  ``None``) may know, and nothing else. Views use lists, never tuples, so a view survives a msgpack
  round trip unchanged. Views are read-only: an engine may share unchanged parts between the
  views it returns (so building one view per seat stays cheap); copy before changing one. Every
  view of every game has these keys, so generic code (server, client, bots) can rely on them;
  the rest is the game's own:

  ``game`` (the game's name), ``players`` (seat count), ``seat`` (whose view: an int, or ``None``
  for a spectator), ``current_player``, ``is_over``, ``scores`` (as ``State.scores()``: the public
  score track during play, final VP once over) and ``ranking`` (``None`` until the game is over).

Chance (dice, shuffles, card draws) is resolved inside ``apply`` by the state's own
``random.Random`` seeded from ``seed``: same seed and same actions give the same game.

**Undo barriers.** A server may let the seat to act take back its own actions of the current
turn, as long as nothing random or hidden came to light since. ``State.barrier(action)`` says
whether ``action``, played now, is a *barrier* that can never be taken back: playing it rolls a
die, draws or shuffles a card, shows anyone a card that was hidden from them other than the
acting seat's own (a card the actor pays from its hand is its own choice to show), or passes the
decision on (another seat decides next, a new turn starts, or the game ends). An engine may
answer ``True`` when in doubt (fewer undos, never an unfair one); it must never answer ``False``
for an action whose result depends on anything the acting seat could not see, so that undoing
never lets a seat see something and take back its choice.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

Action = tuple[Any, ...]
"""An atomic decision: a tuple of ``str`` / ``int``."""

Event = dict[str, Any]
View = dict[str, Any]


class IllegalAction(ValueError):
    """``State.apply`` got an action not in ``legal_actions()``; the state is unchanged."""


class UnknownGame(KeyError):
    """Raised by :func:`get` for a name that is not in :func:`names`."""

    def __str__(self) -> str:  # KeyError quotes its argument; we want a readable sentence
        return str(self.args[0]) if self.args else "unknown game"


@runtime_checkable
class State(Protocol):
    """One game in progress. Mutable; ``clone()`` gives an independent copy."""

    @property
    def current_player(self) -> int | None:
        """The seat that must decide now; ``None`` once the game is over."""
        ...

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        ...

    def legal_actions(self) -> list[Action]:
        """The legal actions of ``current_player`` in canonical order; empty iff ``is_over``."""
        ...

    def apply(self, action: Action) -> list[Event]:
        """Play ``action`` and resolve chance up to the next decision.

        Returns the public events this step produced. Raises :class:`IllegalAction` and leaves
        the state untouched for anything not in ``legal_actions()``.
        """
        ...

    def clone(self) -> State:
        """An independent copy, random generator included (hand-written, never deepcopy)."""
        ...

    def scores(self) -> list[int]:
        """Current VP per seat as the public score track shows them; final VP once over."""
        ...

    def ranking(self) -> list[list[int]]:
        """Seats grouped best first, ties broken per the rules, e.g. ``[[2], [0, 1]]``."""
        ...

    def view(self, seat: int | None) -> View:
        """All that ``seat`` may know (``None``: a spectator), and nothing else."""
        ...

    def label(self, action: Action) -> str:
        """Short human text for ``action``, e.g. ``"Put die 4 (a 6) on planet 6"``."""
        ...

    def barrier(self, action: Action, after: Any = None) -> bool:
        """Whether the legal ``action``, played now, is an undo barrier (see the module text):
        it resolves chance, uncovers anything hidden, or passes the decision on. The state is
        unchanged. Raises :class:`IllegalAction` for an action not in ``legal_actions()``.

        ``after``: the state once ``action`` is played here, if the caller has it already (a
        server applies each action to a copy); the engine then need not play it again."""
        ...


@runtime_checkable
class Game(Protocol):
    """A game's rules: its name, player counts, and how to start or reconstruct a state."""

    name: str
    title: str
    edition: str
    """The rules edition the engine plays, e.g. ``"1.0"``; a game record names it."""
    min_players: int
    max_players: int

    def new(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        """A new game. ``options`` are the game's documented variants (``None``: defaults).

        Raises ``ValueError`` for a player count out of range or an unknown or invalid option.
        """
        ...

    def determinize(self, view: View, seat: int | None, seed: int) -> State:
        """A full state consistent with ``view``, every hidden part sampled uniformly.

        ``determinize(view, seat, seed).view(seat) == view`` holds.
        """
        ...


# The registry: every package of ``games/`` that provides a ``GAME`` is a game, by its folder's
# name. Modules are imported on first use so that ``import games`` stays cheap; adding a game
# is adding its folder.
@functools.cache
def _registry() -> dict[str, str]:
    package = __name__.rpartition(".")[0]
    found = pkgutil.iter_modules([str(Path(__file__).parent)])
    return {m.name: f"{package}.{m.name}" for m in found if m.ispkg}


def names() -> list[str]:
    """The names of every registered game, sorted."""
    return sorted(_registry())


def get(name: str) -> Game:
    """The game called ``name``; raises :class:`UnknownGame` (a ``KeyError``) otherwise."""
    try:
        module_name = _registry()[name]
    except KeyError:
        raise UnknownGame(f"unknown game {name!r}; known games: {', '.join(names())}") from None
    game: Game = importlib.import_module(module_name).GAME
    return game


def check_players(game: Game, players: int) -> None:
    """Raise ``ValueError`` unless ``players`` is a count ``game`` supports."""
    if not isinstance(players, int) or isinstance(players, bool):
        raise ValueError(f"players must be an integer, not {players!r}")
    if not game.min_players <= players <= game.max_players:
        raise ValueError(
            f"{game.title} takes {game.min_players} to {game.max_players} players, not {players}"
        )


def seat_letter(seat: Any) -> str:
    """The seat's letter, as every board, log and record shows it: ``A`` for seat 0 (``?`` if
    ``seat`` is no seat number)."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < 26:
        return chr(ord("A") + seat)
    return "?"
