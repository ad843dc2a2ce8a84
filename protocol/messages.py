"""The message catalogue: every message type, who sends it, its fields and their kinds.

One table (:data:`CATALOGUE`) drives validation of every message a client sends
(:func:`validate`), a conformance check of what a server sends (:func:`check_server_message`,
used by the tests) and PROTOCOL.md's tables. Every message is a map with a ``type``; any request
may carry an ``id`` (an integer or a short string) that the reply echoes.

Strict in, tolerant out: the server refuses unknown fields in what it receives; clients must
ignore fields they do not know in what they receive, so that a server can add fields without a
new protocol version.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from protocol.errors import ProtocolError
from protocol.fields import KINDS, Field, check_id
from protocol.timer import BANK_MAX, TIMER_MAX

PROTOCOL_VERSION = 2
"""The newest protocol version this package speaks (``hello.version``, ``welcome.version``)."""
SUPPORTED_VERSIONS = (2, 1)
"""Every protocol version this package speaks, newest first (``reject.supported``). Version 1
differs from version 2 only where version 2 narrowed what a client may send (PROTOCOL.md 3.2):
integer ids of 64 bits, frames nested 8 deep."""

Sender = Literal["client", "server", "both"]


@dataclass(frozen=True, slots=True)
class Message:
    """One message type. ``reply`` lists what the server answers a request with."""

    type: str
    sender: Sender
    doc: str
    fields: tuple[Field, ...] = ()
    reply: tuple[str, ...] = ()

    @property
    def field_names(self) -> frozenset[str]:
        return frozenset(f.name for f in self.fields)


# --- the catalogue ---------------------------------------------------------------------------

_ID = Field("id", "id", "Request id, echoed by the reply.", required=False)
_TABLE_ID = Field("table", "int", "The table's id.", low=1)
_TABLE = Field("table", "table", "The table, as in `tables`.")

BOT_LEVELS = ("easy", "normal", "hard", "greedy", "random")
"""Bots a server can start: MCTS at three levels, and the greedy and random baselines."""

HISTORY_MAX = 50
LIST_PAGE = 50
"""Tables in a `tables` reply whose `list` does not say how many."""
LIST_MAX = 100
"""The most finished games one `history` reply lists."""

BOT_TOKEN_VARIABLE = "COSMOPORT_SEAT_TOKEN"
"""Not on the wire: the environment variable in which a server hands a bot program it started
(``add_bot``) the token of the place it keeps for it; the program ``resume``s with it."""
_VERSION = Field(
    "version",
    "int",
    "The table's state version: 0 at the start, +1 per action and per `undo`; it only grows, "
    "across server restarts too.",
    low=0,
)


def _game_fields(doc_events: str) -> tuple[Field, ...]:
    return (
        _TABLE_ID,
        _VERSION,
        Field("seat", "int|nil", "Your engine seat; nil for a spectator."),
        Field("view", "view", "Everything you may know of the game now (see Game views)."),
        Field("events", "events", doc_events),
        Field(
            "legal",
            "legal",
            "If you must decide now: every legal action with its label, in the game's "
            "canonical order. Otherwise empty.",
        ),
        Field(
            "undo",
            "str|nil",
            "If you may `undo` now: the label of the action it takes back (your last action "
            "of this turn); nil otherwise. This server always sends it.",
            required=False,
        ),
        Field(
            "clock",
            "clock",
            "The table's turn timer as of this message (see Turn timers); nil at a table "
            "without one. This server always sends it.",
            required=False,
        ),
    )


CATALOGUE: tuple[Message, ...] = (
    # --- handshake ---
    Message(
        "hello",
        "client",
        "First message on a connection. With `token`, the seat it names is resumed right "
        "after `welcome` (as by `resume`): a second reply with the same `id`, `resumed` or an "
        "`error` (the session then stays in the lobby).",
        (
            _ID,
            Field(
                "version",
                "int",
                "Protocol version the client speaks (the newest, if it lists `versions`).",
                low=0,
            ),
            Field(
                "versions",
                "versions",
                "Every protocol version the client speaks, `version` included (the server "
                "reads `version` and these as one list). The server answers in the newest it "
                "speaks too (`welcome.version`), or with `reject` `session/bad_version` if "
                "there is none.",
                required=False,
            ),
            Field(
                "name", "name", "How the person is shown to others (a bad one: `lobby/bad_name`)."
            ),
            Field("client", "str", "Free text naming the client program.", False, high=64),
            Field("token", "token", "A seat token to resume.", required=False),
            Field(
                "labels",
                "bool",
                "`false`: the legal actions in `update` and `snapshot` come without their "
                "labels (maps `{action}`), for a program that never shows them (default `true`).",
                required=False,
            ),
        ),
        reply=("welcome", "reject"),
    ),
    Message(
        "welcome",
        "server",
        "The handshake succeeded; the session is in the lobby.",
        (
            _ID,
            Field(
                "version",
                "int",
                "The protocol version of this session: the newest one both the server and the "
                "client speak (`hello.version` and `hello.versions`).",
            ),
            Field("server", "str", "Server software and version, free text."),
            Field(
                "server_id",
                "str",
                "Which server this is, whatever address reached it: the same across its "
                "restarts (kept in its database). Key what you keep per server (seat tokens) by "
                "it, not by the address you typed. Absent from servers before it.",
                required=False,
                high=64,
            ),
            Field("name", "name", "Your name as accepted."),
            Field("games", "list", "Maps `{name, title, min_players, max_players}`."),
            Field("limits", "map", "This server's limits (see Limits)."),
        ),
    ),
    Message(
        "reject",
        "server",
        "The connection is refused; the server closes it after this message.",
        (
            _ID,
            Field("code", "str", "An error code (see Error codes)."),
            Field("message", "str", "Human-readable reason."),
            Field("supported", "list", "Protocol versions the server speaks.", required=False),
        ),
    ),
    # --- lobby ---
    Message(
        "list",
        "client",
        "Ask for the tables of the server, oldest first, a page at a time.",
        (
            _ID,
            Field("game", "str", "Only tables of this game.", False, high=32),
            Field(
                "state",
                "choice",
                "Only tables in this state.",
                False,
                choices=("waiting", "playing", "finished"),
            ),
            Field(
                "limit",
                "int",
                f"How many tables at most (default {LIST_PAGE}).",
                False,
                low=1,
                high=LIST_MAX,
            ),
            Field(
                "after",
                "int",
                "Only tables with a greater id (for the next page, the last `id` shown).",
                False,
                low=0,
            ),
        ),
        reply=("tables",),
    ),
    Message(
        "tables",
        "server",
        "A page of the tables `list` asked for, oldest first.",
        (
            _ID,
            Field("tables", "list", "Table maps."),
            Field("more", "bool", "Whether more tables follow (ask again with `after`)."),
        ),
    ),
    Message(
        "table_update",
        "server",
        "Pushed to every session in the lobby whenever a table is created, changes (seats, "
        "state) or is closed (`state: closed`).",
        (_TABLE,),
    ),
    Message(
        "create",
        "client",
        "Open a new table. The creator is not seated: `join` it.",
        (
            _ID,
            Field("game", "str", "A game name from `welcome.games`.", high=32),
            Field(
                "players",
                "int",
                "Number of seats: outside 1 to 16 `proto/bad_message`, outside the game's own "
                "range (`welcome.games`) `lobby/bad_players` (section 4.2).",
                low=1,
                high=16,
            ),
            Field("options", "options", "The game's variant options.", required=False),
            Field(
                "seating",
                "choice",
                "`random` (default): people are dealt into seats at random at the start. "
                "`fixed`: the place taken is the engine seat (seat 0 starts).",
                required=False,
                choices=("random", "fixed"),
            ),
            Field(
                "autostart",
                "bool",
                "Start as soon as every seat is held (default false).",
                required=False,
            ),
            Field(
                "timer",
                "int",
                "Turn timer: seconds per decision; 0 for none. Default: `welcome.limits.timer`.",
                required=False,
                low=0,
                high=TIMER_MAX,
            ),
            Field(
                "bank",
                "int",
                "Each seat's bank of spare seconds for the whole game. Default: "
                "`welcome.limits.bank`.",
                required=False,
                low=0,
                high=BANK_MAX,
            ),
        ),
        reply=("created",),
    ),
    Message("created", "server", "The table is open.", (_ID, _TABLE)),
    Message(
        "join",
        "client",
        "Take a place at a waiting table.",
        (
            _ID,
            _TABLE_ID,
            Field("slot", "int", "Which place (default: the first free one).", False, low=0),
            Field(
                "name",
                "name",
                "Name at this table (default: the hello name; a bad one: `lobby/bad_name`).",
                False,
            ),
        ),
        reply=("joined",),
    ),
    Message(
        "joined",
        "server",
        "You hold a place. Keep the token secret: it resumes the seat from any connection.",
        (
            _ID,
            _TABLE,
            Field("slot", "int", "Your place at the table."),
            Field("token", "token", "Secret seat token."),
        ),
    ),
    Message(
        "spectate",
        "client",
        "Watch a table. A table already playing sends a `snapshot` right after.",
        (_ID, _TABLE_ID),
        reply=("spectating",),
    ),
    Message("spectating", "server", "You watch the table.", (_ID, _TABLE)),
    Message(
        "resume",
        "client",
        "Take back a held seat with its token. The token is rotated: the reply carries the "
        "new one; a table that has started sends a `snapshot` next (one your return starts, "
        "`started` and `snapshot`: section 6.6), then comes a `ping` with an `id`. "
        "The old token dies when your `pong` echoes that `id`; until then it still works, so a "
        "reply lost with a dropped connection loses nothing.",
        (_ID, Field("token", "token", "The seat token.")),
        reply=("resumed",),
    ),
    Message(
        "resumed",
        "server",
        "You hold the seat again.",
        (
            _ID,
            _TABLE,
            Field("slot", "int", "Your place at the table."),
            Field("seat", "int|nil", "Your engine seat (nil before the start)."),
            Field(
                "token",
                "token",
                "The new seat token; the old one dies with your `pong` to the next `ping`.",
            ),
        ),
    ),
    Message(
        "leave",
        "client",
        "Back to the lobby. At a waiting table the place is freed and the token dies; during "
        "a game the seat stays held for its token; after the end it is simply left.",
        (
            _ID,
            Field(
                "bot",
                "choice",
                "During the game: hand your seat to a bot of this level as you go (as "
                "`add_bot` does for an absent player's seat, without the wait); your token "
                "dies; refused as `add_bot` would be, and then you stay. Ignored before the "
                "start and after the end.",
                False,
                choices=BOT_LEVELS,
            ),
        ),
        reply=("left",),
    ),
    Message(
        "left",
        "server",
        "You are back in the lobby.",
        (
            _ID,
            _TABLE_ID,
            Field(
                "reason",
                "choice",
                "`request`: you asked; `closed`: the table was closed.",
                choices=("request", "closed"),
            ),
        ),
    ),
    # --- a table ---
    Message(
        "start",
        "client",
        "Start the game; any seated person may, once every place is held.",
        (_ID,),
        reply=("started",),
    ),
    Message(
        "started",
        "server",
        "Sent to everyone at the table when the game starts; a `snapshot` follows.",
        (
            _ID,
            _TABLE,
            Field("seat", "int|nil", "Your engine seat (nil for a spectator)."),
            Field("seats", "list", "Names by engine seat; seat 0 starts."),
        ),
    ),
    Message(
        "add_bot",
        "client",
        "Fill a free place of your waiting table with a bot, or, during the game, give a bot the "
        "`seat` of a player who has been away for `limits.bot_takeover_after` seconds (that "
        "player's token dies; the others can finish the game). The server holds the place for "
        "the bot and starts it as a separate program that takes the place over the network "
        "like anyone else; it plays to the end and leaves.",
        (
            _ID,
            Field(
                "level",
                "choice",
                "`easy`, `normal` or `hard` (search bots, from quick to about a second per "
                "decision), or the `greedy` and `random` baselines.",
                choices=BOT_LEVELS,
            ),
            Field(
                "slot",
                "int",
                "While the table waits: which free place (default: the first free one).",
                False,
                low=0,
            ),
            Field(
                "seat",
                "int",
                "During the game, required: the engine seat of the player who is away.",
                False,
                low=0,
            ),
        ),
        reply=("bot_added",),
    ),
    Message(
        "bot_added",
        "server",
        "The place named here is held for a bot, whose program is starting; it takes the place "
        "a moment later.",
        (
            _ID,
            _TABLE_ID,
            Field("slot", "int", "The place the bot takes (as taken while the table waited)."),
            Field("seat", "int|nil", "The engine seat it takes over (nil before the start)."),
            Field("name", "name", "The bot's name at the table (a taken-over seat keeps its own)."),
            Field("level", "choice", "Its level, as asked.", choices=BOT_LEVELS),
        ),
    ),
    Message(
        "snapshot",
        "server",
        "The full game as you may see it: after `started`, `resumed` and `spectating`.",
        _game_fields("The most recent public events (at most 32), oldest first."),
    ),
    Message(
        "act",
        "client",
        "Play one of the legal actions, named exactly as listed, against the current version.",
        (
            _ID,
            _VERSION,
            Field("action", "action", "One `legal[i].action`, as listed."),
        ),
        reply=("update",),
    ),
    Message(
        "undo",
        "client",
        "Take back your last action of this turn, against the current version. Allowed while "
        "the `update` or `snapshot` you last got has a non-nil `undo`: nothing random or hidden "
        "came to light and no other seat decided since that action. Everyone gets an `update` "
        "with an `undone` event.",
        (_ID, _VERSION),
        reply=("update",),
    ),
    Message(
        "back",
        "client",
        "You are at the keyboard again: a seat the stand-in bot plays since it timed out three "
        "times in a row is yours again (so is it after any `act` or `undo` of yours). "
        "Answered with a `seat_status` (`auto` false), also when the seat was not handed over.",
        (_ID,),
        reply=("seat_status",),
    ),
    Message(
        "update",
        "server",
        "Sent to everyone at the table after each action and each `undo`; the actor's copy "
        "echoes the `id`.",
        (*_game_fields("The public events of this action, in order."), _ID),
    ),
    Message(
        "game_over",
        "server",
        "Sent to everyone at the table when the game ends, right after the last `update`.",
        (
            _TABLE_ID,
            _VERSION,
            Field("scores", "list", "Final VP by engine seat."),
            Field("ranking", "list", "Seats grouped best first, e.g. `[[2], [0, 1]]`."),
            Field("seats", "list", "Names by engine seat."),
        ),
    ),
    Message(
        "seat_status",
        "server",
        "Someone at your table lost or regained their connection, a bot took the place, or "
        "the stand-in bot took or gave back a seat (`auto`). The reply to `back` echoes its "
        "`id`.",
        (
            _TABLE_ID,
            Field("slot", "int", "Their place."),
            Field("seat", "int|nil", "Their engine seat (nil before the start)."),
            Field("name", "name", "Their name."),
            Field("connected", "bool", "Whether a connection holds the seat now."),
            Field("bot", "bool", "Whether the place is held for a bot the server started."),
            Field(
                "left",
                "bool",
                "With `connected: false`: true if they went back to the lobby on purpose "
                "(`leave`), false if their connection was lost. This server always sends it.",
                required=False,
            ),
            Field(
                "auto",
                "bool",
                "Whether the stand-in bot plays the seat, handed over after three timeouts in "
                "a row (see Turn timers). This server always sends it.",
                required=False,
            ),
            _ID,
        ),
    ),
    # --- finished games ---
    Message(
        "history",
        "both",
        "Client to server: ask for the most recently finished games of this server (newest "
        "first), a page at a time. Server to client: the page.",
        (
            _ID,
            Field(
                "limit",
                "int",
                "Client only: how many games at most (default 20).",
                False,
                low=1,
                high=HISTORY_MAX,
            ),
            Field(
                "before",
                "int",
                "Client only: only games of tables with a smaller id (for the next page, the "
                "last `table` shown).",
                False,
                low=1,
            ),
            Field(
                "games",
                "list",
                "Server only: maps `{table, game, players, seats, bots, scores, ranking, "
                "finished}`: `seats` the names by engine seat, `bots` the level of each seat's "
                "bot at the start (nil: a person), `scores` and `ranking` as in `game_over`, "
                "`finished` an ISO 8601 UTC time.",
                False,
            ),
            Field("more", "bool", "Server only: whether older games follow.", False),
        ),
        reply=("history",),
    ),
    Message(
        "record",
        "both",
        "Client to server: ask for the record of a finished game (every action from the seed: "
        "it shows every hidden card, so only once the game is over). Server to client: the "
        "record.",
        (
            _ID,
            _TABLE_ID,
            Field(
                "record",
                "map",
                "Server only: the game record (format in docs/records.md).",
                False,
            ),
        ),
        reply=("record",),
    ),
    # --- chat and heartbeats ---
    Message(
        "chat",
        "both",
        "Client to server: say something (to the lobby from the lobby, to the table from a "
        "table). Server to clients: what someone said; the sender's copy echoes the `id`.",
        (
            _ID,
            Field("text", "text", "The line."),
            Field("from", "name", "Server only: who said it.", required=False),
            Field(
                "scope",
                "choice",
                "Server only: `lobby` or `table`.",
                required=False,
                choices=("lobby", "table"),
            ),
            Field("table", "int", "Server only, table chat: the table id.", False, low=1),
        ),
        reply=("chat",),
    ),
    Message(
        "ping",
        "both",
        "Are you there? The receiver answers `pong` with the same `id`.",
        (_ID,),
        reply=("pong",),
    ),
    Message("pong", "both", "Answer to `ping`.", (_ID,)),
    Message(
        "error",
        "server",
        "A request was refused and changed nothing; the connection stays open unless the code "
        "says otherwise.",
        (
            _ID,
            Field("code", "str", "Stable error code (see Error codes)."),
            Field("message", "str", "Human-readable explanation."),
            Field(
                "request",
                "str",
                "The `type` of the refused message as sent, if it was a string (section 4.1).",
                False,
            ),
        ),
    ),
)

BY_TYPE: dict[str, Message] = {m.type: m for m in CATALOGUE}
CLIENT_TYPES = frozenset(m.type for m in CATALOGUE if m.sender in ("client", "both"))
SERVER_TYPES = frozenset(m.type for m in CATALOGUE if m.sender in ("server", "both"))

# Fields of a "both" message that only the server fills in.
_SERVER_ONLY_FIELDS = {
    "chat": frozenset({"from", "scope", "table"}),
    "history": frozenset({"games", "more"}),
    "record": frozenset({"record"}),
}


# Fields of a "both" message that the server's copy always has.
_SERVER_NEEDS = {
    "chat": frozenset({"from", "scope"}),
    "history": frozenset({"games", "more"}),
    "record": frozenset({"record"}),
}


def negotiate(version: Any, versions: Any = None) -> int | None:
    """The protocol version a session runs in: the newest of ``version`` and ``versions`` (a
    hello's) that this package speaks too; None if there is none. Entries that are not versions
    (not integers) are passed over here; validation refuses them."""
    spoken = [version, *versions] if isinstance(versions, list) else [version]
    common = [v for v in spoken if type(v) is int and v in SUPPORTED_VERSIONS]
    return max(common) if common else None


def validate(msg: dict[str, Any], version: int = PROTOCOL_VERSION) -> Message:
    """Check a message from a client of a session in ``version``; return its catalogue entry or
    raise ``ProtocolError``."""
    if "type" not in msg:
        raise ProtocolError("proto/bad_message", "a message needs a `type` field")
    kind = msg["type"]
    if not isinstance(kind, str):
        raise ProtocolError("proto/bad_message", "`type` must be a string")
    if kind not in CLIENT_TYPES:
        raise ProtocolError("proto/unknown_type", f"no client message is called {kind[:40]!r}")
    spec = BY_TYPE[kind]
    server_only = _SERVER_ONLY_FIELDS.get(kind, frozenset())
    _check_fields(spec, msg, server_only, wide_ids=version == 1)
    return spec


def check_server_message(msg: dict[str, Any], version: int | None = None) -> Message:
    """Check a message a server sent against the catalogue (for tests and strict clients), in a
    session of ``version`` (None: any version, so an echoed ``id`` may be as wide as version 1
    allows)."""
    kind = msg.get("type")
    if not isinstance(kind, str) or kind not in SERVER_TYPES:
        raise ProtocolError("proto/unknown_type", f"no server message is called {kind!r}")
    spec = BY_TYPE[kind]
    _check_fields(spec, msg, frozenset(), wide_ids=version in (None, 1))
    needs = _SERVER_NEEDS.get(kind, frozenset())
    if not needs <= msg.keys():
        raise ProtocolError(
            "proto/bad_message", f"a server `{kind}` carries {', '.join(sorted(needs))}"
        )
    return spec


def _check_fields(
    spec: Message, msg: dict[str, Any], excluded: frozenset[str], wide_ids: bool = False
) -> None:
    names = spec.field_names - excluded
    for key in msg:
        if key != "type" and key not in names:
            raise ProtocolError(
                "proto/bad_message", f"`{spec.type}` has no field {str(key)[:40]!r}"
            )
    for field in spec.fields:
        if field.name in excluded:
            continue
        if field.name not in msg:
            if field.required:
                raise ProtocolError(
                    "proto/bad_message", f"`{spec.type}` needs the field `{field.name}`"
                )
            continue
        if field.kind == "id":
            complaint = check_id(msg[field.name], wide=wide_ids)
        else:
            complaint = KINDS[field.kind][1](field, msg[field.name])
        if complaint is not None:
            code = "lobby/bad_name" if field.kind == "name" else "proto/bad_message"
            raise ProtocolError(code, f"`{spec.type}.{field.name}` {complaint}")
