"""Alien Artifacts' observation: one seat's view as a fixed-length float32 vector.

The encoder reads nothing but the view (``State.view(seat)``), so it can hold nothing the seat
may not see. Seats are counted from the observer: "seat +0" is the observer, "seat +1" the next
seat in turn order, and so on; the blocks of seats a smaller game lacks stay 0. The layout is
the same at every player count. Positions are 1-based (0: not there), so that a card's place
in a hand, a store or a deck, which the positional actions (``discard 2``, ``take 0``) name,
is in the vector.

Left out (they are in ``info["view"]``): the generation tags of cards hidden from the seat and
the ``pools`` lists, which a seat with perfect memory can work out from the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.alien_artifacts import codes as k
from games.alien_artifacts import data as d
from games.alien_artifacts import scoring
from games.alien_artifacts.codes import CTX_NAMES, PHASE_NAMES
from games.alien_artifacts.state import AlienArtifactsState
from games.layout import Layout, write_standing, write_turn

if TYPE_CHECKING:
    import numpy as np

SEATS = 5
_R = d.N_RESOURCES
_M = d.N_MARKET
_A = d.N_ARTIFACTS
_AL = d.N_ALIENS
_DP = d.N_DEFENCES
_F = len(d.FACTION_NAMES)
_BIG = 10000

LAYOUT = Layout()
_add = LAYOUT.add
_PLAYERS = _add("players", SEATS, 1, "player count, one-hot (1 to 5; 2-5 happen)")
_CURRENT = _add("current", SEATS, 1, "the seat to act, one-hot by seat +0..+4; 0 once over")
_OVER = _add("is_over", 1, 1, "the game is over")
_PHASE = _add(
    "phase", len(PHASE_NAMES), 1, "the decision pending, one-hot: " + ", ".join(PHASE_NAMES)
)
_ROUND = _add("round", 3, _BIG, "round, rounds in the game, turn number")
_FINAL = _add("final_phase", 1, 1, "the final phase has begun")
_FREE_F = _add("free_factions", _F, 1, "factions still to choose: " + ", ".join(d.FACTION_NAMES))
_DECK = _add("resource_deck", 2, _BIG, "resource deck: cards left, generation")
_DISCARD = _add("resource_discard", _R, 1, "resource discard pile R01-R54")
_DISPLAY = _add("alien_display", 3 * _AL, 1, "alien display slots 0-2, each one-hot AL1-AL8")
_ALIEN_DECK = _add("alien_deck", 1, _AL, "alien systems left in the deck")
_ALIEN_DISC = _add("alien_discard", _AL, 1, "alien systems discarded AL1-AL8")
_DEF_DECK = _add("defence_deck", 2, _BIG, "defence plan deck: plans left, generation")
_DEF_DISC = _add("defence_discard", _DP, 1, "defence plans discarded DP01-DP10")
_CTX = _add("context", len(CTX_NAMES), 1, "turn context, one-hot: " + ", ".join(CTX_NAMES))
_TURN = _add(
    "turn_state",
    8,
    _BIG,
    "artifact played, quartermaster used, overdrive, converter, passed, cards discarded, "
    "discard floor, (reserved, 0)",
)
_PLAYING = _add("playing", _A, 1, "the artifact being resolved, one-hot AR01-AR14")
_ATTACKED = _add("attacked", 16, 1, "ships S01-S16 that attacked this turn")
_MARKET = _add(
    "market_positions",
    _M,
    _BIG,
    "per market card S01-P16: its place in its deck (1 = top) when the seat knows it",
)
_MARKET_LEN = _add("market_decks", 3, _BIG, "cards in the ship, tech and planet decks")
_ART_DECK = _add("artifact_deck", 2, _BIG, "artifact deck: cards left, generation")
_ART_POS = _add(
    "artifact_positions", _A, _BIG, "per artifact AR01-AR14: its place in the deck, if known"
)
_ART_DISC = _add("artifact_discard", _A, 1, "artifacts discarded AR01-AR14")
_PAY_KIND = _add("pay_action", len(d.KIND_NAMES), 1, "payment for: " + ", ".join(d.KIND_NAMES))
_PAY_PROJ = _add("pay_project", _M, 1, "the project being paid for, one-hot S01-P16")
_PAY_NUM = _add("pay_numbers", 4, _BIG, "requirement + 1 (0: none), value paid, card limit, floor")
_PAY_COL = _add("pay_colour", 4, 1, "the colour paid, one-hot: " + ", ".join(d.COLOUR_NAMES))
_PAID = _add("paid", 2 * _R, 1, "halves paid so far: R01 top, R01 bottom, ..., R54 bottom")
_SIDE = _add("side_card", _M, 1, "the card whose side is being chosen, one-hot S01-P16")
_BUY = _add("buy_deck", 3, 1, "the deck being bought from: ship, tech, planet")
_BUY_N = _add("buy_revealed", 1, _BIG, "cards revealed to buy from")
_ATTACKER = _add("attacker", 16, 1, "the attacking ship, one-hot S01-S16")
_QUEUE = _add("queue", 16, _BIG, "ships S01-S16 still due to attack: place in the queue")
_CHART = _add("chart_deck", 3, 1, "the Star Chart's deck: ship, tech, planet")
_CHART_N = _add("chart_count", 1, _BIG, "cards the Star Chart shows")
_KEEP = _add("keep", _A, 1, "the two artifacts to keep one of (the seat to act only)")
_HAND = _add("own_hand", _R, _BIG, "per resource card R01-R54: its place in your hand")
_STORE = _add("own_store", _R, _BIG, "per resource card: its place in your store")
_OWN_ART = _add("own_artifacts", _A, 1, "your artifacts AR01-AR14")
_OWN_DEF = _add("own_defence", _DP, 1, "your defence plan, one-hot DP01-DP10")
_SEAT_SIZE = _F + 7 + _M + _M + _M + _M + _A + _R
_SEATS = _add(
    "seats",
    SEATS * _SEAT_SIZE,
    _BIG,
    f"per seat +0..+4 ({_SEAT_SIZE} each): faction one-hot; VP, credits, hand count, "
    "store count, artifact count, artifacts gained, has a defence plan; per market card: "
    "place among the seat's projects, deposit on it, in the empire logistic side up, "
    "operative side up; artifacts the observer knows it holds; resource cards under its "
    "projects",
)
_SCORES = _add("scores", SEATS, _BIG, "the score (VP) of seat +0..+4")
_RANK = _add("final_place", SEATS, 8, "once over: the place of seat +0..+4 (1 = first)")

SIZE = LAYOUT.size
STATE_TYPE = AlienArtifactsState
"""The engine state :func:`encode_state` reads."""
_PHASE_AT = {name: i for i, name in enumerate(PHASE_NAMES)}
_CTX_AT = {name: i for i, name in enumerate(CTX_NAMES)}
_RES = d.RESOURCE_INDEX
_MKT = d.MARKET_INDEX
_ART = d.ARTIFACT_INDEX
_TYPE = d.TYPE_INDEX
# The state's codes are the indexes the view's names map to: encode_state uses them directly.
for _names, _index in (
    (PHASE_NAMES, _PHASE_AT),
    (CTX_NAMES, _CTX_AT),
    (d.RESOURCE_NAMES, _RES),
    (d.MARKET_NAMES, _MKT),
    (d.ARTIFACT_NAMES, _ART),
    (d.TYPE_NAMES, _TYPE),
    (d.FACTION_NAMES, d.FACTION_INDEX),
    (d.ALIEN_NAMES, d.ALIEN_INDEX),
    (d.DEFENCE_NAMES, d.DEFENCE_INDEX),
    (d.KIND_NAMES, d.KIND_INDEX),
    (d.COLOUR_NAMES, d.COLOUR_INDEX),
    (d.HALF_NAMES, d.HALF_INDEX),
):
    assert all(_index[name] == i for i, name in enumerate(_names))


def encode(view: dict[str, Any], out: np.ndarray) -> None:
    """Write ``view`` (a seat's) into ``out`` (zeros, ``SIZE`` long)."""
    n = view["players"]
    me = view["seat"]
    write_turn(out, n, me, view["current_player"], view["is_over"], (_PLAYERS, _CURRENT, _OVER))
    out[_PHASE + _PHASE_AT[view["phase"]]] = 1
    out[_ROUND] = view["round"]
    out[_ROUND + 1] = view["rounds"]
    out[_ROUND + 2] = view["turn"]
    out[_FINAL] = view["final_phase"]
    for f in view["free_factions"]:
        out[_FREE_F + d.FACTION_INDEX[f]] = 1
    out[_DECK] = view["deck"]["count"]
    out[_DECK + 1] = view["deck"]["gen"]
    for card in view["discard"]:
        out[_DISCARD + _RES[card]] = 1
    aliens = view["aliens"]
    for slot, alien in enumerate(aliens["display"]):
        if alien is not None:
            out[_DISPLAY + _AL * slot + d.ALIEN_INDEX[alien]] = 1
    out[_ALIEN_DECK] = aliens["deck_count"]
    for alien in aliens["discard"]:
        out[_ALIEN_DISC + d.ALIEN_INDEX[alien]] = 1
    defence = view["defence"]
    out[_DEF_DECK] = defence["deck_count"]
    out[_DEF_DECK + 1] = defence["gen"]
    for plan in defence["discard"]:
        out[_DEF_DISC + d.DEFENCE_INDEX[plan]] = 1
    turn = view["turn_state"]
    out[_CTX + _CTX_AT[turn["context"]]] = 1
    out[_TURN] = turn["artifact_played"]
    out[_TURN + 1] = turn["quartermaster_used"]
    out[_TURN + 2] = turn["overdrive"]
    out[_TURN + 3] = turn["converter"]
    out[_TURN + 4] = turn["passed"]
    out[_TURN + 5] = turn["discarded"]
    out[_TURN + 6] = turn["discard_floor"]
    if turn["playing"] is not None:
        out[_PLAYING + _ART[turn["playing"]]] = 1
    for ship in turn["attacked"]:
        out[_ATTACKED + _MKT[ship]] = 1
    for t, cards in enumerate(view["market"].values()):
        out[_MARKET_LEN + t] = len(cards)
        for place, card in enumerate(cards, start=1):
            if card is not None:
                out[_MARKET + _MKT[card]] = place
    adeck = view["artifact_deck"]
    out[_ART_DECK] = len(adeck["cards"])
    out[_ART_DECK + 1] = adeck["gen"]
    for place, card in enumerate(adeck["cards"], start=1):
        if isinstance(card, str):
            out[_ART_POS + _ART[card]] = place
    for card in adeck["discard"]:
        out[_ART_DISC + _ART[card]] = 1
    _pending(view["pending"], out)
    _seats(view, n, me, out)


def _pending(pending: dict[str, Any], out: np.ndarray) -> None:
    if pending["pay_action"] is not None:
        out[_PAY_KIND + d.KIND_INDEX[pending["pay_action"]]] = 1
    if pending["pay_project"] is not None:
        out[_PAY_PROJ + _MKT[pending["pay_project"]]] = 1
    out[_PAY_NUM] = max(pending["pay_requirement"] + 1, 0)
    out[_PAY_NUM + 1] = pending["pay_value"]
    out[_PAY_NUM + 2] = pending["pay_limit"]
    out[_PAY_NUM + 3] = pending["pay_floor"]
    if pending["pay_colour"] is not None:
        out[_PAY_COL + d.COLOUR_INDEX[pending["pay_colour"]]] = 1
    for card, half in pending["paid"]:
        out[_PAID + 2 * _RES[card] + d.HALF_INDEX[half]] = 1
    if pending["side_card"] is not None:
        out[_SIDE + _MKT[pending["side_card"]]] = 1
    if pending["buy_deck"] is not None:
        out[_BUY + _TYPE[pending["buy_deck"]]] = 1
    out[_BUY_N] = pending["buy_revealed"]
    if pending["attacker"] is not None:
        out[_ATTACKER + _MKT[pending["attacker"]]] = 1
    for place, ship in enumerate(pending["queue"], start=1):
        out[_QUEUE + _MKT[ship]] = place
    if pending["chart_deck"] is not None:
        out[_CHART + _TYPE[pending["chart_deck"]]] = 1
    out[_CHART_N] = pending["chart_count"]
    for card in pending["keep"]:
        if isinstance(card, str):
            out[_KEEP + _ART[card]] = 1


def _seats(view: dict[str, Any], n: int, me: int, out: np.ndarray) -> None:
    for s, seat in enumerate(view["seats"]):
        if s == me:
            for place, card in enumerate(seat["hand"], start=1):
                out[_HAND + _RES[card]] = place
            for place, card in enumerate(seat["store"], start=1):
                out[_STORE + _RES[card]] = place
            for card in seat["artifacts"]:
                out[_OWN_ART + _ART[card]] = 1
            if seat["defence"] is not None:
                out[_OWN_DEF + d.DEFENCE_INDEX[seat["defence"]]] = 1
        base = _SEATS + _SEAT_SIZE * ((s - me) % n)
        if seat["faction"] is not None:
            out[base + d.FACTION_INDEX[seat["faction"]]] = 1
        at = base + _F
        out[at] = seat["vp"]
        out[at + 1] = seat["credits"]
        out[at + 2] = seat["hand_count"]
        out[at + 3] = seat["store_count"]
        out[at + 4] = seat["artifact_count"]
        out[at + 5] = seat["gained"]
        out[at + 6] = seat["defence"] is not None
        at += 7
        under = at + 4 * _M + _A
        for place, project in enumerate(seat["projects"], start=1):
            card = _MKT[project["card"]]
            out[at + card] = place
            out[at + _M + card] = project["deposit"]
            for res in project["cards"]:
                out[under + _RES[res]] = 1
        for card, side in seat["empire"]:
            out[at + (2 if side == "logistic" else 3) * _M + _MKT[card]] = 1
        for card in seat["artifacts"]:
            if isinstance(card, str):
                out[at + 4 * _M + _ART[card]] = 1
    write_standing(out, view["scores"], view["ranking"], me, (_SCORES, _RANK))


def encode_state(st: AlienArtifactsState, me: int, out: np.ndarray) -> None:
    """Write seat ``me``'s observation of ``st`` into ``out`` (zeros, ``SIZE`` long): the same
    vector as ``encode(st.view(me), out)``, byte for byte, made from the state without building
    the view (what the environments do each step). It reads only what the view shows: the
    public state, ``me``'s own hand, store, artifacts and plan, and the cards ``me`` has seen
    (the market's and the artifacts' knowledge bits, as :mod:`.views` reads them)."""
    n = st.n
    bit = 1 << me
    seen = k.PUBLIC | bit
    over = st.phase == k.OVER
    write_turn(out, n, me, None if over else st.cur, over, (_PLAYERS, _CURRENT, _OVER))
    out[_PHASE + st.phase] = 1
    out[_ROUND] = st.round
    out[_ROUND + 1] = n
    out[_ROUND + 2] = st.turns
    out[_FINAL] = st.final
    for f in st.free_factions:
        out[_FREE_F + f] = 1
    out[_DECK] = len(st.deck)
    out[_DECK + 1] = st.gen
    for c in st.discard:
        out[_DISCARD + c] = 1
    for slot, alien in enumerate(st.display):
        if alien >= 0:
            out[_DISPLAY + _AL * slot + alien] = 1
    out[_ALIEN_DECK] = len(st.alien_deck)
    for alien in st.alien_discard:
        out[_ALIEN_DISC + alien] = 1
    out[_DEF_DECK] = len(st.ddeck)
    out[_DEF_DECK + 1] = st.dgen_cur
    for plan in st.ddiscard:
        out[_DEF_DISC + plan] = 1
    out[_CTX + st.ctx] = 1
    out[_TURN] = st.art_played
    out[_TURN + 1] = st.qm_used
    out[_TURN + 2] = st.overdrive
    out[_TURN + 3] = st.converter
    out[_TURN + 4] = st.passed
    out[_TURN + 5] = st.disc_n
    out[_TURN + 6] = st.disc_floor
    if st.playing >= 0:
        out[_PLAYING + st.playing] = 1
    attacked = st.attacked
    if attacked:
        for ship in range(16):
            if attacked >> ship & 1:
                out[_ATTACKED + ship] = 1
    mknown = st.mknown
    for t, cards in enumerate(st.market):
        out[_MARKET_LEN + t] = len(cards)
        for place, c in enumerate(cards, start=1):
            if place == 1 or mknown[c] & seen:
                out[_MARKET + c] = place
    aknown = st.aknown
    adeck = st.adeck
    out[_ART_DECK] = len(adeck)
    out[_ART_DECK + 1] = st.agen_cur
    for place, a in enumerate(reversed(adeck), start=1):  # top first
        if aknown[a] & bit:
            out[_ART_POS + a] = place
    for a in st.adiscard:
        out[_ART_DISC + a] = 1
    # The pending decision.
    if st.pay_kind >= 0:
        out[_PAY_KIND + st.pay_kind] = 1
    if st.pay_proj >= 0:
        out[_PAY_PROJ + st.pay_proj] = 1
    out[_PAY_NUM] = max(st.pay_req + 1, 0)
    out[_PAY_NUM + 1] = st.pay_val
    out[_PAY_NUM + 2] = st.pay_limit
    out[_PAY_NUM + 3] = st.pay_floor
    if st.pay_col >= 0:
        out[_PAY_COL + st.pay_col] = 1
    for x in st.paying:
        out[_PAID + x] = 1  # card * 2 + half
    if st.side_card >= 0:
        out[_SIDE + st.side_card] = 1
    if st.buy_type >= 0:
        out[_BUY + st.buy_type] = 1
    out[_BUY_N] = st.buy_n
    if st.attacker >= 0:
        out[_ATTACKER + st.attacker] = 1
    for place, ship in enumerate(st.queue, start=1):
        out[_QUEUE + ship] = place
    if st.chart_type >= 0:
        out[_CHART + st.chart_type] = 1
    out[_CHART_N] = st.chart_n
    if st.cur == me:
        for a in st.keep:
            out[_KEEP + a] = 1
    # The seats.
    for p in range(n):
        arts = st.arts[p]
        if p == me:
            for place, c in enumerate(st.hand[p], start=1):
                out[_HAND + c] = place
            for place, c in enumerate(st.store[p], start=1):
                out[_STORE + c] = place
            for a in arts:
                out[_OWN_ART + a] = 1
            if st.plan[p] >= 0:
                out[_OWN_DEF + st.plan[p]] = 1
        base = _SEATS + _SEAT_SIZE * ((p - me) % n)
        if st.factions[p] >= 0:
            out[base + st.factions[p]] = 1
        at = base + _F
        out[at] = st.vp[p]
        out[at + 1] = st.credits[p]
        out[at + 2] = len(st.hand[p])
        out[at + 3] = len(st.store[p])
        out[at + 4] = len(arts)
        out[at + 5] = st.gained[p]
        out[at + 6] = st.plan[p] >= 0
        at += 7
        under = at + 4 * _M + _A
        deposits = st.pdep[p]
        under_cards = st.pcards[p]
        for i, card in enumerate(st.proj[p]):
            out[at + card] = i + 1
            out[at + _M + card] = deposits[i]
            for res in under_cards[i]:
                out[under + res] = 1
        logistic = st.lmask[p]
        for card in st.empire[p]:
            out[at + (2 if logistic >> card & 1 else 3) * _M + card] = 1
        held = at + 4 * _M
        for a in arts:
            if p == me or aknown[a] & bit:
                out[held + a] = 1
    write_standing(out, st.vp, scoring.ranking(st) if over else None, me, (_SCORES, _RANK))
