"""``cosmoport play GAME``: one command, one game against bots, in the console.

An entry point, so it may use every package: it runs the server (``server``) and the console
client (``client``) in one process. On a terminal the console is full screen (:mod:`client.tui`);
with ``--plain``, or when standard input or output is not a terminal, it is the line console.

Starts an embedded server on a free loopback port, opens a table, seats the person, fills every
other seat with bots and hands the terminal to the console. The bots are ordinary network clients
over loopback: MCTS bots (``--bots easy|normal|hard``, default normal) and the greedy baseline are
programs the server starts (``add_bot``); ``--bots random`` seats random-choice bots in this
process (:func:`client.net.network_bot.start_bots`). The table starts by itself once the last bot
sits down. ``again`` (after the end) sets up a new table with new bots.

The record of every game played to its end is kept: fetched from the server (``record``) and
appended as one line to ``<user data dir>/records/played.jsonl``
(:mod:`client.console.record_files`); the console says where, and how to replay it. A record that
cannot be kept is reported, never fatal.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from twisted.internet import defer, task

import games
from client.console import record_files
from client.console.commands import Console
from client.console.errors import describe
from client.console.join import default_name
from client.console.terminal import Attach, full_screen_wanted, open_terminal, quiet_logging, wire
from client.console.where import Where
from client.net.network_bot import NetworkBot, start_bots
from client.net.session import Client
from client.text.game_names import game_name
from protocol import BOT_LEVELS

DEFAULT_PLAYERS = 2
DEFAULT_BOT_DELAY = 0.4
DEFAULT_BOTS = "normal"

BotStarter = Callable[..., defer.Deferred[list[NetworkBot]]]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game", metavar="GAME", help="cosmic_run (or cosmic-run, cr) or alien_artifacts (aa)"
    )
    parser.add_argument(
        "--players",
        type=int,
        default=DEFAULT_PLAYERS,
        help="seats in all, yours included (default 2; Cosmic Run solo: 1)",
    )
    parser.add_argument("--name", default=None, help="your name (default: your login)")
    parser.add_argument(
        "--bots",
        choices=BOT_LEVELS,
        default=DEFAULT_BOTS,
        help=f"who plays the other seats: MCTS bots (easy, normal, hard), or the greedy or "
        f"random baselines (default {DEFAULT_BOTS})",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="seed the table and the bots: the same seed and the same moves replay a game",
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=DEFAULT_BOT_DELAY,
        metavar="SECONDS",
        help=f"pause before each random bot's action (default {DEFAULT_BOT_DELAY})",
    )
    parser.add_argument("--no-color", action="store_true", help="no colours (also: NO_COLOR=1)")
    parser.add_argument(
        "--plain",
        action="store_true",
        help="the line console instead of the full screen (for screen readers, pipes, slow "
        "links); the default when not on a terminal",
    )


def check(args: argparse.Namespace) -> str | None:
    """What is wrong with the arguments, or None."""
    name = game_name(args.game)
    if name not in games.names():
        return f"no game {args.game!r}; choose one of {', '.join(games.names())}"
    game = games.get(name)
    if not game.min_players <= args.players <= game.max_players:
        return f"{game.title} takes {game.min_players} to {game.max_players} players"
    if args.bot_delay < 0:
        return "--bot-delay cannot be negative"
    return None


def run(args: argparse.Namespace) -> int:
    problem = check(args)
    if problem is not None:
        print(f"cosmoport play: {problem}")
        return 2
    if full_screen_wanted(args.plain):
        from client import tui

        def start(reactor: Any, screen: Any, attach: Attach, console_class: type[Console]) -> Any:
            return session(reactor, args, screen, attach, console_class)

        return tui.run(start, game=game_name(args.game), no_color=args.no_color)
    task.react(_main, [args])
    return 0  # not reached: react exits


class Match:
    """The embedded server, the person's client and the bots of the current table.

    :meth:`receive` is the client's ``on_message``: it shows everything on the console and
    keeps the record of each game that ends in ``records`` (a ``.jsonl`` file).
    """

    def __init__(
        self,
        reactor: Any,
        args: argparse.Namespace,
        bots: BotStarter = start_bots,
        records: Path | None = None,
    ):
        self.reactor = reactor
        self.game = game_name(args.game)
        self.players = args.players
        self.delay = args.bot_delay
        self.level = getattr(args, "bots", DEFAULT_BOTS)
        self.rng = random.Random(args.seed)
        self.start_bots = bots
        self.client: Client | None = None
        self.console: Console | None = None
        self.bots: list[NetworkBot] = []
        self.host = "127.0.0.1"
        self.port = 0
        self.table: int | None = None
        self.records = records if records is not None else record_files.played_path()
        self._kept: set[int] = set()

    async def new_table(self) -> None:
        """Open a table, sit the person at it, fill the other seats with bots (it then starts)."""
        assert self.client is not None and self.console is not None
        for bot in self.bots:
            bot.close()
        self.bots = []
        if self.console.where != Where.LOBBY:
            await self.client.request({"type": "leave"})
            self.console.where, self.console.table, self.console.game = Where.LOBBY, None, None
        created = await self.client.request(
            {"type": "create", "game": self.game, "players": self.players, "autostart": True}
        )
        table = created["table"]["id"]
        self.table = table
        self.console.tables[table] = created["table"]  # ours: no "new table" news about it
        joined = await self.client.request({"type": "join", "table": table})
        self.console.on_joined(joined)
        if self.players > 1 and self.level != "random":
            # Bot programs started by the server; they sit down in a moment and the table starts.
            for _ in range(self.players - 1):
                await self.client.request({"type": "add_bot", "level": self.level})
        elif self.players > 1:
            self.bots = await self.start_bots(
                self.reactor,
                self.host,
                self.port,
                table,
                self.players - 1,
                self.game,
                seed=self.rng.getrandbits(32),
                delay=self.delay,
            )

    def receive(self, msg: dict[str, Any]) -> None:
        """A message from the server: to the console, and at our game's end, keep its record."""
        assert self.console is not None
        self.console.receive(msg)
        mine = self.table
        over = msg.get("type") == "game_over" and msg.get("table") == mine
        if over and mine is not None and mine not in self._kept:
            self._kept.add(mine)
            self.keep_record(mine)

    def keep_record(self, table: int) -> None:
        """Fetch the record of ``table`` and append it to :attr:`records`; say where it is."""
        assert self.client is not None
        d = self.client.request({"type": "record", "table": table})
        d.addCallback(self._write_record, table)
        d.addErrback(self._not_kept)

    def _write_record(self, reply: dict[str, Any], table: int) -> None:
        assert self.console is not None
        record = reply.get("record")
        if not isinstance(record, dict):
            self._say(f"The server sent no record for table {table}: it is not kept.", bad=True)
            return
        path = self.records
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            line = record_files.append(record, path)
        except OSError as error:
            self._say(f"Could not keep the record in {path}: {error.strerror or error}.", bad=True)
            return
        command = record_files.replay_command(path, line)
        self._say(f"Record kept: {path} (game {line} there; replay with `{command}`)")

    def _not_kept(self, failure: Any) -> None:
        self._say(f"The record of this game could not be kept: {describe(failure.value)}", bad=True)

    def _say(self, text: str, bad: bool = False) -> None:
        if self.console is not None:
            style = self.console.style
            self.console.say(style.bad("! " + text) if bad else style.note(text))
            self.console.prompt()

    def again(self) -> None:
        d = defer.ensureDeferred(self.new_table())
        d.addErrback(self._failed)

    def _failed(self, failure: Any) -> None:
        if self.console is not None:
            self.console.say(describe(failure.value))
            self.console.prompt()


async def session(
    reactor: Any,
    args: argparse.Namespace,
    screen: Any,
    attach: Attach,
    console_class: type[Console] = Console,
) -> int:
    """One whole ``play`` session on ``screen`` (a line terminal's or the full-screen app's):
    the embedded server, the person's client and console, the bots. ``attach(console,
    quit_with)`` hands the console to whatever feeds it lines. The exit status."""
    from ai.stand_in import greedy_stand_in
    from server.limits import Limits
    from server.service import listen

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    args.seed = seed
    # Loopback only, and every client is ours: the rate limit only has to spare fast bots, and
    # every bot is the one person's (the last game's may still be going as the next is set up).
    # No turn timer: bots wait for the person as long as it takes.
    limits = Limits(rate=1000.0, burst=2000, bots_per_address=Limits().max_bots, timer=0)
    listening, factory = listen(
        reactor, "127.0.0.1", 0, limits, rng=random.Random(seed), stand_in=greedy_stand_in
    )
    port: Any = listening
    finished: defer.Deferred[int] = defer.Deferred()

    def quit_with(code: int) -> None:
        if not finished.called:
            finished.callback(code)

    match = Match(reactor, args)
    match.port = port.getHost().port
    name = args.name or default_name()
    client = Client(reactor, match.host, match.port, name)
    console = console_class(client, screen, on_quit=quit_with, again=match.again)
    match.client, match.console = client, console
    client.on_message = match.receive
    client.on_status = console.status
    attach(console, quit_with)
    title = games.get(match.game).title
    others = args.players - 1
    kind = "random" if match.level == "random" else f"{match.level} (MCTS)"
    if match.level == "greedy":
        kind = "greedy"
    who = f"against {others} {kind} bot{'s' if others != 1 else ''}" if others else "solo"
    screen.show([f"Cosmoport: {title} {who} (seed {seed}).", "Type `help` for the commands."])
    code = 1
    try:
        await client.start()
        await match.new_table()
        console.prompt()
        code = await finished
    except Exception as error:
        screen.show(f"cosmoport play: {describe(error)}")
    finally:
        for bot in match.bots:
            bot.close()
        await client.close()
        factory.hub.shutdown()
        await defer.maybeDeferred(port.stopListening)
    return code


async def _main(reactor: Any, args: argparse.Namespace) -> None:
    """The line console (``--plain``, or when not on a terminal)."""
    quiet_logging()
    screen, terminal = open_terminal(reactor, args.no_color)
    try:
        code = await session(reactor, args, screen, wire(terminal))
    finally:
        await terminal.close()
    if code:
        raise SystemExit(code)
