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
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from twisted.logger import Logger

import games
from protocol import ProtocolError
from server.limits import Limits
from server.table import CLOSED, WAITING, Member, Place, Table

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
    ) -> None:
        self.clock = clock
        self.limits = limits or Limits()
        # The server's own generator: table seeds and seat deals. Never sent anywhere.
        self.rng = rng or random.Random(secrets.randbits(64))
        self.registry: GameRegistry = registry or games  # type: ignore[assignment]
        self._new_token = token_factory or (lambda: secrets.token_urlsafe(24))
        self.tables: dict[int, Table] = {}
        self._tokens: dict[str, tuple[Table, Place]] = {}
        self._present: dict[LobbyMember, None] = {}  # insertion-ordered set of lobby sessions
        self._dirty: dict[Table, None] = {}
        self.on_close: list[Callable[[int], None]] = []  # called with the id of a closed table
        self._next_id = 1

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

    def list_tables(self) -> list[dict[str, Any]]:
        return [table.info() for table in self.tables.values()]

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
    ) -> Table:
        """Open a table; the game's rules check the player count and options right away.

        ``creator`` is the address that asks: one address may hold only so many open tables.
        """
        if len(self.tables) >= self.limits.max_tables:
            raise ProtocolError(
                "limit/tables", f"the server already holds {self.limits.max_tables} tables"
            )
        per_address = self.limits.tables_per_address
        if sum(1 for t in self.tables.values() if t.creator == creator) >= per_address:
            raise ProtocolError(
                "limit/tables", f"your address already holds {per_address} open tables"
            )
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
        table = Table(
            self._next_id,
            game,
            players,
            options,
            seating=seating,
            autostart=autostart,
            clock=self.clock,
            on_change=self._mark,
        )
        table.creator = creator
        self._next_id += 1
        self.tables[table.id] = table
        self._mark(table)
        _log.info(
            "table {table} opened: {game} for {players}",
            table=table.id,
            game=game_name,
            players=players,
        )
        return table

    def close(self, table: Table) -> None:
        """Close ``table``: its tokens die and everyone at it goes back to the lobby."""
        if table.state == CLOSED:
            return
        for place in table.held:
            self._forget_tokens(place)
        members = table.close()
        del self.tables[table.id]
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
        _log.info("table {table} closed", table=table.id)

    def tick(self) -> None:
        """Close tables that nobody attends any more (see :class:`Limits`)."""
        now = self.clock()
        lim = self.limits
        for table in list(self.tables.values()):
            if table.expired(
                now, lim.empty_table_ttl, lim.abandoned_table_ttl, lim.finished_table_ttl
            ):
                self.close(table)
        self.flush()

    # --- seats and tokens ----------------------------------------------------------------

    def join(
        self, table_id: int, name: str, member: LobbyMember, slot: int | None = None
    ) -> tuple[Table, Place]:
        table = self.table(table_id)
        token = self._new_token()
        place = table.join(name, member, token, slot)
        self._tokens[token] = (table, place)
        return table, place

    def reserve_bot(self, table: Table, name: str, slot: int | None = None) -> tuple[Place, str]:
        """Keep a free place of ``table`` (``slot``, or the first) for a bot program; returns
        it and its token."""
        token = self._new_token()
        place = table.join(name, None, token, slot, bot=True)
        self._tokens[token] = (table, place)
        self._mark(table)
        return place, token

    def reissue(self, table: Table, place: Place) -> str:
        """A new token for a held place nobody is connected to (a bot program to restart)."""
        token = self._new_token()
        self._give_token(table, place, token)
        return token

    def maybe_autostart(self, table: Table) -> None:
        """Start an ``autostart`` table once every place is held and connected."""
        if table.autostart and table.state == WAITING and table.ready:
            self.start(table, None)

    def leave(self, table: Table, place: Place) -> None:
        if table.leave(place):
            self._forget_tokens(place)

    def resume(self, token: str, member: LobbyMember) -> tuple[Table, Place]:
        """Give the seat ``token`` names to ``member`` under a new token.

        The token used stays good until :meth:`confirm_token` (the client's pong to the ping
        sent after ``resumed`` shows it read the new one): if the connection drops first,
        the client can still come back with the only token it has. Any other token of the seat
        dies now. A connection still holding the seat is evicted (the person came back on a
        new one).
        """
        try:
            table, place = self._tokens[token]
        except KeyError:
            raise ProtocolError(
                "session/bad_token", "no seat has this token (rotated, or the table is gone)"
            ) from None
        self._forget_tokens(place)
        self._tokens[token] = (table, place)  # good until confirm_token
        previous = place.member
        if previous is not None and previous is not member:
            place.member = None
            try:
                previous.evict(  # type: ignore[attr-defined]
                    "session/replaced", "your seat was resumed from another connection"
                )
            except Exception:
                _log.failure("evicting the previous holder of a seat")
        new_token = self._new_token()
        self._tokens[new_token] = (table, place)
        place.previous_token = token
        table.attach(place, member, new_token)
        return table, place

    def stand_in_token(self, table: Table, place: Place) -> str:
        """One more token for ``place``, for a bot program to take it over with."""
        token = self._new_token()
        self._tokens[token] = (table, place)
        return token

    def drop_token(self, token: str) -> None:
        self._tokens.pop(token, None)

    def hand_to_bot(self, table: Table, place: Place, token: str) -> None:
        """``place`` now belongs to the bot program holding ``token``; every other token of
        it (its player's) dies."""
        self._give_token(table, place, token)
        place.bot = True
        self._mark(table)

    def confirm_token(self, place: Place) -> None:
        """The client holding ``place`` has its new token: the one it resumed with dies."""
        if place.previous_token is not None:
            self._tokens.pop(place.previous_token, None)
            place.previous_token = None

    def _give_token(self, table: Table, place: Place, token: str) -> None:
        """``token`` is now the only one of ``place``."""
        self._forget_tokens(place)
        place.token = token
        self._tokens[token] = (table, place)

    def _forget_tokens(self, place: Place) -> None:
        for token in (place.token, place.previous_token):
            if token is not None:
                self._tokens.pop(token, None)
        place.previous_token = None

    def start(self, table: Table, starter: Member | None, request_id: Any = None) -> None:
        table.start(self.rng, starter, request_id)
        _log.info("table {table} started", table=table.id)
