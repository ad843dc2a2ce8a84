"""Small helpers for putting game facts into English, shared by the narrators and renderers.

One way to say each thing: :func:`plural` for every count ("1 die", "2 dice"), :func:`seat_name`
for every seat ("B Bob": the letter the board shows and the player's name), :func:`agree` to
mend counts in text made elsewhere (an engine's action labels).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from games import seat_letter

Names = Sequence[str]

# Irregular plurals; every other word takes an "s".
_IRREGULAR = {"die": "dice"}
_SINGULAR = {many: one for one, many in _IRREGULAR.items()}
# Nouns whose "1 <plural>" is mended by `agree` (the ones engines and servers count).
_COUNTED = ("dice", "credits", "crystals", "cards", "hits", "players", "artifacts", "tables")
_ONE_OF_MANY = re.compile(r"(?<![\w.+-])([+-]?1) (" + "|".join(_COUNTED) + r")\b")


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 crystal``, ``2 crystals``, ``1 die``, ``3 dice`` (``many`` for other irregulars)."""
    if count == 1:
        return f"{count} {word}"
    return f"{count} {many or _IRREGULAR.get(word) or word + 's'}"


def agree(text: str) -> str:
    """``text`` with a count of one and a plural noun mended: "1 dice lost" -> "1 die lost",
    "+1 credits" -> "+1 credit" (for text this client did not write, e.g. engine labels)."""

    def one(match: re.Match[str]) -> str:
        noun = match.group(2)
        return f"{match.group(1)} {_SINGULAR.get(noun) or noun[:-1]}"

    return _ONE_OF_MANY.sub(one, text)


letter = seat_letter
"""The seat's letter as the board shows it: ``A`` for seat 0 (``?`` if not a seat)."""


def seat_name(names: Names, seat: Any) -> str:
    """``B Bob``: a seat (or a place at a table) as the console names it everywhere."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return f"{letter(seat)} {names[seat]}"
    return who(names, seat)


def who(names: Names, seat: Any) -> str:
    """A seat's name (``the Drone`` for Cosmic Run's solo opponent, ``seat D`` if unknown)."""
    if seat == "drone":
        return "the Drone"
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return names[seat]
    return f"seat {letter(seat) if letter(seat) != '?' else seat}"


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def listing(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def signed(count: int, word: str, many: str | None = None) -> str:
    """``+1 credit``, ``-2 credits``, ``+0 VP``."""
    sign = "-" if count < 0 else "+"
    if word == "VP":
        return f"{sign}{abs(count)} VP"
    return sign + plural(abs(count), word, many)


def article(word: str) -> str:
    """``an easy``, ``a hard``: the word with its indefinite article."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"
