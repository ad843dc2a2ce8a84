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

FORMATS = ("round-robin", "gauntlet", "match")

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
    # A round robin with fewer entrants than seats seats some of them more than once.
    need = min(players, 2) if format == "round-robin" else max(players, 2)
    if entrants < need:
        plural = "entrant" if need == 1 else "entrants"
        raise ScheduleError(f"{shown} needs at least {need} {plural} for {players}-player tables")


def tables(format: str, entrants: int, players: int) -> list[tuple[int, ...]]:
    """The groups of entrants that meet at a table, in a fixed order (see the module docstring).

    Each group is the seating of its first rotation."""
    _check(format, entrants, players)
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
    if format == "match":
        return players
    if players == 1:
        return entrants
    if format == "gauntlet":
        return math.comb(entrants - 1, players - 1) * players
    if entrants < players:  # every entrant at least once: the extra seats shared out freely
        return math.comb(players - 1, entrants - 1) * players
    return math.comb(entrants, players) * players


def game_seed(seed: int, round: int, group: int) -> int:
    """The seed of ``group``'s games in ``round`` of the event with ``seed``.

    ``random.Random`` seeded with a string hashes it with SHA-512, the same on every platform
    and Python version, and unrelated for neighbouring rounds and groups."""
    return random.Random(f"cosmoport-schedule/{seed}/{round}/{group}").getrandbits(SEED_BITS)


def build(format: str, entrants: int, players: int, seed: int, games: int) -> list[Slot]:
    """The schedule: ``games`` rounded up to whole rounds (see the module docstring)."""
    groups = tables(format, entrants, players)
    if games < 1:
        raise ScheduleError(f"an event needs at least 1 game, not {games}")
    rounds = math.ceil(games / per_round(format, entrants, players))
    slots: list[Slot] = []
    for round in range(rounds):
        for index, group in enumerate(groups):
            # A solo round is one deal that every entrant plays alone: the same seed for all.
            shared = game_seed(seed, round, 0 if players == 1 else index)
            for seating in rotations(group):
                slots.append(Slot(len(slots), round, shared, seating))
    return slots
