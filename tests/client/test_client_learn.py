"""The console's teaching commands: rules, legend, hint and preview (nothing sent to the server)."""

from __future__ import annotations

from typing import Any

import pytest
from client_helpers import FakeClient, Typist, legal_of
from test_client_console import seated as console_seated
from twisted.internet import defer

from client.console import hints
from client.games import preview


def seated(game: str = "cosmic_run", steps: int = 0) -> tuple[Typist, Any, Any]:
    """A console at a started 2-player game, its engine state and its (scripted) client."""
    typist, state = console_seated(2, game, steps)
    return typist, state, typist.console.client


def test_rules_away_from_a_table_asks_which_game_then_lists_its_topics() -> None:
    typist = Typist(FakeClient())
    typist.type("rules")
    assert "Which game?" in typist.take()
    typist.type("rules aa")
    listing = typist.take()
    assert "Alien Artifacts" in listing and "rules 1" not in listing.split("\n")[0]
    typist.type("rules cosmic-run 1")
    assert len(typist.take().splitlines()) > 3


def test_rules_at_a_table_are_that_games_rules() -> None:
    typist, _, client = seated("cosmic_run")
    sent = len(client.sent)
    typist.type("rules meteor")
    text = typist.take()
    assert "meteor" in text.lower()
    assert len(client.sent) == sent  # nothing went to the server


def test_legend_explains_the_board_of_the_game_at_hand() -> None:
    typist, _, _ = seated("cosmic_run")
    typist.type("legend")
    text = typist.take()
    assert "Infodere" in text and "meteor" in text.lower()
    typist.type("legend aa")
    assert "operative" in typist.take().lower()


def test_preview_lists_what_each_action_will_do() -> None:
    typist, state, client = seated("alien_artifacts", steps=12)
    sent = len(client.sent)
    typist.type("preview")
    text = typist.take()
    legal = legal_of(state)
    texts = preview.previews(state.view(state.current_player), legal)
    for number in range(1, len(legal) + 1):
        assert f"\n{number:>3} [" in f"\n{text}"  # each choice, with its name
    for shown in texts:
        if shown:
            assert shown in text
    typist.type("preview 1")
    one = typist.take()
    assert one.startswith("  1 [") and (texts[0] or "nothing more") in one
    typist.type(f"preview {len(legal) + 1}")
    assert f"A number from 1 to {len(legal)}" in typist.take()
    assert len(client.sent) == sent


def test_hint_shows_the_bots_top_choices_for_this_position(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    typist, state, client = seated("cosmic_run")
    sent = len(client.sent)
    asked: list[Any] = []

    def at_once(reactor: Any, view: Any, legal: Any, seed: int) -> Any:
        asked.append((view, legal, seed))
        return defer.succeed(hints.hint(view, legal, seed=seed, iterations=30))

    monkeypatch.setattr(hints, "hint_async", at_once)
    typist.type("hint")
    text = typist.take()
    seat = state.current_player
    assert asked and asked[0][0] == state.view(seat)  # only the player's own view
    assert [tuple(a) for a in asked[0][1]] == [tuple(a) for a in state.legal_actions()]
    assert "1. " in text and "%" in text
    assert len(client.sent) == sent


def test_hint_and_preview_wait_for_your_turn() -> None:
    typist = Typist(FakeClient())
    for command in ("hint", "preview"):
        typist.type(command)
        assert "Nothing to decide now" in typist.take()


def test_help_lists_the_teaching_commands() -> None:
    typist = Typist(FakeClient())
    typist.type("help")
    text = typist.take()
    for command in ("rules", "legend", "hint", "preview"):
        assert command in text
