"""Operative technology conditions (§9.3), final scoring (§10.2) and the ranking (§10.3)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.alien_artifacts import data as d
from games.api import Event

if TYPE_CHECKING:
    from games.alien_artifacts.state import AlienArtifactsState as S

_SHIPS, _TECHS, _PLANETS = d.TYPE_MASK
_EXPLORE, _EXPAND, _EXPLOIT, _EXTERMINATE = d.SYMBOL_MASK
_TECH_SCORING = d.TECH_SCORING


def tech_score(st: S, p: int, tech: int) -> int:
    """The VP one scoring of operative technology ``tech`` gives ``p`` now."""
    lm = st.lmask[p]
    om = st.omask[p]
    em = lm | om
    i = tech - d.T01
    # What the technology counts; d.TECH_SCORING says per how many it scores 1 VP, up to a cap.
    if i == 0:
        n = (om & _PLANETS).bit_count()
    elif i == 1:
        n = (om & _SHIPS).bit_count()
    elif i == 2:
        n = st.credits[p]
    elif i == 3:
        n = lm.bit_count()
    elif i == 4:
        n = len(st.proj[p])
    elif i == 5:
        n = (em & _EXPLORE).bit_count()
    elif i == 6:
        n = (em & _EXTERMINATE).bit_count()
    elif i == 7:
        n = len(st.arts[p])
    elif i == 8:
        n = (em & _EXPAND).bit_count()
    elif i == 9:
        n = (em & _SHIPS).bit_count()
    elif i == 10:
        n = (em & _PLANETS).bit_count()
    elif i == 11:
        n = (em & _TECHS).bit_count()
    elif i == 12:
        n = em.bit_count()
    elif i == 13:
        n = min((em & _SHIPS).bit_count(), (em & _TECHS).bit_count(), (em & _PLANETS).bit_count())
    elif i == 14:
        n = sum(1 for m in d.SYMBOL_MASK if em & m) - 1  # beyond the first
        if n < 0:
            n = 0
    else:
        n = (em & _EXPLOIT).bit_count()
    per, cap = _TECH_SCORING[i]
    v = n // per
    return v if v < cap else cap


def score_techs(st: S, p: int, ev: list[Event], reason: str) -> int:
    """Score every operative technology of ``p`` on one state, then add the VP (ruling 25)."""
    om = st.omask[p]
    scored = [(c, tech_score(st, p, c)) for c in st.empire[p] if 16 <= c < 32 and om >> c & 1]
    total = sum(v for _, v in scored)
    st.vp[p] += total
    ev.append(
        {
            "type": "tech_scoring",
            "seat": p,
            "reason": reason,
            "techs": [[d.MARKET_NAMES[c], v] for c, v in scored],
            "vp": total,
        }
    )
    return total


def faction_bonus(st: S, p: int) -> int:
    """§2.2's end-game bonus of ``p``'s faction."""
    f = st.factions[p]
    lm = st.lmask[p]
    om = st.omask[p]
    em = lm | om
    if f == d.SU:
        return (om & _SHIPS).bit_count()
    if f == d.COM:
        return (em & _PLANETS).bit_count() + (em & _EXPLOIT).bit_count()
    if f == d.BIO:
        return (em & _TECHS).bit_count() + (em & _EXPLORE).bit_count()
    if f == d.EPI:
        return st.gained[p]
    if f == d.LEA:
        return st.credits[p] // d.LEAGUE_CREDITS_PER_VP
    return lm.bit_count()


def final_scoring(st: S, ev: list[Event]) -> None:
    """§10.2: built cards, operative techs once more, faction bonus, unused artifacts."""
    rows = []
    for p in range(st.n):
        lm = st.lmask[p]
        om = st.omask[p]
        built = d.END_VP_LOGISTIC * lm.bit_count() + d.END_VP_OPERATIVE * om.bit_count()
        techs = sum(tech_score(st, p, c) for c in st.empire[p] if 16 <= c < 32 and om >> c & 1)
        bonus = faction_bonus(st, p)
        unused = d.UNUSED_ARTIFACT_VP * len(st.arts[p])
        st.vp[p] += built + techs + bonus + unused
        rows.append(
            {"built": built, "techs": techs, "faction": bonus, "artifacts": unused, "vp": st.vp[p]}
        )
    ev.append({"type": "final_scoring", "seats": rows})


def ranking(st: S) -> list[list[int]]:
    """§10.3: VP, then credits, then empire size; still tied players share a place."""
    keys = {p: (st.vp[p], st.credits[p], len(st.empire[p])) for p in range(st.n)}
    order = sorted(range(st.n), key=lambda p: keys[p], reverse=True)
    groups: list[list[int]] = []
    last = None
    for p in order:
        if keys[p] == last:
            groups[-1].append(p)
        else:
            groups.append([p])
            last = keys[p]
    for g in groups:
        g.sort()
    return groups
