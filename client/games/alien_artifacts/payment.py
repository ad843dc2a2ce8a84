"""Why a card that could pay is not in the payment menu right now, in one short line.

The engine offers card halves in one canonical way (games/alien_artifacts/legal.py ``_pay``, rules
§5.2): cards are added in hand order, then store order, so a card before the last one added is
not offered again; an operative action's or a Pilgrimage's half is offered only if the payment
can still reach its cost with the cards after it; a Trade or a Pilgrimage keeps the colour of
its first coloured half; Gold never pays an operative action or a Pilgrimage. A player who sees
a useful card missing may think paying is broken: :func:`why_not` says which rule keeps it out.

Only the viewer's own cards and the pending payment of their view are read, and the menu's
offered halves (the server's list): nothing hidden is involved.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from games.alien_artifacts import data as d

_RESOURCE = {name: i for i, name in enumerate(d.RESOURCE_NAMES)}
_STRICT = ("offensive", "income", "mine", "pilgrimage")
_WHAT = {
    "trade": "this Trade",
    "pilgrimage": "this Pilgrimage",
}


def _halves(card: str) -> list[tuple[int, int]]:
    index = _RESOURCE[card]
    return [(d.HALF_COLOUR[index][w], d.HALF_VALUE[index][w]) for w in (0, 1)]


def _listing(cards: list[str]) -> str:
    return ", ".join(cards[:-1]) + " and " + cards[-1] if len(cards) > 1 else cards[0]


def why_not(view: dict[str, Any], offered: Collection[str], width: int = 80) -> str | None:
    """Why cards of the viewer's hand or store that could pay are not offered now (None when
    every such card is offered, or outside a payment). ``offered`` holds the menu's halves as
    ``R08 top``. The text fits ``width`` columns when it can (else None)."""
    if view.get("phase") != "pay":
        return None
    seats = view.get("seats") or []
    me = view.get("seat")
    if not isinstance(me, int) or not 0 <= me < len(seats) or view.get("current_player") != me:
        return None
    pending = view.get("pending") or {}
    kind = pending.get("pay_action")
    keys = ("pay_requirement", "pay_value", "pay_limit", "pay_floor")
    numbers = [n for n in (pending.get(k) for k in keys) if isinstance(n, int)]
    if not isinstance(kind, str) or kind not in d.KIND_INDEX or len(numbers) != len(keys):
        return None
    need, value, limit, floor = numbers
    paid = len(pending.get("paid") or [])
    hand, store = seats[me].get("hand") or [], seats[me].get("store") or []
    cards = [c for c in [*hand, *store] if isinstance(c, str) and c in _RESOURCE]
    if len(cards) != len(hand) + len(store):
        return None
    if need >= 0 and value >= need:
        return None  # paid in full: only `finish` is left
    strict = kind in _STRICT
    converter = (view.get("turn_state") or {}).get("converter") and not strict
    colour_name = pending.get("pay_colour")
    fixed = d.COLOUR_NAMES.index(colour_name) if colour_name in d.COLOUR_NAMES else None
    index = d.KIND_INDEX[kind]
    if index <= d.A_PLANET:
        wanted: int | None = d.TYPE_COLOUR[index]
    elif kind in ("trade", "pilgrimage"):
        wanted = fixed
    else:
        wanted = d.OPERATIVE_COLOUR[index]

    def fits(colour: int) -> bool:
        if strict:
            return colour != d.GOLD and (wanted is None or colour == wanted)
        return converter or colour == d.GOLD or wanted is None or colour == wanted

    shown = {" ".join(o.split()) for o in offered}
    taken = [i for i, c in enumerate(cards) if any(f"{c} {h}" in shown for h in d.HALF_NAMES)]
    if paid >= limit:
        if any(fits(colour) for c in cards for colour, _ in _halves(c)):
            return _fit(width, [f"No more cards: {limit} is this action's production limit."])
        return None
    reasons: dict[str, list[str]] = {}
    first_of: dict[str, str] = {}
    for number, card in enumerate(cards):
        if number in taken:
            continue
        halves = _halves(card)
        if any(fits(colour) for colour, _ in halves):
            if number < floor:
                reasons.setdefault("before", []).append(card)
                continue
            # Offered only if the cost can still be reached with the cards after it (§5.2).
            slots = limit - paid - 1
            if slots <= 0:
                reasons.setdefault("last", []).append(card)
                continue
            earlier = [
                cards[i]
                for i in taken
                if i < number and _helps_after(cards, i, number, need - value, slots - 1, wanted)
            ]
            key = f"order {earlier[0]}" if earlier else "short"
            if earlier:
                first_of[key] = earlier[0]
            reasons.setdefault(key, []).append(card)
        elif fixed is not None and kind in _WHAT and number >= floor:
            reasons.setdefault("colour", []).append(card)
        elif strict and any(colour == d.GOLD for colour, _ in halves) and number >= floor:
            reasons.setdefault("gold", []).append(card)
    for key in sorted(
        reasons,
        key=lambda k: ("order", "last", "short", "before", "colour", "gold").index(k.split()[0]),
    ):
        texts = _texts(key, _listing(reasons[key]), first_of.get(key), kind, colour_name)
        found = _fit(width, texts)
        if found is not None:
            return found
    return None


def _colour_values(cards: list[str], colour: int, start: int) -> list[int]:
    """What each card from ``start`` on may bring in ``colour`` (its first half of it)."""
    values = []
    for card in cards[start:]:
        for half_colour, value in _halves(card):
            if half_colour == colour:
                values.append(value)
                break
    return values


def _reachable(values: list[int], slots: int, need: int) -> bool:
    return need <= 0 or (slots > 0 and sum(sorted(values, reverse=True)[:slots]) >= need)


def _helps_after(
    cards: list[str], first: int, card: int, due: int, slots: int, wanted: int | None
) -> bool:
    """Whether, once a half of card ``first`` is paid, a half of card ``card`` would be offered
    (an operative action or a Pilgrimage: no Gold, one colour, the cost still reachable)."""
    for colour, value in _halves(cards[first]):
        if colour == d.GOLD or (wanted is not None and colour != wanted) or value >= due:
            continue  # (a half that pays in full leaves nothing to add after it)
        for other, more in _halves(cards[card]):
            if other != colour:
                continue
            rest = _colour_values(cards, colour, card + 1)
            if _reachable(rest, slots, due - value - more):
                return True
    return False


def _texts(key: str, cards: str, first: str | None, kind: str, colour: Any) -> list[str]:
    """The ways to say one reason, longest first."""
    kinds: dict[str, Callable[[], list[str]]] = {
        "order": lambda: [
            f"{cards} not offered yet: cards are added in hand order, add {first} first.",
            f"{cards} not offered yet: add {first} first (hand order).",
            f"{cards}: add {first} first.",
        ],
        "last": lambda: [
            f"{cards} not offered: the last card this action allows must finish paying.",
            f"{cards}: the last card allowed must finish paying.",
        ],
        "short": lambda: [
            f"{cards} not offered: the cards after it could not complete the payment.",
            f"{cards} not offered: too little to complete it.",
        ],
        "before": lambda: [
            f"{cards} not offered: before the last card added (`undo` to use it).",
            f"{cards}: before the last card added (`undo`).",
        ],
        "colour": lambda: [
            f"{cards} not offered: {_WHAT.get(kind, 'this payment')} is paid in {colour} now.",
            f"{cards}: not {colour}.",
        ],
        "gold": lambda: [
            f"{cards} not offered: Gold never pays {d.ACTION_WORDS[d.KIND_INDEX[kind]]}.",
            f"{cards}: Gold never pays this.",
        ],
    }
    return kinds[key.split()[0]]()


def _fit(width: int, texts: list[str]) -> str | None:
    """The first text that fits a line of the hint (two columns of indent), else None."""
    return next((t for t in texts if len(t) <= width - 2), None)
