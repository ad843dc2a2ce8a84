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
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

import games
from tournament.director import Director, first_score
from tournament.ratings import pairs, rate, wilson
from tournament.sprt import SPRT
from tournament.store import EventStore

# --- progress -----------------------------------------------------------------------------------


class Progress:
    """One line of progress on a terminal (rewritten in place), or a line now and then in a log:
    games done of all, rate, time left, the leader, and the SPRT's LLR when there is one."""

    def __init__(self, out: TextIO, clock: Any = time.monotonic) -> None:
        self.out = out
        self.tty = out.isatty()
        self.clock = clock
        self.started = clock()
        self.shown_at = -math.inf
        self.first_done: int | None = None
        self.wins: dict[int, float] = {}
        self.games: dict[int, int] = {}
        self.last = ""

    def update(self, director: Director, result: dict[str, Any] | None) -> None:
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
        due = now - self.shown_at >= 0.25 if self.tty else done % every == 0 or finished
        if result is not None and not due:
            return
        self.shown_at = now
        self.last = self.line(director, now)
        if self.tty:
            self.out.write("\r\x1b[2K" + self.last)
        else:
            self.out.write(self.last + "\n")
        self.out.flush()

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
            left = len(director.remaining())
            if left and director.decision() is None:
                parts.append(f"ETA {_duration(left / rate_)}")
        if self.games:
            best = max(self.games, key=lambda e: self.wins[e] / self.games[e])
            share = self.wins[best] / self.games[best]
            parts.append(f"leader {director.event.entrants[best].name} ({share:.3f})")
        sprt = director.event.sprt
        if sprt is not None:
            parts.append(_sprt_text(sprt, director.scores))
        return "  ".join(parts)

    def finish(self) -> None:
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
    standings: list[dict[str, Any]] = []
    for number, entrant in enumerate(entrants):
        wins = sum(first_score(s, r, number) for s, r in outcomes if number in s)
        played = sum(1 for s, _ in outcomes if number in s)
        low, high = wilson(wins, played)
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
                "decisions": decisions,
                "mean_decision": total / decisions if decisions else None,
                "slowest_decision": slowest if decisions else None,
                "forfeits": forfeits[number],
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
    }
    sprt_settings = settings.get("sprt")
    if sprt_settings:
        sprt = SPRT(*sprt_settings)
        scores = [first_score(s, r, 0) for s, r in outcomes]
        low, high = sprt.bounds
        report["sprt"] = {
            "p0": sprt.p0,
            "p1": sprt.p1,
            "alpha": sprt.alpha,
            "beta": sprt.beta,
            "llr": sprt.llr(scores),
            "lower": low,
            "upper": high,
            "decision": sprt.decision(scores),
        }
    return report


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
    lines = [
        f"{report['event']}: {title}, {settings.get('players')} players, "
        f"{settings.get('format')}, seed {settings.get('seed')}",
        f"{report['games']} of {report['total']} games played; database {report['database']}",
        "",
    ]
    rows = [["#", "entrant", "rating mu ± sigma", "ordinal", "games", "win share [95%]",
             "mean/slowest decision", "forfeits"]]  # fmt: skip
    for place, s in enumerate(report["standings"], 1):
        share = "-" if s["win_share"] is None else (
            f"{s['win_share']:.3f} [{s['win_low']:.3f}, {s['win_high']:.3f}]"
        )  # fmt: skip
        thinking = "-" if s["mean_decision"] is None else (
            f"{_seconds(s['mean_decision'])} / {_seconds(s['slowest_decision'])}"
        )  # fmt: skip
        forfeits = ", ".join(f"{n} {why}" for why, n in sorted(s["forfeits"].items())) or "0"
        rating = f"{s['mu']:.1f} ± {s['sigma']:.1f}"
        rows.append([str(place), s["name"], rating, f"{s['ordinal']:.1f}", str(s["games"]),
                     share, thinking, forfeits])  # fmt: skip
    lines += _table(rows)
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
    return lines


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
