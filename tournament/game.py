"""One game of a tournament, played: :func:`play` plays a :class:`~tournament.job.GameJob` and
gives its result dict (:func:`tournament.job.result`: scores, ranking, forfeit, timing, record).

Built-in bots play in this process through the engine contract (:func:`play_in_process`), or,
when the job says ``network`` or a seat is a program, over the protocol through a loopback
server that :mod:`tournament.host` runs (imported only then: it starts a Twisted server).
The host builds on :mod:`tournament.job` alone, never on this module.

On a game clock (``job.clocks``) each decision is measured from the moment the bot is asked to
the moment it answers; a bot that took more than it had loses on time, or its move is replaced
by the stand-in's (``job.on_time``). A game that reaches ``job.max_decisions`` unfinished is
adjudicated: scored as it stands.

An in-process agent (a ``py:`` entrant, :mod:`tournament.agents`) forfeits as a program does
over the network (:mod:`tournament.host`): ``crash`` when it raises, ``illegal`` when its
answer is no legal action, ``timeout`` when a decision takes longer than ``job.timeout``
seconds (unless its game clock runs out first: then ``time``, or the stand-in). It thinks in a
thread of its own and is waited for no longer than it has, so one that never answers loses
all the same.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import games
from ai.bots import MCTSBot
from ai.stand_in import greedy_stand_in
from games import records
from tournament.agents import AgentBot, AgentError, AgentTimeout
from tournament.clock import GameClock
from tournament.entrants import bot_seed
from tournament.job import GameJob, Timing, new_record, result

__all__ = ["GameJob", "play", "play_in_process", "stand_in_rng"]


def stand_in_rng(seed: int, decision: int) -> random.Random:
    """The stand-in's randomness for decision number ``decision`` of the game with ``seed``."""
    return random.Random(f"cosmoport-stand-in/{seed}/{decision}")


def out_of_time_detail(job: GameJob, seat: int, taken: float) -> str:
    control = job.control(seat)
    shown = "" if control is None else f" ({control.describe()})"
    return f"ran out of time{shown}: its last decision took {taken:.3f} s"


def play_in_process(job: GameJob, clock: Callable[[], float] = time.perf_counter) -> dict[str, Any]:
    """Play ``job`` with every seat's bot in this process, through the engine contract.
    ``clock`` (seconds) measures the decisions: a fake one in tests."""
    game = games.get(job.game)
    start = time.perf_counter()
    at = records.timestamp(time.time())
    record = new_record(job, at)
    controls = [job.control(seat) for seat in range(job.players)]
    state = game.new(job.players, job.seed, job.options or None)
    timing = Timing(job.players)
    times = GameClock(controls, clock)
    stand_ins = [0] * job.players
    forfeit: dict[str, Any] | None = None
    adjudicated = False
    decisions = 0
    bots: list[Any] = []
    for place, e in enumerate(job.entrants):
        try:
            bots.append(
                e.make_bot(game, bot_seed(job.seed, place), controls[place] is not None,
                           job.players, place)
            )  # fmt: skip
        except AgentError as error:
            forfeit = {"seat": place, "reason": error.reason, "detail": error.detail}
            break
    while forfeit is None and not state.is_over:
        if job.max_decisions is not None and decisions >= job.max_decisions:
            adjudicated = True
            break
        seat = state.current_player
        assert seat is not None
        bot = bots[seat]
        view, legal = state.view(seat), state.legal_actions()
        left = times.left(seat)
        if left is not None and isinstance(bot, MCTSBot) and not job.entrants[seat].own_budget:
            control = controls[seat]
            assert control is not None
            bot.use_clock(left - control.increment, control.increment)
        times.begin(seat)
        if isinstance(bot, AgentBot):
            by_timeout = left is None or job.timeout <= left
            wait = job.timeout if left is None or job.timeout <= left else max(0.0, left)
            try:
                action = bot.decide(view, legal, wait)
            except AgentError as error:
                times.stop()
                forfeit = {"seat": seat, "reason": error.reason, "detail": error.detail}
                break
            except AgentTimeout:
                action = ()
            taken, flagged = times.stop()
            timing.add(seat, taken)
            if by_timeout and (not action or taken > job.timeout):
                detail = f"no action within {job.timeout:g} s"
                forfeit = {"seat": seat, "reason": "timeout", "detail": detail}
                break
            flagged = flagged or not action
        else:
            action = tuple(bot.choose(view, legal))
            taken, flagged = times.stop()
            timing.add(seat, taken)
        if flagged:
            if job.on_time != "stand-in":
                forfeit = {"seat": seat, "reason": "time",
                           "detail": out_of_time_detail(job, seat, taken)}  # fmt: skip
                break
            action = tuple(greedy_stand_in(game, view, legal, stand_in_rng(job.seed, decisions)))
            times.out_of_time(seat)
            stand_ins[seat] += 1
        records.add_action(record, seat, action, at)
        state.apply(action)
        decisions += 1
    for bot in bots:
        if isinstance(bot, AgentBot):
            bot.close()
    if forfeit is None and not adjudicated:
        records.finish(record, state, records.timestamp(time.time()))
    return result(
        job, record, state, timing, forfeit, time.perf_counter() - start,
        adjudicated=adjudicated, banks=times.spent(), stand_ins=stand_ins,
    )  # fmt: skip


def play(job: GameJob) -> dict[str, Any]:
    """Play ``job`` the way it asks: in this process, or over the protocol."""
    if job.over_network:
        from tournament.host import play_networked

        return play_networked(job)
    return play_in_process(job)
