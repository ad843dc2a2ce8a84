"""Fixtures of the conformance kit's tests: the example bots' commands and broken copies of the
Python one; ``conformance_helpers`` importable from this folder's test files."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

EXAMPLES = Path(_HERE).parents[1] / "examples"
NPM_SECONDS = 120


@pytest.fixture(scope="session")
def py_bot() -> list[str]:
    return [sys.executable, str(EXAMPLES / "py-bot" / "bot.py")]


@pytest.fixture(scope="session")
def js_bot(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The Node.js example's command, its package installed (or the test skipped)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the Node.js example bot cannot run")
    source = EXAMPLES / "js-bot"
    if (source / "node_modules" / "@msgpack" / "msgpack").is_dir():
        return [node, str(source / "bot.mjs")]
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed: cannot install @msgpack/msgpack for the Node.js bot")
    copy = tmp_path_factory.mktemp("js-bot")
    for name in ("bot.mjs", "package.json", "package-lock.json"):
        shutil.copy(source / name, copy / name)
    try:
        done = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"],
            cwd=copy,
            capture_output=True,
            text=True,
            timeout=NPM_SECONDS,
        )
    except subprocess.TimeoutExpired:
        pytest.skip(f"`npm ci` did not install @msgpack/msgpack within {NPM_SECONDS} s")
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        pytest.skip(f"`npm ci` could not install @msgpack/msgpack: {last}")
    return [node, str(copy / "bot.mjs")]


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
