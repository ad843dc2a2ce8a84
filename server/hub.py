"""The server's logic root: the lobby, every open session, admission and the housekeeping sweep.

Plain Python on an injected clock: :mod:`server.service` wires it to Twisted (a listening port,
one :class:`~server.connection.Connection` per client, a ``LoopingCall`` for :meth:`Hub.tick`);
tests drive it directly.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Protocol

from twisted.logger import Logger

from protocol import ProtocolError
from server.bot_programs import BotLauncher, BotProcess, Spawn
from server.limits import Limits, RateMeter
from server.lobby import GameRegistry, Lobby
from server.party_log import letter, table_name
from server.places import PLAYING, WAITING, Place, StandIn
from server.rotation import Rotation
from server.session import Peer, Session
from server.store import Store
from server.table import Table

_log = Logger()


class SlowReader(Protocol):
    """A connection the server queues bytes for (see :meth:`Hub.queued`)."""

    def drop(self) -> None:
        """Cut the connection: it reads too slowly for what the server may hold for it."""
        ...


MAX_BOT_RESTARTS = 2
"""How often a bot program that ends in the middle of its game is started again."""

BOT_RETURN_GRACE = 30.0
"""Seconds a server restarted after a crash waits for the bot programs of its restored tables
to come back by themselves (they outlive a ``kill -9`` of the server and retry at least every
15 s: twice that leaves room for a busy machine) before it starts new ones for the seats still
empty."""

REFUSAL_SUMMARY = 60.0
"""Seconds between the log's summaries of refused connections (a flood of them would
otherwise be a line each)."""


class Hub:
    """Everything one server holds."""

    def __init__(
        self,
        clock: Callable[[], float],
        limits: Limits | None = None,
        *,
        rng: random.Random | None = None,
        registry: GameRegistry | None = None,
        token_factory: Callable[[], str] | None = None,
        spawn: Spawn | None = None,
        store: Store | None = None,
        stand_in: StandIn | None = None,
    ) -> None:
        self.clock = clock
        self.limits = limits or Limits()
        # Without ``spawn`` (or with max_bots 0) the server starts no bots: ``lobby/no_bots``.
        self.bots = BotLauncher(
            spawn, self.limits.max_bots, per_address=self.limits.bots_per_address
        )
        self.lobby = Lobby(
            clock=clock,
            limits=self.limits,
            rng=rng,
            registry=registry,
            token_factory=token_factory,
            store=store,
            stand_in=stand_in,
        )
        self.store = self.lobby.store
        # Tables of an earlier run, rebuilt from the store; their bots start once we listen,
        # after a crash once those of the run before had their chance to come back.
        self._bots_to_restart = self.lobby.restore()
        self._bots_due: float | None = None
        self._crashed = not self.store.begin_run()
        self.lobby.on_close.append(self.bots.table_closed)
        self.bots.on_ended = self._bot_ended
        self._restarts: Counter[Place] = Counter()  # bot programs restarted, by place
        self._programs: dict[Place, BotProcess] = {}  # the program in charge of each place
        self.sessions: dict[Session, None] = {}
        self.per_address: Counter[str] = Counter()
        self._costly: dict[str, RateMeter] = {}  # history/record requests, by address
        # Bytes queued for clients that do not read, by connection, and their sum (send_budget).
        self.backlogs: dict[SlowReader, int] = {}
        self.backlog_total = 0
        self.shutting_down = False
        self._refusals: Counter[str] = Counter()  # by code, since _refusals_since
        self._refusals_since = clock()
        self._sweep: Rotation[Session] = Rotation(self.limits.tick, clock())

    def admission(self, address: str) -> ProtocolError | None:
        """Why a new connection from ``address`` must be refused, or None to accept it."""
        if self.shutting_down:
            return ProtocolError("server/shutting_down", "the server is stopping")
        if len(self.sessions) >= self.limits.max_connections:
            return ProtocolError(
                "limit/server_full",
                f"the server holds {self.limits.max_connections} connections",
            )
        if self.per_address[address] >= self.limits.connections_per_address:
            return ProtocolError(
                "limit/connections",
                f"at most {self.limits.connections_per_address} connections per address",
            )
        return None

    def costly(self, address: str) -> float:
        """A ``history`` or ``record`` request from ``address``: the seconds its connection
        must wait before the server reads from it again (``limits.costly_rate``), 0 if none."""
        meter = self._costly.get(address)
        if meter is None:
            limits = self.limits
            meter = self._costly[address] = RateMeter(
                limits.costly_rate, limits.costly_burst, self.clock()
            )
        return meter.take(self.clock())

    def refused(self, address: str, code: str) -> None:
        """Log a refused connection: the first of its kind at once, the others summed up once
        per :data:`REFUSAL_SUMMARY` by :meth:`tick`."""
        if code not in self._refusals:
            _log.info(
                "refused {address}: {code} (more refusals are summed up once a minute)",
                address=address,
                code=code,
            )
        self._refusals[code] += 1

    def _sum_up_refusals(self, now: float) -> None:
        if now - self._refusals_since < REFUSAL_SUMMARY:
            return
        counts, self._refusals = self._refusals, Counter()
        since, self._refusals_since = self._refusals_since, now
        if sum(counts.values()) > len(counts):  # more than the first ones, logged already
            _log.info(
                "refused {total} connections in the last {seconds:.0f} s: {counts}",
                total=sum(counts.values()),
                seconds=now - since,
                counts=", ".join(f"{code} {n}" for code, n in sorted(counts.items())),
            )

    def open_session(self, peer: Peer, address: str) -> Session:
        session = Session(self, peer, address)
        self.sessions[session] = None
        self.per_address[address] += 1
        return session

    # --- the send budget -------------------------------------------------------------------

    def queued(self, reader: SlowReader, size: int) -> None:
        """``size`` more bytes wait for ``reader``; past ``send_budget`` in all, the readers
        with the most waiting are dropped first until the total is back under it."""
        self.backlogs[reader] = self.backlogs.get(reader, 0) + size
        self.backlog_total += size
        budget = self.limits.send_budget
        if self.backlog_total <= budget:
            return
        for slowest in sorted(self.backlogs, key=self.backlogs.__getitem__, reverse=True):
            if self.backlog_total <= budget:
                break
            _log.warn(
                "dropping the slowest reader ({n} bytes queued): the server's send budget of"
                " {budget} bytes is spent",
                n=self.backlogs[slowest],
                budget=budget,
            )
            self.drained(slowest)
            slowest.drop()

    def drained(self, reader: SlowReader) -> None:
        """Nothing waits for ``reader`` any more (it read everything, or it is gone)."""
        self.backlog_total -= self.backlogs.pop(reader, 0)

    def forget(self, session: Session) -> None:
        if session not in self.sessions:
            return
        del self.sessions[session]
        self.per_address[session.address] -= 1
        if self.per_address[session.address] <= 0:
            del self.per_address[session.address]
            self._costly.pop(session.address, None)

    # --- bots --------------------------------------------------------------------------------

    def add_bot(
        self,
        table: Table,
        level: str,
        slot: int | None = None,
        seat: int | None = None,
        address: str | None = None,
    ) -> Place:
        """Start a bot for a place of ``table``; returns the place.

        While the table waits the bot gets a free place (``slot``, or the first). During the
        game it takes over engine ``seat`` if that seat has had nobody connected for
        ``Limits.bot_takeover_after``: the player's token dies, the bot plays on. ``address``
        asks for it: the bot counts against that address's share (``Limits.bots_per_address``)
        while it runs.
        """
        if table.state == PLAYING:
            if seat is None:
                raise ProtocolError(
                    "lobby/not_waiting",
                    f"table {table.id} is playing: name the seat of a player who is away",
                )
            return self._take_over(table, level, seat, address)
        if table.state != WAITING:
            raise ProtocolError("lobby/not_waiting", f"table {table.id} is no longer waiting")
        if seat is not None:
            raise ProtocolError(
                "table/not_started", f"table {table.id} has no seats yet: name a free place (slot)"
            )
        table.free_slot(slot)  # what is wrong with the request before what the server can do
        self.bots.check(address)
        taken = {p.name for p in table.held}
        number = 1
        while f"{level.capitalize()} bot {number}" in taken:
            number += 1
        name = f"{level.capitalize()} bot {number}"
        place, token = self.lobby.reserve_bot(table, name, level, slot)
        try:
            self._launch(table, place, level, token, address)
        except ProtocolError:
            self.lobby.leave(table, place)
            raise
        return place

    def hand_own_seat(self, table: Table, place: Place, level: str, address: str | None) -> None:
        """``place``'s person, connected, hands their seat to a ``level`` bot as they go
        (``leave`` with ``bot``): as a takeover, without waiting for them to be away."""
        assert place.seat is not None and place.member is not None
        self._take_over(table, level, place.seat, address, own=True)

    def _take_over(
        self, table: Table, level: str, seat: int, address: str | None, own: bool = False
    ) -> Place:
        if not 0 <= seat < table.players:
            raise ProtocolError(
                "lobby/no_such_seat", f"table {table.id} has seats 0 to {table.players - 1}"
            )
        place = table.places[seat]  # by engine seat once started, every one held
        assert place is not None
        if place.member is not None and not own:
            raise ProtocolError(
                "table/seat_connected",
                f"{place.name} is connected: only they can hand their seat to a bot (`leave` "
                "with `bot`)",
            )
        # Someone who left on purpose (or hands over their own seat) is not waited for.
        wait = 0.0 if place.left or own else self.limits.bot_takeover_after
        away = 0.0 if place.away_since is None else self.clock() - place.away_since
        if away < wait:
            raise ProtocolError(
                "table/too_soon",
                f"seat {letter(seat)} ({place.name}) has had nobody for {away:.0f}s; "
                f"a bot may take it over after {wait:g}s",
            )
        # An earlier program for this seat never got back to it: the new one replaces it, so
        # it does not count against max_bots.
        previous = self._programs.get(place)
        replacing = previous if previous is not None and previous.running else None
        token = self.lobby.stand_in_token(table, place)
        try:
            self._launch(table, place, level, token, address, replacing)
        except ProtocolError:
            self.lobby.drop_token(token)  # the player keeps the seat
            raise
        if previous is not None:
            previous.stop()
        self.lobby.hand_to_bot(table, place, token, level)
        place.away_since = self.clock()  # a bot on its way: nobody may ask again at once
        self._restarts[place] = 0
        _log.info(
            "{name}'s seat {seat} at {table} is handed to the {bot_level} bot",
            name=place.name,
            seat=letter(place.seat),
            table=table_name(table),
            bot_level=level,
        )
        return place

    def restart_bots(self) -> None:
        """Start again the bot programs of the tables restored from the store (once the server
        listens, so that they can connect). After a crash, those of the run before may still
        run: they get :data:`BOT_RETURN_GRACE` seconds to take their seats back first (else
        each would be refused for good and leave a second program playing its seat)."""
        if self._crashed and self._bots_to_restart:
            self._bots_due = self.clock() + BOT_RETURN_GRACE
        else:
            self._start_restored_bots()

    def _start_restored_bots(self) -> None:
        """Start the bot programs of restored tables whose seats are still empty."""
        pending, self._bots_to_restart = self._bots_to_restart, []
        self._bots_due = None
        for table, place in pending:
            if self.lobby.tables.get(table.id) is not table or place not in table.places:
                continue
            if place.member is not None or place.level is None:
                continue  # the program of the run before came back (or a person took it)
            token = self.lobby.reissue(table, place)
            try:
                self._launch(table, place, place.level, token)
            except ProtocolError as exc:
                if table.state == WAITING:
                    self.lobby.leave(table, place)  # it never sat down: the place is free
                _log.error(
                    "the bot of {name} at table {table} could not be started again ({error})",
                    name=place.name,
                    table=table.id,
                    error=exc.message,
                )
        self.lobby.flush()

    def _launch(
        self,
        table: Table,
        place: Place,
        level: str,
        token: str,
        address: str | None = None,
        replacing: BotProcess | None = None,
    ) -> None:
        """Start a bot program for ``place``: from now on the one in charge of it."""
        seed = self.lobby.rng.randrange(2**32)
        process = self.bots.start(table.id, place, level, token, seed, address, replacing)
        self._programs[place] = process

    def _bot_ended(self, process: BotProcess) -> None:
        """A bot program ended: free its place, or restart it if its game still needs it."""
        place = process.place
        if self._programs.get(place) is not process:
            return  # an earlier program for a place another one has taken over since
        del self._programs[place]
        restarts = self._restarts.pop(place, 0)  # kept again only if it is restarted below
        table = self.lobby.tables.get(process.table_id)
        # Stopped by the server, or its place is gone; either way so is its connection (even
        # if the server has not noticed yet).
        if self.shutting_down or table is None or place not in table.places:
            return
        if table.state == WAITING:
            _log.warn("{name} ended before its game started; its place is free", name=place.name)
            self.lobby.leave(table, place)  # it never sat down: the place is free again
            self.lobby.flush()
        elif table.state == PLAYING and restarts < MAX_BOT_RESTARTS:
            _log.warn("{name} ended during the game; starting it again", name=place.name)
            token = self.lobby.reissue(table, place)
            place.away_since = self.clock()  # a bot on its way: no takeover before the limit
            try:
                self._launch(table, place, process.level, token, process.address)
            except ProtocolError:
                _log.error(
                    "{name} could not be started again: table {table} waits for its seat",
                    name=place.name,
                    table=table.id,
                )
            else:
                self._restarts[place] = restarts + 1
        elif table.state == PLAYING:
            _log.error(
                "{name} ended again and is not restarted: table {table} waits for its seat"
                " (a person seated there can hand it to a new bot)",
                name=place.name,
                table=table.id,
            )

    def tick(self) -> None:
        """Handshake and idle timeouts, heartbeats, turn timers, table expiry: each session and
        table is looked at about once per ``limits.tick``, a share of them per call (the
        service calls this :data:`~server.rotation.SLICES` times per ``limits.tick``)."""
        now = self.clock()
        for session in self._sweep.due(now, self.sessions):
            try:
                session.tick(now)
            except Exception:
                _log.failure("housekeeping of {session!r}", session=session)
        self.lobby.tick()
        if self._bots_due is not None and now >= self._bots_due:
            self._start_restored_bots()
        self._sum_up_refusals(now)

    def shutdown(self) -> None:
        """Tell every client the server is stopping and close every connection."""
        self.shutting_down = True
        _log.info(
            "the server is stopping: {count} connection(s) closed",
            count=len(self.sessions),
        )
        self.bots.stop_all()
        self.store.end_run()
        for session in list(self.sessions):
            session.fail(ProtocolError("server/shutting_down", "the server is stopping"))
