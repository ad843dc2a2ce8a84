"""Build a full state from one seat's view, sampling every hidden part uniformly (§11 note).

Hidden cards are sampled per kind (resource, defence, artifact) and per deck generation: every
card of a generation's pool goes to a hidden slot of that generation, uniformly among the
assignments that respect the harvest knowledge of store slots (:func:`assign`). Market decks and
the alien deck are shuffled into their unknown positions.

:func:`determinize` reads the view in named steps, and draws from its generator in one fixed
order (resources, market decks, alien deck, defence plans, artifacts, then resources again while
a paying opponent could not finish): one view and seed always give the same state.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from games.alien_artifacts import codes as k
from games.alien_artifacts import data as d
from games.alien_artifacts import legal
from games.alien_artifacts.codes import PUBLIC
from games.alien_artifacts.state import AlienArtifactsState
from games.api import View

_MAX_TRIES = 100_000


def assign(
    rng: random.Random, cards: list[int], allowed: list[int], symbol_of: tuple[int, ...]
) -> list[int]:
    """A uniformly random bijection cards -> slots; ``allowed[i]`` is slot i's symbol bitmask.

    Slots with every symbol allowed (15) are unconstrained. Constrained slots pick a symbol with
    probability proportional to the number of completions, then a card of that symbol.
    """
    if len(cards) != len(allowed):
        raise ValueError(f"view inconsistent: {len(cards)} hidden cards for {len(allowed)} slots")
    out = [-1] * len(allowed)
    constrained = [i for i, m in enumerate(allowed) if m != 15]
    by_sym: list[list[int]] = [[], [], [], []]
    for c in cards:
        by_sym[symbol_of[c]].append(c)
    if constrained:
        masks = tuple(allowed[i] for i in constrained)

        @cache
        def count(j: int, c0: int, c1: int, c2: int, c3: int) -> int:
            if j == len(masks):
                return 1
            m = masks[j]
            total = 0
            counts = (c0, c1, c2, c3)
            for y in range(4):
                if m >> y & 1 and counts[y]:
                    nxt = list(counts)
                    nxt[y] -= 1
                    total += counts[y] * count(j + 1, *nxt)
            return total

        counts = [len(x) for x in by_sym]
        if count(0, *counts) == 0:
            raise ValueError("view inconsistent: no card fits the harvest knowledge")
        for j, slot in enumerate(constrained):
            weights = []
            for y in range(4):
                if masks[j] >> y & 1 and counts[y]:
                    nxt = counts[:]
                    nxt[y] -= 1
                    weights.append((y, counts[y] * count(j + 1, *nxt)))
            total = sum(w for _, w in weights)
            pick = rng.randrange(total)
            y = weights[-1][0]
            for y_, w in weights:
                if pick < w:
                    y = y_
                    break
                pick -= w
            pool = by_sym[y]
            out[slot] = pool.pop(rng.randrange(len(pool)))
            counts[y] -= 1
    rest = by_sym[0] + by_sym[1] + by_sym[2] + by_sym[3]
    rest.sort()
    rng.shuffle(rest)
    it = iter(rest)
    for i in range(len(out)):
        if out[i] < 0:
            out[i] = next(it)
    return out


class _Slots:
    """Hidden slots of one card kind, grouped by generation, filled after sampling."""

    def __init__(self) -> None:
        self.slots: dict[int, list[tuple[Any, int, int]]] = {}

    def add(self, gen: int, target: Any, index: int, allowed: int = 15) -> None:
        self.slots.setdefault(gen, []).append((target, index, allowed))

    def fill(
        self,
        rng: random.Random,
        pools: list[list[Any]],
        ids: dict[str, int],
        symbol_of: tuple[int, ...],
    ) -> dict[int, list[int]]:
        """Sample; returns per generation the cards placed, and writes them into the targets."""
        pool_by_gen = {int(g): [ids[x] for x in names] for g, names in pools}
        if set(pool_by_gen) - set(self.slots) or any(
            len(pool_by_gen.get(g, [])) != len(s) for g, s in self.slots.items()
        ):
            raise ValueError("view inconsistent: hidden pools do not match hidden slots")
        placed: dict[int, list[int]] = {}
        for g in sorted(self.slots):
            slots = self.slots[g]
            cards = assign(rng, pool_by_gen.get(g, []), [s[2] for s in slots], symbol_of)
            for (target, index, _), c in zip(slots, cards, strict=True):
                target[index] = c
            placed[g] = cards
        return placed


class _Hidden:
    """What the view hides, gathered while it is read: the slots to fill per card kind, the
    harvest knowledge of other seats' store slots, and the artifacts the seat knows by name."""

    __slots__ = ("artifacts", "defences", "harvest", "known_artifacts", "resources")

    def __init__(self) -> None:
        self.resources = _Slots()
        self.defences = _Slots()
        self.artifacts = _Slots()
        self.harvest: list[tuple[list[int], int, int]] = []  # (store, index, rharv code)
        self.known_artifacts: list[tuple[list[int], int]] = []  # (artifact list, index)


def determinize(view: View, seat: int | None, seed: int) -> AlienArtifactsState:
    """A full state consistent with ``view``, ``seat``'s view (None: a spectator's), with every
    hidden part sampled uniformly by a generator seeded with ``seed``.

    Raises ValueError if the view is inconsistent: its hidden pools do not fit its hidden slots,
    or a paying opponent could not finish its payment with any cards the pools allow.
    """
    rng = random.Random(seed)
    st = AlienArtifactsState(int(view["players"]), random.Random(rng.getrandbits(64)))
    me = -1 if seat is None else seat
    bit = 0 if seat is None else 1 << seat
    hidden = _Hidden()
    _read_seats(st, view, me, hidden)
    _read_resource_piles(st, view, hidden)
    pools = view["pools"]
    _sample_resources(st, rng, pools, hidden)
    st.round = view["round"]
    st.final = view["final_phase"]
    _read_market(st, view, rng, seat, bit)
    _read_aliens(st, view, rng)
    _read_defence(st, view, rng, hidden)
    _read_artifacts(st, view, rng, hidden, bit)
    _read_turn(st, view)
    _read_pending(st, view)
    st._legal = None
    if st.phase == k.PAY and st.cur != me:
        _let_the_payer_finish(st, rng, pools, hidden)
    return st


# --- the seats -----------------------------------------------------------------------------------


def _read_seats(st: AlienArtifactsState, view: View, me: int, hidden: _Hidden) -> None:
    """Factions, then per seat: VP, credits, cards in hand, store, artifact hand and defence
    plan (``me``'s by name, the others' as hidden slots), projects and empire."""
    seats = view["seats"]
    st.factions = [d.FACTION_INDEX[s["faction"]] if s["faction"] is not None else -1 for s in seats]
    st.free_factions = [d.FACTION_INDEX[f] for f in view["free_factions"]]
    for p, s in enumerate(seats):
        st.vp[p] = s["vp"]
        st.credits[p] = s["credits"]
        st.gained[p] = s["gained"]
        if p == me:
            _read_own_cards(st, p, s)
        else:
            _read_hidden_cards(st, p, s, hidden)
        _read_built(st, p, s)


def _read_own_cards(st: AlienArtifactsState, p: int, s: dict[str, Any]) -> None:
    """The viewing seat's hand, store, artifacts and defence plan, all named in its view."""
    st.hand[p].extend(d.RESOURCE_INDEX[x] for x in s["hand"])
    st.store[p].extend(d.RESOURCE_INDEX[x] for x in s["store"])
    st.arts[p].extend(d.ARTIFACT_INDEX[x] for x in s["artifacts"])
    st.plan[p] = d.DEFENCE_INDEX[s["defence"]] if s["defence"] is not None else -1


def _read_hidden_cards(st: AlienArtifactsState, p: int, s: dict[str, Any], hidden: _Hidden) -> None:
    """Another seat's hand, store, artifacts and defence plan: a hidden slot per card, tagged
    with its generation (a store slot also with its harvest knowledge); artifacts the viewing
    seat knows are placed by name."""
    hand = st.hand[p]
    hand.extend([-1] * len(s["hand"]))
    for i, g in enumerate(s["hand"]):
        hidden.resources.add(g, hand, i)
    store = st.store[p]
    store.extend([-1] * len(s["store"]))
    for i, (g, sym, hit) in enumerate(s["store"]):
        code, allowed = _harvest_knowledge(sym, hit)
        hidden.resources.add(g, store, i, allowed)
        hidden.harvest.append((store, i, code))
    arts = st.arts[p]
    arts.extend([-1] * len(s["artifacts"]))
    for i, x in enumerate(s["artifacts"]):
        if isinstance(x, str):
            arts[i] = d.ARTIFACT_INDEX[x]
            hidden.known_artifacts.append((arts, i))
        else:
            hidden.artifacts.add(x, arts, i)
    if s["defence"] is not None:
        hidden.defences.add(s["defence"], st.plan, p)


def _harvest_knowledge(sym: str | None, hit: bool) -> tuple[int, int]:
    """A store slot's ``rharv`` code and the bitmask of symbols its card may show (15: any)."""
    if sym is None:
        return 0, 15
    y = d.SYMBOL_INDEX[sym]
    code = (y + 1) * (1 if hit else -1)
    return code, (1 << y if hit else 15 & ~(1 << y))


def _read_built(st: AlienArtifactsState, p: int, s: dict[str, Any]) -> None:
    """A seat's projects (with deposits and the cards under them) and its empire, all public."""
    for pr in s["projects"]:
        st.proj[p].append(d.MARKET_INDEX[pr["card"]])
        st.pdep[p].append(pr["deposit"])
        st.pcards[p].append([d.RESOURCE_INDEX[x] for x in pr["cards"]])
    for name, side in s["empire"]:
        c = d.MARKET_INDEX[name]
        st.empire[p].append(c)
        if side == "logistic":
            st.lmask[p] |= 1 << c
        else:
            st.omask[p] |= 1 << c


# --- decks and piles -----------------------------------------------------------------------------


def _read_resource_piles(st: AlienArtifactsState, view: View, hidden: _Hidden) -> None:
    """The resource deck (every card a hidden slot of the current generation) and discard."""
    st.gen = view["deck"]["gen"]
    st.deck = [-1] * view["deck"]["count"]
    for i in range(len(st.deck)):
        hidden.resources.add(st.gen, st.deck, i)
    st.discard = [d.RESOURCE_INDEX[x] for x in view["discard"]]


def _sample_resources(
    st: AlienArtifactsState, rng: random.Random, pools: dict[str, Any], hidden: _Hidden
) -> None:
    """Deal the hidden resource cards to their slots; set their generations and harvest codes."""
    placed = hidden.resources.fill(rng, pools["resource"], d.RESOURCE_INDEX, d.RESOURCE_SYMBOL)
    for g, cards in placed.items():
        for c in cards:
            st.rgen[c] = g
    for store, i, code in hidden.harvest:
        st.rharv[store[i]] = code


def _read_market(
    st: AlienArtifactsState, view: View, rng: random.Random, seat: int | None, bit: int
) -> None:
    """Market decks: known positions stay, the rest are shuffled from the pool."""
    for t, name in enumerate(d.TYPE_NAMES):
        entries = view["market"][name]
        unknown = [d.MARKET_INDEX[x] for x in view["pools"]["market"][name]]
        rng.shuffle(unknown)
        it = iter(unknown)
        deck = []
        for i, x in enumerate(entries):
            if x is None:
                deck.append(next(it))
            else:
                c = d.MARKET_INDEX[x]
                deck.append(c)
                st.mknown[c] = PUBLIC if i == 0 or seat is None else bit
        st.market[t] = deck


def _read_aliens(st: AlienArtifactsState, view: View, rng: random.Random) -> None:
    """The alien display and discard; the deck shuffled from the pool."""
    al = view["aliens"]
    st.display = [d.ALIEN_INDEX[x] if x is not None else -1 for x in al["display"]]
    st.alien_deck = [d.ALIEN_INDEX[x] for x in view["pools"]["aliens"]]
    rng.shuffle(st.alien_deck)
    st.alien_discard = [d.ALIEN_INDEX[x] for x in al["discard"]]


def _read_defence(st: AlienArtifactsState, view: View, rng: random.Random, hidden: _Hidden) -> None:
    """Defence plans: the deck and the other seats' plans are sampled, the discard is public."""
    dv = view["defence"]
    st.dgen_cur = dv["gen"]
    st.ddeck = [-1] * dv["deck_count"]
    for i in range(len(st.ddeck)):
        hidden.defences.add(st.dgen_cur, st.ddeck, i)
    st.ddiscard = [d.DEFENCE_INDEX[x] for x in dv["discard"]]
    placed = hidden.defences.fill(
        rng, view["pools"]["defence"], d.DEFENCE_INDEX, (0,) * d.N_DEFENCES
    )
    for g, cards in placed.items():
        for x in cards:
            st.dgen[x] = g


def _read_artifacts(
    st: AlienArtifactsState, view: View, rng: random.Random, hidden: _Hidden, bit: int
) -> None:
    """Artifacts: the deck (the view lists it top first; the state keeps the top last), the
    T08 pair being chosen from, and the others' hands, sampled together per generation."""
    av = view["artifact_deck"]
    st.agen_cur = av["gen"]
    top_first: list[int] = [-1] * len(av["cards"])
    for i, x in enumerate(av["cards"]):
        if isinstance(x, str):
            top_first[i] = d.ARTIFACT_INDEX[x]
            hidden.known_artifacts.append((top_first, i))
        else:
            hidden.artifacts.add(x, top_first, i)
    pend = view["pending"]
    keep: list[int] = [-1] * len(pend["keep"])
    for i, x in enumerate(pend["keep"]):
        if isinstance(x, str):
            keep[i] = d.ARTIFACT_INDEX[x]
        else:
            hidden.artifacts.add(x, keep, i)
    placed = hidden.artifacts.fill(
        rng, view["pools"]["artifact"], d.ARTIFACT_INDEX, (0,) * d.N_ARTIFACTS
    )
    for g, cards in placed.items():
        for a in cards:
            st.agen[a] = g
    for target, i in hidden.known_artifacts:
        st.aknown[target[i]] = bit
    st.adeck = top_first[::-1]
    st.adiscard = [d.ARTIFACT_INDEX[x] for x in av["discard"]]
    st.keep = keep


# --- the turn ------------------------------------------------------------------------------------


def _read_turn(st: AlienArtifactsState, view: View) -> None:
    """The decision, whose it is, the turn count and the flags of the turn in progress."""
    st.phase = d.PHASE_INDEX[view["phase"]]
    cur = view["current_player"]
    st.cur = cur if cur is not None else st.n - 1
    st.turns = view["turn"]
    ts = view["turn_state"]
    st.ctx = d.CONTEXT_INDEX[ts["context"]]
    st.art_played = ts["artifact_played"]
    st.playing = d.ARTIFACT_INDEX[ts["playing"]] if ts["playing"] is not None else -1
    st.qm_used = ts["quartermaster_used"]
    for name in ts["attacked"]:
        st.attacked |= 1 << d.MARKET_INDEX[name]
    st.overdrive = ts["overdrive"]
    st.converter = ts["converter"]
    st.passed = ts["passed"]
    st.disc_n = ts["discarded"]
    st.disc_floor = ts["discard_floor"]


def _read_pending(st: AlienArtifactsState, view: View) -> None:
    """The pending decision's data: the payment, the side choice, the buy, the attacks due and
    the Star Chart look (the T08 pair is read with the artifacts)."""
    pend = view["pending"]
    st.pay_kind = d.KIND_INDEX[pend["pay_action"]] if pend["pay_action"] is not None else -1
    st.pay_proj = d.MARKET_INDEX[pend["pay_project"]] if pend["pay_project"] is not None else -1
    st.pay_req = pend["pay_requirement"]
    st.pay_val = pend["pay_value"]
    st.pay_col = d.COLOUR_INDEX[pend["pay_colour"]] if pend["pay_colour"] is not None else -1
    st.pay_limit = pend["pay_limit"]
    st.pay_floor = pend["pay_floor"]
    st.paying = [d.RESOURCE_INDEX[c] * 2 + d.HALF_INDEX[h] for c, h in pend["paid"]]
    st.side_card = d.MARKET_INDEX[pend["side_card"]] if pend["side_card"] is not None else -1
    st.buy_type = d.TYPE_INDEX[pend["buy_deck"]] if pend["buy_deck"] is not None else -1
    st.buy_n = pend["buy_revealed"]
    st.attacker = d.MARKET_INDEX[pend["attacker"]] if pend["attacker"] is not None else -1
    st.queue = [d.MARKET_INDEX[x] for x in pend["queue"]]
    st.chart_type = d.TYPE_INDEX[pend["chart_deck"]] if pend["chart_deck"] is not None else -1
    st.chart_n = pend["chart_count"]


def _let_the_payer_finish(
    st: AlienArtifactsState, rng: random.Random, pools: dict[str, Any], hidden: _Hidden
) -> None:
    """Another seat is paying: it can always finish (§12.3), so its hidden cards can. Sampling
    the resources again until that holds is uniform over the worlds consistent with the view."""
    for _ in range(_MAX_TRIES):
        if legal.legal_actions(st):
            return
        _sample_resources(st, rng, pools, hidden)
    raise ValueError("view inconsistent: the paying seat could not finish its payment")
