"""Setting up a game of Cosmic Run (§2.2): Infodere tokens, the meteor deck, the aliens.

Nothing here starts a turn: :func:`.rules.start_game` deals with :func:`deal`, then starts seat
0's first turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.api import Event
from games.cosmic_run.data import (
    ALIENS,
    INFODERE_VALUES,
    MISS,
    MISS_CARDS_USED,
    START_CRYSTALS,
    START_VP,
    STRIKE_CARDS,
)

if TYPE_CHECKING:
    from games.cosmic_run.state import CosmicRunState


def deal(st: CosmicRunState) -> list[Event]:
    """Deal the board in the spec's order of randomness, with the starting crystals and VP;
    returns the ``setup`` event."""
    rng = st.rng
    n = st.n
    values = list(INFODERE_VALUES)
    rng.shuffle(values)
    st.board_tokens = values[:10]
    st.box = values[10:]
    deck = list(range(len(STRIKE_CARDS))) + [MISS] * MISS_CARDS_USED[n]
    rng.shuffle(deck)
    st.meteor_deck = deck
    aliens = list(range(len(ALIENS)))
    rng.shuffle(aliens)
    st.alien_deck = aliens
    st.row = [aliens.pop() for _ in range(4)]
    st.crystals = list(START_CRYSTALS[:n])
    st.vp = list(START_VP[n])
    return [{"type": "setup", "players": n, "row": [ALIENS[a].id for a in st.row]}]
