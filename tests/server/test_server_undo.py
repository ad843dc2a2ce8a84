"""Undo within a turn at the server: who may take back what, what everyone is told, versions,
and a store (restarts, records) that keeps only the actions that stand."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from server_helpers import MemoryClient, MemoryServer, Registry, last_game_message

import games
from games import records
from server.store import Store


def _undoable(server: MemoryServer, table: int) -> list[Any] | None:
    """A legal action of the seat to act that is no undo barrier (or None)."""
    engine = server.hub.lobby.table(table).engine
    for action in engine.legal_actions():
        after = engine.clone()
        after.apply(action)
        if after.current_player == engine.current_player and not engine.barrier(action):
            return list(action)
    return None


def _mover(clients: list[MemoryClient]) -> MemoryClient:
    return next(c for c in clients if last_game_message(c)["legal"])


def _act(client: MemoryClient, action: list[Any], clients: list[MemoryClient]) -> dict[str, Any]:
    version = last_game_message(client)["version"]
    update = client.one(
        "update", client.request({"type": "act", "version": version, "action": action})
    )
    for other in clients:
        if other is not client:
            other.received()
    return update


def _to_undoable(server: MemoryServer, table: int, clients: list[MemoryClient], seed: int = 0):
    """Play random actions until the seat to act has an undoable one; returns (client, action)."""
    rng = random.Random(seed)
    while (action := _undoable(server, table)) is None:
        who = _mover(clients)
        legal = last_game_message(who)["legal"]
        _act(who, rng.choice(legal)["action"], clients)
    return _mover(clients), action


def _started(game: str = "cosmic_run", players: int = 2, **kw: Any):
    server = MemoryServer(**kw)
    table, clients = server.table_with(players, game=game)
    for c in clients:
        c.received()
    return server, table, clients


@pytest.mark.parametrize("game", ["cosmic_run", "alien_artifacts"])
def test_undo_restores_every_seats_view_and_tells_everyone_including_spectators(game: str):
    server, table, clients = _started(game)
    watcher = server.greeted("watcher")
    watcher.request({"type": "spectate", "table": table})
    who, action = _to_undoable(server, table, clients)
    before = {id(c): last_game_message(c) for c in clients}
    engine_before = server.hub.lobby.table(table).engine
    spectator_view = engine_before.view(None)
    label = engine_before.label(tuple(action))
    update = _act(who, action, clients)
    watcher.received()
    assert update["undo"] == label  # the seat is told what undo would take back
    got = who.request({"type": "undo", "version": update["version"]})
    mine = who.one("update", got)
    assert mine["id"] == who._next_id - 1
    assert mine["version"] == update["version"] + 1  # versions only grow
    assert mine["events"] == [
        {"type": "undone", "seat": before[id(who)]["seat"], "action": action, "label": label}
    ]
    for client in clients:
        now = mine if client is who else client.one("update")
        assert now["events"] == mine["events"]
        assert now["view"] == before[id(client)]["view"]
        assert now["legal"] == before[id(client)]["legal"]
    seen = watcher.one("update")
    assert seen["view"] == spectator_view and seen["events"] == mine["events"]
    assert seen["undo"] is None


def test_undo_is_refused_for_another_seat_and_after_a_barrier():
    server, table, clients = _started()
    who, action = _to_undoable(server, table, clients)
    other = next(c for c in clients if c is not who)
    last = last_game_message(who)
    if last["undo"] is None:  # nothing of this turn yet, or a roll since
        assert who.error(who.request({"type": "undo", "version": last["version"]})) == (
            "action/no_undo"
        )
    update = _act(who, action, clients)
    assert other.error(other.request({"type": "undo", "version": update["version"]})) == (
        "action/no_undo"
    )
    # A roll (a barrier) makes everything before it final.
    engine = server.hub.lobby.table(table).engine
    rolls = [a for a in engine.legal_actions() if a[0] in ("roll", "reroll")]
    if rolls:
        update = _act(who, list(rolls[0]), clients)
        assert update["undo"] is None
        assert who.error(who.request({"type": "undo", "version": update["version"]})) == (
            "action/no_undo"
        )


def test_an_action_against_a_version_an_undo_replaced_is_stale():
    server, table, clients = _started()
    who, action = _to_undoable(server, table, clients)
    update = _act(who, action, clients)
    stale = update["version"]
    undone = who.one("update", who.request({"type": "undo", "version": stale}))
    assert undone["version"] == stale + 1
    legal = undone["legal"][0]["action"]
    assert who.error(who.request({"type": "act", "version": stale, "action": legal})) == (
        "action/stale"
    )
    assert who.error(who.request({"type": "undo", "version": stale})) == "action/stale"


def test_several_actions_of_a_turn_come_back_one_by_one():
    server, table, clients = _started()
    who, action = _to_undoable(server, table, clients, seed=3)
    views = [last_game_message(who)["view"]]
    _act(who, action, clients)
    views.append(last_game_message(who)["view"])
    second = _undoable(server, table)
    if second is None:
        pytest.skip("no second undoable action in this position")
    _act(who, second, clients)
    for view in reversed(views):
        version = last_game_message(who)["version"]
        got = who.one("update", who.request({"type": "undo", "version": version}))
        assert got["view"] == view


@pytest.mark.parametrize("game", ["cosmic_run", "alien_artifacts"])
def test_after_an_undo_a_restart_and_the_record_replay_the_same_game(tmp_path: Path, game: str):
    db = tmp_path / "server.db"
    first = MemoryServer(store=Store.open(db, server="test"), registry=Registry())
    table, clients = first.table_with(2, game=game)
    for c in clients:
        c.received()
    who, action = _to_undoable(first, table, clients)
    update = _act(who, action, clients)
    who.request({"type": "undo", "version": update["version"]})
    for c in clients:
        c.received()
    # One more action that stands, then the server dies.
    mover = _mover(clients)
    _act(mover, last_game_message(mover)["legal"][0]["action"], clients)
    engine = first.hub.lobby.table(table).engine
    moves = first.hub.lobby.table(table).moves
    version = first.hub.lobby.table(table).version
    assert version == moves + 2  # the action and its undo were versions of their own
    views = [engine.view(seat) for seat in range(2)]
    tokens = [c.token for c in clients]

    second = MemoryServer(seed=2, store=Store.open(db, server="test"), registry=Registry())
    for seat, token in enumerate(tokens):
        client = second.greeted(f"p{seat}")
        snapshot = client.one("snapshot", client.request({"type": "resume", "token": token}))
        assert snapshot["view"] == views[seat]
        assert snapshot["version"] == version  # versions only grow, across restarts too
    restored = second.hub.lobby.table(table)
    assert (restored.moves, restored.version) == (moves, version)
    # The store holds the actions that stand, and they replay to this state.
    saved = next(t for t in Store.open(db).unfinished() if t.id == table)
    assert saved.seed is not None and len(saved.actions) == moves
    state = games.get(game).new(2, saved.seed)
    for _seat, act in saved.actions:
        state.apply(tuple(act))
    assert [state.view(seat) for seat in range(2)] == views


def test_a_finished_record_with_undos_checks_and_replays():
    _server, table, clients = _started()
    rng = random.Random(5)
    undos = 0
    while True:
        who = next((c for c in clients if last_game_message(c)["legal"]), None)
        if who is None:
            break
        last = last_game_message(who)
        if last["undo"] is not None and rng.random() < 0.5:
            who.one("update", who.request({"type": "undo", "version": last["version"]}))
            for c in clients:
                c.received()
            undos += 1
            continue
        _act(who, rng.choice(last["legal"])["action"], clients)
    assert undos > 3
    got = clients[0].request({"type": "record", "table": table})
    record = clients[0].one("record", got)["record"]
    records.check(record)
    final = list(records.replay(record))[-1].state
    assert final.scores() == clients[0].one("game_over", clients[0].log)["scores"]


@pytest.mark.parametrize(("game", "players"), [("cosmic_run", 2), ("alien_artifacts", 2)])
def test_in_random_games_undo_is_offered_exactly_after_actions_that_reveal_nothing(
    game: str, players: int
):
    """After a barrier (a roll, a draw, a reveal, a turn passed) `undo` is refused and not
    offered; after any other action it is offered, and taking it back and playing on works."""
    for seed in range(3):
        server, table, clients = _started(game, players, seed=seed)
        rng = random.Random(seed)
        checked = barriers = 0
        while (
            who := next((c for c in clients if last_game_message(c)["legal"]), None)
        ) is not None:
            engine = server.hub.lobby.table(table).engine
            action = rng.choice(last_game_message(who)["legal"])["action"]
            after = engine.clone()
            after.apply(tuple(action))
            barrier = (
                engine.barrier(tuple(action))
                or after.current_player != engine.current_player
                or after.is_over
            )
            update = _act(who, action, clients)
            if after.is_over:
                break
            if barrier:
                barriers += 1
                assert update["undo"] is None
                assert all(last_game_message(c)["undo"] is None for c in clients)
                actor = who if last_game_message(who)["legal"] else _mover(clients)
                got = actor.request({"type": "undo", "version": update["version"]})
                assert actor.error(got) == "action/no_undo"
            else:
                assert update["undo"] == engine.label(tuple(action))
                if rng.random() < 0.3:
                    back = who.one(
                        "update", who.request({"type": "undo", "version": update["version"]})
                    )
                    for c in clients:
                        c.received()
                    assert back["view"] == engine.view(back["seat"])
            checked += 1
        assert checked > 50 and barriers > 10
