"""``--as-server``: the kit as a strict server for a client that finds its own way. A good
client passes; a broken one has each bad frame reported with what the spec says; a program
that never connects fails. Real processes, real sockets on 127.0.0.1 (port 0)."""

from __future__ import annotations

import sys

import pytest
import pytest_twisted
from conformance_helpers import flat, run_strict

pytestmark = pytest.mark.slow


@pytest_twisted.ensureDeferred
async def test_a_client_that_joins_the_waiting_table_and_plays_passes(py_bot: list[str]) -> None:
    status, text = await run_strict([*py_bot, "{server}", "--table", "{table}"])
    assert status == 0, text
    assert "connection 1: joined, table 1 (cosmic_run)" in text
    assert "the program exited with status 0" in text
    assert "1 game(s) played to the end" in text
    assert "it spoke protocol version 2 (hello: version 2, versions [2, 1])" in text
    assert "Nothing the client sent broke the spec." in text
    assert "BREAKS THE SPEC" not in text


@pytest_twisted.ensureDeferred
async def test_each_bad_frame_of_a_broken_client_is_reported_with_the_spec(broken) -> None:
    command = broken(
        "chatty",
        [('{**hello, "client": "py-bot"}', '{**hello, "client": "py-bot", "colour": 1}')],
    )
    status, text = await run_strict([*command, "--table", "{table}"])
    assert status == 1, text
    text = flat(text)
    assert (
        "BREAKS THE SPEC: connection 1, frame 1 " in text
        and '{type: "hello", version: 2, versions: [2, 1], name: "py-bot", client: "py-bot", '
        "colour: 1, id: 1} → "
        "proto/bad_message"
        in text
    ), text
    assert "The spec: Valid msgpack but not a valid message" in text
    assert "frame 2" in text and "→ session/wrong_state" in text
    assert "(PROTOCOL.md section 5)" in text
    assert "2 problem(s) with what the client sent." in text


@pytest_twisted.ensureDeferred
async def test_a_hello_in_another_version_is_reported(broken) -> None:
    command = broken("future", [("VERSIONS = [2, 1]", "VERSIONS = [3]")])
    status, text = await run_strict([*command, "--table", "{table}"])
    assert status == 1, text
    text = flat(text)
    assert "frame 1 (" in text and "→ session/bad_version" in text, text
    assert "it spoke no protocol version (none in common, or refused; hello: version 3, " in text
    assert (
        "name no protocol version this server speaks (a `reject`; `supported` lists those it "
        "does): the version refusal. (PROTOCOL.md section 3)" in text
    )
    assert "1 problem(s) with what the client sent." in text


@pytest_twisted.ensureDeferred
async def test_a_program_that_never_connects_fails() -> None:
    status, text = await run_strict([sys.executable, "-c", "pass"], timeout=2.0)
    assert status == 1
    assert "the program exited with status 0" in text
    assert "it never connected: nothing to check" in text
