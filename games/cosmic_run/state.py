"""The Cosmic Run game state: plain ints and lists, a hand-written ``clone``, the contract methods.

The turn flow lives in :mod:`.rules`, the legal lists in :mod:`.legal`, what a seat may see in
:mod:`.views`, action texts in :mod:`.labels`, scores and the ranking in :mod:`.scoring`.
"""

from __future__ import annotations

from typing import Any

from games.api import Action, Event, IllegalAction, View
from games.cosmic_run import labels, legal, rules, scoring, views
from games.cosmic_run.codes import ASSIGN, OPEN, OVER, PHASE_NAMES, UNASSIGNED
from games.rng import Rng

_copy = list.copy


class CosmicRunState:
    """One game of Cosmic Run. Mutated by :meth:`apply`; :meth:`clone` gives a copy."""

    __slots__ = (
        "_legal",
        "_public",
        "alien_deck",
        "assigned_since_roll",
        "board_tokens",
        "box",
        "crystals",
        "dice",
        "discovered",
        "drone",
        "drone_stamp",
        "final",
        "final_round",
        "free",
        "held",
        "hits",
        "loc",
        "meteor_card",
        "meteor_deck",
        "n",
        "next_stamp",
        "phase",
        "pos",
        "retire_slot",
        "retired",
        "rng",
        "round",
        "row",
        "solo",
        "stamp",
        "status",
        "tokens",
        "turn",
        "vp",
    )

    def __init__(self, players: int, rng: Rng) -> None:
        n = players
        self.n = n
        self.solo = n == 1
        self.rng = rng
        self.phase = ASSIGN
        self.turn = 0
        self.round = 1
        self.final_round = False
        self.meteor_deck: list[int] = []
        self.meteor_card = -1  # the card turned over this turn, -1 for none
        self.hits = [0] * 6
        self.status = [OPEN] * 6
        self.pos = [[0] * 6 for _ in range(n)]
        self.drone = [0] * 6 if self.solo else []
        # P6 stacking: a higher stamp lies higher in a stack (arrived later).
        self.stamp = list(range(n))
        self.drone_stamp = n
        self.next_stamp = n + 1
        self.board_tokens = [0] * 10  # value of the token on each marked space; 0 = none
        self.box: list[int] = []  # tokens out of the game, face down
        self.tokens: list[list[int]] = [[] for _ in range(n)]
        self.alien_deck: list[int] = []  # top card last
        self.row = [-1] * 4
        self.retired: list[int] = []
        self.held: list[list[int]] = [[] for _ in range(n)]
        self.crystals = [0] * n
        self.vp = [0] * n
        self.discovered = [0] * n
        self.dice = [1] * 6
        self.loc = [UNASSIGNED] * 6
        self.assigned_since_roll = False
        self.free = [0, 0, 0]  # free Re-roller, Tuner, Flipper uses left this turn
        self.retire_slot = -1
        self.final: dict[str, Any] | None = None
        self._legal: list[Action] | None = None
        self._public: View | None = None  # the public part of every view, until the next change

    # --- the contract -------------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self.phase == OVER else self.turn

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> list[Action]:
        acts = self._legal
        if acts is None:
            acts = self._legal = legal.legal_actions(self)
        return list(acts)

    def apply(self, action: Action) -> list[Event]:
        if isinstance(action, list):
            action = tuple(action)
        acts = self._legal
        if acts is None:
            self.legal_actions()
            acts = self._legal
        assert acts is not None
        if action not in acts:
            raise IllegalAction(self._refusal(action))
        self._legal = None
        self._public = None
        return rules.play(self, action)

    def _refusal(self, action: object) -> str:
        if self.phase == OVER:
            return f"the game is over; {action!r} cannot be played"
        return f"{action!r} is not a legal action now ({PHASE_NAMES[self.phase]} decision)"

    def clone(self) -> CosmicRunState:
        other = CosmicRunState.__new__(CosmicRunState)
        other.rng = self.rng.copy()
        other.n = self.n
        other.solo = self.solo
        other.phase = self.phase
        other.turn = self.turn
        other.round = self.round
        other.final_round = self.final_round
        other.meteor_deck = self.meteor_deck[:]
        other.meteor_card = self.meteor_card
        other.hits = self.hits[:]
        other.status = self.status[:]
        other.pos = list(map(_copy, self.pos))
        other.drone = self.drone[:]
        other.stamp = self.stamp[:]
        other.drone_stamp = self.drone_stamp
        other.next_stamp = self.next_stamp
        other.board_tokens = self.board_tokens[:]
        other.box = self.box[:]
        other.tokens = list(map(_copy, self.tokens))
        other.alien_deck = self.alien_deck[:]
        other.row = self.row[:]
        other.retired = self.retired[:]
        other.held = list(map(_copy, self.held))
        other.crystals = self.crystals[:]
        other.vp = self.vp[:]
        other.discovered = self.discovered[:]
        other.dice = self.dice[:]
        other.loc = self.loc[:]
        other.assigned_since_roll = self.assigned_since_roll
        other.free = self.free[:]
        other.retire_slot = self.retire_slot
        other.final = self.final  # never mutated once set
        other._legal = self._legal  # never mutated: apply replaces it
        other._public = self._public  # likewise
        return other

    def scores(self) -> list[int]:
        if self.final is not None:
            return list(self.final["total"])
        return self.vp[:]

    def ranking(self) -> list[list[int]]:
        return scoring.ranking(self)

    def view(self, seat: int | None) -> View:
        return views.view(self, seat)

    def label(self, action: Action) -> str:
        return labels.label(self, tuple(action))

    def barrier(self, action: Action, after: CosmicRunState | None = None) -> bool:
        """Whether ``action`` cannot be undone: it rolls (a roll, a re-roll, the Drone's red
        die), turns a card (a meteor, a new alien in the row), hands a seat a hidden Infodere
        token, or ends the turn or the game. Placing dice, nudges, flips and a boost that stops
        at a retirement choice with nothing drawn are not barriers."""
        if after is None:  # else the caller has played it already (a server, on a copy)
            after = self.clone()
            after.apply(action)
        return _hidden_fingerprint(self) != _hidden_fingerprint(after)

    def __repr__(self) -> str:
        return (
            f"<CosmicRunState players={self.n} round={self.round} turn={self.turn} "
            f"phase={PHASE_NAMES[self.phase]} scores={self.scores()}>"
        )


def _hidden_fingerprint(st: CosmicRunState) -> tuple[Any, ...]:
    """What changes whenever chance is resolved, something hidden comes to light or the turn
    passes: the generator, the undrawn decks, the tokens taken, whose turn and the phase."""
    return (
        st.rng.getstate(),
        len(st.meteor_deck),
        len(st.alien_deck),
        tuple(map(len, st.tokens)),
        st.turn,
        st.round,
        st.phase == OVER,
    )
