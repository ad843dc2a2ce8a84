"""Shared resources a few addresses cannot take from everyone else: tables, bots, ``list``."""

from __future__ import annotations

from typing import Any

from server_helpers import MemoryServer
from twisted.logger import formatEvent

from server.limits import Limits

FAST: dict[str, Any] = {"rate": 1e9, "burst": 10**9}
TTLS: dict[str, Any] = {"vacant_table_ttl": 30, "empty_table_ttl": 300, "dead_after": 10**6}
CREATE = {"type": "create", "game": "secret_race", "players": 2}


def fill(client: Any) -> int:
    """Create tables from ``client`` until the server refuses; how many it got."""
    made = 0
    while True:
        got = client.request(CREATE)
        if any(m["type"] == "error" for m in got):
            assert client.error(got) == "limit/tables"
            return made
        made += 1


# --- tables ------------------------------------------------------------------------------------


def test_a_few_addresses_creating_all_they_may_leave_tables_for_a_newcomer():
    # The trial: 25 addresses x tables_per_address 20 took all 500 tables. Scaled down: 5 x 10.
    server = MemoryServer(Limits(max_tables=50, tables_per_address=10, **FAST))
    for n in range(5):
        fill(server.greeted(f"hog{n}", host=f"10.0.1.{n}"))
    newcomer = server.greeted("newcomer", host="10.0.2.1")
    newcomer.create()
    assert len(server.hub.lobby.tables) < 50


def test_no_address_holds_more_tables_than_it_leaves_free():
    server = MemoryServer(Limits(max_tables=30, tables_per_address=100, **FAST))
    # An address may open one more while it holds fewer than are free: 15 held, 15 free...
    assert fill(server.greeted("hog", host="10.0.1.1")) == 15
    assert fill(server.greeted("pig", host="10.0.1.2")) == 8  # ...8 held, 7 free
    assert fill(server.greeted("ann", host="10.0.1.3")) == 4
    assert fill(server.greeted("bob", host="10.0.1.4")) == 2
    assert fill(server.greeted("cat", host="10.0.1.5")) == 1  # the last: to one holding none
    assert len(server.hub.lobby.tables) == 30


def test_a_waiting_table_nobody_sits_at_is_closed_after_the_short_grace():
    server = MemoryServer(Limits(**TTLS, **FAST))
    creator = server.greeted("creator")
    table = creator.create()
    creator.drop()
    server.advance(29)
    assert table in server.hub.lobby.tables
    server.advance(1)
    assert table not in server.hub.lobby.tables


def test_a_waiting_table_everyone_has_left_is_closed_after_the_short_grace():
    server = MemoryServer(Limits(**TTLS, **FAST))
    host = server.greeted("host")
    table = host.create()
    host.join(table)
    server.advance(100)
    host.one("left", host.request({"type": "leave"}))
    server.advance(29)
    assert table in server.hub.lobby.tables
    server.advance(1)
    assert table not in server.hub.lobby.tables


def test_a_lan_party_host_keeps_the_table_while_friends_take_their_time():
    server = MemoryServer(Limits(**TTLS, **FAST))
    host = server.greeted("host", host="192.168.1.10")
    table = host.create("secret_race", 3)
    host.join(table)
    server.advance(200)  # friends still finding the address
    friend = server.greeted("friend", host="192.168.1.11")
    friend.join(table)
    host.drop()  # the host's laptop sleeps: its place is held, the table stays
    server.advance(250)
    late = server.greeted("late", host="192.168.1.12")
    late.join(table)
    assert table in server.hub.lobby.tables


def test_a_waiting_table_whose_people_hold_places_but_are_away_keeps_the_longer_ttl():
    server = MemoryServer(Limits(**TTLS, **FAST))
    host = server.greeted("host")
    table = host.create()
    host.join(table)
    host.drop()  # the place stays held for its token
    server.advance(299)
    assert table in server.hub.lobby.tables
    server.advance(1)
    assert table not in server.hub.lobby.tables


# --- bots --------------------------------------------------------------------------------------


def bot_server(**limits: Any) -> tuple[MemoryServer, list[Any]]:
    server = MemoryServer(Limits(**FAST, **limits))
    started: list[Any] = []

    def spawn(argv: list[str], env: dict[str, str], process: Any) -> None:
        process.transport = StoppedBots(process)
        started.append(process)

    server.hub.bots.spawn = spawn
    server.hub.bots.address = ("127.0.0.1", 7777)
    return server, started


class StoppedBots:
    """A bot program's transport: SIGTERM ends it at once."""

    def __init__(self, process: Any) -> None:
        self.process = process
        self.signals: list[str] = []

    def signalProcess(self, signal: str) -> None:
        self.signals.append(signal)
        self.process.processEnded(None)


def add_bots(server: MemoryServer, host: str, tables: int) -> tuple[int, list[Any]]:
    """Sit a person from ``host`` at ``tables`` tables of 4, each asking for bots until refused;
    how many bots they got, and the people."""
    added, people = 0, []
    for n in range(tables):
        person = server.greeted(f"p{n}", host=host)
        person.join(person.create("secret_race", 4))
        people.append(person)
        for _ in range(3):
            got = person.request({"type": "add_bot", "level": "easy"})
            if any(m["type"] == "error" for m in got):
                assert person.error(got) == "limit/bots"
                return added, people
            added += 1
    return added, people


def test_one_address_gets_only_its_share_of_the_bots():
    server, _started = bot_server(max_bots=8, bots_per_address=4)
    assert add_bots(server, "10.0.3.1", tables=3)[0] == 4
    assert add_bots(server, "10.0.3.2", tables=1)[0] == 3  # room left for another address


def test_the_bots_of_a_waiting_table_its_people_left_are_stopped_after_the_short_grace():
    server, started = bot_server(max_bots=8, vacant_table_ttl=30, empty_table_ttl=300)
    _added, (person,) = add_bots(server, "10.0.3.1", tables=1)
    person.one("left", person.request({"type": "leave"}))
    server.advance(30)
    assert [p.transport.signals for p in started] == [["TERM"]] * 3
    assert server.hub.bots.running == []
    assert add_bots(server, "10.0.3.1", tables=1)[0] == 3  # the share is free again


# --- list --------------------------------------------------------------------------------------


def listed(client: Any, **fields: Any) -> dict[str, Any]:
    return client.one("tables", client.request({"type": "list", **fields}))


def test_list_answers_a_page_of_tables_not_all_of_them():
    # The trial: a list of 500 tables was a 59 KB reply costing 2.9 ms, on demand.
    server = MemoryServer(Limits(max_tables=500, tables_per_address=500, **FAST))
    creator = server.greeted("creator", host="10.0.4.1")
    for _ in range(120):
        creator.create()
    reader = server.greeted("reader", host="10.0.4.2")
    first = listed(reader)
    assert [t["id"] for t in first["tables"]] == list(range(1, 51)) and first["more"]
    assert len(reader.frames[-1]) < 8000
    rest = listed(reader, after=50, limit=100)
    assert [t["id"] for t in rest["tables"]] == list(range(51, 121)) and not rest["more"]


def test_list_filters_by_game_and_state():
    server = MemoryServer(Limits(**FAST))
    server.table_with(2)  # playing: table 1
    creator = server.greeted("creator", host="10.0.4.1")
    creator.create("cosmic_run", 2)  # 2
    creator.create("secret_race", 3)  # 3
    reader = server.greeted("reader", host="10.0.4.2")
    assert [t["id"] for t in listed(reader, game="secret_race")["tables"]] == [1, 3]
    assert [t["id"] for t in listed(reader, state="waiting")["tables"]] == [2, 3]
    got = listed(reader, game="secret_race", state="waiting", limit=1)
    assert [t["id"] for t in got["tables"]] == [3] and not got["more"]
    too_many = reader.request({"type": "list", "limit": 101})
    assert reader.error(too_many) == "proto/bad_message"


# --- refusals in the log -----------------------------------------------------------------------


def refusal_lines(logged: list[dict[str, Any]]) -> list[str]:
    return [formatEvent(e) for e in logged if "refused" in formatEvent(e)]


def test_refused_connections_are_logged_once_then_summed_up_once_a_minute(logged):
    # The trial: every refusal was a line, about 330 MB of log an hour under churn.
    server = MemoryServer(Limits(connections_per_address=1, max_connections=3, **FAST))
    server.greeted("kept", host="10.0.5.1")
    for _ in range(100):
        server.client("10.0.5.1")  # limit/connections
    server.greeted("b", host="10.0.5.2")
    server.greeted("c", host="10.0.5.3")
    for n in range(20):
        server.client(f"10.0.6.{n}")  # limit/server_full
    assert refusal_lines(logged) == [
        "refused 10.0.5.1: limit/connections (more refusals are summed up once a minute)",
        "refused 10.0.6.0: limit/server_full (more refusals are summed up once a minute)",
    ]
    server.advance(59)
    assert len(refusal_lines(logged)) == 2
    server.advance(1)
    assert refusal_lines(logged)[2:] == [
        "refused 120 connections in the last 60 s: limit/connections 100, limit/server_full 20"
    ]
    server.advance(120)  # nothing more refused: nothing more said
    assert len(refusal_lines(logged)) == 3


def abandon(server: MemoryServer, client: Any) -> int:
    """``client`` opens a one-player game, starts it and leaves it (as if it had bots)."""
    table = client.create("secret_race", 1)
    client.join(table)
    client.one("started", client.request({"type": "start"}))
    client.one("left", client.request({"type": "leave"}))
    return table


def test_games_nobody_attends_make_room_for_a_newcomer_instead_of_holding_it_for_an_hour():
    """The trial: 29 addresses repeating create/join/start/leave of a one-player game filled
    all 500 tables for an hour. Scaled down: 10 addresses fill 10 tables."""
    server = MemoryServer(Limits(max_tables=10, tables_per_address=4, **TTLS, **FAST))
    hogs = [server.greeted(f"hog{n}", host=f"10.0.1.{n}") for n in range(10)]
    opened = [abandon(server, hog) for hog in hogs]
    assert len(server.hub.lobby.tables) == 10
    newcomer = server.greeted("newcomer", host="10.0.2.1")
    assert newcomer.error(newcomer.request(CREATE)) == "limit/tables"  # just left: still theirs
    server.advance(300)  # five minutes with nobody at them: they count for nobody now
    table = newcomer.create()
    tables = server.hub.lobby.tables
    assert table in tables and len(tables) == 10
    assert opened[0] not in tables and all(t in tables for t in opened[1:])  # the oldest went
    # An address whose games are abandoned is not held back by them either.
    assert hogs[0].create() in tables
    assert opened[1] not in tables


def test_an_abandoned_game_stays_while_there_is_room_and_its_player_can_come_back():
    server = MemoryServer(Limits(max_tables=10, **TTLS, **FAST))
    ann = server.greeted("ann")
    table = abandon(server, ann)
    server.advance(1200)
    server.greeted("bob", host="10.0.0.2").create()
    assert table in server.hub.lobby.tables
    resumed = ann.request({"type": "resume", "token": ann.token})
    assert ann.one("resumed", resumed)["table"]["id"] == table
