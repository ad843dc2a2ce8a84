"""The full-screen client (Textual): panes for the board, the menu, the log, players and chat.

``cosmoport play`` and ``cosmoport join`` use it when standard input and output are terminals
(``--plain`` keeps the line console, :mod:`client.console.terminal`). It drives the same
:class:`client.console.commands.Console` as the line mode, so every command and every renderer's
wording is shared; see :mod:`.app` for the panes and :mod:`.bridge` for the console's side.

Twisted and Textual on one loop
-------------------------------

The client and the embedded server are Twisted; Textual runs on asyncio. :func:`run` makes the
asyncio loop itself, installs a Twisted reactor on it (:func:`.loop.install`: Twisted's asyncio
reactor, made a guest that never stops the loop) *before anything imports the global reactor*,
starts the reactor once the loop runs (:func:`.loop.start`), then runs the app with
``App.run_async`` on that loop. The app's ``on_mount`` starts the session (a coroutine given by
``play`` or ``join``) with ``Deferred``s on the same loop; when the session ends, the app exits
with its status and the reactor is shut down (:func:`.loop.stop`) before the loop closes. Tests
do the same on the loop of their own ``asyncio.run``, with a private, uninstalled reactor.
"""

from __future__ import annotations

import asyncio
import os
import signal
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from client.tui.app import Start


def run(start: Start, *, game: str | None = None, no_color: bool = False) -> int:
    """Run the app with ``start``'s session until it ends; its exit status.

    When the session failed, its last words (the log's last lines) are printed once the screen
    is given back, so that they stay readable. A hang-up or ``SIGTERM`` ends the session as
    Ctrl+Q does, so the terminal is always given back.
    """
    from client.tui import loop as guest

    if no_color:
        os.environ["NO_COLOR"] = "1"  # Textual reads it; so does anything we start
    event_loop = asyncio.new_event_loop()
    asyncio.set_event_loop(event_loop)
    reactor = guest.install(event_loop)
    from client.tui.app import CosmoportApp

    app = CosmoportApp(start, reactor=reactor, game=game)
    _log_errors_to(app)

    async def main() -> int | None:
        guest.start(reactor)
        for number in (signal.SIGTERM, signal.SIGHUP):  # closed or killed: leave cleanly
            event_loop.add_signal_handler(number, app.end_session)
        try:
            return await app.run_async()
        finally:
            await guest.stop(reactor)

    try:
        code = event_loop.run_until_complete(main())
    finally:
        event_loop.close()
    code = app.code if app.code is not None else (code or 0)
    if code:
        last = [line for line in app.said if line.strip()][-5:]
        print("\n".join(last) or "cosmoport: stopped")
    return code


def _log_errors_to(app: Any) -> None:
    """Twisted's errors go to the log pane (stderr would scribble over the screen)."""
    from twisted.logger import (
        FilteringLogObserver,
        LogLevel,
        LogLevelFilterPredicate,
        formatEvent,
        globalLogBeginner,
    )

    def observer(event: Any) -> None:
        if app.ready and app.is_running:
            app.write_log([f"(error: {formatEvent(event)})"])

    predicate: Any = LogLevelFilterPredicate(defaultLogLevel=LogLevel.error)
    filtering: Any = FilteringLogObserver(cast(Any, observer), [predicate])
    globalLogBeginner.beginLoggingTo([filtering], redirectStandardIO=False)
