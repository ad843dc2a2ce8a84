"""Menu previews: what each legal action will do, worked out from the player's own view only.

:func:`previews` gives one short text per legal action of the seat whose view it is, e.g.
``-1 crystal, re-roll W2``, ``+1 step on P3 when rolling ends (ship to space 4)``, ``ends
rolling, discover planet 3, +9 VP, ends your turn``, ``-5 Blue, +0 VP (T15 +0)``, ``+0 to +2 VP
(depends on the draw)`` or ``draw 3 cards, ends your turn``; ``None`` when there is nothing worth
saying. :func:`effects` gives the claims behind each text too.

How: the game's ``determinize`` builds several full states consistent with the view (hidden
cards and future rolls sampled), each action is applied to a clone of each sample, and the seat's
own quantities are compared before and after. A change that is the same in every sample and that
no roll or hidden card decided is certain and shown as it is; one that differs between samples,
or that a draw decided, is shown as a range and "depends on the roll" or "depends on the draw",
never as one sampled value. Cards drawn are counted, never named.

What is measured is the action's own doing, up to the seat's next decision: in Cosmic Run it
stops where the turn ends (the next meteor, the Drone's roll are not the action's doing), and a
die placed while rolling goes on is previewed by the step it adds once rolling ends. In Alien
Artifacts an operative action (Income, Mine, Offensive) or a Pilgrimage is followed through its
payment, paid the first way the menu offers: what it then brings does not depend on which cards
pay, and the cost is said first (``-5 Blue``).

Nothing hidden can leak: the samples are made from the view alone, with seeds taken from the
view itself, so two positions that look the same to the seat get the same previews.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import games
from client.games import GamePlugin, plugin
from client.games.outcome import Outcome
from client.text.wording import listing, plural, signed

SAMPLES = 4
"""Determinizations every action is tried on."""
CHANCE_SAMPLES = 16
"""Determinizations for an action whose outcome a draw decides (a wider range of outcomes)."""
_CACHE_SIZE = 32


@dataclass(frozen=True)
class Effect:
    """The preview of one action: its text and the claims behind it (for tests and tools)."""

    text: str | None
    certain: dict[str, int]
    """Changes claimed for sure, by key (``vp``, ``credits``, ``crystals``, ``drawn``...)."""
    ranges: dict[str, tuple[int, int]]
    """Changes that depend on a roll or a draw: the lowest and highest possible or seen."""
    items: dict[str, str]
    """Named changes claimed for sure, e.g. ``{"ship P3": "ship to space 4 on P3"}``."""
    projected: dict[str, int] = field(default_factory=dict)
    """Cosmic Run: where a ship will be once rolling ends with the dice placed so far and this
    one (``{"ship P3": 4}``; the track's length if it reaches the planet)."""


# --- entry points ---------------------------------------------------------------------------------


def previews(view: dict[str, Any], legal: Sequence[Any]) -> list[str | None]:
    """One short text (or ``None``) per action of ``legal``, for the seat whose view it is."""
    return [e.text if e is not None else None for e in effects(view, legal)]


def preview_text(game: Any, view: dict[str, Any], action: Any) -> str | None:
    """The preview of one action; ``game`` is the game's name or object (the view names it)."""
    name = getattr(game, "name", game)
    if name is not None and name != view.get("game"):
        return None
    effect = effects(view, [action])[0]
    return effect.text if effect is not None else None


_cache: OrderedDict[tuple[str, tuple[Any, ...]], list[Effect | None]] = OrderedDict()


def effects(view: dict[str, Any], legal: Sequence[Any]) -> list[Effect | None]:
    """The previews of ``legal`` with their claims; ``None`` where there is nothing to say."""
    actions = [_as_action(item) for item in legal]
    seat = view.get("seat")
    found = plugin(view.get("game"))
    if found is None or not isinstance(seat, int) or view.get("current_player") != seat:
        return [None] * len(actions)
    digest = _digest(view)
    key = (digest, tuple(actions))
    cached = _cache.get(key)
    if cached is not None:
        _cache.move_to_end(key)
        return cached
    result = _compute(view, seat, actions, digest, found)
    _cache[key] = result
    if len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    return result


def _as_action(item: Any) -> tuple[Any, ...]:
    """An action from a legal-list item: a tuple, a list, or a protocol ``{"action": [...]}``."""
    if isinstance(item, dict):
        item = item.get("action") or ()
    return tuple(item) if isinstance(item, (list, tuple)) else ()


def _digest(view: dict[str, Any]) -> str:
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


# --- sampling -------------------------------------------------------------------------------------


class _Samples:
    """Determinizations of one view, made on demand from seeds the view itself gives."""

    def __init__(self, view: dict[str, Any], seat: int, digest: str) -> None:
        self.game = games.get(str(view["game"]))
        self.view = view
        self.seat = seat
        self.rng = random.Random(int(digest, 16))
        self.states: list[Any] = []

    def first(self, count: int) -> list[Any]:
        while len(self.states) < count:
            seed = self.rng.getrandbits(32)
            self.states.append(self.game.determinize(self.view, self.seat, seed))
        return self.states[:count]


_SAFE = (KeyError, IndexError, TypeError, ValueError, AttributeError)


def _compute(
    view: dict[str, Any],
    seat: int,
    actions: list[tuple[Any, ...]],
    digest: str,
    found: GamePlugin,
) -> list[Effect | None]:
    samples = _Samples(view, seat, digest)
    try:
        samples.first(SAMPLES)
    except _SAFE:  # a view the engine cannot rebuild: no previews rather than a crash
        return [None] * len(actions)
    word = found.chance_word
    observer = found.observe
    result: list[Effect | None] = []
    for action in actions:
        try:
            outcomes = [observer(st, action, seat) for st in samples.first(SAMPLES)]
            if any(o.chance for o in outcomes):
                more = samples.first(CHANCE_SAMPLES)[SAMPLES:]
                outcomes += [observer(st, action, seat) for st in more]
            result.append(_merge(outcomes, word))
        except _SAFE:  # an action the engine refuses here (games.IllegalAction is a ValueError)
            result.append(None)
    return result


# --- merging samples into words -------------------------------------------------------------------

_ORDER = ("crystals", "credits", "dice", "vp", "tokens", "drawn", "store", "artifacts")
_NOUNS = {
    "vp": ("VP", "VP"),
    "crystals": ("crystal", "crystals"),
    "credits": ("credit", "credits"),
    "tokens": ("Infodere token", "Infodere tokens"),
    "artifacts": ("artifact", "artifacts"),
}
_COUNTS = {"drawn": "draw {}", "store": "{} to your store", "dice": "roll {}"}
_COUNT_NOUNS = {"drawn": ("card", "cards"), "store": ("card", "cards"), "dice": ("die", "dice")}


def _number_text(key: str, value: int) -> str:
    if key in _COUNTS:
        one, many = _COUNT_NOUNS[key]
        return _COUNTS[key].format(plural(value, one, many))
    one, many = _NOUNS[key]
    return signed(value, one, many)


def _range_text(key: str, low: int, high: int) -> str:
    if key in _COUNTS:
        return _COUNTS[key].format(f"{low} to {high} {_COUNT_NOUNS[key][1]}")
    return f"{low:+d} to {high:+d} {_NOUNS[key][1]}"


def _merge(outcomes: list[Outcome], word: str) -> Effect | None:
    first = outcomes[0]
    parts = list(first.first) if all(o.first == first.first for o in outcomes) else []
    certain: dict[str, int] = {}
    ranges: dict[str, tuple[int, int]] = {}
    items: dict[str, str] = {}
    unsure: list[str] = []  # ranges seen, said together with what decides them
    undecided: list[str] = []  # quantities a draw decides that every sample happened to agree on
    gains: list[str] = []
    for key in _ORDER:
        if not any(key in o.numbers or key in o.shown or key in o.exact for o in outcomes):
            continue
        values = [o.numbers.get(key, 0) for o in outcomes]
        low, high = min(values), max(values)
        exact = first.exact.get(key)
        if exact is not None and all(o.exact.get(key) == exact for o in outcomes):
            ranges[key] = exact
            unsure.append(_range_text(key, *exact))
        elif low == high and not any(key in o.chance for o in outcomes):
            if low or any(key in o.shown for o in outcomes):
                certain[key] = low
                text = _number_text(key, low)
                detail = first.detail.get(key)
                if detail and all(o.detail.get(key) == detail for o in outcomes):
                    text += " " + detail
                # Costs first, then what the action brings.
                (parts if low < 0 and key not in _COUNTS else gains).append(text)
        else:
            ranges[key] = (low, high)
            if low == high:
                undecided.append(_NOUNS.get(key, (key, key))[1])
            else:
                unsure.append(_range_text(key, low, high))
    keys = list(dict.fromkeys(key for o in outcomes for key in o.items))
    for key in keys:
        texts = [o.items.get(key) for o in outcomes]
        if all(t == texts[0] for t in texts):
            assert texts[0] is not None
            items[key] = texts[0][0]
            parts.append(texts[0][0])
        else:
            maybe = next(t for t in texts if t is not None)[1]
            if maybe:
                parts.append(maybe)
    parts += gains
    if unsure:
        parts.append(f"{listing(unsure)} (depends on the {word})")
    if undecided:
        parts.append(f"{listing(undecided)} depend on the {word}")
    for note in first.notes:
        if all(note in o.notes for o in outcomes):
            parts.append(note)
    if not parts:
        return None
    same = all(o.projected == first.projected for o in outcomes)
    return Effect(", ".join(parts), certain, ranges, items, first.projected if same else {})


# --- Cosmic Run -----------------------------------------------------------------------------------

# Events after which play is no longer the seat's own turn: what follows (the next meteor, the
# Drone's roll) is not what the action did.
