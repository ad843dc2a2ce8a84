"""What a table sends: the game messages (``snapshot``, ``update``, ``game_over``), seat news,
chat, and the watchers' calls; one member's or watcher's failure never keeps the others from
theirs.

:class:`TableMessages` is the part of :class:`server.table.Table` that builds and sends them;
the attributes it reads are the table's.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from twisted.logger import Logger

import games
from server.places import PLAYING, Member, Place, Watcher
from server.timers import TurnClock

RECENT_EVENTS = 32
"""How many recent public events a ``snapshot`` carries."""

_log = Logger()


class TableMessages:
    """Building and sending a table's messages (a part of :class:`server.table.Table`)."""

    id: int
    state: str
    version: int
    places: list[Place | None]
    spectators: list[Member]
    engine: games.State | None
    recent: deque[dict[str, Any]]
    watchers: list[Watcher]
    turns: TurnClock | None
    _clock: Callable[[], float]
    _legal: list[games.Action]
    _labels: list[dict[str, Any]] | None
    _bare: list[dict[str, Any]] | None
    _undo: list[tuple[games.State, games.Action, str]]

    def members(self) -> list[Member]:
        """Everyone connected to this table: seat holders, then spectators."""
        return [p.member for p in self.places if p is not None and p.member is not None] + list(
            self.spectators
        )

    def _clock_message(self) -> dict[str, Any] | None:
        return None if self.turns is None else self.turns.message(self._clock())

    def _undo_for(self, seat: int | None) -> str | None:
        """The label of the action ``seat`` may take back now, or None."""
        if not self._undo or seat is None or self.state != PLAYING:
            return None
        assert self.engine is not None
        return self._undo[-1][2] if seat == self.engine.current_player else None

    def _game_message(
        self,
        kind: str,
        seat: int | None,
        member: Member | None,
        events: list[dict[str, Any]],
        clock: dict[str, Any] | None,
    ) -> dict[str, Any]:
        """A ``snapshot`` or ``update`` for ``seat`` (None: a spectator), for ``member`` (its
        legal actions labelled as it asked)."""
        assert self.engine is not None
        return {
            "type": kind,
            "table": self.id,
            "version": self.version,
            "seat": seat,
            "view": self.engine.view(seat),
            "events": events,
            "legal": self._legal_for(seat, member),
            "undo": self._undo_for(seat),
            "clock": clock,
        }

    def snapshot(self, seat: int | None, member: Member | None = None) -> dict[str, Any]:
        """A full ``snapshot`` message for ``seat`` (None: a spectator), to be sent to
        ``member`` (its legal actions labelled as it asked)."""
        recent = list(self.recent)
        return self._game_message("snapshot", seat, member, recent, self._clock_message())

    def game_over(self) -> dict[str, Any]:
        assert self.engine is not None
        return {
            "type": "game_over",
            "table": self.id,
            "version": self.version,
            **_result(self.engine),
            "seats": [p.name for p in self.places if p is not None],
        }

    def chat(self, name: str, text: str, sender: Member, request_id: Any = None) -> None:
        msg = {"type": "chat", "from": name, "text": text, "scope": "table", "table": self.id}
        for member in self.members():
            if member is sender and request_id is not None:
                self._send(member, {**msg, "id": request_id})
            else:
                self._send(member, msg)

    def _refresh_legal(self) -> None:
        assert self.engine is not None
        engine = self.engine
        self._legal = engine.legal_actions()
        self._labels = self._bare = None

    def _legal_for(self, seat: int | None, member: Member | None = None) -> list[dict[str, Any]]:
        """The ``legal`` list for ``seat`` (empty unless it decides now), labelled unless
        ``member`` asked for no labels."""
        engine = self.engine
        assert engine is not None
        if seat is None or seat != engine.current_player:
            return []
        # Actions stay tuples: msgpack writes a tuple as the same array a list would be.
        if member is not None and not getattr(member, "labels", True):
            if self._bare is None:
                self._bare = [{"action": a} for a in self._legal]
            return self._bare
        if self._labels is None:
            self._labels = [{"action": a, "label": engine.label(a)} for a in self._legal]
        return self._labels

    def _fan_out(self, events: list[dict[str, Any]], actor: Member | None, request_id: Any) -> None:
        """Everyone at the table gets the ``update`` of an action or undo, seats their own
        view (the actor's copy echoes ``request_id``), spectators one message for all."""
        clock = self._clock_message()
        for place in self.places:
            if place is None or place.member is None:
                continue
            msg = self._game_message("update", place.seat, place.member, events, clock)
            if place.member is actor and request_id is not None:
                msg["id"] = request_id
            self._send(place.member, msg)
        if self.spectators:
            msg = self._game_message("update", None, None, events, clock)
            for member in list(self.spectators):
                self._send(member, msg)

    def _audience(self) -> Iterable[tuple[Member, int | None]]:
        for place in list(self.places):
            if place is not None and place.member is not None:
                yield place.member, place.seat
        for member in list(self.spectators):
            yield member, None

    def _seat_status(self, place: Place) -> dict[str, Any]:
        return {
            "type": "seat_status",
            "table": self.id,
            "slot": place.slot,
            "seat": place.seat,
            "name": place.name,
            "connected": place.connected,
            "bot": place.bot,
            "left": place.left and not place.connected,
            "auto": self.turns is not None
            and place.seat is not None
            and self.turns.auto[place.seat],
        }

    def _broadcast(self, msg: dict[str, Any], skip: Member | None = None) -> None:
        for member in self.members():
            if member is not skip:
                self._send(member, msg)

    def _tell(self, what: str, *args: Any) -> None:
        # A watcher's failure is its own: the game and the other watchers go on. (A watcher
        # may leave out ``undone``: the tournament host's bots never undo.)
        for watcher in list(self.watchers):
            method = getattr(watcher, what, None)
            if method is None and what == "undone":
                continue
            try:
                method(self, *args)  # type: ignore[misc]
            except Exception:
                _log.failure("telling a watcher of table {table}: {what}", table=self.id, what=what)

    def _send(self, member: Member, msg: dict[str, Any]) -> None:
        # One member's failure must not keep the others from their update.
        try:
            member.deliver(msg)
        except Exception:
            _log.failure(
                "delivering {kind} to a member of table {table}",
                kind=msg.get("type"),
                table=self.id,
            )


def _result(engine: games.State) -> dict[str, Any]:
    """The final scores and ranking of a game that is over (as ``game_over`` and records)."""
    return {
        "scores": list(engine.scores()),
        "ranking": [list(group) for group in engine.ranking()],
    }
