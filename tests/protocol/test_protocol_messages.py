"""The message catalogue: every client message validates; every way to get one wrong is named."""

from __future__ import annotations

import pytest

from protocol import (
    BY_TYPE,
    CATALOGUE,
    CLIENT_TYPES,
    DISCONNECTING,
    ERROR_CODES,
    REJECT_CODES,
    SERVER_TYPES,
    ProtocolError,
    check_server_message,
    validate,
)
from protocol.fields import KINDS, NAME_MAX

VALID: dict[str, dict] = {
    "hello": {"type": "hello", "version": 1, "name": "Ann", "client": "test", "token": "t"},
    "list": {"type": "list"},
    "create": {
        "type": "create",
        "game": "cosmic_run",
        "players": 3,
        "options": {"variant": "x", "n": 2, "flags": [True, None, "a"]},
        "seating": "fixed",
        "autostart": True,
    },
    "join": {"type": "join", "table": 1, "slot": 0, "name": "Bo"},
    "spectate": {"type": "spectate", "table": 2},
    "resume": {"type": "resume", "token": "abc"},
    "leave": {"type": "leave"},
    "start": {"type": "start"},
    "act": {"type": "act", "version": 0, "action": ["assign", 2, "P3"]},
    "undo": {"type": "undo", "version": 3},
    "back": {"type": "back"},
    "add_bot": {"type": "add_bot", "level": "hard"},
    "chat": {"type": "chat", "text": "gl hf"},
    "ping": {"type": "ping"},
    "pong": {"type": "pong"},
    "history": {"type": "history", "limit": 10, "before": 40},
    "record": {"type": "record", "table": 7},
}


def code_of(msg: dict) -> str:
    with pytest.raises(ProtocolError) as info:
        validate(msg)
    return info.value.code


def test_every_client_message_has_a_valid_example():
    assert set(VALID) == CLIENT_TYPES


@pytest.mark.parametrize("kind", sorted(CLIENT_TYPES))
def test_a_valid_message_validates_with_or_without_an_id(kind):
    assert validate(VALID[kind]).type == kind
    assert validate({**VALID[kind], "id": 12}).type == kind
    assert validate({**VALID[kind], "id": "req-12"}).type == kind


@pytest.mark.parametrize("kind", sorted(CLIENT_TYPES))
def test_an_unknown_field_is_a_bad_message(kind):
    assert code_of({**VALID[kind], "surprise": 1}) == "proto/bad_message"


@pytest.mark.parametrize(
    ("kind", "field"),
    [(m.type, f.name) for m in CATALOGUE if m.type in CLIENT_TYPES for f in m.fields if f.required],
)
def test_a_missing_required_field_is_a_bad_message(kind, field):
    msg = dict(VALID[kind])
    del msg[field]
    assert code_of(msg) == "proto/bad_message"


@pytest.mark.parametrize(
    ("kind", "field"),
    [
        (m.type, f.name)
        for m in CATALOGUE
        if m.type in CLIENT_TYPES
        for f in m.fields
        if f.name in VALID[m.type] or f.name == "id"
    ],
)
def test_a_field_of_the_wrong_type_is_refused(kind, field):
    expected = "lobby/bad_name" if field == "name" else "proto/bad_message"
    wrong = 3.5 if field == "options" else {"nested": "map"}
    assert code_of({**VALID[kind], field: wrong}) == expected


def test_a_message_without_type_is_a_bad_message():
    assert code_of({"version": 1}) == "proto/bad_message"
    assert code_of({"type": 5}) == "proto/bad_message"


def test_an_unknown_type_is_named():
    assert code_of({"type": "teleport"}) == "proto/unknown_type"


def test_server_only_messages_are_unknown_from_a_client():
    for kind in SERVER_TYPES - CLIENT_TYPES:
        assert code_of({"type": kind}) == "proto/unknown_type"


def test_a_client_chat_may_not_name_its_sender():
    assert code_of({"type": "chat", "text": "hi", "from": "admin"}) == "proto/bad_message"


@pytest.mark.parametrize(
    "name", ["", " Ann", "Ann ", "A\nnn", "x" * (NAME_MAX + 1), "bell\x07", 7, None]
)
def test_bad_names_are_refused_as_bad_names(name):
    assert code_of({**VALID["hello"], "name": name}) == "lobby/bad_name"


@pytest.mark.parametrize("name", ["A", "Zoë", "R2-D2", "x" * NAME_MAX, "Anna Maria", "名前"])
def test_good_names_pass(name):
    validate({**VALID["hello"], "name": name})


@pytest.mark.parametrize(
    "action",
    [[], ["x"] * 17, [1.5], [True], [None], [["nested"]], ["x" * 65], [2**31], [{"a": 1}]],
    ids=["empty", "long", "float", "bool", "nil", "nested", "long-str", "big-int", "map"],
)
def test_malformed_actions_are_bad_messages(action):
    assert code_of({"type": "act", "version": 0, "action": action}) == "proto/bad_message"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("players", 0),
        ("players", 17),
        ("players", True),
        ("seating", "shuffled"),
        ("autostart", 1),
        ("options", {"k": {"deep": 1}}),
        ("options", {"k": 1.5}),
        ("options", {"": 1}),
        ("options", {f"k{i}": 1 for i in range(33)}),
        ("game", "g" * 33),
    ],
)
def test_create_fields_are_bounded(field, value):
    assert code_of({**VALID["create"], field: value}) == "proto/bad_message"


@pytest.mark.parametrize("text", ["", "x" * 301, "two\nlines", 5])
def test_chat_text_is_one_printable_line(text):
    assert code_of({"type": "chat", "text": text}) == "proto/bad_message"


@pytest.mark.parametrize("value", [-1, 2**31, "1", None])
def test_versions_and_table_ids_are_plain_non_negative_integers(value):
    assert code_of({"type": "act", "version": value, "action": ["x"]}) == "proto/bad_message"
    assert code_of({"type": "spectate", "table": value}) == "proto/bad_message"


@pytest.mark.parametrize("value", [True, 1.0, "x" * 65, [1], 2**60])
def test_ids_are_integers_or_short_strings(value):
    assert code_of({"type": "ping", "id": value}) == "proto/bad_message"


def test_every_field_kind_is_known_and_every_reply_is_a_server_message():
    for msg in CATALOGUE:
        for field in msg.fields:
            assert field.kind in KINDS, (msg.type, field.name)
        for reply in msg.reply:
            assert reply in SERVER_TYPES, (msg.type, reply)


def test_error_code_families():
    assert set(ERROR_CODES) >= DISCONNECTING
    assert set(ERROR_CODES) >= REJECT_CODES
    for code in ERROR_CODES:
        area, _, what = code.partition("/")
        assert area in {"proto", "session", "lobby", "table", "action", "limit", "server"}
        assert what and what == what.lower()


def test_protocol_error_only_takes_catalogued_codes():
    assert ProtocolError("action/stale", "x").code == "action/stale"
    assert ProtocolError("limit/rate", "x").disconnects
    assert not ProtocolError("action/stale", "x").disconnects
    with pytest.raises(ValueError):
        ProtocolError("action/whatever", "x")


def test_server_messages_are_checked_too():
    check_server_message({"type": "pong"})
    check_server_message({"type": "chat", "text": "hi", "from": "Ann", "scope": "lobby"})
    with pytest.raises(ProtocolError):
        check_server_message({"type": "chat", "text": "hi"})
    with pytest.raises(ProtocolError):
        check_server_message({"type": "hello", "version": 1, "name": "x"})
    with pytest.raises(ProtocolError):
        check_server_message({"type": "left", "table": 1, "reason": "bored"})
    assert BY_TYPE["update"].sender == "server"


def test_the_server_only_fields_of_history_and_record_are_refused_from_a_client():
    assert code_of({"type": "history", "games": []}) == "proto/bad_message"
    assert code_of({"type": "record", "table": 7, "record": {}}) == "proto/bad_message"
    assert code_of({"type": "history", "limit": 51}) == "proto/bad_message"


def test_a_server_history_or_record_must_carry_its_payload():
    check_server_message({"type": "history", "games": [], "more": False})
    check_server_message({"type": "record", "table": 3, "record": {"format": "x"}})
    with pytest.raises(ProtocolError):
        check_server_message({"type": "history", "games": []})
    with pytest.raises(ProtocolError):
        check_server_message({"type": "record", "table": 3})
