"""``info NAME``: what a card, faction, alien, planet or board symbol of either game means.

Reference text only (names, faces, costs, printed effects), from the games' data tables and the
legend (:mod:`client.legend`): the client applies no rule. A card is found by its id (``A14``,
``T07``, ``AL3``) or its name (``Haskel``, ``Iron Belt``, ``Community``), a Cosmic Run planet by
``P3``, an alien ability by its name (``Navigator``), and anything the board shows by its symbol
(``+``, ``found``, ``op``). The text of every card is ``docs/cards.md``, for people and for
authors of other clients; rewrite it with ``python -m client.cards docs/cards.md`` after
changing a game's data (a test checks).
"""

from __future__ import annotations

import difflib
import re
import sys
from pathlib import Path

from client.game_names import TITLES as GAME_TITLES
from client.legend import explain
from client.wording import listing
from games.alien_artifacts import data as aa
from games.cosmic_run import data as cr

ARTIFACT_TEXT = {
    aa.E_LOOP: "after the action: take one more main action now",
    aa.E_ASSEMBLY: "complete one of your projects without paying",
    aa.E_CACHE: f"draw {aa.CACHE_DRAW} cards into your hand",
    aa.E_WARFLEET: "each operative ship that has not attacked this turn attacks",
    aa.E_ARCHIVE: "each operative technology scores once, as in Collect Income",
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
_RESULTS = ("no hit", "Damaged", "Destroyed")


def card_info(code: str) -> list[str]:
    """Lines saying what ``code`` is: a card id (``A14``, ``M03``, ``S05``, ``AL3``, ``R08``...),
    a name (``Haskel``, ``Iron Belt``, ``Community``), a Cosmic Run planet (``P3``), an alien
    ability (``Navigator``) or a symbol of a board (``+``, ``found``, ``op``); any case."""
    text = " ".join(code.split())
    lines = _by_id(text.upper())
    if lines:
        return lines
    for describe in (_cosmic_planet, _by_name, _ability, _action, _symbol, _by_start):
        lines = describe(text)
        if lines:
            return lines
    return [_unknown(text)]


def _by_id(code: str) -> list[str]:
    for describe in (
        _cosmic_alien, _meteor, _market, _aa_alien, _artifact, _defence, _resource, _faction,
    ):  # fmt: skip
        lines = describe(code)
        if lines:
            return lines
    return []


def _names() -> dict[str, list[str]]:
    """Every card's and faction's name, in lower case, to the ids that bear it."""
    named: dict[str, list[str]] = {}
    pairs = [
        *((alien.name, alien.id) for alien in cr.ALIENS),
        *zip(aa.MARKET_TITLES, aa.MARKET_NAMES, strict=True),
        *zip(aa.ALIEN_TITLES, aa.ALIEN_NAMES, strict=True),
        *zip(aa.DEFENCE_TITLES, aa.DEFENCE_NAMES, strict=True),
        *zip(aa.ARTIFACT_TITLES, aa.ARTIFACT_NAMES, strict=True),
        *zip(aa.FACTION_TITLES, aa.FACTION_NAMES, strict=True),
    ]
    for title, code in pairs:
        named.setdefault(title.lower(), []).append(code)
        if title.startswith("The "):  # "League" for The League
            named.setdefault(title[4:].lower(), []).append(code)
    return named


NAMES = _names()


def _by_name(text: str) -> list[str]:
    """A card by its name (``Iron Belt``, ``Community``), in any case."""
    return _named(NAMES.get(text.lower()) or [])


def _by_start(text: str) -> list[str]:
    """A card by the unique start of its name (``iron`` for Iron Belt)."""
    wanted = text.lower()
    starts = {tuple(c) for name, c in NAMES.items() if name.startswith(wanted)}
    return _named(list(starts.pop())) if len(wanted) >= 3 and len(starts) == 1 else []


def _named(codes: list[str]) -> list[str]:
    if not codes:
        return []
    lines = _by_id(codes[0])
    if len(codes) > 1:
        lines = [*lines, f"  ({len(codes)} copies: {', '.join(codes)}, all the same)"]
    return lines


def _cosmic_planet(text: str) -> list[str]:
    found = re.fullmatch(r"(?:P|PLANET ?)([1-6])", text.upper())
    if not found:
        return []
    planet = int(found.group(1)) - 1
    number = planet + 1
    length = cr.TRACK_LENGTH[planet]
    where = [str(s) for s in cr.INFODERE_SPACES[planet]]
    spaces = f"space {where[0]}" if len(where) == 1 else f"spaces {listing(where)}"
    lines = [
        f"P{number} (Cosmic Run planet): one step for {cr.REQUIREMENT[planet]}.",
        f"  track: {length} spaces to the planet; Infodere tokens at the start on {spaces}",
        f"  discoverer: {cr.DISCOVERER_VP[planet]} VP",
    ]
    if cr.SET_SIZE[planet]:
        lines.append(
            f"  any die may go there; each set of {cr.SET_SIZE[planet]} equal dice is one step, "
            "the dice of an incomplete set are lost"
        )
    if planet == cr.P1:
        lines.append("  only a die showing 1 may go there")
    if planet == cr.P6:
        ranks = ", ".join(str(v) for v in cr.P6_RANK_VP)
        lines += [
            "  the yellow die placed there ends your rolling at once",
            f"  other ships score by rank: {ranks} VP (further along first; on one space, the "
            "lower in the stack first); a ship still on the start scores 0",
        ]
    else:
        lines.append(f"  other ships score by space: {_spans(cr.SPACE_VP[planet])}")
    return lines


def _spans(vp: tuple[int, ...]) -> str:
    """``0-3: 0, 4-6: 1, ...`` for the VP of each space."""
    parts = []
    start = 0
    for space in range(1, len(vp) + 1):
        if space == len(vp) or vp[space] != vp[start]:
            where = f"{start}" if space - 1 == start else f"{start}-{space - 1}"
            parts.append(f"{where}: {vp[start]}")
            start = space
    return ", ".join(parts)


def _ability_name(ability: str) -> str:
    return cr.ABILITY_TEXT[ability].split(":")[0].split()[0]


def _ability(text: str) -> list[str]:
    """A Cosmic Run alien ability by its name (``Navigator``, ``Re-roller``, ``reroller``)."""
    wanted = text.lower().replace("-", "")
    for ability, words in cr.ABILITY_TEXT.items():
        name = _ability_name(ability)
        if wanted in (ability, name.lower().replace("-", "")):
            effect = words.replace("P{planet}", "its planet").split(": ", 1)[1]
            cards = ", ".join(f"{a.id} {a.name}" for a in cr.ALIENS if a.ability == ability)
            return [f"{name} (Cosmic Run alien ability): {effect}.", f"  aliens: {cards}"]
    return []


_OPERATIVE = "needs an operative {card}; pays {cost} {colour} (never Gold; {cheap}: {low})"
ACTION_TEXT = {
    ("build", "build a ship", "develop a technology", "discover a planet"): (
        "Build (Alien Artifacts action): pay for one of your projects with its colour (Red "
        f"ship, Blue technology, Green planet; Gold fits all): it costs {aa.BASE_BUILD_COST} + "
        "the cards of its type in your empire; pay less and it is deposited, finish later"
    ),
    ("buy", "buy a card"): (
        f"Buy (Alien Artifacts action): pay {aa.BASE_BUY_PRICE} credits (less with discounts, "
        f"never below {aa.MIN_BUY_PRICE}) to take a market card into your projects; dig 1 "
        "credit a card for the next one"
    ),
    ("trade", "trade resources"): (
        f"Trade (Alien Artifacts action): pay up to {aa.BASE_LIMIT} cards of one colour (Gold "
        "fits), 1 credit per symbol"
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


def _action(text: str) -> list[str]:
    wanted = text.lower()
    for words, line in ACTION_TEXT.items():
        if wanted in words:
            return [line + "."]
    return []


def _symbol(text: str) -> list[str]:
    lines = []
    for game, symbol in explain(text):
        lines.append(f"`{symbol.shown}` on the {GAME_TITLES[game]} board: {symbol.meaning}.")
    return lines


def _vocabulary() -> list[str]:
    from client.legend import LEGENDS

    words = [*NAMES, *(_ability_name(a).lower() for a in cr.ABILITY_TEXT)]
    words += [word for names in ACTION_TEXT for word in names]
    for sections in LEGENDS.values():
        for _, group in sections:
            for symbol in group:
                words += [symbol.shown.lower(), *(k.lower() for k in symbol.keys)]
    return words


def _unknown(text: str) -> str:
    wanted = text.lower()
    ids = [c.lower() for c in (*aa.MARKET_NAMES, *aa.ALIEN_NAMES, *aa.ARTIFACT_NAMES)]
    ids += [c.lower() for c in (*aa.DEFENCE_NAMES, *aa.FACTION_NAMES, *cr.ALIEN_INDEX)]
    close = difflib.get_close_matches(wanted, [*_vocabulary(), *ids], n=4, cutoff=0.7)
    if close:
        shown = [_display(c) for c in close]
        return f"No card `{text}` in either game. Did you mean {', '.join(shown)}?"
    return (
        f"No card `{text}` in either game. Ids look like A14, M03, S05, T11, P02, AL3, AR10, SU; "
        "names and board symbols work too (`info Haskel`, `info +`)."
    )


def _display(word: str) -> str:
    """A close match as people write it: ``Iron Belt``, ``T07``, ``found``."""
    codes = NAMES.get(word)
    if codes:
        return _by_id(codes[0])[0].split(" (")[0].split(":")[0]
    if re.fullmatch(r"[a-z]{1,3}\d{1,2}", word):
        return word.upper()
    return word


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
            f"{logistic}: {aa.TECH_LOGISTIC_TEXT[i]}",
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


def reference() -> str:
    """Every card of both games, by id, as the markdown of ``docs/cards.md``."""
    sections = [
        ("Cosmic Run: aliens", [alien.id for alien in cr.ALIENS]),
        ("Cosmic Run: meteor cards", [card for card, _ in cr.STRIKE_CARDS]),
        ("Alien Artifacts: resource cards", list(aa.RESOURCE_NAMES)),
        ("Alien Artifacts: ships", list(aa.MARKET_NAMES[:16])),
        ("Alien Artifacts: technologies", list(aa.MARKET_NAMES[16:32])),
        ("Alien Artifacts: planets", list(aa.MARKET_NAMES[32:])),
        ("Alien Artifacts: alien systems", list(aa.ALIEN_NAMES)),
        ("Alien Artifacts: defence plans", list(aa.DEFENCE_NAMES)),
        ("Alien Artifacts: artifacts", list(aa.ARTIFACT_NAMES)),
        ("Alien Artifacts: factions", list(aa.FACTION_NAMES)),
    ]
    lines = [
        "# Cards",
        "",
        "<!-- Generated by `python -m client.cards docs/cards.md` from the games' data tables;",
        "     do not edit by hand. -->",
        "",
        "Every card and piece id that views, events and actions use (PROTOCOL.md section 12),",
        "with what the card is and does, as the console's `info CARD` shows it. The rules that use",
        "them are in `docs/rules/`. Cosmic Run's meteor deck also holds miss cards, `X`, which",
        "strike nothing.",
    ]
    for title, codes in sections:
        lines += ["", f"## {title}", ""]
        for code in codes:
            first, *more = card_info(code)
            lines.append(f"- **{code}**{first.removeprefix(code)}")
            lines += [f"  - {line.strip()}" for line in more]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m client.cards docs/cards.md")
    Path(sys.argv[1]).write_text(reference(), encoding="utf-8")
