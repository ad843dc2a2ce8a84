"""The host's log lines about one connection: who connected, left, came back, dropped.

A mixin of :class:`server.session.Session`, which holds what is read here; the lines go out
under the session's own log namespace, so the party log (:mod:`server.party_log`) treats them
as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from twisted.logger import Logger

from server.party_log import letter, person, table_name
from server.places import PLAYING, WAITING, Place
from server.session_states import AWAITING_HELLO, SEATED, SessionState

if TYPE_CHECKING:
    from server.hub import Hub
    from server.table import Table

_log = Logger(namespace="server.session")


class SessionLog:
    """What a session says in the host's log."""

    name: str
    address: str
    state: SessionState
    hub: Hub
    table: Table | None
    place: Place | None
    end_reason: Any

    def _who(self) -> str:
        return person(self.name or "a client", self.address)

    def _where(self, table: Table, place: Place) -> str:
        """``place B`` while the table waits, ``seat B`` once the game has started."""
        if table.started and place.seat is not None:
            return f"seat {letter(place.seat)}"
        return f"place {letter(place.slot)}"

    def _log_left(self, table: Table, place: Place) -> None:
        who, name = self._who(), table_name(table)
        if table.state == PLAYING:  # (a person who handed their seat over: the bot's now)
            then = "a bot plays {seat} on" if place.bot else "{seat} waits for them"
            _log.info(
                "{who} left {table} during the game: " + then,
                who=who,
                table=name,
                seat=self._where(table, place),
            )
        elif table.state == WAITING:
            _log.info(
                "{who} left {table}: {place} is free",
                who=who,
                table=name,
                place=self._where(table, place),
            )
        else:
            _log.info("{who} left {table}", who=who, table=name)

    def _log_resumed(self, table: Table, place: Place) -> None:
        if place.level is not None:  # a bot program the server started takes its place
            _log.info(
                "the {bot_level} bot ({address}) took {name}'s {seat} at {table}",
                bot_level=place.level,
                address=self.address,
                name=place.name,
                seat=self._where(table, place),
                table=table_name(table),
            )
            return
        _log.info(
            "{who} is back at {table}, {seat}",
            who=self._who(),
            table=table_name(table),
            seat=self._where(table, place),
        )

    def _log_end(self) -> None:
        """One line for the end of this connection (none while the whole server stops)."""
        if self.hub.shutting_down:
            return
        reason = f" ({self.end_reason})" if self.end_reason else ""
        if self.state == AWAITING_HELLO:
            _log.debug(
                "a connection from {address} closed before hello{reason}",
                address=self.address,
                reason=reason,
            )
            return
        table, place = self.table, self.place
        if self.state == SEATED and table is not None and place is not None and _held(table, place):
            _log.info(
                "{who} dropped from {table}{reason}: {seat} waits for them",
                who=self._who(),
                table=table_name(table),
                reason=reason,
                seat=self._where(table, place),
            )
            return
        _log.info("{who} disconnected{reason}", who=self._who(), reason=reason)


def _held(table: Table, place: Place) -> bool:
    """Whether ``place`` is still kept at ``table`` for its person to come back to."""
    return place in table.places and table.state in (WAITING, PLAYING)
