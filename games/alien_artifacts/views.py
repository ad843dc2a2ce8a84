"""What one seat may see (§11), as a plain dict of lists, str, int, bool and None.

Hidden cards are never named. What a seat knows about them is given instead:

- every hidden resource card, defence plan and artifact sits in a *slot* (another seat's hand,
  store, plan or artifact hand, or a deck position) tagged with the **generation** of the deck it
  was drawn from (the initial deck is generation 0; each reshuffle of a discard pile starts the
  next). Draws are public, so these tags are public.
- ``pools`` lists, per generation, which cards are hidden from this seat. A seat with perfect
  memory can work this out itself (a reshuffled deck is exactly the public discard pile it was
  made from), so the list adds no knowledge; it lets :mod:`.determinize` sample exactly.
- a store slot filled by a harvesting planet also shows that planet's symbol and whether the card
  matched it (the harvest VP are public).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.alien_artifacts import codes as k
from games.alien_artifacts import data as d
from games.alien_artifacts import scoring
from games.api import View

if TYPE_CHECKING:
    from games.alien_artifacts.state import AlienArtifactsState as S

R = d.RESOURCE_NAMES
M = d.MARKET_NAMES
A = d.ARTIFACT_NAMES


def _names(names: tuple[str, ...], ids: list[int]) -> list[str]:
    return [names[i] for i in ids]


def harvest_entry(code: int) -> list[Any]:
    """[symbol name or None, matched] for a store slot's ``rharv`` code."""
    if code == 0:
        return [None, False]
    return [d.SYMBOL_NAMES[abs(code) - 1], code > 0]


def _group(by_gen: dict[int, list[int]], names: tuple[str, ...]) -> list[list[Any]]:
    return [[g, _names(names, sorted(by_gen[g]))] for g in sorted(by_gen)]


def _add(by_gen: dict[int, list[int]], gen: int, card: int) -> None:
    cards = by_gen.get(gen)
    if cards is None:
        by_gen[gen] = [card]
    else:
        cards.append(card)


class Public:
    """What every view of one state shares, built once per state (views are read-only)."""

    __slots__ = ("alien_pool", "artifact_discard", "common", "others", "pending", "seats")

    def __init__(self, st: S) -> None:
        n = st.n
        over = st.phase == k.OVER
        rgen = st.rgen
        self.seats = [
            {
                "faction": d.FACTION_NAMES[st.factions[p]] if st.factions[p] >= 0 else None,
                "vp": st.vp[p],
                "credits": st.credits[p],
                "hand_count": len(st.hand[p]),
                "store_count": len(st.store[p]),
                "projects": [
                    {"card": M[c], "deposit": st.pdep[p][i], "cards": _names(R, st.pcards[p][i])}
                    for i, c in enumerate(st.proj[p])
                ],
                "empire": [
                    [M[c], "logistic" if st.lmask[p] >> c & 1 else "operative"]
                    for c in st.empire[p]
                ],
                "artifact_count": len(st.arts[p]),
                "gained": st.gained[p],
            }
            for p in range(n)
        ]
        # Seat p's hand, store and defence plan as every other seat sees them.
        self.others = [
            (
                [rgen[c] for c in st.hand[p]],
                [[rgen[c], *harvest_entry(st.rharv[c])] for c in st.store[p]],
                st.dgen[st.plan[p]] if st.plan[p] >= 0 else None,
            )
            for p in range(n)
        ]
        self.alien_pool = _names(d.ALIEN_NAMES, sorted(st.alien_deck))
        self.artifact_discard = _names(A, st.adiscard)
        t = st
        self.pending = {
            "pay_action": d.KIND_NAMES[t.pay_kind] if t.pay_kind >= 0 else None,
            "pay_project": M[t.pay_proj] if t.pay_proj >= 0 else None,
            "pay_requirement": t.pay_req,
            "pay_value": t.pay_val,
            "pay_colour": d.COLOUR_NAMES[t.pay_col] if t.pay_col >= 0 else None,
            "pay_limit": t.pay_limit,
            "pay_floor": t.pay_floor,
            "paid": [[R[x >> 1], d.HALF_NAMES[x & 1]] for x in t.paying],
            "side_card": M[t.side_card] if t.side_card >= 0 else None,
            "buy_deck": d.TYPE_NAMES[t.buy_type] if t.buy_type >= 0 else None,
            "buy_revealed": t.buy_n,
            "attacker": M[t.attacker] if t.attacker >= 0 else None,
            "queue": _names(M, t.queue),
            "chart_deck": d.TYPE_NAMES[t.chart_type] if t.chart_type >= 0 else None,
            "chart_count": t.chart_n,
        }
        self.common = {
            "game": "alien_artifacts",
            "players": n,
            "current_player": None if over else st.cur,
            "is_over": over,
            "scores": st.vp[:],
            "ranking": scoring.ranking(st) if over else None,
            "phase": k.PHASE_NAMES[st.phase],
            "round": st.round,
            "rounds": n,
            "final_phase": st.final,
            "turn": st.turns,
            "free_factions": [d.FACTION_NAMES[f] for f in st.free_factions],
            "deck": {"count": len(st.deck), "gen": st.gen},
            "discard": _names(R, st.discard),
            "aliens": {
                "display": [d.ALIEN_NAMES[x] if x >= 0 else None for x in st.display],
                "deck_count": len(st.alien_deck),
                "discard": _names(d.ALIEN_NAMES, st.alien_discard),
            },
            "defence": {
                "deck_count": len(st.ddeck),
                "gen": st.dgen_cur,
                "discard": _names(d.DEFENCE_NAMES, st.ddiscard),
            },
            "turn_state": {
                "context": k.CTX_NAMES[st.ctx],
                "artifact_played": st.art_played,
                "playing": A[st.playing] if st.playing >= 0 else None,
                "quartermaster_used": st.qm_used,
                "attacked": [M[s] for s in range(16) if st.attacked >> s & 1],
                "overdrive": st.overdrive,
                "converter": st.converter,
                "passed": st.passed,
                "discarded": st.disc_n,
                "discard_floor": st.disc_floor,
            },
        }


def public(st: S) -> Public:
    # Cached with the state's legal list, which every change replaces with a new list (and
    # tests that edit a state directly reset to None): the cache lives exactly as long as the
    # state is unchanged, and a clone, identical when made, shares both.
    legal = st._legal
    cached = st._public
    if legal is not None and cached is not None and cached[0] is legal:
        return cached[1]
    built = Public(st)
    if legal is not None:
        st._public = (legal, built)
    return built


def view(st: S, seat: int | None) -> View:
    shared = public(st)
    n = st.n
    me = -1 if seat is None else seat
    bit = 0 if seat is None else 1 << seat
    seen = k.PUBLIC | bit
    rgen = st.rgen
    agen = st.agen
    aknown = st.aknown
    hidden_res: dict[int, list[int]] = {st.gen: st.deck[:]} if st.deck else {}
    hidden_def: dict[int, list[int]] = {st.dgen_cur: st.ddeck[:]} if st.ddeck else {}
    hidden_art: dict[int, list[int]] = {}
    seats = []
    for p in range(n):
        if p == me:
            hand: list[Any] = _names(R, st.hand[p])
            store: list[Any] = _names(R, st.store[p])
            arts: list[Any] = _names(A, st.arts[p])
            plan: Any = d.DEFENCE_NAMES[st.plan[p]] if st.plan[p] >= 0 else None
        else:
            hand, store, plan = shared.others[p]
            for c in st.hand[p]:
                _add(hidden_res, rgen[c], c)
            for c in st.store[p]:
                _add(hidden_res, rgen[c], c)
            arts = []
            for a in st.arts[p]:
                if aknown[a] & bit:
                    arts.append(A[a])
                else:
                    arts.append(agen[a])
                    _add(hidden_art, agen[a], a)
            if plan is not None:
                _add(hidden_def, plan, st.plan[p])
        seats.append(
            {**shared.seats[p], "hand": hand, "store": store, "artifacts": arts, "defence": plan}
        )
    adeck: list[Any] = []
    for a in reversed(st.adeck):  # top first
        if aknown[a] & bit:
            adeck.append(A[a])
        else:
            adeck.append(agen[a])
            _add(hidden_art, agen[a], a)
    keep: list[Any] = []
    for a in st.keep:
        if st.cur == me:
            keep.append(A[a])
        else:
            keep.append(agen[a])
            _add(hidden_art, agen[a], a)
    market: dict[str, Any] = {}
    market_pools: dict[str, Any] = {}
    mknown = st.mknown
    for t, name in enumerate(d.TYPE_NAMES):
        cards: list[Any] = []
        unknown = []
        for i, c in enumerate(st.market[t]):
            if i == 0 or mknown[c] & seen:
                cards.append(M[c])
            else:
                cards.append(None)
                unknown.append(c)
        market[name] = cards
        market_pools[name] = _names(M, sorted(unknown))
    return {
        **shared.common,
        "seat": seat,
        "seats": seats,
        "market": market,
        "artifact_deck": {"cards": adeck, "gen": st.agen_cur, "discard": shared.artifact_discard},
        "pools": {
            "resource": _group(hidden_res, R),
            "defence": _group(hidden_def, d.DEFENCE_NAMES),
            "artifact": _group(hidden_art, A),
            "market": market_pools,
            "aliens": shared.alien_pool,
        },
        "pending": {**shared.pending, "keep": keep},
    }
