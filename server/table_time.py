"""A table's turn clock: the seat to act's time, the stand-in bot that plays for a seat out
of time (or handed over), ``back``, and the clocks that stand while nobody is there to wait or
while a restart waits for the seat's player (:mod:`server.timers` holds the arithmetic).

:class:`TableTime` is the part of :class:`server.table.Table` that runs them; the attributes
it reads are the table's.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from twisted.logger import Logger

import games
from protocol import ProtocolError
from server.party_log import letter, table_name
from server.places import PLAYING, Place, StandIn
from server.table_messages import TableMessages
from server.timers import TIMEOUT, TimerSettings, TurnClock

_log = Logger()


class TableTime(TableMessages):
    """The turn clock and the stand-in (a part of :class:`server.table.Table`)."""

    game: games.Game
    players: int
    game_seed: int | None
    timer: TimerSettings | None
    unattended_since: float | None
    _stand_in: StandIn
    # After a restart: the seats not back yet, waited for until ``_awaited_until``.
    _awaited: set[int]
    _awaited_until: float

    if TYPE_CHECKING:  # the table's own

        def _apply(
            self,
            place: Place,
            version: int,
            action: list[Any],
            request_id: Any,
            stand_in: str | None = None,
        ) -> games.Action: ...

        def _check_seat(self, place: Place) -> games.State: ...

    def _start_clock(self) -> None:
        """The game (started, or restored after a restart) runs: the seat to act decides from
        now on, with every bank full (:meth:`restore` gives back the saved ones)."""
        assert self.engine is not None
        if self.timer is None:
            return
        self.turns = TurnClock(self.timer, self.players)
        now = self._clock()
        if not self.engine.is_over:
            self.turns.begin(self.engine.current_player, now)
        self._run_clocks(now)

    def _run_clocks(self, now: float) -> None:
        """Run the clocks while someone is there to wait and the seat to act is not one a
        restart left without its player (for :data:`RESTART_GRACE` seconds); else they stand."""
        turns = self.turns
        if turns is None:
            return
        awaited = turns.seat in self._awaited and now < self._awaited_until
        if self.unattended_since is None and not awaited:
            turns.resume(now)
        else:
            turns.pause(now)

    def _decided(self, place: Place, next_seat: int | None, stand_in: str | None) -> bool:
        """``place``'s seat has decided (itself, or by the stand-in) and ``next_seat`` decides
        from now on. True if its player, acting, took back a seat handed to the stand-in."""
        if self.turns is None:
            return False
        now = self._clock()
        self.turns.spend(now)
        back = stand_in is None and place.seat is not None and self.turns.present(place.seat)
        self.turns.begin(next_seat, now)
        self._run_clocks(now)
        if back:
            _log_back(self, place)
        return back

    def check_time(self) -> None:
        """If the seat to act has run out of time (or is handed over), the stand-in bot plays
        its decision now; three timeouts in a row hand the seat over."""
        if self.turns is None or self.state != PLAYING:
            return
        self._run_clocks(self._clock())
        why = self.turns.due(self._clock())
        seat = self.turns.seat
        if why is None or seat is None:
            return
        place = self.places[seat]
        assert place is not None and self.engine is not None
        try:
            rng = random.Random(f"{self.game_seed}:{self.version}")
            action = self._stand_in(self.game, self.engine.view(seat), list(self._legal), rng)
            if tuple(action) not in self._legal:
                raise ValueError(f"the stand-in chose {action!r}, which is not legal")
        except Exception:
            _log.failure("the stand-in bot failed at table {table}", table=self.id)
            action = self._legal[0]
        label = self.engine.label(tuple(action))
        try:
            key = self._apply(place, self.version, list(action), None, stand_in=why)
        except ProtocolError as error:  # the store failed: tried again at the next tick
            _log.error("the stand-in could not play at table {table}: {error}",
                       table=self.id, error=error.message)  # fmt: skip
            return
        self._tell("applied", place, key)
        if why == TIMEOUT:
            handed = self.turns.timed_out(seat)
            _log.info(
                "{name} ran out of time at {table}, seat {seat}: a bot played {label}{handed}",
                name=place.name,
                table=table_name(self),
                seat=letter(seat),
                label=label,
                handed="; the seat is handed to the bot until they act again" if handed else "",
            )
            if handed and self.state == PLAYING:
                self._broadcast(self._seat_status(place))

    def back(self, place: Place, request_id: Any = None) -> None:
        """``place``'s player is at the keyboard: a seat handed to the stand-in is theirs again.
        Everyone at the table gets a ``seat_status`` (the player's copy echoes the id)."""
        self._check_seat(place)
        assert place.seat is not None
        was = self.turns is not None and self.turns.present(place.seat)
        status = self._seat_status(place)
        if was:
            _log_back(self, place)
            self._broadcast(status, skip=place.member)
        if place.member is not None:
            reply = status if request_id is None else {**status, "id": request_id}
            self._send(place.member, reply)


def _log_back(table: TableTime, place: Place) -> None:
    _log.info(
        "{name} is back at {table}: the bot gives seat {seat} back",
        name=place.name,
        table=table_name(table),
        seat=letter(place.seat),
    )
