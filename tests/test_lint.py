"""The linters, inside the suite: what CI runs (the README's second Quick start command, the
suite) lints and type-checks the repository too.

Each tool runs as ``sys.executable -m TOOL`` (the one the ``test`` extra installs beside
pytest) from the repository's root, with its settings from ``pyproject.toml``: ``ruff check .``,
``ruff format --check .`` and ``mypy`` (the packages listed under ``[tool.mypy]``). A failure
shows what the tool printed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

RUFF_SECONDS = 120
MYPY_SECONDS = 600
"""Bounds, not expectations: ruff takes about a second, mypy a minute with a cold cache."""


def run(seconds: float, *args: str) -> None:
    command = [sys.executable, "-m", *args]
    try:
        done = subprocess.run(
            command,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=seconds,
            check=False,
        )
    except subprocess.TimeoutExpired as error:
        out = error.stdout or b""  # bytes, whatever ``text`` asked
        shown = out.decode(errors="replace") if isinstance(out, bytes) else out
        pytest.fail(f"{' '.join(args)} took longer than {seconds:.0f} s:\n{shown}", pytrace=False)
    if done.returncode != 0:
        pytest.fail(
            f"{' '.join(args)} (exit status {done.returncode}):\n{done.stdout}{done.stderr}",
            pytrace=False,
        )


def test_ruff_check() -> None:
    run(RUFF_SECONDS, "ruff", "check", "--no-cache", ".")


def test_ruff_format() -> None:
    run(RUFF_SECONDS, "ruff", "format", "--check", "--no-cache", ".")


def test_mypy() -> None:
    run(MYPY_SECONDS, "mypy")
