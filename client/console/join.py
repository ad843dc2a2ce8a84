"""``cosmoport join [HOST[:PORT]] [--name NAME]``: the console client for a server on the LAN.

Without an address it looks for servers on the LAN first and lets the person pick one
(:mod:`client.net.discover`).

Connects, says hello and hands the terminal to :class:`client.console.commands.Console`: full screen
(:mod:`client.tui`) on a terminal, the line console with ``--plain`` or elsewhere. A dropped
connection is retried and the seat taken back with its token
(:class:`client.net.session.Client`). Seat tokens are also kept on disk
(:mod:`client.net.tokens`): a client started again after its process died takes its seat back by
itself, right after the welcome.
"""

from __future__ import annotations

import argparse
import getpass
from collections.abc import Callable
from typing import Any

from twisted.internet import defer, task

from client.console.commands import Console
from client.console.errors import describe
from client.console.screen import Screen
from client.console.terminal import Attach, full_screen_wanted, open_terminal, quiet_logging, wire
from client.net import discover
from client.net.discover import Browse, pick
from client.net.session import Client
from client.net.tokens import TokenStore

DEFAULT_PORT = 7777  # the server's default (server.service.DEFAULT_PORT)


def default_name() -> str:
    try:
        name = getpass.getuser().strip()
    except (KeyError, OSError):  # no user name in this environment
        name = ""
    return name[:24] or "player"


def parse_address(text: str) -> tuple[str, int]:
    """``host``, ``host:port``, ``[v6 address]:port`` -> (host, port); ValueError if bad."""
    text = text.strip()
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    elif text.count(":") == 1:
        host, _, port = text.partition(":")
    else:
        host, port = text, ""
    if not host:
        raise ValueError("no host")
    number = int(port) if port else DEFAULT_PORT
    if not 0 < number < 65536:
        raise ValueError(f"port {number} is out of range")
    return host, number


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "address",
        metavar="HOST[:PORT]",
        nargs="?",
        default=None,
        help=f"the server (port {DEFAULT_PORT}); without it, look for servers on this network "
        "and pick one",
    )
    parser.add_argument("--name", default=None, help="your name at the tables (default: login)")
    parser.add_argument("--no-color", action="store_true", help="no colours (also: NO_COLOR=1)")
    parser.add_argument(
        "--plain",
        action="store_true",
        help="the line console instead of the full screen (for screen readers, pipes, slow "
        "links); the default when not on a terminal",
    )


def run(args: argparse.Namespace, browse: Browse | None = None) -> int:
    """``browse``: how to look for servers when no address is given (default: on the LAN)."""
    if args.address is None:
        chosen = pick(browse or discover.browse)
        if chosen is None:
            return 1
        host, port = chosen.host, chosen.port
    else:
        try:
            host, port = parse_address(args.address)
        except ValueError as error:
            print(f"cosmoport join: bad address {args.address!r} ({error})")
            return 2
    name = args.name or default_name()
    if full_screen_wanted(args.plain):
        from client import tui

        def start(reactor: Any, screen: Any, attach: Attach, console_class: type[Console]) -> Any:
            return session(reactor, host, port, name, screen, attach, console_class)

        return tui.run(start, no_color=args.no_color)
    task.react(_main, [host, port, name, args.no_color])
    return 0  # not reached: react exits


def open_session(
    reactor: Any,
    host: str,
    port: int,
    name: str,
    screen: Screen,
    on_quit: Callable[[int], None],
    tokens: TokenStore | None,
    console_class: type[Console] = Console,
) -> tuple[Client, Console]:
    """A client for ``host:port`` that keeps its seat tokens in ``tokens``, and its console."""
    client = Client(reactor, host, port, name, tokens=tokens)
    console = console_class(client, screen, on_quit=on_quit)
    client.on_message = console.receive
    client.on_status = console.status
    if tokens is not None:
        tokens.on_note = console.note
    return client, console


async def session(
    reactor: Any,
    host: str,
    port: int,
    name: str,
    screen: Any,
    attach: Attach,
    console_class: type[Console] = Console,
    tokens: TokenStore | None = None,
) -> int:
    """One whole ``join`` session on ``screen``: connect, welcome, then the console until the
    person quits. ``attach(console, quit_with)`` hands the console to whatever feeds it lines;
    seat tokens are kept in ``tokens`` (default: the user's token store). The exit status."""
    finished: defer.Deferred[int] = defer.Deferred()

    def quit_with(code: int) -> None:
        if not finished.called:
            finished.callback(code)

    store = tokens if tokens is not None else TokenStore()
    client, console = open_session(
        reactor, host, port, name, screen, quit_with, store, console_class
    )
    attach(console, quit_with)
    screen.show(f"Connecting to {host}:{port} as {name}...")
    try:
        welcome = await client.start()
    except Exception as error:
        screen.show(describe(error))
        return 1
    console.welcome(welcome)  # and takes back the seat kept for this server, if any
    console.prompt()
    code = await finished
    await client.close()
    return code


async def _main(reactor: Any, host: str, port: int, name: str, no_color: bool) -> None:
    """The line console (``--plain``, or when not on a terminal)."""
    quiet_logging()
    screen, terminal = open_terminal(reactor, no_color)
    try:
        code = await session(reactor, host, port, name, screen, wire(terminal))
    finally:
        await terminal.close()
    if code:
        raise SystemExit(code)
