"""``cosmoport serve``: host games for the LAN.

Listens on every interface on port 7777 by default, prints where it listens and the command
players on the LAN type to join, and logs through ``twisted.logger`` to standard output.
"""

from __future__ import annotations

import argparse
import socket
import sys

from server.limits import Limits
from server.places import StandIn
from server.service import DEFAULT_HOST, DEFAULT_PORT
from server.timers import TimerSettings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=f"interface to listen on (default {DEFAULT_HOST}: every interface)",
    )
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"TCP port (default {DEFAULT_PORT})"
    )
    parser.add_argument(
        "--max-tables",
        type=int,
        default=Limits().max_tables,
        help="tables open at once (default %(default)s)",
    )
    parser.add_argument(
        "--max-bots",
        type=int,
        default=Limits().max_bots,
        help="bot programs the server runs at once for `add_bot` (0: none; default %(default)s)",
    )
    parser.add_argument(
        "--timer",
        type=_timer,
        default=TimerSettings(Limits().timer, Limits().bank),
        metavar="SECONDS+BANK",
        help="turn timer of tables whose creator sets none: seconds per decision + each "
        "seat's bank of spare seconds (default 90+300; `off`: none). A seat out of time gets "
        "one move from a bot; after three in a row the bot plays it until its player is back",
    )
    parser.add_argument(
        "--db",
        default=None,
        metavar="PATH",
        help="the SQLite file that keeps every table and finished game, so that a restart "
        f"loses nothing (default: {default_db()}; `:memory:` keeps nothing)",
    )
    parser.add_argument(
        "--name",
        default=None,
        help="the name players see when `cosmoport join` finds this server on the LAN "
        "(default: this machine's host name)",
    )
    parser.add_argument(
        "--no-announce",
        action="store_true",
        help="do not announce the server on the LAN (mDNS/DNS-SD): players need the address",
    )
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument(
        "--quiet",
        action="store_true",
        help="log warnings and errors only (the start-up lines and the join hint still show)",
    )
    shown.add_argument(
        "--verbose",
        action="store_true",
        help="log debug detail too: each refused request with its code, who chats how much",
    )


def _timer(text: str) -> TimerSettings | None:
    try:
        return TimerSettings.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def verbosity(args: argparse.Namespace) -> str:
    """What the log shows (see :mod:`server.party_log`): ``quiet``, ``party`` or ``verbose``."""
    from server.party_log import PARTY, QUIET, VERBOSE

    if getattr(args, "quiet", False):
        return QUIET
    return VERBOSE if getattr(args, "verbose", False) else PARTY


def default_db() -> str:
    from server.store import default_path

    return str(default_path())


def lan_address() -> str:
    """This machine's address on the LAN, as others would reach it (best effort)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        # A UDP "connect" sends nothing; it only picks the interface of the default route.
        probe.connect(("10.255.255.255", 1))
        address: str = probe.getsockname()[0]
        return address
    except OSError:
        return socket.gethostbyname(socket.gethostname())
    finally:
        probe.close()


def join_hint(host: str, port: int) -> str:
    """The line telling players how to join a server listening on ``host:port``."""
    shown = lan_address() if host in ("0.0.0.0", "", "::") else host
    target = f"[{shown}]" if ":" in shown else shown
    return f"cosmoport join {target}:{port}"


def run(args: argparse.Namespace, stand_in: StandIn | None = None) -> int:
    """``cosmoport serve`` with ``args``; ``stand_in`` plays for seats out of time (None: the
    first legal action)."""
    from twisted.internet import reactor
    from twisted.internet.error import CannotListenError
    from twisted.logger import globalLogBeginner

    from protocol.stopping import stop_on_signals
    from server.descriptors import fit_to_open_files
    from server.party_log import observer
    from server.service import RareCollections, listen, stop_gracefully
    from server.session import SERVER_NAME
    from server.store import Store, StoreError

    stop_on_signals(reactor)  # before the first line: a Ctrl+C from then on stops the server
    shown = observer(sys.stdout, verbosity(args))
    globalLogBeginner.beginLoggingTo([shown], redirectStandardIO=False)
    if args.max_bots < 0:
        print("cosmoport serve: --max-bots cannot be negative", file=sys.stderr)
        return 2
    limits = Limits(
        max_tables=args.max_tables,
        max_bots=args.max_bots,
        bots_per_address=max(1, args.max_bots // 2),
        timer=args.timer.decision if args.timer else 0,
        bank=args.timer.bank if args.timer else 0,
    )
    # Before anything opens a file: no more connections than descriptors to refuse the next.
    limits, room = fit_to_open_files(limits)
    path = args.db or default_db()
    try:
        store = Store.open(path, server=SERVER_NAME)
    except StoreError as exc:
        print(f"cosmoport serve: {exc}", file=sys.stderr)
        return 1
    try:
        port, factory = listen(
            reactor, args.host, args.port, limits, store=store, stand_in=stand_in
        )
    except CannotListenError as exc:
        print(f"cosmoport serve: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        store.close()
        return 1
    actual = port.getHost().port  # type: ignore[attr-defined]  # a TCP port's address
    print(f"Cosmoport server listening on {args.host}:{actual}", flush=True)
    if store.in_memory:
        print("Games are kept in memory only (--db :memory:): a restart loses them.", flush=True)
    else:
        restored = len(factory.hub.lobby.tables)
        again = f"; {restored} table(s) taken up again" if restored else ""
        print(f"Games are kept in {path}{again}", flush=True)
    print(room, flush=True)
    timer = args.timer.text() if args.timer else "none"
    print(f"Turn timer of new tables: {timer} (--timer)", flush=True)
    print(f"Players on this network join with:  {join_hint(args.host, actual)}", flush=True)
    print("Stop with Ctrl+C.", flush=True)
    reactor.addSystemEventTrigger("before", "shutdown", stop_gracefully, factory, reactor)
    RareCollections(reactor).start()  # thousands of tables: no collector stalls (its docstring)
    if not args.no_announce:
        from server.announce import start_announcing

        start_announcing(reactor, factory.hub.lobby, args.host, actual, args.name)
    reactor.run()
    store.close()
    return 0
