"""Building Cosmic Run positions for scenario tests.

Tests set up a position by writing the engine's plain fields (see
``games/cosmic_run/state.py``), then play actions through the public ``apply`` and check the
outcome. ``Dice`` replaces the state's generator so every later roll is scripted.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import games
from games.cosmic_run.codes import ASSIGN, BOOST, TARGET_INDEX, UNASSIGNED
from games.cosmic_run.data import ALIEN_INDEX
from games.cosmic_run.state import CosmicRunState
from games.rng import Rng

GAME = games.get("cosmic_run")


class Dice:
    """A scripted generator: ``die()`` returns the queued values in order, then seeded ones."""

    def __init__(self, values: Iterable[int] = (), then: Rng | None = None) -> None:
        self.values = list(values)
        self.then = then or Rng(0)

    def die(self) -> int:
        if not self.values:
            return self.then.die()
        return self.values.pop(0)

    def copy(self) -> Dice:
        return Dice(self.values, self.then.copy())

    def shuffle(self, items: list[Any]) -> None:  # deterministic: no shuffling at all
        pass


def new(players: int = 2, seed: int = 0) -> CosmicRunState:
    state = GAME.new(players=players, seed=seed)
    assert isinstance(state, CosmicRunState)
    return state


def touch(state: CosmicRunState) -> CosmicRunState:
    """Forget the cached legal list after a test wrote fields directly."""
    state._legal = None
    state._public = None
    return state


def alien(alien_id: str) -> int:
    return ALIEN_INDEX[alien_id]


def at_roll(
    state: CosmicRunState,
    dice: Iterable[int],
    *,
    seat: int | None = None,
    later: Iterable[int] = (),
    row: Iterable[str | None] | None = None,
    free: tuple[int, int, int] = (0, 0, 0),
) -> CosmicRunState:
    """Put ``state`` at an ASSIGN decision right after a roll showing ``dice`` (6 values).

    ``later`` scripts every die rolled afterwards; ``row`` sets the alien row by id.
    """
    values = list(dice)
    assert len(values) == 6
    if seat is not None:
        state.turn = seat
    state.phase = ASSIGN
    state.dice = values
    state.loc = [UNASSIGNED] * 6
    state.assigned_since_roll = False
    state.free = list(free)
    state.rng = Dice(later)  # type: ignore[assignment]
    if row is not None:
        state.row = [-1 if a is None else alien(a) for a in row]
    return touch(state)


def give(state: CosmicRunState, seat: int, *alien_ids: str) -> CosmicRunState:
    """``seat`` holds these aliens (taken out of the deck and row if they are there)."""
    for alien_id in alien_ids:
        index = alien(alien_id)
        if index in state.alien_deck:
            state.alien_deck.remove(index)
        state.row = [-1 if a == index else a for a in state.row]
        state.held[seat].append(index)
    return touch(state)


def put(state: CosmicRunState, *placements: tuple[int, str]) -> list[dict[str, Any]]:
    """Assign dice through ``apply``: ``put(s, (0, "P2"), (5, "T"))``; returns all events."""
    events: list[dict[str, Any]] = []
    for die, target in placements:
        events += state.apply(("assign", die, target))
    return events


def place(state: CosmicRunState, die: int, target: str) -> CosmicRunState:
    """Lay a die on a location directly (no legality check): for positions mid-turn."""
    state.loc[die] = TARGET_INDEX[target]
    return touch(state)


def types(events: list[dict[str, Any]]) -> list[str]:
    return [event["type"] for event in events]


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [event for event in events if event["type"] == kind]


def play_random(state: CosmicRunState, seed: int, steps: int = 10**6) -> CosmicRunState:
    import random

    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def finish(state: CosmicRunState) -> list[dict[str, Any]]:
    """Decline a pending Boost (if any), so phase 3 runs on; returns the events."""
    events: list[dict[str, Any]] = []
    if state.phase == BOOST:
        events += state.apply(("pass",))
    return events


def turn(state: CosmicRunState, *placements: tuple[int, str]) -> list[dict[str, Any]]:
    """``put`` the placements, then decline a Boost if one is offered; returns all events."""
    events = put(state, *placements)
    return events + finish(state)


# --- additions for the §9 rulings and alien tests (append-only) ---------------------------------


def next_card(state: CosmicRunState, card_id: str) -> CosmicRunState:
    """The next meteor card turned over is ``card_id`` (``"M01"``-``"M12"`` or ``"X"``).

    The card is moved from inside the deck to its top (appended if it is no longer there).
    """
    from games.cosmic_run.data import METEOR_INDEX

    card = METEOR_INDEX[card_id]
    if card in state.meteor_deck:
        state.meteor_deck.remove(card)
    state.meteor_deck.append(card)
    return state


def calm(state: CosmicRunState) -> CosmicRunState:
    """The next meteor card turned over is a miss card."""
    return next_card(state, "X")


def tech(*dice: int) -> tuple[tuple[int, str], ...]:
    """Placements of these dice on the technology card, for ``put`` / ``turn``."""
    return tuple((die, "T") for die in dice)


def ids(aliens: Iterable[int]) -> list[str]:
    """Alien ids of engine alien indices, sorted: ``ids(state.held[0])``."""
    from games.cosmic_run.data import ALIENS

    return sorted(ALIENS[a].id for a in aliens)


def pass_turn(
    state: CosmicRunState, next_roll: Iterable[int] = (), card: str = "X"
) -> list[dict[str, Any]]:
    """End the active turn with every unassigned die on the technology card.

    The next meteor card is ``card`` (a miss by default); ``next_roll`` scripts the dice rolled
    from then on (solo: the red die comes first). Returns all events, the next turn's included.
    """
    next_card(state, card)
    state.rng = Dice(next_roll)  # type: ignore[assignment]
    events: list[dict[str, Any]] = []
    for die in [d for d in range(6) if state.loc[d] == UNASSIGNED]:
        events += state.apply(("assign", die, "T"))
    return events + finish(state)
