"""``stop_on_signals``: SIGINT and SIGTERM stop the reactor once, also before it runs; an
inherited ignored SIGINT stays ignored."""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from twisted.internet.error import ReactorNotRunning

from protocol.stopping import stop_on_signals


class FakeReactor:
    """Records what the handlers ask of a reactor; ``stop`` raises as Twisted's does when the
    reactor is not running."""

    def __init__(self) -> None:
        self.running = False
        self.from_thread: list[Callable[[], None]] = []
        self.when_running: list[Callable[[], None]] = []
        self.stops = 0

    def callFromThread(self, f: Callable[[], None]) -> None:
        self.from_thread.append(f)

    def callWhenRunning(self, f: Callable[[], None]) -> None:
        self.when_running.append(f)

    def stop(self) -> None:
        if not self.running:
            raise ReactorNotRunning()
        self.running = False
        self.stops += 1

    def run_queued(self) -> None:
        calls, self.from_thread = self.from_thread, []
        for call in calls:
            call()


@pytest.fixture
def saved_handlers() -> Iterator[None]:
    before = {n: signal.getsignal(n) for n in (signal.SIGINT, signal.SIGTERM)}
    yield
    for number, handler in before.items():
        signal.signal(number, handler)


def handler(number: int) -> Any:
    return signal.getsignal(number)


@pytest.mark.usefixtures("saved_handlers")
def test_a_signal_before_the_reactor_runs_stops_it_once_it_has_started() -> None:
    signal.signal(signal.SIGINT, signal.default_int_handler)
    reactor = FakeReactor()
    stop_on_signals(reactor)
    handler(signal.SIGINT)(signal.SIGINT, None)  # no KeyboardInterrupt: it is queued
    assert reactor.stops == 0 and len(reactor.from_thread) == 1
    reactor.running = True
    reactor.run_queued()
    assert reactor.stops == 1


@pytest.mark.usefixtures("saved_handlers")
def test_a_second_signal_while_stopping_does_nothing_more() -> None:
    reactor = FakeReactor()
    stop_on_signals(reactor)
    reactor.running = True
    handler(signal.SIGTERM)(signal.SIGTERM, None)
    handler(signal.SIGINT)(signal.SIGINT, None)
    reactor.run_queued()  # the second stop finds the reactor stopped: no ReactorNotRunning
    assert reactor.stops == 1


@pytest.mark.usefixtures("saved_handlers")
def test_the_handlers_go_back_on_top_of_twisteds_once_the_reactor_runs() -> None:
    reactor = FakeReactor()
    stop_on_signals(reactor)
    ours = handler(signal.SIGTERM)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # what Twisted does as it starts
    [install] = reactor.when_running
    install()
    assert handler(signal.SIGTERM) is ours


@pytest.mark.usefixtures("saved_handlers")
def test_an_ignored_sigint_stays_ignored_and_sigterm_still_stops() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    reactor = FakeReactor()
    stop_on_signals(reactor)
    assert handler(signal.SIGINT) is signal.SIG_IGN
    reactor.when_running[0]()
    assert handler(signal.SIGINT) is signal.SIG_IGN
    reactor.running = True
    handler(signal.SIGTERM)(signal.SIGTERM, None)
    reactor.run_queued()
    assert reactor.stops == 1
