"""Real `cosmoport` processes in pseudo-terminals, for the end-to-end console tests."""

from __future__ import annotations

import os
import sys
from typing import Any

import pexpect


def spawn_cosmoport(
    *args: str, env: dict[str, str] | None = None, timeout: float = 20, width: int = 80
) -> Any:
    """``python -m cosmoport ARGS`` in a 24-line terminal, without colours; ``play`` and
    ``join`` in their line mode (``--plain``: a terminal would otherwise get the full screen)."""
    if args and args[0] in ("play", "join"):
        args = (args[0], "--plain", *args[1:])
    child = pexpect.spawn(
        sys.executable,
        ["-m", "cosmoport", *args],
        encoding="utf-8",
        timeout=timeout,
        dimensions=(24, width),
        env={**os.environ, "NO_COLOR": "1", **(env or {})},
    )
    child.delaybeforesend = None
    return child
