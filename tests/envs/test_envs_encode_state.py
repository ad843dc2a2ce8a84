"""The observation made straight from the engine's state (``encode_state``, what the
environments use each step) is the encoding of the seat's view, byte for byte: for every seat
(the one to act and the others), at every player count, through whole random games to their
end, with and without Alien Artifacts' faction choice. So it holds exactly what the view holds,
nothing a seat may not see."""

from __future__ import annotations

import random

import numpy as np
import pytest

import games
from games.encoding import ENCODERS, Encoder

CASES = [("cosmic_run", n) for n in (1, 2, 3, 4)] + [("alien_artifacts", n) for n in (2, 3, 4, 5)]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_encode_state_is_the_encoding_of_the_view(game: str, players: int) -> None:
    rules = games.get(game)
    module = ENCODERS[game]
    checked = 0
    for seed in range(6):
        options = {"factions": "choice"} if game == "alien_artifacts" and seed % 2 else None
        rng = random.Random(seed)
        state = rules.new(players, seed, options)
        while True:
            for seat in range(players):
                from_view = np.zeros(module.SIZE, np.float32)
                from_state = np.zeros(module.SIZE, np.float32)
                module.encode(state.view(seat), from_view)
                module.encode_state(state, seat, from_state)
                assert from_state.tobytes() == from_view.tobytes(), (seed, seat, checked)
                checked += 1
            if state.is_over:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    assert checked > 500


def test_the_encoder_falls_back_on_the_view_for_a_state_of_another_kind() -> None:
    class Wrapped:
        def __init__(self, state: games.State) -> None:
            self.state = state

        def view(self, seat: int) -> games.View:
            return self.state.view(seat)

    encoder = Encoder("cosmic_run", 2)
    state = games.get("cosmic_run").new(2, 3)
    direct = encoder.encode_state(state, 1)
    wrapped = encoder.encode_state(Wrapped(state), 1)  # type: ignore[arg-type]
    assert direct.tobytes() == wrapped.tobytes() == encoder.encode(state.view(1)).tobytes()
