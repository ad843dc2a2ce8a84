"""docs/protocol.schema.json stays the catalogue's: the committed file is what the generator makes
now, real frames of a real server pass it, and what the catalogue refuses the schema refuses."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from protocol import CATALOGUE, CLIENT_TYPES, SERVER_TYPES, ProtocolError, validate
from protocol.fields import INT_MAX, INT_MIN, Field
from protocol.messages import check_server_message
from protocol.schema import ID_INT_MAX, generate, render

_SERVER_TESTS = str(Path(__file__).resolve().parents[1] / "server")
if _SERVER_TESTS not in sys.path:
    sys.path.insert(0, _SERVER_TESTS)
from server_helpers import MemoryServer, play_random_game  # noqa: E402

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "docs" / "protocol.schema.json"
REGENERATE = "python -m protocol.schema > docs/protocol.schema.json"


def validator(name: str) -> jsonschema.Draft202012Validator:
    """A validator for one of the document's definitions (without the document's own anyOf)."""
    schema = generate()
    return jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": f"#/$defs/{name}"})


CLIENT = validator("client-message")
SERVER = validator("server-message")


def test_the_committed_schema_is_what_the_catalogue_generates() -> None:
    assert SCHEMA_FILE.read_text(encoding="utf-8") == render(), (
        f"docs/protocol.schema.json is stale: run `{REGENERATE}`"
    )


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(json.loads(render()))


def test_every_message_of_the_catalogue_has_a_schema_for_each_way_it_travels() -> None:
    defs = generate()["$defs"]
    assert {n[len("client-") :] for n in defs if n.startswith("client-")} - {"message"} == set(
        CLIENT_TYPES
    )
    assert {n[len("server-") :] for n in defs if n.startswith("server-")} - {"message"} == set(
        SERVER_TYPES
    )


# --- client messages: valid ones made from the catalogue, then broken one way at a time ---------

_SAMPLES: dict[str, Any] = {
    "id": 7,
    "versions": [2, 1],
    "name": "Zed",
    "text": "hello there",
    "token": "tok",
    "action": ["assign", 2, "P3"],
    "options": {"factions": ["SU", "COM"], "fast": True},
    "bool": True,
    "map": {},
    "list": [],
}


def sample(field: Field) -> Any:
    """A value the catalogue accepts for ``field``."""
    if field.kind in ("int", "int|nil"):
        return field.low if field.low is not None else 3
    if field.kind in ("str", "str|nil"):
        return "x" * (field.low or 1)
    if field.kind == "choice":
        return field.choices[-1]
    return _SAMPLES[field.kind]


def client_fields(msg_type: str) -> list[Field]:
    spec = next(m for m in CATALOGUE if m.type == msg_type)
    valid = full_message(msg_type, spec.fields)
    return [f for f in spec.fields if f.name in valid]


def full_message(msg_type: str, fields: tuple[Field, ...]) -> dict[str, Any]:
    """Every field the catalogue accepts from a client (server-only fields dropped)."""
    msg: dict[str, Any] = {"type": msg_type} | {f.name: sample(f) for f in fields if f.required}
    for field in fields:
        if field.required:
            continue
        candidate = {**msg, field.name: sample(field)}
        try:
            validate(candidate)
        except ProtocolError:
            continue
        msg = candidate
    return msg


def wrong_values(field: Field) -> list[Any]:
    """Values the catalogue refuses for ``field``."""
    bad: list[Any] = [{"x": 1}] if field.kind not in ("map", "options") else [[1]]
    if field.kind in ("int", "int|nil"):
        bad += ["3", True, 1.5, INT_MAX + 1, INT_MIN - 1]
        if field.low is not None:
            bad.append(field.low - 1)
        if field.high is not None:
            bad.append(field.high + 1)
    if field.kind in ("str", "choice", "token", "text", "name", "bool"):
        bad += [None, 12]
    if field.kind == "choice":
        bad.append("no-such-choice")
    if field.kind in ("str", "token"):
        bad.append("y" * ((field.high or 256) + 1))
    if field.kind == "name":
        bad += ["", " Ann", "Ann ", "Ann\n", "A\x07nn", "A" * 25]
    if field.kind == "text":
        bad += ["", "two\nlines", "tab\tbed", "z" * 301]
    if field.kind == "id":
        bad += [ID_INT_MAX + 1, INT_MIN - 1, "i" * 65, None, 1.5]
    if field.kind == "versions":
        bad += [[], [1] * 17, [-1], ["2"], [1.5], [True], [INT_MAX + 1], 2]
    if field.kind == "action":
        bad += [[], ["a"] * 17, [1.5], [INT_MAX + 1], ["s" * 65], [None], [["nested"]]]
    if field.kind == "options":
        bad += [{f"k{i}": 1 for i in range(33)}, {"": 1}, {"k" * 33: 1}, {"k": {"m": 1}}]
        bad += [{"k": [1] * 33}, {"k": "s" * 65}, {"k": [[1]]}]
    return bad


def catalogue_refuses(msg: dict[str, Any]) -> bool:
    try:
        validate(msg)
    except ProtocolError:
        return True
    return False


def client_cases() -> list[tuple[str, dict[str, Any]]]:
    cases = []
    for msg_type in sorted(CLIENT_TYPES):
        valid = full_message(msg_type, next(m for m in CATALOGUE if m.type == msg_type).fields)
        cases.append((f"{msg_type}: unknown field", {**valid, "colour": "red"}))
        for field in client_fields(msg_type):
            if field.required:
                gone = {k: v for k, v in valid.items() if k != field.name}
                cases.append((f"{msg_type}: no {field.name}", gone))
            for i, value in enumerate(wrong_values(field)):
                cases.append((f"{msg_type}.{field.name} bad #{i}", {**valid, field.name: value}))
    cases.append(("no type", {"version": 1}))
    cases.append(("unknown type", {"type": "teleport"}))
    cases.append(("type not a string", {"type": 3}))
    cases.append(("a server message", {"type": "welcome", "version": 1}))
    return cases


@pytest.mark.parametrize("msg_type", sorted(CLIENT_TYPES))
def test_a_client_message_the_catalogue_accepts_passes_the_schema(msg_type: str) -> None:
    spec = next(m for m in CATALOGUE if m.type == msg_type)
    minimal = {"type": msg_type} | {f.name: sample(f) for f in spec.fields if f.required}
    for msg in (minimal, full_message(msg_type, spec.fields)):
        validate(msg)
        CLIENT.validate(msg)


def test_edge_values_the_catalogue_accepts_pass_the_schema() -> None:
    for msg in (
        {"type": "ping", "id": ID_INT_MAX},
        {"type": "ping", "id": INT_MIN},
        {"type": "ping", "id": "i" * 64},
        {"type": "ping", "id": ""},
        {"type": "hello", "version": 1, "name": "A" * 24},
        {"type": "hello", "version": 1, "name": "Ann Lee"},
        {"type": "hello", "version": 1, "name": "Zoë 火"},
        {"type": "chat", "text": " padded "},
        {"type": "act", "version": INT_MAX, "action": [INT_MIN, "s" * 64] + ["x"] * 14},
        {"type": "create", "game": "g", "players": 16, "options": {"k": [None, True, 1, "s"]}},
    ):
        validate(msg)
        CLIENT.validate(msg)


def test_every_client_message_the_catalogue_refuses_the_schema_refuses() -> None:
    cases = client_cases()
    assert len(cases) > 200  # made from the catalogue: every type, field and kind
    let_through = []
    for label, msg in cases:
        assert catalogue_refuses(msg), f"the test's bad case {label!r} is valid: {msg!r}"
        if CLIENT.is_valid(msg):
            let_through.append(label)
    assert let_through == []


def test_a_schema_missing_a_bound_would_let_a_bad_case_through() -> None:
    # The comparison above can fail: a schema that forgot a bound lets the bad case through.
    loose = generate()
    loose["$defs"]["name"].pop("maxLength")
    check = jsonschema.Draft202012Validator(
        {"$defs": loose["$defs"], "$ref": "#/$defs/client-hello"}
    )
    assert not CLIENT.is_valid({"type": "hello", "version": 1, "name": "A" * 25})
    assert check.is_valid({"type": "hello", "version": 1, "name": "A" * 25})


# --- server messages: the frames of real games ----------------------------------------------------


@pytest.fixture(scope="module")
def real_frames() -> list[dict[str, Any]]:
    server = MemoryServer()
    frames: list[dict[str, Any]] = []
    for game, players, seed in (("cosmic_run", 2, 5), ("alien_artifacts", 3, 6)):
        seated, watchers, _ = play_random_game(server, game, players, random.Random(seed))
        for client in seated + watchers:
            client.request({"type": "act", "version": 0, "action": ["nonsense"]})
            client.request({"type": "chat", "text": "gg"})
            client.request({"type": "history", "limit": 5})
            client.request({"type": "list"})
            table = next(m["table"]["id"] for m in client.log if m["type"] == "started")
            client.request({"type": "record", "table": table})
            client.request({"type": "ping", "id": "p"})
            frames.extend(client.log)
    return frames


def test_every_frame_of_real_games_passes_the_server_schema(
    real_frames: list[dict[str, Any]],
) -> None:
    kinds = {msg["type"] for msg in real_frames}
    assert {"welcome", "joined", "started", "snapshot", "update", "game_over", "error"} <= kinds
    assert {"tables", "chat", "history", "record", "pong", "table_update", "spectating"} <= kinds
    by_type = {kind: validator(f"server-{kind}") for kind in kinds}
    for msg in real_frames:
        errors = [e.message for e in by_type[msg["type"]].iter_errors(msg)]
        assert errors == [], f"{msg['type']}: {errors[:3]}"
    assert all(SERVER.is_valid(msg) for msg in real_frames[:50])  # the union admits them too


def test_server_frames_the_catalogue_refuses_the_schema_refuses(
    real_frames: list[dict[str, Any]],
) -> None:
    seen: set[str] = set()
    checked = 0
    for msg in real_frames:
        if msg["type"] in seen:
            continue
        seen.add(msg["type"])
        spec = next(m for m in CATALOGUE if m.type == msg["type"])
        for field in spec.fields:
            broken = []
            if field.name in msg:
                gone = {k: v for k, v in msg.items() if k != field.name}
                broken.append(gone)
                broken += [{**msg, field.name: value} for value in wrong_values(field)[:3]]
            for bad in broken:
                try:
                    check_server_message(bad)
                except ProtocolError:
                    checked += 1
                    assert not SERVER.is_valid(bad), f"{msg['type']}: the schema let {bad} through"
    assert checked > 50
