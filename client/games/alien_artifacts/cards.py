"""Alien Artifacts' cards, factions and actions for ``info`` (see :mod:`client.games.cards`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.alien_artifacts import data as aa

_MARKET = {name: i for i, name in enumerate(aa.MARKET_NAMES)}

CARD_SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Alien Artifacts: resource cards", tuple(aa.RESOURCE_NAMES)),
    ("Alien Artifacts: ships", tuple(aa.MARKET_NAMES[:16])),
    ("Alien Artifacts: technologies", tuple(aa.MARKET_NAMES[16:32])),
    ("Alien Artifacts: planets", tuple(aa.MARKET_NAMES[32:])),
    ("Alien Artifacts: alien systems", tuple(aa.ALIEN_NAMES)),
    ("Alien Artifacts: defence plans", tuple(aa.DEFENCE_NAMES)),
    ("Alien Artifacts: artifacts", tuple(aa.ARTIFACT_NAMES)),
    ("Alien Artifacts: factions", tuple(aa.FACTION_NAMES)),
)
"""Every card id by kind, for the card reference."""


def card(code: str) -> list[str]:
    """A card, alien system, defence plan, artifact or faction by its id."""
    for describe in (_market, _aa_alien, _artifact, _defence, _resource, _faction):
        lines = describe(code)
        if lines:
            return lines
    return []


def card_names() -> Iterable[tuple[str, str]]:
    """(name, id) of every named card and faction."""
    return [
        *zip(aa.MARKET_TITLES, aa.MARKET_NAMES, strict=True),
        *zip(aa.ALIEN_TITLES, aa.ALIEN_NAMES, strict=True),
        *zip(aa.DEFENCE_TITLES, aa.DEFENCE_NAMES, strict=True),
        *zip(aa.ARTIFACT_TITLES, aa.ARTIFACT_NAMES, strict=True),
        *zip(aa.FACTION_TITLES, aa.FACTION_NAMES, strict=True),
    ]


def describe(text: str) -> list[str]:
    """An action by the words people call it (``trade``, ``collect income``)."""
    return _action(text)


def words() -> Iterable[str]:
    """The actions' words and the ids of cards, for suggestions."""
    ids = (*aa.MARKET_NAMES, *aa.ALIEN_NAMES, *aa.ARTIFACT_NAMES, *aa.DEFENCE_NAMES)
    return [*(word for names in ACTION_TEXT for word in names), *ids, *aa.FACTION_NAMES]


ARTIFACT_TEXT = {
    aa.E_LOOP: "after the action: take one more main action now",
    aa.E_ASSEMBLY: "complete one of your projects without paying",
    aa.E_CACHE: f"draw {aa.CACHE_DRAW} cards into your hand",
    aa.E_WARFLEET: "each operative ship that has not attacked this turn attacks",
    aa.E_ARCHIVE: "each of your operative technologies scores its VP once, as in Collect Income "
    "but without paying for it (T12 Research Grants' credits do not come with it)",
    aa.E_SEEDER: f"each operative planet produces {aa.SEEDER_PRODUCTION} cards",
    aa.E_HOARD: f"gain {aa.HOARD_CREDITS} credits",
    aa.E_CHART: f"look at the top {aa.STAR_CHART_LOOK} cards of a market deck and take one as a "
    "project",
    aa.E_RELIC: f"gain {aa.RELIC_VP} VP",
    aa.E_OVERDRIVE: f"before the action: +{aa.OVERDRIVE_LIMIT} production limit for every action "
    "this turn",
    aa.E_CONVERTER: "before the action: halves spent on builds and trades count as Gold",
}
"""What each artifact effect does, with the numbers of the data tables."""


_WINDOWS = {1: "before the action", 2: "after the action", 3: "before or after the action"}


_SHIP_RIDERS = (
    *((ship, "Armoured: a Damaged result does not affect it") for ship in sorted(aa.ARMOURED)),
    (
        aa.SALVAGER,
        f"+{aa.SALVAGER_CREDITS} credit after each of its attacks that leaves it in the empire",
    ),
    (aa.RAIDER, f"+{aa.RAIDER_BONUS} to its attack value against a player"),
)


_CHEAP = f"costs {aa.CHEAP_OPERATIVE} {{colour}} instead of {aa.OPERATIVE_COST}"


_FACTION_TEXT = {
    "SU": (f"Launch an Offensive {_CHEAP.format(colour='Red')}", "1 VP per operative ship"),
    "COM": (
        f"Mine Planets {_CHEAP.format(colour='Green')}; starts with "
        f"{aa.COMMUNITY_SETUP_STORE} cards in its planet's store",
        "1 VP per planet and 1 VP per Exploit symbol in the empire",
    ),
    "BIO": (
        f"Collect Income {_CHEAP.format(colour='Blue')}",
        "1 VP per technology and 1 VP per Explore symbol in the empire",
    ),
    "EPI": (
        f"the extra action Pilgrimage: {aa.PILGRIMAGE_CREDITS} credits and "
        f"{aa.PILGRIMAGE_COST} of one colour (no Gold) for an artifact",
        "1 VP per artifact gained during the game (used or not)",
    ),
    "LEA": (
        f"buy price {aa.LEAGUE_BUY_DISCOUNT} credits lower",
        f"1 VP per {aa.LEAGUE_CREDITS_PER_VP} credits at the end",
    ),
    "CLO": (
        f"+{aa.CLONE_BUILD_LIMIT} production limit for the three build actions",
        "1 VP per logistic card",
    ),
}


_TECH_LOGISTIC = {
    aa.T11: f"building a planet costs you {aa.PLANET_DISCOUNT_T11} less (added to the "
    f"{aa.LOGISTIC_PLANET_BUILD_DISCOUNT} less of each logistic planet naming planets; never "
    "below 0); the buy price does not change",
}
"""Technologies whose short text in the data tables leaves out what they change."""


_RESULTS = ("no hit", "Damaged", "Destroyed")


_OPERATIVE = "needs an operative {card}; pays {cost} {colour} (never Gold; {cheap}: {low})"


ACTION_TEXT = {
    ("build", "build a ship", "develop a technology", "discover a planet"): (
        "Build (Alien Artifacts action): pay for one of your projects with its colour (Red "
        f"ship, Blue technology, Green planet; Gold fits all): it costs {aa.BASE_BUILD_COST} + "
        "the cards of its type in your empire - "
        f"{aa.LOGISTIC_PLANET_BUILD_DISCOUNT} for each logistic planet of yours naming that type "
        f"(and {aa.PLANET_DISCOUNT_T11} more off planets with T11 Colonial Charter logistic), "
        f"never below 0; at most your production limit of cards ({aa.BASE_LIMIT}, +"
        f"{aa.LOGISTIC_SHIP_LIMIT} for each logistic ship of yours naming that build, +"
        f"{aa.CLONE_BUILD_LIMIT} for Clone Clans); pay less and it is deposited, finish later"
    ),
    ("buy", "buy a card"): (
        f"Buy (Alien Artifacts action): pay {aa.BASE_BUY_PRICE} credits (less with discounts, "
        f"never below {aa.MIN_BUY_PRICE}) to take a market card into your projects; dig 1 "
        "credit a card for the next one"
    ),
    ("trade", "trade resources"): (
        "Trade (Alien Artifacts action): pay cards of one colour (Gold fits), 1 credit per "
        f"symbol (T03 Trade Protocols, logistic: +{aa.TRADE_CREDITS_T03} credit a Trade); at most "
        f"your production limit for Trade: {aa.BASE_LIMIT} cards, +{aa.LOGISTIC_SHIP_LIMIT} for "
        "each logistic ship of yours naming Trade (The League starts with one, S08 Freighter: "
        f"{aa.BASE_LIMIT + aa.LOGISTIC_SHIP_LIMIT}), +{aa.OVERDRIVE_LIMIT} the turn you play "
        "AR13 Overdrive Core"
    ),
    ("offensive", "launch an offensive"): (
        "Launch an Offensive (Alien Artifacts action): every operative ship that has not "
        "attacked this turn attacks; "
        + _OPERATIVE.format(
            card="ship",
            cost=aa.OPERATIVE_COST,
            colour="Red",
            cheap="Star Union",
            low=aa.CHEAP_OPERATIVE,
        )
    ),
    ("income", "collect income"): (
        "Collect Income (Alien Artifacts action): every operative technology scores its VP; "
        + _OPERATIVE.format(
            card="technology",
            cost=aa.OPERATIVE_COST,
            colour="Blue",
            cheap="Bionics",
            low=aa.CHEAP_OPERATIVE,
        )
    ),
    ("mine", "mine planets"): (
        f"Mine Planets (Alien Artifacts action): every operative planet produces "
        f"{aa.MINE_PRODUCTION} card into your store, +{aa.HARVEST_VP} VP per card showing its "
        "symbol; "
        + _OPERATIVE.format(
            card="planet",
            cost=aa.OPERATIVE_COST,
            colour="Green",
            cheap="Community",
            low=aa.CHEAP_OPERATIVE,
        )
    ),
    ("pilgrimage",): (
        f"Pilgrimage (Episcopacy's action): {aa.PILGRIMAGE_CREDITS} credits and "
        f"{aa.PILGRIMAGE_COST} of one colour (no Gold) for an artifact"
    ),
    ("pass",): (
        "Pass (Alien Artifacts action): do nothing, then discard at least one hand card; in "
        "Cosmic Run, pass means no Boost"
    ),
}
"""The Alien Artifacts actions, by the words people call them."""


def trade_limit(view: dict[str, Any]) -> int | None:
    """The viewer's production limit for Trade as of ``view`` (None: no seat, or not known)."""
    seats = view.get("seats") or []
    me = view.get("seat")
    if view.get("game") != "alien_artifacts" or not isinstance(me, int) or not 0 <= me < len(seats):
        return None
    ships = 0
    for entry in seats[me].get("empire") or []:
        card, side = (
            (entry[0], entry[1]) if isinstance(entry, list) and len(entry) > 1 else (entry, None)
        )
        index = _MARKET.get(card) if isinstance(card, str) else None
        if index is not None and index < 16 and side == "logistic":
            ships += aa.SHIP_NAMED_ACTION[index] == aa.A_TRADE
    limit = aa.BASE_LIMIT + aa.LOGISTIC_SHIP_LIMIT * ships
    overdrive = (view.get("turn_state") or {}).get("overdrive")
    if overdrive and view.get("current_player") == me:
        limit += aa.OVERDRIVE_LIMIT
    return limit


def in_game(text: str, view: dict[str, Any]) -> list[str]:
    """What ``info`` adds about ``text`` for the viewer of ``view``: their Trade limit now."""
    if text.lower() not in ("trade", "trade resources"):
        return []
    limit = trade_limit(view)
    return [] if limit is None else [f"  Your production limit for Trade now: {limit} cards."]


def _action(text: str) -> list[str]:
    wanted = text.lower()
    for words, line in ACTION_TEXT.items():
        if wanted in words:
            return [line + "."]
    return []


def _faction(code: str) -> list[str]:
    if code not in aa.FACTION_NAMES:
        return []
    index = aa.FACTION_NAMES.index(code)
    card, side, decks = aa.FACTION_START[index]
    ability, bonus = _FACTION_TEXT[code]
    projects = ", ".join(aa.TYPE_WORDS[t] for t in decks)
    return [
        f"{code} {aa.FACTION_TITLES[index]} (Alien Artifacts faction)",
        f"  starts with {aa.MARKET_NAMES[card]} {aa.MARKET_TITLES[card]} in its empire"
        f" ({aa.SIDE_NAMES[side]}) and projects from the {projects} decks",
        f"  ability: {ability}",
        f"  end bonus: {bonus}",
    ]


def _market(code: str) -> list[str]:
    if code not in aa.MARKET_NAMES:
        return []
    card = aa.MARKET_NAMES.index(code)
    kind, i = divmod(card, 16)
    symbol = aa.SYMBOL_NAMES[aa.MARKET_SYMBOL[card]]
    head = f"{code} {aa.MARKET_TITLES[card]} ({aa.TYPE_WORDS[kind]}, {symbol})"
    logistic = f"  logistic ({aa.END_VP_LOGISTIC} VP at the end)"
    operative = f"  operative ({aa.END_VP_OPERATIVE} VP at the end)"
    if kind == aa.SHIP:
        named = aa.ACTION_WORDS[aa.SHIP_NAMED_ACTION[i]]
        riders = [f"  rider: {text}" for ship, text in _SHIP_RIDERS if ship == card]
        return [
            head,
            f"{logistic}: +{aa.LOGISTIC_SHIP_LIMIT} card in the production limit of {named}",
            f"{operative}: attacks when built and at each Launch an Offensive, with "
            f"+{aa.SHIP_BONUS[i]} to the attack value",
            *riders,
        ]
    if kind == aa.TECH:
        return [
            head,
            f"{logistic}: {_TECH_LOGISTIC.get(card, aa.TECH_LOGISTIC_TEXT[i])}",
            f"{operative}: at each Collect Income and at the end, {aa.TECH_OPERATIVE_TEXT[i]}",
        ]
    discounted = aa.TYPE_WORDS[aa.PLANET_DISCOUNT[i]]
    return [
        head,
        f"{logistic}: {discounted} builds cost {aa.LOGISTIC_PLANET_BUILD_DISCOUNT} less, and the "
        f"buy price of {discounted} projects is {aa.LOGISTIC_PLANET_BUY_DISCOUNT} credit lower",
        f"{operative}: produces {aa.PLANET_BUILD_PRODUCTION} cards into your store when built "
        f"and {aa.MINE_PRODUCTION} at each Mine Planets; +{aa.HARVEST_VP} VP for each card it "
        f"produces that shows {symbol}",
    ]


def _aa_alien(code: str) -> list[str]:
    if code not in aa.ALIEN_NAMES:
        return []
    index = aa.ALIEN_NAMES.index(code)
    lines = [f"{code} {aa.ALIEN_TITLES[index]} (alien system): result by attack value"]
    for value, (hit, credits, vp, artifact) in enumerate(aa.ALIEN_TABLE[index], start=1):
        parts = [_RESULTS[hit]] if hit else []
        parts += [f"+{credits} credits"] if credits else []
        parts += [f"+{vp} VP"] if vp else []
        parts += ["an artifact"] if artifact else []
        label = "<=1" if value == 1 else f"{value}+" if value == 6 else f"{value}"
        lines.append(f"  {label:>3}: {', '.join(parts) or 'nothing'}")
    return lines


def _artifact(code: str) -> list[str]:
    if code not in aa.ARTIFACT_NAMES:
        return []
    index = aa.ARTIFACT_NAMES.index(code)
    title = aa.ARTIFACT_TITLES[index]
    when = _WINDOWS.get(aa.ARTIFACT_WINDOWS[index], "")
    return [f"{code} {title} (artifact, play {when}): {ARTIFACT_TEXT[aa.ARTIFACT_EFFECT[index]]}"]


def _defence(code: str) -> list[str]:
    if code not in aa.DEFENCE_NAMES:
        return []
    index = aa.DEFENCE_NAMES.index(code)
    lines = [f"{code} {aa.DEFENCE_TITLES[index]} (defence plan): result by attack value"]
    for value, (repelled, raid, strike, fortify) in enumerate(aa.DEFENCE_TABLE[index], start=1):
        parts = ["repelled (the ship is Damaged)"] if repelled else []
        parts += [f"raid {raid} credits"] if raid else []
        parts += [f"strike {strike} VP"] if strike else []
        parts += [f"fortify +{fortify} credits"] if fortify else []
        label = "<=1" if value == 1 else f"{value}+" if value == 5 else f"{value}"
        lines.append(f"  {label:>3}: {', '.join(parts) or 'nothing'}")
    return lines


def _resource(code: str) -> list[str]:
    if code not in aa.RESOURCE_NAMES:
        return []
    i = aa.RESOURCE_NAMES.index(code)
    top = f"{aa.COLOUR_NAMES[aa.HALF_COLOUR[i][0]]} {aa.HALF_VALUE[i][0]}"
    bottom = f"{aa.COLOUR_NAMES[aa.HALF_COLOUR[i][1]]} {aa.HALF_VALUE[i][1]}"
    symbol = aa.SYMBOL_NAMES[aa.RESOURCE_SYMBOL[i]]
    return [
        f"{code} (resource card): top {top}, bottom {bottom}, attack number "
        f"{aa.ATTACK_NUMBER[i]}, symbol {symbol}"
    ]
