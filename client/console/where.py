"""Where the person at a console is: in the lobby, seated at a table, or watching one."""

from __future__ import annotations

from enum import StrEnum


class Where(StrEnum):
    """The console's state; it follows the session's on the server (lobby, seated, spectating)."""

    LOBBY = "lobby"
    """Not at a table: listing, creating and joining tables."""
    TABLE = "table"
    """Holding a place at a table, waiting for its start or playing."""
    WATCHING = "watching"
    """Watching a table as a spectator."""
