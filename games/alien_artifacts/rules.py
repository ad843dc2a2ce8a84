"""The turn flow (§4, §12): one ``step`` per atomic action, and where play goes next.

``step`` assumes the action is legal (the state checks membership in ``legal_actions`` first).
It hands the action to the handler of the pending decision (``_STEP``, one per phase).
:func:`start_game` begins a new game, after the set-up of :mod:`.setup`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from games.alien_artifacts import codes as k
from games.alien_artifacts import combat, mechanics, scoring, setup
from games.alien_artifacts import data as d
from games.alien_artifacts.codes import PUBLIC
from games.api import Action, Event

if TYPE_CHECKING:
    from games.alien_artifacts.state import AlienArtifactsState as S

_BIT_T03 = 1 << d.T03
_BIT_T06 = 1 << d.T06
_BIT_T09 = 1 << d.T09
_BIT_T12 = 1 << d.T12
_BIT_T13 = 1 << d.T13


def step(st: S, action: Action, ev: list[Event]) -> None:
    """Play one legal atomic action: the handler of the pending decision takes it."""
    _STEP[st.phase](st, st.cur, action, ev)


# --- one handler per decision kind (§12.2) -------------------------------------------------------

_Handler = Callable[["S", int, Action, list[Event]], None]


def _step_pay(st: S, p: int, action: Action, ev: list[Event]) -> None:
    """PAY: add one half of a hand or store card, or finish paying."""
    if action[0] == "add":
        _pay_add(st, p, action[1] == "store", action[2], action[3] == "bottom", ev)
    else:
        _pay_finish(st, p, ev)


def _step_discard(st: S, p: int, action: Action, ev: list[Event]) -> None:
    """DISCARD: discard one hand card (positions only rise), or end the turn."""
    if action[0] == "discard":
        i = action[1]
        c = st.hand[p].pop(i)
        st.discard.append(c)
        st.disc_floor = i
        st.disc_n += 1
        ev.append({"type": "discard", "seat": p, "card": d.RESOURCE_NAMES[c]})
    else:
        _end_turn(st, p, ev)


def _step_attack_target(st: S, p: int, action: Action, ev: list[Event]) -> None:
    """ATTACK_TARGET: the due ship attacks an alien slot or a seat, then the next one is due."""
    ship = st.attacker
    st.attacker = -1
    if action[1] == "alien":
        combat.attack(st, p, ship, action[2], -1, ev)
    else:
        combat.attack(st, p, ship, -1, action[2], ev)
    advance(st, ev)


def _step_choose_side(st: S, p: int, action: Action, ev: list[Event]) -> None:
    """CHOOSE_SIDE: place the completed card on the side named."""
    _complete(st, p, d.LOGISTIC if action[1] == "logistic" else d.OPERATIVE, ev)


def _step_pre_action(st: S, p: int, action: Action, ev: list[Event]) -> None:
    """PRE_ACTION: go on to the main action, play a window-A artifact or use T15."""
    name = action[0]
    if name == "start_action":
        st.phase = k.CHOOSE_ACTION
    elif name == "play_artifact":
        _play_artifact(st, p, d.ARTIFACT_INDEX[action[1]], k.CTX_PRE, ev)
    else:  # T15 Quartermaster: discard 1, draw 1
        i = action[1]
        c = st.hand[p].pop(i)
        st.discard.append(c)
        st.qm_used = True
        ev.append({"type": "quartermaster", "seat": p, "card": d.RESOURCE_NAMES[c]})
        mechanics.draw_to_hand(st, p, 1, ev)


def _step_post_action(st: S, p: int, action: Action, ev: list[Event]) -> None:
    """POST_ACTION: go on to the discard step, or play a window-B artifact."""
    if action[0] == "continue":
        _enter_discard(st)
    else:
        _play_artifact(st, p, d.ARTIFACT_INDEX[action[1]], k.CTX_POST, ev)


def _step_buy_pick(st: S, p: int, action: Action, ev: list[Event]) -> None:
    """BUY_PICK: dig one card deeper for 1 credit, or take one of the cards revealed."""
    if action[0] == "dig":
        st.credits[p] -= 1
        deck = st.market[st.buy_type]
        c = deck[st.buy_n]
        st.buy_n += 1
        st.mknown[c] = PUBLIC
        ev.append({"type": "dig", "seat": p, "card": d.MARKET_NAMES[c]})
    else:
        _take_from_top(st, p, st.buy_type, st.buy_n, action[1], ev)
        finish_effect(st, ev)


def _step_star_chart_pick(st: S, p: int, action: Action, ev: list[Event]) -> None:
    """STAR_CHART_PICK: take one of the cards looked at (AR10)."""
    _take_from_top(st, p, st.chart_type, st.chart_n, action[1], ev)
    st.chart_type = -1
    st.chart_n = 0
    finish_effect(st, ev)


def _step_choose_deck(st: S, p: int, action: Action, ev: list[Event]) -> None:
    """CHOOSE_DECK: look at the top cards of one market deck (AR10); only this seat sees them."""
    t = d.TYPE_INDEX[action[1]]
    deck = st.market[t]
    st.chart_type = t
    st.chart_n = min(d.STAR_CHART_LOOK, len(deck))
    bit = 1 << p
    for c in deck[: st.chart_n]:
        st.mknown[c] |= bit
    st.phase = k.STAR_CHART_PICK
    ev.append({"type": "star_chart", "seat": p, "deck": action[1], "count": st.chart_n})


def _step_choose_project(st: S, p: int, action: Action, ev: list[Event]) -> None:
    """CHOOSE_PROJECT: complete one project at once (AR02), then choose its side."""
    card = d.MARKET_INDEX[action[1]]
    i = st.proj[p].index(card)
    _remove_project(st, p, i)
    ev.append({"type": "instant_assembly", "seat": p, "card": action[1]})
    st.side_card = card
    st.phase = k.CHOOSE_SIDE


def _step_keep_artifact(st: S, p: int, action: Action, ev: list[Event]) -> None:
    """KEEP_ARTIFACT: keep one of the two artifacts drawn with T08."""
    mechanics.keep_artifact(st, p, d.ARTIFACT_INDEX[action[1]], ev)
    advance(st, ev)


def _step_choose_faction(st: S, p: int, action: Action, ev: list[Event]) -> None:
    """CHOOSE_FACTION: take a faction; after seat 0 (the last to choose) deal and start."""
    f = d.FACTION_INDEX[action[1]]
    st.factions[p] = f
    st.free_factions.remove(f)
    ev.append({"type": "faction", "seat": p, "faction": action[1]})
    if p > 0:
        st.cur = p - 1
    else:
        _deal_and_start(st, ev)


def _step_over(st: S, p: int, action: Action, ev: list[Event]) -> None:  # pragma: no cover
    """OVER: nothing to play (``legal_actions`` is empty once over)."""
    raise AssertionError(f"no step for phase {st.phase}")


# --- turn structure ------------------------------------------------------------------------------


def start_game(st: S, factions: str | list[int]) -> None:
    """Begin a new game on a fresh state (§2.1) and take the single-option decisions.

    ``factions`` is what :func:`.setup.parse_factions` returns: with "choice" the seats choose
    first (the deal follows the last choice); else the factions are dealt ("random") or given
    (one per seat), then the cards are dealt and seat 0 starts.
    """
    if factions == "choice":
        setup.offer_factions(st)
    else:
        setup.give_factions(st, factions)
        _deal_and_start(st, [])
    st.settle()


def _deal_and_start(st: S, ev: list[Event]) -> None:
    """Every seat has a faction: deal (§2.1 steps 3-11), then seat 0's first turn."""
    setup.deal(st, ev)
    start_turn(st, 0, ev)


def start_turn(st: S, p: int, ev: list[Event]) -> None:
    """§4.1: seat ``p``'s turn begins, at its pre-action window, with the turn flags cleared."""
    st.turns += 1
    if st.turns > d.TURN_CAP:  # pragma: no cover - §4.6 proves the game ends
        raise RuntimeError("Alien Artifacts: turn cap exceeded, the game does not end")
    st.cur = p
    st.phase = k.PRE_ACTION
    st.ctx = k.CTX_MAIN
    st.art_played = False
    st.qm_used = False
    st.attacked = 0
    st.overdrive = False
    st.converter = False
    st.passed = False
    ev.append({"type": "turn", "seat": p, "round": st.round})


def _enter_discard(st: S) -> None:
    st.phase = k.DISCARD
    st.disc_floor = 0
    st.disc_n = 0


def _end_turn(st: S, p: int, ev: list[Event]) -> None:
    mechanics.refill(st, p, ev)
    if st.final and p == st.n - 1:
        scoring.final_scoring(st, ev)
        st.phase = k.OVER
        ev.append({"type": "game_over", "scores": st.vp[:], "ranking": scoring.ranking(st)})
        return
    start_turn(st, (p + 1) % st.n, ev)


def finish_effect(st: S, ev: list[Event]) -> None:
    """A main action or an artifact has fully resolved: go on per the context (§4.1, §12.4)."""
    if st.playing >= 0:
        st.adiscard.append(st.playing)
        st.playing = -1
    ctx = st.ctx
    if ctx == k.CTX_MAIN:
        st.phase = k.POST_ACTION
    elif ctx == k.CTX_PRE:
        st.phase = k.PRE_ACTION
        st.ctx = k.CTX_MAIN
    else:  # CTX_EXTRA (AR01's action) and CTX_POST (a window-B artifact)
        _enter_discard(st)


def advance(st: S, ev: list[Event]) -> None:
    """After a resolution step: a pending T08 choice, the next due attacker, or the end."""
    if st.keep:
        st.phase = k.KEEP_ARTIFACT
        return
    queue = st.queue
    p = st.cur
    while queue:
        ship = queue.pop(0)
        if st.omask[p] >> ship & 1 and not st.attacked >> ship & 1:
            st.attacker = ship
            st.phase = k.ATTACK_TARGET
            return
    finish_effect(st, ev)


# --- main actions (§5) ---------------------------------------------------------------------------


def _step_choose_action(st: S, p: int, action: Action, ev: list[Event]) -> None:
    """CHOOSE_ACTION: start the main action chosen (a build or operative action goes to PAY)."""
    name = action[0]
    if name == "build":
        card = d.MARKET_INDEX[action[1]]
        t = card // 16
        i = st.proj[p].index(card)
        cost = mechanics.build_cost(st, p, t)
        remaining = cost - st.pdep[p][i]
        ev.append({"type": "action", "seat": p, "action": "build", "card": action[1], "cost": cost})
        if remaining <= 0:
            _remove_project(st, p, i)
            ev.append({"type": "completed", "seat": p, "card": action[1]})
            st.side_card = card
            st.phase = k.CHOOSE_SIDE
            return
        _start_pay(st, p, t, remaining, card)
    elif name == "buy":
        t = d.TYPE_INDEX[action[1]]
        price = mechanics.buy_price(st, p, t)
        st.credits[p] -= price
        st.buy_type = t
        st.buy_n = 1
        ev.append({"type": "action", "seat": p, "action": "buy", "deck": action[1], "price": price})
        st.phase = k.BUY_PICK
    elif name == "pass":
        st.passed = True
        ev.append({"type": "action", "seat": p, "action": "pass"})
        finish_effect(st, ev)
    elif name == "trade":
        ev.append({"type": "action", "seat": p, "action": "trade"})
        _start_pay(st, p, d.A_TRADE, -1, -1)
    elif name == "pilgrimage":
        st.credits[p] -= d.PILGRIMAGE_CREDITS
        ev.append({"type": "action", "seat": p, "action": "pilgrimage"})
        _start_pay(st, p, d.A_PILGRIMAGE, d.PILGRIMAGE_COST, -1)
    else:
        kind = d.KIND_INDEX[name]
        ev.append({"type": "action", "seat": p, "action": name})
        _start_pay(st, p, kind, mechanics.operative_cost(st, p, kind), -1)


def _start_pay(st: S, p: int, kind: int, req: int, project: int) -> None:
    st.pay_kind = kind
    st.pay_proj = project
    st.pay_req = req
    st.pay_val = 0
    st.pay_col = -1
    st.pay_limit = mechanics.limit(st, p, kind)
    st.pay_floor = 0
    st.paying = []
    st.phase = k.PAY


def half_effect(st: S, p: int, card: int, half: int) -> tuple[int, int]:
    """(effective colour, value) of a half in the current payment (AR14, T09: §5.2 P4a)."""
    colour = d.HALF_COLOUR[card][half]
    value = d.HALF_VALUE[card][half]
    if st.pay_kind <= d.A_TRADE:
        if colour == d.GOLD and st.lmask[p] & _BIT_T09:
            value += d.GOLD_BONUS_T09
        if st.converter:
            colour = d.GOLD
    return colour, value


def _pay_add(st: S, p: int, from_store: bool, i: int, bottom: bool, ev: list[Event]) -> None:
    """Pay one half of hand or store card ``i`` (§5.2): the card leaves, its value counts."""
    half = 1 if bottom else 0
    if from_store:
        card = st.store[p].pop(i)
        st.pay_floor = len(st.hand[p]) + i
    else:
        card = st.hand[p].pop(i)
        st.pay_floor = i
    colour, value = half_effect(st, p, card, half)
    st.pay_val += value
    if colour != d.GOLD and st.pay_col < 0:
        st.pay_col = colour
    st.paying.append(card * 2 + half)
    ev.append(
        {
            "type": "pay",
            "seat": p,
            "card": d.RESOURCE_NAMES[card],
            "from": "store" if from_store else "hand",
            "half": d.HALF_NAMES[half],
            "value": value,
        }
    )


def _pay_finish(st: S, p: int, ev: list[Event]) -> None:
    """The payment is done: a build completes or leaves a deposit, any other action resolves."""
    kind = st.pay_kind
    cards = [x >> 1 for x in st.paying]
    st.paying = []
    value = st.pay_val
    st.pay_kind = -1
    if kind <= d.A_PLANET:
        card = st.pay_proj
        st.pay_proj = -1
        i = st.proj[p].index(card)
        if value >= st.pay_req:
            st.discard.extend(cards)
            _remove_project(st, p, i)
            ev.append({"type": "completed", "seat": p, "card": d.MARKET_NAMES[card]})
            st.side_card = card
            st.phase = k.CHOOSE_SIDE
        else:
            st.pcards[p][i].extend(cards)
            st.pdep[p][i] += value
            ev.append(
                {
                    "type": "deposit",
                    "seat": p,
                    "card": d.MARKET_NAMES[card],
                    "deposit": st.pdep[p][i],
                }
            )
            finish_effect(st, ev)
        return
    st.discard.extend(cards)
    if kind == d.A_TRADE:
        gain = value + (d.TRADE_CREDITS_T03 if st.lmask[p] & _BIT_T03 else 0)
        st.credits[p] += gain
        ev.append({"type": "trade", "seat": p, "credits": gain})
        finish_effect(st, ev)
    elif kind == d.A_OFFENSIVE:
        st.queue = mechanics.operative_ships(st, p)
        advance(st, ev)
    elif kind == d.A_INCOME:
        scoring.score_techs(st, p, ev, "income")
        if st.lmask[p] & _BIT_T12:
            st.credits[p] += d.INCOME_CREDITS_T12
        finish_effect(st, ev)
    elif kind == d.A_MINE:
        per = d.MINE_PRODUCTION_T06 if st.lmask[p] & _BIT_T06 else d.MINE_PRODUCTION
        for planet in mechanics.operative_planets(st, p):
            mechanics.produce(st, p, planet, per, ev)
        finish_effect(st, ev)
    else:  # Pilgrimage
        mechanics.gain_artifact(st, p, ev)
        advance(st, ev)


def _remove_project(st: S, p: int, i: int) -> None:
    st.proj[p].pop(i)
    st.pdep[p].pop(i)
    st.discard.extend(st.pcards[p].pop(i))


def _complete(st: S, p: int, side: int, ev: list[Event]) -> None:
    """§5.3 step 5: place the card, T13, then on-build effects (operative side only)."""
    card = st.side_card
    st.side_card = -1
    mechanics.add_to_empire(st, p, card, side)
    ev.append(
        {"type": "built", "seat": p, "card": d.MARKET_NAMES[card], "side": d.SIDE_NAMES[side]}
    )
    if st.lmask[p] & _BIT_T13:
        st.credits[p] += d.COMPLETION_CREDITS_T13
    if side == d.OPERATIVE:
        if card < 16:
            if not st.attacked >> card & 1:
                st.queue = [card]
        elif card >= 32:
            mechanics.produce(st, p, card, mechanics.planet_build_production(st, p), ev)
    advance(st, ev)


def _take_from_top(st: S, p: int, t: int, n: int, i: int, ev: list[Event]) -> None:
    """Take the ``i``-th of the top ``n`` cards of market deck ``t``; the rest go to the bottom."""
    deck = st.market[t]
    top = deck[:n]
    card = top.pop(i)
    del deck[:n]
    deck.extend(top)
    if deck:
        st.mknown[deck[0]] = PUBLIC
    mechanics.add_project(st, p, card)
    st.mknown[card] = PUBLIC
    ev.append({"type": "take", "seat": p, "card": d.MARKET_NAMES[card]})


# --- artifacts (§8) ------------------------------------------------------------------------------


def _play_artifact(st: S, p: int, a: int, ctx: int, ev: list[Event]) -> None:
    """Play artifact ``a`` in context ``ctx`` (§8.3): an effect that needs a decision sets the
    phase for it, the others resolve at once."""
    st.arts[p].remove(a)
    st.art_played = True
    st.playing = a
    st.ctx = ctx
    ev.append({"type": "play_artifact", "seat": p, "artifact": d.ARTIFACT_NAMES[a]})
    effect = d.ARTIFACT_EFFECT[a]
    if effect == d.E_LOOP:
        st.ctx = k.CTX_EXTRA
        st.phase = k.CHOOSE_ACTION
        return
    if effect == d.E_ASSEMBLY:
        st.phase = k.CHOOSE_PROJECT
        return
    if effect == d.E_CHART:
        st.phase = k.CHOOSE_DECK
        return
    if effect == d.E_WARFLEET:
        st.queue = mechanics.operative_ships(st, p)
        advance(st, ev)
        return
    if effect == d.E_CACHE:
        mechanics.draw_to_hand(st, p, d.CACHE_DRAW, ev)
    elif effect == d.E_ARCHIVE:
        scoring.score_techs(st, p, ev, "xeno_archive")
    elif effect == d.E_SEEDER:
        for planet in mechanics.operative_planets(st, p):
            mechanics.produce(st, p, planet, d.SEEDER_PRODUCTION, ev)
    elif effect == d.E_HOARD:
        st.credits[p] += d.HOARD_CREDITS
    elif effect == d.E_RELIC:
        st.vp[p] += d.RELIC_VP
    elif effect == d.E_OVERDRIVE:
        st.overdrive = True
    else:  # E_CONVERTER
        st.converter = True
    finish_effect(st, ev)


# --- the dispatch table of ``step`` --------------------------------------------------------------

# The handler of each decision kind, indexed by phase (the decision kinds of :mod:`.codes`).
_STEP: tuple[_Handler, ...] = tuple(
    {
        k.CHOOSE_FACTION: _step_choose_faction,
        k.PRE_ACTION: _step_pre_action,
        k.CHOOSE_ACTION: _step_choose_action,
        k.PAY: _step_pay,
        k.CHOOSE_SIDE: _step_choose_side,
        k.ATTACK_TARGET: _step_attack_target,
        k.BUY_PICK: _step_buy_pick,
        k.CHOOSE_PROJECT: _step_choose_project,
        k.CHOOSE_DECK: _step_choose_deck,
        k.STAR_CHART_PICK: _step_star_chart_pick,
        k.KEEP_ARTIFACT: _step_keep_artifact,
        k.POST_ACTION: _step_post_action,
        k.DISCARD: _step_discard,
        k.OVER: _step_over,
    }[phase]
    for phase in range(len(k.PHASE_NAMES))
)
