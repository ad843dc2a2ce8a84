"""What the host's terminal shows: the wording of the party's log lines and the observer that
filters them for ``cosmoport serve`` (``--quiet``, the default, ``--verbose``).

Every module says a person, a place and a result the same way: ``Ann (192.168.1.20)``,
``table 3 (Cosmic Run)``, ``place B``, ``1. Ann 31 VP, 2. Bob 24 VP``. No line ever names a
token or what someone wrote in the chat. Names people chose are always log fields, never part of
a format string.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any, Protocol

from twisted.logger import (
    FileLogObserver,
    FilteringLogObserver,
    ILogObserver,
    LogLevel,
    LogLevelFilterPredicate,
    eventAsText,
)

from games import seat_letter

if TYPE_CHECKING:
    import games


class Named(Protocol):
    """What names a table in the log (a table, or a part of one)."""

    id: int
    game: games.Game


QUIET, PARTY, VERBOSE = "quiet", "party", "verbose"
VERBOSITIES = (QUIET, PARTY, VERBOSE)


def person(name: str, address: str) -> str:
    """``Ann (192.168.1.20)``."""
    return f"{name} ({address})"


letter = seat_letter
"""Places and seats by letter, as the console names them: 0 -> ``A``."""


def table_name(table: Named) -> str:
    """``table 3 (Cosmic Run)``."""
    return f"table {table.id} ({getattr(table.game, 'title', table.game.name)})"


def seat_list(names: Sequence[str]) -> str:
    """``A Ann, B Bob``: the seats of a started game, in play order."""
    return ", ".join(f"{letter(seat)} {name}" for seat, name in enumerate(names))


def results(names: Sequence[str], scores: Sequence[int], ranking: Sequence[Sequence[int]]) -> str:
    """``1. Ann 31 VP, 2. Bob 24 VP``; tied seats share a rank (``1. Ann 9 VP, 1. Bob 9 VP,
    3. Cid 4 VP``)."""
    parts = []
    rank = 1
    for group in ranking:
        for seat in group:
            parts.append(f"{rank}. {names[seat]} {scores[seat]} VP")
        rank += len(group)
    return ", ".join(parts)


# --- what the host's terminal shows ----------------------------------------------------------


def predicate(verbosity: str) -> LogLevelFilterPredicate:
    """Which events reach the terminal.

    ``quiet``: warnings and errors. ``party`` (the default): also the server's own information
    lines (people, tables, bots), but not the libraries' chatter (Twisted's "starting on",
    "Port closed"). ``verbose``: everything, debug detail included.
    """
    if verbosity not in VERBOSITIES:
        raise ValueError(f"verbosity is one of {', '.join(VERBOSITIES)}, not {verbosity!r}")
    if verbosity == VERBOSE:
        return LogLevelFilterPredicate(defaultLogLevel=LogLevel.debug)
    chosen = LogLevelFilterPredicate(defaultLogLevel=LogLevel.warn)
    if verbosity == PARTY:
        chosen.setLogLevelForNamespace("server", LogLevel.info)
    return chosen


_LEVEL_WORDS = {
    LogLevel.warn: "warning: ",
    LogLevel.error: "error: ",
    LogLevel.critical: "error: ",
    LogLevel.debug: "(debug) ",
}


def line(event: dict[str, Any]) -> str:
    """An event as the host reads it, without the time: the text, prefixed by ``warning:`` or
    ``error:`` where it is one (a failure's traceback follows on the next lines)."""
    text = eventAsText(event, includeTimestamp=False, includeSystem=False)
    return _LEVEL_WORDS.get(event.get("log_level", LogLevel.info), "") + text


def _stamped(event: dict[str, Any]) -> str:
    moment = event.get("log_time") or time.time()
    return f"{time.strftime('%H:%M:%S', time.localtime(moment))} {line(event)}\n"


def observer(out: IO[str], verbosity: str = PARTY) -> ILogObserver:
    """The observer ``cosmoport serve`` logs through: one line per event on ``out``, with the
    local time, filtered by ``verbosity``."""
    shown: Any = FileLogObserver(out, _stamped)
    return FilteringLogObserver(shown, [predicate(verbosity)])
