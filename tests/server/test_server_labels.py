"""What the server spares a client and itself: labels only for clients that want them (``hello``'s
``labels``), and an engine never asked to play an action twice."""

from __future__ import annotations

import random
from typing import Any

import pytest
from server_helpers import MemoryServer, SecretRaceState, last_game_message

from games.cosmic_run.state import CosmicRunState


def seated(server: MemoryServer, labels: list[bool | None], game: str = "secret_race"):
    """A started table of ``game`` whose seat i said ``hello`` with ``labels[i]`` (None: the
    field left out); its clients in seat order (fixed seating)."""
    clients = []
    for i, wants in enumerate(labels):
        client = server.client()
        client.hello(f"p{i}", **({} if wants is None else {"labels": wants}))
        clients.append(client)
    table = clients[0].create(game, len(labels), seating="fixed")
    for client in clients:
        client.join(table)
    clients[0].one("started", clients[0].request({"type": "start"}))
    return table, clients


def test_a_client_that_asks_for_no_labels_gets_the_legal_actions_without_them():
    server = MemoryServer()
    _table, (bot, person) = seated(server, [False, None])
    snap = last_game_message(bot)
    assert snap["type"] == "snapshot" and snap["legal"] == [
        {"action": ["step", 1]},
        {"action": ["step", 2]},
    ]
    bot.request({"type": "act", "version": 0, "action": ["step", 1]})
    update = person.one("update")
    assert update["legal"] == [
        {"action": ["step", 1], "label": "Step 1"},
        {"action": ["step", 2], "label": "Step 2"},
    ]


def test_hello_labels_true_is_the_default():
    server = MemoryServer()
    _table, (a, _b) = seated(server, [True, None])
    assert last_game_message(a)["legal"][0] == {"action": ["step", 1], "label": "Step 1"}


def test_labels_are_not_made_at_all_while_nobody_wants_them(monkeypatch: pytest.MonkeyPatch):
    asked: list[Any] = []
    label = SecretRaceState.label

    def counted(self: SecretRaceState, action: tuple[Any, ...]) -> str:
        asked.append(action)
        return label(self, action)

    monkeypatch.setattr(SecretRaceState, "label", counted)
    server = MemoryServer()
    _table, clients = seated(server, [False, False])
    for version in range(4):
        msg = last_game_message(clients[version % 2])
        assert msg["legal"], msg
        clients[version % 2].request(
            {"type": "act", "version": version, "action": msg["legal"][0]["action"]}
        )
        for client in clients:
            client.received()
    assert asked == []


def test_a_resumed_seat_gets_legal_actions_as_its_new_hello_asks():
    server = MemoryServer()
    _table, (a, _b) = seated(server, [None, None])
    token = a.token
    a.drop()
    again = server.client()
    again.hello("p0", labels=False)
    replies = again.request({"type": "resume", "token": token})
    assert again.one("snapshot", replies)["legal"] == [
        {"action": ["step", 1]},
        {"action": ["step", 2]},
    ]


def test_hello_labels_must_be_a_boolean():
    server = MemoryServer()
    client = server.client()
    got = client.request({"type": "hello", "version": 1, "name": "ann", "labels": "no"})
    assert client.error(got) == "proto/bad_message"


def test_the_server_plays_each_action_once_on_the_engine(monkeypatch: pytest.MonkeyPatch):
    # The engine says whether an action is an undo barrier from the state the server has
    # already played it on, instead of cloning and playing it again.
    played: list[Any] = []
    given_after: list[bool] = []
    apply, barrier = CosmicRunState.apply, CosmicRunState.barrier

    def counted_apply(self: CosmicRunState, action: Any) -> Any:
        played.append(action)
        return apply(self, action)

    def noted_barrier(self: CosmicRunState, action: Any, after: Any = None) -> bool:
        given_after.append(after is not None)
        return barrier(self, action, after)

    monkeypatch.setattr(CosmicRunState, "apply", counted_apply)
    monkeypatch.setattr(CosmicRunState, "barrier", noted_barrier)
    server = MemoryServer()
    _table, clients = seated(server, [False, False], game="cosmic_run")
    rng = random.Random(3)
    acted = 0
    for _ in range(60):
        mover = next((c for c in clients if last_game_message(c)["legal"]), None)
        if mover is None:
            break
        msg = last_game_message(mover)
        mover.request(
            {"type": "act", "version": msg["version"], "action": rng.choice(msg["legal"])["action"]}
        )
        acted += 1
        for client in clients:
            client.received()
    assert acted > 20 and len(played) == acted
    assert given_after and all(given_after)
