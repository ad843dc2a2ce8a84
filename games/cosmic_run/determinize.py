"""A full Cosmic Run state rebuilt from one seat's view, every hidden part sampled (§8.5).

What a view hides (:mod:`.views`): the other seats' Infodere values, the board tokens' values and
the box, the alien deck's order and the meteor deck's make-up and order. :func:`determinize`
reads the public parts in named steps and deals the hidden ones uniformly, drawing from its
generator in one fixed order (Infodere tokens, alien deck, meteor deck): one view and seed always
give the same state.
"""

from __future__ import annotations

from collections import Counter

from games.api import View
from games.cosmic_run.codes import (
    OVER,
    PHASE_NAMES,
    RETIRE,
    STATUS_NAMES,
    TARGET_INDEX,
    UNASSIGNED,
)
from games.cosmic_run.data import (
    ALIEN_INDEX,
    ALIENS,
    INFODERE_VALUES,
    METEOR_INDEX,
    MISS,
    MISS_CARDS_USED,
    STRIKE_CARDS,
    TOKEN_SPACES,
)
from games.cosmic_run.state import CosmicRunState
from games.cosmic_run.views import NAME
from games.rng import Rng


def determinize(view: View, seat: int | None, seed: int) -> CosmicRunState:
    """A full state matching ``view``, ``seat``'s view (None: a spectator's), with every hidden
    part sampled uniformly by a generator seeded with ``seed`` (§8.5).

    Raises ValueError if the view is another game's or another seat's, or inconsistent.
    """
    _check_view(view, seat)
    rng = Rng(seed)
    st = CosmicRunState(view["players"], rng)
    _read_progress(st, view)
    _read_planets(st, view)
    known_tokens = _read_seats(st, view)
    _deal_infodere(st, view, rng, known_tokens)
    _deal_aliens(st, view, rng)
    _deal_meteors(st, view, rng)
    _read_turn(st, view)
    if view["is_over"]:
        _read_final(st, view)
    return st


def _check_view(view: View, seat: int | None) -> None:
    """Refuse a view of another game, or one that is not ``seat``'s."""
    if view.get("game") != NAME:
        raise ValueError(f"not a {NAME} view: game={view.get('game')!r}")
    if view.get("seat") != seat:
        raise ValueError(f"the view is seat {view.get('seat')!r}'s, not seat {seat!r}'s")


def _read_progress(st: CosmicRunState, view: View) -> None:
    """Round, whose turn, the last-round flag and the pending decision (or the end)."""
    over = view["is_over"]
    st.round = view["round"]
    st.turn = view["turn"]
    st.final_round = view["last_round"]
    decision = view["decision"]
    st.phase = OVER if over else PHASE_NAMES.index(decision)


def _read_planets(st: CosmicRunState, view: View) -> None:
    """Planets, ships (the Drone's too) and the order of the stack on P6."""
    n = st.n
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


def _read_seats(st: CosmicRunState, view: View) -> list[int]:
    """VP, crystals, held aliens, discoveries and the Infodere values the view shows; returns
    those values (the seat's own, or everyone's once the game is over)."""
    known_tokens: list[int] = []
    for s, info in enumerate(view["seats"]):
        st.vp[s] = info["vp"]
        st.crystals[s] = info["crystals"]
        st.held[s] = [ALIEN_INDEX[a] for a in info["aliens"]]
        st.discovered[s] = info["discovered"]
        if info["infodere"] is not None:
            st.tokens[s] = list(info["infodere"])
            known_tokens.extend(info["infodere"])
    return known_tokens


def _deal_infodere(st: CosmicRunState, view: View, rng: Rng, known_tokens: list[int]) -> None:
    """Deal the Infodere values not in sight to the opponents, the board and the box."""
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


def _deal_aliens(st: CosmicRunState, view: View, rng: Rng) -> None:
    """The row and retired aliens as shown; the deck is every card not in sight, shuffled."""
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


def _deal_meteors(st: CosmicRunState, view: View, rng: Rng) -> None:
    """This turn's meteor card as shown; the deck a random subset of the set-up deck minus it."""
    card = view["meteor"]["card"]
    st.meteor_card = -1 if card is None else METEOR_INDEX[card]
    pool = list(range(len(STRIKE_CARDS))) + [MISS] * MISS_CARDS_USED[st.n]
    if st.meteor_card >= 0:
        pool.remove(st.meteor_card)
    st.meteor_deck = rng.sample(pool, view["meteor"]["deck_left"])


def _read_turn(st: CosmicRunState, view: View) -> None:
    """The turn in progress: dice and where they lie, free uses left, the retirement slot."""
    for die, info in enumerate(view["dice"]):
        st.dice[die] = info["value"]
        st.loc[die] = UNASSIGNED if info["at"] is None else TARGET_INDEX[info["at"]]
    st.assigned_since_roll = view["assigned_since_roll"]
    uses = view["free_uses"]
    st.free = [uses["reroll"], uses["nudge"], uses["flip"]]
    if st.phase == RETIRE:
        st.retire_slot = int(view["retire"]["slot"][1:]) - 1


def _read_final(st: CosmicRunState, view: View) -> None:
    """The final scoring of a finished game, as the view shows it."""
    final = view["final"]
    st.final = {
        key: [list(v) for v in final[key]] if key == "infodere" else list(final[key])
        for key in ("track", "held_aliens", "infodere", "infodere_vp", "crystals_vp", "total")
    }
