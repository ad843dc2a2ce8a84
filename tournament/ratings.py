"""What an event's games say about its entrants: openskill ratings, win shares with error bars,
head-to-head shares and, for two-player games, Elo differences with intervals.

Every function here takes the games as *outcomes*, in the order they were played: pairs
``(seating, ranking)``, where ``seating`` is the entrant index in each engine seat and
``ranking`` lists the seats grouped best first: ``[[2], [0, 1]]`` is seat 2 first, seats 0 and
1 sharing second place.

An entrant may sit in several seats of one game (entrant 1 of a 3-player match sits in two).
Then the entrant counts once, at its best-placed seat: openskill rates the distinct entrants at
the table, each a team of one, and head-to-head compares two entrants' best places. A game with
one entrant only (a solo game) counts as a game played and changes no rating.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

Outcome = tuple[Sequence[int], Sequence[Sequence[int]]]
"""One game: (entrant per seat, seats grouped best first)."""


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a share ``successes / n`` (95% for ``z = 1.96``);
    ``(0, 1)`` when there is nothing to go on. ``successes`` may be fractional (ties)."""
    if n == 0:
        return (0.0, 1.0)
    share = successes / n
    z2 = z * z
    scale = 1 + z2 / n
    centre = (share + z2 / (2 * n)) / scale
    half = z * math.sqrt(share * (1 - share) / n + z2 / (4 * n * n)) / scale
    # Exact ends at 0 and n: rounding would otherwise turn an infinite Elo bound finite.
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return (low, high)


def elo(share: float) -> float:
    """The Elo difference that predicts a score ``share``: ``-400 * log10(1 / share - 1)``.

    A share of 0 or 1 gives ``-inf`` or ``inf`` (no finite difference predicts it); a report
    shows those as "<" and ">"."""
    if share <= 0:
        return -math.inf
    if share >= 1:
        return math.inf
    return -400 * math.log10(1 / share - 1)


def best_places(seating: Sequence[int], ranking: Sequence[Sequence[int]]) -> dict[int, int]:
    """Each entrant at the table and the index of the best ranking group it has a seat in,
    entrants in the order of their first seat."""
    group_of = {seat: index for index, group in enumerate(ranking) for seat in group}
    if sorted(seat for group in ranking for seat in group) != list(range(len(seating))):
        shown = [list(group) for group in ranking]
        raise ValueError(f"ranking {shown} does not place seats 0 to {len(seating) - 1} once each")
    best: dict[int, int] = {}
    for seat, entrant in enumerate(seating):
        best[entrant] = min(best.get(entrant, group_of[seat]), group_of[seat])
    return best


@dataclass(frozen=True)
class Rating:
    """An entrant's openskill rating after the event's games."""

    name: str
    mu: float
    sigma: float
    ordinal: float
    """``mu - 3 * sigma``: a skill the entrant has with about 99.9% confidence."""
    games: int


def rate(names: Sequence[str], outcomes: Iterable[Outcome]) -> list[Rating]:
    """Every entrant's Plackett-Luce rating (openskill, default settings), updated game by game
    in the order played; best ordinal first (equal ordinals in entrant order)."""
    model = PlackettLuce()
    ratings = [model.rating(name=name) for name in names]
    games = [0] * len(names)
    for seating, ranking in outcomes:
        best = best_places(seating, ranking)
        for entrant in best:
            games[entrant] += 1
        if len(best) < 2:
            continue
        entrants = list(best)
        teams = model.rate(
            [[ratings[entrant]] for entrant in entrants],
            ranks=[float(best[entrant]) for entrant in entrants],
        )
        for entrant, (rating,) in zip(entrants, teams, strict=True):
            ratings[entrant] = rating
    result = [
        Rating(name, r.mu, r.sigma, r.ordinal(), played)
        for name, r, played in zip(names, ratings, games, strict=True)
    ]
    return sorted(result, key=lambda rating: -rating.ordinal)


@dataclass(frozen=True)
class Pair:
    """How entrant ``a`` did against entrant ``b`` in the games where both sat."""

    a: int
    b: int
    games: int
    score: float
    """1 per game ``a`` placed above ``b``, 0.5 per game they shared a place."""
    share: float
    low: float
    high: float
    """The Wilson interval of ``share``."""
    elo: float | None
    """``a``'s Elo advantage over ``b`` (two-player games only, else None)."""
    elo_low: float | None
    elo_high: float | None


def pairs(
    entrants: int, outcomes: Iterable[Outcome], two_player: bool
) -> dict[tuple[int, int], Pair]:
    """Every ordered pair ``(a, b)`` of entrants that met at a table, with ``a``'s score
    against ``b``. Elo differences only when ``two_player``: in a bigger game a better place
    than one opponent is not a win the Elo model describes."""
    games: dict[tuple[int, int], int] = {}
    scores: dict[tuple[int, int], float] = {}
    for seating, ranking in outcomes:
        best = best_places(seating, ranking)
        for a, place_a in best.items():
            if not 0 <= a < entrants:
                raise ValueError(f"entrant {a} of a game is not one of the {entrants} entrants")
            for b, place_b in best.items():
                if a != b:
                    games[a, b] = games.get((a, b), 0) + 1
                    won = 1.0 if place_a < place_b else 0.5 if place_a == place_b else 0.0
                    scores[a, b] = scores.get((a, b), 0.0) + won
    result = {}
    for (a, b), played in sorted(games.items()):
        score = scores[a, b]
        share = score / played
        low, high = wilson(score, played)
        ratings = (elo(share), elo(low), elo(high)) if two_player else (None, None, None)
        result[a, b] = Pair(a, b, played, score, share, low, high, *ratings)
    return result


def standings(names: Sequence[str], outcomes: Iterable[Outcome]) -> list[dict[str, Any]]:
    """Each entrant's record, in entrant order:

    ``name``; ``games`` played; ``wins``, first places (``1/k`` of one when ``k`` seats share
    it, one's own seats counted); ``win_share`` (None before any game) and its Wilson interval
    ``low``, ``high``; ``mean_place``, the average of 1 + the seats placed strictly above the
    entrant's best seat (None before any game)."""
    games = [0] * len(names)
    wins = [0.0] * len(names)
    places = [0] * len(names)
    for seating, ranking in outcomes:
        best = best_places(seating, ranking)
        above = [sum(len(group) for group in ranking[:index]) for index in range(len(ranking))]
        for entrant, group in best.items():
            games[entrant] += 1
            places[entrant] += 1 + above[group]
        first = ranking[0]
        for seat in first:
            wins[seating[seat]] += 1 / len(first)
    table = []
    for name, played, won, place in zip(names, games, wins, places, strict=True):
        low, high = wilson(won, played)
        table.append(
            {
                "name": name,
                "games": played,
                "wins": won,
                "win_share": won / played if played else None,
                "low": low,
                "high": high,
                "mean_place": place / played if played else None,
            }
        )
    return table
