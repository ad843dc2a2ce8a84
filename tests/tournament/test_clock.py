"""Game clocks (``--tc BANK+INC``): the arithmetic on a fake clock, a loss on time and the
stand-in in-process (fake clock), the MCTS bots' budget from the clock, and programs told their
clock in every update and losing on time over the network (real processes, small banks)."""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from ai.bots import MCTSBot, clock_seconds
from games import records
from tests.tournament.test_host import job, log, program
from tournament import host
from tournament.clock import GameClock, TimeControl, parse_tc
from tournament.director import Director, Event
from tournament.entrants import EntrantError, parse, parse_all
from tournament.game import play, play_in_process
from tournament.runners import InlineRunner
from tournament.store import EventStore


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_time_controls_parse_and_refuse_in_one_line() -> None:
    assert parse_tc("60+0.5") == TimeControl(60.0, 0.5)
    assert parse_tc("300") == TimeControl(300.0, 0.0)
    assert parse_tc(" 0+2 ").text() == "0+2"
    assert TimeControl(60, 0.5).describe() == "a 60 s bank + 0.5 s per decision"
    for bad in ("", "abc", "60+", "-1+2", "0+0", "1+2+3"):
        with pytest.raises(ValueError):
            parse_tc(bad)


def test_the_clock_charges_each_decision_and_credits_the_increment() -> None:
    fake = FakeClock()
    clock = GameClock([TimeControl(10, 1), TimeControl(5, 0), None], fake)
    clock.begin(0)
    fake.now += 3
    assert clock.left() == pytest.approx(8.0)
    message = clock.message()
    assert message["seat"] == 0 and message["decision"] == 0.0
    assert message["banks"] == [8.0, 5.0, 0.0]
    assert clock.stop() == (3.0, False)
    assert clock.banks == [8.0, 5.0, None]  # 10 + 1 - 3
    clock.begin(0)
    fake.now += 0.5  # within the increment: the bank grows
    assert clock.message()["decision"] == 0.5
    assert clock.stop() == (0.5, False)
    assert clock.banks[0] == pytest.approx(8.5)
    clock.begin(1)
    fake.now += 6
    assert clock.left() == pytest.approx(-1.0)
    assert clock.stop() == (6.0, True)
    assert clock.banks[1] == 0.0 and clock.flags == [0, 1, 0]
    clock.begin(2)  # untimed: never out of time
    fake.now += 1e6
    assert clock.left() is None and clock.stop() == (1e6, False)


def ticking() -> itertools.count[float]:
    """A clock that moves on half a second each time it is read: in-process, every decision
    is read twice (asked, answered), so each one takes 0.5 s."""
    return itertools.count(0.0, 0.5)


def test_in_process_a_bank_run_dry_loses_on_time() -> None:
    clocks = (TimeControl(2, 0), TimeControl(1000, 0))
    game = job(["random", "random"], clocks=clocks)
    result = play_in_process(game, clock=ticking().__next__)
    forfeit = result["forfeit"]
    assert forfeit is not None and (forfeit["seat"], forfeit["reason"]) == (0, "time")
    assert "ran out of time (a 2 s bank)" in forfeit["detail"]
    assert result["ranking"][-1] == [0]
    seat0 = [a for a in result["record"]["actions"] if a["seat"] == 0]
    assert len(seat0) == 4  # 4 decisions of 0.5 s empty the bank; the 5th is one too many
    assert result["record"]["clock"]["controls"] == ["2+0", "1000+0"]
    assert result["banks"][0] == 0.0


def test_in_process_with_the_stand_in_the_game_goes_on_and_is_counted() -> None:
    clocks = (TimeControl(2, 0), TimeControl(0, 1))  # seat 1: 1 s per decision, never short
    game = job(["random", "random"], clocks=clocks, on_time="stand-in")
    result = play_in_process(game, clock=ticking().__next__)
    assert result["forfeit"] is None and result["record"]["result"] is not None
    seat0 = sum(1 for a in result["record"]["actions"] if a["seat"] == 0)
    assert result["stand_ins"] == [seat0 - 4, 0]  # every decision after the 4th
    assert records.final_state(result["record"]).is_over  # the record replays


def test_an_untimed_game_has_no_clock_in_its_record() -> None:
    result = play_in_process(job(["random", "greedy"]))
    assert "clock" not in result["record"] and "banks" not in result


def test_an_mcts_entrant_without_a_budget_of_its_own_thinks_by_the_clock() -> None:
    from games import get

    game = get("cosmic_run")
    timed = parse("hard").make_bot(game, 1, timed=True)
    assert isinstance(timed, MCTSBot) and timed.search.iterations is None
    timed.use_clock(40.0, 0.5)
    assert timed.search.seconds == pytest.approx(clock_seconds(40.0, 0.5)) == 1.5
    own = parse("hard:iterations=300").make_bot(game, 1, timed=True)
    assert isinstance(own, MCTSBot) and own.search.iterations == 300
    assert clock_seconds(0.0, 2.0) == 1.0  # never more than half of what it has
    assert clock_seconds(0.0, 0.0) > 0


def test_entrants_take_a_time_control_of_their_own() -> None:
    hard, prog = parse_all(["hard:tc=30+0.2", "cmd[name=p,tc=5]:./bot"])
    assert hard.tc == "30+0.2" and prog.tc == "5+0"
    assert hard.to_dict()["tc"] == "30+0.2" and "tc" not in parse("hard").to_dict()
    event = Event("e", "cosmic_run", 2, [hard, parse("greedy")], tc=TimeControl(60, 0.5))
    slot = event.schedule()[0]
    assert event.job(slot, None).clocks == (TimeControl(30, 0.2), TimeControl(60, 0.5))
    with pytest.raises(EntrantError, match="time control"):
        parse("hard:tc=fast")


@pytest.mark.slow
def test_a_program_is_told_its_clock_and_loses_on_time_past_its_bank(tmp_path: Path) -> None:
    slow = program("slowpoke.py", "0", "30")  # sleeps 30 s over its first decision
    game = job([slow, "random"], tmp_path, clocks=(TimeControl(0.5, 0), None), timeout=60)
    result = play(game)
    forfeit = result["forfeit"]
    assert forfeit is not None and (forfeit["seat"], forfeit["reason"]) == (0, "time")
    assert result["timing"][0]["max"] < 10  # stopped at its bank, not at the 60 s timeout
    first = re.search(r"clock (\{.*\})", log(tmp_path, 0, 0))
    assert first is not None
    clock = json.loads(first.group(1))
    assert clock["seat"] == 0 and 0.3 < clock["banks"][0] <= 0.5 and clock["decision"] == 0
    host.close_programs()


@pytest.mark.slow
def test_a_program_out_of_time_gets_the_stand_in_and_plays_on(tmp_path: Path) -> None:
    slow = program("slowpoke.py", "2", "1.5")  # its third decision takes 1.5 s
    clocks = (TimeControl(0.6, 0.2), None)
    game = job([slow, "random"], tmp_path, clocks=clocks, on_time="stand-in")
    result = play(game)
    assert result["forfeit"] is None and result["record"]["result"] is not None
    assert result["stand_ins"][0] >= 1 and result["stand_ins"][1] == 0
    assert records.final_state(result["record"]).is_over
    host.close_programs()


@pytest.mark.slow
def test_built_in_bots_over_the_network_are_timed_the_same_way() -> None:
    # The MCTS bot budgets each search from the clock of its update (a share of its bank plus
    # the increment), so it thinks, and leaves itself time; the stand-in (should a busy machine
    # delay it past its bank) keeps the test from failing on the machine's load alone.
    clocks = (TimeControl(1, 0.02), TimeControl(1, 0.02))
    game = job(["easy", "random"], clocks=clocks, network=True, on_time="stand-in")
    result = play(game)
    assert result["forfeit"] is None and result["network"] is True
    assert result["record"]["clock"]["controls"] == ["1+0.02", "1+0.02"]
    timing = result["timing"][0]
    assert timing["total"] / timing["decisions"] > 0.002  # it searched by its clock
    assert timing["total"] < 1 + 0.02 * timing["decisions"] + 0.5


def test_an_event_with_a_clock_resumes_and_refuses_another_clock(tmp_path: Path) -> None:
    entrants = parse_all(["random", "greedy"])
    event = Event("e", "cosmic_run", 2, entrants, games=4, tc=TimeControl(60, 1))
    store = EventStore.open(tmp_path / "e.sqlite")
    Director(event, store).run(InlineRunner())
    assert all(r["banks"] is not None for r in store.results())
    store.close()
    store = EventStore.open(tmp_path / "e.sqlite")
    with pytest.raises(Exception, match="tc"):
        Director(replace(event, tc=TimeControl(30, 1)), store)
    store.close()
