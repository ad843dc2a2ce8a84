"""The mechanics every other module shares: limits, costs, prices, drawing, production, artifacts.

Rule arithmetic and card movement below the turn flow. Everything here takes the state as its
first argument and is used by the turn flow (:mod:`.rules`), set-up (:mod:`.setup`), combat
(:mod:`.combat`), the legal-action lists (:mod:`.legal`) and the labels (:mod:`.labels`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.alien_artifacts import data as d
from games.api import Event

if TYPE_CHECKING:
    from games.alien_artifacts.state import AlienArtifactsState as S

_SHIP_MASK, _TECH_MASK, _PLANET_MASK = d.TYPE_MASK
_BIT_T01, _BIT_T04, _BIT_T05, _BIT_T08, _BIT_T11 = (
    1 << d.T01,
    1 << d.T04,
    1 << d.T05,
    1 << d.T08,
    1 << d.T11,
)
_HALF_COLOUR = d.HALF_COLOUR
_HALF_VALUE = d.HALF_VALUE
_RESOURCE_SYMBOL = d.RESOURCE_SYMBOL
_MARKET_SYMBOL = d.MARKET_SYMBOL


# --- numbers -------------------------------------------------------------------------------------


def limit(st: S, p: int, kind: int) -> int:
    """§5.1: the production limit of action ``kind`` for seat ``p`` right now."""
    lim = d.BASE_LIMIT + d.LOGISTIC_SHIP_LIMIT * (st.lmask[p] & d.SHIPS_NAMING[kind]).bit_count()
    if kind <= d.A_PLANET and st.factions[p] == d.CLO:
        lim += d.CLONE_BUILD_LIMIT
    if st.overdrive:
        lim += d.OVERDRIVE_LIMIT
    return lim


def build_cost(st: S, p: int, t: int) -> int:
    """§6.1: 5 + cards of type ``t`` in the empire - 2 per logistic planet naming it (T11 -1)."""
    lm = st.lmask[p]
    cost = (
        d.BASE_BUILD_COST
        + ((lm | st.omask[p]) & d.TYPE_MASK[t]).bit_count()
        - d.LOGISTIC_PLANET_BUILD_DISCOUNT * (lm & d.PLANETS_DISCOUNTING[t]).bit_count()
    )
    if t == d.PLANET and lm & _BIT_T11:
        cost -= d.PLANET_DISCOUNT_T11
    return cost if cost > 0 else 0


def buy_price(st: S, p: int, t: int) -> int:
    """§5.4: 5 - T05 - 2 for the League - 1 per logistic planet naming the type; floor 2."""
    lm = st.lmask[p]
    price = (
        d.BASE_BUY_PRICE
        - d.LOGISTIC_PLANET_BUY_DISCOUNT * (lm & d.PLANETS_DISCOUNTING[t]).bit_count()
    )
    if lm & _BIT_T05:
        price -= d.BUY_DISCOUNT_T05
    if st.factions[p] == d.LEA:
        price -= d.LEAGUE_BUY_DISCOUNT
    return price if price > d.MIN_BUY_PRICE else d.MIN_BUY_PRICE


def operative_cost(st: S, p: int, kind: int) -> int:
    """§5.7: 5, or 3 for the faction whose cheap action it is."""
    if d.FACTION_CHEAP_ACTION[st.factions[p]] == kind:
        return d.CHEAP_OPERATIVE
    return d.OPERATIVE_COST


def hand_size(st: S, p: int) -> int:
    return d.HAND_SIZE_T04 if st.lmask[p] & _BIT_T04 else d.HAND_SIZE


def colour_values(st: S, p: int, colour: int, start: int = 0) -> list[int]:
    """Symbol counts of ``colour`` halves among usable cards numbered ``start`` or higher."""
    out = []
    hand = st.hand[p]
    nh = len(hand)
    for k, c in enumerate(hand):
        if k >= start:
            hc = _HALF_COLOUR[c]
            if hc[0] == colour:
                out.append(_HALF_VALUE[c][0])
            elif hc[1] == colour:
                out.append(_HALF_VALUE[c][1])
    for k, c in enumerate(st.store[p]):
        if k + nh >= start:
            hc = _HALF_COLOUR[c]
            if hc[0] == colour:
                out.append(_HALF_VALUE[c][0])
            elif hc[1] == colour:
                out.append(_HALF_VALUE[c][1])
    return out


def reachable(values: list[int], slots: int, need: int) -> bool:
    """True if the best ``slots`` of ``values`` sum to at least ``need``."""
    if need <= 0:
        return True
    if slots <= 0 or not values:
        return False
    if len(values) > 1:
        values.sort(reverse=True)
    return sum(values[:slots]) >= need


def can_pay_colour(st: S, p: int, colour: int, cost: int, lim: int) -> bool:
    """A payment of ``cost`` in ``colour`` only (no Gold) within ``lim`` cards exists."""
    return reachable(colour_values(st, p, colour), lim, cost)


# --- drawing (§4.4) ------------------------------------------------------------------------------


def draw(st: S, ev: list[Event]) -> int:
    """Take the top resource card, with §4.4's exhaustion; -1 if nothing can be drawn."""
    deck = st.deck
    if not deck:
        if not st.discard:
            return -1
        _reshuffle(st)
        ev.append({"type": "reshuffle", "deck": len(deck)})
    c = deck.pop()
    if not deck:
        _exhaust(st, ev)
    return c


def _reshuffle(st: S) -> None:
    st.gen += 1
    g = st.gen
    deck = st.deck
    deck.extend(st.discard)
    st.discard.clear()
    rgen = st.rgen
    for c in deck:
        rgen[c] = g
    st.random().shuffle(deck)


def _exhaust(st: S, ev: list[Event]) -> None:
    if st.final:
        return
    if st.round < st.n:
        st.round += 1
        ev.append({"type": "round", "round": st.round})
        if st.discard:
            _reshuffle(st)
    else:
        st.final = True
        ev.append({"type": "final_phase", "seat": st.cur})


def draw_to_hand(st: S, p: int, k: int, ev: list[Event]) -> int:
    """Draw up to ``k`` cards into ``p``'s hand; returns how many arrived."""
    hand = st.hand[p]
    got = 0
    for _ in range(k):
        c = draw(st, ev)
        if c < 0:
            break
        hand.append(c)
        got += 1
    ev.append({"type": "draw", "seat": p, "count": got})
    return got


def refill(st: S, p: int, ev: list[Event]) -> None:
    """§4.1 step 5: draw up to the hand size; never in the final phase (ruling 10)."""
    hand = st.hand[p]
    size = hand_size(st, p)
    got = 0
    while not st.final and len(hand) < size:
        c = draw(st, ev)
        if c < 0:
            break
        hand.append(c)
        got += 1
    if got:
        ev.append({"type": "draw", "seat": p, "count": got})


# --- planets (§6.4) ------------------------------------------------------------------------------


def produce(st: S, p: int, planet: int, k: int, ev: list[Event], harvest: bool = True) -> None:
    """Draw ``k`` cards into ``p``'s store; +2 VP per card matching the planet's symbol."""
    store = st.store[p]
    sym = _MARKET_SYMBOL[planet]
    rharv = st.rharv
    name = d.MARKET_NAMES[planet]
    for _ in range(k):
        c = draw(st, ev)
        if c < 0:
            break
        store.append(c)
        if harvest:
            hit = _RESOURCE_SYMBOL[c] == sym
            # Public knowledge about this store slot: the card has (or lacks) the symbol.
            rharv[c] = sym + 1 if hit else -(sym + 1)
            if hit:
                st.vp[p] += d.HARVEST_VP
            ev.append({"type": "produce", "seat": p, "planet": name, "harvest": hit})
        else:
            rharv[c] = 0
            ev.append({"type": "produce", "seat": p, "planet": name, "harvest": False})


def operative_planets(st: S, p: int) -> list[int]:
    om = st.omask[p]
    return [c for c in st.empire[p] if c >= 32 and om >> c & 1]


def operative_ships(st: S, p: int) -> list[int]:
    om = st.omask[p]
    return [c for c in st.empire[p] if c < 16 and om >> c & 1]


def operative_techs(st: S, p: int) -> list[int]:
    om = st.omask[p]
    return [c for c in st.empire[p] if 16 <= c < 32 and om >> c & 1]


def planet_build_production(st: S, p: int) -> int:
    if st.lmask[p] & _BIT_T01:
        return d.PLANET_BUILD_PRODUCTION_T01
    return d.PLANET_BUILD_PRODUCTION


# --- artifacts (§8.1) ----------------------------------------------------------------------------


def gain_artifact(st: S, p: int, ev: list[Event]) -> None:
    """Gain an artifact; with T08 (logistic) draw two into ``st.keep`` for KEEP_ARTIFACT."""
    adeck = st.adeck
    if not adeck:
        if not st.adiscard:
            st.vp[p] += 1
            ev.append({"type": "artifact_supply_empty", "seat": p, "vp": 1})
            return
        st.agen_cur += 1
        g = st.agen_cur
        adeck.extend(st.adiscard)
        st.adiscard.clear()
        for a in adeck:
            st.agen[a] = g
            st.aknown[a] = 0
        st.random().shuffle(adeck)
        ev.append({"type": "artifact_reshuffle", "deck": len(adeck)})
    if st.lmask[p] & _BIT_T08 and len(adeck) >= 2:
        # Ruling: T08 draws both cards from the deck as it is (no reshuffle between them).
        st.keep = [adeck.pop(), adeck.pop()]
        ev.append({"type": "artifact_draw", "seat": p, "count": 2})
        return
    a = adeck.pop()
    st.arts[p].append(a)
    st.gained[p] += 1
    ev.append({"type": "artifact_gain", "seat": p})


def keep_artifact(st: S, p: int, a: int, ev: list[Event]) -> None:
    """T08: keep ``a`` and put the other drawn card at the bottom of the artifact deck."""
    pair = st.keep
    other = pair[1] if pair[0] == a else pair[0]
    st.keep = []
    st.arts[p].append(a)
    st.gained[p] += 1
    st.adeck.insert(0, other)
    # Only the owner knows which of the two went back; others forget what they knew of both.
    bit = 1 << p
    st.aknown[a] = bit
    st.aknown[other] = bit
    ev.append({"type": "artifact_gain", "seat": p})
    ev.append({"type": "artifact_bottom", "seat": p})


def defence_draw(st: S) -> int:
    """Draw a defence plan, shuffling the defence discard into a new deck first if needed."""
    ddeck = st.ddeck
    if not ddeck:
        st.dgen_cur += 1
        g = st.dgen_cur
        ddeck.extend(st.ddiscard)
        st.ddiscard.clear()
        for x in ddeck:
            st.dgen[x] = g
        st.random().shuffle(ddeck)
    return ddeck.pop()


# --- empire bookkeeping --------------------------------------------------------------------------


def add_to_empire(st: S, p: int, card: int, side: int) -> None:
    st.empire[p].append(card)
    if side == d.LOGISTIC:
        st.lmask[p] |= 1 << card
    else:
        st.omask[p] |= 1 << card


def remove_from_empire(st: S, p: int, card: int) -> None:
    st.empire[p].remove(card)
    bit = ~(1 << card)
    st.lmask[p] &= bit
    st.omask[p] &= bit


def add_project(st: S, p: int, card: int) -> None:
    st.proj[p].append(card)
    st.pdep[p].append(0)
    st.pcards[p].append([])
