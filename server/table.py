"""One table: the places people hold, the engine state it owns, and the fan-out of updates.

A table never touches a transport. The people and spectators at it are :class:`Member` objects
(the server's sessions); the table only calls ``member.deliver(message)``. An action is checked in
a fixed order, first failure wins: well-formed (done by the catalogue before we get here), seat
(the sender holds a seat of this started table), turn, version, legal. A refused action changes
nothing. After an applied action every connected seat gets its own view, the public events, and
(the seat to act only) the legal actions with labels; spectators get the spectator view.

Undo: the table keeps the engine states from before each action of the current turn since the
last undo barrier (``State.barrier``, or a change of the seat to act). The seat to act may take
the last of them back (:meth:`Table.undo`); the store forgets the action, so a restart and the
game's record replay the actions that stand. ``version`` counts actions *and* undos (it only
grows while the server runs, so an action against a version an undo replaced is stale);
``moves`` counts the actions that stand (the store's and records' numbering).

Turn timers (:mod:`server.timers`): a table with ``timer`` settings keeps a :class:`TurnClock`;
each update and snapshot carries its ``clock``, and :meth:`Table.check_time` (the lobby's tick)
has the stand-in bot play for a seat that ran out of time or was handed over. The stand-in
sees only that seat's view; what it plays is an ordinary action (stored, in the record) that
nobody can take back.

The class is in three parts: this module (places, the game, undo, restore), the turn clock and
stand-in (:mod:`server.table_time`) and the messages it sends (:mod:`server.table_messages`);
places and states are in :mod:`server.places`.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from twisted.logger import Logger

import games
from protocol import ProtocolError
from server.party_log import results
from server.places import (
    CLOSED,
    FINISHED,
    PLAYING,
    WAITING,
    Member,
    Place,
    StandIn,
    TableState,
    Watcher,
)
from server.saving import storage_errors
from server.store import Store
from server.table_messages import RECENT_EVENTS, TableMessages, _result
from server.table_time import TableTime
from server.timers import RESTART_GRACE, TimerSettings, TurnClock

__all__ = [
    "CLOSED", "FINISHED", "PLAYING", "RECENT_EVENTS", "WAITING", "Member", "Place", "StandIn",
    "Table", "TableMessages", "TableState", "Watcher", "first_legal", "storage_errors",
]  # fmt: skip

_log = Logger()


def first_legal(
    game: games.Game, view: dict[str, Any], legal: list[games.Action], rng: random.Random
) -> games.Action:
    """The stand-in of a server built without one: the first legal action. (``cosmoport serve``
    passes the greedy bot of :mod:`ai`: the server package does not depend on the AI.)"""
    return legal[0]


class Table(TableTime):
    """A table of one game, from waiting for players to the final scores.

    ``seed`` fixes the engine's seed (the tournament host plays a scheduled game); without one
    :meth:`start` draws it from the lobby's generator, as for every table people open.
    """

    def __init__(
        self,
        table_id: int,
        game: games.Game,
        players: int,
        options: Mapping[str, Any] | None,
        *,
        seating: str = "random",
        autostart: bool = False,
        clock: Callable[[], float] = lambda: 0.0,
        on_change: Callable[[Table], None] | None = None,
        store: Store | None = None,
        seed: int | None = None,
        timer: TimerSettings | None = None,
        stand_in: StandIn | None = None,
    ) -> None:
        self.id = table_id
        self.game = game
        self.players = players
        self.options: dict[str, Any] = dict(options or {})
        self.seating = seating
        self.autostart = autostart
        self.state = WAITING
        self.version = 0
        self.moves = 0  # actions that stand (version counts undos too)
        # (engine before, action, label) of each action since the last undo barrier.
        self._undo: list[tuple[games.State, games.Action, str]] = []
        self.places: list[Place | None] = [None] * players  # by slot, then by seat once started
        self.spectators: list[Member] = []
        self.engine: games.State | None = None
        self.recent: deque[dict[str, Any]] = deque(maxlen=RECENT_EVENTS)
        self._clock = clock
        self.created_at = clock()
        self.finished_at: float | None = None
        self.unattended_since: float | None = self.created_at  # no person connected since
        self.vacant_since: float | None = self.created_at  # no person holding a place since
        # After a restart: the seats not back yet, waited for until ``_awaited_until``.
        self._awaited: set[int] = set()
        self._awaited_until = 0.0
        self._on_change = on_change
        self.creator = ""  # the address that opened the table (limits per address)
        self._legal: list[games.Action] = []
        # The legal actions as sent, with their labels and without: made on first need (bots
        # ask for no labels, and labelling every legal action is a good part of an action's cost).
        self._labels: list[dict[str, Any]] | None = None
        self._bare: list[dict[str, Any]] | None = None
        self.store = store  # where places and applied actions are committed, if anywhere
        self.seed = seed
        self.game_seed: int | None = None  # the engine's seed, once started
        self.watchers: list[Watcher] = []
        self.timer = timer
        self.turns: TurnClock | None = None  # the seats' time, while the game runs
        self._stand_in = stand_in or first_legal

    # --- what the lobby sees -------------------------------------------------------------

    def info(self) -> dict[str, Any]:
        """The table map of the protocol (``tables``, ``table_update``, replies)."""
        return {
            "id": self.id,
            "game": self.game.name,
            "players": self.players,
            "options": self.options,
            "seating": self.seating,
            "autostart": self.autostart,
            "state": self.state,
            "seats": [
                None if p is None else {"name": p.name, "connected": p.connected, "bot": p.bot}
                for p in self.places
            ],
            "spectators": len(self.spectators),
            "version": self.version,
            "timer": self.timer.decision if self.timer else 0,
            "bank": self.timer.bank if self.timer else 0,
        }

    @property
    def held(self) -> list[Place]:
        return [p for p in self.places if p is not None]

    @property
    def is_full(self) -> bool:
        return all(p is not None for p in self.places)

    @property
    def ready(self) -> bool:
        """Every place held and connected: an ``autostart`` table starts now."""
        return all(p is not None and p.member is not None for p in self.places)

    @property
    def started(self) -> bool:
        return self.state in (PLAYING, FINISHED)

    def expired(
        self,
        now: float,
        vacant_ttl: float,
        empty_ttl: float,
        abandoned_ttl: float,
        finished_ttl: float,
    ) -> bool:
        """Whether the lobby should close this table now."""
        vacant = self.state == WAITING and self.vacant_since is not None
        if vacant and now - self.vacant_since >= vacant_ttl:  # type: ignore[operator]
            return True
        if self.state == FINISHED:
            assert self.finished_at is not None
            nobody = self.unattended_since is not None and not self.spectators
            return nobody or now - self.finished_at >= finished_ttl
        if self.unattended_since is None:
            return False
        ttl = empty_ttl if self.state == WAITING else abandoned_ttl
        return now - self.unattended_since >= ttl

    # --- places --------------------------------------------------------------------------

    def join(
        self,
        name: str,
        member: Member | None,
        token_hash: str,
        slot: int | None = None,
        level: str | None = None,
    ) -> Place:
        """Seat ``member`` as ``name`` at ``slot`` (default: the first free one).

        With a bot ``level``, the place is kept for a bot program (``member`` None until it
        connects). The place is saved to the store (if any) before it is taken.
        """
        slot = self.free_slot(slot)
        if any(p.name == name for p in self.held):
            raise ProtocolError("lobby/name_taken", f"{name!r} already sits at table {self.id}")
        place = Place(name, slot, token_hash, member, level)
        if member is None:
            place.away_since = self._clock()
        if self.store is not None:
            with storage_errors():
                self.store.place_saved(self.id, place)
        self.places[slot] = place
        self.update_attendance()
        return place

    def free_slot(self, slot: int | None = None) -> int:
        """The place a newcomer would take: ``slot``, or the first free one; else the
        ProtocolError that says why not (the table does not wait, is full, has no such place,
        or it is held). Changes nothing."""
        if self.state != WAITING:
            raise ProtocolError("lobby/not_waiting", f"table {self.id} is {self.state}")
        if slot is None:
            free = [i for i, p in enumerate(self.places) if p is None]
            if not free:
                raise ProtocolError("lobby/table_full", f"every seat of table {self.id} is held")
            return free[0]
        if not 0 <= slot < self.players:
            raise ProtocolError(
                "lobby/no_such_seat", f"table {self.id} has places 0 to {self.players - 1}"
            )
        if self.places[slot] is not None:
            raise ProtocolError("lobby/seat_taken", f"place {slot} of table {self.id} is held")
        return slot

    def leave(self, place: Place) -> bool:
        """``place``'s person goes back to the lobby; True if the place is freed (token dead).

        While the table waits the place is freed; during the game it stays held for its token
        (the game waits); after the end the person simply goes.
        """
        place.member = None
        place.away_since = self._clock()
        place.left = not place.bot  # (a person who handed their seat to a bot: the bot's now)
        freed = self.state == WAITING
        if freed:
            self.places[place.slot] = None
        elif self.state == PLAYING:
            self._broadcast(self._seat_status(place))
        self.update_attendance()
        return freed

    def detach(self, place: Place) -> None:
        """The connection holding ``place`` was lost: the place stays held for its token."""
        if place not in self.places:
            return  # freed meanwhile (a bot program that ended before its connection did)
        place.member = None
        place.away_since = self._clock()
        place.left = False
        if self.state != FINISHED:
            self._broadcast(self._seat_status(place))
        self.update_attendance()

    def attach(self, place: Place, member: Member) -> None:
        """``member`` resumed ``place`` (whose tokens the lobby has rotated)."""
        place.member = member
        place.away_since = None
        place.left = False
        self._broadcast(self._seat_status(place), skip=member)
        self.update_attendance()

    def add_spectator(self, member: Member, limit: int) -> None:
        if len(self.spectators) >= limit:
            raise ProtocolError("limit/spectators", f"table {self.id} has {limit} spectators")
        self.spectators.append(member)
        self._changed()

    def remove_spectator(self, member: Member) -> None:
        if member in self.spectators:
            self.spectators.remove(member)
            self._changed()

    def close(self) -> list[Member]:
        """Close the table; returns who was at it (the lobby sends them back)."""
        members = self.members()
        self.state = CLOSED
        for place in self.held:
            place.member = None
        self.spectators = []
        self._changed()
        return members

    # --- the game ------------------------------------------------------------------------

    def start(self, rng: random.Random, starter: Member | None, request_id: Any = None) -> None:
        """Deal people into seats, start the engine, send ``started`` and a ``snapshot``."""
        if self.state != WAITING:
            raise ProtocolError("table/already_started", f"table {self.id} is {self.state}")
        if not self.is_full:
            free = sum(p is None for p in self.places)
            raise ProtocolError("table/not_ready", f"{free} place(s) of table {self.id} are free")
        order = self.held
        if self.seating == "random":
            rng.shuffle(order)
        seed = self.seed if self.seed is not None else rng.randrange(2**63)
        engine = self.game.new(self.players, seed, self.options or None)
        for seat, place in enumerate(order):
            place.seat = seat
        if self.store is not None:
            try:
                with storage_errors():
                    self.store.table_started(self, seed, self._clock())
            except ProtocolError:
                for place in order:
                    place.seat = None
                raise
        self.engine = engine
        self.game_seed = seed
        self.places = list(order)
        self.state = PLAYING
        self._start_clock()
        self._refresh_legal()
        names = [p.name for p in order]
        for member, its_seat in self._audience():
            msg = {"type": "started", "table": self.info(), "seat": its_seat, "seats": names}
            if member is starter and request_id is not None:
                msg["id"] = request_id
            self._send(member, msg)
        for member, its_seat in self._audience():
            self._send(member, self.snapshot(its_seat, member))
        self._changed()
        self._tell("started")

    def act(self, place: Place, version: int, action: list[Any], request_id: Any = None) -> None:
        """Apply ``place``'s ``action`` against ``version`` and fan out the update; watchers
        then hear that it was applied, or why it was refused."""
        try:
            key = self._apply(place, version, action, request_id)
        except ProtocolError as error:
            self._tell("refused", place, action, error)
            raise
        self._tell("applied", place, key)

    def _apply(
        self,
        place: Place,
        version: int,
        action: list[Any],
        request_id: Any,
        stand_in: str | None = None,
    ) -> games.Action:
        """Apply ``action`` for ``place`` (played by the stand-in bot when ``stand_in`` says
        why), or raise the ProtocolError that says why not."""
        engine = self._check_turn(
            place, version, "action/not_your_turn", "seat {seat} must decide now"
        )
        key = tuple(action)
        if key not in self._legal:  # a scan costs less than hashing them all into a set
            raise ProtocolError("action/illegal", f"{action!r} is not a legal action now")
        # Applied to a copy, swapped in on success: an engine failure must change nothing.
        candidate = engine.clone()
        try:
            events = candidate.apply(key)
        except games.IllegalAction as exc:  # the engine knows better than our cached list
            raise ProtocolError("action/illegal", str(exc) or "illegal action") from None
        except Exception:
            _log.failure("the {game} engine failed on {action!r}", game=self.game.name, action=key)
            raise ProtocolError(
                "server/internal", "the game engine failed on this action; the game is unchanged"
            ) from None
        # Nobody takes back what the stand-in played, nor anything before it.
        barrier = stand_in is not None or _is_barrier(engine, key, candidate)
        if self.store is not None:  # committed before anyone hears of it
            result = _result(candidate) if candidate.is_over else None
            now = self._clock()
            banks = None if self.turns is None else self.turns.banks_after_decision(now)
            assert place.seat is not None  # (checked by _check_turn)
            with storage_errors():
                self.store.action(self.id, self.moves, place.seat, key, now, result, banks)
        if barrier:
            self._undo.clear()
        else:
            self._undo.append((engine, key, engine.label(key)))
        self.engine = engine = candidate
        self.version += 1
        self.moves += 1
        events = list(events)
        if stand_in is not None:
            events.insert(0, {"type": "stand_in", "seat": place.seat, "why": stand_in})
        back = self._decided(place, None if engine.is_over else engine.current_player, stand_in)
        self.recent.extend(events)
        self._refresh_legal()
        if back:
            self._broadcast(self._seat_status(place))
        self._fan_out(events, None if stand_in else place.member, request_id)
        if engine.is_over:
            self._finish()
        return key

    def _check_turn(
        self, place: Place, version: int, not_yours: str, not_yours_text: str
    ) -> games.State:
        """The engine, once ``place`` may decide against ``version`` (in the order every act
        and undo is checked: started, not over, a seat held, its turn, the version); else the
        ProtocolError that says why not (``not_yours``, when it is another seat's turn)."""
        engine = self._check_seat(place)
        if engine.current_player != place.seat:
            raise ProtocolError(not_yours, not_yours_text.format(seat=engine.current_player))
        if version != self.version:
            raise ProtocolError(
                "action/stale", f"version {version} is stale; the table is at {self.version}"
            )
        return engine

    def _check_seat(self, place: Place) -> games.State:
        """The engine, once the game runs and ``place`` holds a seat in it."""
        engine = self.engine
        if engine is None or self.state == WAITING:
            raise ProtocolError("table/not_started", f"table {self.id} has not started")
        if self.state != PLAYING:
            raise ProtocolError("table/finished", f"the game at table {self.id} is over")
        if place.seat is None or self.places[place.seat] is not place:
            raise ProtocolError("session/wrong_state", "you hold no seat at this table")
        return engine

    def undo(self, place: Place, version: int, request_id: Any = None) -> None:
        """Take back ``place``'s last action of this turn (checked like an action: seat, turn,
        version, then something to take back), and fan out an ``update`` with an ``undone``
        event to everyone."""
        self._check_turn(place, version, "action/no_undo", "seat {seat} must decide now, not you")
        if not self._undo:
            raise ProtocolError(
                "action/no_undo",
                "nothing to take back: no action of yours this turn since the last roll, "
                "draw or reveal",
            )
        before, key, label = self._undo[-1]
        if self.store is not None:  # forgotten before anyone hears of it
            with storage_errors():
                self.store.undo(self.id, self.moves - 1)
        self._undo.pop()
        self.engine = before
        self.version += 1
        self.moves -= 1
        events = [{"type": "undone", "seat": place.seat, "action": list(key), "label": label}]
        back = self._decided(place, place.seat, None)
        self.recent.extend(events)
        self._refresh_legal()
        if back:
            self._broadcast(self._seat_status(place))
        self._fan_out(events, place.member, request_id)
        self._tell("undone", place, key)

    def clear_undo(self) -> None:
        """Nothing done so far can be taken back (a bot took the seat over)."""
        self._undo.clear()

    def restore(
        self,
        engine: games.State,
        moves: int,
        recent: Iterable[dict[str, Any]],
        undos: int = 0,
        banks: list[float] | None = None,
    ) -> None:
        """Take up a game rebuilt from the store after a restart: places already hold their
        seats; ``engine`` is the state after ``moves`` actions that stand, ``recent`` its last
        events, ``undos`` the actions taken back before (each was a version, and took a move
        away: the version goes on from where clients saw it), ``banks`` each seat's bank after
        the last action (None: full)."""
        by_seat: list[Place] = sorted(self.held, key=lambda p: -1 if p.seat is None else p.seat)
        self.places = list(by_seat)
        self.engine = engine
        self.moves = moves
        self.version = moves + 2 * undos
        self.recent.extend(recent)
        self.state = PLAYING
        self._awaited = {p.seat for p in self.held if p.seat is not None}
        self._awaited_until = self._clock() + RESTART_GRACE
        self._start_clock()
        if self.turns is not None and banks is not None and len(banks) == self.players:
            self.turns.banks = [max(0.0, min(float(b), self.turns.settings.bank)) for b in banks]
        self._refresh_legal()
        if engine.is_over:  # ended by its last action, saved with its result
            self.state = FINISHED
            self.finished_at = self._clock()

    def _finish(self) -> None:
        self.state = FINISHED
        self.finished_at = self._clock()
        assert self.engine is not None
        ranked = results([p.name for p in self.held], self.engine.scores(), self.engine.ranking())
        _log.info("table {table} finished: {results}", table=self.id, results=ranked)
        self._broadcast(self.game_over())
        self._changed()

    def update_attendance(self) -> None:
        """Note who is at the table now, for :meth:`expired`."""
        # Only people count: a table left to its bots expires like an empty one (and the lobby
        # then stops the bots).
        now = self._clock()
        if any(p.member is not None and not p.bot for p in self.held):
            self.unattended_since = None
        elif self.unattended_since is None:
            self.unattended_since = now
        self._awaited -= {p.seat for p in self.held if p.member is not None}
        self._run_clocks(now)
        if any(not p.bot for p in self.held):
            self.vacant_since = None
        elif self.vacant_since is None:
            self.vacant_since = now
        self._changed()

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change(self)


def _is_barrier(before: games.State, action: games.Action, after: games.State) -> bool:
    """Whether ``action`` (played from ``before`` to ``after``) can never be undone: the
    engine says so, or the seat to act changed, or the game ended. An engine without
    ``barrier`` (or one that fails on it) makes every action a barrier."""
    if after.is_over or after.current_player != before.current_player:
        return True
    barrier = getattr(before, "barrier", None)
    if barrier is None:
        return True
    try:
        return bool(barrier(action, after))  # played already: the engine need not again
    except Exception:
        _log.failure("the engine failed to say whether {action!r} is a barrier", action=action)
        return True
