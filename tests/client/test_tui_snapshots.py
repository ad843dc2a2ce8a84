"""Screen snapshots of the full-screen client: a fixed, seeded position of each game at 60x20,
80x24 and 160x50.

No server: the console is fed the messages a server would send (the game starting, then an
update per move with its events, from a seeded engine), so the picture depends on nothing but
the code. After a change to the screen, look at the new pictures and accept them with
``pytest tests/client/test_tui_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from client_helpers import FakeClient, legal_of, table_map

import games
from client.tui.app import CosmoportApp
from client.tui.bridge import PaneConsole

SIZES = [(60, 20), (80, 24), (160, 50)]
POSITIONS = {
    # game: (players, seed, moves from the start)
    "cosmic_run": (2, 11, 9),
    "alien_artifacts": (3, 5, 14),
}
NAMES = ["Ann", "Bob", "Cyd", "Dee"]


def fixed_app(game: str) -> CosmoportApp:
    """The app with a console that has seen a seeded game up to the person's (A's) turn."""
    players, seed, moves = POSITIONS[game]
    return seeded_app(game, players, seed, moves)


def seeded_app(
    game: str, players: int, seed: int, moves: int, clock: dict[str, Any] | None = None
) -> CosmoportApp:
    """The app with a console fed a game of ``players`` random players from ``seed``, ``moves``
    moves in and on to A's turn (with the turn timer ``clock``, which never runs down here:
    the console's clock stands still)."""
    state = games.get(game).new(players, seed)
    names = NAMES[:players]
    app = CosmoportApp(game=game)
    console = PaneConsole(FakeClient("Ann"), app.pane_screen, clock=lambda: 0.0)
    table = table_map(1, game, names, "playing")
    console.where, console.table = "table", table
    console.receive({"type": "started", "table": table, "seat": 0, "seats": names})
    console.receive(message("snapshot", state, 0, [], clock))
    rng = random.Random(seed)
    version = 0
    while version < moves or state.current_player != 0:
        legal = state.legal_actions()
        events = state.apply(legal[rng.randrange(len(legal))])
        version += 1
        console.receive(message("update", state, version, events, clock))
    app.attach(console, lambda code: None)
    return app


def message(
    kind: str, state: Any, version: int, events: list[Any], clock: dict[str, Any] | None = None
) -> dict[str, Any]:
    msg = {
        "type": kind,
        "table": 1,
        "version": version,
        "seat": 0,
        "view": state.view(0),
        "events": [dict(e) for e in events],
        "legal": legal_of(state) if state.current_player == 0 else [],
    }
    if clock is not None:
        msg["clock"] = {**clock, "seat": state.current_player}
    return msg


@pytest.fixture(autouse=True)
def _colours(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game", list(POSITIONS))
def test_a_seeded_position_looks_as_accepted(snap_compare: Any, game: str, size: Any) -> None:
    assert snap_compare(fixed_app(game), terminal_size=size)


def test_the_legend_pane_looks_as_accepted(snap_compare: Any) -> None:
    assert snap_compare(fixed_app("cosmic_run"), terminal_size=(100, 32), press=["f1"])
