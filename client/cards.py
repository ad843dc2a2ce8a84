"""``info CARD``: what a card of either game is and does, from the games' data tables.

Reference text only (names, faces, costs, printed effects): the client applies no rule.
"""

from __future__ import annotations

from games.alien_artifacts import data as aa
from games.cosmic_run import data as cr

_ARTIFACT_TEXT = {
    "Temporal Loop": "after the action: take one more main action now",
    "Instant Assembly": "complete one of your projects without paying",
    "Resource Cache": "draw 3 cards into your hand",
    "Alien Warfleet": "each operative ship that has not attacked this turn attacks",
    "Xeno Archive": "each operative technology scores once, as in Collect Income",
    "Planet Seeder": "each operative planet produces 2 cards",
    "Credit Hoard": "gain 5 credits",
    "Star Chart": "look at the top 5 cards of a market deck and take one as a project",
    "Ancient Relic": "gain 3 VP",
    "Overdrive Core": "before the action: +2 production limit for every action this turn",
    "Universal Converter": "before the action: halves spent on builds and trades count as Gold",
}
_WINDOWS = {1: "before the action", 2: "after the action", 3: "before or after the action"}
_RESULTS = ("no hit", "Damaged", "Destroyed")


def card_info(code: str) -> list[str]:
    """Lines describing card ``code`` (``A14``, ``M03``, ``S05``, ``AL3``, ``AR10``, ``R08``...)."""
    for describe in (_cosmic_alien, _meteor, _market, _aa_alien, _artifact, _defence, _resource):
        lines = describe(code)
        if lines:
            return lines
    return [f"No card `{code}` in either game. Ids look like A14, M03, S05, T11, P02, AL3, AR10."]


def _cosmic_alien(code: str) -> list[str]:
    index = cr.ALIEN_INDEX.get(code)
    if index is None:
        return []
    alien = cr.ALIENS[index]
    faces = " and ".join(str(f) for f in alien.faces)
    text = cr.ABILITY_TEXT[alien.ability].format(planet=alien.navigator_planet)
    return [f"{code} {alien.name} (Cosmic Run alien): faces {faces}, {alien.vp} VP.", text]


def _meteor(code: str) -> list[str]:
    for card, planets in cr.STRIKE_CARDS:
        if card == code:
            order = ", then ".join(f"P{p}" for p in planets)
            return [f"{code} (Cosmic Run meteor card): strikes the first open planet of {order}."]
    return []


def _market(code: str) -> list[str]:
    if code not in aa.MARKET_NAMES:
        return []
    card = aa.MARKET_NAMES.index(code)
    kind, i = divmod(card, 16)
    symbol = aa.SYMBOL_NAMES[aa.MARKET_SYMBOL[card]]
    head = f"{code} {aa.MARKET_TITLES[card]} ({aa.TYPE_WORDS[kind]}, {symbol})"
    if kind == aa.SHIP:
        named = aa.ACTION_WORDS[aa.SHIP_NAMED_ACTION[i]]
        return [
            head,
            f"  logistic: +1 card in the production limit of {named}",
            f"  operative: attacks, with +{aa.SHIP_BONUS[i]} to the attack value",
        ]
    if kind == aa.TECH:
        return [
            head,
            f"  logistic: {aa.TECH_LOGISTIC_TEXT[i]}",
            f"  operative: {aa.TECH_OPERATIVE_TEXT[i]}",
        ]
    discounted = aa.TYPE_WORDS[aa.PLANET_DISCOUNT[i]]
    return [
        head,
        f"  logistic: {discounted} builds cost 2 less",
        "  operative: produces cards into your store when built and when you Mine",
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
    return [f"{code} {title} (artifact, play {when}): {_ARTIFACT_TEXT.get(title, '')}"]


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
