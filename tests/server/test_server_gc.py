"""A serving process collects its garbage on a timer of its own, not whenever the collector's
counts say so (:class:`server.service.RareCollections`)."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from typing import Any

import pytest
from twisted.internet.task import Clock

from server.service import FULL_COLLECTION_EVERY, RareCollections


@pytest.fixture
def full_collections() -> Iterator[list[int]]:
    """One entry per full collection from now on (the collector is left as it was found)."""
    seen: list[int] = []

    def note(phase: str, info: dict[str, Any]) -> None:
        if phase == "stop" and info["generation"] == 2:
            seen.append(info["collected"])

    enabled = gc.isenabled()
    gc.callbacks.append(note)
    try:
        yield seen
    finally:
        gc.callbacks.remove(note)
        if enabled:
            gc.enable()


def test_automatic_collections_are_off_and_a_full_one_runs_on_the_timer(full_collections):
    clock = Clock()
    collections = RareCollections(clock, every=60.0)
    collections.start()
    assert not gc.isenabled()
    clock.advance(59.0)
    assert full_collections == []
    clock.advance(1.0)
    assert len(full_collections) == 1
    clock.advance(60.0)
    clock.advance(60.0)
    assert len(full_collections) == 3
    collections.stop()
    assert gc.isenabled()
    clock.advance(600.0)
    assert len(full_collections) == 3


def test_cyclic_garbage_is_freed_by_the_next_full_collection(full_collections):
    class Node:
        pass

    clock = Clock()
    collections = RareCollections(clock, every=30.0)
    collections.start()
    a, b = Node(), Node()
    a.other, b.other = b, a  # type: ignore[attr-defined]
    gone = []
    probe = weakref.ref(a, lambda _ref: gone.append(True))
    del a, b
    assert probe() is not None  # a cycle: reference counting alone never frees it
    clock.advance(30.0)
    assert gone == [True]
    collections.stop()


def test_a_serving_process_runs_a_full_collection_every_ten_minutes():
    assert RareCollections(Clock()).every == FULL_COLLECTION_EVERY == 600.0
