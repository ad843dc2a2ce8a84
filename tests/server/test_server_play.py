"""Play: per-seat views and legal actions, the fixed validation order, versions, the game's end."""

from __future__ import annotations

from server_helpers import SECRET_RACE, MemoryServer, last_game_message


def started_race(players: int = 2, target: int = 8):
    server = MemoryServer()
    table, clients = server.table_with(players, options={"target": target})
    for c in clients:
        c.received()
    return server, table, clients


def test_every_seat_gets_its_own_snapshot_and_only_the_seat_to_act_gets_legal_actions():
    server, table, clients = started_race(3)
    engine = server.hub.lobby.table(table).engine
    for seat, client in enumerate(clients):
        snap = last_game_message(client)
        assert snap["type"] == "snapshot" and snap["version"] == 0 and snap["seat"] == seat
        assert snap["view"] == engine.view(seat)
        if seat == 0:
            assert snap["legal"] == [
                {"action": ["step", 1], "label": "Step 1"},
                {"action": ["step", 2], "label": "Step 2"},
            ]
        else:
            assert snap["legal"] == []


def test_an_action_updates_everyone_with_the_same_events_and_a_new_version():
    _server, _table, (a, b) = started_race()
    got = a.request({"type": "act", "version": 0, "action": ["step", 2]})
    mine = a.one("update", got)
    theirs = b.one("update")
    assert mine["id"] == a._next_id - 1 and "id" not in theirs
    assert mine["version"] == theirs["version"] == 1
    assert mine["events"] == theirs["events"]
    assert mine["events"][0] == {"type": "stepped", "seat": 0, "by": 2}
    assert mine["legal"] == [] and [x["action"] for x in theirs["legal"]] == [
        ["step", 1],
        ["step", 2],
    ]
    assert mine["view"]["secret"] != theirs["view"]["secret"]


def test_validation_order_seat_then_turn_then_version_then_legality():
    server, table, (a, b) = started_race()
    # Not your turn wins over a stale version and an illegal action.
    assert b.error(b.request({"type": "act", "version": 5, "action": ["jump"]})) == (
        "action/not_your_turn"
    )
    # Your turn, stale version wins over an illegal action.
    assert a.error(a.request({"type": "act", "version": 5, "action": ["jump"]})) == "action/stale"
    assert a.error(a.request({"type": "act", "version": 0, "action": ["jump"]})) == (
        "action/illegal"
    )
    assert a.error(a.request({"type": "act", "version": 0, "action": ["step", 3]})) == (
        "action/illegal"
    )
    # Malformed beats everything.
    assert b.error(b.request({"type": "act", "version": "0", "action": ["step", 1]})) == (
        "proto/bad_message"
    )
    # Nothing changed: version 0, seat 0 to act, nobody else was told anything.
    assert server.hub.lobby.table(table).version == 0
    assert b.received() == []
    a.one("update", a.request({"type": "act", "version": 0, "action": ["step", 1]}))


def test_a_stale_version_after_a_move_is_refused():
    _server, _table, (a, b) = started_race()
    a.request({"type": "act", "version": 0, "action": ["step", 1]})
    b.received()
    assert b.error(b.request({"type": "act", "version": 0, "action": ["step", 1]})) == (
        "action/stale"
    )
    b.one("update", b.request({"type": "act", "version": 1, "action": ["step", 1]}))


def test_an_action_arrives_as_an_array_and_is_compared_as_a_tuple():
    server, table, (a, _b) = started_race()
    engine = server.hub.lobby.table(table).engine
    assert ("step", 1) in engine.legal_actions()
    a.one("update", a.request({"type": "act", "version": 0, "action": ["step", 1]}))


def test_acting_before_the_start_is_named():
    server = MemoryServer()
    _table, (a, _b) = server.table_with(2, start=False)
    assert a.error(a.request({"type": "act", "version": 0, "action": ["step", 1]})) == (
        "table/not_started"
    )


def play_out(clients, server, table):
    version = 0
    while True:
        t = server.hub.lobby.table(table)
        if t.engine.is_over:
            return version
        seat = t.engine.current_player
        client = clients[seat]
        client.request({"type": "act", "version": version, "action": ["step", 2]})
        version += 1


def test_the_game_end_sends_final_scores_and_ranking_to_everyone():
    server, table, clients = started_race(2, target=6)
    watcher = server.greeted("w")
    watcher.request({"type": "spectate", "table": table})
    version = play_out(clients, server, table)
    engine = server.hub.lobby.table(table).engine
    for client in [*clients, watcher]:
        client.received()
        over = [m for m in client.log if m["type"] == "game_over"]
        assert len(over) == 1
        assert over[0]["scores"] == engine.scores()
        assert over[0]["ranking"] == engine.ranking()
        assert over[0]["seats"] == ["p0", "p1"]
        assert over[0]["version"] == version
        final = last_game_message(client)
        assert final["view"]["is_over"] is True and final["legal"] == []
    assert server.hub.lobby.table(table).state == "finished"
    assert (
        clients[0].error(
            clients[0].request({"type": "act", "version": version, "action": ["step", 1]})
        )
        == "table/finished"
    )


def test_spectators_get_the_spectator_view_and_no_legal_actions():
    server, table, (a, _b) = started_race()
    watcher = server.greeted("w")
    got = watcher.request({"type": "spectate", "table": table})
    snap = watcher.one("snapshot", got)
    assert snap["seat"] is None and snap["view"]["secret"] is None and snap["legal"] == []
    a.request({"type": "act", "version": 0, "action": ["step", 1]})
    update = watcher.one("update")
    assert update["view"] == server.hub.lobby.table(table).engine.view(None)
    assert update["legal"] == []


def test_an_engine_bug_is_an_internal_error_and_the_server_keeps_going(monkeypatch):
    server, table, (a, _b) = started_race()
    engine = server.hub.lobby.table(table).engine

    def broken(action):
        raise RuntimeError("engine bug")

    monkeypatch.setattr(engine, "apply", broken)
    assert a.error(a.request({"type": "act", "version": 0, "action": ["step", 1]})) == (
        "server/internal"
    )
    assert not a.disconnected
    a.one("pong", a.request({"type": "ping"}))
    other = server.greeted("other")
    other.one("tables", other.request({"type": "list"}))


def test_one_failing_recipient_does_not_keep_the_others_from_their_update(monkeypatch):
    server, table, (a, b) = started_race()
    watcher = server.greeted("w")
    watcher.request({"type": "spectate", "table": table})

    def explode(msg):
        raise RuntimeError("transport trouble")

    monkeypatch.setattr(b.protocol.session, "deliver", explode)
    a.one("update", a.request({"type": "act", "version": 0, "action": ["step", 1]}))
    watcher.one("update")


def test_secret_race_is_a_faithful_test_double():
    state = SECRET_RACE.new(2, 5, {"target": 3})
    clone = state.clone()
    events = state.apply(("step", 1))
    assert clone.apply(("step", 1)) == events
    assert clone.view(0) == state.view(0)


def test_an_engine_failure_changes_nothing_and_the_game_goes_on():
    server = MemoryServer()
    table, (a, _b) = server.table_with(2)
    engine = server.hub.lobby.table(table).engine
    calls = []

    def explode(action):
        calls.append(action)
        raise RuntimeError("engine bug")

    before = engine.view(None)
    clone = engine.clone

    def broken_clone():
        copy = clone()
        copy.apply = explode
        return copy

    engine.clone = broken_clone
    assert a.error(a.request({"type": "act", "version": 0, "action": ["step", 1]})) == (
        "server/internal"
    )
    assert calls and engine.view(None) == before
    engine.clone = clone
    a.one("update", a.request({"type": "act", "version": 0, "action": ["step", 1]}))
