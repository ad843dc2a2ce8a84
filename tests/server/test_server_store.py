"""The server's database: records and history of finished games, restarts that lose nothing,
storage failures that change nothing, and files that are not ours left alone.

A "restart" here is a second :class:`MemoryServer` opened on the same database file while the
first is simply abandoned (as a killed process would be): nothing of the first is closed.
"""

from __future__ import annotations

import hashlib
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from server_helpers import MemoryServer, Registry, last_game_message, play_random_game
from twisted.logger import LogLevel, formatEvent

from games import records
from server.hub import BOT_RETURN_GRACE
from server.store import (
    SCHEMA_VERSION,
    StorageFailed,
    Store,
    StoreError,
    token_hash,
)
from server.store_records import load_record


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "server.db"


def server_on(path: Path, seed: int = 1) -> MemoryServer:
    return MemoryServer(seed=seed, store=Store.open(path, server="test"), registry=Registry())


def act(client: Any) -> dict[str, Any]:
    """Play the first legal action of the client's latest game message; returns the reply."""
    last = last_game_message(client)
    assert last["legal"], "not this client's turn"
    got = client.request(
        {"type": "act", "version": last["version"], "action": last["legal"][0]["action"]}
    )
    return got[0]


def mover(clients: list[Any]) -> Any:
    for client in clients:
        if last_game_message(client)["legal"]:
            return client
    return None


def play_to_end(clients: list[Any]) -> int:
    moves = 0
    while (who := mover(clients)) is not None:
        assert act(who)["type"] == "update"
        for client in clients:
            client.received()
        moves += 1
    return moves


def finished_game(server: MemoryServer, target: int = 8) -> tuple[int, list[Any]]:
    table, clients = server.table_with(2, options={"target": target})
    play_to_end(clients)
    return table, clients


# --- history and records --------------------------------------------------------------------


def test_a_finished_game_is_in_the_history_and_its_record_replays_it(db: Path) -> None:
    server = server_on(db)
    table, clients = finished_game(server)
    over = clients[0].one("game_over", clients[0].log)
    page = clients[0].one("history", clients[0].request({"type": "history"}))
    assert page["more"] is False
    [game] = page["games"]
    assert game["table"] == table and game["game"] == "secret_race"
    assert game["seats"] == over["seats"] and game["bots"] == [None, None]
    assert (game["scores"], game["ranking"]) == (over["scores"], over["ranking"])
    record = clients[1].one("record", clients[1].request({"type": "record", "table": table}))
    rec = record["record"]
    assert rec["format"] == records.FORMAT and rec["seats"][0]["name"] == "p0"
    assert [a["version"] for a in rec["actions"]] == list(range(over["version"]))
    assert rec["result"] == {"scores": over["scores"], "ranking": over["ranking"]}
    # Replaying the seed and actions gives the final view every seat saw.
    state = server.registry.get("secret_race").new(2, rec["seed"], rec["options"])
    for entry in rec["actions"]:
        assert state.current_player == entry["seat"]
        state.apply(tuple(entry["action"]))
    for seat, client in enumerate(clients):
        assert last_game_message(client)["view"] == state.view(seat)


def test_a_record_is_refused_until_the_game_is_over(db: Path) -> None:
    server = server_on(db)
    table, clients = server.table_with(2)
    act(mover(clients))
    assert clients[0].error(clients[0].request({"type": "record", "table": table})) == (
        "table/not_finished"
    )
    assert clients[0].error(clients[0].request({"type": "record", "table": 99})) == (
        "lobby/no_such_table"
    )
    # A waiting table has no game yet: not over either; once closed, forgotten.
    zed = server.greeted("zed")
    other = zed.create("secret_race", 2)
    assert clients[0].error(clients[0].request({"type": "record", "table": other})) == (
        "table/not_finished"
    )
    server.advance(server.hub.limits.empty_table_ttl + 2, step=30)
    late = server.greeted("late")
    assert late.error(late.request({"type": "record", "table": other})) == "lobby/no_such_table"


def test_history_comes_in_pages_newest_first(db: Path) -> None:
    server = server_on(db)
    tables = [finished_game(server)[0] for _ in range(5)]
    viewer = server.greeted("viewer")
    first = viewer.one("history", viewer.request({"type": "history", "limit": 2}))
    assert [g["table"] for g in first["games"]] == tables[::-1][:2] and first["more"]
    before = first["games"][-1]["table"]
    rest = viewer.one("history", viewer.request({"type": "history", "before": before}))
    assert [g["table"] for g in rest["games"]] == tables[::-1][2:] and not rest["more"]


def test_a_finished_game_outlives_its_table(db: Path) -> None:
    server = server_on(db)
    table, clients = finished_game(server)
    for client in clients:
        client.request({"type": "leave"})
    server.advance(2)
    assert table not in server.hub.lobby.tables  # closed: nobody is there
    rec = clients[0].one("record", clients[0].request({"type": "record", "table": table}))
    assert rec["record"]["result"] is not None


# --- restarts -----------------------------------------------------------------------------------


def test_a_restarted_server_takes_up_a_game_where_it_was(db: Path) -> None:
    first = server_on(db)
    table, clients = first.table_with(2, options={"target": 30})
    for _ in range(5):
        act(mover(clients))
        for client in clients:
            client.received()
    before = [last_game_message(c) for c in clients]
    tokens = [c.token for c in clients]

    second = server_on(db, seed=2)  # the first one is gone without a goodbye
    back = []
    for name, token, seen in zip(["p0", "p1"], tokens, before, strict=True):
        client = second.greeted(name)
        got = client.request({"type": "resume", "token": token})
        resumed = client.one("resumed", got)
        assert resumed["table"]["id"] == table and resumed["table"]["state"] == "playing"
        snapshot = client.one("snapshot", got)
        assert snapshot["version"] == seen["version"] == 5
        assert snapshot["view"] == seen["view"] and snapshot["legal"] == seen["legal"]
        client.token = resumed["token"]
        back.append(client)
    moves = play_to_end(back)
    record = back[0].one("record", back[0].request({"type": "record", "table": table}))["record"]
    assert len(record["actions"]) == 5 + moves

    # The same game without the restart: a server seeded alike deals the same seed.
    alone = MemoryServer(seed=1, store=Store.open(":memory:"), registry=Registry())
    table2, clients2 = alone.table_with(2, options={"target": 30})
    for entry in record["actions"]:
        client = clients2[entry["seat"]]
        client.request({"type": "act", "version": entry["version"], "action": entry["action"]})
    again = clients2[0].one("record", clients2[0].request({"type": "record", "table": table2}))
    untimed = {"created", "started", "finished", "table", "server"}

    def plain(rec: dict[str, Any]) -> dict[str, Any]:
        rec = {k: v for k, v in rec.items() if k not in untimed}
        rec["actions"] = [{k: v for k, v in a.items() if k != "at"} for a in rec["actions"]]
        return rec

    assert plain(again["record"]) == plain(record)


def test_a_waiting_table_comes_back_waiting_with_its_places(db: Path) -> None:
    first = server_on(db)
    host = first.greeted("host")
    table = host.create("secret_race", 3)
    reply = host.join(table, name="Ann")
    second = server_on(db)
    listing = second.greeted("x").one("tables", second.greeted("y").request({"type": "list"}))
    [info] = listing["tables"]
    assert info["id"] == table and info["state"] == "waiting"
    assert info["seats"][0] == {"name": "Ann", "connected": False, "bot": False}
    again = second.greeted("ann")
    resumed = again.one("resumed", again.request({"type": "resume", "token": reply["token"]}))
    assert resumed["slot"] == 0
    # New tables never reuse an id the database knows.
    assert second.greeted("z").create("secret_race", 2) == table + 1


def test_a_token_not_yet_confirmed_still_works_after_a_restart(db: Path) -> None:
    first = server_on(db)
    _table, clients = first.table_with(2)
    old = clients[1].token
    clients[1].drop()
    back = first.client()
    got = back.request({"type": "hello", "version": 1, "name": "p1", "token": old, "id": 1})
    back.one("resumed", got)  # ... and the process dies before the client's pong arrives
    second = server_on(db)
    client = second.greeted("p1")
    assert client.one("resumed", client.request({"type": "resume", "token": old}))


def test_the_database_holds_token_hashes_only(db: Path) -> None:
    server = server_on(db)
    _table, clients = server.table_with(2)
    clients[0].drop()
    again = server.client()
    got = again.request({"type": "hello", "version": 1, "name": "p0", "token": clients[0].token})
    new_token = again.one("resumed", got)["token"]
    data = b"".join(p.read_bytes() for p in db.parent.iterdir())
    for token in (clients[0].token, clients[1].token, new_token):
        assert token.encode() not in data
    assert token_hash(clients[1].token).encode() in data


def test_a_table_that_no_longer_replays_is_set_aside_and_the_others_go_on(
    db: Path, logged: list[dict[str, Any]]
) -> None:
    first = server_on(db)
    broken, clients = first.table_with(2, options={"target": 30})
    act(mover(clients))
    fine, others = first.table_with(2, options={"target": 30})
    act(mover(others))
    raw = sqlite3.connect(db)
    raw.execute("UPDATE actions SET action=? WHERE table_id=?", ('["step",7]', broken))
    raw.commit()
    raw.close()
    second = server_on(db)
    assert set(second.hub.lobby.tables) == {fine}
    assert second.hub.store.state_of(broken) == "set_aside"
    errors = [formatEvent(e) for e in logged if e.get("log_level") == LogLevel.error]
    assert any(f"table {broken} is set aside" in e and "not legal" in e for e in errors)
    client = second.greeted("p0")
    assert client.error(client.request({"type": "resume", "token": clients[0].token})) == (
        "session/bad_token"
    )
    # ... and a third start does not try it again.
    third = server_on(db)
    assert set(third.hub.lobby.tables) == {fine}


def bot_table_then_restart(db: Path, cleanly: bool) -> tuple[MemoryServer, int, Any, Any]:
    """A waiting table with a person and an easy bot, the server stopped (``cleanly``, or
    as by ``kill -9``) and started again on its database: the new server, the table, the
    new server's spawn and the first run's bot program."""
    from test_server_bots import FakeSpawn

    first = server_on(db)
    first.hub.bots.spawn = spawn = FakeSpawn()
    first.hub.bots.address = ("127.0.0.1", 7777)
    host = first.greeted("host")
    table = host.create("secret_race", 2, seating="fixed")
    host.join(table)
    host.one("bot_added", host.request({"type": "add_bot", "level": "easy"}))
    [old_bot] = spawn.started
    if cleanly:
        first.hub.shutdown()
    second = server_on(db)
    second.hub.bots.spawn = FakeSpawn()
    second.hub.bots.address = ("127.0.0.1", 7777)
    second.hub.restart_bots()
    return second, table, second.hub.bots.spawn, old_bot


def test_bots_of_a_cleanly_stopped_server_are_started_again_at_once(db: Path) -> None:
    from test_server_bots import arrive

    second, table, spawn, _old = bot_table_then_restart(db, cleanly=True)
    [started] = spawn.started
    assert "--table" in started[0] and str(table) in started[0]
    arrive(second, started)
    info = second.hub.lobby.tables[table].info()
    assert info["seats"][1] == {"name": "Easy bot 1", "connected": True, "bot": True}


def test_after_a_crash_bots_still_running_take_their_seats_back_and_none_is_doubled(
    db: Path,
) -> None:
    from test_server_bots import arrive

    second, table, spawn, old_bot = bot_table_then_restart(db, cleanly=False)
    assert spawn.started == []  # the program of the run before may still run
    arrive(second, old_bot)  # it does: it comes back with its own token
    second.advance(BOT_RETURN_GRACE + 5)
    assert spawn.started == []
    info = second.hub.lobby.tables[table].info()
    assert info["seats"][1] == {"name": "Easy bot 1", "connected": True, "bot": True}


def test_after_a_crash_a_bot_that_does_not_come_back_is_started_again(db: Path) -> None:
    from test_server_bots import arrive

    second, table, spawn, _old = bot_table_then_restart(db, cleanly=False)
    second.advance(BOT_RETURN_GRACE - 2)
    assert spawn.started == []
    second.advance(4)
    [started] = spawn.started
    arrive(second, started)
    info = second.hub.lobby.tables[table].info()
    assert info["seats"][1] == {"name": "Easy bot 1", "connected": True, "bot": True}


def test_an_abandoned_game_is_kept_but_not_restored(db: Path) -> None:
    first = server_on(db)
    table, clients = first.table_with(2, options={"target": 30})
    act(mover(clients))
    for client in clients:
        client.drop()
    first.advance(first.hub.limits.abandoned_table_ttl + 2, step=60)
    assert table not in first.hub.lobby.tables
    assert first.hub.store.state_of(table) == "closed"
    assert server_on(db).hub.lobby.tables == {}


# --- storage failures -------------------------------------------------------------------------


def test_a_full_disk_refuses_the_action_and_changes_nothing(db: Path) -> None:
    server = server_on(db)
    table, clients = server.table_with(2, options={"target": 100})
    store = server.hub.store
    raw = store._db
    store.limit_size(store.page_count() + 1)  # as if the disk had one page left
    filler = 10_000
    refused = None
    for _ in range(200):
        # Filler rows next to the game's own actions, until the file is full...
        with pytest.raises(sqlite3.OperationalError, match="full"):
            while True:
                raw.execute("INSERT INTO actions VALUES (?, ?, 0, 'x', 0, NULL)", (table, filler))
                filler += 1
        # ... then the game's next action, which may still fit where it goes.
        who = mover(clients)
        before = last_game_message(who)
        others = [c for c in clients if c is not who]
        for client in clients:
            client.received()
        reply = act(who)
        if reply["type"] == "error":
            refused = reply
            break
        for client in clients:
            client.received()
    assert refused is not None and refused["code"] == "server/storage_full"
    assert server.hub.lobby.tables[table].version == before["version"]
    assert [m["type"] for m in others[0].received()] == []  # nobody heard of it
    store.limit_size(1_000_000)
    raw.execute("DELETE FROM actions WHERE version >= 10000")
    assert act(who)["version"] == before["version"] + 1
    record_state = raw.execute(
        "SELECT COUNT(*) FROM actions WHERE table_id=?", (table,)
    ).fetchone()[0]
    assert record_state == before["version"] + 1


def test_a_full_disk_does_not_keep_a_player_from_their_seat(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Resuming saves a new token first; when that write fails (the disk is full) the seat
    is given back under the token the player holds, which stays good (a restart included)."""
    server = server_on(db)
    table, clients = server.table_with(2, options={"target": 100})
    gone = clients[1]
    gone.drop()
    store = server.hub.store

    def disk_full(*args: Any) -> None:
        raise StorageFailed("the server could not save this (database or disk is full)", True)

    monkeypatch.setattr(store, "tokens_saved", disk_full)
    back = server.greeted("back")
    resumed = back.one("resumed", back.request({"type": "resume", "token": gone.token}))
    assert resumed["token"] == gone.token and resumed["table"]["id"] == table
    back.one("pong", back.request({"type": "ping", "id": "confirm"}))
    back.received()
    assert server.hub.lobby.tables[table].places[1].member is not None
    act(mover([clients[0], back]))  # the game goes on
    store.close()
    again = server_on(db)
    later = again.greeted("later")
    assert later.one("resumed", later.request({"type": "resume", "token": gone.token}))


# --- files that are not ours ----------------------------------------------------------------


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_file_that_is_not_sqlite_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("my shopping list\n")
    with pytest.raises(StoreError, match="not a Cosmoport database"):
        Store.open(path)
    assert path.read_text() == "my shopping list\n"


def test_another_programs_database_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE photos (name TEXT)")
    raw.commit()
    raw.close()
    digest = _digest(path)
    with pytest.raises(StoreError, match="another program"):
        Store.open(path)
    assert _digest(path) == digest


def test_a_database_of_a_newer_cosmoport_is_refused(db: Path) -> None:
    Store.open(db).close()
    raw = sqlite3.connect(db)
    raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    raw.commit()
    raw.close()
    digest = _digest(db)
    with pytest.raises(StoreError, match="newer Cosmoport") as info:
        Store.open(db)
    assert "\n" not in str(info.value)
    assert _digest(db) == digest


def test_a_damaged_database_is_refused_and_left_alone(db: Path) -> None:
    server = server_on(db)
    finished_game(server)
    server.hub.store.close()
    data = bytearray(db.read_bytes())
    page = 4096
    for offset in range(page + 100, len(data), 7):  # scribble over every page but the header
        data[offset] = 0xA5
    db.write_bytes(bytes(data))
    for extra in db.parent.glob("server.db-*"):
        extra.unlink()
    with pytest.raises(StoreError, match=r"cannot be used|damaged"):
        Store.open(db)
    assert db.read_bytes() == bytes(data)


def test_a_read_only_database_is_refused(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    Store.open(db).close()
    # Tests may run as root, who may write anything: the check asks os.access.
    monkeypatch.setattr("server.store.os.access", lambda path, mode: False)
    with pytest.raises(StoreError, match="read-only"):
        Store.open(db)


def test_an_empty_file_becomes_a_database(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    path.write_bytes(b"")
    store = Store.open(path)
    assert store.next_table_id() == 1


REPLAY_CASES = [
    *(("cosmic_run", players, None) for players in (1, 2, 3, 4)),
    *(("alien_artifacts", players, None) for players in (2, 3, 4, 5)),
    ("alien_artifacts", 3, {"factions": "choice"}),
]


@pytest.mark.parametrize(("game", "players", "options"), REPLAY_CASES, ids=str)
def test_random_games_of_both_games_replay_from_their_records_exactly(
    game: str, players: int, options: dict[str, str] | None
) -> None:
    """Hundreds of games recorded by the server (over all the cases): the record alone gives
    every view any seat or spectator was sent, and the result."""
    rng = random.Random(f"{game} {players} {options}")
    server = MemoryServer(seed=rng.randrange(1000))
    rounds = 25 if game == "cosmic_run" else 4
    for _ in range(rounds):
        clients, watchers, actions = play_random_game(
            server, game, players, rng, options, spectators=1
        )
        table = clients[0].one("game_over", clients[0].log)["table"]
        got = clients[0].request({"type": "record", "table": table})
        record = clients[0].one("record", got)["record"]
        records.check(record)
        seen: dict[tuple[int, Any], dict[str, Any]] = {}
        for client in [*clients, *watchers]:
            for msg in client.log:
                if msg["type"] in ("snapshot", "update") and msg.get("table") == table:
                    seen[(msg["version"], msg["seat"])] = msg["view"]
        compared = 0
        for step in records.replay(record):
            for seat in [*range(players), None]:
                if (step.version, seat) in seen:
                    assert step.state.view(seat) == seen[(step.version, seat)]
                    compared += 1
        assert compared >= len(actions)
        for client in [*clients, *watchers]:
            client.drop()
        server.advance(2)  # the finished table closes: nobody is there


def test_a_failing_database_refuses_a_new_table_and_keeps_nothing_of_it(db: Path) -> None:
    server = server_on(db)
    server.hub.store._db.execute(
        "CREATE TRIGGER broken BEFORE INSERT ON tables BEGIN SELECT RAISE(ABORT, 'I/O'); END"
    )
    host = server.greeted("host")
    assert host.error(host.request({"type": "create", "game": "secret_race", "players": 2})) == (
        "server/storage"
    )
    listing = host.one("tables", host.request({"type": "list"}))
    assert listing["tables"] == []
    server.hub.store._db.execute("DROP TRIGGER broken")
    assert host.create("secret_race", 2) == 1


def test_load_record_reads_a_game_from_a_database_a_server_may_still_be_using(
    db: Path, tmp_path: Path
) -> None:
    server = server_on(db)
    first, _ = finished_game(server)
    second, _ = finished_game(server)
    running, clients = server.table_with(2, options={"target": 30})
    act(mover(clients))
    assert load_record(db)["table"] == second  # the most recently finished
    assert load_record(db, first)["result"] is not None
    assert load_record(db, running)["result"] is None  # the owner of the file sees everything
    with pytest.raises(StoreError, match="no game of table 77"):
        load_record(db, 77)
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE x (y)").connection.commit()
    with pytest.raises(StoreError, match="not a Cosmoport database"):
        load_record(other)
    empty = tmp_path / "empty.db"
    Store.open(empty).close()
    with pytest.raises(StoreError, match="no finished game"):
        load_record(empty)


def test_a_record_names_the_bots_and_the_seats_they_took_over() -> None:
    from test_server_bots import arrive, away_game

    server, spawn, table, a, _b = away_game(bot_takeover_after=60.0)
    a.request({"type": "act", "version": 0, "action": ["step", 1]})
    server.advance(61)
    a.received()
    a.one("bot_added", a.request({"type": "add_bot", "level": "hard", "seat": 1}))
    bot = arrive(server, spawn.started[0])
    players = [a, bot]
    play_to_end(players)
    record = a.one("record", a.request({"type": "record", "table": table}))["record"]
    assert record["seats"] == [{"name": "p0", "bot": None}, {"name": "p1", "bot": None}]
    [takeover] = record["takeovers"]
    assert (takeover["seat"], takeover["version"], takeover["level"]) == (1, 1, "hard")
    history = a.one("history", a.request({"type": "history"}))["games"]
    assert history[0]["bots"] == [None, None]  # who sat there at the start


def test_a_seat_that_began_with_a_bot_keeps_it_in_the_record() -> None:
    from test_server_bots import arrive, bot_server

    server, spawn = bot_server()
    host = server.greeted("host")
    table = host.create("secret_race", 2, seating="fixed")
    host.join(table)
    host.one("bot_added", host.request({"type": "add_bot", "level": "greedy"}))
    bot = arrive(server, spawn.started[0])
    host.one("started", host.request({"type": "start"}))
    host.received()
    play_to_end([host, bot])
    record = host.one("record", host.request({"type": "record", "table": table}))["record"]
    assert [s["bot"] for s in record["seats"]] == [None, "greedy"] and record["takeovers"] == []


def test_the_server_id_is_made_once_per_file_and_kept_across_restarts(tmp_path: Path) -> None:
    """welcome.server_id: the same server whatever address reached it, and after a restart."""
    path = tmp_path / "server.db"
    first = Store.open(path)
    made = first.server_id
    first.close()
    again = Store.open(path)
    assert again.server_id == made and len(made) == 32
    again.close()
    assert Store.open(":memory:").server_id != Store.open(":memory:").server_id
    server = MemoryServer(store=Store.open(path))
    assert server.client().hello("Ann")["server_id"] == made


def test_a_table_that_closed_before_it_started_keeps_its_id_taken_after_a_restart(
    db: Path,
) -> None:
    """PROTOCOL.md: a table id is never handed out twice while the server keeps its database.
    A waiting table nobody holds a place at closes and is forgotten; its id is not."""
    first = server_on(db)
    table = first.greeted("host").create("secret_race", 2)
    first.advance(120)
    assert first.greeted("x").request({"type": "list"})[-1]["tables"] == []
    second = server_on(db)
    assert second.greeted("host").create("secret_race", 2) == table + 1


def test_a_finished_games_record_is_encoded_once_and_forgotten_with_its_table(db: Path) -> None:
    server = server_on(db)
    table, clients = finished_game(server)
    store = server.hub.store
    first = store.finished_record(table)
    assert first is not None and first[0] == store.record(table)
    again = store.finished_record(table)
    assert again is not None and again[1] is first[1]  # the same bytes, not encoded again
    replies = [c.one("record", c.request({"type": "record", "table": table})) for c in clients]
    assert replies[0]["record"] == replies[1]["record"] == first[0]
    store.forget(table)
    assert store.finished_record(table) is None
    assert clients[0].error(clients[0].request({"type": "record", "table": table})) == (
        "lobby/no_such_table"
    )


def test_an_unfinished_games_record_is_not_kept(db: Path) -> None:
    server = server_on(db)
    table, clients = server.table_with(2, options={"target": 30})
    assert server.hub.store.finished_record(table) is None
    assert clients[0].error(clients[0].request({"type": "record", "table": table})) == (
        "table/not_finished"
    )


_CAPPED = """
import os, resource, sys
from server.store import Store, StorageFailed
path = sys.argv[1]
soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
resource.setrlimit(resource.RLIMIT_FSIZE, (400_000, hard))  # as `ulimit -f` would
store = Store.open(path)
db = store._db
db.execute("CREATE TABLE junk (x BLOB)")

def write(size):
    try:
        with store._write() as d:
            d.execute("INSERT INTO junk VALUES (?)", (os.urandom(size),))
            d.execute("DELETE FROM junk WHERE rowid < (SELECT MAX(rowid) - 20 FROM junk)")
        return "ok"
    except StorageFailed as e:
        return "full" if e.full else "storage"

# Small writes that keep the database small: the journal must never stick at the cap.
small = [write(2000) for _ in range(600)]
print("small", sorted(set(small)))
# Then the database itself outgrows the cap: each refusal says the storage is full.
big = [write(20_000) for _ in range(60)]
print("big", sorted(set(big[-10:])))
resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))  # room again: writes succeed again
print("after", write(100))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="no file-size limits on Windows")
def test_a_file_size_cap_is_storage_full_and_writes_recover_once_there_is_room(
    tmp_path: Path,
) -> None:
    """Under `ulimit -f` the journal used to reach the cap and every write failed as
    ``server/storage`` for good. Now the journal stays under the cap, a database that reaches
    it is ``server/storage_full``, and writes succeed again once there is room."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", _CAPPED, str(tmp_path / "capped.db")],
        capture_output=True, text=True, timeout=120, cwd=root, check=False,
        env={**os.environ, "PYTHONPATH": str(root)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:3] == ["small ['ok']", "big ['full']", "after ok"]
