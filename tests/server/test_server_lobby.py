"""The lobby: list, create, join, spectate, leave, start, chat, and every error they can give."""

from __future__ import annotations

import pytest
from server_helpers import MemoryServer

from server.limits import Limits


def test_list_shows_every_table_with_game_seats_and_state():
    server = MemoryServer()
    ann = server.greeted("Ann")
    assert ann.one("tables", ann.request({"type": "list"}))["tables"] == []
    table = ann.create("secret_race", 3, options={"target": 5})
    ann.join(table)
    bob = server.greeted("Bob")
    [info] = bob.one("tables", bob.request({"type": "list"}))["tables"]
    assert info["id"] == table
    assert info["game"] == "secret_race"
    assert info["players"] == 3
    assert info["options"] == {"target": 5}
    assert info["state"] == "waiting"
    assert info["seats"] == [{"name": "Ann", "connected": True, "bot": False}, None, None]
    assert info["seating"] == "random" and info["autostart"] is False
    assert info["version"] == 0 and info["spectators"] == 0


def test_create_is_checked_by_the_rules_of_the_game():
    server = MemoryServer()
    ann = server.greeted("Ann")
    assert ann.error(ann.request({"type": "create", "game": "chess", "players": 2})) == (
        "lobby/unknown_game"
    )
    assert ann.error(ann.request({"type": "create", "game": "secret_race", "players": 5})) == (
        "lobby/bad_players"
    )
    bad = {"type": "create", "game": "secret_race", "players": 2, "options": {"speed": 3}}
    assert ann.error(ann.request(bad)) == "lobby/bad_options"
    assert ann.error(ann.request({**bad, "options": {"target": "far"}})) == "lobby/bad_options"
    assert server.hub.lobby.tables == {}


def test_the_cosmic_run_engine_refuses_options_it_does_not_have():
    server = MemoryServer()
    ann = server.greeted("Ann")
    bad = {"type": "create", "game": "cosmic_run", "players": 2, "options": {"x": 1}}
    assert ann.error(ann.request(bad)) == "lobby/bad_options"


def test_the_table_count_is_limited():
    server = MemoryServer(Limits(max_tables=2, rate=1e9, burst=10**9))
    server.greeted("Ann", host="10.0.0.1").create()
    server.greeted("Bob", host="10.0.0.2").create()
    cat = server.greeted("Cat", host="10.0.0.3")
    assert cat.error(cat.request({"type": "create", "game": "secret_race", "players": 2})) == (
        "limit/tables"
    )


def test_lobby_sessions_see_table_updates_after_the_reply():
    server = MemoryServer()
    ann, bob = server.greeted("Ann"), server.greeted("Bob")
    got = ann.request({"type": "create", "game": "secret_race", "players": 2})
    assert [m["type"] for m in got] == ["created", "table_update"]
    push = bob.one("table_update")
    assert push["table"]["id"] == got[0]["table"]["id"]
    ann.join(push["table"]["id"])
    assert bob.one("table_update")["table"]["seats"][0]["name"] == "Ann"


def test_join_errors_are_named():
    server = MemoryServer()
    ann, bob, cyd = server.greeted("Ann"), server.greeted("Bob"), server.greeted("Cyd")
    table = ann.create(players=2)
    assert ann.error(ann.request({"type": "join", "table": 99})) == "lobby/no_such_table"
    assert ann.error(ann.request({"type": "join", "table": table, "slot": 2})) == (
        "lobby/no_such_seat"
    )
    ann.join(table, slot=1)
    assert bob.error(bob.request({"type": "join", "table": table, "slot": 1})) == (
        "lobby/seat_taken"
    )
    assert bob.error(bob.request({"type": "join", "table": table, "name": "Ann"})) == (
        "lobby/name_taken"
    )
    bob.join(table)
    assert cyd.error(cyd.request({"type": "join", "table": table})) == "lobby/table_full"
    ann.one("started", ann.request({"type": "start"}))
    cyd.one("table_update")
    assert cyd.error(cyd.request({"type": "join", "table": table})) == "lobby/not_waiting"


def test_joined_returns_a_secret_token_and_the_place():
    server = MemoryServer()
    ann = server.greeted("Ann")
    table = ann.create(players=3)
    reply = ann.join(table, slot=2, name="Captain")
    assert reply["slot"] == 2
    assert isinstance(reply["token"], str) and len(reply["token"]) >= 16
    assert reply["table"]["seats"][2] == {"name": "Captain", "connected": True, "bot": False}


def test_start_needs_every_place_held_and_happens_once():
    server = MemoryServer()
    table, (host, p1) = server.table_with(2, start=False)
    p1.one("left", p1.request({"type": "leave"}))
    assert host.error(host.request({"type": "start"})) == "table/not_ready"
    p1.join(table)
    host.received()
    got = host.request({"type": "start"})
    assert [m["type"] for m in got[:2]] == ["started", "snapshot"]
    assert got[0]["id"] == host._next_id - 1
    assert host.error(host.request({"type": "start"})) == "table/already_started"


def test_started_names_every_seat_and_tells_each_person_theirs():
    server = MemoryServer()
    _table, clients = server.table_with(3, start=False)
    clients[0].request({"type": "start"})
    seats = {}
    for client in clients:
        client.received()
        started = next(m for m in client.log if m["type"] == "started")
        seats[started["seat"]] = started["seats"][started["seat"]]
    assert seats == {0: "p0", 1: "p1", 2: "p2"}  # fixed seating: place = seat


def test_random_seating_deals_people_into_seats_with_the_servers_generator():
    deals = set()
    for seed in range(8):
        server = MemoryServer(seed=seed)
        host = server.greeted("host")
        table = host.create(players=3)
        clients = [host]
        host.join(table, name="a")
        for name in "bc":
            c = server.greeted(name)
            c.join(table, name=name)
            clients.append(c)
        host.request({"type": "start"})
        started = next(m for m in host.log if m["type"] == "started")
        deals.add(tuple(started["seats"]))
    assert len(deals) > 1  # not always the join order


def test_autostart_starts_when_the_last_place_is_taken():
    server = MemoryServer()
    ann, bob = server.greeted("Ann"), server.greeted("Bob")
    table = ann.create(players=2, autostart=True)
    ann.join(table)
    bob.received()
    got = bob.request({"type": "join", "table": table})
    assert [m["type"] for m in got][:3] == ["joined", "started", "snapshot"]


def test_leaving_a_waiting_table_frees_the_place_and_kills_the_token():
    server = MemoryServer()
    ann = server.greeted("Ann")
    table = ann.create()
    token = ann.join(table)["token"]
    left = ann.one("left", ann.request({"type": "leave"}))
    assert left == {"type": "left", "table": table, "reason": "request", "id": left["id"]}
    assert server.hub.lobby.table(table).info()["seats"] == [None, None]
    assert ann.error(ann.request({"type": "resume", "token": token})) == "session/bad_token"


def test_spectators_are_limited_per_table():
    server = MemoryServer(Limits(max_spectators=1, rate=1e9, burst=10**9))
    table, _ = server.table_with(2)
    first, second = server.greeted("w1"), server.greeted("w2")
    first.one("spectating", first.request({"type": "spectate", "table": table}))
    assert second.error(second.request({"type": "spectate", "table": table})) == (
        "limit/spectators"
    )
    assert second.error(second.request({"type": "spectate", "table": 77})) == (
        "lobby/no_such_table"
    )


def test_spectating_a_waiting_table_gets_the_snapshot_at_the_start():
    server = MemoryServer()
    table, clients = server.table_with(2, start=False)
    watcher = server.greeted("w")
    got = watcher.request({"type": "spectate", "table": table})
    assert [m["type"] for m in got] == ["spectating", "table_update"]
    clients[0].request({"type": "start"})
    kinds = [m["type"] for m in watcher.received()]
    assert kinds[:2] == ["started", "snapshot"]
    snap = next(m for m in watcher.log if m["type"] == "snapshot")
    assert snap["seat"] is None and snap["legal"] == []


def test_lobby_chat_reaches_the_lobby_only_and_echoes_the_id_to_the_sender():
    server = MemoryServer()
    _table, (host, _) = server.table_with(2, start=False)
    ann, bob = server.greeted("Ann"), server.greeted("Bob")
    got = ann.one("chat", ann.request({"type": "chat", "text": "anyone for a race?"}))
    assert got["from"] == "Ann" and got["scope"] == "lobby" and "id" in got
    heard = bob.one("chat")
    assert heard["text"] == "anyone for a race?" and "id" not in heard
    assert [m for m in host.received() if m["type"] == "chat"] == []


def test_table_chat_reaches_seats_and_spectators_under_the_seat_name():
    server = MemoryServer()
    table, (host, p1) = server.table_with(2)
    watcher = server.greeted("w")
    watcher.request({"type": "spectate", "table": table})
    lobby = server.greeted("lobbyist")
    p1.request({"type": "chat", "text": "gl"})
    for client in (host, watcher):
        heard = client.one("chat")
        assert heard == {
            "type": "chat",
            "from": "p1",
            "text": "gl",
            "scope": "table",
            "table": table,
        }
    watcher.request({"type": "chat", "text": "go p1!"})
    assert p1.one("chat")["from"] == "w"
    assert [m for m in lobby.received() if m["type"] == "chat"] == []


@pytest.mark.parametrize("seconds", [299, 300])
def test_a_waiting_table_nobody_is_connected_to_is_closed_after_its_ttl(seconds):
    server = MemoryServer()
    ann = server.greeted("Ann")
    table = ann.create()
    ann.join(table)
    ann.drop()  # her place stays held for its token, for empty_table_ttl
    server.advance(seconds)
    assert (table in server.hub.lobby.tables) == (seconds < 300)


def test_a_finished_table_closes_once_nobody_is_there_and_sends_everyone_back():
    server = MemoryServer(Limits(dead_after=10**6, rate=1e9, burst=10**9))
    table, clients = server.table_with(1, options={"target": 1})
    host = clients[0]
    watcher = server.greeted("w")
    watcher.request({"type": "spectate", "table": table})
    snap = next(m for m in host.log if m["type"] == "snapshot")
    host.request({"type": "act", "version": 0, "action": snap["legal"][0]["action"]})
    assert any(m["type"] == "game_over" for m in host.log)
    host.one("left", host.request({"type": "leave"}))
    server.advance(1)
    assert table in server.hub.lobby.tables  # the spectator still watches
    server.advance(600)
    assert table not in server.hub.lobby.tables
    left = watcher.one("left")
    assert left["reason"] == "closed"
    watcher.one("tables", watcher.request({"type": "list"}))  # back in the lobby


def test_one_address_may_hold_only_so_many_open_tables():
    server = MemoryServer(Limits(rate=1e9, burst=10**9, tables_per_address=2))
    ann = server.greeted("Ann", host="10.0.0.7")
    ann.create("secret_race", 2)
    ann.create("secret_race", 2)
    third = {"type": "create", "game": "secret_race", "players": 2}
    assert ann.error(ann.request(third)) == "limit/tables"
    bob = server.greeted("Bob", host="10.0.0.8")
    bob.create("secret_race", 2)  # another address is not affected
