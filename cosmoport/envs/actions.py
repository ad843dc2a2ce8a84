"""The fixed integer action spaces (docs/research.md): which integer is which action.

They live in :mod:`games.encoding`, which the tournament's in-process agents share with the
environments; this module keeps their names where the environments' users find them. It needs
nothing but the engines (no numpy).
"""

from __future__ import annotations

from games.encoding import MAX_INDEX, ActionTable, Block, action_table

__all__ = ["MAX_INDEX", "ActionTable", "Block", "action_table"]
