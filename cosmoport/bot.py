"""``cosmoport bot HOST[:PORT] --table ID``: a bot joins a table and plays it to the end.

A bot of :mod:`ai.bots` at the wheel of the client's :class:`client.net.network_bot.NetworkBot`: it
lives here, in the package that puts the others together, as the ai package may not import the
client.

The bot is an ordinary network client: it says hello, takes a place (or, started by a server for
``add_bot``, the place kept for it, with the token in ``$COSMOPORT_SEAT_TOKEN``), and whenever the
server lists legal actions for its seat it searches from its own view (never anything else) and
acts. The search runs in a worker thread, so the reactor keeps answering the server's heartbeats
while it thinks. An action the server refuses (an ``action/illegal`` from a strict server) is
chosen again from the next update; three refusals in a row end it. It exits when the game ends or
its table is closed (status 0: nothing went wrong), when it cannot join or loses its seat (status
1), and quietly on SIGTERM or SIGINT. It writes to stderr only when something went wrong (a
server that started it logs those lines as warnings).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Sequence
from typing import Any

from ai.bots import KINDS, LEVELS, Bot, MCTSBot, make_bot
from ai.mcts import describe
from games.api import Action, View
from protocol import BOT_TOKEN_VARIABLE

DEFAULT_LEVEL = "hard"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("address", metavar="HOST[:PORT]", help="the server (default port 7777)")
    parser.add_argument("--table", type=int, required=True, help="the table to join")
    parser.add_argument("--seat", type=int, default=None, help="the place to take (default: any)")
    parser.add_argument(
        "--level",
        choices=KINDS,
        default=DEFAULT_LEVEL,
        help=f"{', '.join(LEVELS)} (MCTS), or the random / greedy baselines "
        f"(default {DEFAULT_LEVEL})",
    )
    parser.add_argument("--iterations", type=int, help="search iterations per decision")
    parser.add_argument("--think", type=float, metavar="SECONDS", help="search time per decision")
    parser.add_argument("--name", help="the bot's name at the table")
    parser.add_argument("--seed", type=int, help="seed the bot (default: a new one)")
    parser.add_argument("--verbose", action="store_true", help="print every decision")


class ThreadedChooser:
    """Runs a bot's ``choose`` in the reactor's thread pool, one decision at a time.

    The bot itself is built on the first decision, when the view says which game this is.
    """

    def __init__(self, args: argparse.Namespace, seed: int, out: Any = sys.stdout) -> None:
        from twisted.internet import defer

        self.args = args
        self.seed = seed
        self.out = out
        self.bot: Bot | None = None
        self.lock = defer.DeferredLock()
        self.decisions = 0

    def _build(self, game_name: str) -> Bot:
        import games

        game = games.get(game_name)
        return make_bot(
            self.args.level,
            game,
            self.seed,
            iterations=self.args.iterations,
            seconds=self.args.think,
        )

    def _choose(self, view: View, legal: Sequence[Action]) -> Action:
        if self.bot is None:
            self.bot = self._build(view["game"])
        action = self.bot.choose(view, legal)
        self.decisions += 1
        if self.args.verbose:
            detail = ""
            if isinstance(self.bot, MCTSBot) and self.bot.last is not None:
                detail = f" ({describe(self.bot.last)})"
            print(f"decision {self.decisions}: {list(action)}{detail}", file=self.out, flush=True)
        return action

    def choose(self, view: View, legal: Sequence[Action]) -> Any:
        from twisted.internet import threads

        return self.lock.run(threads.deferToThread, self._choose, view, list(legal))


def bot_name(level: str, args: argparse.Namespace) -> str:
    if args.name:
        return str(args.name)
    return f"MCTS bot ({level})" if level in LEVELS else f"{level.capitalize()} bot"


def run(args: argparse.Namespace) -> int:
    from twisted.internet import task

    from client.console.join import parse_address

    try:
        host, port = parse_address(args.address)
    except ValueError as error:
        print(f"cosmoport bot: {error}", file=sys.stderr)
        return 2
    if args.iterations is not None and args.iterations < 1:
        print("cosmoport bot: --iterations must be at least 1", file=sys.stderr)
        return 2
    if args.think is not None and args.think <= 0:
        print("cosmoport bot: --think must be positive", file=sys.stderr)
        return 2
    task.react(_main, [host, port, args])
    return 0  # not reached: react exits


async def _main(reactor: Any, host: str, port: int, args: argparse.Namespace) -> None:
    from client.console.errors import describe as describe_error
    from client.net.network_bot import NetworkBot
    from client.net.session import Client
    from protocol.stopping import stop_on_signals

    stop_on_signals(reactor)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    chooser = ThreadedChooser(args, seed)
    name = bot_name(args.level, args)
    client = Client(reactor, host, port, name, labels=False)  # a bot reads no labels
    bot = NetworkBot(reactor, client, chooser)
    token = os.environ.get(BOT_TOKEN_VARIABLE)
    try:
        await client.start()
        if token:  # a place the server keeps for us (add_bot): take it back with its token
            joined = await client.request({"type": "resume", "token": token})
        else:
            request: dict[str, Any] = {"type": "join", "table": args.table}
            if args.seat is not None:
                request["slot"] = args.seat
            joined = await client.request(request)
    except Exception as error:
        print(f"cosmoport bot: {describe_error(error)}", file=sys.stderr)
        await client.close()
        raise SystemExit(1) from None
    info = joined["table"]
    print(
        f"{name}: seated at table {info['id']} ({info.get('game')}), place {joined['slot']}",
        flush=True,
    )
    outcome = await _ending(client, bot)
    if outcome[0] == "over":
        print(f"{name}: game over, scores {outcome[1].get('scores')}", flush=True)
        return
    if outcome[0] == "closed":  # by its people, or by the server's expiry: nothing went wrong
        print(f"{name}: {outcome[1]}", flush=True)
        await client.close()
        return
    print(f"{name}: {outcome[1]}", file=sys.stderr, flush=True)
    raise SystemExit(1)


def _ending(client: Any, bot: Any) -> Any:
    """Fires with ("over", game_over message), ("closed", why) or ("gone", why) when there is
    nothing to play."""
    from twisted.internet import defer

    ended: defer.Deferred[tuple[str, Any]] = defer.Deferred()

    def finish(outcome: tuple[str, Any]) -> None:
        if not ended.called:
            ended.callback(outcome)

    bot.done.addCallbacks(
        lambda msg: finish(("over", msg)),
        lambda failure: finish(("gone", f"gave up: {failure.getErrorMessage()}")),
    )
    handle = client.on_message

    def on_message(msg: dict[str, Any]) -> None:
        handle(msg)
        if msg.get("type") == "left" and msg.get("reason") == "closed":
            finish(("closed", "the table was closed"))

    def on_status(event: str, detail: dict[str, Any]) -> None:
        if event in ("gave_up", "seat_lost"):
            finish(("gone", f"lost the seat ({event})"))

    client.on_message = on_message
    client.on_status = on_status
    return ended
