"""Menu previews of Alien Artifacts: what an action does to the seat's own counts in one
sample, an operative action or a Pilgrimage followed through its payment (see
:mod:`client.games.preview`)."""

from __future__ import annotations

from typing import Any

from client.games.outcome import Outcome
from games.alien_artifacts import data as aa
from games.alien_artifacts.mechanics import build_cost

_OPERATIVE = {"offensive": aa.A_OFFENSIVE, "income": aa.A_INCOME, "mine": aa.A_MINE}
_THEN = {
    "buy_pick": "then take a revealed card or dig",
    "choose_project": "then choose a project to complete",
    "choose_deck": f"then look at the top {aa.STAR_CHART_LOOK} cards of a market deck",
    "star_chart_pick": "then take one of them",
    "keep_artifact": "then keep one of the 2 artifacts drawn",
}
# What a hidden card decides when these events happen (an attack reveals the deck's top card).
_CHANCE = {"attack": {"vp", "credits", "artifacts"}, "produce": {"vp"}}


def observe(st: Any, action: tuple[Any, ...], seat: int) -> Outcome:
    """What ``action`` does for ``seat`` in the full state ``st`` (one sample)."""
    before = st.view(seat)
    after = st.clone()
    events = after.apply(action)
    out = Outcome()
    name = action[0] if action else None
    if name in _OPERATIVE or name == "pilgrimage":
        # Pay the cost the first way the menu offers: what the action then does does not depend
        # on which cards pay (Income's VP, the cards Mine draws), and the cost is said as such.
        events += _pay_through(after, seat)
        out.first.append(_operative_cost(st, seat, name))
    elif name == "finish":
        pending = before["pending"]
        if pending["pay_action"] in _OPERATIVE or pending["pay_action"] == "pilgrimage":
            out.first.append(f"-{pending['pay_value']} {pending['pay_colour'] or ''}".rstrip())
    now = after.view(seat)
    mine_before, mine_now = before["seats"][seat], now["seats"][seat]
    numbers = out.numbers
    for key in ("vp", "credits"):
        if mine_now[key] != mine_before[key]:
            numbers[key] = mine_now[key] - mine_before[key]
    gained = len(mine_now["artifacts"]) - len(mine_before["artifacts"])
    if gained > 0:
        numbers["artifacts"] = gained
    produced = harvests = 0
    for event in events:
        kind = event["type"]
        if kind == "turn":
            out.notes.append("ends your turn")
            break
        if kind == "final_phase":
            out.notes.append("starts the final phase")
        elif kind == "round":
            out.notes.append(f"round {event['round']} begins")
        elif kind == "game_over":
            out.notes.append("ends the game")
        if event.get("seat") != seat:
            continue
        out.chance |= _CHANCE.get(kind, set())
        if kind == "draw":
            numbers["drawn"] = numbers.get("drawn", 0) + event["count"]
        elif kind == "produce":
            produced += 1
            harvests += event["harvest"]
        elif kind == "tech_scoring":
            out.shown.add("vp")
            if event["techs"]:
                out.detail["vp"] = "(" + ", ".join(f"{t} +{v}" for t, v in event["techs"]) + ")"
        elif kind == "trade":
            out.shown.add("credits")
    if produced:
        numbers["store"] = produced
        if out.chance == {"vp"}:
            # Each produced card scores its harvest or not: every possible total is known.
            base = numbers.get("vp", 0) - aa.HARVEST_VP * harvests
            out.exact["vp"] = (base, base + aa.HARVEST_VP * produced)
            out.chance.clear()
    _aa_items(out, st, action, before, now)
    if now["current_player"] == seat and now["phase"] != before["phase"]:
        _aa_then(out, now)
    return out


def _pay_through(st: Any, seat: int) -> list[dict[str, Any]]:
    """Finish a payment just started, adding the first possible half until finishing is legal."""
    events: list[dict[str, Any]] = []
    for _ in range(64):
        if st.is_over or st.current_player != seat or st.view(seat)["phase"] != "pay":
            break
        legal = st.legal_actions()
        events += st.apply(("finish",) if ("finish",) in legal else legal[0])
    return events


def _operative_cost(st: Any, seat: int, name: str) -> str:
    if name == "pilgrimage":
        return f"-{aa.PILGRIMAGE_COST} of one colour"  # and its credits, measured as the rest
    kind = _OPERATIVE[name]
    faction = st.factions[seat]
    cheap = faction >= 0 and aa.FACTION_CHEAP_ACTION[faction] == kind
    cost = aa.CHEAP_OPERATIVE if cheap else aa.OPERATIVE_COST
    return f"-{cost} {aa.COLOUR_NAMES[aa.OPERATIVE_COLOUR[kind]]}"


def _aa_items(
    out: Outcome, st: Any, action: tuple[Any, ...], before: dict[str, Any], now: dict[str, Any]
) -> None:
    """Named changes: projects, deposits, the empire, this turn's flags, a payment so far."""
    seat = now["seat"]
    mine_before, mine_now = before["seats"][seat], now["seats"][seat]
    old = {p["card"]: p for p in mine_before["projects"]}
    for p in mine_now["projects"]:
        card = p["card"]
        if card not in old:
            out.items[f"project {card}"] = (f"new project {_card(card)}", "")
        elif p["deposit"] != old[card]["deposit"]:
            cost = build_cost(st, seat, aa.MARKET_NAMES.index(card) // 16)
            text = f"{card} deposit {p['deposit']} of {cost}"
            out.items[f"deposit {card}"] = (text, "")
    had = {card for card, _ in mine_before["empire"]}
    for card, side in mine_now["empire"]:
        if card not in had:
            end_vp = aa.END_VP_LOGISTIC if side == "logistic" else aa.END_VP_OPERATIVE
            text = f"{_card(card)} joins your empire ({side}: {end_vp} VP at the end)"
            out.items[f"empire {card}"] = (text, "")
    has = {card for card, _ in mine_now["empire"]}
    for card, _ in mine_before["empire"]:
        if card not in has:
            out.items[f"lost {card}"] = (
                f"{card} leaves your empire",
                f"{card} may be damaged or destroyed",
            )
    turn_before, turn_now = before["turn_state"], now["turn_state"]
    if turn_now["overdrive"] and not turn_before["overdrive"]:
        out.notes.append(f"+{aa.OVERDRIVE_LIMIT} cards per payment this turn")
    if turn_now["converter"] and not turn_before["converter"]:
        out.notes.append("every half pays as Gold this turn")
    pending = now["pending"]
    if action[:1] == ("add",) and now["phase"] == "pay":
        if pending["pay_requirement"] < 0:
            out.first.append(f"{pending['pay_value']} paid so far")
        else:
            colour = pending["pay_colour"] or ""
            paid = f"{pending['pay_value']} of {pending['pay_requirement']} {colour}".rstrip()
            out.first.append(paid + " paid")


def _aa_then(out: Outcome, now: dict[str, Any]) -> None:
    phase = now["phase"]
    pending = now["pending"]
    if phase == "attack_target" and pending["attacker"]:
        out.notes.append(f"then {_card(pending['attacker'])} attacks")
    elif phase == "pay" and pending["pay_project"] and pending["pay_requirement"] >= 0:
        left = pending["pay_requirement"] - pending["pay_value"]
        kind = aa.TYPE_NAMES.index(pending["pay_action"])
        out.notes.append(f"pay {left} {aa.COLOUR_NAMES[aa.TYPE_COLOUR[kind]]}")
    elif phase == "choose_side" and pending["side_card"]:
        out.notes.append(f"completes {_card(pending['side_card'])}, then choose its side")
    elif phase == "choose_action" and now["turn_state"]["context"] == "extra":
        out.notes.append("then another main action")
    elif phase in _THEN:
        out.notes.append(_THEN[phase])


def _card(card: str) -> str:
    """``P16 Golden Fields`` for a market card's id."""
    if card in aa.MARKET_NAMES:
        return f"{card} {aa.MARKET_TITLES[aa.MARKET_NAMES.index(card)]}"
    return card
