"""The console during a game: game messages in, the board and the named choices out.

A mixin of :class:`client.console.commands.Console`. After each ``update`` the events are narrated
line by line; when the seat must decide, the board and the menu of choices follow, so the last
screenful is always the whole position. Typing a choice's name (``W3 P5``, ``build P16``: see
:func:`client.render.resolve`) or its number in the server's list (``actions`` shows them)
sends that action, with the version it was offered at; Enter alone sends the only action of a
one-action decision. A name means the same thing for the whole decision; numbers move.
"""

from __future__ import annotations

import inspect
import textwrap
from collections.abc import Callable
from typing import Any

from twisted.python.failure import Failure

from client import render
from client.console.clock import clock_line, deciding_time, handed_over
from client.console.tracker import GameTracker, names_from_table
from client.console.where import Where
from client.games import Renamer, renamer
from client.games.cards import card_lines
from client.games.narrate import label_text
from client.text.style import Style
from client.text.wording import letter, plural

LOG_SHOWN = 20


def seat_list(names: list[str]) -> str:
    """Seats as the console names them: "A Ann, B Bob"."""
    return ", ".join(f"{letter(i)} {n}" for i, n in enumerate(names))


def command_help(
    commands: object, title: str, extra: tuple[str, str], width: int, skip: tuple[str, ...] = ()
) -> list[str]:
    """A two-column table of ``commands``' ``do_*`` methods (the first paragraph of each
    docstring, ``usage: summary``, whole) plus the ``extra`` row, wrapped to ``width``."""
    rows = []
    for attr in sorted(dir(commands)):
        if attr.startswith("do_") and attr not in skip:
            doc = inspect.cleandoc(getattr(commands, attr).__doc__ or attr[3:])
            doc = " ".join(doc.split("\n\n")[0].split())
            usage, _, summary = doc.partition(": ")
            rows.append((usage, summary))
    rows.append(extra)
    column = max(len(usage) for usage, _ in rows) + 4
    lines = [title]
    for usage, summary in rows:
        wrapped = textwrap.wrap(summary, width - column) or [""]
        lines.append(f"  {usage:<{column - 2}}{wrapped[0]}")
        lines.extend(" " * column + more for more in wrapped[1:])
    return lines


def seat_named(text: str, names: list[str]) -> int | None:
    """The seat a letter (``B``) or a player's name (any case) stands for, else None."""
    text = text.strip()
    if len(text) == 1 and text.isalpha() and 0 <= ord(text.upper()) - 65 < len(names):
        return ord(text.upper()) - 65
    lowered = [n.lower() for n in names]
    return lowered.index(text.lower()) if text.lower() in lowered else None


class GameCommands:
    """Game messages and in-game commands (the console provides what is declared here)."""

    client: Any
    screen: Any
    style: Style
    where: Where
    table: dict[str, Any] | None
    tables: dict[int, dict[str, Any]]
    game: GameTracker | None
    ended: int | None
    again: Callable[[], Any] | None
    now: Callable[[], float]  # a monotonic clock, for the turn timer's countdown
    _renames: tuple[GameTracker, Renamer] | None = None  # the names kept for the game here

    def say(self, lines: str | list[str]) -> None:
        raise NotImplementedError

    def answer(self, title: str, lines: Callable[[int], str | list[str]]) -> None:
        raise NotImplementedError

    def prompt(self) -> None:
        raise NotImplementedError

    def refused(self, failure: Failure) -> None:
        raise NotImplementedError

    # --- server messages -----------------------------------------------------------------

    def on_started(self, msg: dict[str, Any]) -> None:
        table = msg["table"]
        names = [str(n) for n in msg.get("seats") or names_from_table(table)]
        seat = msg.get("seat")
        self.table = table
        self.game = GameTracker(table["id"], str(table["game"]), names, seat)
        title = render.title(self.game.game)
        order = seat_list(names)
        self.say("")
        self.say(self.style.bold(f"The game of {title} starts! Seats in turn order: {order}."))
        if isinstance(seat, int):
            self.say(f"You are {letter(seat)} ({names[seat]}). Type `help` for the commands.")

    def on_snapshot(self, msg: dict[str, Any]) -> None:
        game = self._tracker_for(msg)
        if game is None:
            return
        msg = self._renamed(game, msg)
        recent = game.narrate(msg.get("events")) if not game.log else []
        game.receive(msg, self.now())
        if recent:
            self.say([self.style.note("Recently:")] + [f"  {line}" for line in recent[-6:]])
        self.show_board()

    def on_update(self, msg: dict[str, Any]) -> None:
        game = self._tracker_for(msg)
        if game is None:
            return
        if isinstance(msg.get("version"), int) and msg["version"] > game.version:
            msg = self._renamed(game, msg)
        lines, turn_changed = game.receive(msg, self.now())
        self.say([f"  {line}" for line in lines])
        watching = game.seat is None and turn_changed and not (game.view or {}).get("is_over")
        if game.my_turn or watching:
            self.show_board()

    def on_game_over(self, msg: dict[str, Any]) -> None:
        game = self.game
        if game is None or game.table_id != msg.get("table"):
            return
        game.finish(msg)
        self.ended = game.table_id
        self.say("")
        self.say(render.final(game.view or {}, msg, game.names, self.style, self.width))
        after = "Type `leave` to go back to the lobby"
        after += ", `again` for a new game," if self.again is not None else ","
        self.say(after + " or `quit`.")
        if self.again is None:  # `cosmoport play` keeps every record by itself
            self.say("`save` keeps the record of this game in a file.")

    def on_seat_status(self, msg: dict[str, Any]) -> None:
        name = msg.get("name", "?")
        playing = self.game is not None and self.game.over is None and self.game.started
        if self._handed_over(msg):
            return
        if msg.get("connected") and msg.get("bot"):
            self.say(
                self.style.note(f"A bot now plays for {name}." if playing else f"{name} is here.")
            )
        elif msg.get("connected"):
            self.say(self.style.note(f"{name} is back."))
        elif playing and msg.get("bot"):
            self.say(self.style.note(f"{name}'s seat waits for its bot."))
        elif playing:
            self._away(name, msg)
        else:
            self.say(self.style.note(f"{name} lost their connection."))

    def _away(self, name: str, msg: dict[str, Any]) -> None:
        """Say that a player is away during the game: on purpose or not, whether the game
        waits for them or their turn clock runs, and how to give their seat to a bot."""
        game = self.game
        timed = game is not None and isinstance(game.clock, dict)
        left = bool(msg.get("left"))
        what = f"{name} left the table" if left else f"{name} lost their connection"
        then = "their clock runs" if timed else "the game waits for them"
        self.say(self.style.note(f"{what}: {then}."))
        seat = msg.get("seat")
        if isinstance(seat, int) and 0 <= seat < 26:
            command = f"`bot normal {letter(seat)}`"
            if left:
                hint = f"{command} gives their seat to a bot."
            else:
                hint = f"If they stay away, {command} gives their seat to a bot."
            self.say(self.style.note(hint))

    def _handed_over(self, msg: dict[str, Any]) -> bool:
        """Say what a ``seat_status`` about the stand-in bot means; False if it is not one."""
        game, seat = self.game, msg.get("seat")
        if game is None or not isinstance(seat, int) or "auto" not in msg:
            return False
        was = handed_over(game.clock, seat)
        now = bool(msg["auto"])
        if isinstance(game.clock, dict) and isinstance(game.clock.get("auto"), list):
            auto = game.clock["auto"]
            if 0 <= seat < len(auto):
                auto[seat] = now
        mine = seat == game.seat
        if now and not was:
            self.say(
                self.style.bad(
                    "You ran out of time three decisions in a row: a bot plays for you now. "
                    "Type `back` when you are here again."
                )
                if mine
                else self.style.note(
                    f"{game.who(seat)} ran out of time three decisions in a row: a bot plays "
                    "for them until they are back."
                )
            )
            return True
        if was and not now:
            self.say(
                self.style.good("You play your seat again.")
                if mine
                else self.style.note(f"{game.who(seat)} is back at the keyboard.")
            )
            return True
        if mine and "id" in msg:  # the answer to a `back` that changed nothing
            self.say("You are playing your seat yourself: no bot plays for you.")
            return True
        return False

    def clock_text(self) -> str | None:
        """The turn timer's line as of now (None at a table without one)."""
        game = self.game
        if game is None or game.over is not None or (game.view or {}).get("is_over"):
            return None
        return clock_line(game.clock, self.now() - game.clock_at, game.names, game.seat)

    def deciding_clock_text(self) -> str | None:
        """The time left for the decision being made (None at a table without a timer)."""
        game = self.game
        if game is None or game.over is not None or (game.view or {}).get("is_over"):
            return None
        return deciding_time(game.clock, self.now() - game.clock_at, game.names, game.seat)

    def _tracker_for(self, msg: dict[str, Any]) -> GameTracker | None:
        """The tracker of the message's table (made from the table map if we have none yet)."""
        table_id = msg.get("table")
        game = self.game
        if game is not None and game.table_id == table_id:
            return game
        table = self.table or {}
        if (
            not isinstance(table_id, int)
            or table.get("id") != table_id
            or self.where == Where.LOBBY
        ):
            return None
        self.game = GameTracker(
            table_id, str(msg["view"].get("game")), names_from_table(table), msg.get("seat")
        )
        return self.game

    # --- drawing -------------------------------------------------------------------------

    @property
    def width(self) -> int:
        """The width the game is drawn to: the screen's."""
        width = getattr(getattr(self, "screen", None), "width", render.WIDTH)
        return max(40, width) if isinstance(width, int) else render.WIDTH

    def show_board(self) -> None:
        game = self.game
        if game is None or game.view is None:
            self.say("No game to show: the game has not started.")
            return
        lines = render.board(game.view, game.names, self.style, self.width)
        clock = self.clock_text()
        if clock is not None:
            lines += textwrap.wrap(clock, self.width, subsequent_indent="  ")
        if game.my_turn:
            lines += render.menu(game.view, game.legal, game.names, self.style, self.width)
            if game.undo is not None:
                lines.append(self.style.note(f"`undo` takes back: {self._undo_text(game)}"))
        elif game.over is None and not game.view.get("is_over"):
            current = game.view.get("current_player")
            lines.append(self.style.note(f"Waiting for {game.who(current)}..."))
        self.say(lines)

    # --- acting --------------------------------------------------------------------------

    def enter(self) -> None:
        """Enter alone: the only legal action, if there is exactly one; with several, how to
        choose one (elsewhere nothing: an empty line just gives the prompt again)."""
        game = self.game
        if game is None or not game.my_turn or not game.legal:
            return
        if len(game.legal) == 1:
            self.play_number(1)
            return
        self.say(
            f"{len(game.legal)} choices: type one's name (as the menu shows it) or its number; "
            "`actions` lists them all, `hint` suggests one."
        )

    def _cannot_play(self) -> str | None:
        """Why nothing can be played now (None: it is this seat's decision)."""
        game = self.game
        if game is None or not game.started:
            return "There is no game to play here. Numbers and names choose actions in a game."
        if game.over is not None or (game.view or {}).get("is_over"):
            return "The game is over."
        if game.seat is None:
            return "You are watching: spectators cannot play."
        if not game.legal:
            current = (game.view or {}).get("current_player")
            return f"It is not your turn: waiting for {game.who(current)}."
        return None

    def play_number(self, number: int) -> None:
        """Play the action at ``number`` in the server's list (1-based)."""
        game = self.game
        why = self._cannot_play()
        if why is not None or game is None:
            self.say(why or "")
            return
        if not 1 <= number <= len(game.legal):
            self.say(f"Choose a number from 1 to {len(game.legal)} (`actions` lists them all).")
            return
        self._send(number - 1)

    def play_named(self, text: str) -> bool:
        """Play the choice ``text`` names (``W3 P5``, ``4s P5``, ``build P16``...).

        False if ``text`` names no choice of this game at all (so it may be an unknown command);
        True if it does: the action is sent, or the reason it cannot be is shown.
        """
        game = self.game
        if game is None or game.view is None:
            return False
        why = self._cannot_play()
        found = render.resolve(game.view, game.legal, text, game.names)
        if found is None:
            return False
        if why is not None:
            self.say(why)
        elif found.index is None:
            self.say(found.message)
        else:
            if found.message and found.renamed is None:
                self.say(self.style.note(found.message))
            self._send(found.index, found.renamed)
        return True

    def _renamed(self, game: GameTracker, msg: dict[str, Any]) -> dict[str, Any]:
        """``msg`` under the names the player typed (Cosmic Run: the die typed is the die the
        board and the log name, even when the server moved its twin showing the same value)."""
        if self._renames is None or self._renames[0] is not game:
            self._renames = (game, renamer(game.game))
        return self._renames[1].incoming(msg)

    def _send(self, index: int, renamed: tuple[int, int] | None = None) -> None:
        game = self.game
        if game is None:
            return
        choice = game.legal[index]
        offered, version = list(game.legal), game.version
        game.legal = []  # until the server answers: a second choice must not send twice
        action = choice.get("action")
        names = self._renames[1] if self._renames and self._renames[0] is game else None
        if names is not None:
            action = names.outgoing(action)
            if renamed is not None:  # the piece typed takes the name of the one that moves
                names.swap(*renamed)
        msg = {"type": "act", "version": version, "action": action}
        d = self.client.request(msg)

        def refused(failure: Any) -> None:
            if game.version == version and not game.legal:
                game.legal = offered  # nothing happened: the choice is still open
                if names is not None and renamed is not None:
                    names.swap(*renamed)  # and its names are as they were
            self.refused(failure)
            if game.legal and game.version == version:
                view = game.view or {}
                self.say(render.menu(view, game.legal, game.names, self.style, self.width))
            self.prompt()

        d.addErrback(refused)

    def _undo_text(self, game: GameTracker) -> str:
        return label_text(game.game, game.undo or "", game.names)

    # --- game commands -------------------------------------------------------------------

    def do_undo(self, rest: str) -> None:
        """undo: take back your last action of this turn, while nothing random or hidden has
        come to light since (no roll, draw or reveal) and no one else has decided."""
        game = self.game
        why = self._cannot_play()
        if why is not None or game is None:
            self.say(why or "")
            return
        if game.undo is None:
            self.say(
                "Nothing to take back: no action of yours this turn since the last roll, "
                "draw or reveal."
            )
            return
        self.say(self.style.note(f"Taking back: {self._undo_text(game)}"))
        offered, version = list(game.legal), game.version
        game.legal = []  # until the server answers: nothing is sent twice
        d = self.client.request({"type": "undo", "version": version})

        def refused(failure: Any) -> None:
            if game.version == version and not game.legal:
                game.legal = offered
            self.refused(failure)
            self.prompt()

        d.addErrback(refused)

    def do_back(self, rest: str) -> None:
        """back: play your seat yourself again after a bot took it over (you ran out of time
        three decisions in a row; playing a move does it too)."""
        game = self.game
        if game is None or not game.started or game.seat is None:
            self.say("`back` is for a seat of a game that runs; you hold none here.")
            return

        def answered(reply: dict[str, Any]) -> None:
            self.on_seat_status(reply)
            self.prompt()

        self.client.request({"type": "back"}).addCallbacks(answered, self.refused)

    def do_clock(self, rest: str) -> None:
        """clock: how much time each seat has left, at a table with a turn timer (also
        `time`)."""
        line = self.clock_text()
        if line is None:
            self.say("This table has no turn timer: everyone takes the time they need.")
            return
        self.say(textwrap.wrap(line, self.width, subsequent_indent="  "))

    def do_board(self, rest: str) -> None:
        """board: draw the game again (also `b`)."""
        self.show_board()

    def do_actions(self, rest: str) -> None:
        """actions: list every choice with its number, name and full text (also `a`)."""
        game = self.game
        if game is None or not game.legal:
            self.say("You have nothing to decide right now.")
            return
        self.answer(
            "Every choice",
            lambda width: render.full_list(
                game.legal, self.style, width, view=game.view, names=game.names
            ),
        )

    def do_log(self, rest: str) -> None:
        """log [N]: the last N things that happened (default 20)."""
        game = self.game
        if game is None or not game.log:
            self.say("Nothing has happened yet.")
            return
        count = int(rest) if rest.isdigit() else LOG_SHOWN
        shown = [f"  {line}" for line in list(game.log)[-count:]]
        self.answer(f"The last {plural(len(shown), 'event')}", lambda width: shown)

    def do_scores(self, rest: str) -> None:
        """scores: everyone's score and whose turn it is (also `s`)."""
        game = self.game
        if game is None or game.view is None:
            self.say("No game is running here.")
            return
        view = game.view
        scores = view.get("scores") or []
        parts = [f"{game.name(seat)} {score}" for seat, score in enumerate(scores)]
        self.say("Scores: " + ", ".join(parts) + ".")
        if view.get("is_over") or game.over is not None:
            ranking = (game.over or {}).get("ranking") or view.get("ranking") or []
            order = " > ".join(" = ".join(game.name(s) for s in group) for group in ranking)
            self.say(f"Final ranking: {order}.")
        else:
            self.say(f"To play: {game.name(view.get('current_player'))}.")

    def do_info(self, rest: str) -> None:
        """info CARD: what a card does, e.g. `info A14`, `info T07`, `info AL3`."""
        if not rest:
            self.say("Usage: info CARD, e.g. `info A14` or `info S05`.")
            return
        code = rest.strip().upper()
        view = self.game.view if self.game is not None else None
        self.answer(f"info {code}", lambda width: card_lines(code, width, view))
