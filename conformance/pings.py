"""The referee's heartbeat: pings with ids on a short interval, and which of them were answered.

Every connection that has been welcomed gets a ``ping`` every :data:`INTERVAL` seconds, its ids
alternating between strings (``"kit-1"``) and integers (``2``), so a client that echoes one kind
wrongly shows it. A ping counts as missed when no ``pong`` with the same id (same value, same
type) came within the limit, or when the connection ended with it unanswered although the
client had answered messages sent after it (:meth:`conformance.wire.Wire.close_pings`). The
server's own ping after ``resumed`` is held to the same rule.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

from twisted.internet import task

from conformance.wire import Wire

INTERVAL = 0.5
"""Seconds between the referee's pings on one connection."""

_ids: Iterator[int] = itertools.count(1)


def next_id() -> Any:
    number = next(_ids)
    return f"kit-{number}" if number % 2 else number


class Pinger:
    """Pings one connection until it closes; marks pings missed once ``limit`` has passed."""

    def __init__(self, reactor: Any, wire: Wire, limit: float, interval: float = INTERVAL) -> None:
        self.reactor = reactor
        self.wire = wire
        self.limit = limit
        self._loop = task.LoopingCall(self._tick)
        self._loop.clock = reactor
        self._loop.start(interval, now=False)

    def _tick(self) -> None:
        wire, now = self.wire, self.reactor.seconds()
        if not wire.is_open or wire.connection is None:
            self.stop()
            return
        for ping in wire.pings.values():
            if ping.answered is None and not ping.missed and now - ping.at > self.limit:
                ping.missed = f"no pong within {self.limit:g} s"
        wire.connection.send({"type": "ping", "id": next_id()})

    def stop(self) -> None:
        if self._loop.running:
            self._loop.stop()


def late(wire: Wire, limit: float) -> None:
    """Mark the pings of ``wire`` answered after ``limit`` seconds (the loop may not have
    looked in time)."""
    for ping in wire.pings.values():
        if ping.answered is not None and not ping.missed and ping.answered - ping.at > limit:
            ping.missed = f"answered after {ping.answered - ping.at:.1f} s (limit {limit:g} s)"
