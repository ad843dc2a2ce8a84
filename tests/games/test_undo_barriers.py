"""Undo barriers (``State.barrier``): which actions can never be taken back, per game.

The property that matters: an action that is *not* a barrier shows its actor nothing new.
Whatever the hidden parts of the game are (every determinization of the actor's view is a game
the actor cannot tell from the real one), playing the action gives the actor the same view
afterwards, and the same seat decides next. So undoing it never lets a seat see something and
take back its choice. (Other seats may see the actor's own cards it chose to show, e.g. a card
paid from its hand in Alien Artifacts.)
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import games

GAMES = {"cosmic_run": (1, 2, 3), "alien_artifacts": (2, 3)}
CASES = [(name, players) for name, counts in GAMES.items() for players in counts]


def _random_game(name: str, players: int, seed: int) -> list[tuple[games.State, Any]]:
    """Every (state before, action) of one random game."""
    state = games.get(name).new(players, seed)
    rng = random.Random(seed)
    steps = []
    while not state.is_over:
        action = rng.choice(state.legal_actions())
        steps.append((state.clone(), action))
        state.apply(action)
    return steps


@pytest.mark.parametrize(("name", "players"), CASES)
def test_an_action_that_is_no_barrier_shows_its_actor_nothing_new(name: str, players: int) -> None:
    game = games.get(name)
    checked = 0
    for seed in range(3):
        for i, (before, action) in enumerate(_random_game(name, players, seed)):
            actor = before.current_player
            if before.barrier(action):
                continue
            after = before.clone()
            after.apply(action)
            assert after.current_player == actor, f"{action!r} passed the decision on"
            if i % 3:  # determinizing is slow: sample every third undoable action
                continue
            for other_seed in (101, 202, 303):
                twin = game.determinize(before.view(actor), actor, other_seed + i)
                twin.apply(action)
                assert twin.current_player == actor
                assert twin.view(actor) == after.view(actor), (
                    f"{name} seed {seed}: {action!r} showed seat {actor} something hidden"
                )
                checked += 1
    assert checked > 20


@pytest.mark.parametrize(("name", "players"), CASES)
def test_barrier_leaves_the_state_unchanged(name: str, players: int) -> None:
    for before, action in _random_game(name, players, 7)[:80]:
        view = before.view(before.current_player)
        legal = before.legal_actions()
        before.barrier(action)
        assert before.view(before.current_player) == view
        assert before.legal_actions() == legal


@pytest.mark.parametrize(("name", "players"), CASES)
def test_every_turn_change_and_the_last_action_are_barriers(name: str, players: int) -> None:
    for seed in range(3):
        for before, action in _random_game(name, players, seed):
            after = before.clone()
            events = after.apply(action)
            turned = any(e["type"] == "turn" for e in events)
            passed = after.current_player != before.current_player
            if turned or passed or after.is_over:
                assert before.barrier(action), f"{action!r} ends the turn but is undoable"


@pytest.mark.parametrize(("name", "players"), CASES)
def test_barrier_given_the_state_after_answers_as_without_it(name: str, players: int) -> None:
    # A server has played the action on a copy already: barrier(action, after) plays nothing.
    barriers = 0
    for before, action in _random_game(name, players, 11):
        after = before.clone()
        after.apply(action)
        answer = before.barrier(action, after)
        assert answer == before.barrier(action), f"{action!r}"
        barriers += answer
    assert barriers > 0


@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_illegal_action_is_refused_by_barrier(name: str) -> None:
    state = games.get(name).new(2, 1)
    with pytest.raises(games.IllegalAction):
        state.barrier(("no such action",))


# --- Cosmic Run: by kind -------------------------------------------------------------------------


def _kinds_seen(name: str, players: int) -> tuple[set[str], set[str]]:
    barriers: set[str] = set()
    free: set[str] = set()
    for seed in range(4):
        for before, action in _random_game(name, players, seed):
            (barriers if before.barrier(action) else free).add(action[0])
    return barriers, free


def test_cosmic_run_rolls_are_barriers_and_placements_nudges_and_flips_are_not() -> None:
    barriers, free = _kinds_seen("cosmic_run", 2)
    assert {"roll", "reroll"} <= barriers
    assert "assign" in free  # a die placement that does not end the turn
    for before, action in _random_game("cosmic_run", 2, 3):
        if action[0] in ("roll", "reroll"):
            assert before.barrier(action)
        if action[0] in ("nudge", "flip"):
            assert not before.barrier(action)  # plain arithmetic on a die everyone sees


def test_cosmic_run_an_infodere_pick_up_and_a_new_alien_in_the_row_are_barriers() -> None:
    shown = {"infodere": 0, "refill": 0}
    for seed in range(4):
        for before, action in _random_game("cosmic_run", 2, seed):
            after = before.clone()
            kinds = {e["type"] for e in after.apply(action)}
            for kind in kinds & set(shown):
                assert before.barrier(action), f"{action!r} shows a hidden {kind}"
                shown[kind] += 1
    assert all(shown.values()), shown


def test_alien_artifacts_payment_steps_and_choices_are_not_barriers_but_draws_are() -> None:
    _, free = _kinds_seen("alien_artifacts", 2)
    assert "add" in free  # one payment step
    assert "start_action" in free or "trade" in free
    for seed in range(3):
        for before, action in _random_game("alien_artifacts", 2, seed):
            after = before.clone()
            events = after.apply(action)
            kinds = {e["type"] for e in events}
            shown = {"draw", "dig", "star_chart", "attack", "alien_revealed", "artifact_gain"}
            if kinds & shown:
                assert before.barrier(action), f"{action!r} drew or showed a card: {kinds}"
