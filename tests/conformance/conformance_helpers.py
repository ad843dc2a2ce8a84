"""The conformance kit run in this process's reactor, and its text read back."""

from __future__ import annotations

import io
import re
from pathlib import Path

from twisted.internet import defer, reactor

from client.text.style import PLAIN
from conformance import as_server, kit
from conformance.report import Printer

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
BOUND = 90.0
"""Seconds any one kit run in a test may take before the test fails (it never should)."""


async def run_kit(
    command: list[str],
    games: tuple[str, ...] = ("cosmic_run",),
    timeout: float = 5.0,
    seed: int = 7,
) -> tuple[int, str]:
    """The kit against ``command`` in this process's reactor: its exit status and its text."""
    out = io.StringIO()
    options = kit.Options(tuple(command), games, timeout, seed)
    d = defer.ensureDeferred(kit.check(reactor, options, Printer(out, PLAIN)))
    status = await d.addTimeout(BOUND, reactor)
    return status, out.getvalue()


async def run_strict(command: list[str], timeout: float = 5.0) -> tuple[int, str]:
    """``--as-server`` against ``command`` in this process: its exit status and its text."""
    out = io.StringIO()
    options = kit.Options(tuple(command), ("cosmic_run",), timeout, 7)
    d = defer.ensureDeferred(as_server.check(reactor, options, Printer(out, PLAIN)))
    status = await d.addTimeout(BOUND, reactor)
    return status, out.getvalue()


def checklist(text: str) -> dict[str, bool]:
    """The checklist's lines: name -> passed."""
    found = re.finditer(r"^  (pass|FAIL)  ([^:\n]+)", text, re.MULTILINE)
    return {match[2].strip(): match[1] == "pass" for match in found}


def flat(text: str) -> str:
    """``text`` with every run of white space one space (lines are wrapped for a terminal)."""
    return " ".join(text.split())
