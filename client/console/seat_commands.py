"""Your place at a table: bots for the other places, starting, leaving (to the lobby, or
handing your seat to a bot), quitting, playing again.

A mixin of :class:`client.console.commands.Console`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from client.console.game_commands import seat_list, seat_named
from client.console.tracker import GameTracker
from client.console.where import Where
from client.text.wording import letter
from protocol import BOT_LEVELS


def place_named(text: str) -> int | None:
    """The place at a table a letter stands for (``B`` -> 1), else None."""
    text = text.strip()
    if len(text) == 1 and text.isalpha() and text.isascii():
        return ord(text.upper()) - 65
    return None


class SeatCommands:
    """The commands about one's own place (the console provides what is declared here)."""

    where: Where
    table: dict[str, Any] | None
    game: GameTracker | None
    quit_armed: bool
    again: Callable[[], None] | None

    def say(self, lines: str | list[str]) -> None:
        raise NotImplementedError

    def prompt(self) -> None:
        raise NotImplementedError

    def call(self, msg: dict[str, Any], then: Callable[[dict[str, Any]], None]) -> None:
        raise NotImplementedError

    def finish(self, code: int = 0) -> None:
        raise NotImplementedError

    def do_bot(self, rest: str) -> None:
        """bot [LEVEL] [PLACE]: fill a free place at your waiting table with a bot (also `addbot`).

        LEVEL: easy, normal (the default) or hard search bots, or the greedy or random
        baselines; PLACE: which free place, a letter (default: the first). The server starts
        the bot; it sits down a moment later.

        During a game, `bot LEVEL SEAT` (a seat letter or a player's name) gives the seat of a
        player who has been away for a while (or who left on purpose) to a bot, so that the
        game can go on. Your own seat: you hand it to the bot and go back to the lobby (as
        `leave bot LEVEL`).
        """
        words = rest.split()
        level = "normal"
        if words and words[0].lower() in BOT_LEVELS:
            level = words.pop(0).lower()
        who = " ".join(words)
        if self.where != Where.TABLE:
            self.say("Sit at a table first (`create` or `join`), then add bots to it.")
            return
        game = self.game
        msg: dict[str, Any] = {"type": "add_bot", "level": level}
        if game is not None and game.over is None:
            seat = seat_named(who, game.names)
            if seat is None:
                self.say(
                    f"Which seat should the {level} bot take over? `bot {level} SEAT`, where "
                    f"SEAT is a letter or a name ({seat_list(game.names)})."
                )
                return
            if seat == game.seat and self.where == Where.TABLE:  # their own: they go, it plays
                self._leave(level)
                return
            msg["seat"] = seat
        elif place_named(who) is not None:
            msg["slot"] = place_named(who)
        elif who:
            self.say(
                f"No bot level `{words[0]}`. Levels: {', '.join(BOT_LEVELS)}; "
                "a place is a letter, e.g. `bot hard B`."
            )
            return

        def added(reply: dict[str, Any]) -> None:
            if "seat" in msg:
                self.say(f"The {level} bot is on its way to take over {reply.get('name')}'s seat.")
            else:
                self.say(f"{reply.get('name')} is on its way to place {letter(reply.get('slot'))}.")

        self.call(msg, added)

    def do_start(self, rest: str) -> None:
        """start: begin the game at your table once every place is taken."""
        if self.where != Where.TABLE:
            self.say("You are not seated at a table: `join` one first.")
            return
        self.call({"type": "start"}, lambda reply: None)

    def do_leave(self, rest: str) -> None:
        """leave [bot [LEVEL]]: go back to the lobby.

        During a game your seat is held for you (`resume` takes it back; with a turn timer
        your clock runs meanwhile). `leave bot` hands your seat to a normal bot as you go
        (`leave bot hard`: another level), for good: the others play on with it.
        """
        if self.where == Where.LOBBY:
            self.say("You are in the lobby already.")
            return
        words = rest.lower().split()
        if words and words[0] in ("bot", "bots", "to"):
            words = [w for w in words if w not in ("bot", "bots", "to", "a")]
            level = words[0] if words else "normal"
            if level not in BOT_LEVELS:
                self.say(f"No bot level `{level}`. Levels: {', '.join(BOT_LEVELS)}.")
                return
            self._leave(level)
        elif rest:
            self.say("Usage: `leave`, or `leave bot [LEVEL]` to hand your seat to a bot.")
        else:
            self._leave(None)

    def _leave(self, level: str | None) -> None:
        """Back to the lobby; during a game, ``level``: the seat goes to a bot of that level."""
        playing = self.game is not None and self.game.over is None and self.where == Where.TABLE
        msg: dict[str, Any] = {"type": "leave"}
        if playing and level is not None:
            msg["bot"] = level

        def left(reply: dict[str, Any]) -> None:
            self.where, self.table, self.game = Where.LOBBY, None, None
            if "bot" in msg:
                self.say(f"Back in the lobby. A {level} bot plays your seat from now on.")
            elif playing:
                self.say("Back in the lobby. Your seat is held: `resume` takes it back.")
            else:
                self.say("Back in the lobby.")

        self.call(msg, left)

    def do_quit(self, rest: str) -> None:
        """quit: leave Cosmoport (also `exit`)."""
        if self.may_quit("Type `quit` again"):
            self.say("Goodbye.")
            self.finish(0)

    def may_quit(self, again: str) -> bool:
        """Whether the person may quit now: not in the middle of a game of theirs unless they
        asked twice in a row (``again`` says how to ask once more)."""
        game = self.game
        playing = game is not None and game.over is None and game.seat is not None
        if playing and not self.quit_armed:
            self.quit_armed = True
            self.say(
                f"You are in a game. {again} to leave it anyway (your seat stays yours for a "
                "while), or type `leave bot` to hand it to a bot first."
            )
            self.prompt()
            return False
        return True

    def do_again(self, rest: str) -> None:
        """again: start a new game against bots (after the end of one)."""
        if self.again is None:
            self.say("`again` only works in `cosmoport play`.")
            return
        if self.game is not None and self.game.over is None and self.where == Where.TABLE:
            self.say("Finish this game first (or `leave` it).")
            return
        self.again()
