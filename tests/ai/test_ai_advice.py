"""The search behind a hint (``ai.advice.advise``) and the search's ``observe`` hook."""

from __future__ import annotations

import random

import pytest

import games
from ai.advice import advise
from ai.mcts import ISMCTS
from games.api import Action, State

GAMES = ["cosmic_run", "alien_artifacts"]


def _position(name: str, players: int = 2, seed: int = 5, steps: int = 7) -> State:
    state = games.get(name).new(players, seed)
    chooser = random.Random(seed)
    for _ in range(steps):
        legal = state.legal_actions()
        state.apply(legal[chooser.randrange(len(legal))])
    assert len(state.legal_actions()) > 1
    return state


@pytest.mark.parametrize("name", GAMES)
def test_advice_covers_the_search_and_only_legal_actions(name: str) -> None:
    state = _position(name)
    seat = state.current_player
    assert seat is not None
    legal = state.legal_actions()
    advice = advise(games.get(name), state.view(seat), legal, rng=random.Random(3), iterations=60)
    assert advice.iterations == 60
    assert sum(o.visits for o in advice.outlooks) == 60
    assert {o.action for o in advice.outlooks} <= set(legal)
    for outlook in advice.outlooks:
        assert 0 <= outlook.value <= 1
        assert outlook.vp >= 0
    again = advise(games.get(name), state.view(seat), legal, rng=random.Random(3), iterations=60)
    assert again == advice


def test_advice_alone_has_no_lead() -> None:
    state = _position("cosmic_run", players=1)
    view = state.view(0)
    advice = advise(
        games.get("cosmic_run"), view, state.legal_actions(), rng=random.Random(1), iterations=30
    )
    assert advice.outlooks and all(o.lead == 0.0 for o in advice.outlooks)


def test_advice_refuses_an_unknown_level() -> None:
    state = _position("cosmic_run")
    with pytest.raises(ValueError, match="unknown level"):
        advise(games.get("cosmic_run"), state.view(0), [], rng=random.Random(1), level="wise")


def test_observe_is_told_the_first_action_of_every_iteration() -> None:
    state = _position("cosmic_run")
    seat = state.current_player
    assert seat is not None
    seen: list[tuple[int, Action]] = []
    search = ISMCTS(
        games.get("cosmic_run"),
        rng=random.Random(2),
        iterations=40,
        observe=lambda player, action, end: seen.append((player, action)),
    )
    result = search.search(state.view(seat), seat, state.legal_actions())
    assert len(seen) == 40 and {player for player, _ in seen} == {seat}
    counted = {action: sum(1 for _, a in seen if a == action) for action in result.visits}
    assert counted == result.visits
