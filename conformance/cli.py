"""``cosmoport conformance [options] -- COMMAND [ARGS...]``: the kit from the command line."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from client.text.game_names import game_argument, game_choices
from client.text.style import Style, colour_wanted
from conformance.kit import GAMES, TIMEOUT, Options
from conformance.report import Printer
from tournament import programs


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Check a bot or client of your own against the protocol: a referee server on "
        "127.0.0.1 starts COMMAND the way a tournament starts a cmd: entrant and drives it "
        "through scripted scenarios, then prints a checklist. With --as-server, COMMAND is a "
        "client that finds its own way (hello, list, join...) and every frame it sends that "
        "breaks the spec is reported. Exit status 0 when everything passed."
    )
    parser.epilog = (
        "COMMAND gets the placeholders {server} {host} {port} {table} {seat} {game} and the "
        "variables COSMOPORT_SERVER, COSMOPORT_SEAT_TOKEN... of docs/tournaments.md. "
        "Example: cosmoport conformance -- node examples/js-bot/bot.mjs. "
        "See docs/conformance.md."
    )
    parser.add_argument(
        "--game",
        action="append",
        type=game_argument,
        metavar="GAME",
        help=f"a game the program plays: {game_choices()} (repeat; default both)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=TIMEOUT,
        metavar="SECONDS",
        help=f"longest the program may take to connect, to act, to answer a ping or to come "
        f"back after a drop (default {TIMEOUT:g})",
    )
    parser.add_argument("--seed", type=int, help="seed the games (default: a new one, printed)")
    parser.add_argument(
        "--as-server",
        action="store_true",
        help="COMMAND is a client that does its own hello, list, create or join: report every "
        "frame it sends that breaks the spec",
    )
    parser.add_argument("--logs", metavar="DIR", help="keep the program's output of each run")
    parser.add_argument("--no-color", action="store_true", help="no colours (also: NO_COLOR=1)")
    parser.add_argument(
        "program", nargs=argparse.REMAINDER, metavar="-- COMMAND [ARGS...]", help="the program"
    )


class UsageError(Exception):
    """The command line asks for something the kit cannot do."""


def options_from(args: argparse.Namespace) -> Options:
    command = list(args.program)
    if command and command[0] == "--":
        command = command[1:]
    if not command:
        raise UsageError("name the program to check after --, e.g. -- node bot.mjs")
    if not args.timeout > 0:
        raise UsageError("--timeout must be more than 0")
    claimed = tuple(dict.fromkeys(args.game)) if args.game else GAMES
    if args.logs:
        os.makedirs(args.logs, exist_ok=True)
    return Options(tuple(command), claimed, args.timeout, args.seed, args.logs)


def run(args: argparse.Namespace) -> int:
    from twisted.internet import defer
    from twisted.internet import reactor as global_reactor

    reactor: Any = global_reactor

    try:
        options = options_from(args)
    except UsageError as error:
        print(f"cosmoport conformance: {error}", file=sys.stderr)
        return 2
    style = Style(colour_wanted(sys.stdout, args.no_color, os.environ))
    printer = Printer(sys.stdout, style)
    keeper = programs.Programs()
    result: dict[str, Any] = {}

    async def main() -> int:
        if args.as_server:
            from conformance import as_server

            return await as_server.check(reactor, options, printer, keeper)
        from conformance import kit

        return await kit.check(reactor, options, printer, keeper)

    def done(value: Any) -> None:
        result["value"] = value
        reactor.stop()

    def begin() -> None:
        defer.ensureDeferred(main()).addBoth(done)

    reactor.callWhenRunning(begin)
    try:
        reactor.run()
    finally:
        keeper.close()  # whatever still runs (interrupted): its own process group, so killed
    value = result.get("value")
    if value is None:
        print("\ninterrupted", file=sys.stderr)
        return 130
    if isinstance(value, int):
        return value
    if value.check(BrokenPipeError):  # `... | head`: cosmoport's main says nothing of it
        raise value.value
    value.printTraceback(file=sys.stderr)  # a failure of the kit itself
    return 2
