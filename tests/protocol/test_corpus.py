"""The compatibility corpus: every recorded exchange of every published protocol version
(tests/protocol/corpus/v1, v2) is replayed against today's server on every run, so that no
change can break what a client of an earlier version relies on without a test saying so.

A fixture that fails here is a client that would break: change the server back, or (if the
change is meant) give it a new protocol version and record the new behaviour under it, saying
in PROTOCOL.md 3.1 what a client of the old version gets. Never edit a fixture of a published
version to make it pass."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parent / "corpus"
if str(CORPUS) not in sys.path:
    sys.path.insert(0, str(CORPUS))

from replay import expected, fixtures, load, replay  # noqa: E402

from protocol import SUPPORTED_VERSIONS  # noqa: E402

FIXTURES = fixtures()


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


@pytest.mark.parametrize("path", FIXTURES, ids=_id)
def test_the_server_answers_every_recorded_exchange_as_recorded(path: Path) -> None:
    fixture = load(path)
    got = replay(fixture)
    for number, (step, want, answer) in enumerate(
        zip(fixture["steps"], expected(fixture), got, strict=True), 1
    ):
        sent = step.get("send", step.get("send_hex", step.get("send_wire_hex")))
        assert answer == want, (
            f"{_id(path)} step {number} ({step.get('note', '')}): sent {sent!r}\n"
            f"  recorded: {want}\n  today:    {answer}"
        )


def test_the_corpus_holds_every_version_the_server_speaks() -> None:
    folders = {path.parent.name for path in FIXTURES}
    assert folders == {f"v{version}" for version in SUPPORTED_VERSIONS}
    for path in FIXTURES:
        fixture = load(path)
        assert path.parent.name == f"v{fixture['protocol_version']}", path
        assert fixture["source"] and fixture["steps"], path
        assert all("expect" in step for step in fixture["steps"]), f"{path}: not recorded"


def test_every_version_1_fixture_is_welcomed_in_version_1() -> None:
    """A fixture of version 1 is a version-1 client: each of its sessions agrees on 1."""
    for path in CORPUS.glob("v1/*.json"):
        versions = {
            reply["version"]
            for step in load(path)["steps"]
            for reply in step["expect"]
            if reply["type"] == "welcome"
        }
        assert versions == {1}, path


def test_a_changed_answer_fails_the_replay() -> None:
    """The comparison sees a change: an echoed id, a code, a closed connection."""
    fixture = load(CORPUS / "v1" / "node_client_issue_28.json")
    assert replay(fixture) == expected(fixture)
    for change in ("id", "code", "closed"):
        changed = copy.deepcopy(fixture)
        step = changed["steps"][0] if change != "code" else changed["steps"][2]
        if change == "closed":
            step["closed"] = True
        else:
            step["expect"][0][change] = "something else"
        assert replay(changed) != expected(changed), change


def test_a_refusal_that_must_name_its_rule_is_checked() -> None:
    fixture = load(CORPUS / "v1" / "narrowings_kept.json")
    assert replay(fixture) == expected(fixture)
    fixture["steps"][2]["message_has"] = "a rule no message names"
    assert replay(fixture) != expected(fixture)
