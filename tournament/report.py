"""What a tournament tells its user: progress while it runs, then standings and head-to-head.

The standings rate entrants with openskill (Plackett-Luce: every game's full ranking counts, ties
included) in the order the games finished, and give each entrant's win share with a 95% Wilson
interval and how long it thought. Head-to-head gives, for every pair, how often the row entrant
placed better than the column entrant (a shared place counts a half), with its interval, and for
two-player games the Elo difference that share means. ``--json`` prints the same as one object.
"""

from __future__ import annotations

import json
import math
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

import games
from tournament.director import Director, first_score
from tournament.ratings import best_places, pairs, rate, wilson
from tournament.sprt import SPRT, RotationSamples
from tournament.store import EventStore

# --- progress -----------------------------------------------------------------------------------


HEARTBEAT = 30.0
"""Longest time without a progress line when the output is not a terminal (a file, a CI log)."""


class Progress:
    """One line of progress on a terminal (rewritten in place), or a line now and then in a log:
    games done of all, rate, time left, the leader, and the SPRT's LLR when there is one.

    In a log (not a terminal) a line comes every 1/20 of the event, after every game of an SPRT
    (its LLR), and at least every :data:`HEARTBEAT` seconds while games run
    (:meth:`start_heartbeat`, or :meth:`tick` from a test with a fake clock). ``report_every``
    also prints the standings with their intervals every that many games; ``standings`` gives
    their lines (by default from the director's database)."""

    def __init__(
        self,
        out: TextIO,
        clock: Any = time.monotonic,
        *,
        report_every: int | None = None,
        heartbeat: float = HEARTBEAT,
        standings: Any = None,
        lines: bool = True,
    ) -> None:
        self.out = out
        self.tty = out.isatty()
        self.clock = clock
        self.started = clock()
        self.shown_at = -math.inf
        self.first_done: int | None = None
        self.wins: dict[int, float] = {}
        self.games: dict[int, int] = {}
        self.last = ""
        self.report_every = report_every
        self.lines = lines  # the progress line (off: only the standings every N games)
        self.heartbeat = heartbeat
        self.standings = standings or _standings_lines
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def update(self, director: Director, result: dict[str, Any] | None) -> None:
        with self._lock:
            self._update(director, result)

    def _update(self, director: Director, result: dict[str, Any] | None) -> None:
        if result is None:  # the start: count what the database already holds
            for old in director.results:
                self._count(old)
            self.first_done = len(director.results)
            self.started = self.clock()
        else:
            self._count(result)
        now = self.clock()
        done = len(director.results)
        finished = done >= director.total or director.decision() is not None
        every = max(1, director.total // 20)
        if self.tty:
            due = now - self.shown_at >= 0.25
        else:
            due = (
                done % every == 0
                or finished
                or director.event.sprt is not None
                or now - self.shown_at >= self.heartbeat
            )
        if self.lines and (result is None or due):
            self._show(director, now)
        if result is not None and self.report_every and done % self.report_every == 0:
            if self.tty:
                self.out.write("\r\x1b[2K")
            self.out.write(f"standings after {done} of {director.total} games:\n")
            self.out.write("\n".join(self.standings(director)) + "\n")
            if self.tty and self.last:
                self.out.write(self.last)
            self.out.flush()

    def _show(self, director: Director, now: float) -> None:
        self.shown_at = now
        self.last = self.line(director, now)
        if self.tty:
            self.out.write("\r\x1b[2K" + self.last)
        else:
            self.out.write(self.last + "\n")
        self.out.flush()

    def tick(self, director: Director) -> None:
        """A line now if none has come for :attr:`heartbeat` seconds (games running long)."""
        with self._lock:
            now = self.clock()
            late = now - self.shown_at >= self.heartbeat
            if self.lines and self.first_done is not None and late:
                self._show(director, now)

    def start_heartbeat(self, director: Director) -> None:
        """Call :meth:`tick` from a thread every few seconds until :meth:`finish`."""
        if self.tty or self._thread is not None:
            return
        period = max(0.05, min(5.0, self.heartbeat / 6))

        def beat() -> None:
            while not self._stop.wait(period):
                self.tick(director)

        self._thread = threading.Thread(target=beat, name="cosmoport-progress", daemon=True)
        self._thread.start()

    def _count(self, result: dict[str, Any]) -> None:
        seating, ranking = result["seating"], result["ranking"]
        for entrant in set(seating):
            self.games[entrant] = self.games.get(entrant, 0) + 1
            self.wins[entrant] = self.wins.get(entrant, 0.0) + first_score(
                seating, ranking, entrant
            )

    def line(self, director: Director, now: float) -> str:
        done, total = len(director.results), director.total
        parts = [f"{done}/{total} games"]
        new = done - (self.first_done or 0)
        elapsed = now - self.started
        if new > 0 and elapsed > 0:
            rate_ = new / elapsed
            parts.append(f"{rate_:.2f} games/s")
            left = director.total - done
            if left and director.decision() is None:
                parts.append(f"ETA {_duration(left / rate_)}")
        if self.games:
            best = max(self.games, key=lambda e: self.wins[e] / self.games[e])
            share = self.wins[best] / self.games[best]
            parts.append(f"leader {director.event.entrants[best].name} ({share:.3f})")
        sprt = director.event.sprt
        if sprt is not None:
            parts.append(_sprt_text(sprt, director.samples()))
        return "  ".join(parts)

    def finish(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5.0)
        if self.tty and self.last:
            self.out.write("\n")
            self.out.flush()


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds // 60 % 60:02d}m"


def _standings_lines(director: Director) -> list[str]:
    return standings_text(build(director.store))


def _sprt_text(sprt: SPRT, scores: Sequence[float]) -> str:
    low, high = sprt.bounds
    text = f"LLR {sprt.llr(scores):+.2f} [{low:+.2f}, {high:+.2f}]"
    decision = sprt.decision(scores)
    return text + (f" {decision} accepted" if decision else "")


# --- the report ----------------------------------------------------------------------------------


def build(store: EventStore) -> dict[str, Any]:
    """The report of the event in ``store`` as plain data (what ``--json`` prints)."""
    settings = store.settings() or {}
    entrants = store.entrants()
    names = [e.name for e in entrants]
    results = store.results()
    outcomes = [(r["seating"], r["ranking"]) for r in results]
    players = int(settings.get("players", 2))
    ratings = {r.name: r for r in rate(names, outcomes)}
    timing = _timing(len(entrants), results)
    forfeits = _forfeits(len(entrants), results)
    adjudicated = [0] * len(entrants)
    stand_ins = [0] * len(entrants)
    for result in results:
        for entrant in set(result["seating"]):
            if result.get("adjudicated"):
                adjudicated[entrant] += 1
        for seat, count in enumerate(result.get("stand_ins") or ()):
            stand_ins[result["seating"][seat]] += count
    standings: list[dict[str, Any]] = []
    for number, entrant in enumerate(entrants):
        wins = sum(first_score(s, r, number) for s, r in outcomes if number in s)
        played = sum(1 for s, _ in outcomes if number in s)
        low, high = wilson(wins, played)
        groups = _rotation_interval(results, number, players)
        rating = ratings[entrant.name]
        decisions, total, slowest = timing[number]
        standings.append(
            {
                "name": entrant.name,
                "spec": entrant.spec,
                "mu": rating.mu,
                "sigma": rating.sigma,
                "ordinal": rating.ordinal,
                "games": played,
                "wins": wins,
                "win_share": wins / played if played else None,
                "win_low": low,
                "win_high": high,
                "rotation_groups": groups[0],
                "group_low": groups[1],
                "group_high": groups[2],
                "decisions": decisions,
                "mean_decision": total / decisions if decisions else None,
                "slowest_decision": slowest if decisions else None,
                "forfeits": forfeits[number],
                "adjudicated": adjudicated[number],
                "stand_ins": stand_ins[number],
                "tc": entrant.tc or settings.get("tc"),
            }
        )
    standings.sort(key=lambda s: -s["ordinal"])
    head = [
        {
            "a": names[a],
            "b": names[b],
            "games": p.games,
            "score": p.score,
            "share": p.share,
            "low": p.low,
            "high": p.high,
            "elo": p.elo,
            "elo_low": p.elo_low,
            "elo_high": p.elo_high,
            **dict(
                zip(
                    ("rotation_groups", "group_low", "group_high"),
                    _pair_rotation_interval(results, a, b, players),
                    strict=True,
                )
            ),
        }
        for (a, b), p in sorted(pairs(len(entrants), outcomes, players == 2).items())
    ]
    report: dict[str, Any] = {
        "event": settings.get("event"),
        "database": store.path,
        "settings": settings,
        "games": len(results),
        "total": len(store.schedule()),
        "standings": standings,
        "head_to_head": head,
        "sprt": None,
        "adjudicated": sum(1 for r in results if r.get("adjudicated")),
        "max_decisions": settings.get("max_decisions"),
    }
    sprt_settings = settings.get("sprt")
    if sprt_settings:
        sprt = SPRT(*sprt_settings)
        counted = [r for r in results if not r.get("after_decision")]
        scores = [first_score(r["seating"], r["ranking"], 0) for r in counted]
        unit = settings.get("sprt_unit", "game")
        samples = scores
        if unit == "rotation":
            sprt_groups = RotationSamples(players)
            for r, score in zip(counted, scores, strict=True):
                sprt_groups.add(r["seed"], r["seating"], score)
            samples = sprt_groups.means
        low, high = sprt.bounds
        report["sprt"] = {
            "p0": sprt.p0,
            "p1": sprt.p1,
            "alpha": sprt.alpha,
            "beta": sprt.beta,
            "llr": sprt.llr(samples),
            "lower": low,
            "upper": high,
            "decision": sprt.decision(samples),
            "games": len(scores),
            "unit": unit,
            "samples": len(samples),
            "after_decision": len(results) - len(counted),
        }
    return report


GROUPS_FOR_INTERVAL = 10
"""Complete rotation groups an entrant needs before its interval is computed from them."""


def _rotation_interval(
    results: list[dict[str, Any]], entrant: int, players: int
) -> tuple[int, float | None, float | None]:
    """``entrant``'s win share with each complete rotation group (a deal in every seating) as
    one sample: (groups, low, high) of a 95% normal interval on the groups' mean, or
    (groups, None, None) with fewer than :data:`GROUPS_FOR_INTERVAL` groups, or for a solo
    game. The luck of the deal and of the seat cancels within a group, so the interval is
    narrower than that of single games when that luck matters."""
    if players < 2:
        return 0, None, None
    samples = RotationSamples(players)
    for r in results:
        if entrant in r["seating"]:
            score = first_score(r["seating"], r["ranking"], entrant)
            samples.add(r["seed"], r["seating"], score)
    return _group_interval(samples.means)


def _pair_rotation_interval(
    results: list[dict[str, Any]], a: int, b: int, players: int
) -> tuple[int, float | None, float | None]:
    """``a``'s score against ``b`` (1 for a better place, 0.5 for the same) with each complete
    rotation group in which both sat as one sample: (groups, low, high) as
    :func:`_rotation_interval`."""
    if players < 2:
        return 0, None, None
    samples = RotationSamples(players)
    for r in results:
        seating = r["seating"]
        if a in seating and b in seating:
            best = best_places(seating, r["ranking"])
            score = 1.0 if best[a] < best[b] else 0.5 if best[a] == best[b] else 0.0
            samples.add(r["seed"], seating, score)
    return _group_interval(samples.means)


def _group_interval(means: list[float]) -> tuple[int, float | None, float | None]:
    """(groups, low, high): a 95% normal interval on the groups' mean, or (groups, None, None)
    with fewer than :data:`GROUPS_FOR_INTERVAL` groups."""
    n = len(means)
    if n < GROUPS_FOR_INTERVAL:
        return n, None, None
    mean = math.fsum(means) / n
    sd = math.sqrt(math.fsum((x - mean) ** 2 for x in means) / (n - 1))
    if sd < 1e-9:  # every group the same: no spread to go on, the Wilson interval of n groups
        low, high = wilson(mean * n, n)
        return n, low, high
    half = 1.96 * sd / math.sqrt(n)
    return n, max(0.0, mean - half), min(1.0, mean + half)


def _timing(entrants: int, results: list[dict[str, Any]]) -> list[tuple[int, float, float]]:
    totals = [[0, 0.0, 0.0] for _ in range(entrants)]
    for result in results:
        for seat, entry in enumerate(result["timing"]):
            mine = totals[result["seating"][seat]]
            mine[0] += entry["decisions"]
            mine[1] += entry["total"]
            mine[2] = max(mine[2], entry["max"])
    return [(int(d), float(t), float(m)) for d, t, m in totals]


def _forfeits(entrants: int, results: list[dict[str, Any]]) -> list[dict[str, int]]:
    counts: list[dict[str, int]] = [{} for _ in range(entrants)]
    for result in results:
        forfeit = result.get("forfeit")
        if forfeit:
            mine = counts[result["seating"][forfeit["seat"]]]
            mine[forfeit["reason"]] = mine.get(forfeit["reason"], 0) + 1
    return counts


def show(store: EventStore, *, as_json: bool = False, out: TextIO = sys.stdout) -> None:
    report = build(store)
    if as_json:
        out.write(json.dumps(_finite(report), indent=2, sort_keys=True, allow_nan=False) + "\n")
    else:
        out.write("\n".join(text(report)) + "\n")
    out.flush()


def _finite(value: Any) -> Any:
    """``value`` with infinite numbers as ``None`` (an Elo difference when one side won every
    game): JSON has no infinity."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


def text(report: dict[str, Any]) -> list[str]:
    """The report for people: a heading, the standings, head-to-head and the SPRT."""
    settings = report["settings"]
    game = settings.get("game", "?")
    title = games.get(game).title if game in games.names() else game
    seeds = f"seed {settings.get('seed')}"
    if settings.get("seeds"):
        seeds = f"seed book of {settings['seeds']}"
    clock = ""
    if settings.get("tc"):
        clock = f", clock {settings['tc']} ({settings.get('on_time', 'forfeit')} on time)"
    lines = [
        f"{report['event']}: {title}, {settings.get('players')} players, "
        f"{settings.get('format')}, {seeds}{clock}",
        f"{report['games']} of {report['total']} games played; database {report['database']}",
    ]
    if report.get("max_decisions"):
        lines.append(
            f"{report['adjudicated']} games adjudicated: still running after "
            f"{report['max_decisions']} decisions, scored as they stood"
        )
    lines.append("")
    lines += standings_text(report)
    if report["head_to_head"]:
        lines += ["", _HEAD_TO_HEAD_NOTE]
        lines += _crosstable(report)
    sprt = report["sprt"]
    if sprt:
        a, b = (e["name"] for e in settings["entrants"][:2])
        verdict = {
            "H1": f"H1 accepted: {a}'s win share against {b} is {sprt['p1']} or more",
            "H0": f"H0 accepted: {a}'s win share against {b} is {sprt['p0']} or less",
            None: "not decided yet",
        }[sprt["decision"]]
        lines += [
            "",
            f"SPRT {sprt['p0']}..{sprt['p1']} (alpha {sprt['alpha']}, beta {sprt['beta']}): "
            f"LLR {sprt['llr']:+.2f}, bounds [{sprt['lower']:+.2f}, {sprt['upper']:+.2f}]: "
            f"{verdict}",
        ]
        if sprt.get("unit") == "rotation":
            lines.append(
                f"  samples: {sprt['samples']} complete rotation groups (each deal in every "
                "seating counts as one)"
            )
        if sprt["decision"]:
            after = sprt.get("after_decision") or 0
            lines.append(
                f"  decided after {sprt.get('games', report['games'])} games"
                + (
                    f"; {after} more that were already running finished after the decision "
                    "(in the standings, not in the test)"
                    if after
                    else ""
                )
            )
    return lines


def standings_text(report: dict[str, Any]) -> list[str]:
    """The standings table of a report, best first."""
    rows = [["#", "entrant", "rating mu ± sigma", "ordinal", "games", "win share [95%]",
             "mean/slowest decision", "forfeits"]]  # fmt: skip
    for place, s in enumerate(report["standings"], 1):
        low, high = s["win_low"], s["win_high"]
        if s.get("group_low") is not None:  # by rotation groups, when there are enough
            low, high = s["group_low"], s["group_high"]
        share = "-" if s["win_share"] is None else (
            f"{s['win_share']:.3f} [{low:.3f}, {high:.3f}]"
        )  # fmt: skip
        thinking = "-" if s["mean_decision"] is None else (
            f"{_seconds(s['mean_decision'])} / {_seconds(s['slowest_decision'])}"
        )  # fmt: skip
        shown = {"time": "on time"}
        forfeits = ", ".join(
            f"{n} {shown.get(why, why)}" for why, n in sorted(s["forfeits"].items())
        ) or "0"  # fmt: skip
        if s.get("stand_ins"):
            forfeits += f" ({s['stand_ins']} moves by the stand-in)"
        rating = f"{s['mu']:.1f} ± {s['sigma']:.1f}"
        rows.append([str(place), s["name"], rating, f"{s['ordinal']:.1f}", str(s["games"]),
                     share, thinking, forfeits])  # fmt: skip
    return _table(rows)


_HEAD_TO_HEAD_NOTE = (
    "Head to head: how often the row placed better than the column (a shared place counts a "
    "half), with its 95% interval"
)


def _crosstable(report: dict[str, Any]) -> list[str]:
    names = [s["name"] for s in report["standings"]]
    cells = {(h["a"], h["b"]): h for h in report["head_to_head"]}
    two_player = report["settings"].get("players") == 2
    rows = [["", *names]]
    for a in names:
        row = [a]
        for b in names:
            h = cells.get((a, b))
            if a == b or h is None:
                row.append("-")
                continue
            cell = f"{h['share']:.2f} [{h['low']:.2f}, {h['high']:.2f}]"
            if two_player and h["elo"] is not None:
                cell += f", Elo {_elo(h['elo'])} [{_elo(h['elo_low'])}, {_elo(h['elo_high'])}]"
            row.append(cell)
        rows.append(row)
    return _table(rows)


def _elo(value: float) -> str:
    if math.isinf(value):
        return ">+999" if value > 0 else "<-999"
    return f"{value:+.0f}"


def _seconds(value: float) -> str:
    return f"{value * 1000:.1f} ms" if value < 1 else f"{value:.2f} s"


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
            for row in rows]  # fmt: skip


def export(store: EventStore, path: str, log: TextIO) -> int:
    """Write every game's record to ``path`` (one per line, the order they finished)."""
    target = Path(path)
    count = 0
    with target.open("w", encoding="utf-8") as handle:
        for record in store.records():
            handle.write(record + "\n")
            count += 1
    print(f"{count} game records written to {target}", file=log)
    return count
