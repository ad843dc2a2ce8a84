"""Alien Artifacts events as one line of English each (the events PROTOCOL.md lists).

Card ids are shown with their printed titles from the game's data tables (``S12 Dreadnought``).
Nothing hidden is ever named: events carry only public facts, and so do these lines.
"""

from __future__ import annotations

import re
from typing import Any

from client.games.alien_artifacts.names import card_name, faction_title, half
from client.text.wording import Names, cap, listing, plural, who

Event = dict[str, Any]

_ACTIONS = {
    "trade": "trades resources for credits",
    "offensive": "launches an Offensive",
    "income": "collects Income",
    "mine": "mines planets",
    "pilgrimage": "goes on a Pilgrimage",
    "pass": "passes",
}
_TECH_REASONS = {
    "income": "Income",
    "xeno_archive": "Xeno Archive",
}


def _action(event: Event, names: Names) -> str:
    name = who(names, event["seat"])
    kind = event["action"]
    if kind == "build":
        return f"{name} builds {card_name(event['card'])} (cost {event['cost']})."
    if kind == "buy":
        return f"{name} buys from the {event['deck']} deck for {plural(event['price'], 'credit')}."
    return f"{name} {_ACTIONS.get(kind, kind)}."


def _pay(event: Event, names: Names) -> str:
    which = 1 if event["half"] == "bottom" else 0
    colour = (half(event["card"], which) or ("", 0))[0]
    where = "store" if event["from"] == "store" else "hand"
    value = f"{colour} {event['value']}".strip()
    name = who(names, event["seat"])
    return f"{name} pays {event['card']} from {where}: {event['half']} half, {value}."


def _attack(event: Event, names: Names) -> str:
    name = who(names, event["seat"])
    ship = card_name(event["ship"])
    if event.get("target") == "player":
        target = who(names, event.get("defender"))
    else:
        target = card_name(event.get("alien"))
    head = f"{name}'s {ship} attacks {target}"
    if event.get("cancelled"):
        return head + ", but the deck is empty: no attack."
    return f"{head}: {event['card']} revealed, attack value {event['value']}."


def _alien_result(event: Event, names: Names) -> str:
    gains = []
    if event.get("credits"):
        gains.append(plural(event["credits"], "credit"))
    if event.get("vp"):
        gains.append(f"{event['vp']} VP")
    if event.get("artifact"):
        gains.append("an artifact")
    name = who(names, event["seat"])
    return f"{name} gains {listing(gains)}." if gains else f"{name} gains nothing."


def _defence_result(event: Event, names: Names) -> str:
    attacker, defender = who(names, event["seat"]), who(names, event.get("defender"))
    parts = []
    if event.get("repelled"):
        parts.append("the attack is repelled")
    if event.get("raid"):
        parts.append(f"{attacker} raids {plural(event['raid'], 'credit')} from {defender}")
    if event.get("strike"):
        parts.append(f"{attacker} strikes: +{event['strike']} VP, {defender} loses as many")
    if event.get("fortify"):
        parts.append(f"{defender} fortifies: +{plural(event['fortify'], 'credit')}")
    return cap(listing(parts)) + "." if parts else "The defence holds: nothing happens."


def _tech_scoring(event: Event, names: Names) -> str:
    techs = ", ".join(f"{t} +{vp}" for t, vp in event.get("techs") or [])
    reason = _TECH_REASONS.get(event.get("reason", ""), str(event.get("reason", "")))
    detail = f" ({techs})" if techs else ""
    return f"{reason}: {who(names, event['seat'])}'s technologies score {event['vp']} VP{detail}."


def _final_scoring(event: Event, names: Names) -> str:
    parts = []
    for seat, row in enumerate(event.get("seats") or []):
        parts.append(
            f"{who(names, seat)} {row.get('vp')} VP (empire +{row.get('built', 0)}, techs "
            f"+{row.get('techs', 0)}, faction +{row.get('faction', 0)}, artifacts "
            f"+{row.get('artifacts', 0)})"
        )
    return "Final scoring: " + "; ".join(parts) + "."


def _game_over(event: Event, names: Names) -> str:
    scores = event["scores"]
    ranking = " > ".join(
        " = ".join(f"{who(names, s)} {scores[s]}" for s in group) for group in event["ranking"]
    )
    return f"Game over. {ranking}."


def _simple(event: Event, names: Names) -> str | None:
    kind = event["type"]
    name = who(names, event.get("seat"))
    card = card_name(event.get("card"))
    texts = {
        "turn": lambda: f"-- Round {event['round']}: {name}'s turn --",
        "round": lambda: f"Round {event['round']} begins.",
        "faction": lambda: f"{name} takes the faction {faction_title(event['faction'])}.",
        "deposit": lambda: f"{name} deposits on {card}: {event['deposit']} paid so far.",
        "completed": lambda: f"{name} completes {card}!",
        "built": lambda: f"{card} joins {name}'s empire, {event['side']} side.",
        "take": lambda: f"{name} takes {card}.",
        "dig": lambda: f"{name} digs: {card} is revealed.",
        "trade": lambda: f"{name} trades for {plural(event['credits'], 'credit')}.",
        "draw": lambda: f"{name} draws {plural(event['count'], 'card')}.",
        "discard": lambda: f"{name} discards {event['card']}.",
        "reshuffle": lambda: (
            f"The discard pile becomes the new deck ({plural(event['deck'], 'card')})."
        ),
        "produce": lambda: (
            f"{name}'s {card_name(event['planet'])} produces a card"
            + (": harvest, +2 VP." if event.get("harvest") else ".")
        ),
        "alien_revealed": lambda: f"{card_name(event['alien'])} appears among the alien systems.",
        "defence_revealed": lambda: f"{name}'s defence plan: {card_name(event['plan'])}.",
        "ship_damaged": lambda: (
            f"{name}'s {card_name(event['ship'])} is damaged: back to the projects."
        ),
        "ship_destroyed": lambda: f"{name}'s {card_name(event['ship'])} is destroyed.",
        "ship_protected": lambda: f"{name}'s {card_name(event['ship'])} comes back unharmed.",
        "artifact_gain": lambda: f"{name} gains an artifact.",
        "artifact_draw": lambda: f"{name} draws {plural(event['count'], 'artifact')} to keep one.",
        "artifact_bottom": lambda: f"{name} puts the other artifact under the deck.",
        "artifact_reshuffle": lambda: (
            f"The artifact discard pile is reshuffled ({plural(event['deck'], 'card')})."
        ),
        "artifact_supply_empty": lambda: (
            f"No artifact left: {name} scores {event['vp']} VP instead."
        ),
        "play_artifact": lambda: f"{name} plays {card_name(event['artifact'])}.",
        "instant_assembly": lambda: f"Instant Assembly completes {card} for {name}.",
        "star_chart": lambda: (
            f"{name} looks at the top "
            + ("card" if event["count"] == 1 else f"{event['count']} cards")
            + f" of the {event['deck']} deck."
        ),
        "quartermaster": lambda: f"{name}'s Quartermaster discards {event['card']} and draws.",
        "final_phase": lambda: (
            "The deck ran out in the last round: final phase, every later seat plays one more turn."
        ),
    }
    text = texts.get(kind)
    return text() if text else None


_SPECIAL = {
    "action": _action,
    "pay": _pay,
    "attack": _attack,
    "alien_result": _alien_result,
    "defence_result": _defence_result,
    "tech_scoring": _tech_scoring,
    "final_scoring": _final_scoring,
    "game_over": _game_over,
}


def narrate(event: Event, names: Names) -> str | None:
    """One line for an Alien Artifacts event; raises KeyError for an event it cannot read."""
    special = _SPECIAL.get(event["type"])
    if special is not None:
        return special(event, names)
    text = _simple(event, names)
    if text is None:
        raise KeyError(event["type"])  # the caller falls back to a plain listing
    return text


def situation(view: dict[str, Any], names: Names) -> list[str]:
    """Nothing more than whose turn it is (the board says the rest)."""
    return []


def told_by_label(event: Event) -> bool:
    """Every Alien Artifacts event says more than the action's label."""
    return False


_SLOT_NUMBER = re.compile(r" \(slot \d+\)")


def label(text: str) -> str:
    """The board lists the alien systems by name, not by slot: no slot numbers."""
    return _SLOT_NUMBER.sub("", text)
