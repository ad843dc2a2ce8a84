"""`hint`: the normal bot's top three choices from the player's own view, with reasons."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any

import msgpack
import pytest

import games
from client.console.hints import Hint, hint, hint_async, hint_lines
from games.api import Game, State, View
from games.cosmic_run.codes import ASSIGN, TARGET_INDEX, UNASSIGNED
from games.cosmic_run.state import CosmicRunState

GAMES = ["cosmic_run", "alien_artifacts"]


def midgame(name: str, seed: int = 5, steps: int = 7) -> State:
    """A position a few random actions into a two-player game, with several legal actions."""
    state = games.get(name).new(2, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    assert len(state.legal_actions()) > 3
    return state


def seat_view(state: State) -> View:
    seat = state.current_player
    assert seat is not None
    return state.view(seat)


def last_die_on_planet_1() -> CosmicRunState:
    """Seat A's last die shows a 1, and its ship and B's both stand one step short of P1.

    Putting the 1 on P1 discovers the planet (10 VP) before B can; anything else wastes the die
    and leaves P1 to B. No alien is in the row and A has no crystals, to keep the choice short.
    """
    state = games.get("cosmic_run").new(2, 4)
    assert isinstance(state, CosmicRunState)
    state.alien_deck += [alien for alien in state.row if alien >= 0]
    state.row = [-1] * 4
    state.turn = 0
    state.phase = ASSIGN
    state.dice = [1, 2, 3, 4, 5, 6]
    state.loc = [UNASSIGNED] + [TARGET_INDEX["T"]] * 5
    state.assigned_since_roll = True
    state.pos[0][0] = state.pos[1][0] = 15
    state.crystals[0] = 0
    state._legal = state._public = None  # forget what was cached before the fields changed
    return state


@pytest.mark.parametrize("name", GAMES)
def test_the_same_seed_gives_the_same_hints(name: str) -> None:
    state = midgame(name)
    view, legal = seat_view(state), state.legal_actions()
    first = hint(view, legal, seed=11)
    assert first == hint(view, legal, seed=11)
    assert first and all(isinstance(h, Hint) for h in first)


@pytest.mark.parametrize("name", GAMES)
def test_hints_are_at_most_three_legal_actions_best_first(name: str) -> None:
    state = midgame(name)
    legal = state.legal_actions()
    hints = hint(seat_view(state), legal, seed=2)
    assert 1 <= len(hints) <= 3
    assert len({h.action for h in hints}) == len(hints)
    for h in hints:
        assert h.action in legal and legal[h.index] == h.action
        assert 0 < h.share <= 1
        assert h.value is not None and 0 <= h.value <= 1
        assert h.expected_vp is not None and h.lead is not None
        assert f"{h.share:.0%} of 250 trial games" in h.reason
        assert f"about {h.expected_vp:.0f} VP" in h.reason
    shares = [h.share for h in hints]
    assert shares == sorted(shares, reverse=True)
    assert sum(shares) <= 1 + 1e-9


def test_a_smaller_budget_is_said_in_the_reason() -> None:
    state = midgame("cosmic_run")
    hints = hint(seat_view(state), state.legal_actions(), seed=2, iterations=40)
    assert all("of 40 trial games" in h.reason for h in hints)
    assert all(h.share * 40 == pytest.approx(round(h.share * 40)) for h in hints)


def test_the_die_that_discovers_a_planet_is_the_top_hint() -> None:
    state = last_die_on_planet_1()
    legal = state.legal_actions()
    assert ("assign", 0, "P1") in legal and len(legal) > 3
    for seed in (1, 2, 3):
        hints = hint(state.view(0), legal, seed=seed)
        top = hints[0]
        assert top.action == ("assign", 0, "P1")
        assert top.share >= 0.35
        assert top.share >= 3 * hints[1].share
        assert top.value is not None and top.value > max(h.value or 0 for h in hints[1:])


def test_a_single_legal_action_is_the_only_move() -> None:
    state = midgame("cosmic_run")
    only = state.legal_actions()[2]
    hints = hint(seat_view(state), [list(only)], seed=1)
    assert hints == [Hint(only, 0, 1.0, None, None, None, "the only move")]


def test_no_legal_action_gives_no_hint() -> None:
    state = midgame("cosmic_run")
    assert hint(seat_view(state), [], seed=1) == []


@pytest.mark.parametrize("name", GAMES)
def test_a_view_that_went_over_the_wire_gives_the_same_hints(name: str) -> None:
    state = midgame(name)
    view, legal = seat_view(state), state.legal_actions()
    wired_view = msgpack.unpackb(msgpack.packb(view))
    wired_legal = msgpack.unpackb(msgpack.packb(legal))  # lists, as the server sends them
    assert hint(wired_view, wired_legal, seed=4) == hint(view, legal, seed=4)


class Spy:
    """A game that notes every attribute asked of it and every ``determinize`` call."""

    def __init__(self, game: Game) -> None:
        self._game = game
        self.asked: set[str] = set()
        self.calls: list[tuple[View, int | None]] = []

    def __getattr__(self, attribute: str) -> Any:
        self.asked.add(attribute)
        return getattr(self._game, attribute)

    def determinize(self, view: View, seat: int | None, seed: int) -> State:
        self.asked.add("determinize")
        self.calls.append((view, seat))
        return self._game.determinize(view, seat, seed)


@pytest.mark.parametrize("name", GAMES)
def test_the_search_only_samples_states_from_the_given_view(name: str) -> None:
    state = midgame(name)
    view, legal = seat_view(state), state.legal_actions()
    spy = Spy(games.get(name))
    hints = hint(view, legal, seed=4, iterations=60, game=spy)
    assert spy.asked <= {"determinize", "name"}
    assert len(spy.calls) == 60
    assert all(given is view and seat == view["seat"] for given, seat in spy.calls)
    assert hints == hint(view, legal, seed=4, iterations=60)


LABELS_OF_LENGTH = [
    "Put W1 (a 1) on P1: your ship reaches the planet and discovers it for 10 VP",
    "Put W1 (a 1) on P2",
    "Roll the 1 unassigned die",
]


@pytest.mark.parametrize("width", [40, 80])
def test_hint_lines_fit_the_width_and_name_the_menu_entry(width: int) -> None:
    state = last_die_on_planet_1()
    legal = state.legal_actions()
    hints = hint(state.view(0), legal, seed=1)
    labels = [state.label(action) for action in legal]
    labels[hints[0].index] = LABELS_OF_LENGTH[0]
    lines = hint_lines(hints, labels, width)
    assert all(len(line) <= width for line in lines)
    text = " ".join(line.strip() for line in lines)
    assert lines[0].startswith("1. Put W1 (a 1) on P1")
    assert LABELS_OF_LENGTH[0] in text
    for rank, h in enumerate(hints, 1):
        assert any(line.startswith(f"{rank}. ") for line in lines)
        assert labels[h.index] in text and h.reason in text
    if width == 40:
        assert len(lines) > 2 * len(hints)  # the long label and the reasons were wrapped


def test_hint_lines_for_the_only_move_and_for_nothing() -> None:
    only = [Hint(("pass",), 0, 1.0, None, None, None, "the only move")]
    assert hint_lines(only, ["Pass"], 40) == ["1. Pass", "   the only move"]
    assert hint_lines([], [], 40) == ["No hint: there is nothing to choose now."]


class ThreadPool:
    """Runs each job on a thread of its own; the test joins it (no sleeping)."""

    def __init__(self) -> None:
        self.threads: list[threading.Thread] = []
        self.ran_on: list[int] = []

    def callInThreadWithCallback(
        self, on_result: Callable[[bool, Any], None], job: Callable[..., Any], *args: Any, **kw: Any
    ) -> None:
        def run() -> None:
            self.ran_on.append(threading.get_ident())
            on_result(True, job(*args, **kw))

        thread = threading.Thread(target=run)
        self.threads.append(thread)
        thread.start()


class Reactor:
    """What ``deferToThreadPool`` needs of a reactor; calls from threads wait for ``run``."""

    def __init__(self) -> None:
        self.pool = ThreadPool()
        self.pending: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []

    def getThreadPool(self) -> ThreadPool:
        return self.pool

    def callFromThread(self, call: Callable[..., Any], *args: Any) -> None:
        self.pending.append((call, args))

    def run(self) -> None:
        for thread in self.pool.threads:
            thread.join()
        while self.pending:
            call, args = self.pending.pop(0)
            call(*args)


def test_hint_async_searches_in_a_thread_and_fires_with_the_hints() -> None:
    state = midgame("cosmic_run")
    view, legal = seat_view(state), state.legal_actions()
    reactor = Reactor()
    got: list[list[Hint]] = []
    deferred = hint_async(reactor, view, legal, 8)
    deferred.addCallback(got.append)
    reactor.run()
    assert got == [hint(view, legal, seed=8)]
    assert reactor.pool.ran_on and reactor.pool.ran_on[0] != threading.get_ident()


def test_hint_lines_keep_a_number_with_its_vp_at_every_width() -> None:
    reason = "picked in 55% of 250 trial games; a few moves on: about 11 VP, 3 ahead"
    hints = [Hint(("pass",), 0, 0.55, 0.6, 11.2, 3.1, reason)]
    for width in range(20, 80):
        lines = hint_lines(hints, ["Pass"], width)
        assert all(len(line) <= width for line in lines)
        assert not any(line.strip().startswith("VP") for line in lines), width
        assert " ".join(line.strip() for line in lines[1:]) == reason
