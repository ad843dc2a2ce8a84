"""From what happened in the runs to the checklist: one :class:`~conformance.report.Line` per
claim, each with what the spec expects and what the program did."""

from __future__ import annotations

from collections.abc import Iterator

import games
from conformance.pings import late
from conformance.plans import QUIET, Outcome
from conformance.report import Line, seconds
from conformance.wire import Frame, Wire, shown
from server.limits import Limits

MOST = 8
"""Problems listed per line; the rest are counted."""


def evaluate(outcomes: list[Outcome], claimed: tuple[str, ...], timeout: float) -> list[Line]:
    lines = [whole_game(outcomes, game, timeout) for game in claimed]
    lines.append(pings(outcomes, timeout))
    lines.append(refusals(_plan(outcomes, "refusals"), timeout))
    lines.append(resume(_plan(outcomes, "resume"), timeout))
    lines.append(rate(outcomes, Limits()))
    lines.append(quiet(outcomes))
    return lines


def _plan(outcomes: list[Outcome], key: str) -> Outcome:
    return next(o for o in outcomes if o.plan.key == key)


def _last_words(outcome: Outcome) -> list[str]:
    return [f"its last output line: {outcome.last_line}"] if outcome.last_line else []


def _capped(problems: list[str]) -> list[str]:
    if len(problems) <= MOST:
        return problems
    return [*problems[:MOST], f"... and {len(problems) - MOST} more"]


def whole_game(outcomes: list[Outcome], game: str, timeout: float) -> Line:
    outcome = next(o for o in outcomes if o.plan.key == "game" and o.plan.game == game)
    line = Line(
        f"plays a whole game of {games.get(game).title}",
        outcome.finished and not outcome.failure,
        "it takes its seat (hello, then resume with $COSMOPORT_SEAT_TOKEN, or hello with the "
        "token: PROTOCOL.md 6.6), answers every snapshot or update that lists legal actions "
        f"with one of them and that message's version within {timeout:g} s (6.4), and plays "
        "on to game_over (6.7)",
    )
    if line.passed:
        line.did = [
            f"seat {outcome.plan.seat}, {outcome.decisions} decisions, the slowest "
            f"{seconds(outcome.slowest)}"
        ]
    else:
        line.did = [outcome.failure or "the game did not end", *_last_words(outcome)]
    return line


def _wires(outcomes: list[Outcome]) -> Iterator[tuple[Outcome, Wire]]:
    for outcome in outcomes:
        for wire in outcome.wires:
            yield outcome, wire


def pings(outcomes: list[Outcome], timeout: float) -> Line:
    answered: list[float] = []
    problems: list[str] = []
    for outcome, wire in _wires(outcomes):
        late(wire, timeout)
        where = f"{outcome.plan.title}, connection {wire.number}"
        for ping in wire.pings.values():
            if ping.answered is not None and not ping.missed:
                answered.append(ping.answered - ping.at)
            elif ping.missed:
                problems.append(f"ping {_id(ping.id)} ({where}): {ping.missed}")
        for frame, why in wire.bad_pongs:
            problems.append(f"{why} ({where}, frame {frame.number})")
    line = Line(
        "answers pings in time",
        bool(answered) and not problems,
        "a pong with the same id (same value and type, string or integer) for every ping, "
        f"within {timeout:g} s (PROTOCOL.md 6.6, 6.8)",
    )
    if line.passed:
        line.did = [f"{len(answered)} pings answered, the slowest in {seconds(max(answered))}"]
    elif not problems:
        line.did = ["no ping reached it: it never got as far as hello"]
    else:
        line.did = _capped(problems)
    return line


def _id(value: object) -> str:
    return f'"{value}"' if isinstance(value, str) else str(value)


def refusals(outcome: Outcome, timeout: float) -> Line:
    line = Line(
        "survives action/illegal and action/stale",
        outcome.stage == 4 and outcome.finished and not outcome.failure,
        "after an error it plays on: after action/illegal another act (or an act on the "
        "snapshot that follows), after action/stale an act on the next snapshot or update "
        "(PROTOCOL.md 13.6), each within "
        f"{timeout:g} s; then the game to its end",
    )
    if line.passed:
        line.did = ["acted again after each refusal and finished the game"]
        if outcome.excused:
            line.did.append(outcome.excused)
        return line
    reached = {
        0: "the referee never got to refuse an action (no legitimate act came)",
        2: "it played on after action/illegal, but the referee never got to send action/stale",
    }
    did = [reached[outcome.stage]] if outcome.stage in reached else []
    if outcome.failure:
        did.append(outcome.failure)
    elif outcome.stage == 4:
        did.append("it played on after both refusals, but the game did not end")
    line.did = did + _last_words(outcome)
    return line


def resume(outcome: Outcome, timeout: float) -> Line:
    line = Line(
        "resumes its seat after a dropped connection",
        outcome.dropped
        and outcome.back_after is not None
        and outcome.finished
        and not outcome.failure,
        "it connects again, says hello and takes its seat back with the latest token it was "
        "given (the one in `resumed`; hello with the token, or hello then resume) within "
        f"{timeout:g} s, then plays on (PROTOCOL.md 6.6)",
    )
    if line.passed:
        assert outcome.back_after is not None
        line.did = [f"back {seconds(outcome.back_after)} after the drop, played on to game_over"]
        return line
    did = [] if outcome.dropped else ["the referee never got to drop its connection"]
    did += outcome.resume_trouble
    if outcome.failure:
        did.append(outcome.failure)
    if outcome.back_after is not None and not outcome.failure:
        did.append("it came back but the game did not end")
    line.did = did + _last_words(outcome)
    return line


def _peak(frames: list[Frame]) -> int:
    """The most frames in any one second, applied actions aside."""
    times = [f.at for f in frames if not f.applied]
    peak, start = 0, 0
    for end, at in enumerate(times):
        while at - times[start] >= 1.0:
            start += 1
        peak = max(peak, end - start + 1)
    return peak


def rate(outcomes: list[Outcome], limits: Limits) -> Line:
    problems: list[str] = []
    total = peak = 0
    for outcome, wire in _wires(outcomes):
        total += len(wire.frames)
        peak = max(peak, _peak(wire.frames))
        for frame in wire.frames:
            for error in frame.refusals:
                problems.append(
                    f"{outcome.plan.title}, connection {wire.number}, frame {frame.number}: "
                    f"{shown(frame.msg)} → {error.get('code')} ({error.get('message')})"
                )
    line = Line(
        "stays within the rate, sends only valid requests",
        total > 0 and not problems,
        f"at most {limits.rate:g} messages a second on average and {limits.burst} at once "
        "(applied actions aside), every frame a valid message (sections 2, 9) that its session "
        "state admits (section 5): nothing refused but what the referee provoked (section 8)",
    )
    if line.passed:
        line.did = [f"{total} frames, at most {peak} in one second besides applied actions"]
    else:
        line.did = _capped(problems) or ["it sent nothing"]
    return line


def quiet(outcomes: list[Outcome]) -> Line:
    problems: list[str] = []
    slowest = 0.0
    closes = [o for o in outcomes if o.closed]
    for outcome in closes:
        when = f"{outcome.plan.title}: its table closed {outcome.closed}"
        if outcome.still_running:
            problems.append(f"{when}, and it was still running {QUIET:g} s later")
        elif outcome.exit_status not in (0, None):
            problems.append(f"{when}, and it exited with status {outcome.exit_status}")
        if outcome.reconnects:
            problems.append(f"{when}, and it connected again ({outcome.reconnects} time(s))")
        if outcome.exit_after is not None:
            slowest = max(slowest, outcome.exit_after)
    close = _plan(outcomes, "close")
    if close.closed != "mid-game":
        why = f": {close.failure}" if close.failure else ""
        problems.append(f"{close.plan.title}: the run never got as far as the close{why}")
    line = Line(
        "ends quietly when its table closes",
        bool(closes) and not problems,
        "on `left` with reason `closed` (mid-game or after game_over) it closes its connection "
        f"and exits with status 0 within {QUIET:g} s, without connecting again (PROTOCOL.md "
        "6.7, docs/tournaments.md)",
    )
    if line.passed:
        line.did = [f"{len(closes)} closes, each time gone within {seconds(slowest)}"]
    else:
        line.did = _capped(problems) + _last_words(close)
    return line
