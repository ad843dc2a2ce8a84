"""The event database: one event per file, every game committed once, foreign files refused."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from server.store import Store
from tournament.director import Event
from tournament.entrants import parse_all
from tournament.store import EventStore, StoreError


def event(**changes: object) -> Event:
    settings: dict = {
        "name": "cr-test",
        "game": "cosmic_run",
        "players": 2,
        "entrants": parse_all(["random", "greedy"]),
        "games": 4,
        "seed": 7,
    }
    settings.update(changes)
    return Event(**settings)


def begin(store: EventStore, e: Event) -> None:
    store.begin_event(e.settings(), e.entrants, e.schedule())


def fake_result(number: int) -> dict:
    return {"number": number, "seating": [0, 1], "ranking": [[0], [1]], "record": {"n": number}}


def test_a_new_file_holds_the_event_and_its_schedule(tmp_path: Path) -> None:
    store = EventStore.open(tmp_path / "e.sqlite")
    e = event()
    begin(store, e)
    assert store.settings() == e.settings()
    assert store.entrants() == e.entrants
    assert store.schedule() == e.schedule()
    store.close()


def test_the_same_event_again_is_accepted_and_may_grow(tmp_path: Path) -> None:
    path = tmp_path / "e.sqlite"
    store = EventStore.open(path)
    begin(store, event())
    store.close()
    store = EventStore.open(path)
    begin(store, event(games=12))  # more games: the schedule grows, the first ones unchanged
    schedule = store.schedule()
    assert len(schedule) >= 12 and schedule[: len(event().schedule())] == event().schedule()
    store.close()


def test_another_event_under_the_same_name_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    path = tmp_path / "e.sqlite"
    store = EventStore.open(path)
    begin(store, event())
    store.close()
    store = EventStore.open(path)
    with pytest.raises(StoreError, match=r"holds another event .*seed 7 there, 8 now"):
        begin(store, event(seed=8))
    assert store.settings() == event().settings()
    assert store.schedule() == event().schedule()
    store.close()


def test_games_are_kept_in_the_order_they_finished_and_never_twice(tmp_path: Path) -> None:
    store = EventStore.open(tmp_path / "e.sqlite")
    begin(store, event())
    for number in (2, 0, 3):
        store.add_game(fake_result(number))
    assert [r["number"] for r in store.results()] == [2, 0, 3]
    assert "record" not in store.results()[0]
    assert list(store.records()) == ['{"n":2}', '{"n":0}', '{"n":3}']
    assert store.played_numbers() == {0, 2, 3}
    with pytest.raises(StoreError, match="cannot write"):
        store.add_game(fake_result(2))
    assert len(store.results()) == 3
    store.close()


def test_files_that_are_not_an_event_database_are_left_alone(tmp_path: Path) -> None:
    text = tmp_path / "notes.sqlite"
    text.write_text("hello")
    with pytest.raises(StoreError, match="not a Cosmoport tournament database"):
        EventStore.open(text)
    assert text.read_text() == "hello"
    server_db = tmp_path / "server.db"
    Store.open(server_db).close()
    with pytest.raises(StoreError, match="another program or another kind"):
        EventStore.open(server_db)
    with pytest.raises(StoreError, match="no such tournament database"):
        EventStore.open(tmp_path / "missing.sqlite", create=False)
    assert not (tmp_path / "missing.sqlite").exists()


def test_a_database_of_a_newer_format_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "e.sqlite"
    EventStore.open(path).close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 99")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="newer Cosmoport"):
        EventStore.open(path)
