"""Build a full state from one seat's view, sampling every hidden part uniformly (§11 note).

Hidden cards are sampled per kind (resource, defence, artifact) and per deck generation: every
card of a generation's pool goes to a hidden slot of that generation, uniformly among the
assignments that respect the harvest knowledge of store slots (:func:`assign`). Market decks and
the alien deck are shuffled into their unknown positions.
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

_R = {name: i for i, name in enumerate(d.RESOURCE_NAMES)}
_M = {name: i for i, name in enumerate(d.MARKET_NAMES)}
_A = {name: i for i, name in enumerate(d.ARTIFACT_NAMES)}
_DP = {name: i for i, name in enumerate(d.DEFENCE_NAMES)}
_AL = {name: i for i, name in enumerate(d.ALIEN_NAMES)}
_F = {name: i for i, name in enumerate(d.FACTION_NAMES)}
_SYM = {name: i for i, name in enumerate(d.SYMBOL_NAMES)}
_T = {name: i for i, name in enumerate(d.TYPE_NAMES)}
_COL = {name: i for i, name in enumerate(d.COLOUR_NAMES)}
_KIND = {
    name: i
    for i, name in enumerate(
        ("ship", "tech", "planet", "trade", "offensive", "income", "mine", "pilgrimage")
    )
}
_CTX = {name: i for i, name in enumerate(k.CTX_NAMES)}
_HALF = {"top": 0, "bottom": 1}
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


def determinize(view: View, seat: int | None, seed: int) -> AlienArtifactsState:
    rng = random.Random(seed)
    n = int(view["players"])
    st = AlienArtifactsState(n, random.Random(rng.getrandbits(64)))
    me = -1 if seat is None else seat
    bit = 0 if seat is None else 1 << seat
    res_slots = _Slots()
    def_slots = _Slots()
    art_slots = _Slots()
    seats = view["seats"]
    st.factions = [_F[s["faction"]] if s["faction"] is not None else -1 for s in seats]
    st.free_factions = [_F[f] for f in view["free_factions"]]
    harv: list[tuple[list[int], int, int]] = []  # (store, index, rharv code)
    art_known: list[tuple[list[int], int]] = []
    for p, s in enumerate(seats):
        st.vp[p] = s["vp"]
        st.credits[p] = s["credits"]
        st.gained[p] = s["gained"]
        hand = st.hand[p]
        store = st.store[p]
        arts = st.arts[p]
        if p == me:
            hand.extend(_R[x] for x in s["hand"])
            store.extend(_R[x] for x in s["store"])
            arts.extend(_A[x] for x in s["artifacts"])
            st.plan[p] = _DP[s["defence"]] if s["defence"] is not None else -1
        else:
            hand.extend([-1] * len(s["hand"]))
            for i, g in enumerate(s["hand"]):
                res_slots.add(g, hand, i)
            store.extend([-1] * len(s["store"]))
            for i, (g, sym, hit) in enumerate(s["store"]):
                code = 0 if sym is None else (_SYM[sym] + 1) * (1 if hit else -1)
                allowed = 15 if sym is None else (1 << _SYM[sym] if hit else 15 & ~(1 << _SYM[sym]))
                res_slots.add(g, store, i, allowed)
                harv.append((store, i, code))
            arts.extend([-1] * len(s["artifacts"]))
            for i, x in enumerate(s["artifacts"]):
                if isinstance(x, str):
                    arts[i] = _A[x]
                    art_known.append((arts, i))
                else:
                    art_slots.add(x, arts, i)
            if s["defence"] is not None:
                def_slots.add(s["defence"], st.plan, p)
        for pr in s["projects"]:
            st.proj[p].append(_M[pr["card"]])
            st.pdep[p].append(pr["deposit"])
            st.pcards[p].append([_R[x] for x in pr["cards"]])
        for name, side in s["empire"]:
            c = _M[name]
            st.empire[p].append(c)
            if side == "logistic":
                st.lmask[p] |= 1 << c
            else:
                st.omask[p] |= 1 << c
    # Resource deck and discard.
    st.gen = view["deck"]["gen"]
    st.deck = [-1] * view["deck"]["count"]
    for i in range(len(st.deck)):
        res_slots.add(st.gen, st.deck, i)
    st.discard = [_R[x] for x in view["discard"]]
    pools = view["pools"]

    def sample_resources() -> None:
        placed = res_slots.fill(rng, pools["resource"], _R, d.RESOURCE_SYMBOL)
        for g, cards in placed.items():
            for c in cards:
                st.rgen[c] = g
        for store, i, code in harv:
            st.rharv[store[i]] = code

    sample_resources()
    st.round = view["round"]
    st.final = view["final_phase"]
    # Market decks: known positions stay, the rest are shuffled from the pool.
    for t, name in enumerate(d.TYPE_NAMES):
        entries = view["market"][name]
        unknown = [_M[x] for x in pools["market"][name]]
        rng.shuffle(unknown)
        it = iter(unknown)
        deck = []
        for i, x in enumerate(entries):
            if x is None:
                deck.append(next(it))
            else:
                c = _M[x]
                deck.append(c)
                st.mknown[c] = PUBLIC if i == 0 or seat is None else bit
        st.market[t] = deck
    al = view["aliens"]
    st.display = [_AL[x] if x is not None else -1 for x in al["display"]]
    st.alien_deck = [_AL[x] for x in pools["aliens"]]
    rng.shuffle(st.alien_deck)
    st.alien_discard = [_AL[x] for x in al["discard"]]
    # Defence plans.
    dv = view["defence"]
    st.dgen_cur = dv["gen"]
    st.ddeck = [-1] * dv["deck_count"]
    for i in range(len(st.ddeck)):
        def_slots.add(st.dgen_cur, st.ddeck, i)
    st.ddiscard = [_DP[x] for x in dv["discard"]]
    for g, cards in def_slots.fill(rng, pools["defence"], _DP, (0,) * 10).items():
        for x in cards:
            st.dgen[x] = g
    # Artifacts: deck (view lists top first; the state keeps top last), others' hands, T08 pair.
    av = view["artifact_deck"]
    st.agen_cur = av["gen"]
    top_first: list[int] = [-1] * len(av["cards"])
    for i, x in enumerate(av["cards"]):
        if isinstance(x, str):
            top_first[i] = _A[x]
            art_known.append((top_first, i))
        else:
            art_slots.add(x, top_first, i)
    pend = view["pending"]
    keep: list[int] = [-1] * len(pend["keep"])
    for i, x in enumerate(pend["keep"]):
        if isinstance(x, str):
            keep[i] = _A[x]
        else:
            art_slots.add(x, keep, i)
    for g, cards in art_slots.fill(rng, pools["artifact"], _A, (0,) * 14).items():
        for a in cards:
            st.agen[a] = g
    for target, i in art_known:
        st.aknown[target[i]] = bit
    st.adeck = top_first[::-1]
    st.adiscard = [_A[x] for x in av["discard"]]
    st.keep = keep
    # Turn and pending decision.
    st.phase = k.PHASE_BY_NAME[view["phase"]]
    cur = view["current_player"]
    st.cur = cur if cur is not None else n - 1
    st.turns = view["turn"]
    ts = view["turn_state"]
    st.ctx = _CTX[ts["context"]]
    st.art_played = ts["artifact_played"]
    st.playing = _A[ts["playing"]] if ts["playing"] is not None else -1
    st.qm_used = ts["quartermaster_used"]
    for name in ts["attacked"]:
        st.attacked |= 1 << _M[name]
    st.overdrive = ts["overdrive"]
    st.converter = ts["converter"]
    st.passed = ts["passed"]
    st.disc_n = ts["discarded"]
    st.disc_floor = ts["discard_floor"]
    st.pay_kind = _KIND[pend["pay_action"]] if pend["pay_action"] is not None else -1
    st.pay_proj = _M[pend["pay_project"]] if pend["pay_project"] is not None else -1
    st.pay_req = pend["pay_requirement"]
    st.pay_val = pend["pay_value"]
    st.pay_col = _COL[pend["pay_colour"]] if pend["pay_colour"] is not None else -1
    st.pay_limit = pend["pay_limit"]
    st.pay_floor = pend["pay_floor"]
    st.paying = [_R[c] * 2 + _HALF[h] for c, h in pend["paid"]]
    st.side_card = _M[pend["side_card"]] if pend["side_card"] is not None else -1
    st.buy_type = _T[pend["buy_deck"]] if pend["buy_deck"] is not None else -1
    st.buy_n = pend["buy_revealed"]
    st.attacker = _M[pend["attacker"]] if pend["attacker"] is not None else -1
    st.queue = [_M[x] for x in pend["queue"]]
    st.chart_type = _T[pend["chart_deck"]] if pend["chart_deck"] is not None else -1
    st.chart_n = pend["chart_count"]
    st._legal = None
    if st.phase == k.PAY and st.cur != me:
        # Another seat is paying: it can always finish (§12.3), so its hidden cards can. Sampling
        # again until that holds is uniform over the worlds consistent with the view.
        for _ in range(_MAX_TRIES):
            if legal.legal_actions(st):
                break
            sample_resources()
        else:
            raise ValueError("view inconsistent: the paying seat could not finish its payment")
    return st
