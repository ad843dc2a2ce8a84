"""Setting up a game (§2): the factions option, the factions, and the deal.

Nothing here starts a turn: :func:`.rules.start_game` puts these steps together and starts
seat 0's first turn once every seat has a faction.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from games.alien_artifacts import codes as k
from games.alien_artifacts import data as d
from games.alien_artifacts import mechanics
from games.alien_artifacts.codes import PUBLIC
from games.api import Event

if TYPE_CHECKING:
    from games.alien_artifacts.state import AlienArtifactsState

OPTIONS_DOC = (
    'options: {"factions": "random" (default) | "choice" | a list of faction codes, one per seat '
    f"({', '.join(d.FACTION_NAMES)})}}"
)


def parse_factions(players: int, options: Mapping[str, Any] | None) -> str | list[int]:
    """Validate ``options``; returns "random", "choice" or the fixed faction per seat."""
    if options is None:
        return "random"
    if not isinstance(options, Mapping):
        raise ValueError(f"options must be a mapping, not {options!r}; {OPTIONS_DOC}")
    unknown = sorted(set(options) - {"factions"})
    if unknown:
        raise ValueError(f"unknown Alien Artifacts option(s) {unknown!r}; {OPTIONS_DOC}")
    value = options.get("factions", "random")
    if value in ("random", "choice"):
        return str(value)
    if isinstance(value, list | tuple):
        ids = []
        for name in value:
            if name not in d.FACTION_NAMES:
                raise ValueError(f"unknown faction {name!r}; {OPTIONS_DOC}")
            ids.append(d.FACTION_INDEX[name])
        if len(ids) != players or len(set(ids)) != players:
            raise ValueError(f"factions must name {players} different factions; {OPTIONS_DOC}")
        return ids
    raise ValueError(f"invalid factions option {value!r}; {OPTIONS_DOC}")


def offer_factions(st: AlienArtifactsState) -> None:
    """The "choice" variant (§2.1 step 2): free choice in reverse seat order, seat N-1 first."""
    st.free_factions = list(range(len(d.FACTION_NAMES)))
    st.phase = k.CHOOSE_FACTION
    st.cur = st.n - 1
    st._legal = None


def give_factions(st: AlienArtifactsState, factions: str | list[int]) -> None:
    """A faction per seat: ``"random"`` draws them with the state's generator, else as given."""
    if factions == "random":
        st.factions = st.random().sample(range(len(d.FACTION_NAMES)), st.n)
    else:
        assert isinstance(factions, list)
        st.factions = list(factions)


def deal(st: AlienArtifactsState, ev: list[Event]) -> None:
    """§2.1 steps 3-11, once every seat has a faction: market, aliens, defence plans, artifacts,
    starting cards and credits, projects, hands and the Community's store."""
    rng = st.random()
    n = st.n
    starting = {d.FACTION_START[f][0] for f in st.factions}
    for t in range(3):
        deck = [c for c in range(16 * t, 16 * t + 16) if c not in starting]
        rng.shuffle(deck)
        st.market[t] = deck
        st.mknown[deck[0]] = PUBLIC
    aliens = list(range(d.N_ALIENS))
    rng.shuffle(aliens)
    st.display = [aliens.pop() for _ in range(d.DISPLAY_SIZE)]
    st.alien_deck = aliens
    plans = list(range(d.N_DEFENCES))
    rng.shuffle(plans)
    st.ddeck = plans
    st.plan = [plans.pop() for _ in range(n)]
    arts = list(range(d.N_ARTIFACTS))
    rng.shuffle(arts)
    st.adeck = arts
    for p in range(n):
        card, side, _ = d.FACTION_START[st.factions[p]]
        st.credits[p] = d.STARTING_CREDITS
        mechanics.add_to_empire(st, p, card, side)
    for p in range(n):
        for t in d.FACTION_START[st.factions[p]][2]:
            deck = st.market[t]
            card = deck.pop(0)
            st.mknown[card] = PUBLIC
            mechanics.add_project(st, p, card)
            if deck:
                st.mknown[deck[0]] = PUBLIC
    deck = list(range(d.N_RESOURCES))
    rng.shuffle(deck)
    st.deck = deck
    for p in range(n):
        for _ in range(d.HAND_SIZE):
            st.hand[p].append(deck.pop())
    for p in range(n):
        if st.factions[p] == d.COM:
            mechanics.produce(st, p, d.P01, d.COMMUNITY_SETUP_STORE, ev, harvest=False)
    st.round = 1
