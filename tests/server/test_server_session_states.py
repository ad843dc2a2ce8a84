"""The session state machine: every state refuses every message it does not admit, by name."""

from __future__ import annotations

import pytest
from server_helpers import VALID_MESSAGES, MemoryClient, MemoryServer

from protocol import CLIENT_TYPES
from server import session_states as S
from server.session import Session


def in_state(state: str) -> tuple[MemoryServer, MemoryClient]:
    server = MemoryServer()
    if state == S.AWAITING_HELLO:
        return server, server.client()
    if state == S.LOBBY:
        return server, server.greeted("Zed")
    if state == S.SEATED:
        _, clients = server.table_with(2, start=False)
        return server, clients[1]
    if state == S.SPECTATING:
        table, _ = server.table_with(2)
        watcher = server.greeted("Zed")
        watcher.one("spectating", watcher.request({"type": "spectate", "table": table}))
        return server, watcher
    raise AssertionError(state)


def session_of(server: MemoryServer, client: MemoryClient) -> Session:
    session = client.protocol.session
    assert session is not None
    return session


def test_the_tables_cover_every_state_and_every_client_message():
    assert set(S.ALLOWED) == set(S.STATES)
    admitted = set().union(*S.ALLOWED.values())
    assert admitted == CLIENT_TYPES
    for (state, _event), target in S.TRANSITIONS.items():
        assert state in S.STATES and target in S.STATES


REFUSALS = [
    (state, kind)
    for state in (S.AWAITING_HELLO, S.LOBBY, S.SEATED, S.SPECTATING)
    for kind in sorted(CLIENT_TYPES - S.ALLOWED[state])
]


@pytest.mark.parametrize(("state", "kind"), REFUSALS)
def test_a_message_the_state_does_not_admit_is_refused_and_changes_nothing(state, kind):
    server, client = in_state(state)
    session = session_of(server, client)
    assert session.state == state
    client.received()
    tables_before = [t.info() for t in server.hub.lobby.tables.values()]
    reply = client.request(VALID_MESSAGES[kind])
    assert [m["type"] for m in reply] == ["error"]
    assert reply[0]["code"] == "session/wrong_state"
    assert reply[0]["request"] == kind
    assert reply[0]["id"] == client._next_id - 1
    assert session.state == state
    assert [t.info() for t in server.hub.lobby.tables.values()] == tables_before
    assert not client.disconnected


@pytest.mark.parametrize("kind", sorted(CLIENT_TYPES))
def test_a_closed_session_ignores_everything(kind):
    server, client = in_state(S.LOBBY)
    session = session_of(server, client)
    session.close()
    assert session.state == S.CLOSED
    client.received()
    session.receive(dict(VALID_MESSAGES[kind]))
    assert client.received() == []


def test_the_state_follows_join_leave_spectate():
    server = MemoryServer()
    host = server.greeted("host")
    table = host.create()
    session = session_of(server, host)
    assert session.state == S.LOBBY
    host.join(table)
    assert session.state == S.SEATED
    host.one("left", host.request({"type": "leave"}))
    assert session.state == S.LOBBY
    host.one("spectating", host.request({"type": "spectate", "table": table}))
    assert session.state == S.SPECTATING
    host.one("left", host.request({"type": "leave"}))
    assert session.state == S.LOBBY
    host.drop()
    assert session.state == S.CLOSED
