"""A LAN party, drawn by Hypothesis: random sequences of what people and machines do (open a
table, sit down, add a bot, start, act, take back, chat, watch, leave, drop, come back through
another address, let a turn timer run out, hand a seat to a bot, kill -9 or SIGTERM the server
and start it again) against a real `cosmoport serve` process, with every invariant of
:class:`lan_party.Party` checked after every step.

Deterministic for CI (``derandomize``; the games' seeds are the server's own, so the dice differ
from run to run, not the steps), bounded (about 40 sequences of up to 30 steps, a few restarts
each), and marked slow. ``bench/soak.py`` runs the same party for longer. A failure prints the
shrunk steps (``state.…`` lines) and, as notes, what each step did.
"""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path
from typing import ClassVar

import pytest
from hypothesis import HealthCheck, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from lan_party import GAMES, Caps, Party

SEQUENCES = 40
STEPS = 30
CI = settings(
    max_examples=SEQUENCES,
    stateful_step_count=STEPS,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)

WHO = st.integers(0, 3)
WHICH = st.integers(0, 2)


class LanParty(RuleBasedStateMachine):
    """One sequence: a fresh server and party in a folder of its own."""

    root: ClassVar[Path]
    caps: ClassVar[Caps] = Caps()
    sequences: ClassVar[itertools.count[int]] = itertools.count(1)
    totals: ClassVar[Counter[str]] = Counter()

    def __init__(self) -> None:
        super().__init__()
        self.party = Party(self.root / f"party-{next(self.sequences)}", caps=self.caps)
        self.told = 0

    def tell(self) -> None:
        """Note what the steps did so far (steps run on the reactor's thread, where Hypothesis
        takes no notes)."""
        for line in self.party.story[self.told :]:
            note(line)
        self.told = len(self.party.story)

    def teardown(self) -> None:
        self.tell()
        self.party.close()
        self.totals.update(self.party.counts)
        self.totals.update(
            sequences=1, kills=self.party.server.kills, terms=self.party.server.terms
        )

    @initialize(
        game=st.sampled_from((None, *GAMES)),
        timed=st.booleans(),
        autostart=st.booleans(),
        bot=st.booleans(),
    )
    def open_the_server(self, game: str | None, timed: bool, autostart: bool, bot: bool) -> None:
        """The server starts, Ann and Bob connect; unless ``game`` is None, Ann opens a table
        of it for two (three with a bot), Bob sits down and the game starts."""
        self.party.open()
        if game is None:
            return
        self.party.create(0, game, 3 if bot else 2, timed, autostart)
        self.party.join(0, 0)
        if bot:
            self.party.add_bot(0)
        if not autostart:
            self.party.start(0)

    @invariant()
    def the_party_keeps_its_promises(self) -> None:
        self.tell()
        self.party.check()

    # --- tables ---------------------------------------------------------------------------

    @rule(
        who=WHO,
        game=st.sampled_from(GAMES),
        players=st.integers(1, 3),
        timed=st.booleans(),
        autostart=st.booleans(),
    )
    def open_a_table(self, who: int, game: str, players: int, timed: bool, autostart: bool) -> None:
        self.party.create(who, game, players, timed, autostart)

    @rule(who=WHO, which=WHICH)
    def take_a_place(self, who: int, which: int) -> None:
        self.party.join(who, which)

    @rule(who=WHO)
    def add_a_bot(self, who: int) -> None:
        self.party.add_bot(who)

    @rule(who=WHO)
    def start_the_game(self, who: int) -> None:
        self.party.start(who)

    # --- playing --------------------------------------------------------------------------

    @rule(who=WHO, choice=st.integers(0, 40))
    def act(self, who: int, choice: int) -> None:
        self.party.act(who, choice)

    @rule(who=WHO, choice=st.integers(0, 40))
    def misplay_and_take_it_back(self, who: int, choice: int) -> None:
        self.party.misplay(who, choice)

    @rule(which=WHICH, count=st.integers(1, 400), seed=st.integers(0, 2**16))
    def play_on(self, which: int, count: int, seed: int) -> None:
        self.party.play_on(which, count, seed)

    @rule(who=WHO)
    def take_it_back(self, who: int) -> None:
        self.party.undo(who)

    @rule(who=WHO)
    def say_back(self, who: int) -> None:
        self.party.back(who)

    @rule(who=WHO, number=st.integers(0, 9))
    def chat(self, who: int, number: int) -> None:
        self.party.chat(who, number)

    @rule(who=WHO, which=WHICH)
    def watch(self, who: int, which: int) -> None:
        self.party.watch(who, which)

    @rule(who=WHO, bot=st.booleans())
    def leave(self, who: int, bot: bool) -> None:
        self.party.leave(who, bot)

    @rule(who=WHO)
    def resume(self, who: int) -> None:
        self.party.resume(who)

    @rule(who=WHO, which=WHICH)
    def hand_a_seat_to_a_bot(self, who: int, which: int) -> None:
        self.party.hand_to_bot(who, which)

    @precondition(lambda self: self.party.summary.timeout)
    @rule(which=WHICH)
    def let_the_clock_run_out(self, which: int) -> None:
        self.party.run_out_of_time(which)

    # --- connections, consoles, the server --------------------------------------------------

    @rule(who=WHO)
    def lose_the_connection(self, who: int) -> None:
        self.party.drop(who)

    @rule(who=WHO, via=st.integers(0, 1))
    def start_a_console(self, who: int, via: int) -> None:
        self.party.console(who, via)

    @precondition(lambda self: self.party.summary.restart)
    @rule(slow_host=st.booleans())
    def kill_the_server(self, slow_host: bool) -> None:
        self.party.crash(slow_host and self.party.summary.slow_host)

    @precondition(lambda self: self.party.summary.restart)
    @rule(slow_host=st.booleans())
    def stop_the_server(self, slow_host: bool) -> None:
        self.party.stop_and_restart(slow_host and self.party.summary.slow_host)


@pytest.mark.slow
def test_a_lan_party_keeps_its_promises_through_drops_crashes_and_timeouts(
    tmp_path: Path,
) -> None:
    LanParty.root = tmp_path
    LanParty.totals.clear()
    try:
        run_state_machine_as_test(LanParty, settings=CI)
    finally:
        print("LAN party:", dict(sorted(LanParty.totals.items())))
