"""The client's record of its game: which messages replace what it holds."""

from __future__ import annotations

from typing import Any

from client.console.tracker import GameTracker


def message(kind: str, version: int, current: int, legal: bool = True) -> dict[str, Any]:
    return {
        "type": kind,
        "table": 1,
        "version": version,
        "seat": 0,
        "view": {"current_player": current},
        "events": [],
        "legal": [{"action": ["go"], "label": "go"}] if legal else [],
    }


def test_an_update_no_newer_than_what_is_held_is_ignored() -> None:
    game = GameTracker(1, "cosmic_run", ["Ann", "Bob"], 0)
    game.receive(message("update", 5, 1, legal=False))
    assert game.receive(message("update", 5, 0)) == ([], False)
    assert game.receive(message("update", 4, 0)) == ([], False)
    assert (game.version, game.my_turn) == (5, False)


def test_a_snapshot_replaces_what_is_held_even_with_a_lower_version() -> None:
    """After a resume the server's snapshot is the game as of now: a console that kept a
    higher version (a server of an older database format renumbered a restored game that had
    undos) must take it, or every move of its player is refused as stale, for good."""
    game = GameTracker(1, "cosmic_run", ["Ann", "Bob"], 0)
    game.receive(message("update", 9, 1, legal=False))
    assert game.receive(message("snapshot", 7, 0)) == ([], True)
    assert (game.version, game.my_turn) == (7, True)
    assert game.receive(message("update", 8, 1, legal=False))[1]  # and play goes on from it
    assert game.version == 8
