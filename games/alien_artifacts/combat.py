"""One attack (§7.2): reveal, attack value, the alien or defence-plan result, riders, looting."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.alien_artifacts import data as d
from games.alien_artifacts import mechanics
from games.alien_artifacts.codes import PUBLIC
from games.api import Event

if TYPE_CHECKING:
    from games.alien_artifacts.state import AlienArtifactsState as S

_T02, _T07, _T10, _T14, _T16 = (1 << t for t in (d.T02, d.T07, d.T10, d.T14, d.T16))


def attack_value(st: S, p: int, ship: int, number: int, defender: int) -> int:
    """§7.2 step 3; ``defender`` is -1 for an alien system."""
    v = number + d.SHIP_BONUS[ship]
    if st.lmask[p] & _T02:
        v += d.ATTACK_BONUS_T02
    if defender >= 0:
        if ship == d.RAIDER:
            v += d.RAIDER_BONUS
        if st.lmask[defender] & _T14:
            v -= d.ATTACK_MALUS_T14
    return v


def _hit(st: S, p: int, ship: int, hit: int, ev: list[Event]) -> None:
    """Apply a Damaged/Destroyed result to the attacking ship, after T07 and Armoured."""
    lm = st.lmask[p]
    if lm & _T07:
        hit = d.DAMAGED if hit == d.DESTROYED else d.NO_HIT
    if hit == d.DAMAGED and ship in d.ARMOURED:
        hit = d.NO_HIT
    if hit == d.NO_HIT:
        ev.append({"type": "ship_protected", "seat": p, "ship": d.MARKET_NAMES[ship]})
        return
    mechanics.remove_from_empire(st, p, ship)
    if hit == d.DAMAGED:
        mechanics.add_project(st, p, ship)
        ev.append({"type": "ship_damaged", "seat": p, "ship": d.MARKET_NAMES[ship]})
    else:
        st.market[d.SHIP].append(ship)
        st.mknown[ship] = PUBLIC
        ev.append({"type": "ship_destroyed", "seat": p, "ship": d.MARKET_NAMES[ship]})
    if lm & _T10:
        st.credits[p] += d.SALVAGE_CREDITS


def attack(st: S, p: int, ship: int, slot: int, defender: int, ev: list[Event]) -> None:
    """Ship ``ship`` of ``p`` attacks alien slot ``slot`` or, if ``defender >= 0``, that seat."""
    st.attacked |= 1 << ship
    e: Event = {"type": "attack", "seat": p, "ship": d.MARKET_NAMES[ship]}
    if defender >= 0:
        e["target"] = "player"
        e["defender"] = defender
    else:
        e["target"] = "alien"
        e["slot"] = slot
        e["alien"] = d.ALIEN_NAMES[st.display[slot]]
    card = mechanics.draw(st, ev)
    if card < 0:
        e["cancelled"] = True
        ev.append(e)
        return
    value = attack_value(st, p, ship, d.ATTACK_NUMBER[card], defender)
    e["card"] = d.RESOURCE_NAMES[card]
    e["value"] = value
    ev.append(e)
    credits = st.credits
    vp = st.vp
    if defender < 0:
        alien = st.display[slot]
        hit, cr, gain_vp, art = d.ALIEN_TABLE[alien][min(max(value, 1), 6) - 1]
        if hit:
            _hit(st, p, ship, hit, ev)
        credits[p] += cr
        vp[p] += gain_vp
        ev.append(
            {"type": "alien_result", "seat": p, "credits": cr, "vp": gain_vp, "artifact": bool(art)}
        )
        if art:
            mechanics.gain_artifact(st, p, ev)
            _loot(st, slot, ev)
    else:
        plan = st.plan[defender]
        rep, raid, strike, fortify = d.DEFENCE_TABLE[plan][min(max(value, 1), 5) - 1]
        ev.append({"type": "defence_revealed", "seat": defender, "plan": d.DEFENCE_NAMES[plan]})
        if rep:
            _hit(st, p, ship, d.DAMAGED, ev)
        if raid:
            taken = min(raid, credits[defender])
            credits[defender] -= taken
            credits[p] += taken
        if fortify:
            credits[defender] += fortify
        if strike:
            vp[p] += strike
            vp[defender] -= min(strike, vp[defender])
        ev.append(
            {
                "type": "defence_result",
                "seat": p,
                "defender": defender,
                "repelled": bool(rep),
                "raid": raid,
                "strike": strike,
                "fortify": fortify,
            }
        )
    # Riders (§7.2 step 6): only if the ship is still in the empire.
    if (st.lmask[p] | st.omask[p]) >> ship & 1:
        if ship == d.SALVAGER:
            credits[p] += d.SALVAGER_CREDITS
        if defender < 0 and st.lmask[p] & _T16:
            credits[p] += d.ALIEN_CREDITS_T16
    st.discard.append(card)
    if defender >= 0:
        st.ddiscard.append(st.plan[defender])
        st.plan[defender] = mechanics.defence_draw(st)


def _loot(st: S, slot: int, ev: list[Event]) -> None:
    """§7.3 Artifact: the looted system goes to the alien discard; refill its slot."""
    st.alien_discard.append(st.display[slot])
    if not st.alien_deck:
        st.alien_deck.extend(st.alien_discard)
        st.alien_discard.clear()
        st.random().shuffle(st.alien_deck)
    st.display[slot] = st.alien_deck.pop()
    ev.append({"type": "alien_revealed", "slot": slot, "alien": d.ALIEN_NAMES[st.display[slot]]})
