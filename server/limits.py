"""Every limit the server enforces, in one frozen dataclass, and the per-connection rate meter.

Tests build their own :class:`Limits` (``Limits(rate=2, ...)``); the defaults fit a LAN party.
PROTOCOL.md documents the defaults and ``welcome.limits`` tells each client the values in force.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from protocol import MAX_FRAME


@dataclass(frozen=True, slots=True)
class Limits:
    """The server's limits. Times are in seconds of the injected clock."""

    max_frame: int = MAX_FRAME
    """Largest inbound frame body; a bigger length header disconnects."""
    rate: float = 20.0
    """Messages per second a connection may send on average..."""
    burst: int = 40
    """...and in one burst; a message beyond that disconnects (``limit/rate``). An ``act`` the
    server applies does not count: actions are paced by ``act_rate`` instead."""
    act_rate: float = 100.0
    """Applied actions per second a connection may make on average..."""
    act_burst: int = 50
    """...and in one burst; beyond that the server reads nothing more from the connection
    until it is back under the rate (slowed down, never cut off)."""
    costly_rate: float = 10.0
    """``history`` and ``record`` requests per second one IP address may make on average, all
    its connections together (each reads the database, and a record not asked for lately is
    built and encoded, a millisecond or more for a long game)..."""
    costly_burst: int = 30
    """...and at once; beyond that the server reads nothing more from the connection that
    asked until the address is back under the rate (slowed down, never cut off)."""
    connections_per_address: int = 16
    """Open connections from one IP address; one more is rejected."""
    max_connections: int = 2000
    """Open connections in all."""
    max_tables: int = 500
    """Tables open at once (waiting, playing or finished)."""
    tables_per_address: int = 20
    """Open tables that one IP address has created; one more is ``limit/tables``. An address
    may also open a table only while it holds fewer than are still free, so that no address
    holds more than it leaves to everyone else (the last tables go to addresses holding few)."""
    max_bots: int = 8
    """Bot processes the server runs at once (``add_bot``); 0: the server starts no bots."""
    bots_per_address: int = 4
    """Bot processes running at once that one IP address asked for (the address of the
    session that sent ``add_bot``), so that one address cannot take every bot; one more is
    ``limit/bots``. ``cosmoport serve`` makes it half of ``max_bots`` (at least 1)."""
    bot_takeover_after: float = 60.0
    """During a game, a seat whose player has been away this long may be given to a bot
    (``add_bot`` with its ``seat``), so that the others can finish the game."""
    max_spectators: int = 32
    """Spectators per table."""
    handshake_timeout: float = 10.0
    """Seconds from connecting to ``hello``."""
    ping_interval: float = 15.0
    """The server pings a connection it has heard nothing from for this long."""
    dead_after: float = 45.0
    """A connection silent this long (no ``pong`` either) is dead and dropped; a seat is held."""
    idle_timeout: float = 1800.0
    """A session that is neither seated nor watching a started game and sends no request (pings
    aside) this long is dropped."""
    vacant_table_ttl: float = 30.0
    """A waiting table at which no person holds a place (nobody sat down, or everyone left;
    bots do not count) is closed after this long."""
    empty_table_ttl: float = 300.0
    """A waiting table at which no person is connected (places held by people who are away)
    is closed after this long."""
    abandoned_table_ttl: float = 3600.0
    """A started table with no seat connected is closed after this long; one with no person
    connected for ``empty_table_ttl`` counts against nobody's share of tables, and is closed
    sooner if a new table needs its room (see :meth:`server.lobby.Lobby.create`)."""
    finished_table_ttl: float = 600.0
    """A finished table is closed this long after the end (or once nobody is there)."""
    send_backlog: int = 4 * 1024 * 1024
    """Bytes the server queues for a client that does not read; beyond that it is dropped."""
    send_budget: int = 256 * 1024 * 1024
    """Bytes the server queues for all slow readers together; beyond that the ones with the
    most queued are dropped first, until the total is back under it."""
    timer: int = 90
    """Seconds per decision at a table whose ``create`` sets no ``timer`` (0: no timer).
    ``cosmoport serve`` keeps 90, ``cosmoport play`` has none (see :mod:`server.timers`)."""
    bank: int = 300
    """Each seat's bank of spare seconds for the whole game at such a table."""
    tick: float = 1.0
    """Period of the housekeeping sweep (timeouts, heartbeats, turn timers, table expiry): each
    session and table is looked at once per period, a tenth of them every tenth of it."""

    def public(self) -> dict[str, Any]:
        """The limits as sent in ``welcome.limits``."""
        fields = asdict(self)
        del fields["tick"]
        return fields


class RateMeter:
    """A token bucket: ``burst`` messages at once, refilled at ``rate`` per second."""

    __slots__ = ("_burst", "_last", "_rate", "_tokens")

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self._rate = rate
        self._burst = float(burst)
        self._tokens = float(burst)
        self._last = now

    def admit(self, now: float) -> bool:
        """Take one token if there is one; False means the sender is over its rate."""
        elapsed = max(0.0, now - self._last)  # a clock stepping back refills nothing
        self._last = now
        tokens = min(self._burst, self._tokens + elapsed * self._rate)
        if tokens < 1.0:
            self._tokens = tokens
            return False
        self._tokens = tokens - 1.0
        return True

    def refund(self) -> None:
        """Give back the token of the message just admitted (it does not count)."""
        self._tokens = min(self._burst, self._tokens + 1.0)

    def take(self, now: float) -> float:
        """Take one token even if there is none; the seconds until the meter is out of debt.

        For pacing instead of refusing: the caller waits that long before the next one.
        """
        elapsed = max(0.0, now - self._last)
        self._last = now
        self._tokens = min(self._burst, self._tokens + elapsed * self._rate) - 1.0
        return 0.0 if self._tokens >= 0.0 else -self._tokens / self._rate
