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
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol

from twisted.logger import Logger

import games
from protocol import ProtocolError
from server.party_log import letter, results, table_name
from server.store import StorageFailed, Store
from server.timers import RESTART_GRACE, TIMEOUT, TimerSettings, TurnClock

StandIn = Callable[[games.Game, dict[str, Any], list[games.Action], random.Random], games.Action]
"""Chooses an action for a seat that ran out of time: (game, the seat's view, legal, rng)."""

WAITING, PLAYING, FINISHED, CLOSED = "waiting", "playing", "finished", "closed"
RECENT_EVENTS = 32
"""How many recent public events a ``snapshot`` carries."""

_log = Logger()


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


class Table:
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
        self._stand_in = stand_in or greedy_stand_in

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

    def members(self) -> list[Member]:
        """Everyone connected to this table: seat holders, then spectators."""
        return [p.member for p in self.places if p is not None and p.member is not None] + list(
            self.spectators
        )

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
        for member, seat in self._audience():
            msg = {"type": "started", "table": self.info(), "seat": seat, "seats": names}
            if member is starter and request_id is not None:
                msg["id"] = request_id
            self._send(member, msg)
        for member, seat in self._audience():
            self._send(member, self.snapshot(seat, member))
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

    # --- time ---------------------------------------------------------------------------

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

    def _clock_message(self) -> dict[str, Any] | None:
        return None if self.turns is None else self.turns.message(self._clock())

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

    def _undo_for(self, seat: int | None) -> str | None:
        """The label of the action ``seat`` may take back now, or None."""
        if not self._undo or seat is None or self.state != PLAYING:
            return None
        assert self.engine is not None
        return self._undo[-1][2] if seat == self.engine.current_player else None

    def snapshot(self, seat: int | None, member: Member | None = None) -> dict[str, Any]:
        """A full ``snapshot`` message for ``seat`` (None: a spectator), to be sent to
        ``member`` (its legal actions labelled as it asked)."""
        assert self.engine is not None
        return {
            "type": "snapshot",
            "table": self.id,
            "version": self.version,
            "seat": seat,
            "view": self.engine.view(seat),
            "events": list(self.recent),
            "legal": self._legal_for(seat, member),
            "undo": self._undo_for(seat),
            "clock": self._clock_message(),
        }

    def game_over(self) -> dict[str, Any]:
        assert self.engine is not None
        return {
            "type": "game_over",
            "table": self.id,
            "version": self.version,
            **_result(self.engine),
            "seats": [p.name for p in self.held],
        }

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
        self.places = sorted(self.held, key=lambda p: -1 if p.seat is None else p.seat)
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

    def chat(self, name: str, text: str, sender: Member, request_id: Any = None) -> None:
        msg = {"type": "chat", "from": name, "text": text, "scope": "table", "table": self.id}
        for member in self.members():
            if member is sender and request_id is not None:
                self._send(member, {**msg, "id": request_id})
            else:
                self._send(member, msg)

    # --- internals -----------------------------------------------------------------------

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
        assert self.engine is not None
        engine = self.engine
        clock = self._clock_message()
        for place in self.places:
            if place is None or place.member is None:
                continue
            msg = {
                "type": "update",
                "table": self.id,
                "version": self.version,
                "seat": place.seat,
                "view": engine.view(place.seat),
                "events": events,
                "legal": self._legal_for(place.seat, place.member),
                "undo": self._undo_for(place.seat),
                "clock": clock,
            }
            if place.member is actor and request_id is not None:
                msg["id"] = request_id
            self._send(place.member, msg)
        if self.spectators:
            msg = {
                "type": "update",
                "table": self.id,
                "version": self.version,
                "seat": None,
                "view": engine.view(None),
                "events": events,
                "legal": [],
                "undo": None,
                "clock": clock,
            }
            for member in list(self.spectators):
                self._send(member, msg)

    def _finish(self) -> None:
        self.state = FINISHED
        self.finished_at = self._clock()
        assert self.engine is not None
        ranked = results([p.name for p in self.held], self.engine.scores(), self.engine.ranking())
        _log.info("table {table} finished: {results}", table=self.id, results=ranked)
        self._broadcast(self.game_over())
        self._changed()

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


def _log_back(table: Table, place: Place) -> None:
    _log.info(
        "{name} is back at {table}: the bot gives seat {seat} back",
        name=place.name,
        table=table_name(table),
        seat=letter(place.seat),
    )


def greedy_stand_in(
    game: games.Game, view: dict[str, Any], legal: list[games.Action], rng: random.Random
) -> games.Action:
    """The stand-in for a seat out of time: the greedy bot (one action ahead with the game's
    heuristic, a millisecond or so), on that seat's own view."""
    from ai.bots import GreedyBot  # the server needs the AI only when a seat runs out of time

    return GreedyBot(game, rng).choose(view, legal)


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


def _result(engine: games.State) -> dict[str, Any]:
    """The final scores and ranking of a game that is over (as ``game_over`` and records)."""
    return {
        "scores": list(engine.scores()),
        "ranking": [list(group) for group in engine.ranking()],
    }


class storage_errors:  # lower case: used as ``with storage_errors():``, like a function
    """Turn a failed write to the store into the protocol error the client gets.

    A class rather than a ``@contextmanager`` generator: it wraps every applied action, and
    entering and leaving it costs 0.2 us where the generator's cost 1.1 us."""

    __slots__ = ()

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: Any
    ) -> None:
        if not isinstance(exc, StorageFailed):
            return
        _log.error("storage: {error}", error=str(exc))
        if exc.full:
            raise ProtocolError(
                "server/storage_full",
                "the server's disk is full: nothing was saved and nothing changed",
            ) from None
        raise ProtocolError(
            "server/storage", f"{exc}: nothing changed; try again in a moment"
        ) from None
