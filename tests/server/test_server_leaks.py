"""No frame carries another seat's hidden information.

Many seeded games of every registered game (and the test-only Secret Race) are played through
the real server stack by random-choice clients, with a spectator. Every frame every seat and
spectator received is then checked against a replay of the game from its seed:

- each view is exactly the engine's ``view(seat)`` (``view(None)`` for spectators) at that
  version, so the server adds nothing of its own;
- the events at a version are the same for every recipient (events are public);
- only the seat to act gets legal actions;
- what a seat sees differs from what a spectator sees only where the game keeps that seat's own
  secrets (per game below), so no seat's view shows another seat's hand, tokens or plan;
- no frame carries the game seed or another person's seat token, and in Secret Race (whose
  secrets are unique strings) no frame to anyone else carries a seat's secret at all.
"""

from __future__ import annotations

import random
from typing import Any

import msgpack
import pytest
from server_helpers import MemoryServer, Registry, play_random_game

import games

SELF, ANY = object(), object()

# Where a seat's view may differ from the spectator's: the seat's own secrets.
PRIVATE_PATHS: dict[str, list[tuple[Any, ...]]] = {
    "secret_race": [("seat",), ("secret",)],
    "cosmic_run": [("seat",), ("seats", SELF)],
    "alien_artifacts": [
        ("seat",),
        ("seats", SELF),
        ("seats", ANY, "artifacts"),  # an artifact this seat has seen (T08, AR10) stays known
        ("market",),  # cards seen with AR10 Star Chart
        ("artifact_deck",),
        ("pools",),  # the hidden-card pools exclude the seat's own cards
        ("pending", "keep"),
    ],
}

GAMES_PER_NAME = 6


def flatten(value: Any, path: tuple[Any, ...] = ()) -> dict[tuple[Any, ...], Any]:
    if isinstance(value, dict):
        out: dict[tuple[Any, ...], Any] = {path: "{}"}
        for key, item in value.items():
            out.update(flatten(item, (*path, key)))
        return out
    if isinstance(value, list):
        out = {path: f"[{len(value)}]"}
        for index, item in enumerate(value):
            out.update(flatten(item, (*path, index)))
        return out
    return {path: value}


def allowed(path: tuple[Any, ...], seat: int, patterns: list[tuple[Any, ...]]) -> bool:
    for pattern in patterns:
        if len(path) < len(pattern):
            continue
        if all(
            p is ANY or (p is SELF and q == seat) or p == q
            for p, q in zip(pattern, path, strict=False)
        ):
            return True
    return False


def replay(name: str, players: int, seed: int, options: Any, actions: list[tuple[Any, ...]]):
    """Per version: views by seat (None: spectator), the events that led there, legal lists."""
    state = games.get(name) if name != "secret_race" else Registry().get(name)
    state = state.new(players, seed, options)
    seats: list[int | None] = [*range(players), None]
    views, events, legal = [], [[]], []
    for action in [*actions, None]:
        views.append({s: state.view(s) for s in seats})
        legal.append(
            (
                state.current_player,
                [{"action": list(a), "label": state.label(a)} for a in state.legal_actions()],
            )
        )
        if action is not None:
            events.append(state.apply(action))
    return views, events, legal


def check_game(name: str, players: int, seed: int) -> None:
    server = MemoryServer(seed=seed)
    rng = random.Random(seed)
    clients, watchers, actions = play_random_game(server, name, players, rng)
    made = server.registry.made[-1]
    assert made[0] == name and made[1] == players
    game_seed, options = made[2], made[3]
    views, events, legal = replay(name, players, game_seed, options, actions)
    assert views[-1][0]["is_over"]

    recipients = [(c, next(m for m in c.log if m["type"] == "started")["seat"]) for c in clients]
    recipients += [(w, None) for w in watchers]
    tokens = {id(c): {m["token"] for m in c.log if "token" in m} for c, _ in recipients}
    seed_bytes = msgpack.packb(game_seed)
    patterns = PRIVATE_PATHS[name]

    for client, seat in recipients:
        seen_versions = set()
        for msg in client.log:
            if msg["type"] not in ("snapshot", "update"):
                continue
            version = msg["version"]
            seen_versions.add(version)
            assert msg["seat"] == seat
            assert msg["view"] == views[version][seat], (name, seed, version, seat)
            if msg["type"] == "update":
                assert msg["events"] == events[version]
            current, listed = legal[version]
            assert msg["legal"] == (listed if seat is not None and seat == current else [])
            if seat is not None:
                mine = flatten(msg["view"])
                public = flatten(views[version][None])
                for path in mine.keys() | public.keys():
                    if mine.get(path, KeyError) != public.get(path, KeyError):
                        assert allowed(path, seat, patterns), (name, seed, seat, path)
        assert seen_versions == set(range(len(views)))  # every version reached everyone
        over = [m for m in client.log if m["type"] == "game_over"]
        assert len(over) == 1
        for frame in client.frames:
            if game_seed >= 2**32:
                assert seed_bytes not in frame
            for other, _ in recipients:
                if other is not client:
                    for token in tokens[id(other)]:
                        assert token.encode() not in frame
        if name == "secret_race":
            state = Registry().get(name).new(players, game_seed, options)
            for other_seat, secret in enumerate(state.secrets):
                if other_seat != seat:
                    assert all(secret.encode() not in f for f in client.frames)


def cases() -> list[tuple[str, int, int]]:
    result = []
    for name in [*games.names(), "secret_race"]:
        game = Registry().get(name)
        counts = list(range(max(game.min_players, 1), game.max_players + 1))
        for i in range(GAMES_PER_NAME):
            result.append((name, counts[i % len(counts)], 1000 + i))
    return result


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players", "seed"), cases())
def test_no_frame_leaks_hidden_information(name, players, seed):
    check_game(name, players, seed)


def test_every_registered_game_has_its_private_paths_declared():
    assert set(games.names()) <= set(PRIVATE_PATHS)


def test_the_leak_checker_catches_a_leak(monkeypatch):
    """Make the server send every seat the view of seat 0: the checker must object."""
    from server import table as table_module

    original = table_module.Table._fan_out

    def leaky(self, events, actor, request_id):
        engine = self.engine
        real_view = engine.view
        monkeypatch.setattr(engine, "view", lambda seat: real_view(0 if seat is not None else None))
        try:
            original(self, events, actor, request_id)
        finally:
            monkeypatch.setattr(engine, "view", real_view)

    monkeypatch.setattr(table_module.Table, "_fan_out", leaky)
    with pytest.raises(AssertionError):
        check_game("secret_race", 2, 7)
