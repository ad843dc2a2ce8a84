"""Short texts for actions, read against the state they are offered in."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.alien_artifacts import codes as k
from games.alien_artifacts import data as d
from games.alien_artifacts import mechanics
from games.api import Action

if TYPE_CHECKING:
    from games.alien_artifacts.state import AlienArtifactsState as S


def card_text(card: int) -> str:
    return f"{d.MARKET_NAMES[card]} {d.MARKET_TITLES[card]}"


def _half_text(card: int, half: int) -> str:
    return f"{d.COLOUR_NAMES[d.HALF_COLOUR[card][half]]} {d.HALF_VALUE[card][half]}"


def label(st: S, action: Action) -> str:
    try:
        return _label(st, action)
    except (IndexError, KeyError, TypeError, ValueError):
        return " ".join(str(x) for x in action)


def _label(st: S, action: Action) -> str:
    name = action[0]
    p = st.cur
    if name == "build":
        card = d.MARKET_INDEX[action[1]]
        i = st.proj[p].index(card)
        cost = mechanics.build_cost(st, p, card // 16)
        left = cost - st.pdep[p][i]
        if left <= 0:
            return f"Build {card_text(card)} (complete, nothing to pay)"
        colour = d.COLOUR_NAMES[d.TYPE_COLOUR[card // 16]]
        return f"Build {card_text(card)} (cost {cost}, {left} {colour} still to pay)"
    if name == "add":
        src = st.store[p] if action[1] == "store" else st.hand[p]
        card = src[action[2]]
        half = 1 if action[3] == "bottom" else 0
        where = "from store" if action[1] == "store" else "from hand"
        return (
            f"Pay {d.RESOURCE_NAMES[card]} {where}: {action[3]} half "
            f"({_half_text(card, half)}; other half {_half_text(card, 1 - half)})"
        )
    if name == "finish":
        kind = st.pay_kind
        if kind <= d.A_PLANET:
            if st.pay_val >= st.pay_req:
                return f"Finish paying: complete {card_text(st.pay_proj)}"
            return f"Finish paying: deposit {st.pay_val} on {card_text(st.pay_proj)}"
        if kind == d.A_TRADE:
            return f"Finish paying: trade {st.pay_val} for credits"
        return f"Finish paying ({st.pay_val} paid): {d.ACTION_WORDS[kind]}"
    if name == "buy":
        t = d.TYPE_INDEX[action[1]]
        top = st.market[t][0]
        price = mechanics.buy_price(st, p, t)
        return f"Buy from the {d.TYPE_WORDS[t]} deck for {price} credits (top: {card_text(top)})"
    if name == "take":
        if st.phase == k.STAR_CHART_PICK:
            card = st.market[st.chart_type][action[1]]
            return f"Star Chart: take {card_text(card)}"
        card = st.market[st.buy_type][action[1]]
        return f"Take {card_text(card)}"
    if name == "dig":
        return "Dig: pay 1 credit to reveal the next card"
    if name == "side":
        card = st.side_card
        return f"Place {card_text(card)} on its {action[1]} side"
    if name == "target":
        ship = card_text(st.attacker)
        if action[1] == "alien":
            alien = st.display[action[2]]
            return (
                f"{ship} attacks {d.ALIEN_NAMES[alien]} {d.ALIEN_TITLES[alien]} (slot {action[2]})"
            )
        q = action[2]
        return f"{ship} attacks seat {q} ({d.FACTION_TITLES[st.factions[q]]})"
    if name == "play_artifact":
        a = d.ARTIFACT_INDEX[action[1]]
        return f"Play {action[1]} {d.ARTIFACT_TITLES[a]}"
    if name == "keep":
        a = d.ARTIFACT_INDEX[action[1]]
        return f"Keep {action[1]} {d.ARTIFACT_TITLES[a]}"
    if name == "quartermaster":
        card = st.hand[p][action[1]]
        return f"Quartermaster: discard {d.RESOURCE_NAMES[card]} and draw 1"
    if name == "discard":
        card = st.hand[p][action[1]]
        return f"Discard {d.RESOURCE_NAMES[card]} ({_half_text(card, 0)} / {_half_text(card, 1)})"
    if name == "project":
        return f"Instant Assembly: complete {card_text(d.MARKET_INDEX[action[1]])}"
    if name == "deck":
        return f"Star Chart: look at the {d.TYPE_WORDS[d.TYPE_INDEX[action[1]]]} deck"
    if name == "faction":
        f = d.FACTION_INDEX[action[1]]
        return f"Choose {d.FACTION_TITLES[f]} ({action[1]})"
    op_cost = mechanics.operative_cost
    fixed = {
        "trade": "Trade resources for credits",
        "offensive": f"Launch an Offensive (cost {op_cost(st, p, d.A_OFFENSIVE)} Red)",
        "income": f"Collect Income (cost {op_cost(st, p, d.A_INCOME)} Blue)",
        "mine": f"Mine Planets (cost {op_cost(st, p, d.A_MINE)} Green)",
        "pilgrimage": "Pilgrimage: 2 credits + 5 of one colour for an artifact",
        "pass": "Pass (then discard at least 1 card)" if st.hand[p] else "Pass",
        "start_action": "Go on to the main action",
        "continue": "Go on to the discard step",
        "done": "End the turn (refill)",
    }
    return fixed.get(name, " ".join(str(x) for x in action))
