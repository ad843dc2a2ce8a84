"""What the client knows of the game at its table: the latest view, the legal actions, the log.

Views are complete every time (PROTOCOL.md 6.4), so the tracker keeps only the latest one; the
events of each update are narrated into a log the ``log`` command shows. No rules here: the
legal actions are the server's list, the narration is :mod:`client.games.narrate`'s.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

from client.games.narrate import label_text, narrate
from client.text.wording import letter, seat_name

LOG_SIZE = 500


def names_from_table(table: Any) -> list[str]:
    """Names by seat from a table map (``?`` for a free place)."""
    seats = table.get("seats") if isinstance(table, dict) else None
    if not isinstance(seats, list):
        return []
    return [s.get("name", "?") if isinstance(s, dict) else "?" for s in seats]


class GameTracker:
    """One game as one client sees it: seat ``None`` for a spectator."""

    def __init__(self, table_id: int, game: str, names: Sequence[str], seat: int | None) -> None:
        self.table_id = table_id
        self.game = game
        self.names = list(names)
        self.seat = seat
        self.view: dict[str, Any] | None = None
        self.legal: list[dict[str, Any]] = []
        self.version = -1
        self.over: dict[str, Any] | None = None
        self.log: deque[str] = deque(maxlen=LOG_SIZE)
        self.current: Any = None
        self.undo: str | None = None  # the label of what `undo` would take back now
        self.clock: dict[str, Any] | None = None  # the turn timer, as of ``clock_at``
        self.clock_at = 0.0

    @property
    def my_turn(self) -> bool:
        return bool(self.legal) and self.over is None

    @property
    def started(self) -> bool:
        return self.view is not None

    def narrate(self, events: Any) -> list[str]:
        """Narrate ``events`` into the log; the new lines."""
        lines = []
        for event in events if isinstance(events, list) else []:
            if not isinstance(event, dict) or not isinstance(event.get("type"), str):
                continue
            if event["type"] == "undone":
                label = event.get("label")
                what = label_text(self.game, label, self.names) if isinstance(label, str) else ""
                text: str | None = f"{self.who(event.get('seat'))} takes back: {what}".rstrip(": ")
            elif event["type"] == "stand_in":
                text = self._stand_in(event)
            else:
                text = narrate(self.game, event, self.names)
            if text:
                lines.append(text)
        self.log.extend(lines)
        return lines

    def _stand_in(self, event: dict[str, Any]) -> str:
        seat = event.get("seat")
        who = "you" if seat == self.seat and seat is not None else self.who(seat)
        if event.get("why") == "timeout":
            return f"{who[0].upper()}{who[1:]} ran out of time: a bot makes this move:"
        return f"The bot plays for {who}:"

    def receive(self, msg: dict[str, Any], now: float = 0.0) -> tuple[list[str], bool]:
        """Take a ``snapshot`` or ``update`` received at ``now``: (the narrated lines, whether
        the turn changed).

        An update no newer than what we hold is ignored (nothing narrated, nothing changed). A
        snapshot always replaces what we hold: it is the server's game as of now, sent after a
        join, a watch or a resume (over a new connection, where nothing older can follow it),
        also when its version is lower than ours (a server before format 3 of its database
        numbered a restored game by the actions that stand, after undos).
        """
        version = msg.get("version")
        if not isinstance(version, int) or not isinstance(msg.get("view"), dict):
            return [], False
        if msg["type"] == "update" and version <= self.version:
            return [], False
        self.version = version
        self.view = msg["view"]
        if isinstance(msg.get("seat"), int) or msg.get("seat") is None:
            self.seat = msg.get("seat")
        legal = msg.get("legal")
        self.legal = [x for x in legal if isinstance(x, dict)] if isinstance(legal, list) else []
        undo = msg.get("undo")
        self.undo = undo if isinstance(undo, str) and self.legal else None
        clock = msg.get("clock")
        self.clock, self.clock_at = (clock if isinstance(clock, dict) else None), now
        previous, self.current = self.current, self.view.get("current_player")
        if msg["type"] == "snapshot":
            return [], True
        return self.narrate(msg.get("events")), previous != self.current

    def finish(self, msg: dict[str, Any]) -> None:
        self.over = msg
        self.legal = []
        self.undo = None
        seats = msg.get("seats")
        if isinstance(seats, list) and all(isinstance(s, str) for s in seats):
            self.names = list(seats)

    def name(self, seat: Any) -> str:
        """The player's name at ``seat`` (the seat letter if unknown)."""
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return letter(seat)

    def who(self, seat: Any) -> str:
        """A seat as the board names it: ``B Bob``, the letter and the player's name."""
        return seat_name(self.names, seat)
