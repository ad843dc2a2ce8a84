"""One client's session: an explicit state machine that admits, checks and dispatches messages.

The states and what each admits are two tables, :data:`ALLOWED` and :data:`TRANSITIONS`; a
message the current state does not admit gets ``session/wrong_state`` and changes nothing. A
message is handled in this order: rate meter, catalogue validation, state check, then
``handle_<type>``. The session talks to its connection only through :class:`Peer` (``send`` a
message dict, ``close``, ``hold`` its reading), so it runs the same over TCP and in memory.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from twisted.logger import Logger

from protocol import (
    REJECT_CODES,
    SUPPORTED_VERSIONS,
    ProtocolError,
    depth_for,
    negotiate,
    validate,
)
from protocol.codec import Prepacked
from protocol.fields import INT_MAX, check_id
from protocol.messages import BY_TYPE, LIST_PAGE
from server.limits import RateMeter
from server.party_log import letter, table_name
from server.places import PLAYING, Place
from server.session_log import SessionLog
from server.session_states import (
    ALLOWED,
    AWAITING_HELLO,
    CLOSED,
    HEARTBEAT,
    LOBBY,
    SEATED,
    SPECTATING,
    TRANSITIONS,
)
from server.store import FINISHED
from server.table import Table
from server.timers import TimerSettings

if TYPE_CHECKING:
    from server.hub import Hub

HISTORY_PAGE = 20
"""Finished games in a `history` reply that does not say how many."""
SERVER_NAME = "cosmoport-server 0.1"

_log = Logger()


class Peer(Protocol):
    """The connection under a session."""

    def send(self, msg: dict[str, Any]) -> None: ...

    def close(self) -> None: ...

    def hold(self, seconds: float) -> None:
        """Read nothing more from the client for ``seconds``."""
        ...


class Session(SessionLog):
    """A client from connecting to closing."""

    def __init__(self, hub: Hub, peer: Peer, address: str) -> None:
        self.hub = hub
        self.lobby = hub.lobby
        self.peer = peer
        self.address = address
        self.state = AWAITING_HELLO
        self.name = ""
        self.labels = True  # the legal actions sent come with their labels (hello's `labels`)
        self.version: int | None = None  # the protocol version agreed in `welcome`
        self.table: Table | None = None
        self.place: Place | None = None
        now = hub.clock()
        self.opened_at = now
        self.last_received = now
        self.last_request = now
        self.last_ping = now
        limits = hub.limits
        self.rate = RateMeter(limits.rate, limits.burst, now)
        self.act_pace = RateMeter(limits.act_rate, limits.act_burst, now)
        # After `resumed`: (ping id, place, hashes of the token used and the token given),
        # completed by the pong that echoes the id.
        self.rotation: tuple[str, Place, str, str] | None = None
        self._rotations = 0
        self.end_reason = ""  # why the server closed the connection, for the host's log

    def __repr__(self) -> str:
        return f"<Session {self.name or '?'}@{self.address} {self.state}>"

    @property
    def decode_depth(self) -> int:
        """How deep the frames of this session may nest: version 1's 8 levels until the hello
        has agreed on version 2, whose 3 levels apply from then on."""
        return depth_for(self.version)

    # --- transitions ---------------------------------------------------------------------

    def _enter(self, event: str) -> None:
        self.state = TRANSITIONS[(self.state, event)]

    # --- input ---------------------------------------------------------------------------

    def receive(self, msg: dict[str, Any]) -> None:
        """Handle one decoded message from the client (its frame has passed :meth:`admit`)."""
        if self.state == CLOSED:
            return
        version = self._rules(msg)
        request_id = _request_id(msg, version)
        kind = msg.get("type") if isinstance(msg.get("type"), str) else None
        try:
            if self.state == AWAITING_HELLO and _foreign_version(msg):
                spec = BY_TYPE["hello"]  # refused for its version alone (handle_hello)
            else:
                spec = validate(msg, version)
            if spec.type not in ALLOWED[self.state]:
                raise ProtocolError(
                    "session/wrong_state", f"`{spec.type}` is not allowed while {self.state}"
                )
            if spec.type not in HEARTBEAT:
                self.last_request = self.hub.clock()
            getattr(self, "handle_" + spec.type)(msg, request_id)
        except ProtocolError as err:
            self.fail(err, request_id, kind)
        except Exception:
            _log.failure("handling {kind} from {session!r}", kind=kind, session=self)
            self.fail(
                ProtocolError("server/internal", "the server failed on this request"),
                request_id,
                kind,
            )
        self.lobby.flush()

    def _rules(self, msg: dict[str, Any]) -> int:
        """The protocol version whose rules ``msg`` is checked by: the session's; before the
        hello, the version a ``hello`` asks for, and version 1's (the wider) for anything else,
        which is refused for its state anyway."""
        if self.version is not None:
            return self.version
        if msg.get("type") == "hello":
            return negotiate(msg.get("version"), msg.get("versions")) or 1
        return 1

    def receive_garbage(self, err: ProtocolError) -> None:
        """A frame that did not decode (it has passed :meth:`admit`): refused like any bad
        message."""
        if self.state != CLOSED:
            self.fail(err)

    def admit(self) -> bool:
        """Count one frame against the rate, before it is decoded (so a frame beyond the rate
        costs the server nothing to decode); False if it must be dropped, the client having
        been told ``limit/rate`` and disconnected (or the session being closed)."""
        if self.state == CLOSED:
            return False
        now = self.hub.clock()
        self.last_received = now
        if self.rate.admit(now):
            return True
        lim = self.hub.limits
        self.fail(
            ProtocolError(
                "limit/rate", f"more than {lim.rate:g} messages per second (burst {lim.burst})"
            )
        )
        return False

    # --- output --------------------------------------------------------------------------

    def send(self, msg: dict[str, Any]) -> None:
        if self.state != CLOSED:
            self.peer.send(msg)

    def fail(self, err: ProtocolError, request_id: Any = None, request: str | None = None) -> None:
        """Answer a refused message; close the connection if the code says so."""
        if self.state == AWAITING_HELLO and err.code in REJECT_CODES:
            self.reject(err.code, err.message, request_id)
            return
        if err.disconnects:
            self.end_reason = err.message  # said in the line that the connection ended
        if request is not None or not err.disconnects:  # a timeout is no refused request
            _log.debug(
                "{who}: {request} refused: {code} ({message})",
                who=self._who(),
                request=request or "a message",
                code=err.code,
                message=err.message,
            )
        msg: dict[str, Any] = {"type": "error", "code": err.code, "message": err.message}
        if request_id is not None:
            msg["id"] = request_id
        if request is not None:
            msg["request"] = request[:40]
        self.send(msg)
        if err.disconnects:
            self.close()

    def reject(self, code: str, message: str, request_id: Any = None, **extra: Any) -> None:
        self.end_reason = message
        msg: dict[str, Any] = {"type": "reject", "code": code, "message": message, **extra}
        if request_id is not None:
            msg["id"] = request_id
        self.send(msg)
        self.close()

    def close(self) -> None:
        """Leave every table and the lobby (a seat stays held), then close the connection."""
        self._end(close_peer=True)

    def connection_lost(self) -> None:
        self._end(close_peer=False)

    def _end(self, close_peer: bool) -> None:
        if self.state == CLOSED:
            return
        self._log_end()
        self._detach()
        self._enter("closed")
        self.hub.forget(self)
        if close_peer:
            self.peer.close()
        self.lobby.flush()

    def _detach(self) -> None:
        if self.state == SEATED and self.table is not None and self.place is not None:
            self.table.detach(self.place)
        elif self.state == SPECTATING and self.table is not None:
            self.table.remove_spectator(self)
        self.lobby.exit(self)
        self.table = None
        self.place = None

    # --- Member (called by tables and the lobby) -----------------------------------------

    def deliver(self, msg: dict[str, Any]) -> None:
        self.send(msg)

    def evict(self, code: str, message: str) -> None:
        self.place = None  # the seat is someone else's now: closing must not detach it
        self.table = None
        self.fail(ProtocolError(code, message))
        self.end_reason = "the seat was resumed from another connection"
        self.close()

    def table_closed(self, table_id: int) -> None:
        if self.state in (SEATED, SPECTATING):
            self.table = None
            self.place = None
            self._enter("table_closed")
            self.lobby.enter(self)
            self.send({"type": "left", "table": table_id, "reason": "closed"})

    # --- housekeeping --------------------------------------------------------------------

    def tick(self, now: float) -> None:
        """Timeouts and heartbeats, run by the hub's sweep."""
        if self.state == CLOSED:
            return
        lim = self.hub.limits
        if self.state == AWAITING_HELLO:
            if now - self.opened_at >= lim.handshake_timeout:
                self.fail(
                    ProtocolError(
                        "limit/handshake_timeout", f"no hello within {lim.handshake_timeout:g}s"
                    )
                )
            return
        silent = now - self.last_received
        if silent >= lim.dead_after:
            self.fail(ProtocolError("limit/heartbeat", f"nothing heard for {silent:g}s"))
            return
        # Seated people and spectators of a game in progress may be quiet as long as they like.
        watching = self.state == SPECTATING and self.table is not None and self.table.started
        idle = self.state != SEATED and not watching
        if idle and now - self.last_request >= lim.idle_timeout:
            self.fail(ProtocolError("limit/idle", f"no request for {lim.idle_timeout:g}s"))
            return
        if silent >= lim.ping_interval and now - self.last_ping >= lim.ping_interval:
            self.last_ping = now
            self.send({"type": "ping"})

    # --- handlers: handshake -------------------------------------------------------------

    def handle_hello(self, msg: dict[str, Any], request_id: Any) -> None:
        version = negotiate(msg["version"], msg.get("versions"))
        if version is None:
            listed = msg.get("versions")
            spoken = [msg["version"], *(listed if isinstance(listed, list) else ())]
            asked = sorted({v for v in spoken if type(v) is int}, reverse=True)
            self.reject(
                "session/bad_version",
                f"this server speaks protocol versions {_listed(SUPPORTED_VERSIONS)}, "
                f"not {_listed(asked[:4])}",
                request_id,
                supported=list(SUPPORTED_VERSIONS),
            )
            return
        self.version = version
        self.name = msg["name"]
        self.labels = msg.get("labels", True)
        _log.info("{who} connected", who=self._who())
        self._enter("welcomed")
        self.lobby.enter(self)
        reply: dict[str, Any] = {
            "type": "welcome",
            "version": version,
            "server": SERVER_NAME,
            "server_id": self.hub.store.server_id,
            "name": self.name,
            "games": self.lobby.games_info(),
            "limits": self._limits(),
        }
        if request_id is not None:
            reply["id"] = request_id
        self.send(reply)
        if "token" in msg:
            self.handle_resume({"token": msg["token"]}, request_id)

    def _limits(self) -> dict[str, Any]:
        """The limits this session is told (``welcome.limits``) and held to. Version 1 had no
        turn timers: a table a version-1 session creates without ``timer`` has none, as then."""
        limits = self.hub.limits.public()
        if self.version == 1:
            limits["timer"] = limits["bank"] = 0
        return limits

    # --- handlers: lobby -----------------------------------------------------------------

    def handle_list(self, msg: dict[str, Any], request_id: Any) -> None:
        tables, more = self.lobby.list_tables(
            msg.get("limit", LIST_PAGE), msg.get("after", 0), msg.get("game"), msg.get("state")
        )
        self._reply(request_id, {"type": "tables", "tables": tables, "more": more})

    def handle_create(self, msg: dict[str, Any], request_id: Any) -> None:
        limits = self._limits()
        table = self.lobby.create(
            msg["game"],
            msg["players"],
            msg.get("options"),
            msg.get("seating", "random"),
            msg.get("autostart", False),
            creator=self.address,
            timer=TimerSettings.of(
                msg.get("timer", limits["timer"]), msg.get("bank", limits["bank"])
            ),
        )
        self._reply(request_id, {"type": "created", "table": table.info()})

    def handle_join(self, msg: dict[str, Any], request_id: Any) -> None:
        table, place, token = self.lobby.join(
            msg["table"], msg.get("name", self.name), self, msg.get("slot")
        )
        self.table, self.place = table, place
        _log.info(
            "{who} joined {table}{alias} at place {place}",
            who=self._who(),
            table=table_name(table),
            alias="" if place.name == self.name else f" as {place.name}",
            place=letter(place.slot),
        )
        self.lobby.exit(self)
        self._enter("joined")
        self._reply(
            request_id,
            {"type": "joined", "table": table.info(), "slot": place.slot, "token": token},
        )
        self.lobby.maybe_autostart(table)

    def handle_spectate(self, msg: dict[str, Any], request_id: Any) -> None:
        table = self.lobby.table(msg["table"])
        table.add_spectator(self, self.hub.limits.max_spectators)
        self.table = table
        _log.info("{who} is watching {table}", who=self._who(), table=table_name(table))
        self.lobby.exit(self)
        self._enter("spectating")
        self._reply(request_id, {"type": "spectating", "table": table.info()})
        if table.started:
            self.send(table.snapshot(None))

    def handle_resume(self, msg: dict[str, Any], request_id: Any) -> None:
        table, place, token = self.lobby.resume(msg["token"], self)
        self.table, self.place = table, place
        # The token used stays good until the pong to a ping sent after `resumed` shows the
        # client has read the new one (a message sent earlier proves nothing).
        self._rotations += 1
        ping_id = f"token-{self._rotations}"
        self.rotation = (ping_id, place, place.previous_hash or "", place.token_hash)
        self._log_resumed(table, place)
        self.lobby.exit(self)
        self._enter("resumed")
        self._reply(
            request_id,
            {
                "type": "resumed",
                "table": table.info(),
                "slot": place.slot,
                "seat": place.seat,
                "token": token,
            },
        )
        if table.started:
            self.send(table.snapshot(place.seat, self))
        else:
            self.lobby.maybe_autostart(table)
        self.last_ping = self.hub.clock()
        self.send({"type": "ping", "id": ping_id})

    def _costly(self) -> None:
        """A request that reads the database: paced per address (``limits.costly_rate``)."""
        wait = self.hub.costly(self.address)
        if wait > 0.0:
            self.peer.hold(wait)

    def handle_history(self, msg: dict[str, Any], request_id: Any) -> None:
        self._costly()
        games, more = self.hub.store.history(msg.get("limit", HISTORY_PAGE), msg.get("before"))
        self._reply(request_id, {"type": "history", "games": games, "more": more})

    def handle_record(self, msg: dict[str, Any], request_id: Any) -> None:
        self._costly()
        table_id = msg["table"]
        finished = self.hub.store.finished_record(table_id)
        if finished is not None:  # encoded once: the same bytes for every asker
            record, packed = finished
            reply = {"type": "record", "table": table_id, "record": record}
            self._reply(request_id, Prepacked(reply, {"record": packed}))
            return
        state = self.hub.store.state_of(table_id)
        if state is None:
            raise ProtocolError(
                "lobby/no_such_table", f"this server has no game at table {table_id}"
            )
        if state != FINISHED:
            raise ProtocolError(
                "table/not_finished",
                f"the game at table {table_id} is not over: its record shows every hidden "
                "card, so it is given out only after the end",
            )
        raise ProtocolError("server/storage", f"the record of table {table_id} cannot be read")

    def handle_chat(self, msg: dict[str, Any], request_id: Any) -> None:
        _log.debug(
            "{who} says {length} characters {where}",
            who=self._who(),
            length=len(msg["text"]),
            where="in the lobby" if self.table is None else f"at table {self.table.id}",
        )
        if self.state == LOBBY:
            self.lobby.chat(self.name, msg["text"], self, request_id)
            return
        assert self.table is not None
        name = self.place.name if self.place is not None else self.name
        self.table.chat(name, msg["text"], self, request_id)

    def handle_ping(self, msg: dict[str, Any], request_id: Any) -> None:
        self._reply(request_id, {"type": "pong"})

    def handle_pong(self, msg: dict[str, Any], request_id: Any) -> None:
        # Receiving it was the point (last_received moved), unless it completes a rotation:
        # then, whatever this session does now (it may have left the seat), the token it
        # resumed with dies, unless a later resume has already rotated the seat again.
        rotation = self.rotation
        if rotation is not None and request_id == rotation[0]:
            self.rotation = None
            _ping, place, used, given = rotation
            if place.previous_hash == used and place.token_hash == given:
                self.lobby.confirm_token(place)

    # --- handlers: at a table ------------------------------------------------------------

    def handle_leave(self, msg: dict[str, Any], request_id: Any) -> None:
        table = self.table
        assert table is not None
        if self.state == SEATED:
            assert self.place is not None
            level = msg.get("bot")
            if level is not None and table.state == PLAYING:
                self.hub.hand_own_seat(table, self.place, level, self.address)  # or refused
            self._log_left(table, self.place)
            self.lobby.leave(table, self.place)
        else:
            _log.info("{who} stopped watching {table}", who=self._who(), table=table_name(table))
            table.remove_spectator(self)
        self.table = None
        self.place = None
        self._enter("left")
        self.lobby.enter(self)
        self._reply(request_id, {"type": "left", "table": table.id, "reason": "request"})

    def handle_start(self, msg: dict[str, Any], request_id: Any) -> None:
        assert self.table is not None
        self.lobby.start(self.table, self, request_id)

    def handle_add_bot(self, msg: dict[str, Any], request_id: Any) -> None:
        assert self.table is not None
        place = self.hub.add_bot(
            self.table, msg["level"], msg.get("slot"), msg.get("seat"), self.address
        )
        self._reply(
            request_id,
            {
                "type": "bot_added",
                "table": self.table.id,
                "slot": place.slot,
                "seat": place.seat,
                "name": place.name,
                "level": msg["level"],
            },
        )

    def handle_act(self, msg: dict[str, Any], request_id: Any) -> None:
        assert self.table is not None and self.place is not None
        self.table.act(self.place, msg["version"], msg["action"], request_id)
        # Applied: the game asked for this action, so it does not count against the rate (a
        # client may play as fast as the game goes; refused actions still count). Applied ones
        # are paced instead: past act_rate the server reads this client's next messages later.
        self.rate.refund()
        wait = self.act_pace.take(self.hub.clock())
        if wait > 0.0:
            self.peer.hold(wait)

    def handle_undo(self, msg: dict[str, Any], request_id: Any) -> None:
        assert self.table is not None and self.place is not None
        self.table.undo(self.place, msg["version"], request_id)

    def handle_back(self, msg: dict[str, Any], request_id: Any) -> None:
        assert self.table is not None and self.place is not None
        self.table.back(self.place, request_id)

    def _reply(self, request_id: Any, msg: dict[str, Any]) -> None:
        if request_id is not None:
            msg["id"] = request_id
        self.send(msg)


def _request_id(msg: dict[str, Any], version: int) -> Any:
    """The message's ``id`` if it is a valid one in ``version`` (the catalogue's rule), which
    the reply or error echoes whatever else is wrong with the message; None otherwise
    (validation then refuses the message for it)."""
    value = msg.get("id")
    return value if check_id(value, wide=version == 1) is None else None


def _listed(versions: Any) -> str:
    """``2 and 1``, ``3``."""
    words = [str(v) for v in versions]
    return " and ".join([", ".join(words[:-1]), words[-1]] if len(words) > 1 else words)


def _foreign_version(msg: dict[str, Any]) -> bool:
    """Whether ``msg`` is a ``hello`` whose ``version`` (a valid one) and ``versions`` name no
    protocol version this server speaks: it is answered ``session/bad_version`` before anything
    else of it is checked, since another version's ``hello`` may have other fields."""
    version = msg.get("version")
    if msg.get("type") != "hello" or isinstance(version, bool) or not isinstance(version, int):
        return False
    return 0 <= version <= INT_MAX and negotiate(version, msg.get("versions")) is None
