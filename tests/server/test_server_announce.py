"""The server's announcement on the LAN (mDNS/DNS-SD): its record, its updates when tables
change, its failures, its goodbye; and one real round trip on the loopback interface."""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from twisted.internet import defer, task
from zeroconf import ServiceInfo

from client.net import discover
from cosmoport.cli import build_parser
from server import announce
from server.announce import (
    SERVICE_TYPE,
    UPDATE_EVERY,
    Announcer,
    addresses_for,
    instance_name,
    service_info,
    txt_properties,
)
from server.lobby import Lobby


def txt(tables: int = 0, waiting: int = 0) -> dict[str, str]:
    return txt_properties(
        protocol=2,
        server="cosmoport-server 0.1",
        tables=tables,
        waiting=waiting,
        games=["alien_artifacts", "cosmic_run"],
        server_id="9f0c2b",
        versions=(2, 1),
    )


def test_the_record_names_the_service_type_the_instance_the_port_and_the_txt_keys() -> None:
    info = service_info("Alice's party", 7777, ["192.0.2.7"], txt(3, 1), host_label="alice")
    assert info.type == "_cosmoport._tcp.local."
    assert info.name == "Alice's party._cosmoport._tcp.local."
    assert info.port == 7777
    assert info.server == "alice.local."
    assert info.parsed_addresses() == ["192.0.2.7"]
    assert info.properties == {
        b"txtvers": b"1",
        b"protocol": b"2",
        b"server": b"cosmoport-server 0.1",
        b"tables": b"3",
        b"waiting": b"1",
        b"games": b"alien_artifacts,cosmic_run",
        b"id": b"9f0c2b",
        b"versions": b"2,1",
    }


def test_the_instance_name_is_the_given_name_or_the_host_name_without_dots(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert instance_name("Bob's basement") == "Bob's basement"
    assert instance_name("v1.2 party") == "v1 2 party"
    assert len(instance_name("x" * 100).encode()) == 63
    monkeypatch.setattr(announce.socket, "gethostname", lambda: "lanbox.example.org")
    assert instance_name(None) == "lanbox"


def test_a_server_on_one_address_announces_that_address_and_on_every_interface_no_loopback() -> (
    None
):
    assert addresses_for("127.0.0.1") == ["127.0.0.1"]
    assert addresses_for("192.0.2.9") == ["192.0.2.9"]
    assert not any(a.startswith("127.") for a in addresses_for("0.0.0.0"))


def test_serve_takes_a_name_and_no_announce() -> None:
    args = build_parser().parse_args(["serve"])
    assert args.no_announce is False and args.name is None
    args = build_parser().parse_args(["serve", "--no-announce", "--name", "Den"])
    assert args.no_announce is True and args.name == "Den"


class FakeZeroconf:
    """Records what the announcer asks of zeroconf."""

    def __init__(self, fail: str = "") -> None:
        self.calls: list[tuple[str, Any]] = []
        self.fail = fail

    def _do(self, what: str, info: Any) -> None:
        self.calls.append((what, info))
        if what == self.fail:
            raise OSError(f"{what}: no multicast here")

    def register_service(self, info: ServiceInfo, allow_name_change: bool = False) -> None:
        assert allow_name_change  # two servers named alike must not stop each other
        self._do("register", info)

    def update_service(self, info: ServiceInfo) -> None:
        self._do("update", info)

    def unregister_service(self, info: ServiceInfo) -> None:
        self._do("unregister", info)

    def close(self) -> None:
        self._do("close", None)


def make(
    counts: list[tuple[int, int]], zc: FakeZeroconf, clock: task.Clock
) -> tuple[Announcer, list[tuple[int, int]]]:
    def make_info(now: tuple[int, int]) -> ServiceInfo:
        return service_info("Den", 7777, ["127.0.0.1"], txt(*now), host_label="den")

    return Announcer(clock, lambda: counts[-1], make_info, lambda: zc), counts


def txt_of(info: ServiceInfo) -> tuple[bytes | None, bytes | None]:
    return info.properties[b"tables"], info.properties[b"waiting"]


def test_table_changes_update_the_txt_record_at_most_once_per_period() -> None:
    clock, zc = task.Clock(), FakeZeroconf()
    who, counts = make([(0, 0)], zc, clock)
    who.start()
    assert [c[0] for c in zc.calls] == ["register"]
    assert txt_of(zc.calls[0][1]) == (b"0", b"0")
    clock.advance(UPDATE_EVERY)
    assert len(zc.calls) == 1  # nothing changed: nothing sent
    counts.append((1, 1))
    counts.append((2, 1))  # two changes within one period
    clock.advance(UPDATE_EVERY - 0.1)
    assert len(zc.calls) == 1
    clock.advance(0.1)
    assert [c[0] for c in zc.calls] == ["register", "update"]
    assert txt_of(zc.calls[1][1]) == (b"2", b"1")
    assert zc.calls[1][1].name == "Den._cosmoport._tcp.local."
    counts.append((2, 0))
    clock.advance(UPDATE_EVERY)
    assert txt_of(zc.calls[-1][1]) == (b"2", b"0")
    assert len(zc.calls) == 3


def test_stopping_unregisters_the_service_and_closes_zeroconf() -> None:
    clock, zc = task.Clock(), FakeZeroconf()
    who, counts = make([(0, 0)], zc, clock)
    who.start()
    done = who.stop()
    assert [c[0] for c in zc.calls] == ["register", "unregister", "close"]
    assert done.called
    counts.append((5, 5))
    clock.advance(UPDATE_EVERY * 3)
    assert len(zc.calls) == 3  # no updates after the goodbye


@pytest.mark.parametrize("fail", ["register", "update"])
def test_a_failure_to_announce_is_one_warning_and_stops_announcing(
    fail: str, logged: list[dict[str, Any]]
) -> None:
    clock, zc = task.Clock(), FakeZeroconf(fail=fail)
    who, counts = make([(0, 0)], zc, clock)
    started = who.start()
    counts.append((1, 1))
    clock.advance(UPDATE_EVERY)
    counts.append((2, 2))
    clock.advance(UPDATE_EVERY * 3)
    warnings = [e for e in logged if e["log_level"].name == "warn"]
    assert len(warnings) == 1
    assert "Not announced on the LAN" in warnings[0]["log_format"]
    assert "no multicast here" in warnings[0]["why"]
    assert who.failed and started.called
    sent = [c[0] for c in zc.calls]
    assert sent == (["register"] if fail == "register" else ["register", "update"])


def test_no_zeroconf_at_all_is_one_warning_too(logged: list[dict[str, Any]]) -> None:
    def no_network() -> Any:
        raise OSError("[Errno 19] No such device")

    clock = task.Clock()
    who = Announcer(
        clock,
        lambda: (0, 0),
        lambda now: service_info("Den", 1, ["127.0.0.1"], txt(*now), host_label="den"),
        no_network,
    )
    who.start()
    assert who.failed
    assert [e["why"] for e in logged if e["log_level"].name == "warn"] == [
        "[Errno 19] No such device"
    ]
    assert who.stop().called


def test_the_counts_are_the_lobbys_open_and_waiting_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    clock, zc = task.Clock(), FakeZeroconf()
    lobby = Lobby(clock=clock.seconds)
    monkeypatch.setattr(announce, "in_thread", lambda reactor: announce.at_once)
    monkeypatch.setattr(announce, "open_zeroconf", lambda host: zc)
    who = announce.announcer(
        clock, lobby, "127.0.0.1", 7777, "Den", protocol=1, server="cosmoport-server 0.1"
    )
    who.start()
    info = zc.calls[0][1]
    assert (info.name, info.port) == ("Den._cosmoport._tcp.local.", 7777)
    assert info.parsed_addresses() == ["127.0.0.1"]
    assert info.properties[b"games"] == b"alien_artifacts,cosmic_run"
    first = lobby.create("cosmic_run", 2, creator="a")
    lobby.create("cosmic_run", 3, creator="b")
    clock.advance(UPDATE_EVERY)
    assert txt_of(zc.calls[-1][1]) == (b"2", b"2")
    first.state = "playing"  # as after its start
    clock.advance(UPDATE_EVERY)
    assert txt_of(zc.calls[-1][1]) == (b"2", b"1")
    lobby.close(first)
    clock.advance(UPDATE_EVERY)
    assert txt_of(zc.calls[-1][1]) == (b"1", b"1")


@pytest.mark.slow
def test_a_server_announced_on_loopback_is_found_by_join_on_loopback() -> None:
    """The real thing, on the loopback interface only (bounded: about three seconds). The
    name is this run's own: two suites on one machine share the loopback's multicast, and
    zeroconf renames the second "Loopback party" it hears of to "Loopback party-2"."""
    name = f"Loopback party {uuid.uuid4().hex[:8]}"
    try:
        zc = announce.open_zeroconf("127.0.0.1")
    except OSError as error:
        pytest.skip(f"no multicast on the loopback interface here ({error})")
    clock = task.Clock()
    who = Announcer(
        clock,
        lambda: (1, 1),
        lambda now: service_info(name, 40404, ["127.0.0.1"], txt(*now)),
        lambda: zc,
    )
    started = who.start()
    if who.failed:
        zc.close()
        pytest.skip("zeroconf could not announce on the loopback interface here")
    try:
        found = discover.browse(2.0, interfaces=["127.0.0.1"])
    finally:
        stopped: defer.Deferred[Any] = who.stop()
    assert started.called and stopped.called
    ours = [f for f in found if f.name == name]
    assert ours, f"not found on loopback; found {found}"
    assert (ours[0].host, ours[0].port, ours[0].tables, ours[0].waiting) == (
        "127.0.0.1",
        40404,
        1,
        1,
    )
    assert ours[0].games == ("alien_artifacts", "cosmic_run")
    assert ours[0].server_id == "9f0c2b"  # which server, whatever address it was found at
    assert SERVICE_TYPE == discover.SERVICE_TYPE


def test_protocol_md_documents_the_service_type_and_every_txt_key() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "PROTOCOL.md").read_text(encoding="utf-8")
    section = doc.split("### 1.1 Finding servers on the LAN", 1)[1].split("\n## ", 1)[0]
    assert f"`{SERVICE_TYPE}`" in section
    keys = [
        line.split("|")[1].strip().strip("`")
        for line in section.splitlines()[1:]
        if line.startswith("| `")
    ]
    assert keys == list(txt())
    assert f"every {UPDATE_EVERY:g} seconds" in section


@contextlib.contextmanager
def two_hosts() -> Iterator[tuple[str, str, str]]:
    """Two network namespaces of this test's own making, joined by a veth pair and nothing else:
    (host A, host B, A's address). Skips where namespaces cannot be made (not root, no `ip`)."""
    if os.geteuid() != 0 or shutil.which("ip") is None:
        pytest.skip("network namespaces need root and iproute2's `ip`")
    a, b = f"cosmoport-a{os.getpid()}", f"cosmoport-b{os.getpid()}"
    setup = [
        ["netns", "add", a],
        ["netns", "add", b],
        ["link", "add", "cpa0", "netns", a, "type", "veth", "peer", "name", "cpb0", "netns", b],
        ["-n", a, "addr", "add", "10.213.77.1/24", "dev", "cpa0"],
        ["-n", b, "addr", "add", "10.213.77.2/24", "dev", "cpb0"],
        ["-n", a, "link", "set", "cpa0", "up"],
        ["-n", b, "link", "set", "cpb0", "up"],
        ["-n", a, "link", "set", "lo", "up"],
        ["-n", b, "link", "set", "lo", "up"],
    ]
    try:
        for step in setup:
            done = subprocess.run(["ip", *step], capture_output=True, text=True, timeout=10)
            if done.returncode:
                pytest.skip(f"cannot make network namespaces here: {done.stderr.strip()}")
        yield a, b, "10.213.77.1"
    finally:
        for name in (a, b):  # deleting a namespace deletes its end of the veth pair too
            subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=10)


def read_until(process: subprocess.Popen[str], text: str, seconds: float) -> str:
    """What ``process`` printed up to the line holding ``text`` (fails after ``seconds``)."""
    assert process.stdout is not None
    seen, deadline = "", time.monotonic() + seconds
    while text not in seen:
        left = deadline - time.monotonic()
        ready, _, _ = select.select([process.stdout], [], [], max(0.0, left))
        line = process.stdout.readline() if ready else ""
        if not line and (left <= 0 or process.poll() is not None):
            raise AssertionError(f"no {text!r} within {seconds} s; printed:\n{seen}")
        seen += line
    return seen


@pytest.mark.slow
def test_browsing_on_one_host_finds_serve_on_another_in_namespaces_of_its_own() -> None:
    """``cosmoport serve`` on every interface of host A; the browse of ``join`` on host B finds
    it at A's address. Both hosts are namespaces linked only to each other (bounded: ~10 s)."""
    with two_hosts() as (a, b, address):
        serve = [sys.executable, "-m", "cosmoport", "serve", "--db", ":memory:", "--name", "Den"]
        server = subprocess.Popen(
            ["ip", "netns", "exec", a, *serve, "--port", "0"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            printed = read_until(server, "announced on the LAN as 'Den'", 20)
            port = int(printed.split("listening on 0.0.0.0:", 1)[1].split()[0])
            join = subprocess.run(
                ["ip", "netns", "exec", b, sys.executable, "-c", FIND],
                capture_output=True,
                text=True,
                timeout=20,
            )
        finally:
            server.terminate()
            server.wait(timeout=15)
    assert join.returncode == 0, join.stderr
    assert json.loads(join.stdout) == [["Den", address, port, 0, 0]]


FIND = """
import json
from client.net.discover import browse
print(json.dumps([[f.name, f.host, f.port, f.tables, f.waiting] for f in browse(2.0)]))
"""
