"""How a networked Cosmoport program stops: SIGINT (Ctrl+C) and SIGTERM stop its reactor once.

Shared by ``cosmoport serve`` and ``cosmoport bot``. The reactor is passed in, never imported.
"""

from __future__ import annotations

import contextlib
import signal
from typing import Any

from twisted.internet.error import ReactorNotRunning


def stop_on_signals(reactor: Any) -> None:
    """From now on, SIGTERM and SIGINT stop ``reactor``, once.

    - **Before the reactor runs** too: Twisted installs its handlers only as the reactor starts,
      and until then a Ctrl+C raises KeyboardInterrupt wherever the program is, which the
      reactor's start-up swallows and logs, leaving a server that ignored the Ctrl+C. Here the
      stop waits for the reactor to run, then happens at once.
    - **While it is stopping already** nothing more happens: Twisted's own handler calls
      ``reactor.stop()`` whatever the reactor is doing, which raises ReactorNotRunning (and
      prints a traceback) when a second signal comes, or when the program ended by itself.
    - **An ignored SIGINT stays ignored**, as Python and Twisted leave it: a program that a
      script started in the background (``cosmoport serve &``) is not meant to stop on the
      Ctrl+C typed in that terminal. SIGTERM still stops it.

    Call it before the program says it is ready (its address, "Stop with Ctrl+C"): from that
    line on, a signal is not lost.
    """

    def stop() -> None:
        with contextlib.suppress(ReactorNotRunning):
            reactor.stop()

    def on_signal(number: int, frame: Any) -> None:
        reactor.callFromThread(stop)  # a signal handler may run in the middle of anything

    numbers = [signal.SIGTERM]
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        numbers.append(signal.SIGINT)

    def install() -> None:
        for number in numbers:
            signal.signal(number, on_signal)

    install()
    # Twisted puts its own SIGTERM handler in place as the reactor starts; ours goes back on
    # top (SIGINT it leaves alone: a handler other than Python's default is there).
    reactor.callWhenRunning(install)
