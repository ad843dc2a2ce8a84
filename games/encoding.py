"""The research encoding of both games: fixed integer action spaces, the observation vector of
one seat's view and the action mask, shared by the environments (:mod:`cosmoport.envs`,
docs/research.md) and the tournament's in-process agents (``py:`` entrants).

An environment's action ``i`` is ``table.actions[i]``, the engine's own action tuple. The order
is part of the published interface (docs/research.md): new actions may only ever be appended, so
an agent trained on one version keeps its meaning on the next. Player counts share every index
but Alien Artifacts' ``("target", "player", q)``, which come last, one per seat.

The action tables need nothing but the engines. The vectors (:class:`Encoder`) are numpy arrays:
numpy, part of the ``research`` extra, is imported on first use, never by importing this module,
so that the base install does without it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any

from games.alien_artifacts import data as aa
from games.alien_artifacts import encoding as aa_encoding
from games.api import Action, State, View, get
from games.cosmic_run import encoding as cr_encoding
from games.cosmic_run.codes import TARGET_NAMES
from games.cosmic_run.data import ALIENS as CR_ALIENS
from games.layout import Layout

if TYPE_CHECKING:
    import numpy as np

RESEARCH_EXTRA = "pip install 'cosmoport[research]'"

MAX_INDEX = 64
"""Alien Artifacts' positional actions (``take``, ``discard``, ``quartermaster``, ``add``)
name a card by its index, 0 to 63: the engine's own bound."""


@dataclass(frozen=True)
class Block:
    """A run of consecutive action numbers and what they stand for (for the docs)."""

    first: int
    count: int
    text: str


@dataclass(frozen=True)
class ActionTable:
    """One game and player count's action space."""

    game: str
    players: int
    actions: tuple[Action, ...]
    blocks: tuple[Block, ...]
    index: dict[Action, int] = field(compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.actions)


def _cosmic_run(players: int) -> list[tuple[str, list[Action]]]:
    return [
        (
            '("assign", die, target): die 0-5 (5 is the yellow die) times target '
            + ", ".join(TARGET_NAMES)
            + ", target fastest",
            [("assign", die, name) for die in range(6) for name in TARGET_NAMES],
        ),
        ('("roll",)', [("roll",)]),
        ('("reroll", die), die 0-5', [("reroll", die) for die in range(6)]),
        (
            '("nudge", die, step): die 0-5 times step -1, +1, step fastest',
            [("nudge", die, step) for die in range(6) for step in (-1, 1)],
        ),
        ('("flip", die), die 0-5', [("flip", die) for die in range(6)]),
        ('("boost", planet), planet P1-P6', [("boost", f"P{p}") for p in range(1, 7)]),
        ('("pass",)', [("pass",)]),
        ('("retire", alien), alien A01-A30', [("retire", alien.id) for alien in CR_ALIENS]),
    ]


_WORDS = ("trade", "offensive", "income", "mine", "pilgrimage", "pass", "finish", "dig")
_WORDS2 = ("done", "continue", "start_action")


def _alien_artifacts(players: int) -> list[tuple[str, list[Action]]]:
    markets = aa.MARKET_NAMES
    n = MAX_INDEX
    return [
        ('("build", card), card S01-S16, T01-T16, P01-P16', [("build", c) for c in markets]),
        ('("project", card), card as above', [("project", c) for c in markets]),
        ('("buy", deck), deck ship, tech, planet', [("buy", t) for t in aa.TYPE_NAMES]),
        ('("deck", deck), deck as above', [("deck", t) for t in aa.TYPE_NAMES]),
        (
            '("play_artifact", artifact), AR01-AR14',
            [("play_artifact", a) for a in aa.ARTIFACT_NAMES],
        ),
        ('("keep", artifact), AR01-AR14', [("keep", a) for a in aa.ARTIFACT_NAMES]),
        (
            '("faction", code), ' + ", ".join(aa.FACTION_NAMES),
            [("faction", f) for f in aa.FACTION_NAMES],
        ),
        ('("side", side), logistic, operative', [("side", "logistic"), ("side", "operative")]),
        ("(" + "), (".join(f'"{w}",' for w in _WORDS) + ")", [(w,) for w in _WORDS]),
        ("(" + "), (".join(f'"{w}",' for w in _WORDS2) + ")", [(w,) for w in _WORDS2]),
        (
            '("target", "alien", slot), slot 0-2',
            [("target", "alien", s) for s in range(aa.DISPLAY_SIZE)],
        ),
        (f'("take", i), i 0-{n - 1}', [("take", i) for i in range(n)]),
        (f'("discard", i), i 0-{n - 1}', [("discard", i) for i in range(n)]),
        (f'("quartermaster", i), i 0-{n - 1}', [("quartermaster", i) for i in range(n)]),
        (
            f'("add", "hand", i, half): i 0-{n - 1} times half top, bottom, half fastest',
            [("add", "hand", i, h) for i in range(n) for h in aa.HALF_NAMES],
        ),
        (
            f'("add", "store", i, half): i 0-{n - 1} times half top, bottom, half fastest',
            [("add", "store", i, h) for i in range(n) for h in aa.HALF_NAMES],
        ),
        (
            '("target", "player", seat), seat 0 to players - 1 (never your own)',
            [("target", "player", q) for q in range(players)],
        ),
    ]


_BUILDERS = {"cosmic_run": _cosmic_run, "alien_artifacts": _alien_artifacts}
_TABLES: dict[tuple[str, int], ActionTable] = {}


def action_table(game: str, players: int) -> ActionTable:
    """The action space of ``game`` (a registered name) for ``players`` seats."""
    key = (game, players)
    table = _TABLES.get(key)
    if table is not None:
        return table
    rules = get(game)
    if not rules.min_players <= players <= rules.max_players:
        raise ValueError(
            f"{rules.title} takes {rules.min_players} to {rules.max_players} players, not {players}"
        )
    actions: list[Action] = []
    blocks: list[Block] = []
    for text, group in _BUILDERS[game](players):
        blocks.append(Block(len(actions), len(group), text))
        actions.extend(group)
    index = {action: i for i, action in enumerate(actions)}
    assert len(index) == len(actions), "an action listed twice"
    table = ActionTable(game, players, tuple(actions), tuple(blocks), index)
    _TABLES[key] = table
    return table


# --- observations and masks (numpy) -------------------------------------------------------------

ENCODERS: dict[str, ModuleType] = {
    "cosmic_run": cr_encoding,
    "alien_artifacts": aa_encoding,
}
"""Each game's observation encoder: a module with ``LAYOUT``, ``SIZE`` and ``encode``."""


def numpy() -> ModuleType:
    """numpy, imported now; an ImportError naming the research extra if it is not installed."""
    try:
        import numpy
    except ImportError as error:
        raise ImportError(
            f"the observation vectors need numpy, part of the research extra: {RESEARCH_EXTRA} "
            f"({error})"
        ) from error
    return numpy


def layout(game: str) -> Layout:
    """The observation layout of ``game`` (the same at every player count)."""
    get(game)  # an unknown name raises UnknownGame
    found: Layout = ENCODERS[game].LAYOUT
    return found


class Encoder:
    """One game and player count's observation vectors and action masks (numpy)."""

    def __init__(self, game: str, players: int) -> None:
        self.np = numpy()
        self.table: ActionTable = action_table(game, players)
        module = ENCODERS[game]
        self.game = game
        self.players = players
        self.layout: Layout = module.LAYOUT
        self.size: int = module.SIZE
        self._encode: Callable[[View, np.ndarray], None] = module.encode
        self._encode_state: Callable[[Any, int, np.ndarray], None] | None = getattr(
            module, "encode_state", None
        )
        self._state_type: type | None = getattr(module, "STATE_TYPE", None)
        self._count = len(self.table)

    def encode(self, view: View) -> np.ndarray:
        """The observation vector (float32) of ``view``, one seat's view."""
        out = self.np.zeros(self.size, dtype=self.np.float32)
        self._encode(view, out)
        return out

    def encode_into(self, view: View, out: np.ndarray) -> None:
        """Write the observation vector of ``view`` into ``out``, which must be all 0."""
        self._encode(view, out)

    def encode_state(self, state: State, seat: int) -> np.ndarray:
        """The observation vector of ``seat`` in ``state``: the same as
        ``encode(state.view(seat))``, made from the engine's state directly when the game's
        encoder can (quicker: no view is built)."""
        out = self.np.zeros(self.size, dtype=self.np.float32)
        self.encode_state_into(state, seat, out)
        return out

    def encode_state_into(self, state: State, seat: int, out: np.ndarray) -> None:
        """Write the observation vector of ``seat`` in ``state`` into ``out`` (all 0)."""
        direct, kind = self._encode_state, self._state_type
        if direct is not None and kind is not None and type(state) is kind:
            direct(state, seat, out)
        else:
            self._encode(state.view(seat), out)

    def indexes(self, actions: Iterable[Action]) -> list[int]:
        """The integers of ``actions`` (engine action tuples), in their order."""
        index = self.table.index
        return [index[tuple(action)] for action in actions]

    def mask(self, legal: Sequence[Action] = ()) -> np.ndarray:
        """The action mask (int8): 1 for each of the ``legal`` actions, 0 elsewhere."""
        flags = bytearray(self._count)  # then viewed as int8: quicker than numpy's own writes
        index = self.table.index
        try:
            for action in legal:
                flags[index[action]] = 1
        except TypeError:  # lists (from the network), not tuples
            for action in legal:
                flags[index[tuple(action)]] = 1
        return self.np.frombuffer(flags, dtype=self.np.int8)

    def action(self, number: Any) -> Action:
        """The engine action of integer ``number``; IndexError or TypeError if it is none."""
        if isinstance(number, bool) or not isinstance(number, int | self.np.integer):
            raise TypeError(f"an action is an integer, not {type(number).__name__}")
        if not 0 <= number < len(self.table):
            raise IndexError(f"action {number} is not in 0-{len(self.table) - 1}")
        return self.table.actions[int(number)]
