"""The ``cosmoport`` command and its subcommands.

Each subcommand lives in the package it belongs to, as a module with two functions:
``add_arguments(parser)`` and ``run(args) -> int`` (the exit status). The table below is the only
place that names them, so the packages stay independent of each other.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from collections.abc import Sequence

# (subcommand, module, one-line help). A module that is not installed is left out of the menu.
COMMANDS: list[tuple[str, str, str]] = [
    ("play", "cosmoport.play", "play a game in the console against bots (the quick start)"),
    ("join", "client.console.join", "join a Cosmoport server on the LAN"),
    ("serve", "cosmoport.serve", "host games for the LAN"),
    ("bot", "cosmoport.bot", "connect a bot to a server table"),
    ("tournament", "tournament.cli", "bots against bots: fair schedules, ratings, results kept"),
    ("conformance", "conformance.cli", "check a bot or client of your own against the protocol"),
    ("demo", "cosmoport.demo", "watch a seeded game between random players, turn by turn"),
    ("replay", "cosmoport.replay", "step through a recorded game, forward and back, from any seat"),
]


def _available() -> list[tuple[str, str, str]]:
    return [cmd for cmd in COMMANDS if _installed(cmd[1])]


def _installed(module: str) -> bool:
    # find_spec of ``a.b`` raises, rather than answering None, when package ``a`` is missing.
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cosmoport",
        description="Cosmoport: Alien Artifacts and Cosmic Run over the network, with bots.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module_name, help_text in _available():
        module = importlib.import_module(module_name)
        command = sub.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(command)
        command.set_defaults(_run=module.run)
    return parser


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("cosmoport")
    except PackageNotFoundError:
        return "(not installed)"


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "_run", None) is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args._run(args) or 0)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `cosmoport demo | head`: the reader left, nothing to report
        sys.stderr.close()
        return 0
