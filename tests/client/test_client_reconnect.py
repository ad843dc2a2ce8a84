"""The Client across dropped connections, on the real server in memory (iosim, fake clock)."""

from __future__ import annotations

from typing import Any

from client_helpers import Network, result

from client.net.connection import ConnectionClosed
from client.net.session import Client


class Recorder:
    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.events: list[tuple[str, dict[str, Any]]] = []

    def message(self, msg: dict[str, Any]) -> None:
        self.messages.append(msg)

    def status(self, event: str, detail: dict[str, Any]) -> None:
        self.events.append((event, detail))

    def kinds(self) -> list[str]:
        return [e for e, _ in self.events]


def greeted(net: Network, name: str, seen: Recorder | None = None) -> Client:
    seen = seen or Recorder()
    client = net.client(name, on_message=seen.message, on_status=seen.status)
    d = client.start()
    net.run()
    assert result(d)["type"] == "welcome"
    return client


def started_table(net: Network) -> tuple[Client, Client, Recorder]:
    seen = Recorder()
    ann = greeted(net, "Ann", seen)
    bob = greeted(net, "Bob")
    created = ann.request({"type": "create", "game": "cosmic_run", "players": 2})
    net.run()
    table = result(created)["table"]["id"]
    for client in (ann, bob):
        client.request({"type": "join", "table": table})
        net.run()
    ann.request({"type": "start"})
    net.run()
    return ann, bob, seen


def test_a_dropped_seat_holder_reconnects_resumes_and_gets_a_snapshot() -> None:
    net = Network()
    ann, _bob, seen = started_table(net)
    first_token = ann.token
    assert first_token is not None and ann.seated
    seen.messages.clear()
    net.drop(ann)
    assert seen.kinds()[:2] == ["lost", "retrying"]
    net.advance(1)
    assert seen.kinds()[-2:] == ["reconnected", "resumed"]
    assert ann.token is not None and ann.token != first_token  # the rotated token is kept
    assert [m["type"] for m in seen.messages if m["type"] == "snapshot"] == ["snapshot"]
    assert ann.is_open


def test_the_other_players_see_the_seat_go_and_come_back() -> None:
    net = Network()
    bob_seen = Recorder()
    ann, _bob, _ = started_table(net)
    _bob.on_message = bob_seen.message
    net.drop(ann)
    net.advance(1)
    statuses = [m["connected"] for m in bob_seen.messages if m["type"] == "seat_status"]
    assert statuses == [False, True]


def test_requests_while_offline_fail_clearly_instead_of_vanishing() -> None:
    net = Network()
    ann, _bob, _ = started_table(net)
    net.drop(ann)
    failure = ann.request({"type": "list"})
    box: list[Any] = []
    failure.addErrback(box.append)
    assert isinstance(box[0].value, ConnectionClosed)


def test_a_spectator_watches_its_table_again_after_a_drop() -> None:
    net = Network()
    started_table(net)
    seen = Recorder()
    watcher = greeted(net, "Wat", seen)
    watcher.request({"type": "spectate", "table": 1})
    net.run()
    assert watcher.watching == 1
    seen.messages.clear()
    net.drop(watcher)
    net.advance(1)
    assert "snapshot" in [m["type"] for m in seen.messages]
    assert watcher.watching == 1


def test_a_server_stopping_is_retried_like_a_crash_and_the_seat_taken_back() -> None:
    """Ctrl+C of the host: its database keeps the tables, and it is started again."""
    net = Network()
    ann, _bob, seen = started_table(net)
    net.factory.hub.shutdown()
    net.run()
    lost = [detail for event, detail in seen.events if event == "lost"]
    assert lost and lost[0]["error"].code == "server/shutting_down"
    assert seen.kinds()[-1] == "retrying" and "gave_up" not in seen.kinds()
    net.factory.hub.shutting_down = False  # (the same hub stands in for the restarted server)
    net.advance(1)
    assert seen.kinds()[-2:] == ["reconnected", "resumed"] and ann.seated


def test_the_client_gives_up_after_its_last_attempt() -> None:
    net = Network()
    seen = Recorder()
    client = Client(
        net.reactor, "127.0.0.1", 7777, "Ann", on_status=seen.status, retry_delays=(1, 2)
    )
    client.start()
    net.run()
    net.port.stopListening()  # the server goes away
    net.drop(client)
    for _ in range(3):
        net.reactor.advance(2)
        net.refuse_connections()
    assert seen.kinds() == ["lost", "retrying", "retrying", "gave_up"]
    assert client.done.called


def test_no_reconnection_when_the_seat_was_taken_over_elsewhere() -> None:
    net = Network()
    ann, _bob, seen = started_table(net)
    thief = greeted(net, "Ann2")
    thief.request({"type": "resume", "token": ann.token})
    net.run()
    assert seen.kinds() == ["lost", "gave_up"]
    assert seen.events[0][1]["error"].code == "session/replaced"


def test_closing_on_purpose_does_not_reconnect() -> None:
    net = Network()
    seen = Recorder()
    ann = greeted(net, "Ann", seen)
    done = ann.close()
    net.run()
    net.advance(30)
    assert done.called and seen.events == []
