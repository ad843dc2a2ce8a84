"""Which error comes first when a request is wrong in several ways (PROTOCOL.md 10.1): the frame,
`type`, a first `hello`'s version, the fields in table order, the session's state, then the
request's own checks (what is wrong with the request before the server's limits), saving last.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from server_helpers import MemoryClient, MemoryServer

from protocol import CLIENT_TYPES, ERROR_CODES, SUPPORTED_VERSIONS
from server.limits import Limits
from server.store import StorageFailed

DOC = (Path(__file__).resolve().parents[2] / "PROTOCOL.md").read_text(encoding="utf-8")
FAST = {"rate": 1e9, "burst": 10**9, "act_rate": 1e9, "act_burst": 10**9}


def code(client: MemoryClient, msg: dict[str, Any]) -> str:
    return client.error(client.request(msg))


# --- steps 1 to 5, for every request ------------------------------------------------------------


def test_a_malformed_message_is_refused_before_the_state_is_checked() -> None:
    server = MemoryServer()
    fresh = server.client()  # before hello: only hello is admitted
    assert code(fresh, {"type": "list", "colour": 1}) == "proto/bad_message"
    assert code(fresh, {"type": "teleport"}) == "proto/unknown_type"
    assert code(fresh, {"type": "list"}) == "session/wrong_state"
    lobby = server.greeted("Ann")
    assert code(lobby, {"type": "act", "version": "0", "action": ["x"]}) == "proto/bad_message"
    assert code(lobby, {"type": "start", "colour": 1}) == "proto/bad_message"
    assert code(lobby, {"type": "hello", "version": 1, "name": " x"}) == "lobby/bad_name"
    assert code(lobby, {"type": "start"}) == "session/wrong_state"


def test_unknown_fields_first_then_the_fields_in_table_order_id_first() -> None:
    server = MemoryServer()
    client = server.client()
    bad_name = {"type": "hello", "version": 1, "name": " x"}
    assert code(client, {**bad_name, "colour": 1}) == "proto/bad_message"
    client.send({**bad_name, "id": 2.0})  # the id is the table's first row
    assert client.error() == "proto/bad_message"
    assert code(client, bad_name) == "lobby/bad_name"
    client.hello("Ann")
    table = client.create()
    # join: id, table, slot, name
    assert code(client, {"type": "join", "table": table, "slot": -1, "name": " x"}) == (
        "proto/bad_message"
    )
    assert code(client, {"type": "join", "table": 0, "name": " x"}) == "proto/bad_message"
    assert code(client, {"type": "join", "table": 99, "name": " x"}) == "lobby/bad_name"


# --- hello -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "extra",
    [
        {"name": " x"},  # a bad name
        {"name": "Ann", "colour": "red"},  # a field version 1 does not have
        {},  # no name at all
        {"name": "Ann", "token": 12},
        {"name": "Ann", "id": "i" * 65},  # an id it cannot echo
    ],
)
@pytest.mark.parametrize("version", [0, 3, 99])
def test_a_first_hello_in_another_version_is_rejected_whatever_else_it_holds(
    version: int, extra: dict[str, Any]
) -> None:
    client = MemoryServer().client()
    client.send({"type": "hello", "version": version, **extra})
    [reject] = client.received()
    assert reject["type"] == "reject" and reject["code"] == "session/bad_version"
    assert reject["supported"] == list(SUPPORTED_VERSIONS)
    assert "id" not in reject
    assert client.disconnected


def test_a_version_that_breaks_its_row_is_a_bad_message_and_a_later_hello_the_wrong_state() -> None:
    server = MemoryServer()
    client = server.client()
    assert code(client, {"type": "hello", "version": "2", "name": "Ann"}) == "proto/bad_message"
    assert code(client, {"type": "hello", "version": -1, "name": "Ann"}) == "proto/bad_message"
    assert not client.disconnected
    client.hello("Ann")
    assert code(client, {"type": "hello", "version": 2, "name": " x"}) == "lobby/bad_name"
    assert code(client, {"type": "hello", "version": 2, "name": "Ann"}) == "session/wrong_state"
    assert not client.disconnected


# --- create ------------------------------------------------------------------------------------


def full_server(kind: str) -> MemoryClient:
    """A client whose `create` of a valid table would get `limit/tables`, for ``kind`` of limit."""
    if kind == "server":
        server = MemoryServer(Limits(max_tables=1, **FAST))
        server.greeted("Bob", host="10.0.0.9").create()
    elif kind == "address":
        server = MemoryServer(Limits(tables_per_address=1, **FAST))
        server.greeted("Bob").create()
    else:  # the fair share: as many held as are still free
        server = MemoryServer(Limits(max_tables=3, tables_per_address=5, **FAST))
        server.greeted("Bob", host="10.0.0.9").create()
        server.greeted("Cy").create()
    return server.greeted("Ann")


@pytest.mark.parametrize("kind", ["server", "address", "fair share"])
def test_create_says_what_is_wrong_with_the_request_before_the_table_limit(kind: str) -> None:
    ann = full_server(kind)
    create = {"type": "create", "game": "secret_race", "players": 2}
    assert code(ann, {**create, "game": "chess"}) == "lobby/unknown_game"
    assert code(ann, {**create, "players": 5}) == "lobby/bad_players"  # Secret Race: 1 to 4
    assert code(ann, {**create, "options": {"colour": "red"}}) == "lobby/bad_options"
    assert code(ann, {**create, "players": 17, "game": "chess"}) == "proto/bad_message"
    assert code(ann, create) == "limit/tables"


def test_create_checks_the_game_then_the_player_count_then_the_options() -> None:
    ann = MemoryServer().greeted("Ann")
    create = {"type": "create", "game": "chess", "players": 9, "options": {"colour": "red"}}
    assert code(ann, create) == "lobby/unknown_game"
    assert code(ann, {**create, "game": "secret_race"}) == "lobby/bad_players"
    assert code(ann, {**create, "game": "secret_race", "players": 2}) == "lobby/bad_options"


# --- join --------------------------------------------------------------------------------------


def test_join_checks_the_table_then_the_place_then_the_name() -> None:
    server = MemoryServer()
    table, _clients = server.table_with(2)  # started, names p0 and p1
    ann = server.greeted("Ann")
    assert code(ann, {"type": "join", "table": 99, "name": " x"}) == "lobby/bad_name"
    assert code(ann, {"type": "join", "table": 99, "name": "p0"}) == "lobby/no_such_table"
    assert code(ann, {"type": "join", "table": table, "slot": 9, "name": "p0"}) == (
        "lobby/not_waiting"
    )
    waiting = ann.create(players=3)
    bob = server.greeted("Bob")
    bob.join(waiting, slot=0)
    ann.received()
    assert code(ann, {"type": "join", "table": waiting, "slot": 3, "name": "Bob"}) == (
        "lobby/no_such_seat"
    )
    assert code(ann, {"type": "join", "table": waiting, "slot": 0, "name": "Bob"}) == (
        "lobby/seat_taken"
    )
    assert code(ann, {"type": "join", "table": waiting, "slot": 1, "name": "Bob"}) == (
        "lobby/name_taken"
    )
    for name in ("Cy", "Di"):
        server.greeted(name).join(waiting)
    assert code(ann, {"type": "join", "table": waiting, "name": "Bob"}) == "lobby/table_full"


# --- add_bot -----------------------------------------------------------------------------------


class FakeSpawn:
    """Records the bot programs the server starts instead of starting them."""

    def __init__(self) -> None:
        self.started: list[Any] = []

    def __call__(self, argv: list[str], env: dict[str, str], process: Any) -> None:
        process.transport = None
        self.started.append(process)


def bot_server(max_bots: int, **limits: Any) -> MemoryServer:
    """A server that starts bots (``max_bots`` 0: one that starts none)."""
    server = MemoryServer(Limits(max_bots=max_bots, **{**FAST, **limits}))
    server.hub.bots.spawn = FakeSpawn()
    server.hub.bots.address = ("127.0.0.1", 7777)
    return server


@pytest.mark.parametrize("max_bots", [0, 1])
def test_add_bot_at_a_waiting_table_names_the_place_before_the_bot_limits(max_bots: int) -> None:
    server = bot_server(max_bots)
    if max_bots:  # the one bot the server runs is busy elsewhere
        other = server.greeted("Bob")
        other.join(other.create(players=2))
        other.one("bot_added", other.request({"type": "add_bot", "level": "easy"}))
    limit = "limit/bots" if max_bots else "lobby/no_bots"
    host = server.greeted("host")
    table = host.create(players=2)
    host.join(table)
    host.received()
    add = {"type": "add_bot", "level": "easy"}
    assert code(host, {**add, "seat": 1}) == "table/not_started"
    assert code(host, {**add, "slot": 2}) == "lobby/no_such_seat"
    assert code(host, {**add, "slot": 0}) == "lobby/seat_taken"
    assert code(host, add) == limit
    server.greeted("Cy").join(table)
    host.received()
    assert code(host, add) == "lobby/table_full"


def test_add_bot_during_a_game_names_the_seat_before_the_bot_limits() -> None:
    server = bot_server(0, dead_after=10**6, idle_timeout=10**6, bot_takeover_after=60.0)
    table, (a, b, _c) = server.table_with(3)
    b.drop()
    add = {"type": "add_bot", "level": "easy"}
    assert code(a, add) == "lobby/not_waiting"  # no seat named
    assert code(a, {**add, "seat": 3}) == "lobby/no_such_seat"
    assert code(a, {**add, "seat": 2}) == "table/seat_connected"
    assert code(a, {**add, "seat": 1}) == "table/too_soon"
    server.advance(61)
    a.received()
    assert code(a, {**add, "seat": 1}) == "lobby/no_bots"
    assert server.hub.lobby.table(table).places[1].level is None  # still the player's seat


def finished(server: MemoryServer) -> MemoryClient:
    """A client seated at a finished game (Secret Race, alone, to 1)."""
    table, (solo,) = server.table_with(1, options={"target": 1})
    solo.one("game_over", solo.request({"type": "act", "version": 0, "action": ["step", 1]}))
    assert server.hub.lobby.table(table).state == "finished"
    return solo


def test_add_bot_after_the_game_is_not_waiting_whatever_it_names() -> None:
    host = finished(bot_server(0))
    assert code(host, {"type": "add_bot", "level": "easy", "seat": 7}) == "lobby/not_waiting"
    assert code(host, {"type": "add_bot", "level": "easy", "slot": 7}) == "lobby/not_waiting"


# --- act and undo ------------------------------------------------------------------------------


def test_act_and_undo_at_a_game_not_started_or_over_say_so_before_turn_and_version() -> None:
    server = MemoryServer()
    _table, (a, _b) = server.table_with(2, start=False)
    assert code(a, {"type": "act", "version": 9, "action": ["jump"]}) == "table/not_started"
    assert code(a, {"type": "undo", "version": 9}) == "table/not_started"
    solo = finished(server)
    assert code(solo, {"type": "act", "version": 9, "action": ["jump"]}) == "table/finished"
    assert code(solo, {"type": "undo", "version": 9}) == "table/finished"


def test_undo_checks_the_turn_then_the_version_then_something_to_take_back() -> None:
    server = MemoryServer()
    _table, (a, b) = server.table_with(2)  # Secret Race: every action is final
    b.request({"type": "undo", "version": 9})
    [error] = [m for m in b.log if m["type"] == "error"]
    assert error["code"] == "action/no_undo" and "must decide now" in error["message"]
    assert code(a, {"type": "undo", "version": 9}) == "action/stale"
    a.request({"type": "undo", "version": 0})
    error = a.log[-1]
    assert error["code"] == "action/no_undo" and "nothing to take back" in error["message"]


# --- saving comes last -------------------------------------------------------------------------

_WRITES = ("table_opened", "place_saved", "table_started", "tokens_saved", "action", "undo")


def failing_storage(server: MemoryServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on every write to the server's database fails."""

    def fail(*args: Any, **kwargs: Any) -> None:
        raise StorageFailed("the test's disk is broken")

    for write in _WRITES:
        monkeypatch.setattr(server.hub.store, write, fail)


def test_every_other_refusal_comes_before_a_failure_to_save(monkeypatch: pytest.MonkeyPatch):
    server = MemoryServer(Limits(tables_per_address=2, **FAST))
    table, (a, b) = server.table_with(2)
    ann = server.greeted("Ann")
    waiting = ann.create(players=2)
    ann.join(waiting)
    ann.received()
    failing_storage(server, monkeypatch)
    lobby = server.greeted("Bob")
    create = {"type": "create", "game": "secret_race", "players": 2}
    assert code(lobby, {**create, "game": "chess"}) == "lobby/unknown_game"
    assert code(lobby, {**create, "players": 9}) == "lobby/bad_players"
    assert code(lobby, {"type": "join", "table": waiting, "name": "Ann"}) == "lobby/name_taken"
    assert code(lobby, {"type": "join", "table": waiting, "slot": 0}) == "lobby/seat_taken"
    assert code(lobby, {"type": "resume", "token": "nonsense"}) == "session/bad_token"
    assert code(ann, {"type": "start"}) == "table/not_ready"
    assert code(a, {"type": "act", "version": 0, "action": ["jump"]}) == "action/illegal"
    assert code(a, {"type": "act", "version": 3, "action": ["step", 1]}) == "action/stale"
    assert code(b, {"type": "act", "version": 0, "action": ["step", 1]}) == "action/not_your_turn"
    # ... and saving is checked: a request nothing else is wrong with is refused for it.
    assert code(lobby, {"type": "join", "table": waiting}) == "server/storage"
    assert code(a, {"type": "act", "version": 0, "action": ["step", 1]}) == "server/storage"
    assert server.hub.lobby.table(table).version == 0


def test_the_table_limit_comes_before_a_failure_to_save(monkeypatch: pytest.MonkeyPatch):
    server = MemoryServer(Limits(max_tables=1, **FAST))
    server.greeted("Bob", host="10.0.0.9").create()
    failing_storage(server, monkeypatch)
    ann = server.greeted("Ann")
    assert code(ann, {"type": "create", "game": "secret_race", "players": 2}) == "limit/tables"


# --- PROTOCOL.md 10.1 --------------------------------------------------------------------------


def precedence_rows() -> dict[str, str]:
    section = DOC[DOC.index("### 10.1 Which error comes first") : DOC.index("## 11. ")]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if line.startswith("| `"):
            for request in re.findall(r"`(\w+)`", cells[0]):
                rows[request] = rows.get(request, "") + cells[1]
    return rows


def test_the_precedence_table_covers_every_request_with_real_codes() -> None:
    rows = precedence_rows()
    missing = sorted(CLIENT_TYPES - set(rows))
    assert missing == [], f"add these requests to PROTOCOL.md 10.1: {missing}"
    assert set(rows) <= CLIENT_TYPES
    named = {c for cell in rows.values() for c in re.findall(r"`(\w+/\w+)`", cell)}
    assert named <= set(ERROR_CODES)
