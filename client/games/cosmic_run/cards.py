"""Cosmic Run's cards, planets and alien abilities for ``info`` (see :mod:`client.games.cards`)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from client.text.wording import listing
from games.cosmic_run import data as cr

CARD_SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Cosmic Run: aliens", tuple(alien.id for alien in cr.ALIENS)),
    ("Cosmic Run: meteor cards", tuple(card for card, _ in cr.STRIKE_CARDS)),
)
"""Every card id by kind, for the card reference."""


def card(code: str) -> list[str]:
    """An alien (``AL3``) or a meteor card (``M03``) by its id."""
    return _cosmic_alien(code) or _meteor(code)


def card_names() -> Iterable[tuple[str, str]]:
    """(name, id) of every alien."""
    return ((alien.name, alien.id) for alien in cr.ALIENS)


def describe(text: str) -> list[str]:
    """A planet (``P3``) or an alien ability by its name (``Navigator``)."""
    return _cosmic_planet(text) or _ability(text)


def words() -> Iterable[str]:
    """The abilities' names and the aliens' ids, for suggestions."""
    return [*(_ability_name(a).lower() for a in cr.ABILITY_TEXT), *cr.ALIEN_INDEX]


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
