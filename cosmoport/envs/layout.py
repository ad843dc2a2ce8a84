"""Fixed-length observation layouts: :class:`games.layout.Layout`, kept under this name too."""

from __future__ import annotations

from games.layout import Layout, Run

__all__ = ["Layout", "Run"]
