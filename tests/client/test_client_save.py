"""Game records kept on disk: `save [FILE]` in the console, and `cosmoport play` keeping every game.

The server is scripted (``FakeClient``): the tests give the ``record`` replies by hand. Files go
under ``tmp_path`` (``XDG_DATA_HOME`` points there), never to the real home directory.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from client_helpers import FakeClient, Typist, position, table_map

from client.console import record_files
from cosmoport.play import Match

RECORD: dict[str, Any] = {
    "format": "cosmoport-record",
    "format_version": 1,
    "game": "cosmic_run",
    "edition": "1.0",
    "players": 2,
    "options": {},
    "seed": 12345,
    "seats": [{"name": "Ann", "bot": False}, {"name": "Zoë ☄", "bot": True}],
    "takeovers": [],
    "actions": [{"version": 0, "seat": 0, "action": ["assign", 0, "P2"], "at": 0.5}],
    "result": {"scores": [12, 30], "ranking": [[1], [0]]},
    "created": "2025-03-01T11:58:00Z",
    "started": "2025-03-01T11:59:00Z",
    "finished": "2025-03-01T12:34:56Z",
    "table": 4,
    "server": "cosmoport-server 0.1",
}
GAME_OVER = {
    "type": "game_over",
    "table": 4,
    "version": 9,
    "scores": [12, 30],
    "ranking": [[1], [0]],
    "seats": ["Ann", "Zoë ☄"],
}


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """``XDG_DATA_HOME`` under ``tmp_path``, and local time three hours ahead of UTC."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    before = os.environ.get("TZ")
    os.environ["TZ"] = "XYZ-3"  # POSIX: local time is UTC+3, no time zone database needed
    time.tzset()
    yield tmp_path / "data"
    if before is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = before
    time.tzset()


def at_table(again: Any = None) -> tuple[Typist, FakeClient]:
    """A console seated at table 4 whose Cosmic Run for two is under way."""
    client = FakeClient()
    typist = Typist(client, again=again)
    typist.screen.width = 1000  # long paths are not cut across lines
    typist.type("join 4")
    table = table_map(4, "cosmic_run", ["Ann", "Zoë ☄"])
    client.reply({"type": "joined", "table": table, "slot": 0, "token": "t0k"})
    state = position("cosmic_run", 2, 5, 0)
    table["state"] = "playing"
    console = typist.console
    console.receive({"type": "started", "table": table, "seat": 0, "seats": ["Ann", "Zoë ☄"]})
    console.receive(
        {
            "type": "snapshot",
            "table": 4,
            "version": 0,
            "seat": 0,
            "view": state.view(0),
            "events": [],
            "legal": [],
        }
    )
    typist.take()
    return typist, client


def compact(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def unwrapped(typist: Typist) -> str:
    """What was written since the last look, as one line."""
    return " ".join(line.strip() for line in typist.take().splitlines())


def test_save_before_the_end_is_refused_and_asks_the_server_nothing() -> None:
    typist, client = at_table()
    sent = len(client.sent)
    typist.type("save")
    assert "The record is available once the game is over." in typist.take()
    lobby = Typist(FakeClient())
    lobby.type("save game.json")
    assert "The record is available once the game is over." in lobby.take()
    assert len(client.sent) == sent and lobby.console.client.sent == []


def test_save_after_the_end_writes_the_record_as_compact_utf8_json(tmp_path: Path) -> None:
    typist, client = at_table()
    typist.console.receive(GAME_OVER)
    assert "`save` keeps the record of this game in a file." in typist.take()
    target = tmp_path / "my game.json"
    typist.type(f"save {target}")
    assert client.sent[-1] == {"type": "record", "table": 4}
    client.reply({"type": "record", "table": 4, "record": RECORD})
    assert target.read_bytes() == (compact(RECORD) + "\n").encode("utf-8")
    text = unwrapped(typist)
    assert f"Record of table 4 saved to {target}" in text
    assert f"Replay it with `cosmoport replay '{target}'`" in text
    assert [p.name for p in tmp_path.iterdir()] == ["my game.json"]  # no temporary left


def test_save_to_a_jsonl_file_appends_one_line_per_record(tmp_path: Path) -> None:
    typist, client = at_table()
    typist.console.receive(GAME_OVER)
    target = tmp_path / "games.jsonl"
    target.write_text('{"an":"older record"}\n')
    for _ in range(2):
        typist.type(f"save {target}")
        client.reply({"type": "record", "table": 4, "record": RECORD})
    lines = target.read_text(encoding="utf-8").splitlines()
    assert lines == ['{"an":"older record"}', compact(RECORD), compact(RECORD)]
    text = unwrapped(typist)
    assert f"saved to {target} (line 2)" in text and f"`cosmoport replay {target} 3`" in text


def test_save_without_a_file_names_it_after_the_local_end_time_game_and_table(
    data_home: Path,
) -> None:
    typist, client = at_table()
    typist.console.receive(GAME_OVER)
    typist.type("leave")
    client.reply({"type": "left", "table": 4, "reason": "request"})
    typist.type("save")  # in the lobby: the game last seen ending
    assert client.sent[-1] == {"type": "record", "table": 4}
    client.reply({"type": "record", "table": 4, "record": RECORD})
    expected = data_home / "cosmoport" / "records" / "20250301-153456-cosmic_run-table4.json"
    assert json.loads(expected.read_text(encoding="utf-8")) == RECORD
    assert f"`cosmoport replay {expected}`" in unwrapped(typist)


def test_the_default_name_uses_now_when_the_record_does_not_say(data_home: Path) -> None:
    now = datetime.fromisoformat("2025-07-14T08:00:00+00:00")
    path = record_files.default_path({"game": "../alien artifacts"}, 9, now=now)
    assert path.name == "20250714-110000-_alien_artifacts-table9.json"
    assert path.parent == data_home / "cosmoport" / "records"


def test_the_servers_refusal_and_a_failed_write_are_each_one_clear_line(tmp_path: Path) -> None:
    typist, client = at_table()
    typist.console.receive(GAME_OVER)
    typist.type("save")
    client.refuse("table/not_finished", "not over")
    assert "That game is not over yet" in typist.take()
    target = tmp_path / "missing" / "x.json"
    typist.type(f"save {target}")
    client.reply({"type": "record", "table": 4, "record": RECORD})
    text = unwrapped(typist)
    assert f"Could not write the record to {target}: No such file or directory." in text
    assert "`save` again with another FILE" in text
    assert typist.screen.prompt == "table 4> "  # the console goes on


def test_a_spectator_can_save_the_game_it_watched(tmp_path: Path) -> None:
    client = FakeClient()
    typist = Typist(client)
    typist.screen.width = 1000
    typist.type("spectate 4")
    client.reply({"type": "spectating", "table": table_map(4, "cosmic_run", ["Ann", "Bob"])})
    state = position("cosmic_run", 2, 5, 0)
    typist.console.receive(
        {"type": "snapshot", "table": 4, "version": 0, "seat": None,
         "view": state.view(None), "events": [], "legal": []}
    )  # fmt: skip
    typist.type(f"save {tmp_path / 'w.json'}")
    assert "once the game is over" in typist.take()
    typist.console.receive(GAME_OVER)
    typist.type(f"save {tmp_path / 'w.json'}")
    client.reply({"type": "record", "table": 4, "record": RECORD})
    assert json.loads((tmp_path / "w.json").read_text(encoding="utf-8")) == RECORD


def test_help_save_explains_the_command() -> None:
    typist = Typist(FakeClient())
    typist.type("help")
    assert "  save [TABLE] [FILE]" in typist.take()
    typist.type("help save")
    text = " ".join(typist.take().split())  # wrapped to the screen's width
    assert ".jsonl" in text and "cosmoport replay" in text and "after the game's end" in text


# --- cosmoport play ------------------------------------------------------------------------------


def a_match(records: Path | None = None) -> tuple[Match, Typist, FakeClient]:
    args = argparse.Namespace(game="cr", players=2, seed=1, bot_delay=0.0, bots="random")
    match = Match(None, args, records=records)
    typist, client = at_table(again=match.again)
    match.client, match.console, match.table = client, typist.console, 4
    return match, typist, client


def test_play_keeps_every_record_in_played_jsonl_and_says_which_line(data_home: Path) -> None:
    match, typist, client = a_match()
    played = data_home / "cosmoport" / "records" / "played.jsonl"
    assert match.records == played
    match.receive(GAME_OVER)
    assert client.sent[-1] == {"type": "record", "table": 4}
    client.reply({"type": "record", "table": 4, "record": RECORD})
    text = unwrapped(typist)
    assert "=== Game over ===" in text and "`save` keeps" not in text
    assert f"Record kept: {played} (game 1 there; replay with `cosmoport replay {played} 1`)" in (
        text
    )
    match.table = 5  # `again`: the next table
    match.receive({**GAME_OVER, "table": 5})
    client.reply({"type": "record", "table": 5, "record": {**RECORD, "table": 5}})
    assert "(game 2 there; replay with" in unwrapped(typist)
    lines = played.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["table"] for line in lines] == [4, 5]


def test_play_asks_once_per_game_and_only_for_its_own_table(data_home: Path) -> None:
    match, _typist, client = a_match()
    sent = len(client.sent)
    match.receive({**GAME_OVER, "table": 3})
    match.receive(GAME_OVER)
    match.receive(GAME_OVER)
    assert client.sent[sent:] == [{"type": "record", "table": 4}]


def test_play_reports_a_record_it_could_not_keep_and_plays_on(tmp_path: Path) -> None:
    blocked = tmp_path / "a file"
    blocked.write_text("")
    match, typist, client = a_match(records=blocked / "played.jsonl")
    match.receive(GAME_OVER)
    client.reply({"type": "record", "table": 4, "record": RECORD})
    assert "! Could not keep the record in" in unwrapped(typist)
    match.table = 5
    match.receive({**GAME_OVER, "table": 5})
    client.refuse("proto/unknown_type", "no record here")
    assert "The record of this game could not be kept: The server does not know" in unwrapped(
        typist
    )
    assert typist.exit_code is None


def test_a_line_cut_short_by_a_crash_is_ended_so_line_numbers_stay_true(tmp_path: Path) -> None:
    path = tmp_path / "played.jsonl"
    path.write_bytes(b'{"first":1}\n{"cut sho')
    assert record_files.append({"n": 1}, path) == 3
    assert record_files.append({"n": 2}, path) == 4
    assert path.read_text().splitlines()[2:] == ['{"n":1}', '{"n":2}']
    assert os.path.getsize(path) == len(path.read_bytes())
