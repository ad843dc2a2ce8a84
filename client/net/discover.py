"""Find Cosmoport servers on the LAN (mDNS/DNS-SD, service ``_cosmoport._tcp``) and let the
person pick one: what ``cosmoport join`` does when it is given no address.

:func:`browse` listens for about two seconds with zeroconf; :func:`pick` lists what was found
and asks for a number. Both take their outside world as arguments (the browser, the prompt, the
printer), so tests give them fakes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from protocol import SUPPORTED_VERSIONS

SERVICE_TYPE = "_cosmoport._tcp.local."  # the server's (server.announce.SERVICE_TYPE)
BROWSE_SECONDS = 2.0

Browse = Callable[[float], list["Found"]]


@dataclass(frozen=True)
class Found:
    """One server that answered: its name, where to connect, and its TXT properties."""

    name: str
    host: str
    port: int
    server: str = ""
    protocol: int | None = None
    tables: int | None = None
    waiting: int | None = None
    games: tuple[str, ...] = ()
    server_id: str = ""  # the same as welcome's: which server, whatever address
    versions: tuple[int, ...] = ()
    """Every protocol version it speaks (TXT ``versions``; older servers say only ``protocol``)."""

    @property
    def address(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"

    def speaks_ours(self) -> bool:
        """Whether it speaks a protocol version this client speaks (unknown: assume so)."""
        spoken = {*self.versions, *([self.protocol] if self.protocol is not None else [])}
        return not spoken or bool(spoken & set(SUPPORTED_VERSIONS))

    def line(self) -> str:
        """``name  address  version  tables`` for the list."""
        parts = [self.name, self.address]
        if self.server:
            parts.append(self.server)
        if not self.speaks_ours():
            ours = " or ".join(str(v) for v in sorted(SUPPORTED_VERSIONS))
            parts.append(f"protocol {self.protocol}: this client speaks {ours}")
        if self.tables is not None:
            tables = f"{self.tables} table{'' if self.tables == 1 else 's'} open"
            if self.waiting:
                tables += f", {self.waiting} waiting for players"
            parts.append(tables)
        return "  ".join(parts)


def _number(text: str | None) -> int | None:
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None


def _numbers(text: str | None) -> tuple[int, ...]:
    """``(2, 1)`` from ``"2,1"``; what is not a number is left out."""
    found = (_number(part.strip()) for part in (text or "").split(","))
    return tuple(n for n in found if n is not None)


def found_from(
    full_name: str, addresses: list[str], port: int, properties: Mapping[Any, Any]
) -> Found | None:
    """A :class:`Found` from a resolved record (None without an address to connect to)."""
    if not addresses or not port:
        return None
    txt = {
        (k.decode(errors="replace") if isinstance(k, bytes) else str(k)): (
            v.decode(errors="replace") if isinstance(v, bytes) else v
        )
        for k, v in properties.items()
    }
    name = full_name[: -len(SERVICE_TYPE) - 1] if full_name.endswith(SERVICE_TYPE) else full_name
    ipv4 = [a for a in addresses if ":" not in a]
    return Found(
        name=name,
        host=(ipv4 or addresses)[0],
        port=port,
        server=txt.get("server") or "",
        protocol=_number(txt.get("protocol")),
        versions=_numbers(txt.get("versions")),
        tables=_number(txt.get("tables")),
        waiting=_number(txt.get("waiting")),
        games=tuple(g for g in (txt.get("games") or "").split(",") if g),
        server_id=str(txt.get("id") or ""),
    )


def browse(seconds: float = BROWSE_SECONDS, interfaces: Any = None) -> list[Found]:
    """The servers that answer within ``seconds`` (blocking; before the reactor runs), by name.

    ``interfaces``: zeroconf's choice (default: every interface)."""
    from zeroconf import InterfaceChoice, IPVersion, ServiceBrowser, ServiceInfo, Zeroconf

    zc = Zeroconf(
        interfaces=InterfaceChoice.All if interfaces is None else interfaces,
        ip_version=IPVersion.V4Only,
    )
    names: dict[str, None] = {}

    def changed(zeroconf: Any, service_type: str, name: str, state_change: Any) -> None:
        names[name] = None

    browser = ServiceBrowser(zc, SERVICE_TYPE, handlers=[changed])
    try:
        time.sleep(seconds)  # the browse itself: answers arrive on zeroconf's thread
        result: dict[str, Found] = {}
        for name in list(names):
            info = ServiceInfo(SERVICE_TYPE, name)
            if not info.request(zc, 500):
                continue
            found = found_from(name, info.parsed_addresses(), info.port or 0, info.properties)
            if found is not None:
                result[name] = found
        return sorted(result.values(), key=lambda f: f.name.lower())
    finally:
        browser.cancel()
        zc.close()


NONE_FOUND = (
    "No Cosmoport server answered on this network within {seconds:g} seconds.\n"
    "Ask the host for the address their server printed at start (the line "
    "'Players on this network join with: ...') and give it:\n"
    "  cosmoport join HOST[:PORT]"
)


def pick(
    browse: Browse,
    ask: Callable[[str], str] | None = None,
    say: Callable[[str], None] | None = None,
    seconds: float = BROWSE_SECONDS,
) -> Found | None:
    """Browse, list what answered, and return the server the person picks (None: none found,
    or the person gave up). ``ask`` and ``say`` default to ``input`` and ``print``."""
    ask = ask or input
    say = say or print
    say(f"Looking for Cosmoport servers on this network ({seconds:g} s)...")
    try:
        found = browse(seconds)
    except Exception as error:  # no network, no multicast: say so, never a traceback
        say(f"Could not look for servers on this network ({error or type(error).__name__}).")
        say("Give the address the server printed:  cosmoport join HOST[:PORT]")
        return None
    if not found:
        say(NONE_FOUND.format(seconds=seconds))
        return None
    if len(found) == 1:
        say(f"Found one: {found[0].line()}")
        say(f"Joining {found[0].name} at {found[0].address}.")
        return found[0]
    say(f"Found {len(found)} servers:")
    for number, server in enumerate(found, 1):
        say(f"  {number}. {server.line()}")
    while True:
        try:
            answer = ask(f"Join which one (1-{len(found)}, Enter to give up)? ").strip()
        except EOFError:
            answer = ""
        if not answer or answer.lower() in ("q", "quit"):
            say("Not joining any. `cosmoport join HOST[:PORT]` joins one by its address.")
            return None
        picked = _number(answer)
        if picked is not None and 1 <= picked <= len(found):
            chosen = found[picked - 1]
            say(f"Joining {chosen.name} at {chosen.address}.")
            return chosen
        say(f"Type a number from 1 to {len(found)}, or Enter to give up.")
