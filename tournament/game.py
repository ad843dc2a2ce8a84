"""One game of a tournament, played: :func:`play` plays a :class:`~tournament.job.GameJob` and
gives its result dict (:func:`tournament.job.result`: scores, ranking, forfeit, timing, record).

Built-in bots play in this process through the engine contract (:func:`play_in_process`), or,
when the job says ``network`` or a seat is a program, over the protocol through a loopback
server that :mod:`tournament.host` runs (imported only then: it starts a Twisted server).
The host builds on :mod:`tournament.job` alone, never on this module.
"""

from __future__ import annotations

import time
from typing import Any

import games
from games import records
from tournament.entrants import bot_seed
from tournament.job import GameJob, Timing, new_record, result

__all__ = ["GameJob", "play", "play_in_process"]


def play_in_process(job: GameJob) -> dict[str, Any]:
    """Play ``job`` with every seat's bot in this process, through the engine contract."""
    game = games.get(job.game)
    start = time.perf_counter()
    at = records.timestamp(time.time())
    record = new_record(job, at)
    bots = [e.make_bot(game, bot_seed(job.seed, seat)) for seat, e in enumerate(job.entrants)]
    state = game.new(job.players, job.seed, job.options or None)
    timing = Timing(job.players)
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        began = time.perf_counter()
        action = tuple(bots[seat].choose(state.view(seat), state.legal_actions()))
        timing.add(seat, time.perf_counter() - began)
        records.add_action(record, seat, action, at)
        state.apply(action)
    records.finish(record, state, records.timestamp(time.time()))
    return result(job, record, state, timing, None, time.perf_counter() - start)


def play(job: GameJob) -> dict[str, Any]:
    """Play ``job`` the way it asks: in this process, or over the protocol."""
    if job.over_network:
        from tournament.host import play_networked

        return play_networked(job)
    return play_in_process(job)
