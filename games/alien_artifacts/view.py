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
KIND_NAMES = ("ship", "tech", "planet", "trade", "offensive", "income", "mine", "pilgrimage")


def _names(names: tuple[str, ...], ids: list[int]) -> list[str]:
    return [names[i] for i in ids]


def harvest_entry(code: int) -> list[Any]:
    """[symbol name or None, matched] for a store slot's ``rharv`` code."""
    if code == 0:
        return [None, False]
    return [d.SYMBOL_NAMES[abs(code) - 1], code > 0]


def _group(pairs: list[tuple[int, int]], names: tuple[str, ...]) -> list[list[Any]]:
    by_gen: dict[int, list[int]] = {}
    for gen, card in pairs:
        by_gen.setdefault(gen, []).append(card)
    return [[g, _names(names, sorted(by_gen[g]))] for g in sorted(by_gen)]


def view(st: S, seat: int | None) -> View:
    n = st.n
    over = st.phase == k.OVER
    me = -1 if seat is None else seat
    bit = 0 if seat is None else 1 << seat
    seen = k.PUBLIC | bit
    rgen = st.rgen
    hidden_res = [(st.gen, c) for c in st.deck]
    hidden_def = [(st.dgen_cur, x) for x in st.ddeck]
    hidden_art: list[tuple[int, int]] = []
    seats = []
    for p in range(n):
        mine = p == me
        if mine:
            hand: list[Any] = _names(R, st.hand[p])
            store: list[Any] = _names(R, st.store[p])
            arts: list[Any] = _names(A, st.arts[p])
            plan: Any = d.DEFENCE_NAMES[st.plan[p]] if st.plan[p] >= 0 else None
        else:
            hand = [rgen[c] for c in st.hand[p]]
            store = [[rgen[c], *harvest_entry(st.rharv[c])] for c in st.store[p]]
            hidden_res.extend((rgen[c], c) for c in st.hand[p])
            hidden_res.extend((rgen[c], c) for c in st.store[p])
            arts = []
            for a in st.arts[p]:
                if st.aknown[a] & bit:
                    arts.append(A[a])
                else:
                    arts.append(st.agen[a])
                    hidden_art.append((st.agen[a], a))
            plan = None
            if st.plan[p] >= 0:
                plan = st.dgen[st.plan[p]]
                hidden_def.append((plan, st.plan[p]))
        seats.append(
            {
                "faction": d.FACTION_NAMES[st.factions[p]] if st.factions[p] >= 0 else None,
                "vp": st.vp[p],
                "credits": st.credits[p],
                "hand": hand,
                "hand_count": len(st.hand[p]),
                "store": store,
                "store_count": len(st.store[p]),
                "projects": [
                    {"card": M[c], "deposit": st.pdep[p][i], "cards": _names(R, st.pcards[p][i])}
                    for i, c in enumerate(st.proj[p])
                ],
                "empire": [
                    [M[c], "logistic" if st.lmask[p] >> c & 1 else "operative"]
                    for c in st.empire[p]
                ],
                "artifacts": arts,
                "artifact_count": len(st.arts[p]),
                "defence": plan,
                "gained": st.gained[p],
            }
        )
    adeck: list[Any] = []
    for a in reversed(st.adeck):  # top first
        if st.aknown[a] & bit:
            adeck.append(A[a])
        else:
            adeck.append(st.agen[a])
            hidden_art.append((st.agen[a], a))
    keep: list[Any] = []
    for a in st.keep:
        if st.cur == me:
            keep.append(A[a])
        else:
            keep.append(st.agen[a])
            hidden_art.append((st.agen[a], a))
    market: dict[str, Any] = {}
    market_pools: dict[str, Any] = {}
    for t, name in enumerate(d.TYPE_NAMES):
        cards: list[Any] = []
        unknown = []
        for i, c in enumerate(st.market[t]):
            if i == 0 or st.mknown[c] & seen:
                cards.append(M[c])
            else:
                cards.append(None)
                unknown.append(c)
        market[name] = cards
        market_pools[name] = _names(M, sorted(unknown))
    return {
        "game": "alien_artifacts",
        "players": n,
        "seat": seat,
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
        "seats": seats,
        "deck": {"count": len(st.deck), "gen": st.gen},
        "discard": _names(R, st.discard),
        "market": market,
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
        "artifact_deck": {"cards": adeck, "gen": st.agen_cur, "discard": _names(A, st.adiscard)},
        "pools": {
            "resource": _group(hidden_res, R),
            "defence": _group(hidden_def, d.DEFENCE_NAMES),
            "artifact": _group(hidden_art, A),
            "market": market_pools,
            "aliens": _names(d.ALIEN_NAMES, sorted(st.alien_deck)),
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
        "pending": {
            "pay_action": KIND_NAMES[st.pay_kind] if st.pay_kind >= 0 else None,
            "pay_project": M[st.pay_proj] if st.pay_proj >= 0 else None,
            "pay_requirement": st.pay_req,
            "pay_value": st.pay_val,
            "pay_colour": d.COLOUR_NAMES[st.pay_col] if st.pay_col >= 0 else None,
            "pay_limit": st.pay_limit,
            "pay_floor": st.pay_floor,
            "paid": [[R[x >> 1], d.HALF_NAMES[x & 1]] for x in st.paying],
            "side_card": M[st.side_card] if st.side_card >= 0 else None,
            "buy_deck": d.TYPE_NAMES[st.buy_type] if st.buy_type >= 0 else None,
            "buy_revealed": st.buy_n,
            "attacker": M[st.attacker] if st.attacker >= 0 else None,
            "queue": _names(M, st.queue),
            "chart_deck": d.TYPE_NAMES[st.chart_type] if st.chart_type >= 0 else None,
            "chart_count": st.chart_n,
            "keep": keep,
        },
    }
