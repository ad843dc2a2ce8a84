"""What a table is made of besides its game: its states, the places people (and bot programs)
hold at it, the members it sends messages to, and the watchers that follow it from inside the
server."""

from __future__ import annotations

import random
from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

import games

if TYPE_CHECKING:
    from protocol import ProtocolError
    from server.table import Table


class TableState(StrEnum):
    """Where a table is in its life (the table map's ``state``)."""

    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"
    CLOSED = "closed"


WAITING, PLAYING, FINISHED, CLOSED = (
    TableState.WAITING,
    TableState.PLAYING,
    TableState.FINISHED,
    TableState.CLOSED,
)

StandIn = Callable[[games.Game, dict[str, Any], list[games.Action], random.Random], games.Action]
"""Chooses an action for a seat that ran out of time: (game, the seat's view, legal, rng)."""


class Member(Protocol):
    """Someone at a table (a seat holder's or a spectator's session). One whose ``labels`` is
    False (its ``hello`` asked for none) gets the legal actions without their labels."""

    def deliver(self, msg: dict[str, Any]) -> None:
        """Send ``msg`` to this member's client."""
        ...


class Place:
    """A place held by a person: name, the hash of its secret token, and the member connected
    to it (or None).

    ``slot`` is the place taken while the table waits; ``seat`` the engine seat once started.
    The server keeps only hashes of tokens (:func:`server.store.token_hash`): the lobby finds a
    place by the hash of the token a client shows. ``previous_hash`` is the token a ``resume``
    replaced, still good until the client confirms it has the new one (see
    :meth:`server.lobby.Lobby.resume`). ``level`` is the level of the bot program the server
    started for the place (``add_bot``), None for a person.
    """

    __slots__ = (
        "away_since",
        "left",
        "level",
        "member",
        "name",
        "previous_hash",
        "seat",
        "slot",
        "token_hash",
    )

    def __init__(
        self,
        name: str,
        slot: int,
        token_hash: str,
        member: Member | None,
        level: str | None = None,
    ) -> None:
        self.name = name
        self.slot = slot
        self.token_hash = token_hash
        self.previous_hash: str | None = None
        self.member = member
        self.seat: int | None = None
        self.level = level
        self.away_since: float | None = None  # when its connection went, during the game
        self.left = False  # its person went to the lobby on purpose (not a lost connection)

    @property
    def bot(self) -> bool:
        """Whether the place is kept for a bot program the server started."""
        return self.level is not None

    @property
    def connected(self) -> bool:
        return self.member is not None


class Watcher(Protocol):
    """Follows a table's game from inside the server (the tournament host does): told when the
    game starts, of every applied action, and of every refused ``act``, after the fact. A
    watcher may also have ``undone(table, place, action)``, told when a seat takes an action
    back."""

    def started(self, table: Table) -> None: ...

    def applied(self, table: Table, place: Place, action: games.Action) -> None: ...

    def refused(
        self, table: Table, place: Place, action: list[Any], error: ProtocolError
    ) -> None: ...
