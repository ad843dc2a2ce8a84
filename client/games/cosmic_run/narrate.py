"""Cosmic Run's public events as one line each ("Meteor card M09 strikes planet 4: hit 2 of 3")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from client.games.narrate import plain
from client.text.wording import Names, listing
from client.text.wording import cap as _cap
from client.text.wording import plural as _plural
from client.text.wording import who as _who
from games.cosmic_run.data import (
    ALIEN_INDEX,
    ALIENS,
    HITS_TO_DESTROY,
    MAX_CRYSTALS,
    MISS_CARDS_USED,
    STRIKE_CARDS,
)

Event = dict[str, Any]

# Where crystals come from, in a player's words (the engine's ``source`` of a crystals event).

_CRYSTAL_SOURCES = {
    "step 3a": "as rolling ends",
    "patron": "from Patron",
    "prospector": "from Prospector",
}


def _vp_list(names: Names, gains: Sequence[int]) -> str:
    return ", ".join(f"{_who(names, seat)} +{vp}" for seat, vp in enumerate(gains))


_DIE = ("W1", "W2", "W3", "W4", "W5", "Y")


def max_rounds(players: int) -> int | None:
    """Cosmic Run's rounds at most for ``players`` (one meteor card a turn), else None."""
    misses = MISS_CARDS_USED.get(players)
    return None if misses is None else (len(STRIKE_CARDS) + misses) // players


def _alien(alien_id: Any) -> str:
    """An alien's name as the board's row shows it (its id if unknown)."""
    index = ALIEN_INDEX.get(alien_id) if isinstance(alien_id, str) else None
    return str(alien_id) if index is None else ALIENS[index].name


def _turn(event: Event, names: Names) -> str:
    """The line that opens a turn; the storm's turn is no round of its own (it ends the game
    after the last round, before anyone rolls)."""
    last = max_rounds(len(names))
    if last is not None and event["round"] > last:
        return f"-- Storm (after round {last}) --"
    return f"-- Round {event['round']}: {_who(names, event.get('seat'))}'s turn --"


def narrate(event: Event, names: Names) -> str | None:
    kind = event["type"]
    who = _who(names, event.get("seat"))
    if kind == "setup":
        return f"A new game of Cosmic Run for {_plural(event['players'], 'player')}."
    if kind == "turn":
        return _turn(event, names)
    if kind == "meteor":
        if event["card"] == "X":
            return "Meteor card: a miss."
        if event["planet"] is None:
            return f"Meteor card {event['card']}: every planet it names is closed, no hit."
        hits = f"hit {event['hits']} of {HITS_TO_DESTROY}"
        return f"Meteor card {event['card']} strikes planet {event['planet']}: {hits}."
    if kind == "storm":
        return "The meteor deck is empty: a storm destroys every open planet."
    if kind == "planet_scored":
        by = event["by"]
        if event["how"] == "destroyed":
            head = f"Planet {event['planet']} is destroyed."
        else:
            head = f"{_cap(_who(names, by))} discovers planet {event['planet']}!"
        return f"{head} VP: {_vp_list(names, event['vp'])}."
    if kind == "last_round":
        return "Every planet is closed: this round is finished, then the game ends."
    if kind == "roll":
        values = event["values"]
        rolled = ", ".join(f"{_DIE[d]}={values[d]}" for d in event["dice"])
        return f"{who} rolls: {rolled}."
    if kind == "assign":
        return f"{who} puts {_DIE[event['die']]} (a {event['value']}) on {event['to']}."
    if kind == "rolling_ends":
        lost = event["lost"]
        if not lost:
            return "Rolling ends."
        dice = listing([_DIE[d] for d in lost])
        return f"Rolling ends: {_plural(len(lost), 'die')} lost ({dice})."
    if kind in ("reroll", "nudge", "flip"):
        verb = {"reroll": "re-rolls", "nudge": "nudges", "flip": "flips"}[kind]
        paid = f" for {_plural(event['crystals'], 'crystal')}" if event["crystals"] else " (free)"
        return f"{who} {verb} {_DIE[event['die']]}: {event['from']} -> {event['value']}{paid}."
    if kind == "crystals":
        source = str(event["source"])
        why = _CRYSTAL_SOURCES.get(source, f"({source})")
        text = f"{who} gains {_plural(event['gained'], 'crystal')} {why}"
        if event["returned"]:
            text += f" ({event['returned']} more lost: {MAX_CRYSTALS} at most)"
        return text + "."
    if kind == "boost":
        return f"{who} boosts planet {event['planet']} for {_plural(event['crystals'], 'crystal')}."
    if kind == "no_boost":
        return None
    if kind == "move":
        where = f"planet {event['planet']}: space {event['from']} -> {event['to']}"
        return f"{_cap(who)} moves on {where}."
    if kind == "infodere":
        return f"{who} takes the Infodere token on planet {event['planet']} space {event['space']}."
    if kind == "recruit":
        return f"{who} recruits {_alien(event['alien'])} from {event['slot']}."
    if kind == "retire":
        return f"{who} retires {_alien(event['alien'])} for {event['vp']} VP."
    if kind == "envoy":
        return f"{who}'s Envoy: +{event['vp']} VP."
    if kind == "refill":
        if event["alien"] is None:
            return f"The alien deck is empty: {event['slot']} stays empty."
        return f"{_alien(event['alien'])} fills {event['slot']}."
    if kind == "drone_roll":
        return f"The Drone rolls a {event['value']} and flies to planet {event['planet']}."
    if kind == "game_over":
        ranking = " > ".join(
            " = ".join(f"{_who(names, s)} {event['total'][s]}" for s in group)
            for group in event["ranking"]
        )
        text = f"Game over. {ranking}."
        if "solo_rank" in event:
            text += f" Rank: {event['solo_rank']} ({'win' if event['solo_win'] else 'loss'})."
        return text
    return plain(event)


def situation(view: dict[str, Any], names: Names) -> list[str]:
    lines = [f"-- Round {view['round']}: {_who(names, view['turn'])}'s turn --"]
    card = view["meteor"]["card"]
    if card is not None:
        lines.append(
            "Meteor card: a miss." if card == "X" else f"Meteor card {card} was turned over."
        )
    dice = view["dice"]
    free = [f"{d['die']}={d['value']}" for d in dice if d["at"] is None]
    placed = [f"{d['die']}={d['value']} on {d['at']}" for d in dice if d["at"] is not None]
    if free:
        lines.append(
            f"Dice to assign: {', '.join(free)}."
            + (f" Placed: {', '.join(placed)}." if placed else "")
        )
    return lines


def told_by_label(event: Event) -> bool:
    """A die's assignment: the action's label already says it."""
    return event.get("type") == "assign"


def label(text: str) -> str:
    """Cosmic Run's labels say nothing the board does not show."""
    return text
