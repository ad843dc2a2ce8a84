"""Announce ``cosmoport serve`` on the LAN with mDNS/DNS-SD, so that ``cosmoport join`` finds it
without being told an address.

The record (:func:`service_info`) is built by a pure function from the server's name, port,
addresses and table counts. :class:`Announcer` registers it, re-announces its TXT properties when
the table counts change (checked every :data:`UPDATE_EVERY` seconds, so at most that often) and
unregisters it on shutdown. zeroconf's calls block (each waits for its packets to go out), so they
run through an injected ``call`` (production: a thread of the reactor's pool, one at a time, in
order); tests pass a fake zeroconf and a ``task.Clock``. Announcing is a convenience: any failure
is one warning line and the server goes on.
"""

from __future__ import annotations

import ipaddress
import logging
import re
import socket
from collections.abc import Callable, Iterable
from typing import Any

from twisted.internet import defer, task, threads
from twisted.logger import Logger
from zeroconf import InterfaceChoice, IPVersion, ServiceInfo, Zeroconf

SERVICE_TYPE = "_cosmoport._tcp.local."
UPDATE_EVERY = 5.0
"""Seconds between two looks at the table counts: the TXT record changes at most this often."""
STOP_WITHIN = 2.0
"""Seconds shutdown waits for the goodbye packets at most."""
TXT_VERSION = "1"

_log = Logger()
Counts = tuple[int, int]  # (open tables, tables waiting for players)


def instance_name(name: str | None = None) -> str:
    """The service instance's name: ``name``, or this machine's host name (at most 63 bytes,
    no dots, which DNS-SD would read as label separators)."""
    text = (name or socket.gethostname().split(".")[0] or "cosmoport").replace(".", " ").strip()
    encoded = (text or "cosmoport").encode()[:63]
    return encoded.decode(errors="ignore").strip() or "cosmoport"


def _host_label() -> str:
    label = re.sub(r"[^a-z0-9-]+", "-", socket.gethostname().split(".")[0].lower()).strip("-")
    return (label or "cosmoport")[:63]


def txt_properties(
    *,
    protocol: int,
    server: str,
    tables: int,
    waiting: int,
    games: Iterable[str],
    server_id: str = "",
    versions: Iterable[int] = (),
) -> dict[str, str]:
    """The TXT keys of the record: what a client shows before connecting (``versions``: every
    protocol version the server speaks, newest first, when it speaks more than ``protocol``)."""
    txt = {
        "txtvers": TXT_VERSION,
        "protocol": str(protocol),
        "server": server,
        "tables": str(tables),
        "waiting": str(waiting),
        "games": ",".join(games),
        "id": server_id,
    }
    if versions:
        txt["versions"] = ",".join(str(v) for v in versions)
    return txt


def service_info(
    name: str,
    port: int,
    addresses: list[str],
    properties: dict[str, str],
    host_label: str | None = None,
) -> ServiceInfo:
    """The DNS-SD record of a server called ``name`` listening on ``port`` at ``addresses``."""
    return ServiceInfo(
        SERVICE_TYPE,
        f"{name}.{SERVICE_TYPE}",
        port=port,
        parsed_addresses=addresses,
        properties=properties,
        server=f"{host_label or _host_label()}.local.",
    )


def is_wildcard(host: str) -> bool:
    return host in ("", "0.0.0.0", "::")


def addresses_for(host: str) -> list[str]:
    """The addresses to announce for a server listening on ``host``: that one address, or on
    every interface the machine's non-loopback IPv4 addresses."""
    if not is_wildcard(host):
        try:
            return [str(ipaddress.ip_address(host))]
        except ValueError:
            return [socket.gethostbyname(host)]
    import ifaddr

    found: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and not ipaddress.ip_address(ip.ip).is_loopback:
                found.append(ip.ip)
    return list(dict.fromkeys(found))


def open_zeroconf(host: str) -> Zeroconf:
    """A zeroconf instance on ``host``'s interface only, or on every interface."""
    interfaces: Any = InterfaceChoice.All if is_wildcard(host) else [host]
    return Zeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)


def in_thread(reactor: Any) -> Callable[[Callable[[], Any]], defer.Deferred[Any]]:
    def call(work: Callable[[], Any]) -> defer.Deferred[Any]:
        return threads.deferToThreadPool(reactor, reactor.getThreadPool(), work)

    return call


def at_once(work: Callable[[], Any]) -> defer.Deferred[Any]:
    """Run ``work`` now, in this thread (tests)."""
    return defer.maybeDeferred(work)


class Announcer:
    """Keeps one server's record on the LAN while it runs.

    ``counts()`` gives (open tables, waiting tables); ``make_info(counts)`` the record for them;
    ``open_zeroconf()`` the zeroconf object (its failure is a failure to announce)."""

    def __init__(
        self,
        clock: Any,
        counts: Callable[[], Counts],
        make_info: Callable[[Counts], ServiceInfo],
        open_zeroconf: Callable[[], Any],
        call: Callable[[Callable[[], Any]], defer.Deferred[Any]] = at_once,
        every: float = UPDATE_EVERY,
    ) -> None:
        self.clock = clock
        self._counts = counts
        self._make_info = make_info
        self._open = open_zeroconf
        self._call = call
        self.zeroconf: Any = None
        self.info: ServiceInfo | None = None
        self.announced: Counts | None = None
        self.failed = False
        self._queue: defer.Deferred[Any] = defer.succeed(None)
        self._loop = task.LoopingCall(self.refresh)
        self._loop.clock = clock
        self._every = every

    def _then(self, work: Callable[[], Any], what: str) -> defer.Deferred[Any]:
        """Run ``work`` after every earlier call has finished; a failure is one warning."""

        def run(_: Any) -> Any:
            if self.failed:
                return None
            return self._call(work).addErrback(self._fail, what)

        self._queue = self._queue.addCallback(run)
        return self._queue

    def _fail(self, failure: Any, what: str) -> None:
        self.failed = True
        if self._loop.running:
            self._loop.stop()
        _log.warn(
            "Not announced on the LAN ({what} failed: {why}); players join with the address.",
            what=what,
            why=failure.getErrorMessage() or failure.type.__name__,
        )

    def start(self) -> defer.Deferred[Any]:
        counts = self._counts()
        info = self._make_info(counts)

        def register() -> None:
            self.zeroconf = self._open()
            self.zeroconf.register_service(info, allow_name_change=True)

        self.info, self.announced = info, counts
        done = self._then(register, "registering the service")
        done.addCallback(lambda _: self._started())
        return done

    def _started(self) -> None:
        if not self.failed and not self._loop.running:
            self._loop.start(self._every, now=False)
            _log.info("announced on the LAN as {name!r}", name=self.name)

    @property
    def name(self) -> str:
        if self.info is None:
            return ""
        return self.info.name[: -len(SERVICE_TYPE) - 1]

    def refresh(self) -> defer.Deferred[Any] | None:
        """Re-announce the TXT record if the table counts changed since the last time."""
        counts = self._counts()
        if self.failed or counts == self.announced or self.info is None:
            return None
        fresh = self._make_info(counts)
        # Keep the name zeroconf settled on (it may have added " (2)" after a clash).
        info = ServiceInfo(
            fresh.type,
            self.info.name,
            port=fresh.port,
            addresses=fresh.addresses,
            properties=fresh.properties,
            server=fresh.server,
        )
        self.info, self.announced = info, counts
        return self._then(lambda: self.zeroconf.update_service(info), "updating the service")

    def stop(self) -> defer.Deferred[Any]:
        """Say goodbye on the LAN and close zeroconf; fires within :data:`STOP_WITHIN` s."""
        if self._loop.running:
            self._loop.stop()

        def goodbye() -> None:
            zc, self.zeroconf = self.zeroconf, None
            if zc is None:
                return
            try:
                if self.info is not None:
                    zc.unregister_service(self.info)
            finally:
                zc.close()

        done = self._queue.addCallback(lambda _: self._call(goodbye) if not self.failed else None)
        done.addErrback(lambda f: _log.warn("Leaving the LAN: {why}", why=f.getErrorMessage()))
        return done.addTimeout(STOP_WITHIN, self.clock, onTimeoutCancel=lambda *_: None)


def announcer(
    reactor: Any,
    lobby: Any,
    host: str,
    port: int,
    name: str | None = None,
    *,
    protocol: int,
    server: str,
    versions: Iterable[int] = (),
) -> Announcer:
    """The announcer of a server whose tables are ``lobby``'s, listening on ``host:port``."""
    from server.places import PLAYING, WAITING

    label = instance_name(name)
    addresses = addresses_for(host)
    games = list(lobby.registry.names())

    def counts() -> Counts:
        states = [table.state for table in lobby.tables.values()]
        return sum(s in (WAITING, PLAYING) for s in states), sum(s == WAITING for s in states)

    def make_info(now: Counts) -> ServiceInfo:
        tables, waiting = now
        txt = txt_properties(
            protocol=protocol,
            server=server,
            tables=tables,
            waiting=waiting,
            games=games,
            server_id=lobby.store.server_id,
            versions=versions,
        )
        return service_info(label, port, addresses, txt)

    # zeroconf logs through the standard library; its own chatter would add lines to ours.
    logging.getLogger("zeroconf").setLevel(logging.CRITICAL)
    return Announcer(reactor, counts, make_info, lambda: open_zeroconf(host), in_thread(reactor))


def start_announcing(
    reactor: Any, lobby: Any, host: str, port: int, name: str | None = None
) -> Announcer | None:
    """Announce a server from ``cosmoport serve`` once the reactor runs, and say goodbye before
    it stops. A failure to set up is one warning line, like any other failure to announce."""
    from protocol import PROTOCOL_VERSION, SUPPORTED_VERSIONS
    from server.session import SERVER_NAME

    try:
        who = announcer(
            reactor,
            lobby,
            host,
            port,
            name,
            protocol=PROTOCOL_VERSION,
            server=SERVER_NAME,
            versions=SUPPORTED_VERSIONS,
        )
    except Exception as error:  # no interfaces, an address that does not resolve, ...
        _log.warn("Not announced on the LAN ({why}); players join with the address.", why=error)
        return None
    reactor.callWhenRunning(who.start)
    reactor.addSystemEventTrigger("before", "shutdown", who.stop)
    return who
