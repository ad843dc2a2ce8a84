"""Helpers for the Alien Artifacts tests: build positions directly, play actions, check cards."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.alien_artifacts import GAME
from games.alien_artifacts import codes as k
from games.alien_artifacts import data as d
from games.alien_artifacts import mechanics as core
from games.alien_artifacts.state import AlienArtifactsState

R = {name: i for i, name in enumerate(d.RESOURCE_NAMES)}
M = {name: i for i, name in enumerate(d.MARKET_NAMES)}
A = {name: i for i, name in enumerate(d.ARTIFACT_NAMES)}
AL = {name: i for i, name in enumerate(d.ALIEN_NAMES)}
DP = {name: i for i, name in enumerate(d.DEFENCE_NAMES)}


def new(factions: Iterable[str] = ("SU", "LEA"), seed: int = 1) -> AlienArtifactsState:
    """A fresh game with fixed factions, seat 0 to move."""
    fs = list(factions)
    return GAME.new(len(fs), seed, {"factions": fs})


def _remove_resource(st: AlienArtifactsState, c: int) -> None:
    for lst in (st.deck, st.discard, *st.hand, *st.store):
        if c in lst:
            lst.remove(c)
            return
    for p in range(st.n):
        for under in st.pcards[p]:
            if c in under:
                under.remove(c)
                return
    raise AssertionError(f"{d.RESOURCE_NAMES[c]} is nowhere")


def set_hand(st: AlienArtifactsState, p: int, names: Iterable[str]) -> None:
    """Give seat ``p`` exactly these hand cards; its old hand goes to the bottom of the deck."""
    old = st.hand[p]
    st.hand[p] = []
    for c in old:
        st.deck.insert(0, c)
    for name in names:
        c = R[name]
        _remove_resource(st, c)
        st.hand[p].append(c)
    touch(st)


def set_store(st: AlienArtifactsState, p: int, names: Iterable[str]) -> None:
    old = st.store[p]
    st.store[p] = []
    for c in old:
        st.deck.insert(0, c)
    for name in names:
        c = R[name]
        _remove_resource(st, c)
        st.store[p].append(c)
    touch(st)


def stack_deck(st: AlienArtifactsState, names: Iterable[str]) -> None:
    """Put these cards on top of the resource deck; the first name is drawn first."""
    cards = [R[x] for x in names]
    for c in cards:
        _remove_resource(st, c)
    for c in reversed(cards):
        st.deck.append(c)
    touch(st)


def deck_only(st: AlienArtifactsState, names: Iterable[str]) -> None:
    """Leave exactly these cards in the deck (first drawn first); the rest go to the discard."""
    cards = [R[x] for x in names]
    for c in cards:
        _remove_resource(st, c)
    st.discard.extend(st.deck)
    st.deck[:] = list(reversed(cards))
    touch(st)


def _remove_market(st: AlienArtifactsState, c: int) -> None:
    for deck in st.market:
        if c in deck:
            deck.remove(c)
            return
    for p in range(st.n):
        if c in st.empire[p]:
            core.remove_from_empire(st, p, c)
            return
        if c in st.proj[p]:
            i = st.proj[p].index(c)
            st.proj[p].pop(i)
            st.pdep[p].pop(i)
            st.discard.extend(st.pcards[p].pop(i))
            return
    raise AssertionError(f"{d.MARKET_NAMES[c]} is nowhere")


def give_card(st: AlienArtifactsState, p: int, name: str, side: str = "operative") -> None:
    """Put market card ``name`` into ``p``'s empire on ``side``."""
    c = M[name]
    _remove_market(st, c)
    core.add_to_empire(st, p, c, d.LOGISTIC if side == "logistic" else d.OPERATIVE)
    touch(st)


def give_project(st: AlienArtifactsState, p: int, name: str, deposit: int = 0) -> None:
    c = M[name]
    _remove_market(st, c)
    core.add_project(st, p, c)
    st.pdep[p][-1] = deposit
    touch(st)


def clear_projects(st: AlienArtifactsState, p: int) -> None:
    for c in list(st.proj[p]):
        _remove_market(st, c)
        st.market[c // 16].append(c)
    touch(st)


def clear_empire(st: AlienArtifactsState, p: int) -> None:
    for c in list(st.empire[p]):
        core.remove_from_empire(st, p, c)
        st.market[c // 16].append(c)
    touch(st)


def give_artifact(st: AlienArtifactsState, p: int, name: str) -> None:
    a = A[name]
    for lst in (st.adeck, st.adiscard, *st.arts):
        if a in lst:
            lst.remove(a)
    st.arts[p].append(a)
    touch(st)


def set_display(st: AlienArtifactsState, names: Iterable[str]) -> None:
    for slot, name in enumerate(names):
        a = AL[name]
        old = st.display[slot]
        if a == old:
            continue
        if a in st.display:
            j = st.display.index(a)
            st.display[j], st.display[slot] = old, a
            continue
        for lst in (st.alien_deck, st.alien_discard):
            if a in lst:
                lst.remove(a)
        st.alien_deck.insert(0, old)
        st.display[slot] = a
    touch(st)


def set_plan(st: AlienArtifactsState, q: int, name: str) -> None:
    x = DP[name]
    if st.plan[q] == x:
        return
    for p in range(st.n):
        if st.plan[p] == x:
            st.plan[p], st.plan[q] = st.plan[q], x
            touch(st)
            return
    for lst in (st.ddeck, st.ddiscard):
        if x in lst:
            lst.remove(x)
    st.ddeck.insert(0, st.plan[q])
    st.plan[q] = x
    touch(st)


def to_action(st: AlienArtifactsState, p: int | None = None) -> AlienArtifactsState:
    """Put the state at ``p``'s CHOOSE_ACTION (fresh turn flags)."""
    if p is not None:
        st.cur = p
    st.phase = k.CHOOSE_ACTION
    st.ctx = k.CTX_MAIN
    touch(st)
    return st


def to_pre(st: AlienArtifactsState, p: int | None = None) -> AlienArtifactsState:
    if p is not None:
        st.cur = p
    st.phase = k.PRE_ACTION
    st.ctx = k.CTX_MAIN
    touch(st)
    return st


def touch(st: AlienArtifactsState) -> None:
    st._legal = None


def play(st: AlienArtifactsState, *actions: tuple[Any, ...]) -> list[dict[str, Any]]:
    """Apply ``actions``; a ``finish``/``continue``/``start_action``, or an ``add`` after the
    payment is over, that the engine already took on its own (the only option) is skipped."""
    events: list[dict[str, Any]] = []
    for a in actions:
        auto = AUTO.get(a, "pay" if a[0] == "add" else None)
        if auto and a not in st.legal_actions() and k.PHASE_NAMES[st.phase] != auto:
            continue
        events.extend(st.apply(a))
    return events


AUTO = {("finish",): "pay", ("continue",): "post_action", ("start_action",): "pre_action"}


def phase(st: AlienArtifactsState) -> str:
    return k.PHASE_NAMES[st.phase]


def names(ids: Iterable[int], table: tuple[str, ...] = d.RESOURCE_NAMES) -> list[str]:
    return [table[i] for i in ids]


def empire(st: AlienArtifactsState, p: int) -> list[list[str]]:
    return [
        [d.MARKET_NAMES[c], "logistic" if st.lmask[p] >> c & 1 else "operative"]
        for c in st.empire[p]
    ]


def projects(st: AlienArtifactsState, p: int) -> list[str]:
    return [d.MARKET_NAMES[c] for c in st.proj[p]]


def add(src: str, i: int, half: str = "top") -> tuple[str, str, int, str]:
    return ("add", src, i, half)


def check_conservation(st: AlienArtifactsState) -> None:
    """Every card of every kind is in exactly one place."""
    res = list(st.deck) + list(st.discard) + [x >> 1 for x in st.paying]
    for p in range(st.n):
        res += st.hand[p] + st.store[p] + [x for pc in st.pcards[p] for x in pc]
    assert sorted(res) == list(range(54))
    m = [c for t in range(3) for c in st.market[t]]
    for p in range(st.n):
        m += st.empire[p] + st.proj[p]
    if st.side_card >= 0:
        m.append(st.side_card)
    assert sorted(m) == list(range(48))
    assert all(c // 16 == t for t in range(3) for c in st.market[t])
    arts = st.adeck + st.adiscard + st.keep + ([st.playing] if st.playing >= 0 else [])
    for p in range(st.n):
        arts += st.arts[p]
    assert sorted(arts) == list(range(14))
    assert sorted(st.ddeck + st.ddiscard + st.plan) == list(range(10))
    assert sorted(st.alien_deck + st.alien_discard + st.display) == list(range(8))
    for p in range(st.n):
        assert len(st.proj[p]) == len(st.pdep[p]) == len(st.pcards[p])
        assert st.lmask[p] & st.omask[p] == 0
        assert sorted(st.empire[p]) == [
            c for c in range(48) if (st.lmask[p] | st.omask[p]) >> c & 1
        ]
