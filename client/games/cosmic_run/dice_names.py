"""Stable die names for one player's turn: the die you typed is the die the log and board name.

The engine lists a move of equal white dice once, with the lower-numbered die (they are
interchangeable), so typing ``W2 P5`` while W1 also shows 5 sends the server's ``W1 P5``. Its
events and view then say W1 went to P5 and W2 is still to place: the player sees the dice
renamed. :class:`DiceNames` keeps, client-side, which name each of the engine's dice shows
under: when a typed die stood for its twin, the two swap names (they showed the same value and
were both unplaced, so nothing on the screen changes but the name of what moves next). Every
message from the server is read through it (the view's dice, the legal actions and their
labels, the events and the ``undo`` label), and every action sent goes back to the engine's
numbering, so the board, the menu, the log, previews and hints all agree with what was typed.

The names go back to the engine's at every new turn. Among unplaced dice of one value the names
are kept in the engine's order (a renaming among identical dice shows nowhere), so the move the
server lists for a value is always the lowest-named die, as the menu expects. Only the white
dice are ever renamed; the yellow die is always ``Y``.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from client.games.cosmic_run.names import DICE, YELLOW

_WHITE = re.compile(r"\bW([1-5])\b")
_DIE_ACTIONS = ("assign", "reroll", "nudge", "flip")


class DiceNames:
    """Which name each of the engine's dice shows under during one turn (see the module)."""

    def __init__(self) -> None:
        self.shown = list(range(len(DICE)))  # engine die -> the die it is shown as
        self.turn: Any = None

    @property
    def renamed(self) -> bool:
        return self.shown != list(range(len(DICE)))

    def reset(self) -> None:
        self.shown = list(range(len(DICE)))

    def engine(self, die: int) -> int:
        """The engine's die shown as ``die``."""
        return self.shown.index(die) if 0 <= die < len(self.shown) else die

    def swap(self, typed: int, listed: int) -> None:
        """``typed`` (a shown die) takes the place of ``listed``: the server's action moves
        ``listed``, the player meant ``typed``, which shows the same value."""
        if typed == listed or YELLOW in (typed, listed):
            return
        a, b = self.engine(typed), self.engine(listed)
        self.shown[a], self.shown[b] = self.shown[b], self.shown[a]

    # --- from the server -------------------------------------------------------------------

    def incoming(self, msg: dict[str, Any]) -> dict[str, Any]:
        """``msg`` (a ``snapshot`` or an ``update``) with the dice under their shown names; the
        message itself is not changed."""
        view = msg.get("view")
        if not isinstance(view, dict) or view.get("game") != "cosmic_run":
            return msg
        turn = (view.get("round"), view.get("turn"))
        events = msg.get("events")
        out = dict(msg)
        if isinstance(events, list):
            out["events"] = [self._event(e) for e in events]
        if turn != self.turn:
            self.reset()
            self.turn = turn
        self._settle(view)
        if not self.renamed:
            return out
        out["view"] = self._view(view)
        legal = msg.get("legal")
        if isinstance(legal, list):
            out["legal"] = [self._item(item) for item in legal]
        if isinstance(msg.get("undo"), str):
            out["undo"] = self.text(msg["undo"])
        return out

    def text(self, text: str) -> str:
        """A label with its white dice under their shown names."""
        if not self.renamed:
            return text
        return _WHITE.sub(lambda m: DICE[self._die(int(m.group(1)) - 1)], text)

    def _die(self, die: Any) -> Any:
        if isinstance(die, int) and not isinstance(die, bool) and 0 <= die < len(self.shown):
            return self.shown[die]
        return die

    def _event(self, event: Any) -> Any:
        if not isinstance(event, dict):
            return event
        kind = event.get("type")
        if kind == "turn":
            self.reset()  # a new turn: the engine's names again, for this event and after it
            return event
        if not self.renamed:
            return event
        event = dict(event)
        if kind in _DIE_ACTIONS:
            event["die"] = self._die(event.get("die"))
        elif kind == "roll" and isinstance(event.get("values"), list):
            values = event["values"]
            event["dice"] = sorted(self._die(d) for d in event.get("dice") or [])
            if len(values) == len(self.shown):
                event["values"] = [values[self.engine(i)] for i in range(len(values))]
        elif kind == "rolling_ends":
            event["lost"] = sorted(self._die(d) for d in event.get("lost") or [])
        elif kind == "undone" and isinstance(event.get("label"), str):
            event["label"] = self.text(event["label"])
        return event

    def _settle(self, view: dict[str, Any]) -> None:
        """Among unplaced white dice of one value, keep the names in the engine's order (the
        server lists such a move with its lowest die, and so must the menu)."""
        dice = view.get("dice")
        if not isinstance(dice, list) or len(dice) != len(self.shown):
            self.reset()
            return
        groups: dict[Any, list[int]] = {}
        for die in range(YELLOW):
            info = dice[die] if isinstance(dice[die], dict) else {}
            if info.get("at") is None:
                groups.setdefault(info.get("value"), []).append(die)
        for group in groups.values():
            names = sorted(self.shown[die] for die in group)
            for die, name in zip(group, names, strict=True):
                self.shown[die] = name

    def _view(self, view: dict[str, Any]) -> dict[str, Any]:
        view = copy.copy(view)
        dice = list(view["dice"])
        shown = [dice[self.engine(i)] for i in range(len(dice))]
        view["dice"] = [
            {**info, "die": DICE[i]} if isinstance(info, dict) else info
            for i, info in enumerate(shown)
        ]
        return view

    def _item(self, item: Any) -> Any:
        if not isinstance(item, dict):
            return item
        item = dict(item)
        action = item.get("action")
        if isinstance(action, list) and len(action) > 1 and action[0] in _DIE_ACTIONS:
            item["action"] = [action[0], self._die(action[1]), *action[2:]]
        if isinstance(item.get("label"), str):
            item["label"] = self.text(item["label"])
        return item

    # --- to the server ---------------------------------------------------------------------

    def outgoing(self, action: Any) -> Any:
        """An action of the shown dice in the engine's numbering."""
        if isinstance(action, list) and len(action) > 1 and action[0] in _DIE_ACTIONS:
            die = action[1]
            if isinstance(die, int) and not isinstance(die, bool):
                return [action[0], self.engine(die), *action[2:]]
        return action
