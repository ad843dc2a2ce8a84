"""``cosmoport tournament``: bots against bots, fair seatings, ratings with error bars, kept on disk.

    cosmoport tournament cosmic-run --entrant hard --entrant normal --entrant greedy --games 200
    cosmoport tournament alien-artifacts --players 3 --entrant hard --entrant "cmd:./mybot" --db aa.sqlite
    cosmoport tournament cosmic-run --match hard:iterations=4000 hard --sprt 0.50,0.55
    cosmoport tournament --db aa.sqlite --report

Every game is committed to the event's database as it ends; the same command again goes on
where a run stopped. ``docs/tournaments.md`` is the guide.
"""  # noqa: E501

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, TextIO

import games
from tournament.clock import ON_TIME, parse_tc
from tournament.director import Director, Event, event_name, log_dir_for
from tournament.entrants import EntrantError, check_agent, check_program, parse_all
from tournament.runners import (
    DaskRunner,
    InlineRunner,
    LocalRunner,
    Runner,
    RunnerGone,
    default_workers,
)
from tournament.schedule import FORMATS, ScheduleError, parse_seeds, per_round
from tournament.sprt import parse_sprt
from tournament.store import EventStore, StoreError

DEFAULT_GAMES = 100
SPRT_GAMES = 20_000
DEFAULT_TIMEOUT = 60.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = (
        "entrants: random, greedy, easy, normal, hard, each with settings such as\n"
        "  hard:iterations=4000  normal:seconds=0.2,exploration=1.0  greedy:name=Greedy\n"
        "or a program of your own: cmd:COMMAND (cmd[name=NAME,reuse]:COMMAND); see\n"
        "docs/tournaments.md for what a program is given and how it plays;\n"
        "or a Python agent of your own, played in-process: py:MODULE:CALLABLE\n"
        "(py[name=NAME,tc=BANK+INC]:MODULE:CALLABLE; MODULE a module name or a .py file).\n"
        "  A function is called per decision as f(observation, action_mask) (or with\n"
        "  info={'view': view} too, if it takes info), a class is made once per game\n"
        "  (with those of game, players, seat, seed it takes) and called the same way:\n"
        "  observation is the float32 numpy vector of the seat's view and action_mask the\n"
        "  int8 vector of legal actions, exactly as cosmoport.envs.aec_env gives them; it\n"
        "  returns a legal action's integer. It forfeits as a program does (crash,\n"
        "  illegal, timeout, time). Needs numpy: pip install 'cosmoport[research]'.\n"
        "  See docs/research.md."
    )
    parser.add_argument(
        "game", nargs="?", metavar="GAME", help="cosmic-run (cr) or alien-artifacts (aa)"
    )
    who = parser.add_argument_group("who plays")
    who.add_argument(
        "--entrant", "-e", action="append", default=[], metavar="SPEC", help="an entrant (repeat)"
    )
    who.add_argument(
        "--match",
        nargs=2,
        metavar=("A", "B"),
        help="a match of two entrants (A's win share is what an --sprt tests)",
    )
    who.add_argument(
        "--format",
        choices=FORMATS,
        help="round-robin (every group of entrants meets; the default), gauntlet (the first "
        "entrant against the others), match (two entrants) or swiss (--rounds rounds, each "
        "seating entrants of similar standing together)",
    )
    who.add_argument("--rounds", type=int, metavar="R", help="rounds of a --format swiss")
    how = parser.add_argument_group("how")
    how.add_argument("--players", type=int, default=2, help="seats per table (default 2)")
    how.add_argument(
        "--games",
        type=int,
        help=f"games to play, rounded up to whole rounds (default {DEFAULT_GAMES}; with --sprt "
        f"at most {SPRT_GAMES})",
    )
    how.add_argument("--seed", type=int, default=1, help="the schedule's seed (default 1)")
    how.add_argument(
        "--seeds",
        metavar="FILE",
        help="a seed book: a file of seeds, one per line or a range FIRST-LAST per line (or a "
        "range such as 1-500 itself); round N deals its Nth seed at every table",
    )
    how.add_argument(
        "--tc",
        metavar="BANK+INC",
        help="a game clock for every entrant: BANK seconds for the game plus INC per decision "
        "(e.g. 60+0.5); an entrant's own tc=... setting overrides it",
    )
    how.add_argument(
        "--on-time",
        choices=ON_TIME,
        default="forfeit",
        help="a seat whose bank runs dry loses on time (forfeit, the default) or the stand-in "
        "bot makes that move for it (stand-in)",
    )
    how.add_argument(
        "--max-decisions",
        type=int,
        metavar="N",
        help="end a game still running after N decisions (all seats together) and score it as "
        "it stands (adjudicated)",
    )
    how.add_argument(
        "--iterations", type=int, help="search iterations per decision, for MCTS entrants"
    )
    how.add_argument("--seconds", type=float, help="search seconds per decision, for MCTS entrants")
    how.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"longest a program may take over one decision before it forfeits the game "
        f"(default {DEFAULT_TIMEOUT:g})",
    )
    how.add_argument(
        "--sprt",
        metavar="P0,P1[,ALPHA,BETA]",
        help="stop a match once A's win share is shown to be P0 or less, or P1 or more",
    )
    how.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option, e.g. factions=choice (repeat)",
    )
    how.add_argument("--network", action="store_true", help="every entrant plays over the protocol")
    how.add_argument(
        "--no-duplicates",
        action="store_true",
        help="refuse an event that seats one entrant in two seats of a table (its copies "
        "could help each other)",
    )
    where = parser.add_argument_group("where")
    where.add_argument(
        "--workers",
        type=int,
        default=None,
        help=f"games in parallel on this machine (default one per core: {default_workers()})",
    )
    where.add_argument("--dask", metavar="SCHEDULER", help="play on a dask.distributed cluster")
    where.add_argument("--db", metavar="PATH", help="the event's database (default ./EVENT.sqlite)")
    where.add_argument("--event", metavar="NAME", help="the event's name (default from entrants)")
    out = parser.add_argument_group("output")
    out.add_argument(
        "--report", action="store_true", help="show the standings of --db and play nothing"
    )
    out.add_argument("--json", action="store_true", help="print the final report as JSON")
    out.add_argument("--export", metavar="FILE", help="write every game's record to FILE (.jsonl)")
    out.add_argument("--quiet", "-q", action="store_true", help="no progress while it runs")
    out.add_argument(
        "--report-every",
        type=int,
        metavar="N",
        help="print the standings with their intervals every N games (to stderr)",
    )


class UsageError(Exception):
    """Something the user asked for that cannot be done; one line."""


def build_event(args: argparse.Namespace) -> Event:
    """The event from the arguments; :class:`UsageError` for anything wrong with them."""
    from client.text.game_names import game_name

    if not args.game:
        raise UsageError("name the game: cosmic-run or alien-artifacts (or --report with --db)")
    name = game_name(args.game)
    if name not in games.names():
        raise UsageError(f"no game {args.game!r}; choose cosmic-run or alien-artifacts")
    game = games.get(name)
    if not game.min_players <= args.players <= game.max_players:
        raise UsageError(f"{game.title} takes {game.min_players} to {game.max_players} players")
    specs = list(args.entrant)
    format = args.format
    if args.match:
        if specs:
            raise UsageError("--match names both entrants: no --entrant with it")
        if format not in (None, "match"):
            raise UsageError(f"--match plays a match, not a {format}")
        specs, format = list(args.match), "match"
    format = format or "round-robin"
    if not specs:
        raise UsageError("no entrants: add some with --entrant (e.g. --entrant hard)")
    if args.iterations is not None and args.iterations < 1:
        raise UsageError("--iterations must be at least 1")
    if args.seconds is not None and not args.seconds > 0:
        raise UsageError("--seconds must be more than 0")
    if not args.timeout > 0:
        raise UsageError("--timeout must be more than 0")
    tc = None
    if args.tc is not None:
        try:
            tc = parse_tc(args.tc)
        except ValueError as error:
            raise UsageError(f"--tc: {error}") from None
    if args.max_decisions is not None and args.max_decisions < 1:
        raise UsageError("--max-decisions must be at least 1")
    if args.report_every is not None and args.report_every < 1:
        raise UsageError("--report-every must be at least 1")
    seeds = None if args.seeds is None else read_seeds(args.seeds)
    try:
        entrants = parse_all(specs, {"iterations": args.iterations, "seconds": args.seconds})
        for entrant in entrants:
            if entrant.is_program:
                check_program(entrant)
            elif entrant.is_agent:
                check_agent(entrant)
    except EntrantError as error:
        raise UsageError(str(error)) from None
    sprt = None
    if args.sprt:
        if format != "match":
            raise UsageError("--sprt tests a match: use --match A B")
        try:
            sprt = parse_sprt(args.sprt)
        except ValueError as error:
            raise UsageError(f"--sprt: {error}") from None
    count = args.games if args.games is not None else SPRT_GAMES if sprt else DEFAULT_GAMES
    if (format == "swiss") != (args.rounds is not None):
        raise UsageError("--format swiss takes --rounds R (and only a swiss has rounds)")
    if format == "swiss":
        if args.rounds < 1:
            raise UsageError("--rounds must be at least 1")
        if args.games is not None:
            raise UsageError("a swiss plays --rounds rounds: no --games with it")
        if seeds is not None and len(seeds) < args.rounds:
            raise UsageError(f"--seeds: {args.rounds} rounds need {args.rounds} seeds, not "
                             f"{len(seeds)}")  # fmt: skip
        try:
            count = args.rounds * per_round(format, len(entrants), args.players)
        except ScheduleError as error:
            raise UsageError(str(error)) from None
    if seeds is not None and args.games is None and format != "swiss":
        try:
            whole_book = len(seeds) * per_round(format, len(entrants), args.players)
        except ScheduleError as error:
            raise UsageError(str(error)) from None
        count = min(count, whole_book) if sprt else whole_book
    if count < 1:
        raise UsageError("--games must be at least 1")
    event = Event(
        name=args.event or event_name(name, format, entrants),
        game=name,
        players=args.players,
        entrants=entrants,
        format=format,
        games=count,
        seed=args.seed,
        options=parse_options(args.option),
        network=args.network,
        timeout=args.timeout,
        sprt=sprt,
        tc=tc,
        on_time=args.on_time,
        max_decisions=args.max_decisions,
        seeds=None if seeds is None else tuple(seeds),
        rounds=args.rounds,
    )
    try:
        game.new(args.players, 0, event.options or None)
    except (ValueError, TypeError, KeyError) as error:
        raise UsageError(f"{game.title} refused the options: {error}") from None
    try:
        slots = event.schedule()
    except ScheduleError as error:
        raise UsageError(str(error) if seeds is None else f"--seeds: {error}") from None
    shared = sorted({entrants[i].name for slot in slots for i in set(slot.seating)
                     if slot.seating.count(i) > 1})  # fmt: skip
    if shared and args.no_duplicates:
        raise UsageError(
            f"--no-duplicates: {', '.join(shared)} would fill several seats of a table "
            f"({len(entrants)} entrants at {args.players}-player tables); add entrants or "
            "choose fewer players"
        )
    event.shared_seats = shared
    return event


def read_seeds(source: str) -> list[int]:
    """The seed book of ``--seeds``: a file (one seed or range per line), or a range written
    out (``1-500``) when no file has that name."""
    text: str
    if os.path.exists(source):
        try:
            with open(source, encoding="utf-8") as handle:
                text = handle.read()
        except (OSError, UnicodeDecodeError) as error:
            raise UsageError(f"--seeds: cannot read {source}: {error}") from None
    elif source.replace("..", "-").replace("-", "", 1).strip().isdigit():
        text = source
    else:
        raise UsageError(f"--seeds: no file {source!r} (write a file of seeds, or a range 1-500)")
    try:
        return parse_seeds(text)
    except ScheduleError as error:
        raise UsageError(f"--seeds {source}: {error}") from None


def parse_options(items: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in items:
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise UsageError(f"--option takes KEY=VALUE, not {item!r}")
        try:
            options[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            options[key.strip()] = value
    return options


def make_runner(args: argparse.Namespace) -> Runner:
    if args.dask:
        return DaskRunner(args.dask)
    workers = args.workers if args.workers is not None else default_workers()
    if workers < 1:
        raise UsageError("--workers must be at least 1")
    return InlineRunner() if workers == 1 else LocalRunner(workers)


def run(args: argparse.Namespace) -> int:
    from tournament import report

    try:
        if args.report:
            if not args.db:
                raise UsageError("--report reads an event's database: give it with --db")
            store = EventStore.open(args.db, create=False)
            try:
                report.show(store, as_json=args.json, out=sys.stdout)
                if args.export:
                    report.export(store, args.export, sys.stderr)
            finally:
                store.close()
            return 0
        event = build_event(args)
        db = args.db or f"{event.name}.sqlite"
        store = EventStore.open(db)
    except (UsageError, StoreError) as error:
        print(f"cosmoport tournament: {error}", file=sys.stderr)
        return 2
    try:
        return _play(args, event, store)
    finally:
        store.close()


def _play(args: argparse.Namespace, event: Event, store: EventStore) -> int:
    from tournament import report

    err: TextIO = sys.stderr
    progress = None
    if not args.quiet or args.report_every:
        progress = report.Progress(err, report_every=args.report_every, lines=not args.quiet)
    try:
        director = Director(
            event,
            store,
            log_dir=log_dir_for(store.path),
            on_result=None if progress is None else progress.update,
        )
    except StoreError as error:
        print(f"cosmoport tournament: {error}", file=err)
        return 2
    if len(director.results) >= director.total and not args.quiet:
        print(f"{store.path}: every game of this event is played already", file=err)
    try:
        runner = make_runner(args)
    except (UsageError, RunnerGone) as error:
        print(f"cosmoport tournament: {error}", file=err)
        return 2
    if event.shared_seats:
        print(
            f"warning: {', '.join(event.shared_seats)} fill several seats of some tables: "
            "copies of one entrant can help each other (--no-duplicates refuses such events)",
            file=err,
        )
    if not args.quiet:
        left = director.total - len(director.results)
        print(
            f"{event.name}: {director.total} games ({left} to play) on "
            f"{runner.description}; results in {store.path}",
            file=err,
        )
    if progress is not None:
        progress.start_heartbeat(director)
    try:
        outcome = director.run(runner)
    finally:
        if progress is not None:
            progress.finish()
    report.show(store, as_json=args.json, out=sys.stdout)
    if args.export:
        report.export(store, args.export, err)
    for number, why in outcome.failed:
        print(f"game {number} could not be played: {why}", file=err)
    if outcome.stopped:
        print(
            f"stopped: {outcome.stopped}. {outcome.done} of {outcome.total} games are kept in "
            f"{store.path}; the same command again goes on from there.",
            file=err,
        )
        return 130 if outcome.stopped == "interrupted" else 1
    if outcome.failed:
        print("the same command again tries the games that could not be played", file=err)
        return 1
    return 0
