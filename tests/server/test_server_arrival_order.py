"""What a client receives, in order, when it comes back to a seat (PROTOCOL.md 6.6), and that
`hello` counts toward the rate like every message (sections 6.1 and 8)."""

from __future__ import annotations

from typing import Any

from server_helpers import MemoryClient, MemoryServer

from server.limits import Limits


def autostart_table_waiting_for(server: MemoryServer) -> tuple[int, MemoryClient, str]:
    """An autostart table of two whose places are both held, one by a person who has dropped:
    it starts as soon as that person is back. Returns the table, the one still there, and the
    dropped person's token."""
    host = server.greeted("host")
    table = host.create(players=2, autostart=True)
    gone = server.greeted("gone")
    gone.join(table)
    assert gone.token is not None
    gone.drop()
    host.join(table)
    host.received()
    assert server.hub.lobby.table(table).state == "waiting"  # full, but not all connected
    return table, host, gone.token


def types(messages: list[dict[str, Any]]) -> list[str]:
    return [m["type"] for m in messages]


def test_a_hello_whose_token_starts_the_table_gets_welcome_resumed_started_snapshot_ping():
    server = MemoryServer()
    table, host, token = autostart_table_waiting_for(server)
    back = server.client()
    got = back.request({"type": "hello", "version": 1, "name": "gone", "token": token})
    assert types(got)[:5] == ["welcome", "resumed", "started", "snapshot", "ping"]
    assert set(types(got)[5:]) <= {"table_update"}  # pushes the return caused come after
    welcome, resumed, started, snapshot, ping = got[:5]
    assert welcome["id"] == resumed["id"] == 1
    assert "id" not in started and "id" not in snapshot  # pushes: the reply was `resumed`
    assert resumed["seat"] is None  # the game starts after it: `started` deals the seats
    assert started["seat"] == snapshot["seat"] is not None
    assert snapshot["version"] == 0 and isinstance(ping["id"], str)
    assert server.hub.lobby.table(table).state == "playing"
    assert types(host.received())[:2] == ["seat_status", "started"]


def test_a_resume_from_the_lobby_that_starts_the_table_gets_resumed_started_snapshot_ping():
    server = MemoryServer()
    _table, _host, token = autostart_table_waiting_for(server)
    back = server.greeted("gone")
    got = back.request({"type": "resume", "token": token})
    assert types(got)[:4] == ["resumed", "started", "snapshot", "ping"]


def test_a_resume_at_a_table_still_waiting_gets_resumed_then_the_ping():
    server = MemoryServer()
    host = server.greeted("host")
    table = host.create(players=3, autostart=True)
    gone = server.greeted("gone")
    gone.join(table)
    gone.drop()
    back = server.greeted("gone")
    got = back.request({"type": "resume", "token": gone.token})
    assert types(got)[:2] == ["resumed", "ping"]
    assert set(types(got)[2:]) <= {"table_update"}


def test_a_resume_at_a_started_table_gets_resumed_snapshot_ping():
    server = MemoryServer()
    _table, (_a, b) = server.table_with(2)
    b.drop()
    back = server.client()
    got = back.request({"type": "hello", "version": 1, "name": "p1", "token": b.token})
    assert types(got)[:4] == ["welcome", "resumed", "snapshot", "ping"]


def test_hello_counts_toward_the_burst():
    server = MemoryServer(Limits(rate=1, burst=3))
    client = server.client()
    client.hello("Ann")  # 1
    client.send({"type": "ping"})  # 2
    client.send({"type": "ping"})  # 3
    assert types(client.received()) == ["pong", "pong"]
    client.send({"type": "ping"})  # 4: one past the burst
    assert client.error() == "limit/rate"
    assert client.disconnected


def test_a_refused_hello_counts_toward_the_burst_too():
    server = MemoryServer(Limits(rate=1, burst=2))
    client = server.client()
    assert client.error(client.request({"type": "hello", "version": 1, "name": " x"})) == (
        "lobby/bad_name"
    )
    client.hello("Ann")
    client.send({"type": "ping"})
    assert client.error() == "limit/rate"
