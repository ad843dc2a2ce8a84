"""The legal actions of the pending decision (§12.2, §12.3), in canonical order.

Action tuples are built once here and reused, so listing actions allocates little.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.alien_artifacts import codes as k
from games.alien_artifacts import data as d
from games.alien_artifacts import mechanics
from games.api import Action

if TYPE_CHECKING:
    from games.alien_artifacts.state import AlienArtifactsState as S

BUILD = tuple(("build", name) for name in d.MARKET_NAMES)
PROJECT = tuple(("project", name) for name in d.MARKET_NAMES)
BUY = tuple(("buy", name) for name in d.TYPE_NAMES)
DECK = tuple(("deck", name) for name in d.TYPE_NAMES)
PLAY = tuple(("play_artifact", name) for name in d.ARTIFACT_NAMES)
KEEP = tuple(("keep", name) for name in d.ARTIFACT_NAMES)
FACTION = tuple(("faction", name) for name in d.FACTION_NAMES)
_MAX = 64
TAKE = tuple(("take", i) for i in range(_MAX))
DISCARD = tuple(("discard", i) for i in range(_MAX))
QUARTERMASTER = tuple(("quartermaster", i) for i in range(_MAX))
ADD = tuple(
    tuple(tuple(("add", src, i, half) for half in d.HALF_NAMES) for i in range(_MAX))
    for src in ("hand", "store")
)
TARGET_ALIEN = tuple(("target", "alien", s) for s in range(d.DISPLAY_SIZE))
TARGET_PLAYER = tuple(("target", "player", q) for q in range(8))
SIDES = (("side", "logistic"), ("side", "operative"))
TRADE = ("trade",)
OFFENSIVE = ("offensive",)
INCOME = ("income",)
MINE = ("mine",)
PILGRIMAGE = ("pilgrimage",)
PASS = ("pass",)
FINISH = ("finish",)
DIG = ("dig",)
DONE = ("done",)
CONTINUE = ("continue",)
START = ("start_action",)

_HALF_COLOUR = d.HALF_COLOUR
_HALF_VALUE = d.HALF_VALUE
_TYPE_COLOUR = d.TYPE_COLOUR
_BIT_T15 = 1 << d.T15
_SHIPS, _TECHS, _PLANETS = d.TYPE_MASK
_GOLD = d.GOLD


def legal_actions(st: S) -> list[Action]:
    phase = st.phase
    if phase == k.PAY:
        return _pay(st)
    if phase == k.CHOOSE_ACTION:
        return _choose_action(st)
    if phase == k.DISCARD:
        p = st.cur
        hand = st.hand[p]
        acts: list[Action] = [DISCARD[i] for i in range(st.disc_floor, len(hand))]
        if not (st.passed and hand and st.disc_n == 0):
            acts.append(DONE)
        return acts
    if phase == k.PRE_ACTION:
        acts = _artifacts(st, d.WINDOW_A)
        p = st.cur
        if st.lmask[p] & _BIT_T15 and not st.qm_used:
            acts.extend(QUARTERMASTER[i] for i in range(len(st.hand[p])))
        acts.append(START)
        return acts
    if phase == k.POST_ACTION:
        acts = _artifacts(st, d.WINDOW_B)
        acts.append(CONTINUE)
        return acts
    if phase == k.ATTACK_TARGET:
        acts = list(TARGET_ALIEN)
        acts.extend(TARGET_PLAYER[q] for q in range(st.n) if q != st.cur)
        return acts
    if phase == k.CHOOSE_SIDE:
        return list(SIDES)
    if phase == k.BUY_PICK:
        acts = [TAKE[i] for i in range(st.buy_n)]
        if st.credits[st.cur] >= 1 and len(st.market[st.buy_type]) > st.buy_n:
            acts.append(DIG)
        return acts
    if phase == k.STAR_CHART_PICK:
        return [TAKE[i] for i in range(st.chart_n)]
    if phase == k.CHOOSE_DECK:
        return [DECK[t] for t in range(3) if st.market[t]]
    if phase == k.CHOOSE_PROJECT:
        return [PROJECT[c] for c in st.proj[st.cur]]
    if phase == k.KEEP_ARTIFACT:
        a, b = st.keep
        if d.ARTIFACT_EFFECT[a] == d.ARTIFACT_EFFECT[b]:
            return [KEEP[min(a, b)]]  # identical copies: one choice
        return [KEEP[a], KEEP[b]] if a < b else [KEEP[b], KEEP[a]]
    if phase == k.CHOOSE_FACTION:
        return [FACTION[f] for f in st.free_factions]
    return []


def _artifacts(st: S, window: int) -> list[Action]:
    """Playable artifacts; one option per distinct effect (identical copies are one choice)."""
    if st.art_played:
        return []
    p = st.cur
    held = st.arts[p]
    if not held:
        return []
    acts: list[Action] = []
    seen = 0
    for a in sorted(held):
        if not d.ARTIFACT_WINDOWS[a] & window:
            continue
        effect = d.ARTIFACT_EFFECT[a]
        if seen >> effect & 1:
            continue
        if effect == d.E_ASSEMBLY and not st.proj[p]:
            continue
        if effect == d.E_CHART and not (st.market[0] or st.market[1] or st.market[2]):
            continue
        seen |= 1 << effect
        acts.append(PLAY[a])
    return acts


def _choose_action(st: S) -> list[Action]:
    p = st.cur
    acts: list[Action] = []
    hand = st.hand[p]
    store = st.store[p]
    usable = bool(hand) or bool(store)
    conv = st.converter
    if st.proj[p]:
        have = 0  # bit per colour that some usable card offers, Gold wild
        for c in hand:
            hc = _HALF_COLOUR[c]
            have |= 1 << hc[0] | 1 << hc[1]
        for c in store:
            hc = _HALF_COLOUR[c]
            have |= 1 << hc[0] | 1 << hc[1]
        pdep = st.pdep[p]
        for i, card in enumerate(st.proj[p]):
            t = card >> 4
            if (
                usable and (conv or have & (1 << _TYPE_COLOUR[t] | 1 << _GOLD))
            ) or mechanics.build_cost(st, p, t) - pdep[i] <= 0:
                acts.append(BUILD[card])
    credits = st.credits[p]
    market = st.market
    for t in range(3):
        if market[t] and credits >= mechanics.buy_price(st, p, t):
            acts.append(BUY[t])
    if usable:
        acts.append(TRADE)
        om = st.omask[p]
        if om & _SHIPS and mechanics.can_pay_colour(
            st,
            p,
            d.RED,
            mechanics.operative_cost(st, p, d.A_OFFENSIVE),
            mechanics.limit(st, p, d.A_OFFENSIVE),
        ):
            acts.append(OFFENSIVE)
        if om & _TECHS and mechanics.can_pay_colour(
            st,
            p,
            d.BLUE,
            mechanics.operative_cost(st, p, d.A_INCOME),
            mechanics.limit(st, p, d.A_INCOME),
        ):
            acts.append(INCOME)
        if om & _PLANETS and mechanics.can_pay_colour(
            st,
            p,
            d.GREEN,
            mechanics.operative_cost(st, p, d.A_MINE),
            mechanics.limit(st, p, d.A_MINE),
        ):
            acts.append(MINE)
        if st.factions[p] == d.EPI and credits >= d.PILGRIMAGE_CREDITS:
            lim = mechanics.limit(st, p, d.A_PILGRIMAGE)
            for colour in (d.RED, d.BLUE, d.GREEN):
                if mechanics.can_pay_colour(st, p, colour, d.PILGRIMAGE_COST, lim):
                    acts.append(PILGRIMAGE)
                    break
    acts.append(PASS)
    return acts


def _pay(st: S) -> list[Action]:
    """§12.3: canonical ``add`` options (no dead ends, no duplicates) and ``finish``."""
    p = st.cur
    kind = st.pay_kind
    req = st.pay_req
    val = st.pay_val
    n = len(st.paying)
    acts: list[Action] = []
    if (req < 0 or val < req) and n < st.pay_limit:
        hand = st.hand[p]
        store = st.store[p]
        nh = len(hand)
        floor = st.pay_floor
        col = st.pay_col
        conv = kind <= d.A_TRADE and st.converter
        strict = kind >= d.A_OFFENSIVE  # operative actions and Pilgrimage: no Gold, reach the cost
        slots = st.pay_limit - n - 1
        if kind <= d.A_PLANET:
            need_col = _TYPE_COLOUR[kind]
        elif kind == d.A_PILGRIMAGE or kind == d.A_TRADE:
            need_col = col
        else:
            need_col = d.OPERATIVE_COLOUR[kind]
        total = nh + len(store)
        for num in range(floor, total):
            if num < nh:
                card = hand[num]
                src = ADD[0][num]
            else:
                card = store[num - nh]
                src = ADD[1][num - nh]
            hc = _HALF_COLOUR[card]
            hv = _HALF_VALUE[card]
            for half in (0, 1):
                colour = hc[half]
                value = hv[half]
                if strict:
                    if colour == _GOLD or (need_col >= 0 and colour != need_col):
                        continue
                    need = req - val - value
                    if need > 0 and not mechanics.reachable(
                        mechanics.colour_values(st, p, colour, num + 1), slots, need
                    ):
                        continue
                else:
                    if colour != _GOLD and not conv and need_col >= 0 and colour != need_col:
                        continue
                acts.append(src[half])
    if (val >= req) if req >= 0 and kind >= d.A_OFFENSIVE else n >= 1:
        acts.append(FINISH)
    return acts
