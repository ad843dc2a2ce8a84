"""Seat tokens kept on disk: the file itself, and the Client keeping it current from the protocol.

The store tests work on a file under ``tmp_path``; the Client tests run the real server in memory
(``client_helpers.Network``) with ``XDG_STATE_HOME`` pointing at ``tmp_path``, so nothing is
written to the real home directory.
"""

from __future__ import annotations

import json
import os
import random
import stat
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from client_helpers import Network, result

from client.net.connection import ServerError
from client.net.network_bot import NetworkBot, RandomChooser
from client.net.session import Client
from client.net.tokens import FILE_NAME, TokenStore, default_path, server_key

SERVER = "127.0.0.1:7777"


class Clock:
    """A wall clock for the store that moves a minute per reading."""

    def __init__(self) -> None:
        self.time = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.time += timedelta(minutes=1)
        return self.time


@pytest.fixture
def state_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return tmp_path / "state"


def store_at(path: Path, notes: list[str] | None = None) -> TokenStore:
    return TokenStore(path, now=Clock(), on_note=(notes.append if notes is not None else None))


# --- the file ------------------------------------------------------------------------------------


def test_the_file_lives_in_the_state_directory_and_is_only_readable_by_its_owner(
    state_home: Path,
) -> None:
    store = TokenStore()
    assert store.path == state_home / "cosmoport" / FILE_NAME == default_path()
    assert store.save(SERVER, 3, "tok3", "Ann", "cosmic_run")
    assert stat.S_IMODE(os.stat(store.path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(store.path.parent).st_mode) == 0o700
    assert [p.name for p in store.path.parent.iterdir()] == [FILE_NAME]  # no temporary left


def test_a_new_store_on_the_same_file_finds_the_seats_like_a_restarted_client(
    tmp_path: Path,
) -> None:
    path = tmp_path / "s" / FILE_NAME
    first = store_at(path)
    first.save(SERVER, 3, "tok3", "Ann", "cosmic_run")
    first.save(SERVER, 5, "tok5", "Ann B", "alien_artifacts")
    restarted = store_at(path)
    seats = restarted.seats(SERVER)
    assert [(s.table, s.token, s.name, s.game) for s in seats] == [
        (5, "tok5", "Ann B", "alien_artifacts"),  # the most recent first
        (3, "tok3", "Ann", "cosmic_run"),
    ]
    assert restarted.seat(SERVER, 3) is not None and restarted.seat(SERVER, 4) is None
    assert datetime.fromisoformat(seats[0].saved) > datetime.fromisoformat(seats[1].saved)


def test_seats_are_kept_per_server_and_a_new_token_replaces_the_old(tmp_path: Path) -> None:
    store = store_at(tmp_path / FILE_NAME)
    store.save(SERVER, 1, "a", "Ann", "cosmic_run")
    store.save("lan-box:7777", 1, "b", "Ann", "cosmic_run")
    store.save(SERVER, 1, "a2", "Ann", "cosmic_run")
    assert [s.token for s in store.seats(SERVER)] == ["a2"]
    assert [s.token for s in store.seats("lan-box:7777")] == ["b"]
    assert store.seats("other:1") == []
    assert store.forget(SERVER, 1) and not store.forget(SERVER, 1)
    assert store.seats(SERVER) == [] and len(store.seats("lan-box:7777")) == 1
    assert server_key("LAN-Box", 7777) == "lan-box:7777"
    assert server_key("::1", 7777) == "[::1]:7777"


def test_forget_token_forgets_every_table_kept_with_it(tmp_path: Path) -> None:
    store = store_at(tmp_path / FILE_NAME)
    store.save(SERVER, 1, "same", "Ann", "cosmic_run")
    store.save(SERVER, 2, "other", "Ann", "cosmic_run")
    assert store.forget_token(SERVER, "same") == [1]
    assert [s.table for s in store.seats(SERVER)] == [2]


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        "[1, 2]",
        '{"format": "something-else", "servers": {}}',
        "\udcff".encode("utf-8", "surrogateescape").decode("latin-1"),
    ],
)
def test_a_corrupt_file_is_ignored_with_a_note_and_written_anew_by_the_next_save(
    tmp_path: Path, content: str
) -> None:
    path = tmp_path / FILE_NAME
    path.write_bytes(content.encode("latin-1", "surrogateescape"))
    notes: list[str] = []
    store = store_at(path, notes)
    assert store.seats(SERVER) == []
    assert len(notes) == 1 and str(path) in notes[0]
    assert store.seats(SERVER) == [] and len(notes) == 1  # said once, not at every look
    assert store.save(SERVER, 2, "tok", "Ann", "cosmic_run")
    assert json.loads(path.read_text())["servers"][SERVER]["2"]["token"] == "tok"
    assert [s.table for s in store_at(path).seats(SERVER)] == [2]


def test_malformed_entries_are_left_out_and_the_good_ones_kept(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    good = {"token": "t", "name": "Ann", "game": "cosmic_run", "saved": "2025-01-01T00:00:00+00:00"}
    path.write_text(
        json.dumps(
            {
                "format": "cosmoport-seat-tokens",
                "version": 1,
                "servers": {SERVER: {"4": good, "x": good, "5": {"token": 3}}, "b": []},
            }
        )
    )
    assert [s.table for s in store_at(path).seats(SERVER)] == [4]


def test_an_unreadable_or_unwritable_place_is_a_note_never_a_crash(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    path.mkdir()  # a directory where the file should be: reading and replacing both fail
    notes: list[str] = []
    store = store_at(path, notes)
    assert store.seats(SERVER) == []
    assert store.save(SERVER, 1, "t", "Ann", "cosmic_run") is False
    assert any("Cannot read" in n for n in notes) and any("Cannot keep" in n for n in notes)
    assert [p.name for p in tmp_path.iterdir()] == [FILE_NAME]  # no temporary left behind
    blocked = store_at(tmp_path / "afile" / FILE_NAME, notes)
    (tmp_path / "afile").write_text("a file, not a directory")
    assert blocked.save(SERVER, 1, "t", "Ann", "cosmic_run") is False


# --- the Client keeps it current -----------------------------------------------------------------


def greeted(net: Network, name: str, store: TokenStore | None, **kwargs: Any) -> Client:
    client = net.client(name, tokens=store, **kwargs)
    d = client.start()
    net.run()
    assert result(d)["type"] == "welcome"
    return client


def ask(net: Network, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    d = client.request(msg)
    net.run()
    return result(d)


def table_of_two(net: Network, store: TokenStore) -> tuple[Client, Client]:
    """Ann (keeping her tokens) and Bob at table 1, a Cosmic Run for two that has not started."""
    ann = greeted(net, "Ann", store)
    bob = greeted(net, "Bob", None)
    ask(net, ann, {"type": "create", "game": "cosmic_run", "players": 2})
    ask(net, ann, {"type": "join", "table": 1, "name": "Ann the Bold"})
    ask(net, bob, {"type": "join", "table": 1})
    return ann, bob


def test_joined_saves_the_token_of_the_table_with_the_name_and_game(state_home: Path) -> None:
    net = Network()
    store = TokenStore()
    ann, _bob = table_of_two(net, store)
    [seat] = store.seats(ann.server)
    assert (seat.table, seat.token, seat.name, seat.game) == (
        1,
        ann.token,
        "Ann the Bold",
        "cosmic_run",
    )
    assert ann.kept_seats() == [seat]


def test_leaving_before_the_start_frees_the_place_and_forgets_the_token(
    state_home: Path,
) -> None:
    net = Network()
    store = TokenStore()
    ann, _bob = table_of_two(net, store)
    ask(net, ann, {"type": "leave"})
    assert store.seats(ann.server) == [] and ann.token is None


def test_leaving_during_the_game_keeps_the_token_and_resume_saves_the_rotated_one(
    state_home: Path,
) -> None:
    net = Network()
    store = TokenStore()
    ann, _bob = table_of_two(net, store)
    ask(net, ann, {"type": "start"})
    net.run()
    first = ann.token
    ask(net, ann, {"type": "leave"})
    assert [s.token for s in store.seats(ann.server)] == [first]
    resumed = ask(net, ann, {"type": "resume", "token": first})
    assert resumed["token"] != first
    assert [s.token for s in store.seats(ann.server)] == [resumed["token"]] == [ann.token]
    restarted = TokenStore()  # what a new process finds
    assert [s.token for s in restarted.seats(ann.server)] == [ann.token]


def test_a_reconnection_after_a_drop_keeps_the_rotated_token_on_disk(state_home: Path) -> None:
    net = Network()
    store = TokenStore()
    ann, _bob = table_of_two(net, store)
    ask(net, ann, {"type": "start"})
    first = ann.token
    net.drop(ann)
    net.advance(1)
    assert ann.seated and ann.token != first
    assert [s.token for s in store.seats(ann.server)] == [ann.token]


def test_the_end_of_the_game_forgets_the_token(state_home: Path) -> None:
    net = Network(seed=2)
    store = TokenStore()
    ann = greeted(net, "Ann", store)
    bot = NetworkBot(net.reactor, ann, RandomChooser(random.Random(3)))
    ask(net, ann, {"type": "create", "game": "cosmic_run", "players": 1})
    ask(net, ann, {"type": "join", "table": 1})
    assert len(store.seats(ann.server)) == 1
    ann.request({"type": "start"})
    for _ in range(2000):
        net.run()
        if bot.done.called:
            break
        net.reactor.advance(0.1)
    assert result(bot.done)["type"] == "game_over"
    assert store.seats(ann.server) == []


def test_a_closed_table_forgets_the_token(state_home: Path) -> None:
    net = Network()
    store = TokenStore()
    ann, _bob = table_of_two(net, store)
    seen: list[dict[str, Any]] = []
    ann.on_message = seen.append
    lobby = net.factory.hub.lobby
    lobby.close(lobby.table(1))
    net.run()
    assert {"type": "left", "table": 1, "reason": "closed"}.items() <= seen[-1].items()
    assert store.seats(ann.server) == []


def test_a_token_the_server_refuses_is_forgotten_but_other_refusals_keep_it(
    state_home: Path,
) -> None:
    net = Network()
    store = TokenStore()
    store.save(SERVER, 7, "not-a-token-the-server-knows", "Ann", "cosmic_run")
    store.save(SERVER, 8, "kept", "Ann", "cosmic_run")
    ann = greeted(net, "Ann", store)
    assert ann.server.startswith("id:") and store.seats(SERVER) == []  # moved to the server's id
    d = ann.request({"type": "resume", "token": "not-a-token-the-server-knows"})
    net.run()
    with pytest.raises(ServerError) as refused:
        result(d)
    assert refused.value.code == "session/bad_token"
    assert [s.table for s in store.seats(ann.server)] == [8]
    ask(net, ann, {"type": "create", "game": "cosmic_run", "players": 2})
    ask(net, ann, {"type": "join", "table": 1})
    d = ann.request({"type": "resume", "token": "kept"})  # wrong state: seated already
    net.run()
    with pytest.raises(ServerError):
        result(d)
    assert sorted(s.table for s in store.seats(ann.server)) == [1, 8]


def test_seats_are_kept_by_the_servers_id_and_found_through_another_address(
    state_home: Path,
) -> None:
    """Bob joined as 127.0.0.1; his console, killed, is started again for the name the network
    gave the same server: the seat is found, as the server said who it is."""
    net = Network()
    store = TokenStore()
    ann, _bob = table_of_two(net, store)
    server_id = net.factory.hub.store.server_id
    assert ann.server == f"id:{server_id}" and [s.table for s in store.seats(ann.server)] == [1]
    again = net.client("Ann", tokens=TokenStore())
    again.server = "192.0.2.2:7777"  # (the same in-memory server, reached by another address)
    started = again.start()
    net.run()
    assert result(started)["server_id"] == server_id
    assert [(s.table, s.token) for s in again.kept_seats()] == [(1, ann.token)]


def test_a_seat_kept_under_the_address_by_an_older_console_moves_to_the_servers_id(
    state_home: Path,
) -> None:
    store = TokenStore()
    store.save(SERVER, 3, "old", "Ann", "cosmic_run")
    net = Network()
    ann = greeted(net, "Ann", store)
    assert [s.token for s in ann.kept_seats()] == ["old"]
    data = json.loads(store.path.read_text())["servers"]
    assert list(data) == [ann.server]


def test_a_client_without_a_store_writes_nothing(state_home: Path) -> None:
    net = Network()
    ann = greeted(net, "Ann", None)
    ask(net, ann, {"type": "create", "game": "cosmic_run", "players": 2})
    ask(net, ann, {"type": "join", "table": 1})
    assert ann.token is not None and ann.kept_seats() == []
    assert not state_home.exists()
