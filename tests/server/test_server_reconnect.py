"""Dropped seats are held; a token resumes them with a full snapshot and is rotated.

The rotation completes when the client shows it has the new token (its next message, at the
latest the `pong` to the `ping` that follows `resumed`); until then the token it resumed with
still works, so a `resumed` lost with a dropped connection does not lose the seat.
"""

from __future__ import annotations

from server_helpers import MemoryServer, frame, last_game_message

from protocol import encode
from server.limits import Limits
from server.store import token_hash


def started(players: int = 2):
    server = MemoryServer(Limits(rate=1e9, burst=10**9, dead_after=10**6, idle_timeout=10**6))
    table, clients = server.table_with(players, options={"target": 30})
    for c in clients:
        c.received()
    return server, table, clients


def test_a_drop_holds_the_seat_and_tells_the_table():
    server, table, (a, b) = started()
    b.drop()
    status = a.one("seat_status")
    assert status == {
        "type": "seat_status",
        "table": table,
        "slot": 1,
        "seat": 1,
        "name": "p1",
        "connected": False,
        "bot": False,
        "left": False,  # a lost connection, not a `leave`
        "auto": False,
    }
    info = server.hub.lobby.table(table).info()
    assert info["seats"][1] == {"name": "p1", "connected": False, "bot": False}
    assert info["state"] == "playing"


def test_the_game_waits_for_the_dropped_seat_and_other_tables_carry_on():
    server, _table, (a, b) = started()
    _other_table, (c, _d) = server.table_with(2)
    a.request({"type": "act", "version": 0, "action": ["step", 1]})
    b.drop()
    # seat 1 must act; nobody else can act for it
    assert a.error(a.request({"type": "act", "version": 1, "action": ["step", 1]})) == (
        "action/not_your_turn"
    )
    c.received()
    c.one("update", c.request({"type": "act", "version": 0, "action": ["step", 2]}))


def test_resume_restores_the_seat_with_a_full_snapshot_and_a_new_token():
    server, table, (a, b) = started()
    a.request({"type": "act", "version": 0, "action": ["step", 1]})
    old_token = b.token
    b.drop()
    a.received()
    back = server.greeted("whoever")
    got = back.request({"type": "resume", "token": old_token})
    resumed = back.one("resumed", got)
    assert resumed["seat"] == 1 and resumed["slot"] == 1
    assert resumed["token"] != old_token
    snap = back.one("snapshot", got)
    engine = server.hub.lobby.table(table).engine
    assert snap["version"] == 1 and snap["view"] == engine.view(1)
    assert [x["action"] for x in snap["legal"]] == [["step", 1], ["step", 2]]
    assert snap["events"] == [{"type": "stepped", "seat": 0, "by": 1}, snap["events"][1]]
    assert a.one("seat_status")["connected"] is True
    back.one("update", back.request({"type": "act", "version": 1, "action": ["step", 2]}))


def test_a_rotated_token_is_useless_to_any_other_connection():
    server, table, (_a, b) = started()
    old_token = b.token
    b.drop()
    back = server.greeted("b again")
    got = back.request({"type": "resume", "token": old_token})
    new_token = back.one("resumed", got)["token"]
    assert [m["type"] for m in got][:3] == ["resumed", "snapshot", "ping"]
    # Any message proves nothing (it may have been sent before `resumed` arrived) ...
    back.send({"type": "pong"})
    back.send({"type": "ping", "id": got[2]["id"]})
    assert server.hub.lobby.table(table).places[1].previous_hash == token_hash(old_token)
    # ... the pong to the ping sent after `resumed` does: the old token dies.
    back.send({"type": "pong", "id": got[2]["id"]})
    thief = server.greeted("thief")
    assert thief.error(thief.request({"type": "resume", "token": old_token})) == (
        "session/bad_token"
    )
    assert thief.error(thief.request({"type": "act", "version": 0, "action": ["step", 1]})) == (
        "session/wrong_state"
    )
    assert new_token != old_token


def test_a_resumed_reply_lost_with_the_connection_does_not_lose_the_seat():
    server, table, (a, b) = started()
    old_token = b.token
    b.drop()
    first = server.greeted("b again")
    lost_token = first.one("resumed", first.request({"type": "resume", "token": old_token}))[
        "token"
    ]
    first.drop()  # before the client read `resumed`: it only knows the old token
    second = server.greeted("b once more")
    got = second.request({"type": "resume", "token": old_token})
    newest = second.one("resumed", got)["token"]
    assert second.one("snapshot", got)["seat"] == 1
    second.send({"type": "pong", "id": second.one("ping", got)["id"]})
    for token in (old_token, lost_token):  # neither works any more, for anyone
        thief = server.greeted("thief")
        assert thief.error(thief.request({"type": "resume", "token": token})) == (
            "session/bad_token"
        )
    assert newest not in (old_token, lost_token)
    a.request({"type": "act", "version": 0, "action": ["step", 1]})
    second.received()
    second.one("update", second.request({"type": "act", "version": 1, "action": ["step", 2]}))
    assert server.hub.lobby.table(table).version == 2


def test_a_message_sent_behind_resume_before_the_reply_arrived_does_not_kill_the_token():
    server, _table, (_a, b) = started()
    old_token = b.token
    b.drop()
    first = server.greeted("b again")
    # `resume` and, before any reply can have arrived, a chat line and a ping of its own.
    first.send_raw(
        frame(encode({"type": "resume", "token": old_token, "id": 1}))
        + frame(encode({"type": "chat", "text": "back!"}))
        + frame(encode({"type": "ping", "id": 2}))
    )
    first.drop()  # gone before reading `resumed`: it only knows the old token
    second = server.greeted("b once more")
    second.one("resumed", second.request({"type": "resume", "token": old_token}))


def test_leaving_before_the_pong_still_completes_the_rotation():
    server, _table, (_a, b) = started()
    old_token = b.token
    b.drop()
    back = server.greeted("b again")
    back.send({"type": "resume", "token": old_token, "id": 1})
    back.send({"type": "leave", "id": 2})  # pipelined, before reading `resumed`
    got = back.received()
    back.send({"type": "pong", "id": back.one("ping", got)["id"]})
    thief = server.greeted("thief")
    assert thief.error(thief.request({"type": "resume", "token": old_token})) == (
        "session/bad_token"
    )
    # ... while the new token still takes the seat back
    again = server.greeted("b for good")
    again.one(
        "resumed", again.request({"type": "resume", "token": back.one("resumed", got)["token"]})
    )


def test_the_new_token_works_too_before_the_client_confirmed_it():
    server, _table, (_a, b) = started()
    old_token = b.token
    b.drop()
    first = server.greeted("b again")
    new_token = first.one("resumed", first.request({"type": "resume", "token": old_token}))["token"]
    first.drop()  # it read the reply, then lost the connection before sending anything
    second = server.greeted("b once more")
    second.one("resumed", second.request({"type": "resume", "token": new_token}))
    # The client never had the token before `new_token` as its only one, so it died now.
    thief = server.greeted("thief")
    assert thief.error(thief.request({"type": "resume", "token": old_token})) == (
        "session/bad_token"
    )


def test_hello_with_a_token_resumes_right_after_welcome():
    server, _table, (_a, b) = started()
    token = b.token
    b.drop()
    back = server.client()
    got = back.request({"type": "hello", "version": 1, "name": "p1", "token": token})
    assert [m["type"] for m in got][:3] == ["welcome", "resumed", "snapshot"]


def test_hello_with_a_dead_token_still_welcomes_then_names_the_token_error():
    server, _table, (_a, _b) = started()
    back = server.client()
    got = back.request({"type": "hello", "version": 1, "name": "p1", "token": "nonsense"})
    assert [m["type"] for m in got] == ["welcome", "error"]
    assert got[1]["code"] == "session/bad_token"
    back.one("tables", back.request({"type": "list"}))  # in the lobby


def test_resuming_from_a_new_connection_evicts_a_half_dead_old_one():
    server, table, (a, b) = started()
    newer = server.greeted("p1 on wifi")
    newer.one("resumed", newer.request({"type": "resume", "token": b.token}))
    assert b.error() == "session/replaced"
    assert b.disconnected
    # the old connection going away later must not unseat the new one
    b.drop()
    assert server.hub.lobby.table(table).info()["seats"][1]["connected"] is True
    a.request({"type": "act", "version": 0, "action": ["step", 1]})
    newer.received()
    newer.one("update", newer.request({"type": "act", "version": 1, "action": ["step", 1]}))


def test_leaving_during_a_game_keeps_the_seat_for_the_token():
    _server, _table, (a, b) = started()
    token = b.token
    b.one("left", b.request({"type": "leave"}))
    assert a.one("seat_status")["connected"] is False
    b.one("resumed", b.request({"type": "resume", "token": token}))
    assert last_game_message(b)["type"] == "snapshot"


def test_a_dropped_place_at_a_waiting_table_is_held_too():
    server = MemoryServer()
    table, (_a, b) = server.table_with(2, start=False)
    token = b.token
    b.drop()
    seat = server.hub.lobby.table(table).info()["seats"][1]
    assert seat == {"name": "p1", "connected": False, "bot": False}
    back = server.greeted("p1")
    resumed = back.one("resumed", back.request({"type": "resume", "token": token}))
    assert resumed["seat"] is None and resumed["slot"] == 1


def test_a_table_left_unattended_too_long_is_closed_and_its_tokens_die():
    server = MemoryServer(Limits(rate=1e9, burst=10**9, abandoned_table_ttl=100, dead_after=10**6))
    table, (a, b) = server.table_with(2)
    tokens = [a.token, b.token]
    a.drop()
    b.drop()
    server.advance(99)
    assert table in server.hub.lobby.tables
    server.advance(1)
    assert table not in server.hub.lobby.tables
    back = server.greeted("p0")
    assert back.error(back.request({"type": "resume", "token": tokens[0]})) == ("session/bad_token")
