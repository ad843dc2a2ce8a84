"""``cosmoport serve``: the server of :mod:`server.cli`, with the greedy bot of :mod:`ai` as the
stand-in for seats out of time (wired here, where both may be imported)."""

from __future__ import annotations

import argparse

from ai.stand_in import greedy_stand_in
from server import cli

add_arguments = cli.add_arguments


def run(args: argparse.Namespace) -> int:
    return cli.run(args, stand_in=greedy_stand_in)
