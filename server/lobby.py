"""The lobby: the registry of tables and seat tokens, lobby presence, and table expiry.

The lobby creates and closes tables, hands out and rotates seat tokens, and pushes a
``table_update`` to every session in the lobby and at the table whenever a table changes. Pushes
are batched: a table marks itself changed and :meth:`Lobby.flush` sends one update per changed
table after each request and each housekeeping tick, so a reply always precedes the pushes it
caused.
"""

from __future__ import annotations

import random
import secrets
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from twisted.logger import Logger

import games
from protocol import ProtocolError
from server.limits import Limits
from server.party_log import seat_list, table_name
from server.places import CLOSED, PLAYING, WAITING, Member, Place, StandIn
from server.rotation import Rotation
from server.saving import storage_errors
from server.store import MEMORY, SavedTable, StorageFailed, Store, token_hash
from server.table import Table
from server.table_messages import RECENT_EVENTS
from server.timers import TimerSettings

_log = Logger()


class LobbyMember(Member, Protocol):
    """A session, as the lobby sees it."""

    def evict(self, code: str, message: str) -> None:
        """Another connection resumed this member's seat: tell the client and close."""
        ...

    def table_closed(self, table_id: int) -> None:
        """The table this member sat at or watched was closed: back to the lobby."""
        ...


class GameRegistry(Protocol):
    """Where games come from: :mod:`games` itself, or a test double."""

    def get(self, name: str) -> games.Game: ...

    def names(self) -> list[str]: ...


class Lobby:
    """All tables of one server, and who is in the lobby."""

    def __init__(
        self,
        *,
        clock: Callable[[], float],
        limits: Limits | None = None,
        rng: random.Random | None = None,
        registry: GameRegistry | None = None,
        token_factory: Callable[[], str] | None = None,
        store: Store | None = None,
        stand_in: StandIn | None = None,
    ) -> None:
        self.clock = clock
        self.stand_in = stand_in  # plays for a seat out of time (None: the first legal action)
        # Where tables, places and actions are kept (without one: a database in memory).
        self.store = store if store is not None else Store.open(MEMORY)
        self.limits = limits or Limits()
        # The server's own generator: table seeds and seat deals. Never sent anywhere.
        self.rng = rng or random.Random(secrets.randbits(64))
        self.registry: GameRegistry = registry or games
        self._new_token = token_factory or (lambda: secrets.token_urlsafe(24))
        self.tables: dict[int, Table] = {}
        self._tokens: dict[str, tuple[Table, Place]] = {}  # by token hash
        self._present: dict[LobbyMember, None] = {}  # insertion-ordered set of lobby sessions
        self._dirty: dict[Table, None] = {}
        self.on_close: list[Callable[[int], None]] = []  # called with the id of a closed table
        self._next_id = self.store.next_table_id()
        self._sweep: Rotation[Table] = Rotation(self.limits.tick, clock())

    # --- presence and pushes -------------------------------------------------------------

    def enter(self, member: LobbyMember) -> None:
        self._present[member] = None

    def exit(self, member: LobbyMember) -> None:
        self._present.pop(member, None)

    def _mark(self, table: Table) -> None:
        self._dirty[table] = None

    def flush(self) -> None:
        """Push one ``table_update`` per changed table to the lobby and to the table."""
        while self._dirty:
            table = next(iter(self._dirty))
            del self._dirty[table]
            msg = {"type": "table_update", "table": table.info()}
            audience = dict.fromkeys(self._present)
            audience.update(dict.fromkeys(table.members()))  # type: ignore[arg-type]
            for member in audience:
                try:
                    member.deliver(msg)
                except Exception:
                    _log.failure("pushing table_update {table}", table=table.id)

    def chat(self, name: str, text: str, sender: LobbyMember, request_id: Any = None) -> None:
        msg = {"type": "chat", "from": name, "text": text, "scope": "lobby"}
        for member in list(self._present):
            member.deliver(
                {**msg, "id": request_id} if member is sender and request_id is not None else msg
            )

    # --- tables --------------------------------------------------------------------------

    def games_info(self) -> list[dict[str, Any]]:
        result = []
        for name in self.registry.names():
            game = self.registry.get(name)
            result.append(
                {
                    "name": game.name,
                    "title": game.title,
                    "min_players": game.min_players,
                    "max_players": game.max_players,
                }
            )
        return result

    def list_tables(
        self,
        limit: int,
        after: int = 0,
        game: str | None = None,
        state: str | None = None,
    ) -> tuple[list[dict[str, Any]], bool]:
        """A page of at most ``limit`` table maps, oldest first, of the tables with an id above
        ``after`` (of ``game``, in ``state``, if given); and whether more follow."""
        page: list[dict[str, Any]] = []
        for table in sorted(self.tables.values(), key=lambda t: t.id):
            if table.id <= after or game not in (None, table.game.name):
                continue
            if state not in (None, table.state):
                continue
            if len(page) == limit:
                return page, True
            page.append(table.info())
        return page, False

    def table(self, table_id: int) -> Table:
        try:
            return self.tables[table_id]
        except KeyError:
            raise ProtocolError("lobby/no_such_table", f"there is no table {table_id}") from None

    def create(
        self,
        game_name: str,
        players: int,
        options: Mapping[str, Any] | None = None,
        seating: str = "random",
        autostart: bool = False,
        creator: str = "",
        seed: int | None = None,
        timer: TimerSettings | None = None,
    ) -> Table:
        """Open a table; the game's rules check the player count and options right away.

        ``creator`` is the address that asks: one address may hold only so many open tables,
        and fewer than are still free. ``seed`` fixes the game's seed (the tournament host's
        tables; the protocol has no way to ask for one). ``timer``: the table's turn timer
        (None: none).
        """
        # The request first (game, players, options), then the server's limits (PROTOCOL.md
        # section 10.1): a client is told what is wrong with what it asked before "not now".
        if game_name not in self.registry.names():
            raise ProtocolError(
                "lobby/unknown_game",
                f"no game {game_name!r}; try {', '.join(self.registry.names())}",
            )
        game = self.registry.get(game_name)
        if not game.min_players <= players <= game.max_players:
            raise ProtocolError(
                "lobby/bad_players",
                f"{game.title} takes {game.min_players} to {game.max_players} players",
            )
        try:  # a throwaway state: the engine is the authority on its options
            game.new(players, 0, dict(options) if options else None)
        except (ValueError, TypeError, KeyError) as exc:
            raise ProtocolError(
                "lobby/bad_options", f"{game.title} refused the options: {exc}"
            ) from None
        # Games nobody has been at for a while count for nobody: their room goes to whoever
        # needs it when the server is full.
        abandoned = self._abandoned()
        attended = len(self.tables) - len(abandoned)
        if attended >= self.limits.max_tables:
            raise ProtocolError(
                "limit/tables",
                f"the server already holds {_tables(self.limits.max_tables)} (max_tables)",
            )
        per_address = self.limits.tables_per_address
        held = sum(
            1 for t in self.tables.values() if t.creator == creator and t.id not in abandoned
        )
        if held >= per_address:
            raise ProtocolError(
                "limit/tables",
                f"your address already holds {_tables(per_address, 'open ')} (tables_per_address)",
            )
        free = self.limits.max_tables - attended
        if held >= free:  # a fair share: never more than is left to everyone else
            raise ProtocolError(
                "limit/tables",
                f"your address holds {_tables(held, 'open ')} and only {free} "
                f"{'is' if free == 1 else 'are'} free: the rest are for others (fair share)",
            )
        if len(self.tables) >= self.limits.max_tables:  # room from the longest abandoned
            oldest = min(abandoned, key=lambda t: abandoned[t])
            _log.info(
                "{table} closed to make room: nobody has been at its game for {minutes} min",
                table=table_name(self.tables[oldest]),
                minutes=round((self.clock() - abandoned[oldest]) / 60),
            )
            self.close(self.tables[oldest])
        table = Table(
            self._next_id,
            game,
            players,
            options,
            seating=seating,
            autostart=autostart,
            clock=self.clock,
            on_change=self._mark,
            store=self.store,
            seed=seed,
            timer=timer,
            stand_in=self.stand_in,
        )
        table.creator = creator
        with storage_errors():
            self.store.table_opened(table)
        self._next_id += 1
        self.tables[table.id] = table
        self._mark(table)
        _log.info("{table} opened for {players} players", table=table_name(table), players=players)
        return table

    def _abandoned(self) -> dict[int, float]:
        """The games people opened that no person has been connected to for
        ``limits.empty_table_ttl`` (bots may still play them): table id -> since when. They
        count against nobody's share of tables, and the longest abandoned is closed when a
        new table needs its room (else it would be kept for ``abandoned_table_ttl``)."""
        since = self.clock() - self.limits.empty_table_ttl
        return {
            t.id: t.unattended_since
            for t in self.tables.values()
            if t.state == PLAYING
            and t.creator  # (not the tournament host's own tables)
            and t.unattended_since is not None
            and t.unattended_since <= since
        }

    def close(self, table: Table) -> None:
        """Close ``table``: its tokens die and everyone at it goes back to the lobby."""
        if table.state == CLOSED:
            return
        for place in table.held:
            self._forget_tokens(place)
        members = table.close()
        del self.tables[table.id]
        self._keep(f"that table {table.id} closed", self.store.table_closed, table.id)
        for member in members:
            try:
                member.table_closed(table.id)  # type: ignore[attr-defined]
            except Exception:
                _log.failure("sending a member of closed table {table} away", table=table.id)
        for hook in self.on_close:
            try:
                hook(table.id)
            except Exception:
                _log.failure("after closing table {table}", table=table.id)
        _log.info("{table} closed", table=table_name(table))

    def tick(self) -> None:
        """Let the stand-in play for seats out of time; close tables that nobody attends any
        more (see :class:`Limits`). Each table is looked at about once per ``limits.tick``, a
        share of them per call (see :class:`~server.rotation.Rotation`)."""
        now = self.clock()
        lim = self.limits
        for table in self._sweep.due(now, self.tables.values()):
            if self.tables.get(table.id) is not table:  # closed since the round began
                continue
            try:
                table.check_time()
            except Exception:
                _log.failure("the turn timer of table {table}", table=table.id)
            if table.expired(
                now,
                lim.vacant_table_ttl,
                lim.empty_table_ttl,
                lim.abandoned_table_ttl,
                lim.finished_table_ttl,
            ):
                self.close(table)
        self.flush()

    # --- seats and tokens ----------------------------------------------------------------
    # Tokens are known by their hashes only: what the store keeps, and all a lookup needs.

    def join(
        self, table_id: int, name: str, member: LobbyMember, slot: int | None = None
    ) -> tuple[Table, Place, str]:
        """Seat ``member``; returns the table, the place and its (new, secret) token."""
        table = self.table(table_id)
        token = self._new_token()
        place = table.join(name, member, token_hash(token), slot)
        self._tokens[place.token_hash] = (table, place)
        return table, place, token

    def reserve_bot(
        self, table: Table, name: str, level: str, slot: int | None = None
    ) -> tuple[Place, str]:
        """Keep a free place of ``table`` (``slot``, or the first) for a ``level`` bot program;
        returns it and its token."""
        token = self._new_token()
        place = table.join(name, None, token_hash(token), slot, level=level)
        self._tokens[place.token_hash] = (table, place)
        self._mark(table)
        return place, token

    def reissue(self, table: Table, place: Place) -> str:
        """A new token for a held place nobody is connected to (a bot program to restart)."""
        token = self._new_token()
        self._give_token(table, place, token_hash(token))
        self._keep_place(table, place)
        return token

    def maybe_autostart(self, table: Table) -> None:
        """Start an ``autostart`` table once every place is held and connected."""
        if table.autostart and table.state == WAITING and table.ready:
            self.start(table, None)

    def leave(self, table: Table, place: Place) -> None:
        if table.leave(place):
            self._forget_tokens(place)
            where = f"that place {place.slot} of table {table.id} is free"
            self._keep(where, self.store.place_freed, table.id, place.slot)

    def resume(self, token: str, member: LobbyMember) -> tuple[Table, Place, str]:
        """Give the seat ``token`` names to ``member`` under a new token (returned).

        The token used stays good until :meth:`confirm_token` (the client's pong to the ping
        sent after ``resumed`` shows it read the new one): if the connection drops first,
        the client can still come back with the only token it has. Any other token of the seat
        dies now. A connection still holding the seat is evicted (the person came back on a
        new one). The new tokens are saved before anything changes.
        """
        used = token_hash(token)
        try:
            table, place = self._tokens[used]
        except KeyError:
            raise ProtocolError(
                "session/bad_token",
                "no seat has this token (rotated, given to a bot, or the table is gone)",
            ) from None
        new_token = self._new_token()
        new = token_hash(new_token)
        try:
            self.store.tokens_saved(table.id, place.slot, new, used)
        except StorageFailed as exc:  # coming back must not depend on a write: no new token
            _log.warn(
                "storage: {error}; {name} takes their seat back at table {table} with the "
                "token they hold (a new one could not be saved)",
                error=str(exc),
                name=place.name,
                table=table.id,
            )
            new_token, new = token, used
        self._forget_tokens(place)
        previous = place.member
        if previous is not None and previous is not member:
            place.member = None
            try:
                previous.evict(  # type: ignore[attr-defined]
                    "session/replaced", "your seat was resumed from another connection"
                )
            except Exception:
                _log.failure("evicting the previous holder of a seat")
        place.token_hash, place.previous_hash = new, (used if new != used else None)
        self._tokens[used] = (table, place)  # good until confirm_token
        self._tokens[new] = (table, place)
        table.attach(place, member)
        return table, place, new_token

    def stand_in_token(self, table: Table, place: Place) -> str:
        """One more token for ``place``, for a bot program to take it over with."""
        token = self._new_token()
        self._tokens[token_hash(token)] = (table, place)
        return token

    def drop_token(self, token: str) -> None:
        self._tokens.pop(token_hash(token), None)

    def hand_to_bot(self, table: Table, place: Place, token: str, level: str) -> None:
        """``place`` now belongs to the ``level`` bot program holding ``token``; every other
        token of it (its player's) dies."""
        self._give_token(table, place, token_hash(token))
        place.level = level
        place.left = False
        table.clear_undo()  # the bot cannot take back its player's actions
        self._keep(
            f"the takeover of {place.name}'s seat",
            self.store.takeover,
            table.id,
            place,
            table.moves,
            level,
            self.clock(),
        )
        self._mark(table)

    def confirm_token(self, place: Place) -> None:
        """The client holding ``place`` has its new token: the one it resumed with dies."""
        if place.previous_hash is not None:
            self._tokens.pop(place.previous_hash, None)
            place.previous_hash = None
            entry = self._tokens.get(place.token_hash)
            if entry is not None:
                self._keep_place(entry[0], place)

    def _give_token(self, table: Table, place: Place, hashed: str) -> None:
        """The token hashed ``hashed`` is now the only one of ``place``."""
        self._forget_tokens(place)
        place.token_hash = hashed
        self._tokens[hashed] = (table, place)

    def _forget_tokens(self, place: Place) -> None:
        for hashed in (place.token_hash, place.previous_hash):
            if hashed is not None:
                self._tokens.pop(hashed, None)
        place.previous_hash = None

    def _keep_place(self, table: Table, place: Place) -> None:
        where = f"place {place.slot} of table {table.id}"
        self._keep(where, self.store.place_saved, table.id, place)

    @staticmethod
    def _keep(what: str, write: Callable[..., None], *args: Any) -> None:
        """A write to the store where refusing is no option (the change has happened): a
        failure is logged, and the server goes on with what it holds in memory."""
        try:
            write(*args)
        except Exception:
            _log.failure("saving {what}", what=what)

    # --- after a restart ---------------------------------------------------------------------

    def restore(self) -> list[tuple[Table, Place]]:
        """Rebuild every unfinished table of the store, as it was: same ids, seats, tokens and
        version (the engines are deterministic: seed and actions give the same game). A table
        whose record no longer replays is set aside, with the reason logged. Returns the
        places held for bot programs, which the hub starts again."""
        bots = []
        for saved in self.store.unfinished():
            try:
                table = self._rebuild(saved)
            except RestoreError as exc:
                _log.error("table {table} is set aside: {reason}", table=saved.id, reason=str(exc))
                self.store.set_aside(saved.id, str(exc))
                continue
            self.tables[table.id] = table
            for place in table.held:
                for hashed in (place.token_hash, place.previous_hash):
                    if hashed is not None:
                        self._tokens[hashed] = (table, place)
                if place.level is not None:
                    bots.append((table, place))
            self._mark(table)
            _log.info(
                "table {table} restored: {game}, {state} at version {version}",
                table=table.id,
                game=table.game.name,
                state=table.state,
                version=table.version,
            )
        return bots

    def _rebuild(self, saved: SavedTable) -> Table:
        if saved.game not in self.registry.names():
            raise RestoreError(f"this server has no game {saved.game!r} any more")
        game = self.registry.get(saved.game)
        edition = getattr(game, "edition", "")
        if saved.edition != edition:
            _log.warn(
                "table {table} was played with {game} edition {old}; replaying it with {new}",
                table=saved.id,
                game=saved.game,
                old=saved.edition,
                new=edition,
            )
        table = Table(
            saved.id,
            game,
            saved.players,
            saved.options,
            seating=saved.seating,
            autostart=saved.autostart,
            clock=self.clock,
            on_change=self._mark,
            store=self.store,
            timer=TimerSettings.of(saved.timer, saved.bank),
            stand_in=self.stand_in,
        )
        table.creator = saved.creator
        now = self.clock()
        for held in saved.places:
            if not 0 <= held.slot < saved.players:
                raise RestoreError(f"place {held.slot} is outside the table")
            place = Place(held.name, held.slot, held.token_hash or "", None, held.bot)
            place.previous_hash = held.previous_hash
            place.seat = held.seat
            place.away_since = now
            table.places[held.slot] = place
        if saved.state == PLAYING:
            seats = sorted(p.seat for p in table.held if p.seat is not None)
            if seats != list(range(saved.players)):
                raise RestoreError(f"its seats {seats} do not fill the table")
            assert saved.seed is not None
            engine, recent = _replay(game, saved)
            table.restore(engine, len(saved.actions), recent, saved.undos, saved.banks)
        table.update_attendance()
        return table

    def start(self, table: Table, starter: Member | None, request_id: Any = None) -> None:
        table.start(self.rng, starter, request_id)
        _log.info(
            "{table} started: {seats}",
            table=table_name(table),
            seats=seat_list([p.name for p in table.held]),
        )


class RestoreError(Exception):
    """A saved table cannot be rebuilt (its record no longer replays)."""


def _replay(game: games.Game, saved: SavedTable) -> tuple[games.State, list[dict[str, Any]]]:
    """The state after the saved actions, and the last public events (for snapshots)."""
    assert saved.seed is not None
    try:
        engine = game.new(saved.players, saved.seed, saved.options or None)
    except Exception as exc:
        raise RestoreError(f"the game cannot be set up again ({exc})") from None
    recent: deque[dict[str, Any]] = deque(maxlen=RECENT_EVENTS)
    for version, (seat, action) in enumerate(saved.actions):
        if engine.current_player != seat:
            raise RestoreError(
                f"action {version} was played by seat {seat}, "
                f"but now seat {engine.current_player} is to decide"
            )
        try:
            recent.extend(engine.apply(tuple(action)))
        except Exception as exc:
            raise RestoreError(
                f"action {version} {action!r} no longer replays ({type(exc).__name__}: {exc})"
            ) from None
    return engine, list(recent)


def _tables(count: int, kind: str = "") -> str:
    """``1 open table``, ``3 open tables``: counts in messages people read."""
    return f"{count} {kind}table{'' if count == 1 else 's'}"
