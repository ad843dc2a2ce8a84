"""What a seat may see (§7); :mod:`.determinize` rebuilds a full state from that alone (§8.5).

A view holds everything public plus the seat's own Infodere values. It never holds a board or
opponent token's value, the meteor or alien deck order, removed meteor cards or the box. Board
tokens are named by their space. Once the game is over every held token is revealed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.api import View
from games.cosmic_run.codes import (
    OPEN,
    OVER,
    PHASE_NAMES,
    RETIRE,
    STATUS_NAMES,
    TARGET_NAMES,
    UNASSIGNED,
)
from games.cosmic_run.data import (
    ALIENS,
    BOOST_COST,
    DIE_NAMES,
    METEOR_IDS,
    MISS_CARDS_USED,
    NUDGE_COST,
    REROLL_COST,
    SOLO_WIN_AT,
    STRIKE_CARDS,
    TOKEN_SPACES,
    TRACK_LENGTH,
    solo_rank,
)
from games.cosmic_run.mechanics import ability_cost

if TYPE_CHECKING:
    from games.cosmic_run.state import CosmicRunState

NAME = "cosmic_run"


def _alien_id(alien: int) -> str | None:
    return None if alien < 0 else ALIENS[alien].id


def p6_order(st: CosmicRunState) -> list[Any]:
    """Ships on the P6 track, the one ahead first (further along, then lower in the stack)."""
    ships: list[tuple[int, int, Any]] = [(-st.pos[s][5], st.stamp[s], s) for s in range(st.n)]
    if st.solo:
        ships.append((-st.drone[5], st.drone_stamp, "drone"))
    ships.sort(key=lambda ship: (ship[0], ship[1]))
    return [who for _, _, who in ships]


def view(st: CosmicRunState, seat: int | None) -> View:
    """``seat``'s view: the public part (built once per state change) plus its own tokens."""
    public = st._public
    if public is None:
        public = st._public = _public_view(st)
    if seat is None:
        return dict(public)
    mine = dict(public["seats"][seat])
    mine["infodere"] = sorted(st.tokens[seat])
    seats = list(public["seats"])
    seats[seat] = mine
    result = dict(public)
    result["seat"] = seat
    result["seats"] = seats
    return result


def _public_view(st: CosmicRunState) -> View:
    """What a spectator sees; every seat's view shares these parts (views are read-only)."""
    seat = None
    n = st.n
    over = st.phase == OVER
    planets = []
    for planet in range(6):
        is_open = st.status[planet] == OPEN
        planets.append(
            {
                "planet": planet + 1,
                "length": TRACK_LENGTH[planet],
                "status": STATUS_NAMES[st.status[planet]],
                "hits": st.hits[planet],
                "tokens": [
                    space
                    for index, (p, space) in enumerate(TOKEN_SPACES)
                    if p == planet and st.board_tokens[index]
                ],
                "ships": [st.pos[s][planet] for s in range(n)] if is_open else None,
                "drone": st.drone[planet] if st.solo and is_open else None,
            }
        )
    seats = []
    for s in range(n):
        sees_tokens = over or s == seat
        seats.append(
            {
                "seat": s,
                "vp": st.vp[s],
                "crystals": st.crystals[s],
                "aliens": [ALIENS[a].id for a in st.held[s]],
                "infodere_count": len(st.tokens[s]),
                "infodere": sorted(st.tokens[s]) if sees_tokens else None,
                "discovered": st.discovered[s],
            }
        )
    active = st.turn
    deck_size = len(STRIKE_CARDS) + MISS_CARDS_USED[n]
    retire = None
    if st.phase == RETIRE:
        retire = {"slot": f"A{st.retire_slot + 1}", "incoming": _alien_id(st.row[st.retire_slot])}
    return {
        "game": NAME,
        "players": n,
        "seat": seat,
        "current_player": None if over else active,
        "is_over": over,
        "scores": st.scores(),
        "ranking": st.ranking() if over else None,
        "solo": st.solo,
        "round": st.round,
        "max_rounds": deck_size // n,
        "turn": active,
        "decision": PHASE_NAMES[st.phase],
        "last_round": st.final_round,
        "meteor": {
            "deck_left": len(st.meteor_deck),
            "card": None if st.meteor_card < 0 else METEOR_IDS[st.meteor_card],
        },
        "planets": planets,
        "p6_order": p6_order(st) if st.status[5] == OPEN else None,
        "dice": [
            {
                "die": DIE_NAMES[die],
                "value": st.dice[die],
                "at": None if st.loc[die] == UNASSIGNED else TARGET_NAMES[st.loc[die]],
            }
            for die in range(6)
        ],
        "assigned_since_roll": st.assigned_since_roll,
        "free_uses": {"reroll": st.free[0], "nudge": st.free[1], "flip": st.free[2]},
        "costs": {
            "reroll": ability_cost(st, active, REROLL_COST),
            "nudge": ability_cost(st, active, NUDGE_COST),
            "boost": ability_cost(st, active, BOOST_COST),
        },
        "row": [_alien_id(a) for a in st.row],
        "alien_deck_left": len(st.alien_deck),
        "retired": [ALIENS[a].id for a in st.retired],
        "retire": retire,
        "seats": seats,
        "final": _final(st) if over else None,
    }


def _final(st: CosmicRunState) -> dict[str, Any]:
    assert st.final is not None
    final: dict[str, Any] = {key: list(value) for key, value in st.final.items()}
    final["infodere"] = [list(values) for values in final["infodere"]]
    if st.solo:
        final["solo_rank"] = solo_rank(final["total"][0])
        final["solo_win"] = final["total"][0] >= SOLO_WIN_AT
    return final
