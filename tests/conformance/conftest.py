"""Fixtures of the conformance kit's tests: the example bots' commands and broken copies of the
Python one; ``conformance_helpers`` importable from this folder's test files."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

EXAMPLES = Path(_HERE).parents[1] / "examples"


Breaker = Callable[[str, list[tuple[str, str]]], list[str]]


@pytest.fixture
def broken(tmp_path: Path) -> Breaker:
    """``broken(name, [(old, new)...])``: the command of a copy of the Python example with
    each ``old`` text replaced by ``new`` (each must be there: the test follows the example)."""

    def make(name: str, changes: list[tuple[str, str]]) -> list[str]:
        text = (EXAMPLES / "py-bot" / "bot.py").read_text()
        for old, new in changes:
            assert text.count(old) == 1, f"the example no longer has {old!r}"
            text = text.replace(old, new)
        path = tmp_path / f"{name}.py"
        path.write_text(text)
        return [sys.executable, str(path)]

    return make
