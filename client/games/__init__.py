"""Everything the client knows of one game, behind one interface: :class:`GamePlugin`.

A game's client plug-in is the package ``client/games/<game>/`` (``<game>`` is the engine's
name, as in ``games/<game>/``) whose ``PLUGIN`` keeps :class:`GamePlugin`: how its board is
drawn, how its choices are named and read back when typed, how its events are told, what an
action will do (the menu previews), its legend and its cards for ``info``. The
modules beside this one (:mod:`client.render`, :mod:`.narrate`, :mod:`.preview`, :mod:`.legend`,
:mod:`.cards`) do what is common to every game and ask the plug-in for the rest; a game without a
plug-in is still shown, plainly (a newer server must never crash an older client).

Adding a game to the client is one new folder here; :func:`plugin` finds it by its name.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from client.games.legend import Section
    from client.games.outcome import Outcome
    from client.text.menu import Entry, Resolved
    from client.text.style import Style
    from client.text.wording import Names


class GamePlugin(Protocol):
    """What the client needs to know of one game. Every function is pure: views, legal actions
    and events in, text out; any of them may raise ``KeyError``, ``IndexError``, ``TypeError``,
    ``ValueError`` or ``AttributeError`` for a view it cannot read, and its caller then falls
    back to a plain listing."""

    game: str
    """The engine's name (``cosmic_run``)."""
    legend: tuple[Section, ...]
    """Every symbol and abbreviation the board and menus show, by section."""
    card_sections: tuple[tuple[str, tuple[str, ...]], ...]
    """Every card id by kind, for the card reference (``("aliens", ("AL1", ...))``)."""

    # --- the board and the menu -------------------------------------------------------------
    def board(
        self, view: dict[str, Any], names: Sequence[str], style: Style, width: int
    ) -> list[str]:
        """The board of ``view``, every line within ``width`` columns."""
        ...

    def decision(self, view: dict[str, Any], names: Sequence[str]) -> str:
        """The menu's heading: what is being decided (``Your turn: assign a die``)."""
        ...

    def entries(
        self, view: dict[str, Any], legal: Sequence[Any], names: Sequence[str]
    ) -> Iterable[Entry]:
        """The menu's entries: each choice's stable name, the number it stands for, its text."""
        ...

    def resolve(
        self, view: dict[str, Any], legal: Sequence[Any], text: str, names: Sequence[str]
    ) -> Resolved | None:
        """What a typed name stands for in ``legal`` (None: not a name this game reads)."""
        ...

    def footnote(self, legal: Sequence[Any]) -> str | None:
        """A short note on the decision's line (``P6!: Y on P6 ends rolling``), if any."""
        ...

    def hint(self, view: dict[str, Any], shown: Sequence[Entry], width: int) -> str | None:
        """How to type a choice, under the menu, if the game says more than the names do."""
        ...

    def final(
        self, view: dict[str, Any], names: Sequence[str], style: Style, width: int
    ) -> list[str]:
        """The game's own details under the final ranking (how each seat scored)."""
        ...

    # --- the story ----------------------------------------------------------------------------
    def narrate(self, event: dict[str, Any], names: Names) -> str | None:
        """One line for a public event (None: nothing worth printing)."""
        ...

    def told_by_label(self, event: dict[str, Any]) -> bool:
        """Whether the action's own label already says what ``event`` does."""
        ...

    def situation(self, view: dict[str, Any], names: Names) -> list[str]:
        """Where a game in progress stands, for a first look at it."""
        ...

    def label(self, text: str) -> str:
        """An engine's action label with what the board does not show taken out."""
        ...

    def secret(self, key: str, value: Any, style: Style) -> str | None:
        """One hidden part of a seat's own view in words, for the replay (None: plainly)."""
        ...

    def pending_secret(
        self, own: dict[str, Any], public: dict[str, Any], style: Style
    ) -> list[str]:
        """What the seat's own ``pending`` decision shows that the public one hides, in words."""
        ...

    # --- what an action will do ---------------------------------------------------------------
    def observe(self, state: Any, action: tuple[Any, ...], seat: int) -> Outcome:
        """What ``action`` did to ``seat`` on a full state (a clone is the plug-in's to change)."""
        ...

    chance_word: str
    """What decides an uncertain preview: ``roll`` or ``draw``."""

    # --- ``info``: cards and words --------------------------------------------------------------
    def card(self, code: str) -> list[str]:
        """Lines saying what card ``code`` (an id in capitals) is, or none."""
        ...

    def card_names(self) -> Iterable[tuple[str, str]]:
        """(name, id) of every card and faction that has a name."""
        ...

    def describe(self, text: str) -> list[str]:
        """Lines for anything else ``info`` may be asked about in this game (a planet, an
        ability, an action), or none."""
        ...

    def words(self) -> Iterable[str]:
        """Every word :meth:`describe` knows, and every card id, for suggestions."""
        ...


class Renamer(Protocol):
    """Keeps the names a player typed for pieces the server numbers its own way (Cosmic Run:
    of two dice showing the same value, the server moves the lower-numbered one): every message
    in goes through :meth:`incoming`, every action out through :meth:`outgoing`."""

    def incoming(self, msg: dict[str, Any]) -> dict[str, Any]:
        """A ``snapshot`` or ``update`` under the names shown (a copy where anything changes)."""
        ...

    def outgoing(self, action: Any) -> Any:
        """An action of the names shown, as the server numbers it."""
        ...

    def swap(self, typed: int, listed: int) -> None:
        """The player typed piece ``typed`` for the server's interchangeable ``listed``."""
        ...


class Unchanged:
    """The :class:`Renamer` of a game whose names are the server's."""

    def incoming(self, msg: dict[str, Any]) -> dict[str, Any]:
        return msg

    def outgoing(self, action: Any) -> Any:
        return action

    def swap(self, typed: int, listed: int) -> None:
        return None


def renamer(game: Any) -> Renamer:
    """A fresh :class:`Renamer` for one game of ``game`` (a plug-in may offer one as
    ``renamer``; else the server's names are kept)."""
    make = getattr(plugin(game), "renamer", None)
    found: Renamer = make() if callable(make) else Unchanged()
    return found


@functools.cache
def names() -> tuple[str, ...]:
    """Every game the client has a plug-in for, in the order the client lists the games
    (:func:`client.text.game_names.game_choices`: by name, Z to A, so Cosmic Run comes first)."""
    found = (info.name for info in pkgutil.iter_modules(__path__) if info.ispkg)
    return tuple(sorted(found, reverse=True))


def plugin(game: Any) -> GamePlugin | None:
    """The plug-in of ``game`` (an engine's name), or None for a game the client does not know."""
    if not isinstance(game, str) or game not in names():
        return None
    found: GamePlugin = importlib.import_module(f"{__name__}.{game}").PLUGIN
    return found


def plugins() -> list[GamePlugin]:
    """Every plug-in, in the order of :func:`names`."""
    return [p for p in map(plugin, names()) if p is not None]
