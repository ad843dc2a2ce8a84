"""Every error the server can send gets a clear sentence of its own."""

from __future__ import annotations

import pytest
from twisted.internet.error import ConnectionRefusedError

from client.console.errors import EXPLAIN, describe, explain
from client.net.connection import ConnectionClosed, ServerError
from protocol import ERROR_CODES


@pytest.mark.parametrize("code", sorted(ERROR_CODES))
def test_every_protocol_error_code_has_its_own_explanation(code: str) -> None:
    assert code in EXPLAIN
    assert explain(code).startswith(EXPLAIN[code])


def test_no_two_codes_share_a_sentence() -> None:
    assert len(set(EXPLAIN.values())) == len(EXPLAIN)


def test_the_servers_message_is_added_when_it_says_more() -> None:
    text = explain("lobby/bad_players", "Cosmic Run takes 1 to 4 players")
    assert text.endswith("(Cosmic Run takes 1 to 4 players)")


def test_an_unknown_code_is_explained_by_its_area() -> None:
    assert explain("lobby/too_cold", "brr") == "The lobby refused that. (brr)"
    assert explain("weird", "") == "The server refused that."


def test_network_trouble_reads_like_english() -> None:
    assert "server running" in describe(ConnectionRefusedError())
    assert describe(ConnectionClosed()) == "Not connected to the server right now."
    assert describe(ServerError("table/not_ready", "1 free")).startswith("Not every place")
