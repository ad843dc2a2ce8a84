"""How many connections the server's open-files limit leaves room for, and raising that limit.

Every connection holds a file descriptor. A server that runs out of them cannot even refuse a
client properly: Twisted then accepts the connection and closes it at once, without a word.
So ``cosmoport serve`` raises its soft ``RLIMIT_NOFILE`` to what ``Limits`` needs (up to the
hard limit), and if that is still short it lowers ``max_connections`` to what fits: a client
past it gets ``reject`` ``limit/server_full`` while descriptors remain to tell it so.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from typing import Any

from server.limits import Limits

RESERVED = 32
"""Descriptors the server holds besides its clients: standard streams, listening sockets, the
reactor's own (poller, waker, its spare for EMFILE), the database and its journal, logs."""

PER_BOT = 3
"""Pipes to each bot program (its connection back to the server is a client like any other)."""

REFUSALS_IN_FLIGHT = 128
"""Connections being refused at one moment: accepted, told ``reject``, not closed yet (Twisted
accepts up to about a hundred connections in one go)."""


def overhead(limits: Limits) -> int:
    """Descriptors needed besides one per connection."""
    return RESERVED + PER_BOT * limits.max_bots + REFUSALS_IN_FLIGHT


def fit_to_open_files(limits: Limits, resource: Any = None) -> tuple[Limits, str]:
    """Raise the soft open-files limit towards what ``limits`` need (never past the hard limit,
    never down); ``limits`` with ``max_connections`` lowered to what that leaves room for, and
    a line for people saying how many connections the server can hold and why."""
    if resource is None:
        try:
            import resource as resource_module
        except ImportError:  # Windows: no such limit to raise
            return limits, f"Room for {limits.max_connections} connections."
        resource = resource_module
    infinity = getattr(resource, "RLIM_INFINITY", -1)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = limits.max_connections + overhead(limits)
    target = wanted if hard == infinity else min(wanted, hard)
    if soft != infinity and soft < target:
        with contextlib.suppress(ValueError, OSError):  # capped below the hard limit
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == infinity:
        return limits, f"Room for {limits.max_connections} connections."
    room = max(0, soft - overhead(limits))
    if room >= limits.max_connections:
        return limits, f"Room for {limits.max_connections} connections (open files limit {soft})."
    return replace(limits, max_connections=room), (
        f"Room for {room} connections, not {limits.max_connections}: the open files limit is "
        f"{soft} (hard limit {hard}) and {limits.max_connections} connections need {wanted}."
    )
