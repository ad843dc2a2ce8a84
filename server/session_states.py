"""A connection's states, the client messages each admits and the events that move it from one
to another (see :class:`server.session.Session`)."""

from __future__ import annotations

from enum import StrEnum


class SessionState(StrEnum):
    """Where a connection is: from its ``hello`` to its close."""

    AWAITING_HELLO = "awaiting_hello"
    LOBBY = "lobby"
    SEATED = "seated"
    SPECTATING = "spectating"
    CLOSED = "closed"


AWAITING_HELLO, LOBBY, SEATED, SPECTATING, CLOSED = SessionState
STATES = tuple(SessionState)

HEARTBEAT = frozenset({"ping", "pong"})
_FINISHED_GAMES = frozenset({"history", "record"})

ALLOWED: dict[SessionState, frozenset[str]] = {
    AWAITING_HELLO: frozenset({"hello"}),
    LOBBY: frozenset({"list", "create", "join", "spectate", "resume", "chat"})
    | HEARTBEAT
    | _FINISHED_GAMES,
    SEATED: frozenset({"list", "start", "act", "undo", "back", "chat", "leave", "add_bot"})
    | HEARTBEAT
    | _FINISHED_GAMES,
    SPECTATING: frozenset({"list", "chat", "leave"}) | HEARTBEAT | _FINISHED_GAMES,
    CLOSED: frozenset(),
}
"""Which client messages each state admits."""

TRANSITIONS: dict[tuple[SessionState, str], SessionState] = {
    (AWAITING_HELLO, "welcomed"): LOBBY,
    (LOBBY, "joined"): SEATED,
    (LOBBY, "resumed"): SEATED,
    (LOBBY, "spectating"): SPECTATING,
    (SEATED, "left"): LOBBY,
    (SPECTATING, "left"): LOBBY,
    (SEATED, "table_closed"): LOBBY,
    (SPECTATING, "table_closed"): LOBBY,
    **{(state, "closed"): CLOSED for state in STATES},
}
"""(state, event) -> next state. Any other pair is a bug and raises."""
