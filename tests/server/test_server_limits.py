"""Framing, rates, heartbeats and timeouts, all on the fake clock."""

from __future__ import annotations

import struct
from typing import Any

import pytest
from server_helpers import MemoryServer, last_game_message

from protocol import MAX_FRAME, encode, frame
from server.limits import Limits, RateMeter
from server.service import stop_gracefully

FAST = {"rate": 1e9, "burst": 10**9}


def test_a_frame_fed_one_byte_at_a_time_is_one_message():
    server = MemoryServer()
    client = server.client()
    data = frame(encode({"type": "hello", "version": 1, "name": "Ann", "id": 1}))
    for i in range(len(data)):
        client.send_raw(data[i : i + 1])
        if i < len(data) - 1:
            assert client.received() == []
    assert client.one("welcome")["id"] == 1


def test_several_frames_in_one_read_are_all_handled_in_order():
    server = MemoryServer()
    client = server.client()
    data = b"".join(
        frame(encode(m))
        for m in (
            {"type": "hello", "version": 1, "name": "Ann", "id": 1},
            {"type": "ping", "id": 2},
            {"type": "list", "id": 3},
        )
    )
    client.send_raw(data)
    assert [m["type"] for m in client.received()] == ["welcome", "pong", "tables"]


def test_a_frame_at_the_cap_is_read_and_one_byte_more_disconnects_before_the_body():
    server = MemoryServer()
    client = server.greeted("Ann")
    body = encode({"type": "chat", "text": "x"})
    padded = body + b"\x00" * (MAX_FRAME - len(body))  # trailing bytes: bad msgpack, not framing
    client.send_raw(frame(padded))
    assert client.error() == "proto/bad_msgpack"
    assert not client.disconnected
    client.send_raw(struct.pack(">I", MAX_FRAME + 1))  # header only: refused at once
    assert client.error() == "proto/frame_too_large"
    assert client.disconnected
    client.send_raw(frame(encode({"type": "ping"})))  # anything after is ignored
    assert client.received() == []


def test_an_oversized_header_before_hello_also_disconnects():
    server = MemoryServer()
    client = server.client()
    client.send_raw(b"\xff\xff\xff\xff")
    assert client.error() == "proto/frame_too_large"
    assert client.disconnected
    assert len(server.hub.sessions) == 0


def test_the_rate_meter_allows_bursts_and_refills_over_time():
    meter = RateMeter(rate=2, burst=3, now=0.0)
    assert [meter.admit(0.0) for _ in range(4)] == [True, True, True, False]
    assert meter.admit(0.5)  # one token back after half a second
    assert not meter.admit(0.5)
    assert meter.admit(10.0) and meter.admit(10.0) and meter.admit(10.0)
    assert not meter.admit(5.0)  # a clock stepping back gives nothing


def test_flooding_beyond_the_burst_disconnects_with_a_named_error():
    server = MemoryServer(Limits(rate=5, burst=10))
    client = server.greeted("Ann")  # 1 message
    for _ in range(9):
        client.send({"type": "ping"})
    assert all(m["type"] == "pong" for m in client.received())
    assert not client.disconnected
    client.send({"type": "ping"})
    assert client.error() == "limit/rate"
    assert client.disconnected


def test_a_steady_client_within_the_rate_is_never_cut_off():
    server = MemoryServer(Limits(rate=5, burst=5))
    client = server.greeted("Ann")
    for _ in range(50):
        server.clock.advance(0.25)  # 4 per second
        client.send({"type": "ping"})
    assert not client.disconnected
    assert all(m["type"] in ("pong", "ping") for m in client.received())


def test_applied_actions_do_not_count_against_the_rate_but_refused_ones_do():
    server = MemoryServer(Limits(rate=1, burst=5))
    # The host's hello, create, join and start leave it one token; the clock stands still.
    _, (a, b) = server.table_with(players=2, options={"target": 100})
    for _ in range(20):  # as fast as the game goes: far beyond the burst, never cut off
        for client in (a, b):
            client.received()
            update = last_game_message(client)
            assert update["legal"], "the game should wait for this client"
            client.send({"type": "act", "version": update["version"], "action": ["step", 1]})
    assert not a.disconnected and not b.disconnected
    stale = {"type": "act", "version": 0, "action": ["step", 1]}
    a.received()
    a.send(stale)
    assert a.error() == "action/stale"
    a.send(stale)
    assert a.error() == "limit/rate"
    assert a.disconnected


def test_a_client_that_plays_faster_than_the_act_rate_is_read_later_not_cut_off():
    server = MemoryServer(Limits(rate=1e9, burst=10**9, act_rate=10, act_burst=3))
    _, (solo,) = server.table_with(players=1, options={"target": 100})
    solo.received()

    def act() -> list[dict[str, Any]]:
        version = last_game_message(solo)["version"]
        return solo.request({"type": "act", "version": version, "action": ["step", 1]})

    for _ in range(3):  # the burst, on a clock that stands still
        assert [m["type"] for m in act()] == ["update"]
    assert [m["type"] for m in act()] == ["update"]  # applied; now 1 action in debt: 0.1 s
    version = last_game_message(solo)["version"]
    solo.send({"type": "act", "version": version, "action": ["step", 1]})
    solo.send({"type": "ping", "id": "p"})
    assert solo.received() == []  # not read yet
    server.clock.advance(0.05)
    assert solo.received() == []
    server.clock.advance(0.05)
    assert [m["type"] for m in solo.received()] == ["update"]  # in debt again: the ping waits
    server.clock.advance(0.1)
    assert [m["type"] for m in solo.received()] == ["pong"]  # in order, nothing lost
    assert not solo.disconnected
    server.clock.advance(10)  # back under the rate: read at once again
    solo.received()
    assert [m["type"] for m in act()] == ["update"]


def test_a_held_connection_that_closes_leaves_no_pending_read():
    server = MemoryServer(Limits(rate=1e9, burst=10**9, act_rate=1, act_burst=1))
    _, (solo,) = server.table_with(players=1, options={"target": 100})
    solo.received()
    for _ in range(2):
        version = last_game_message(solo)["version"]
        solo.request({"type": "act", "version": version, "action": ["step", 1]})

    def pending_reads() -> list[Any]:
        calls = server.clock.getDelayedCalls()
        return [c for c in calls if getattr(c.func, "__name__", "") == "_read_again"]

    assert len(pending_reads()) == 1
    solo.drop()
    assert pending_reads() == []


def test_garbage_counts_against_the_rate_too():
    server = MemoryServer(Limits(rate=1, burst=3))
    client = server.greeted("Ann")
    client.send_raw(frame(b"\xc1"))
    client.send_raw(frame(b"\xc1"))
    assert [m["code"] for m in client.received()] == ["proto/bad_msgpack"] * 2
    client.send_raw(frame(b"\xc1"))
    assert client.error() == "limit/rate"


def test_the_server_pings_a_quiet_client_and_keeps_it_while_it_answers():
    server = MemoryServer(Limits(ping_interval=15, dead_after=45, **FAST))
    client = server.greeted("Ann")
    server.advance(14)
    assert client.received() == []
    server.advance(1)
    assert [m["type"] for m in client.received()] == ["ping"]
    for _ in range(10):
        client.send({"type": "pong"})
        server.advance(15)
        assert [m["type"] for m in client.received()] == ["ping"]
    assert not client.disconnected


def test_a_silent_peer_is_found_dead_and_its_seat_held():
    server = MemoryServer(Limits(ping_interval=15, dead_after=45, **FAST))
    table, (a, b) = server.table_with(2)
    a.received()
    for _ in range(3):
        server.advance(15)
        a.send({"type": "pong"})
    assert b.error() == "limit/heartbeat"
    assert b.disconnected and not a.disconnected
    seat = server.hub.lobby.table(table).info()["seats"][1]
    assert seat == {"name": "p1", "connected": False, "bot": False}


def test_the_client_may_ping_the_server():
    server = MemoryServer()
    client = server.greeted("Ann")
    assert client.request({"type": "ping"}) == [{"type": "pong", "id": client._next_id - 1}]


@pytest.mark.parametrize("where", ["lobby", "spectating a waiting table"])
def test_an_idle_session_outside_a_seat_is_dropped(where):
    server = MemoryServer(Limits(idle_timeout=100, ping_interval=10, dead_after=30, **FAST))
    client = server.greeted("Ann")
    if where != "lobby":
        table, _ = server.table_with(2, start=False)
        client.request({"type": "spectate", "table": table})
    for _ in range(9):
        server.advance(10)
        client.send({"type": "pong"})  # heartbeats alone do not count as activity
    assert not client.disconnected
    server.advance(10)
    assert client.error([m for m in client.received() if m["type"] != "ping"]) == "limit/idle"
    assert client.disconnected


def test_a_spectator_may_watch_a_game_for_as_long_as_heartbeats_flow():
    server = MemoryServer(Limits(idle_timeout=100, ping_interval=10, dead_after=30, **FAST))
    table, players = server.table_with(2)
    watcher = server.greeted("Watcher")
    watcher.request({"type": "spectate", "table": table})
    for _ in range(50):
        server.advance(10)
        for client in (watcher, *players):
            client.send({"type": "pong"})
    assert not watcher.disconnected


def test_a_seated_player_may_think_for_as_long_as_heartbeats_flow():
    server = MemoryServer(Limits(idle_timeout=100, ping_interval=10, dead_after=30, **FAST))
    _table, (a, b) = server.table_with(2)
    for _ in range(50):
        server.advance(10)
        a.send({"type": "pong"})
        b.send({"type": "pong"})
    assert not a.disconnected and not b.disconnected


def test_a_client_that_does_not_read_is_dropped_when_its_backlog_overflows():
    server = MemoryServer(Limits(send_backlog=1000, **FAST))
    _table, (a, b) = server.table_with(2)
    b.protocol.pauseProducing()  # what the transport does when b's socket buffer is full
    for _ in range(20):
        a.request({"type": "chat", "text": "x" * 100})
    assert b.transport.disconnecting
    assert not a.disconnected
    b.protocol.resumeProducing()


def test_closing_a_connection_whose_reader_is_slow_stops_producing_first():
    # Twisted resumes a paused producer when the buffer drains, instead of closing: the
    # connection must unregister itself, or a close while paused would never happen.
    server = MemoryServer(Limits(**FAST))
    _table, (_a, b) = server.table_with(2)
    assert b.transport.producer is b.protocol
    b.protocol.pauseProducing()
    b.send_raw(b"\xff\xff\xff\xff")  # an oversized length header: the server closes
    assert b.transport.disconnecting
    assert b.transport.producer is None


def test_a_flooding_seat_is_cut_off_its_seat_held_and_its_table_told_at_once():
    server = MemoryServer(Limits(rate=1, burst=5))
    table, (a, b) = server.table_with(2)
    a.received()
    for _ in range(10):
        b.send({"type": "chat", "text": "spam"})
    assert b.disconnected
    statuses = [m for m in a.received() if m["type"] == "seat_status"]
    assert statuses[-1]["connected"] is False
    assert server.hub.lobby.table(table).info()["seats"][1]["connected"] is False


def test_stopping_gracefully_says_goodbye_then_waits_for_the_clients_to_go():
    server = MemoryServer(Limits(**FAST))
    a, b = server.greeted("a"), server.greeted("b")
    done = stop_gracefully(server.factory, server.clock, grace=2.0)
    assert a.error() == "server/shutting_down" and b.error() == "server/shutting_down"
    assert not done.called  # the sockets are still open: the goodbye frames may be in flight
    for client in (a, b):
        client.drop()
    server.clock.advance(0.05)
    assert done.called


def test_stopping_gracefully_gives_up_waiting_after_the_grace_period():
    server = MemoryServer(Limits(**FAST))
    stuck = server.greeted("stuck")
    stuck.transport.loseConnection = lambda: None  # a connection that never goes
    done = stop_gracefully(server.factory, server.clock, grace=2.0)
    server.clock.advance(1.0)
    assert not done.called
    server.clock.pump([0.05] * 21)
    assert done.called


def test_past_the_send_budget_the_slowest_readers_are_dropped_first():
    # Each slow reader stays under its own backlog cap; together they pass the server's budget.
    server = MemoryServer(Limits(send_backlog=10_000, send_budget=4_000, **FAST))
    talker = server.greeted("talker", host="10.0.0.9")
    slow = [server.greeted(f"slow{i}", host=f"10.0.1.{i}") for i in range(3)]
    fast = server.greeted("fast", host="10.0.0.8")
    slow[0].protocol.pauseProducing()  # the slowest: stopped reading first
    for _ in range(4):
        talker.request({"type": "chat", "text": "x" * 200})
    slow[1].protocol.pauseProducing()
    slow[2].protocol.pauseProducing()
    for _ in range(10):
        talker.request({"type": "chat", "text": "x" * 200})
        fast.received()
        if slow[0].transport.disconnecting:
            break
    assert slow[0].transport.disconnecting  # the most queued goes first...
    assert not slow[1].transport.disconnecting and not slow[2].transport.disconnecting
    assert not fast.transport.disconnecting and not talker.transport.disconnecting
    assert server.hub.backlog_total <= 4_000
    slow[1].protocol.resumeProducing()  # a reader that catches up owes nothing any more
    assert slow[1].protocol not in server.hub.backlogs


def test_history_and_record_are_paced_per_address_not_per_connection():
    """Many connections of one address within their own rates cannot make the server read
    its database (and build records) faster than ``costly_rate``: beyond it, they are read
    later, never cut off; another address is not slowed."""
    server = MemoryServer(Limits(rate=1e9, burst=10**9, costly_rate=2, costly_burst=4))
    same = [server.greeted(f"c{n}", host="10.0.0.7") for n in range(4)]
    for client in same:  # the burst, shared by the address's connections
        assert [m["type"] for m in client.request({"type": "history"})] == ["history"]
    late = same[0]
    assert [m["type"] for m in late.request({"type": "history"})] == ["history"]  # in debt
    late.send({"type": "ping", "id": "p"})
    assert late.received() == []  # read later: 0.5 s
    other = server.greeted("elsewhere", host="10.0.0.8")
    assert [m["type"] for m in other.request({"type": "history"})] == ["history"]
    server.clock.advance(0.5)
    assert [m["type"] for m in late.received()] == ["pong"]
    assert not any(client.disconnected for client in same)
