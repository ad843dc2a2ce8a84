"""The interactive console: lobby and game commands over lines of input, text out.

Modelled on Twisted's ``stdiodemo.py``: each command is a ``do_<command>`` method whose
docstring is its help (first line: usage and summary). A number plays that legal action; Enter
alone plays the only one. The console is driven by three inputs, so it runs the same on a
terminal and in tests:

- :meth:`Console.line` for what the person types;
- :meth:`Console.receive` for what the server pushes (the client's ``on_message``);
- :meth:`Console.status` for news about the link (the client's ``on_status``).

It talks to the server only through ``client.request(msg) -> Deferred`` (a
:class:`client.net.session.Client` or a test double) and writes only to a
:class:`client.console.screen.Screen`. Game messages are handled by
:mod:`client.console.game_commands`, taking seats back and saving records by
:mod:`client.console.keep_commands`.
"""

from __future__ import annotations

import inspect
import re
import textwrap
import time
from collections.abc import Callable
from typing import Any, Protocol

from twisted.internet import defer
from twisted.logger import Logger
from twisted.python.failure import Failure

import games
from client import render
from client.console.errors import describe, explain
from client.console.game_commands import GameCommands, command_help
from client.console.keep_commands import KeepCommands
from client.console.learn_commands import LearnCommands
from client.console.screen import Screen
from client.console.seat_commands import SeatCommands, place_named
from client.console.tracker import GameTracker, names_from_table
from client.console.where import Where
from client.text.game_names import game_choices, game_name, short_name
from client.text.wording import letter, plural
from protocol.timer import parse_timer

_log = Logger()

COMMAND_ALIASES = {
    "?": "help",
    "h": "help",
    "ls": "list",
    "tables": "list",
    "l": "list",
    "watch": "spectate",
    "addbot": "bot",
    "say": "chat",
    "time": "clock",
    "b": "board",
    "a": "actions",
    "s": "scores",
    "q": "quit",
    "exit": "quit",
    "bye": "quit",
}


def help_lines(doc: str, width: int) -> list[str]:
    """A command's docstring as help, wrapped at word boundaries to ``width``: the first
    paragraph (``usage: summary``) with a hanging indent, the others indented."""
    paragraphs = [" ".join(part.split()) for part in re.split(r"\n\s*\n", inspect.cleandoc(doc))]
    lines: list[str] = []
    for number, text in enumerate(p for p in paragraphs if p):
        first = "" if number == 0 else "  "
        lines += textwrap.wrap(
            text,
            max(20, width),
            initial_indent=first,
            subsequent_indent="    " if number == 0 else "  ",
            break_long_words=False,
            break_on_hyphens=False,
        )
    return lines


class ClientLike(Protocol):
    name: str
    token: str | None

    def request(self, msg: dict[str, Any]) -> defer.Deferred[dict[str, Any]]: ...


class Console(GameCommands, KeepCommands, LearnCommands, SeatCommands):
    """One person's console session with one server."""

    def __init__(
        self,
        client: ClientLike,
        screen: Screen,
        *,
        on_quit: Callable[[int], None] | None = None,
        again: Callable[[], Any] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.client = client
        self.now = clock
        self.screen = screen
        self.style = screen.style
        self.on_quit = on_quit
        self.again = again
        self.where = Where.LOBBY
        self.table: dict[str, Any] | None = None
        self.game: GameTracker | None = None
        self.games: list[dict[str, Any]] = []
        self.tables: dict[int, dict[str, Any]] = {}
        self._list_after: int | None = None  # the last table `list` showed, if more follow
        self.ended: int | None = None
        self.quitting = False
        self.quit_armed = False

    # --- the three inputs ----------------------------------------------------------------

    def line(self, text: str) -> None:
        """Handle one line typed by the person (a bug in a command never ends the session)."""
        self.screen.input_done()
        try:
            self._line(text.strip())
        except Exception as exc:
            _log.failure("handling the line {line!r}", line=text)
            self.say(self.style.bad(f"! Sorry, that failed inside the client: {exc!r}"))
        self.prompt()

    def _line(self, text: str) -> None:
        armed, self.quit_armed = self.quit_armed, False
        if not text:
            self.enter()
        elif text.isdigit() or (text.startswith("#") and text[1:].isdigit()):
            self.play_number(int(text.lstrip("#")))
        else:
            command, _, rest = text.partition(" ")
            command = COMMAND_ALIASES.get(command.lower(), command.lower())
            method = getattr(self, "do_" + command, None)
            if method is None and self.play_named(text):
                return  # a choice by its name: `W3 P5`, `build P16`... (commands come first)
            if method is None:
                self.say(f"Unknown command `{command}`. Type `help` for the list.")
            else:
                if command == "quit":
                    self.quit_armed = armed
                method(rest.strip())

    def receive(self, msg: dict[str, Any]) -> None:
        """Handle one message pushed by the server (unknown types are ignored)."""
        handler = getattr(self, "on_" + str(msg.get("type")), None)
        if handler is not None:
            try:
                handler(msg)
            except Exception as exc:  # a message we cannot read must not end the session
                _log.failure("showing a {kind} message", kind=msg.get("type"))
                self.say(self.style.note(f"(could not show a {msg.get('type')} message: {exc!r})"))
        self.prompt()

    def status(self, event: str, detail: dict[str, Any]) -> None:
        """News about the connection itself (see :class:`client.net.session.Client`)."""
        error: Any = detail.get("error")
        if event == "lost":
            why = f" {describe(error)}" if error is not None else ""
            self.say(self.style.bad("Connection to the server lost.") + why)
        elif event == "retrying":
            self.say(f"Reconnecting in {detail['delay']:g} s (attempt {detail['attempt']})...")
        elif event == "reconnected":
            self.say(self.style.good("Reconnected."))
        elif event == "resumed":
            self.took_back(detail.get("reply") or {})
        elif event == "seat_lost":
            self.say(f"Could not get back to the table: {describe(error)}")
            self.where, self.table, self.game = Where.LOBBY, None, None
        elif event == "gave_up":
            self.say(self.style.bad("Giving up on the server: ") + describe(error))
            self.finish(1)
        self.prompt()

    # --- output helpers ------------------------------------------------------------------

    def say(self, lines: str | list[str]) -> None:
        self.screen.show(lines)

    def answer(self, title: str, lines: Callable[[int], str | list[str]]) -> None:
        """A long answer (help, rules, the log...): ``lines(width)`` written out here; the
        full-screen client opens it in a pane of its own, where it can be scrolled."""
        self.say(lines(self.screen.width))

    def note(self, text: str) -> None:
        """A side remark for the person (e.g. from the token store), shown dimmed."""
        self.say(self.style.note(text))
        self.prompt()

    def prompt(self) -> None:
        self.screen.set_prompt(self.prompt_text())

    def prompt_text(self) -> str:
        if self.quitting:
            return ""
        game = self.game
        if game is not None and game.my_turn:
            if len(game.legal) == 1:
                return "Your move (Enter: the only choice)> "
            return f"Your move (a name, or 1-{len(game.legal)})> "
        if self.where == Where.TABLE:
            return f"table {self.table_id}> "
        if self.where == Where.WATCHING:
            return f"watching {self.table_id}> "
        return "lobby> "

    @property
    def table_id(self) -> Any:
        return (self.table or {}).get("id", "?")

    def call(self, msg: dict[str, Any], then: Callable[[dict[str, Any]], None]) -> None:
        """Send a request; ``then(reply)`` on success, a clear message on failure."""

        def answered(reply: dict[str, Any]) -> None:
            then(reply)
            self.prompt()

        d = self.client.request(msg)
        d.addCallback(answered)
        d.addErrback(self.refused)

    def refused(self, failure: Failure) -> None:
        self.say(self.style.bad("! ") + describe(failure.value))
        self.prompt()

    def finish(self, code: int = 0) -> None:
        if not self.quitting:
            self.quitting = True
            if self.on_quit is not None:
                self.on_quit(code)

    # --- server messages outside games ---------------------------------------------------

    def welcome(self, msg: dict[str, Any]) -> None:
        """Greet the person after the handshake, then take back the seat kept for this server
        (if the client keeps seat tokens and holds one: see :meth:`take_back_seat`)."""
        self.games = [g for g in msg.get("games") or [] if isinstance(g, dict)]
        self.say(f"Connected to {msg.get('server', 'a Cosmoport server')} as {msg.get('name')}.")
        if self.games:
            names = ", ".join(
                f"{render.title(str(g.get('name')))} (`{short_name(str(g.get('name')))}`, "
                f"{g.get('min_players')}-{g.get('max_players')} players)"
                for g in self.games
            )
            self.say(f"Games: {names}.")
        self.say("Type `help` for the commands, `list` for the tables.")
        self.take_back_seat()

    def on_table_update(self, msg: dict[str, Any]) -> None:
        table = msg["table"]
        known = self.tables.get(table["id"])
        self.tables[table["id"]] = table
        if self.table is not None and table["id"] == self.table.get("id"):
            before = self.table
            self.table = table
            if self.where == Where.TABLE and table.get("state") == "waiting":
                self._seating_news(before, table)
            return
        if self.where != Where.LOBBY:
            return
        if known is None and table.get("state") != "closed":
            self.say(self.style.note(f"New table {self.describe_table(table)}"))
        elif table.get("state") == "closed":
            self.tables.pop(table["id"], None)
            self.say(self.style.note(f"Table {table['id']} closed."))

    def _seating_news(self, before: dict[str, Any], after: dict[str, Any]) -> None:
        old = names_from_table(before)
        new = names_from_table(after)
        for slot, name in enumerate(new):
            was = old[slot] if slot < len(old) else "?"
            if name != was and name != "?":
                self.say(f"{name} sits down at place {letter(slot)}.")
            elif was != "?" and name == "?":
                self.say(f"{was} leaves place {letter(slot)}.")
        # Said once, when the last place is taken (the join reply may have said it already).
        if _free(before) and not _free(after) and not after.get("autostart"):
            self.say("Every place is taken: type `start` to begin.")

    def on_chat(self, msg: dict[str, Any]) -> None:
        scope = "lobby" if msg.get("scope") == "lobby" else "table"
        self.say(f"[{scope}] {self.style.bold(str(msg.get('from', '?')))}: {msg.get('text', '')}")

    def on_left(self, msg: dict[str, Any]) -> None:
        if msg.get("reason") == "closed":
            self.say(f"Table {msg.get('table')} was closed: back in the lobby.")
        self.where, self.table, self.game = Where.LOBBY, None, None

    def on_error(self, msg: dict[str, Any]) -> None:
        self.say(self.style.bad("! ") + explain(str(msg.get("code")), str(msg.get("message", ""))))

    on_reject = on_error

    def describe_table(self, table: dict[str, Any]) -> str:
        seats = table.get("seats") or []
        taken = [s for s in seats if isinstance(s, dict)]
        names = ", ".join(
            f"{letter(place)} {s.get('name', '?')}"
            + ("" if s.get("connected", True) else " (away)")
            for place, s in enumerate(seats)
            if isinstance(s, dict)
        )
        options = table.get("options") or {}
        extra = " " + " ".join(f"{k}={v}" for k, v in options.items()) if options else ""
        watchers = f", {table['spectators']} watching" if table.get("spectators") else ""
        timer = table.get("timer")
        if isinstance(timer, int) and timer > 0:
            bank = table.get("bank")
            extra += f" timer={timer}" + (f"+{bank}" if isinstance(bank, int) and bank else "")
        return (
            f"{table.get('id')}: {render.title(str(table.get('game')))}{extra}, "
            f"{len(taken)}/{table.get('players')} players, {table.get('state')}{watchers}"
            + (f" - {names}" if names else "")
        )

    # --- lobby commands ------------------------------------------------------------------

    def do_help(self, rest: str) -> None:
        """help [COMMAND]: list the commands, or explain one."""
        if rest:
            name = COMMAND_ALIASES.get(rest.lower(), rest.lower())
            method = getattr(self, "do_" + name, None)
            if method is None or not method.__doc__:
                self.say(f"No command `{rest}`. Type `help` for the list.")
                return
            doc = method.__doc__
            self.answer(f"help {name}", lambda width: help_lines(doc, width))
            return
        self.answer(
            "Help",
            lambda width: command_help(
                self,
                "Commands (type `help COMMAND` for more):",
                (
                    "NAME or NUMBER",
                    "play that choice: `W3 P5`, `build P16`... as the menu names "
                    "it, or its number (Enter alone: the only one).",
                ),
                width,
                skip=("do_again",) if self.again is None else (),
            ),
        )

    def do_list(self, rest: str) -> None:
        """list [more]: show the tables of this server, a page at a time (also `tables`).

        `list more` shows the next page.
        """
        msg: dict[str, Any] = {"type": "list"}
        if rest.strip().lower() == "more":
            if self._list_after is None:
                self.say("Type `list` first; `list more` then shows the next tables.")
                return
            msg["after"] = self._list_after
        elif rest:
            self.say("Usage: list, then `list more` for the next tables.")
            return

        def show(reply: dict[str, Any]) -> None:
            tables = [t for t in reply.get("tables") or [] if isinstance(t, dict)]
            if "after" in msg:
                self.tables.update({t["id"]: t for t in tables})
            else:
                self.tables = {t["id"]: t for t in tables}
            if not tables:
                self._list_after = None
                self.say(
                    "No more tables."
                    if "after" in msg
                    else "No tables yet. `create GAME` opens one."
                )
                return
            self._list_after = tables[-1]["id"] if reply.get("more") else None
            lines = ["Tables:"] + [f"  {self.describe_table(t)}" for t in tables]
            if reply.get("more"):
                lines.append("More tables: `list more` shows the next ones.")
            self.say(lines)

        self.call(msg, show)

    def do_create(self, rest: str) -> None:
        """create GAME [PLAYERS] [OPTIONS]: open a table and sit at it.

        GAME: cosmic-run (or cr) or alien-artifacts (or aa); PLAYERS: the number of seats
        (default 2). Options: seating=fixed (your place is your seat) or random (the default:
        seats are drawn when the game starts), autostart (start when full), timer=90+300
        (seconds per decision + each seat's bank for the game; timer=off for none; the
        server's default otherwise), and the game's own, e.g. factions=choice or
        factions=SU,COM for Alien Artifacts.

        Example: create aa 3 factions=choice timer=60+180
        """
        words = rest.split()
        if not words:
            self.say("Usage: create GAME [PLAYERS] [OPTION=VALUE ...]. Example: create cr 2")
            return
        if self.where != Where.LOBBY:
            self.say("You are at a table: `leave` it first.")
            return
        offered = [str(g.get("name")) for g in self.games]
        known = offered or games.names()
        if len(words) > 1 and game_name(" ".join(words[:2])) in known:
            words[:2] = [" ".join(words[:2])]  # a title of two words: Cosmic Run
        game = game_name(words[0])
        if offered and game not in offered:
            self.say(f"No game `{words[0]}` here: choose {game_choices(offered)}.")
            return
        msg: dict[str, Any] = {"type": "create", "game": game, "players": 2}
        options: dict[str, Any] = {}
        for word in words[1:]:
            if word.isdigit():
                msg["players"] = int(word)
            elif word.lower() == "autostart":
                msg["autostart"] = True
            elif "=" in word:
                key, _, value = word.partition("=")
                if key in ("seating", "autostart"):
                    msg[key] = value if key == "seating" else value.lower() in ("1", "yes", "true")
                elif key == "timer":
                    try:
                        msg["timer"], msg["bank"] = parse_timer(value)
                    except ValueError:
                        self.say(
                            f"Do not understand `{word}`: write timer=SECONDS+BANK like "
                            "timer=90+300 (seconds per decision + each seat's bank), or timer=off."
                        )
                        return
                else:
                    options[key] = parse_value(value)
            else:
                self.say(f"Do not understand `{word}`: write options as KEY=VALUE.")
                return
        if options:
            msg["options"] = options

        def created(reply: dict[str, Any]) -> None:
            table = reply["table"]
            self.tables[table["id"]] = table
            # Not its "0/3 players" yet: the creator takes a place at once (the join below).
            title = render.title(str(table.get("game")))
            self.say(f"Table {table['id']} opened: {title}, {table.get('players')} players.")
            self.do_join(str(table["id"]))

        self.call(msg, created)

    def do_join(self, rest: str) -> None:
        """join TABLE [PLACE]: take a place at a waiting table (default: the first free one).

        PLACE is a letter: A for the first place, B for the second...

        Example: join 3 B
        """
        words = rest.split()
        place = place_named(words[1]) if len(words) == 2 else None
        if (
            not words
            or not words[0].isdigit()
            or len(words) > 2
            or (len(words) == 2 and place is None)
        ):
            self.say(
                "Usage: join TABLE [PLACE], e.g. `join 3` or `join 3 B`. `list` shows the tables."
            )
            return
        if self.where != Where.LOBBY:
            self.say("You are already at a table: `leave` it first.")
            return
        msg: dict[str, Any] = {"type": "join", "table": int(words[0])}
        if place is not None:
            msg["slot"] = place
        self.call(msg, self.on_joined)

    def on_joined(self, reply: dict[str, Any]) -> None:
        table = reply["table"]
        self.where, self.table, self.game = Where.TABLE, table, None
        free = _free(table)
        shuffled = table.get("seating") == "random" and (table.get("players") or 0) > 1
        self.say(
            f"You sit at table {table['id']} ({render.title(str(table.get('game')))}), "
            f"place {letter(reply.get('slot'))}."
        )
        if shuffled:
            self.say("Seats are drawn at random when the game starts.")
        if free:
            waiting = plural(free, "more player")
            self.say(f"Waiting for {waiting}. Chat with `chat TEXT` meanwhile.")
        elif not table.get("autostart"):
            self.say("Every place is taken: type `start` to begin.")

    def do_spectate(self, rest: str) -> None:
        """spectate TABLE: watch a table's game (also `watch`)."""
        if not rest.isdigit():
            self.say("Usage: spectate TABLE, e.g. `spectate 3`.")
            return
        if self.where != Where.LOBBY:
            self.say("You are at a table: `leave` it first.")
            return

        def watching(reply: dict[str, Any]) -> None:
            self.where, self.table, self.game = Where.WATCHING, reply["table"], None
            self.say(f"Watching table {self.describe_table(reply['table'])}.")

        self.call({"type": "spectate", "table": int(rest)}, watching)

    def do_chat(self, rest: str) -> None:
        """chat TEXT: say something to the lobby, or to your table (also `say`)."""
        if not rest:
            self.say("Usage: chat TEXT")
            return
        self.call({"type": "chat", "text": rest[:300]}, lambda reply: None)


def _free(table: dict[str, Any]) -> int:
    """How many places of a table map are free."""
    return sum(1 for s in table.get("seats") or [] if s is None)


def parse_value(text: str) -> Any:
    """An option value typed on the command line: int, bool, a list (commas) or text."""
    if "," in text:
        return [parse_value(part) for part in text.split(",") if part]
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if text.lstrip("-").isdigit():
        return int(text)
    return text
