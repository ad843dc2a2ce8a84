"""Which games an event plays, in which order, on which seeds, with whom in which seat.

A schedule is a list of :class:`Slot` built from five arguments only (format, entrants, players,
event seed, games), so the same arguments give the same games on any machine, and a database can
check that a rerun plays the event it started.

Fairness comes from rotation. In each round every table group (the entrants who meet at one
table) gets one seed, and plays it once in every cyclic rotation of its seating: each member
sits in each seat once on the same dice and deck, so the luck of the deal and of the start
player cancels out within the group. The schedule is whole rounds, played round by round, group
by group, rotation by rotation, so a schedule cut short (an SPRT that decides early, an
interrupted run) is as balanced as it can be; and a longer schedule of the same event starts
with the shorter one, since a game seed depends only on the event seed, the round and the group.

Formats:

``round-robin``
    every group of ``players`` entrants meets (``itertools.combinations``). With fewer
    entrants than seats (2 entrants at 3-player tables), some entrants fill more than one seat:
    every group of ``players`` seats in which each entrant sits at least once meets, so each
    entrant fills as many seats as each other one over a round (2 entrants at 3 seats: tables
    ``(0, 0, 1)`` and ``(0, 1, 1)``).
``gauntlet``
    entrant 0 (the candidate) meets every group of ``players - 1`` of the others.
``match``
    two entrants: entrant 0 in one seat, entrant 1 in all the others.
``swiss``
    rounds paired one at a time from the results so far (:func:`swiss_round`): entrants of
    similar Swiss points at one table, no two who have met while it can be avoided; the
    schedule holds the rounds paired so far, and :func:`build` gives the first.

A 1-player (solo) game is allowed in ``round-robin`` and ``gauntlet``: every entrant plays
alone, and, because there is nothing to rotate, every entrant plays the round's one seed: the
entrants of a solo event are compared on the same deals, the way rotation compares them in a
game of several players.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

FORMATS = ("round-robin", "gauntlet", "match", "swiss")


def parse_seeds(text: str) -> list[int]:
    """A seed book from its text: one seed per line, or a range ``FIRST-LAST`` (``1-500``, both
    included) on a line; blank lines and ``#`` comments are skipped. ScheduleError (one line,
    with the line number) for anything else, or a seed outside ``0 <= seed < 2**63``."""
    seeds: list[int] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        first, dash, last = line.partition("-") if not line.startswith("-") else (line, "", "")
        if ".." in line:
            first, _, last = line.partition("..")
            dash = "-"
        try:
            low = int(first.strip())
            high = int(last.strip()) if dash else low
        except ValueError:
            raise ScheduleError(
                f"line {number}: write one seed (a whole number) or a range FIRST-LAST, "
                f"not {line!r}"
            ) from None
        if not 0 <= low <= high < 2**SEED_BITS:
            raise ScheduleError(
                f"line {number}: seeds go from 0 to 2**63 - 1, a range upwards, not {line!r}"
            )
        if high - low >= 10_000_000:
            raise ScheduleError(f"line {number}: a range of at most 10,000,000 seeds")
        seeds.extend(range(low, high + 1))
    if not seeds:
        raise ScheduleError("no seeds in it")
    return seeds


SEED_BITS = 63
"""Game seeds are below ``2**63`` so that they fit a signed 64-bit column."""


@dataclass(frozen=True)
class Slot:
    """One game of the schedule."""

    number: int
    """Its position in the schedule, from 0."""
    round: int
    """Its round, from 0: every table group plays once per round, in every rotation."""
    seed: int
    """The game's seed (``0 <= seed < 2**63``)."""
    seating: tuple[int, ...]
    """The entrant (an index into the event's entrants) in each engine seat; seat 0 starts."""


class ScheduleError(ValueError):
    """Arguments that make no schedule; the message is one line for the user."""


def _check(format: str, entrants: int, players: int) -> None:
    if format not in FORMATS:
        raise ScheduleError(f"unknown format {format!r}: choose one of {', '.join(FORMATS)}")
    if players < 1:
        raise ScheduleError(f"a game needs at least 1 player, not {players}")
    shown = format.replace("-", " ")
    if format == "match":
        if entrants != 2:
            raise ScheduleError(f"a match is between exactly 2 entrants, not {entrants}")
        if players < 2:
            raise ScheduleError("a match needs at least 2 players: a solo game has no opponent")
        return
    if format == "swiss":
        if players < 2:
            raise ScheduleError("a swiss needs at least 2 players: a solo game pairs nobody")
        if entrants < players:
            raise ScheduleError(f"a swiss needs at least {players} entrants for {players}-player "
                                "tables")  # fmt: skip
        return
    # A round robin with fewer entrants than seats seats some of them more than once.
    need = min(players, 2) if format == "round-robin" else max(players, 2)
    if entrants < need:
        plural = "entrant" if need == 1 else "entrants"
        raise ScheduleError(f"{shown} needs at least {need} {plural} for {players}-player tables")


def tables(format: str, entrants: int, players: int) -> list[tuple[int, ...]]:
    """The groups of entrants that meet at a table, in a fixed order (see the module docstring).

    Each group is the seating of its first rotation."""
    _check(format, entrants, players)
    if format == "swiss":
        return swiss_tables(entrants, players, 0, {}, {})
    if format == "match":
        return [(0,) + (1,) * (players - 1)]
    if players == 1:
        return [(entrant,) for entrant in range(entrants)]
    if format == "gauntlet":
        return [(0, *others) for others in itertools.combinations(range(1, entrants), players - 1)]
    if entrants >= players:
        return list(itertools.combinations(range(entrants), players))
    return [
        group
        for group in itertools.combinations_with_replacement(range(entrants), players)
        if len(set(group)) == entrants
    ]


def rotations(group: Sequence[int]) -> list[tuple[int, ...]]:
    """Every cyclic rotation of a seating, starting with the seating itself:
    ``(a, b, c)``, ``(b, c, a)``, ``(c, a, b)``."""
    seating = tuple(group)
    return [seating[i:] + seating[:i] for i in range(len(seating))]


def per_round(format: str, entrants: int, players: int) -> int:
    """How many games one round holds (every group in every rotation)."""
    _check(format, entrants, players)
    if format == "swiss":
        return entrants // players * players
    if format == "match":
        return players
    if players == 1:
        return entrants
    if format == "gauntlet":
        return math.comb(entrants - 1, players - 1) * players
    if entrants < players:  # every entrant at least once: the extra seats shared out freely
        return math.comb(players - 1, entrants - 1) * players
    return math.comb(entrants, players) * players


SWISS_SEARCH = 20_000
"""Tables tried, at most, in search of a round where no two entrants meet again."""


def swiss_tables(
    entrants: int,
    players: int,
    seed: int,
    points: dict[int, float],
    met: dict[tuple[int, int], int],
) -> list[tuple[int, ...]]:
    """One Swiss round: the entrants ordered by ``points`` (best first; equal points in an
    order drawn from ``seed``), cut into tables of ``players`` from the top, each table the
    closest in standing that seats no two entrants who have met (``met`` counts each pair's
    meetings), searching with backtracking; when no such round exists, the one with the fewest
    meetings again that the search found. With a number of entrants that is not a multiple
    of ``players``, the lowest-placed entrants who sat out least often sit out (no game: the
    standings count games, not points)."""
    order = list(range(entrants))
    random.Random(f"cosmoport-swiss/{seed}").shuffle(order)
    order.sort(key=lambda e: -points.get(e, 0.0))
    seated = order[: entrants // players * players]

    def repeats(group: Sequence[int]) -> int:
        return sum(met.get((a, b), 0) for a, b in itertools.combinations(sorted(group), 2))

    best: list[tuple[int, list[tuple[int, ...]]]] = []
    tried = 0

    def search(left: list[int], tables: list[tuple[int, ...]], cost: int) -> bool:
        nonlocal tried
        if best and cost >= best[0][0]:
            return False
        if not left:
            best[:] = [(cost, list(tables))]
            return cost == 0
        head, rest = left[0], left[1:]
        options = sorted(
            itertools.combinations(rest, players - 1),
            key=lambda others: repeats((head, *others)),
        )  # stable: closest in standing first among equals
        for others in options:
            tried += 1
            if tried > SWISS_SEARCH and best:
                return True
            group = (head, *others)
            remaining = [e for e in rest if e not in others]
            if search(remaining, [*tables, group], cost + repeats(group)):
                return True
        return False

    search(seated, [], 0)
    return best[0][1]


def swiss_standing(
    results: Sequence[tuple[Sequence[int], Sequence[Sequence[int]]]],
) -> tuple[dict[int, float], dict[tuple[int, int], int]]:
    """Swiss points and meetings from the games so far (``(seating, ranking)`` pairs): an
    entrant scores, per game, 1 for every other entrant at the table it placed above and 1/2
    for every one it shared a place with, divided by the others at the table (so one game is
    worth 0 to 1). Each game of a rotation group counts."""
    points: dict[int, float] = {}
    met: dict[tuple[int, int], int] = {}
    for seating, ranking in results:
        place = {seat: index for index, group in enumerate(ranking) for seat in group}
        best: dict[int, int] = {}
        for seat, entrant in enumerate(seating):
            best[entrant] = min(best.get(entrant, place[seat]), place[seat])
        others = len(best) - 1
        for a, pa in best.items():
            won = sum(1.0 if pa < pb else 0.5 if pa == pb else 0.0
                      for b, pb in best.items() if b != a)  # fmt: skip
            points[a] = points.get(a, 0.0) + (won / others if others else 0.0)
        key = tuple(sorted(best))
        for pair in itertools.combinations(key, 2):
            met[pair] = met.get(pair, 0) + 1
    return points, met


def swiss_round(
    entrants: int,
    players: int,
    seed: int,
    round: int,
    first_number: int,
    results: Sequence[tuple[Sequence[int], Sequence[Sequence[int]]]],
    book: Sequence[int] | None = None,
) -> list[Slot]:
    """The slots of Swiss round ``round`` (numbered from ``first_number``), paired from the
    ``results`` of the rounds before; every table plays its seed in every rotation."""
    points, met = swiss_standing(results)
    groups = swiss_tables(entrants, players, seed * 1000 + round, points, met)
    if book is not None and round >= len(book):
        raise ScheduleError(f"round {round + 1} needs a seed and the book holds {len(book)}")
    slots: list[Slot] = []
    for index, group in enumerate(groups):
        shared = book[round] if book is not None else game_seed(seed, round, index)
        for seating in rotations(group):
            slots.append(Slot(first_number + len(slots), round, shared, seating))
    return slots


def game_seed(seed: int, round: int, group: int) -> int:
    """The seed of ``group``'s games in ``round`` of the event with ``seed``.

    ``random.Random`` seeded with a string hashes it with SHA-512, the same on every platform
    and Python version, and unrelated for neighbouring rounds and groups."""
    return random.Random(f"cosmoport-schedule/{seed}/{round}/{group}").getrandbits(SEED_BITS)


def build(
    format: str,
    entrants: int,
    players: int,
    seed: int,
    games: int,
    book: Sequence[int] | None = None,
) -> list[Slot]:
    """The schedule: ``games`` rounded up to whole rounds (see the module docstring). With a
    seed ``book``, round ``r`` deals ``book[r]`` at every table, so that two events with the
    same book play the same deals; it must hold a seed for every round."""
    groups = tables(format, entrants, players)
    if games < 1:
        raise ScheduleError(f"an event needs at least 1 game, not {games}")
    if format == "swiss":  # the first round only: the next ones follow from its results
        return swiss_round(entrants, players, seed, 0, 0, [], book)
    rounds = math.ceil(games / per_round(format, entrants, players))
    if book is not None and rounds > len(book):
        raise ScheduleError(
            f"{games} games take {rounds} rounds, and the seed book holds {len(book)} seeds "
            f"(one per round, played at every table in every seating): give more seeds, or "
            f"--games {len(book) * per_round(format, entrants, players)} or fewer"
        )
    slots: list[Slot] = []
    for round in range(rounds):
        for index, group in enumerate(groups):
            # A solo round is one deal that every entrant plays alone: the same seed for all.
            if book is not None:
                shared = book[round]
            else:
                shared = game_seed(seed, round, 0 if players == 1 else index)
            for seating in rotations(group):
                slots.append(Slot(len(slots), round, shared, seating))
    return slots
