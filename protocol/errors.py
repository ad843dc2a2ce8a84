"""Every error code of the protocol, and the one exception that carries them.

A code is stable and namespaced (``area/what``); clients branch on it. The ``message`` next to it
is for humans and may change. :data:`ERROR_CODES` is the catalogue (PROTOCOL.md's table is
checked against it); :data:`DISCONNECTING` lists the codes after which the server closes the
connection.
"""

from __future__ import annotations

ERROR_CODES: dict[str, str] = {
    # Framing and decoding.
    "proto/frame_too_large": "The length header announced more than the frame cap; the server "
    "disconnects.",
    "proto/bad_msgpack": "The frame is not exactly one msgpack value of the allowed kinds "
    "(invalid bytes, trailing bytes, ext or binary types, non-string map keys, invalid UTF-8, "
    "nesting too deep, a container too wide, too many values: section 2).",
    "proto/bad_message": "Valid msgpack but not a valid message: not a map, `type` missing, a "
    "field missing, unknown, of the wrong type (a float for an integer) or outside its row of "
    "the field table (a bad `name` aside: section 4.2).",
    "proto/unknown_type": "`type` names no client message of this protocol version.",
    # The session.
    "session/bad_version": "`hello.version` and `hello.versions` name no protocol version this "
    "server speaks (a `reject`; `supported` lists those it does): the version refusal.",
    "session/wrong_state": "The message is not allowed in the session's current state (for "
    "example `act` from the lobby, `join` while seated, anything but `hello` before `hello`).",
    "session/bad_token": "The seat token is unknown: never issued, already rotated, or its "
    "table is gone.",
    "session/replaced": "The seat was resumed from another connection; this connection is closed.",
    # The lobby.
    "lobby/unknown_game": "No game of that name; `welcome.games` lists them.",
    "lobby/bad_players": "The player count is within the field table's 1 to 16 but outside the "
    "game's own range (`welcome.games`; outside 1 to 16: `proto/bad_message`, section 4.2).",
    "lobby/bad_options": "The game refused the options (unknown option or invalid value).",
    "lobby/bad_name": "A name (`hello.name`, `join.name`) must be 1-24 printable characters "
    "without leading or trailing spaces; any bad value of a name gets this code (section 4.2).",
    "lobby/name_taken": "Someone at that table already uses this name.",
    "lobby/no_such_table": "No table has that id (it may have been closed).",
    "lobby/no_such_seat": "The place (`slot`), or for `add_bot` during a game the `seat`, is "
    "outside the table.",
    "lobby/seat_taken": "That place is already held.",
    "lobby/table_full": "Every place at the table is held.",
    "lobby/not_waiting": "The table has started or finished; places can only be taken while "
    "it waits (during a game `add_bot` needs the `seat` of a player who is away).",
    "lobby/no_bots": "This server does not start bots (it was started with `--max-bots 0`).",
    # A table.
    "table/not_ready": "`start` needs every place to be held.",
    "table/already_started": "The table has already started.",
    "table/not_started": "The game has not started yet.",
    "table/finished": "The game is over.",
    "table/not_finished": "`record`: the game is not over (a record shows every hidden card).",
    "table/seat_connected": "`add_bot` during a game: that seat's player is connected.",
    "table/too_soon": "`add_bot` during a game: that seat's player has been away for less than "
    "`limits.bot_takeover_after` seconds.",
    # Game actions.
    "action/not_your_turn": "Another seat must decide now.",
    "action/stale": "The `version` of `act` or `undo` is not the table's current version.",
    "action/illegal": "The action is not one of the legal actions at this version.",
    "action/no_undo": "`undo`: nothing to take back (not your turn, no action of yours this "
    "turn, or a roll, draw, reveal or another seat's decision since).",
    # Limits.
    "limit/connections": "Too many connections from this address (a `reject`).",
    "limit/server_full": "The server holds its maximum number of connections (a `reject`).",
    "limit/tables": "The server holds its maximum number of tables, or your address holds its "
    "maximum number of open tables it created, or as many as are still free (its fair share).",
    "limit/bots": "The server already runs its maximum number of bots, or as many as your "
    "address may have running (its share).",
    "limit/spectators": "The table holds its maximum number of spectators.",
    "limit/rate": "More messages per second than allowed; the server disconnects.",
    "limit/handshake_timeout": "No `hello` in time (a `reject`); the server disconnects.",
    "limit/idle": "No request for too long while neither seated nor watching a game; the "
    "server disconnects.",
    "limit/heartbeat": "Nothing received for too long, not even a `pong`; the server disconnects.",
    # The server itself.
    "server/internal": "A bug on the server's side; the request changed nothing the server "
    "knows of.",
    "server/storage": "The server could not save the request to its database; nothing "
    "changed, try again later.",
    "server/storage_full": "The server's disk is full: the request (an action, a new table or "
    "seat) was not saved and changed nothing.",
    "server/shutting_down": "The server is stopping (a `reject` or an `error`, then disconnect).",
}

DISCONNECTING: frozenset[str] = frozenset(
    {
        "proto/frame_too_large",
        "session/replaced",
        "limit/rate",
        "limit/handshake_timeout",
        "limit/idle",
        "limit/heartbeat",
        "server/shutting_down",
    }
)
"""Codes after which the server closes the connection (all other errors leave it open)."""

REJECT_CODES: frozenset[str] = frozenset(
    {
        "session/bad_version",
        "limit/connections",
        "limit/server_full",
        "limit/handshake_timeout",
        "server/shutting_down",
    }
)
"""Codes that come in a ``reject`` (before or instead of ``welcome``), always followed by a
disconnect."""


class ProtocolError(Exception):
    """A request the server refuses: a stable ``code`` from :data:`ERROR_CODES` and a ``message``.

    Raised by decoding and validation in this package and by the server's lobby and tables; the
    server turns it into an ``error`` (or ``reject``) message.
    """

    def __init__(self, code: str, message: str) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(code, message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    @property
    def disconnects(self) -> bool:
        """True if the server closes the connection after sending this error."""
        return self.code in DISCONNECTING
