"""Make ``server_helpers`` importable from this folder's test files, whatever the import mode;
the ``logged`` fixture."""

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from twisted.logger import globalLogPublisher

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)


@pytest.fixture
def logged() -> Iterator[list[dict[str, Any]]]:
    """Every event logged during the test."""
    events: list[dict[str, Any]] = []
    globalLogPublisher.addObserver(events.append)
    yield events
    globalLogPublisher.removeObserver(events.append)
