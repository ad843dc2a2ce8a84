"""The line console on a terminal: standard input and output through Twisted's StandardIO.

:func:`open_terminal` wires a :class:`TerminalLines` protocol to the process's stdin/stdout and
returns the :class:`~client.console.screen.Screen` to write on; lines typed go to ``on_line``, and
``on_eof`` runs when input ends (Ctrl-D, or the pipe closes); :func:`wire` gives a session's
console to it. Colour follows :func:`client.text.style.colour_wanted`. :func:`full_screen_wanted`
decides between this line mode and the full-screen client (:mod:`client.tui`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from typing import Any

from twisted.internet import defer, stdio
from twisted.internet.interfaces import IHalfCloseableProtocol
from twisted.logger import (
    FilteringLogObserver,
    LogLevel,
    LogLevelFilterPredicate,
    globalLogBeginner,
    textFileLogObserver,
)
from twisted.protocols.basic import LineReceiver
from zope.interface import implementer

from client.console.commands import Console
from client.console.screen import Screen
from client.text.style import Style, colour_wanted

Attach = Callable[[Console, Callable[[int], None]], None]
"""Hands a session's console to its input: (console, quit_with(exit status))."""


@implementer(IHalfCloseableProtocol)
class TerminalLines(LineReceiver):
    """Lines from stdin to ``on_line``; text to stdout (still written after stdin ends)."""

    delimiter = b"\n"
    MAX_LENGTH = 4096

    def __init__(self) -> None:
        self.on_line: Callable[[str], None] = lambda line: None
        self.on_eof: Callable[[], None] = lambda: None
        self.closed: defer.Deferred[None] = defer.Deferred()

    def lineReceived(self, line: bytes) -> None:
        self.on_line(line.decode("utf-8", "replace").rstrip("\r"))

    def lineLengthExceeded(self, line: bytes) -> None:
        self.clearLineBuffer()
        self.write_text("That line is too long.\n")

    def readConnectionLost(self) -> None:
        self.on_eof()

    def writeConnectionLost(self) -> None:
        pass

    def connectionLost(self, reason: Any = None) -> None:
        if not self.closed.called:
            self.closed.callback(None)
        self.on_eof()

    def close(self) -> defer.Deferred[None]:
        """Flush what is still to be written, then let go of the terminal."""
        transport: Any = self.transport
        if transport is not None and not self.closed.called:
            self.on_eof = lambda: None
            transport.loseConnection()
        return self.closed

    def write_text(self, text: str) -> None:
        transport: Any = self.transport
        if transport is not None:
            transport.write(text.encode("utf-8", "replace"))


def open_terminal(reactor: Any, no_color: bool) -> tuple[Screen, TerminalLines]:
    """Attach to stdin/stdout; the screen to write on and the line source to hook up."""
    lines = TerminalLines()
    stdio.StandardIO(lines, reactor=reactor)
    style = Style(colour_wanted(sys.stdout, no_color, os.environ))
    interactive = sys.stdout.isatty()
    return Screen(lines.write_text, style, interactive=interactive), lines


def wire(lines: TerminalLines) -> Attach:
    """An :data:`Attach` feeding the console the lines typed; end of input quits (status 0)."""

    def attach(console: Console, quit_with: Callable[[int], None]) -> None:
        lines.on_line = console.line
        lines.on_eof = lambda: quit_with(0)

    return attach


def full_screen_wanted(
    plain: bool,
    stdin: Any = None,
    stdout: Any = None,
    environ: Mapping[str, str] = os.environ,
) -> bool:
    """Whether to run the full-screen client: not ``--plain``, standard input and output both
    terminals, and a terminal that can draw (``TERM`` not ``dumb``)."""
    if plain or environ.get("TERM", "") in ("dumb", "unknown"):
        return False
    for stream in (stdin or sys.stdin, stdout or sys.stdout):
        try:
            if not stream.isatty():
                return False
        except (AttributeError, OSError, ValueError):
            return False
    return True


def quiet_logging() -> None:
    """Only errors reach stderr: the console owns the screen."""
    predicate: Any = LogLevelFilterPredicate(defaultLogLevel=LogLevel.error)
    output: Any = textFileLogObserver(sys.stderr)
    observer: Any = FilteringLogObserver(output, [predicate])
    globalLogBeginner.beginLoggingTo([observer], redirectStandardIO=False)
