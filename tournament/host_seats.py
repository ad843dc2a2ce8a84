"""The host's two helpers at a networked table (see :mod:`tournament.host`): the game clock in
the table's turn-clock slot, and the driver of a built-in bot's seat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from twisted.internet import defer, threads

from ai.bots import Bot, MCTSBot
from client.net.session import Client
from server.table_time import TIMEOUT, TurnClock
from server.timers import TimerSettings

if TYPE_CHECKING:
    from tournament.host import _Game


class HostError(RuntimeError):
    """The host could not play a game (a failure of ours, never a program's)."""


class TableClock(TurnClock):
    """The game's :class:`GameClock` in the table's turn-clock slot.

    The table calls :meth:`spend` when the deciding seat's action is applied and :meth:`begin`
    when the next seat must decide, just before it sends the update that asks (so the clock is
    charged from that update to the action that answers it), and :meth:`message` for each
    update's ``clock`` map. It times nobody out by itself: :meth:`due` says ``timeout`` only
    while the host has the stand-in move for a seat out of time."""

    def __init__(self, game: _Game, players: int) -> None:
        super().__init__(TimerSettings(1, 0), players)
        self.game = game
        self.begun = False
        self.standing_in = False
        self.last: tuple[float, bool, bool] = (0.0, False, False)
        """The decision just charged: seconds taken, out of time, played by the stand-in."""

    def ensure_begun(self) -> None:
        """The game has started: its first seat decides from its first update on."""
        table = self.game.table
        if not self.begun and table is not None and table.engine is not None:
            self.begin(table.engine.current_player, 0.0)

    def begin(self, seat: int | None, now: float) -> None:
        self.begun = True
        self.seat = seat
        self.game.clock.begin(seat)

    def spend(self, now: float) -> None:
        taken, flagged = self.game.clock.stop()
        self.last = (taken, flagged, self.standing_in)

    def pause(self, now: float) -> None:
        pass  # every seat is a bot or a program: the clocks never stand

    def resume(self, now: float) -> None:
        pass

    def banks_after_decision(self, now: float) -> list[float]:
        return [0.0 if bank is None else round(bank, 1) for bank in self.game.clock.banks]

    def present(self, seat: int) -> bool:
        return False

    def due(self, now: float) -> str | None:
        return TIMEOUT if self.standing_in else None

    def timed_out(self, seat: int) -> bool:
        self.game.clock.out_of_time(seat)
        return False

    def message(self, now: float) -> dict[str, Any]:
        self.ensure_begun()
        return self.game.clock.message()


class BotDriver:
    """Plays a built-in bot's seat from the server's messages: asks the bot exactly once per
    decision (once per version that lists legal actions), so that the game is the one the same
    bots play in-process. Search bots think in a thread: the reactor goes on meanwhile."""

    def __init__(self, game: _Game, seat: int, client: Client, bot: Bot, threaded: bool) -> None:
        self.game = game
        self.seat = seat
        self.client = client
        self.bot = bot
        self.threaded = threaded
        self.clocked = False  # budget its search by the clock of each update
        self.asked = -1  # the last version the bot was asked about
        self.busy = False
        self.waiting: dict[str, Any] | None = None  # the newest question asked while busy

    def handle(self, msg: dict[str, Any]) -> None:
        if msg.get("type") not in ("snapshot", "update"):
            return
        version, legal = msg.get("version"), msg.get("legal")
        if not legal or not isinstance(version, int) or version <= self.asked:
            return
        if self.busy:  # still thinking over a decision the stand-in has made since
            self.waiting = msg
            return
        self.asked = version
        self.busy = True
        clock = msg.get("clock")
        if self.clocked and isinstance(self.bot, MCTSBot) and isinstance(clock, dict):
            bank = float(clock["banks"][self.seat]) if clock.get("seat") == self.seat else 0.0
            self.bot.use_clock(bank, float(clock.get("decision") or 0.0))
        view = msg.get("view") or {}
        actions = [tuple(item["action"]) for item in legal]
        reactor = self.game.reactor
        if self.threaded:
            pool = reactor.getThreadPool()
            d = threads.deferToThreadPool(reactor, pool, self.bot.choose, view, actions)
        else:
            d = defer.maybeDeferred(self.bot.choose, view, actions)
        d.addCallback(self._act, version)
        d.addErrback(self.game._bot_failed, self.seat)

    def _act(self, action: Any, version: int) -> Any:
        self.busy = False
        waiting, self.waiting = self.waiting, None
        if self.game.outcome is not None:
            return None
        if waiting is not None:  # decided late: the stand-in moved; the next question now
            self.handle(waiting)
            return None
        return self.client.request({"type": "act", "version": version, "action": list(action)})

    def status(self, event: str, detail: dict[str, Any]) -> None:
        if event in ("gave_up", "seat_lost") and self.game.outcome is None:
            error = detail.get("error")
            self.game._fail(HostError(f"the bot in seat {self.seat} lost its seat ({error})"))
