"""The scenario runs in order, then the checklist: ``cosmoport conformance -- COMMAND``.

One referee server (the real one, :mod:`conformance.wire`) serves every run; each run is a new
table and a new start of the program (:mod:`conformance.run`). The runs, for the games claimed
G1 (and G2): a whole game of each, then ``refusals`` (G1), ``resume`` (G2, else G1) and
``close`` (G1); the program's seat alternates between 0 and 1. Seeds come from ``--seed`` (a
random one by default, printed so that the same games can be played again).
"""

from __future__ import annotations

import dataclasses
import random
import shlex
from dataclasses import dataclass
from typing import Any

import games
from conformance import checks
from conformance.plans import CannotStart, Outcome, Plan, Setup
from conformance.report import Printer, seconds
from conformance.run import GameRun
from conformance.wire import Idle, RefereeFactory, spoken
from server.limits import Limits
from server.store import MEMORY, Store
from tournament import programs

GAMES = tuple(sorted(games.names(), reverse=True))
TIMEOUT = 5.0
LIMITS = dataclasses.replace(Limits(), max_bots=0, vacant_table_ttl=3600.0)
"""The server's defaults (what every client is told in ``welcome.limits``), but no bots, and
a referee's table waits for its program as long as the run lasts."""


@dataclass(frozen=True)
class Options:
    command: tuple[str, ...]
    games: tuple[str, ...] = GAMES
    timeout: float = TIMEOUT
    seed: int | None = None
    logs: str | None = None


def plans(claimed: tuple[str, ...], seed: int) -> list[Plan]:
    first, second = claimed[0], claimed[-1]
    runs = [("game", game) for game in claimed]
    runs += [("refusals", first), ("resume", second), ("close", first)]
    return [Plan(key, game, n % 2, seed + 1000 * n) for n, (key, game) in enumerate(runs)]


def run_cap(timeout: float) -> float:
    """Seconds one run may last in all: every wait for the program is bounded by ``timeout``
    already; this only ends a game that never ends (an undo loop)."""
    return max(120.0, 100.0 * timeout)


async def _play(setup: Setup, runs: list[Plan], printer: Printer) -> list[Outcome]:
    outcomes = []
    for number, plan in enumerate(runs, 1):
        printer.begin(number, len(runs), plan.title)
        outcome = await GameRun(setup, plan, number).play()
        outcomes.append(outcome)
        took = seconds(outcome.seconds)
        if outcome.failure:
            printer.end(False, f"stopped after {took}: {outcome.failure}")
        else:
            printer.end(True, f"done in {took}")
    return outcomes


def new_referee(reactor: Any, limits: Limits, seed: int, bots: bool = False) -> RefereeFactory:
    factory = RefereeFactory(
        reactor,
        limits,
        Idle(),
        rng=random.Random(seed),
        bots=bots,
        store=Store.open(MEMORY),
    )
    factory.listen()
    return factory


async def check(
    reactor: Any, options: Options, printer: Printer, keeper: programs.Programs | None = None
) -> int:
    """Run every scenario against ``options.command``; the exit status (0: all passed, 1: some
    check failed, 2: the program could not be started). ``keeper`` holds the program's
    processes (whoever passes it stops them if this is interrupted)."""
    seed = options.seed if options.seed is not None else random.randrange(10**6)
    factory = new_referee(reactor, LIMITS, seed)
    keeper = keeper if keeper is not None else programs.Programs()
    setup = Setup(
        reactor,
        factory,
        options.command,
        options.timeout,
        keeper,
        run_cap(options.timeout),
        options.logs,
    )
    printer.say(f"Conformance of: {shlex.join(options.command)}")
    printer.say(
        f"referee at 127.0.0.1:{factory.port_number}, --timeout {options.timeout:g} s, "
        f"--seed {seed}"
    )
    try:
        outcomes = await _play(setup, plans(options.games, seed), printer)
    except CannotStart as error:
        printer.end(False, "could not start the program")
        printer.say(f"cannot run {shlex.join(options.command)}: {error}")
        outcomes = None
    except BaseException:  # interrupted: no waiting
        factory.stop_now()
        keeper.close()
        raise
    await factory.stop()
    keeper.close()
    if outcomes is None:
        return 2
    lines = checks.evaluate(outcomes, options.games, options.timeout)
    printer.say(f"It spoke {spoken([wire for o in outcomes for wire in o.wires])}.")
    printer.checklist(lines)
    return 0 if all(line.passed for line in lines) else 1
