"""What a seat may see (§7), and a full state rebuilt from that alone (§8.5).

A view holds everything public plus the seat's own Infodere values. It never holds a board or
opponent token's value, the meteor or alien deck order, removed meteor cards or the box. Board
tokens are named by their space. Once the game is over every held token is revealed.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from games.api import View
from games.cosmic_run.codes import (
    OPEN,
    OVER,
    PHASE_NAMES,
    RETIRE,
    STATUS_NAMES,
    TARGET_INDEX,
    TARGET_NAMES,
    UNASSIGNED,
)
from games.cosmic_run.counting import ability_cost
from games.cosmic_run.data import (
    ALIEN_INDEX,
    ALIENS,
    BOOST_COST,
    DIE_NAMES,
    INFODERE_VALUES,
    METEOR_IDS,
    METEOR_INDEX,
    MISS,
    MISS_CARDS_USED,
    NUDGE_COST,
    REROLL_COST,
    SOLO_WIN_AT,
    STRIKE_CARDS,
    TOKEN_SPACES,
    TRACK_LENGTH,
    solo_rank,
)
from games.rng import Rng

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


# --- determinization (§8.5) ---------------------------------------------------------------------


def determinize(view: View, seat: int | None, seed: int) -> CosmicRunState:
    """A full state matching ``view``; every hidden part sampled uniformly (§8.5)."""
    from games.cosmic_run.state import CosmicRunState

    if view.get("game") != NAME:
        raise ValueError(f"not a {NAME} view: game={view.get('game')!r}")
    if view.get("seat") != seat:
        raise ValueError(f"the view is seat {view.get('seat')!r}'s, not seat {seat!r}'s")
    n = view["players"]
    rng = Rng(seed)
    st = CosmicRunState(n, rng)
    over = view["is_over"]
    st.round = view["round"]
    st.turn = view["turn"]
    st.final_round = view["last_round"]
    decision = view["decision"]
    st.phase = OVER if over else PHASE_NAMES.index(decision)

    # Planets, ships and the P6 stack.
    for planet, info in enumerate(view["planets"]):
        st.status[planet] = STATUS_NAMES.index(info["status"])
        st.hits[planet] = info["hits"]
        if info["ships"] is not None:
            for s in range(n):
                st.pos[s][planet] = info["ships"][s]
            if st.solo:
                st.drone[planet] = info["drone"]
    if view["p6_order"] is not None:
        for stamp, who in enumerate(view["p6_order"]):
            if who == "drone":
                st.drone_stamp = stamp
            else:
                st.stamp[who] = stamp
        st.next_stamp = len(view["p6_order"])

    # Seats.
    known_tokens: list[int] = []
    for s, info in enumerate(view["seats"]):
        st.vp[s] = info["vp"]
        st.crystals[s] = info["crystals"]
        st.held[s] = [ALIEN_INDEX[a] for a in info["aliens"]]
        st.discovered[s] = info["discovered"]
        if info["infodere"] is not None:
            st.tokens[s] = list(info["infodere"])
            known_tokens.extend(info["infodere"])

    # Infodere: deal the unknown values to opponents, the board and the box.
    unknown = Counter(INFODERE_VALUES)
    unknown.subtract(known_tokens)
    if min(unknown.values(), default=0) < 0:
        raise ValueError("the view holds Infodere values that the game does not have")
    pool = list(unknown.elements())
    rng.shuffle(pool)
    for s, info in enumerate(view["seats"]):
        if info["infodere"] is None:
            st.tokens[s] = sorted(pool.pop() for _ in range(info["infodere_count"]))
    for index, (planet, space) in enumerate(TOKEN_SPACES):
        if space in view["planets"][planet]["tokens"]:
            st.board_tokens[index] = pool.pop()
    st.box = pool

    # Aliens: the deck is every card not in sight, in random order.
    st.row = [-1 if a is None else ALIEN_INDEX[a] for a in view["row"]]
    st.retired = [ALIEN_INDEX[a] for a in view["retired"]]
    seen = {a for a in st.row if a >= 0} | set(st.retired)
    for held in st.held:
        seen.update(held)
    deck = [a for a in range(len(ALIENS)) if a not in seen]
    if len(deck) != view["alien_deck_left"]:
        raise ValueError("the view's alien deck count does not match the cards in sight")
    rng.shuffle(deck)
    st.alien_deck = deck

    # Meteors: a random subset of the set-up deck minus this turn's card.
    card = view["meteor"]["card"]
    st.meteor_card = -1 if card is None else METEOR_INDEX[card]
    pool = list(range(len(STRIKE_CARDS))) + [MISS] * MISS_CARDS_USED[n]
    if st.meteor_card >= 0:
        pool.remove(st.meteor_card)
    st.meteor_deck = rng.sample(pool, view["meteor"]["deck_left"])

    # The turn in progress.
    for die, info in enumerate(view["dice"]):
        st.dice[die] = info["value"]
        st.loc[die] = UNASSIGNED if info["at"] is None else TARGET_INDEX[info["at"]]
    st.assigned_since_roll = view["assigned_since_roll"]
    uses = view["free_uses"]
    st.free = [uses["reroll"], uses["nudge"], uses["flip"]]
    if st.phase == RETIRE:
        st.retire_slot = int(view["retire"]["slot"][1:]) - 1
    if over:
        final = view["final"]
        st.final = {
            key: [list(v) for v in final[key]] if key == "infodere" else list(final[key])
            for key in ("track", "held_aliens", "infodere", "infodere_vp", "crystals_vp", "total")
        }
    return st
