"""Twisted as a guest on the asyncio loop that Textual runs.

The client is Twisted code (Deferreds, ``callLater``, TCP clients, an embedded server, bot
processes); Textual is asyncio. One loop serves both: a :class:`GuestReactor` is Twisted's
asyncio reactor (``twisted.internet.asyncioreactor``) on Textual's loop, with one difference: it
never stops that loop. The loop belongs to Textual, which runs it until the app exits; the
reactor starts after the loop does (:func:`start`) and shuts down before it ends (:func:`stop`),
running its shutdown triggers (closing sockets, stopping its thread pool) on the way.

Child processes (the bot programs the embedded server starts) are reaped from the loop's own
``SIGCHLD`` handler rather than Twisted's signal handling, which would also take ``SIGINT`` and
``SIGTERM`` and stop the loop under Textual's feet.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading
from typing import Any

from twisted.internet import defer, process
from twisted.internet.asyncioreactor import AsyncioSelectorReactor
from twisted.internet.posixbase import PosixReactorBase


class GuestReactor(AsyncioSelectorReactor):
    """An asyncio reactor on a loop that someone else runs and stops."""

    def crash(self) -> None:
        # AsyncioSelectorReactor.crash also stops the asyncio loop: not ours to stop.
        PosixReactorBase.crash(self)


def install(loop: asyncio.AbstractEventLoop) -> Any:
    """Make a :class:`GuestReactor` on ``loop`` the global reactor, and return it.

    Must run before anything imports ``twisted.internet.reactor`` (which would install the
    default reactor). If a reactor is installed already, a private guest reactor is returned
    instead: every part of the client takes its reactor as an argument.
    """
    from twisted.internet.error import ReactorAlreadyInstalledError
    from twisted.internet.main import installReactor

    reactor = GuestReactor(loop)
    with contextlib.suppress(ReactorAlreadyInstalledError):
        installReactor(reactor)
    return reactor


def guest_reactor(loop: asyncio.AbstractEventLoop | None = None) -> GuestReactor:
    """A private (not installed) guest reactor on ``loop`` (default: the running loop)."""
    return GuestReactor(loop or asyncio.get_running_loop())


def start(reactor: Any, reap_children: bool = True) -> None:
    """Start ``reactor`` on its loop, which must be running: startup triggers fire (the thread
    pool starts), and with ``reap_children`` bot processes are reaped when they end."""
    reactor.startRunning(installSignalHandlers=False)
    if reap_children and threading.current_thread() is threading.main_thread():
        loop = reactor._asyncioEventloop
        loop.add_signal_handler(signal.SIGCHLD, process.reapAllProcesses)
        reactor.addSystemEventTrigger(
            "after", "shutdown", loop.remove_signal_handler, signal.SIGCHLD
        )


async def stop(reactor: Any) -> None:
    """Shut ``reactor`` down (its shutdown triggers run) and let go of its wake-up pipe."""
    if reactor.running:
        done: defer.Deferred[None] = defer.Deferred()
        reactor.addSystemEventTrigger("after", "shutdown", done.callback, None)
        reactor.stop()
        await done.asFuture(asyncio.get_running_loop())
    waker = reactor.waker
    if waker is not None:
        reactor.removeReader(waker)
        waker.connectionLost(None)
        reactor.waker = None
