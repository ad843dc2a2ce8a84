"""What to tell a person when the server says no: one clear sentence per error code.

:data:`EXPLAIN` covers every code of :data:`protocol.ERROR_CODES` (a test checks it). A code this
client does not know yet is explained by its area (``lobby/...``, ``action/...``), and the
server's own message is shown next to ours when it adds something, in the console's words:
places and seats by letter (the server numbers them from 0, for programs), counts that agree.
"""

from __future__ import annotations

import re

from twisted.internet.error import ConnectError, ConnectionRefusedError, DNSLookupError

from client.net.connection import ConnectionClosed, ServerError
from client.text.wording import agree, letter

EXPLAIN: dict[str, str] = {
    "proto/frame_too_large": "The client sent a message too large for the server (a client bug).",
    "proto/bad_msgpack": "The server could not read a message from this client (a client bug).",
    "proto/bad_message": "The server refused a malformed request from this client.",
    "proto/unknown_type": "The server does not know that request: is it an older version?",
    "session/bad_version": "This server speaks another protocol version: update Cosmoport.",
    "session/wrong_state": "That cannot be done right now.",
    "session/bad_token": "That seat cannot be taken back: its token is no longer valid "
    "(the table may be gone, or the seat was resumed elsewhere).",
    "session/replaced": "Your seat was taken back from another connection (another terminal?); "
    "this one is closed.",
    "lobby/unknown_game": "There is no such game on this server.",
    "lobby/bad_players": "That number of players is not allowed for this game.",
    "lobby/bad_options": "The game refused these options.",
    "lobby/bad_name": "Names are 1 to 24 printable characters, with no space at either end.",
    "lobby/name_taken": "Someone at that table already uses this name: pick another one.",
    "lobby/no_such_table": "There is no table with that number (it may have closed). "
    "Type `list` to see the tables.",
    "lobby/no_such_seat": "That table has no such place.",
    "lobby/seat_taken": "That place is taken: try another one, or leave out the place letter.",
    "lobby/table_full": "Every place at that table is taken. You can `spectate` it.",
    "lobby/no_bots": "This server does not start bots (its host turned them off).",
    "lobby/not_waiting": "That table has already started (or finished): you can only `spectate` "
    "it.",
    "table/not_ready": "Not every place is taken yet: wait for the other players.",
    "table/already_started": "The game at this table has already started.",
    "table/not_started": "The game has not started yet.",
    "table/finished": "The game is over.",
    "table/not_finished": "That game is not over yet: its record is given out after the end.",
    "table/seat_connected": "That player is connected: a bot can only take the seat of someone "
    "who is away.",
    "table/too_soon": "That player has not been away long enough for a bot to take their seat: "
    "give them a moment to come back.",
    "action/not_your_turn": "It is not your turn.",
    "action/stale": "Too late: the game moved on before your action arrived. Here is the "
    "current position.",
    "action/illegal": "That action is not allowed now.",
    "action/no_undo": "Nothing to take back: something random or hidden came to light, or "
    "another player decided, since your last action.",
    "limit/connections": "Too many connections from your address to this server.",
    "limit/server_full": "The server is full: try again later.",
    "limit/tables": "No more tables for you now (the server's, or your address's share, is "
    "full): join one, or try later.",
    "limit/spectators": "That table has as many spectators as it allows.",
    "limit/bots": "The server already runs as many bots as it allows (you, or everyone): try "
    "again later.",
    "limit/rate": "This client sent too many messages too fast and was disconnected.",
    "limit/handshake_timeout": "The handshake took too long; the server gave up.",
    "limit/idle": "Disconnected after a long time without activity.",
    "limit/heartbeat": "The server heard nothing from this client for too long.",
    "server/internal": "The server failed on that request (a server bug); nothing changed.",
    "server/shutting_down": "The server is shutting down.",
    "server/storage": "The server could not save that (a problem with its disk); nothing "
    "changed: try again in a moment.",
    "server/storage_full": "The server's disk is full: that was not saved and nothing changed. "
    "Tell whoever runs the server.",
}

_AREAS = {
    "proto": "The server could not understand this client.",
    "session": "The server refused that in this session.",
    "lobby": "The lobby refused that.",
    "table": "The table refused that.",
    "action": "That move was refused.",
    "limit": "A server limit was reached.",
    "server": "The server had a problem.",
}

# Server messages that add nothing to our sentence (or are meant for programmers).
_QUIET = frozenset(
    {
        "proto/bad_msgpack",
        "action/stale",
        "action/not_your_turn",
        "lobby/table_full",
        "table/not_ready",
    }
)
_FOR_PROGRAMS = re.compile(r"is not a legal action now$")
_NUMBERED_RANGE = re.compile(r"\b(places|seats) (\d+) to (\d+)\b")
_NUMBERED = re.compile(r"\b(place|seat) (\d+)\b")


def in_our_words(message: str) -> str:
    """A server message with its place and seat numbers as the letters the console shows
    ("place 0" -> "place A") and its counts agreeing ("1 open tables" -> "1 open table")."""
    text = _NUMBERED_RANGE.sub(
        lambda m: f"{m[1]} {letter(int(m[2]))} to {letter(int(m[3]))}", message
    )
    text = _NUMBERED.sub(lambda m: f"{m[1]} {letter(int(m[2]))}", text)
    return agree(text)


def explain(code: str, message: str = "") -> str:
    """A sentence for a person about error ``code`` (with the server's ``message``)."""
    text = EXPLAIN.get(code) or _AREAS.get(code.split("/")[0], "The server refused that.")
    quiet = code in _QUIET or _FOR_PROGRAMS.search(message)
    if message and not quiet and message.lower() not in text.lower():
        text += f" ({in_our_words(message)})"
    return text


def describe(error: BaseException) -> str:
    """A sentence for any failure of a request: server refusals and network trouble alike."""
    if isinstance(error, ServerError):
        return explain(error.code, error.message)
    if isinstance(error, ConnectionClosed):
        return "Not connected to the server right now."
    if isinstance(error, ConnectionRefusedError):
        return "Nobody answers at that address: is the server running, and is the port right?"
    if isinstance(error, DNSLookupError):
        return "That host name is unknown."
    if isinstance(error, ConnectError):
        return f"Cannot reach the server: {error}"
    if isinstance(error, OSError):
        return f"Cannot reach the server: {error.strerror or error}"
    return f"Something went wrong: {error}"
