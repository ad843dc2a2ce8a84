"""The other seat at a referee's table: a random player inside the server process.

It holds its place like any client (the lobby's ``resume`` with the place's token) but has no
connection: the table delivers its messages straight to it, and it plays a random legal action
on the next turn of the reactor, so the program under test never waits for it.
"""

from __future__ import annotations

import contextlib
import random
from typing import Any

from protocol import ProtocolError
from server.lobby import Lobby
from server.table import PLAYING, Place, Table

NAME = "Referee"


class Opponent:
    """A random player seated at ``table`` in place ``slot``."""

    def __init__(self, reactor: Any, lobby: Lobby, table: Table, slot: int, seed: int) -> None:
        self.reactor = reactor
        self.lobby = lobby
        self.table = table
        self.rng = random.Random(seed)
        self._calls: list[Any] = []
        place, token = lobby.reserve_bot(table, NAME, "random", slot=slot)
        self.place: Place = place
        lobby.resume(token, self)
        lobby.confirm_token(place)

    # --- a lobby member ------------------------------------------------------------------------

    def deliver(self, msg: dict[str, Any]) -> None:
        if msg.get("type") in ("snapshot", "update") and msg.get("legal"):
            actions = [item["action"] for item in msg["legal"]]
            self._calls.append(self.reactor.callLater(0, self._act, msg["version"], actions))

    def evict(self, code: str, message: str) -> None:
        pass

    def table_closed(self, table_id: int) -> None:
        self.stop()

    # --- playing -------------------------------------------------------------------------------

    def _act(self, version: int, actions: list[Any]) -> None:
        table = self.table
        if table.state != PLAYING or table.version != version:
            return
        with contextlib.suppress(ProtocolError):  # the game moved on: the next update asks
            table.act(self.place, version, list(self.rng.choice(actions)))
        self.lobby.flush()

    def stop(self) -> None:
        for call in self._calls:
            if call.active():
                call.cancel()
        self._calls.clear()
