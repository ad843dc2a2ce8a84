"""Every number a card has in the games' data tables appears in its text (``info``, cards.md).

For each card, the numbers its data entry holds, and the named constants the rules use for it,
are listed here independently of how :mod:`client.games.cards` words them; its text must show each
of them (as many times as they occur: a planet's 1-credit buy discount and its 1 card per Mine
are two 1s).
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from client.games.cards import card_info, reference
from games.alien_artifacts import data as aa
from games.cosmic_run import data as cr

_CR_ABILITY_NUMBERS = {
    cr.NAVIGATOR: (cr.NAVIGATOR_STEPS,),
    cr.REROLLER: (),
    cr.TUNER: (),
    cr.FLIPPER: (),
    cr.MINER: (cr.MINER_CRYSTALS,),
    cr.PATRON: (cr.PATRON_CRYSTALS,),
    cr.TINKERER: (cr.TINKERER_DISCOUNT, cr.MIN_COST),
    cr.PROSPECTOR: (cr.PROSPECTOR_CRYSTALS,),
    cr.ENVOY: (cr.ENVOY_VP,),
    cr.SEER: (cr.LEFTOVER_VP_DIVISOR,),
    cr.SURVEYOR: (cr.SURVEYOR_VP,),
    cr.SALVAGER: (cr.SALVAGER_CRYSTALS_PER_LOST_DIE,),
    cr.CARTOGRAPHER: (cr.CARTOGRAPHER_VP,),
}
_TECH_LOGISTIC_NUMBERS = {
    aa.T01: (aa.PLANET_BUILD_PRODUCTION_T01,),
    aa.T02: (aa.ATTACK_BONUS_T02,),
    aa.T03: (aa.TRADE_CREDITS_T03,),
    aa.T04: (aa.HAND_SIZE_T04,),
    aa.T05: (aa.BUY_DISCOUNT_T05,),
    aa.T06: (aa.MINE_PRODUCTION_T06,),
    aa.T09: (aa.GOLD_BONUS_T09,),
    aa.T10: (aa.SALVAGE_CREDITS,),
    aa.T11: (aa.PLANET_DISCOUNT_T11,),
    aa.T12: (aa.INCOME_CREDITS_T12,),
    aa.T13: (aa.COMPLETION_CREDITS_T13,),
    aa.T14: (aa.ATTACK_MALUS_T14,),
    aa.T16: (aa.ALIEN_CREDITS_T16,),
}
_ARTIFACT_NUMBERS = {
    aa.E_CACHE: (aa.CACHE_DRAW,),
    aa.E_SEEDER: (aa.SEEDER_PRODUCTION,),
    aa.E_HOARD: (aa.HOARD_CREDITS,),
    aa.E_CHART: (aa.STAR_CHART_LOOK,),
    aa.E_RELIC: (aa.RELIC_VP,),
    aa.E_OVERDRIVE: (aa.OVERDRIVE_LIMIT,),
}
_CHEAP = (aa.CHEAP_OPERATIVE, aa.OPERATIVE_COST)
_FACTION_NUMBERS = {
    "SU": _CHEAP,
    "COM": (*_CHEAP, aa.COMMUNITY_SETUP_STORE),
    "BIO": _CHEAP,
    "EPI": (aa.PILGRIMAGE_CREDITS, aa.PILGRIMAGE_COST),
    "LEA": (aa.LEAGUE_BUY_DISCOUNT, aa.LEAGUE_CREDITS_PER_VP),
    "CLO": (aa.CLONE_BUILD_LIMIT,),
}
_END_VP = (aa.END_VP_LOGISTIC, aa.END_VP_OPERATIVE)


def numbers_of(code: str) -> tuple[int, ...]:
    """The numbers card ``code`` has in the data tables (the rules' constants included)."""
    if code in cr.ALIEN_INDEX:
        alien = cr.ALIENS[cr.ALIEN_INDEX[code]]
        return (*alien.faces, alien.vp, *_CR_ABILITY_NUMBERS[alien.ability])
    if code in cr.METEOR_INDEX:
        return ()  # planets only, checked as P<n> below
    if code in aa.RESOURCE_NAMES:
        i = aa.RESOURCE_NAMES.index(code)
        return (*aa.HALF_VALUE[i], aa.ATTACK_NUMBER[i])
    if code in aa.MARKET_NAMES:
        card = aa.MARKET_NAMES.index(code)
        kind, i = divmod(card, 16)
        if kind == aa.SHIP:
            riders = {aa.SALVAGER: (aa.SALVAGER_CREDITS,), aa.RAIDER: (aa.RAIDER_BONUS,)}
            return (*_END_VP, aa.LOGISTIC_SHIP_LIMIT, aa.SHIP_BONUS[i], *riders.get(card, ()))
        if kind == aa.TECH:
            return (*_END_VP, *_TECH_LOGISTIC_NUMBERS.get(card, ()), *aa.TECH_SCORING[i])
        return (
            *_END_VP,
            aa.LOGISTIC_PLANET_BUILD_DISCOUNT,
            aa.LOGISTIC_PLANET_BUY_DISCOUNT,
            aa.PLANET_BUILD_PRODUCTION,
            aa.MINE_PRODUCTION,
            aa.HARVEST_VP,
        )
    if code in aa.ARTIFACT_NAMES:
        return _ARTIFACT_NUMBERS.get(aa.ARTIFACT_EFFECT[aa.ARTIFACT_NAMES.index(code)], ())
    if code in aa.FACTION_NAMES:
        return _FACTION_NUMBERS[code]
    raise AssertionError(f"no numbers known for {code}")  # alien systems, defence plans: rows


def numbers_in(lines: list[str]) -> Counter[int]:
    """The whole numbers in ``lines``, leaving out ids (``T01``, ``P3``) and the card's own."""
    text = " ".join(lines)
    return Counter(int(n) for n in re.findall(r"(?<![\w.])\d+(?![\w.])", text))


CODES = re.findall(r"^- \*\*([A-Z]+\d*)\*\*", reference(), re.MULTILINE)
TABLE_CARDS = (*aa.ALIEN_NAMES, *aa.DEFENCE_NAMES)


@pytest.mark.parametrize("code", [c for c in CODES if c not in TABLE_CARDS])
def test_every_number_of_a_card_is_in_its_text(code):
    lines = card_info(code)
    expected = Counter(numbers_of(code))
    missing = expected - numbers_in(lines)
    assert not missing, f"{code} does not show {dict(missing)}: {lines}"


def test_the_planets_of_navigators_and_meteor_cards_are_named():
    for alien in cr.ALIENS:
        if alien.navigator_planet is not None:
            assert f"P{alien.navigator_planet}" in card_info(alien.id)[1]
    for card, planets in cr.STRIKE_CARDS:
        text = card_info(card)[0]
        assert [int(p) for p in re.findall(r"P(\d)", text)] == list(planets)


def test_every_row_of_an_alien_system_shows_its_rewards():
    for index, code in enumerate(aa.ALIEN_NAMES):
        rows = card_info(code)[1:]
        assert len(rows) == len(aa.ALIEN_TABLE[index])
        for line, (_hit, credits, vp, _artifact) in zip(rows, aa.ALIEN_TABLE[index], strict=True):
            shown = numbers_in([line.split(":", 1)[1]])
            assert not Counter(n for n in (credits, vp) if n) - shown, (code, line)


def test_every_row_of_a_defence_plan_shows_its_results():
    for index, code in enumerate(aa.DEFENCE_NAMES):
        rows = card_info(code)[1:]
        assert len(rows) == len(aa.DEFENCE_TABLE[index])
        for line, (_rep, raid, strike, fortify) in zip(rows, aa.DEFENCE_TABLE[index], strict=True):
            shown = numbers_in([line.split(":", 1)[1]])
            assert not Counter(n for n in (raid, strike, fortify) if n) - shown, (code, line)


def test_a_logistic_planet_also_makes_buying_its_type_cheaper():
    # The engine takes LOGISTIC_PLANET_BUY_DISCOUNT off the buy price of the type it names.
    logistic = card_info("P02")[1]
    assert f"cost {aa.LOGISTIC_PLANET_BUILD_DISCOUNT} less" in logistic
    assert f"buy price of ship projects is {aa.LOGISTIC_PLANET_BUY_DISCOUNT} credit lower" in (
        logistic
    )
