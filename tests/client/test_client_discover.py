"""``cosmoport join`` without an address: the servers found on the LAN, listed and picked.

The browser is a fake: these tests send nothing on any network."""

from __future__ import annotations

from typing import Any

import pytest

from client.console import join
from client.net import discover
from client.net.discover import Found, found_from, pick
from cosmoport.cli import build_parser

DEN = Found("Den", "192.0.2.10", 7777, "cosmoport-server 0.1", 1, 2, 1, ("cosmic_run",))
ATTIC = Found("Attic", "192.0.2.11", 7800, "cosmoport-server 0.1", 1, 0, 0)
OLD = Found("Old box", "192.0.2.12", 7777, "cosmoport-server 0.0", 0, 1, 0)


class Fake:
    """A browser that finds ``servers``; the person's answers; what was printed."""

    def __init__(self, servers: list[Found], answers: list[str] | None = None) -> None:
        self.servers = servers
        self.answers = list(answers or [])
        self.asked: list[str] = []
        self.said: list[str] = []
        self.browsed: list[float] = []

    def browse(self, seconds: float) -> list[Found]:
        self.browsed.append(seconds)
        return list(self.servers)

    def ask(self, prompt: str) -> str:
        self.asked.append(prompt)
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)

    def pick(self) -> Found | None:
        return pick(self.browse, self.ask, self.said.append)

    @property
    def text(self) -> str:
        return "\n".join(self.said)


def test_no_server_found_says_how_to_give_an_address() -> None:
    fake = Fake([])
    assert fake.pick() is None
    assert fake.browsed == [2.0]
    assert "No Cosmoport server answered on this network within 2 seconds" in fake.text
    assert "cosmoport join HOST[:PORT]" in fake.text
    assert fake.asked == []


def test_one_server_found_is_named_and_joined_without_a_question() -> None:
    fake = Fake([DEN])
    assert fake.pick() == DEN
    assert fake.asked == []
    assert "Found one: Den  192.0.2.10:7777  cosmoport-server 0.1" in fake.text
    assert "2 tables open, 1 waiting for players" in fake.text
    assert fake.said[-1] == "Joining Den at 192.0.2.10:7777."


def test_several_servers_are_listed_by_number_and_the_one_picked_is_joined() -> None:
    fake = Fake([DEN, ATTIC, OLD], answers=["2"])
    assert fake.pick() == ATTIC
    assert "  1. Den  192.0.2.10:7777" in fake.text
    assert "  2. Attic  192.0.2.11:7800  cosmoport-server 0.1  0 tables open" in fake.text
    assert "  3. Old box" in fake.text and "protocol 0: this client speaks 1 or 2" in fake.text
    assert fake.asked == ["Join which one (1-3, Enter to give up)? "]


def test_a_wrong_number_asks_again() -> None:
    fake = Fake([DEN, ATTIC], answers=["7", "den", "1"])
    assert fake.pick() == DEN
    assert len(fake.asked) == 3
    assert fake.said.count("Type a number from 1 to 2, or Enter to give up.") == 2


@pytest.mark.parametrize("answers", [[""], ["q"], []], ids=["enter", "q", "end of input"])
def test_giving_up_joins_nothing(answers: list[str]) -> None:
    fake = Fake([DEN, ATTIC], answers=answers)
    assert fake.pick() is None
    assert "Not joining any" in fake.said[-1]


def test_a_resolved_record_becomes_a_server_to_list() -> None:
    found = found_from(
        "Den._cosmoport._tcp.local.",
        ["fd00::5", "192.0.2.10"],
        7777,
        {b"server": b"cosmoport-server 0.1", b"protocol": b"1", b"tables": b"3", b"games": b"a,b"},
    )
    assert found == Found("Den", "192.0.2.10", 7777, "cosmoport-server 0.1", 1, 3, None, ("a", "b"))
    assert found_from("Den._cosmoport._tcp.local.", [], 7777, {}) is None
    bare = found_from("Den._cosmoport._tcp.local.", ["192.0.2.10"], 7777, {b"tables": b"x"})
    assert bare is not None and bare.tables is None and bare.line() == "Den  192.0.2.10:7777"


def test_join_takes_no_address_and_still_takes_one() -> None:
    assert build_parser().parse_args(["join"]).address is None
    assert build_parser().parse_args(["join", "host:7000"]).address == "host:7000"


def run_join(
    monkeypatch: pytest.MonkeyPatch, servers: list[Found], answers: list[str]
) -> tuple[int, list[Any], Fake]:
    """``cosmoport join --plain`` with no address: what it returns, what it connects to."""
    fake = Fake(servers, answers)
    connected: list[Any] = []
    monkeypatch.setattr("builtins.input", fake.ask)
    monkeypatch.setattr("builtins.print", lambda *a, **k: fake.said.append(" ".join(map(str, a))))
    monkeypatch.setattr(join.task, "react", lambda main, argv: connected.append(argv))
    args = build_parser().parse_args(["join", "--plain", "--name", "ann"])
    code = join.run(args, browse=fake.browse)
    return code, connected, fake


def test_join_without_an_address_and_no_server_found_exits_with_the_advice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code, connected, fake = run_join(monkeypatch, [], [])
    assert code == 1 and connected == []
    assert "cosmoport join HOST[:PORT]" in fake.text


def test_join_without_an_address_connects_to_the_server_picked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code, connected, _ = run_join(monkeypatch, [DEN, ATTIC], ["2"])
    assert code == 0
    assert connected == [["192.0.2.11", 7800, "ann", False]]


def test_join_with_an_address_does_not_browse(monkeypatch: pytest.MonkeyPatch) -> None:
    def never(seconds: float) -> list[Found]:
        raise AssertionError("browsed")

    connected: list[Any] = []
    monkeypatch.setattr(join.task, "react", lambda main, argv: connected.append(argv))
    monkeypatch.setattr(discover, "browse", never)
    args = build_parser().parse_args(["join", "--plain", "--name", "ann", "192.0.2.5:7001"])
    assert join.run(args) == 0
    assert connected == [["192.0.2.5", 7001, "ann", False]]


def test_no_network_to_browse_is_a_message_not_a_traceback() -> None:
    def no_network(seconds: float) -> list[Found]:
        raise OSError("No interfaces to listen on")

    said: list[str] = []
    assert pick(no_network, lambda prompt: "", said.append) is None
    assert "Could not look for servers on this network (No interfaces to listen on)." in said
    assert "cosmoport join HOST[:PORT]" in said[-1]


def test_a_server_is_flagged_only_when_no_version_it_speaks_is_ours() -> None:
    newer = found_from(
        "New._cosmoport._tcp.local.", ["192.0.2.13"], 7777, {b"protocol": b"3", b"versions": b"3,2"}
    )
    assert newer is not None and newer.versions == (3, 2) and newer.speaks_ours()
    assert "this client speaks" not in newer.line()
    alien = found_from(
        "Far._cosmoport._tcp.local.", ["192.0.2.14"], 7777, {b"protocol": b"7", b"versions": b"7,x"}
    )
    assert alien is not None and alien.versions == (7,) and not alien.speaks_ours()
    assert "protocol 7: this client speaks 1 or 2" in alien.line()
