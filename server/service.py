"""Twisted wiring: the protocol factory, the housekeeping ``LoopingCall`` and listening.

Time comes from the injected reactor (``IReactorTime``): tests pass a ``MemoryReactorClock`` or a
``task.Clock`` and advance it; production passes the global reactor.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Callable
from typing import Any

from twisted.internet import defer, task
from twisted.internet.address import IPv4Address, IPv6Address
from twisted.internet.interfaces import IListeningPort
from twisted.internet.protocol import Factory
from twisted.logger import Logger

from server.bot_programs import reactor_spawn
from server.connection import Connection
from server.hub import Hub
from server.limits import Limits
from server.lobby import GameRegistry
from server.places import StandIn
from server.rotation import SLICES
from server.store import Store
from server.transport import use_direct_writes

DEFAULT_HOST = "0.0.0.0"
DEFAULT_PORT = 7777
FULL_COLLECTION_EVERY = 600.0
"""Seconds between the garbage collector's full collections in a serving process."""

_log = Logger()


class ServerFactory(Factory):
    """Builds one :class:`Connection` per client around a shared :class:`Hub`."""

    noisy = False

    def __init__(
        self,
        reactor: Any,
        limits: Limits | None = None,
        *,
        rng: random.Random | None = None,
        registry: GameRegistry | None = None,
        token_factory: Callable[[], str] | None = None,
        bots: bool = True,
        store: Store | None = None,
        stand_in: StandIn | None = None,
    ) -> None:
        self.reactor = reactor
        self.hub = Hub(
            reactor.seconds,
            limits,
            rng=rng,
            registry=registry,
            token_factory=token_factory,
            spawn=reactor_spawn(reactor) if bots else None,
            store=store,
            stand_in=stand_in,
        )
        self._sweep = task.LoopingCall(self.hub.tick)
        self._sweep.clock = reactor
        self.connections: set[Connection] = set()  # open ones (removed when lost)

    def buildProtocol(self, addr: Any) -> Connection:
        conn = Connection(self.hub, self.connections, self.reactor)
        conn.factory = self
        return conn

    def startFactory(self) -> None:
        if not self._sweep.running:
            self._sweep.start(self.hub.limits.tick / SLICES, now=False)

    def stopFactory(self) -> None:
        if self._sweep.running:
            self._sweep.stop()


class RareCollections:
    """The garbage collector of a serving process: its automatic runs off, a full collection
    every ``every`` seconds of ``clock`` instead.

    Every action replaces its table's engine state (hundreds of objects), and the old state is
    freed at once by reference counting: none of that is cyclic garbage, yet the collector's
    automatic runs count the new objects and look through them all the same. With thousands of
    tables those runs took about a third of the server's CPU and stopped it for up to half a
    second at a time, while finding nothing to free (``bench/server.py --pace --tables 2000``).
    What cyclic garbage there is (closed connections, failures) waits for the next full
    collection, which at that size takes about half a second.
    """

    def __init__(self, clock: Any, every: float = FULL_COLLECTION_EVERY) -> None:
        self.every = every
        self._loop = task.LoopingCall(gc.collect)
        self._loop.clock = clock

    def start(self) -> None:
        gc.disable()
        if not self._loop.running:
            self._loop.start(self.every, now=False)

    def stop(self) -> None:
        """Back to the collector's automatic runs."""
        if self._loop.running:
            self._loop.stop()
        gc.enable()


def stop_gracefully(factory: ServerFactory, clock: Any, grace: float = 2.0) -> defer.Deferred[None]:
    """Tell every client the server stops, then fire once every connection has closed (or
    after ``grace`` seconds): as a "before shutdown" trigger it lets the goodbye frames go out
    before the reactor closes every socket."""
    factory.hub.shutdown()
    deadline = clock.seconds() + grace

    def check() -> None:
        if not factory.connections or clock.seconds() >= deadline:
            loop.stop()

    loop = task.LoopingCall(check)
    loop.clock = clock
    done: defer.Deferred[None] = loop.start(0.05, now=True).addCallback(lambda _: None)
    return done


def listen(
    reactor: Any,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    limits: Limits | None = None,
    **hub_options: Any,
) -> tuple[IListeningPort, ServerFactory]:
    """Listen for clients on ``host:port`` (``port=0``: any free port)."""
    factory = ServerFactory(reactor, limits, **hub_options)
    listening: IListeningPort = reactor.listenTCP(port, factory, interface=host)
    use_direct_writes(listening)
    address = listening.getHost()
    assert isinstance(address, IPv4Address | IPv6Address)  # a TCP port's
    # Bots connect back over loopback, unless the server listens on one address only.
    bot_host = "127.0.0.1" if host in ("", "0.0.0.0") else "::1" if host == "::" else host
    factory.hub.bots.address = (bot_host, address.port)
    factory.hub.restart_bots()  # those of tables restored from the store
    # Said at debug only: `cosmoport serve` prints its own start-up lines with the join hint.
    _log.debug("listening on {host}:{port}", host=address.host, port=address.port)
    return listening, factory
