"""Scoring Cosmic Run: a planet once discovered or destroyed (§4), final scoring (§6.2) and
the ranking (§6.3)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.api import Event
from games.cosmic_run.codes import DESTROYED, DISCOVERED, DRONE, OPEN, OVER
from games.cosmic_run.data import (
    ALIEN_VP,
    CARTOGRAPHER,
    CARTOGRAPHER_VP,
    DISCOVERER_VP,
    LEFTOVER_VP_DIVISOR,
    P6_RANK_VP,
    SEER,
    SPACE_VP,
    SURVEYOR,
    SURVEYOR_VP,
    TOKEN_SPACES,
    solo_rank,
)
from games.cosmic_run.mechanics import holds

if TYPE_CHECKING:
    from games.cosmic_run.state import CosmicRunState


# --- planet scoring (§4) ------------------------------------------------------------------------


def score_planet(
    st: CosmicRunState, planet: int, discoverer: int | None, events: list[Event]
) -> None:
    """Score ``planet`` once: discovered by ``discoverer`` (a seat or DRONE) or destroyed."""
    n = st.n
    gained = [0] * n
    if planet == 5:
        racers = [(-st.pos[s][5], st.stamp[s], s) for s in range(n)]
        if st.solo:
            racers.append((-st.drone[5], st.drone_stamp, DRONE))
        racers.sort()
        rank = 0
        for minus_pos, _, s in racers:
            if s == discoverer or minus_pos == 0:
                continue
            if rank < len(P6_RANK_VP) and s != DRONE:
                gained[s] += P6_RANK_VP[rank]
            rank += 1
    else:
        space_vp = SPACE_VP[planet]
        for s in range(n):
            if s != discoverer:
                gained[s] += space_vp[st.pos[s][planet]]
    if discoverer is not None and discoverer != DRONE:
        gained[discoverer] += DISCOVERER_VP[planet]
        gained[discoverer] += CARTOGRAPHER_VP * holds(st, discoverer, CARTOGRAPHER)
        st.discovered[discoverer] += 1
    if discoverer is None:
        for s in range(n):
            if st.pos[s][planet] > 0:
                gained[s] += SURVEYOR_VP * holds(st, s, SURVEYOR)
    for s in range(n):
        st.vp[s] += gained[s]
    st.status[planet] = DISCOVERED if discoverer is not None else DESTROYED
    # Tokens still on this track go to the box, unseen (§4.3).
    for index, (token_planet, _) in enumerate(TOKEN_SPACES):
        if token_planet == planet and st.board_tokens[index]:
            st.box.append(st.board_tokens[index])
            st.board_tokens[index] = 0
    by: Any = None if discoverer is None else ("drone" if discoverer == DRONE else discoverer)
    events.append(
        {
            "type": "planet_scored",
            "planet": planet + 1,
            "how": "discovered" if discoverer is not None else "destroyed",
            "by": by,
            "vp": gained,
        }
    )
    if OPEN not in st.status and not st.final_round:
        st.final_round = True
        events.append({"type": "last_round"})


# --- the end (§6) ------------------------------------------------------------------------------


def game_over(st: CosmicRunState, events: list[Event]) -> None:
    """Final scoring (§6.2): held aliens, Infodere values, leftover crystals; the game is over."""
    n = st.n
    aliens = [sum(ALIEN_VP[a] for a in st.held[s]) for s in range(n)]
    infodere = [sum(st.tokens[s]) for s in range(n)]
    crystals_vp = [
        st.crystals[s] if holds(st, s, SEER) else st.crystals[s] // LEFTOVER_VP_DIVISOR
        for s in range(n)
    ]
    total = [st.vp[s] + aliens[s] + infodere[s] + crystals_vp[s] for s in range(n)]
    st.final = {
        "track": st.vp[:],
        "held_aliens": aliens,
        "infodere": [sorted(t) for t in st.tokens],
        "infodere_vp": infodere,
        "crystals_vp": crystals_vp,
        "total": total,
    }
    st.phase = OVER
    result: dict[str, Any] = {"type": "game_over", **st.final, "ranking": ranking(st)}
    if st.solo:
        result["solo_rank"] = solo_rank(total[0])
        result["solo_win"] = total[0] >= 50
    events.append(result)


def ranking(st: CosmicRunState) -> list[list[int]]:
    """Seats best first: VP, then planets discovered, Infodere count, crystals left (§6.3)."""
    scores = st.scores()

    def key(seat: int) -> tuple[int, int, int, int]:
        return (scores[seat], st.discovered[seat], len(st.tokens[seat]), st.crystals[seat])

    groups: list[list[int]] = []
    last = None
    for seat in sorted(range(st.n), key=key, reverse=True):
        k = key(seat)
        if k == last:
            groups[-1].append(seat)
        else:
            groups.append([seat])
            last = k
    return groups
