"""The console's memory: taking a seat back (``resume``) and keeping a game's record (``save``).

A mixin of :class:`client.console.commands.Console`.

- Seats: a :class:`client.net.session.Client` with a token store keeps every seat token on disk
  (:mod:`client.net.tokens`), so a console started after its process was killed can take its seat
  back. :meth:`KeepCommands.take_back_seat` does it right after the welcome (``cosmoport join``):
  the most recently kept seat of this server first, the next one if the server no longer knows
  it; ``resume [TABLE]`` does it on demand, with the token in memory or a kept one.
- Records: after a game's end, ``save [FILE]`` asks the server for the record (``record``) and
  writes it to a file (:mod:`client.console.record_files`); ``history`` lists the server's finished
  games (``history``), and ``save TABLE [FILE]`` keeps any of them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from twisted.internet import defer
from twisted.python.failure import Failure

from client.console import record_files
from client.console.errors import describe
from client.console.tracker import GameTracker, names_from_table
from client.console.where import Where
from client.net.connection import ServerError
from client.net.tokens import KeptSeat
from client.text.style import Style

NOT_YET = "The record is available once the game is over."
HISTORY_PAGE = 10


def finished_line(game: dict[str, Any]) -> str:
    """One finished game of ``history``: table, game, when, and everyone's score by rank."""
    names = [str(n) for n in game.get("seats") or []]
    scores = game.get("scores") or []
    places = []
    for rank, group in enumerate(game.get("ranking") or [], start=1):
        for seat in group:
            if isinstance(seat, int) and 0 <= seat < len(names):
                score = scores[seat] if seat < len(scores) else "?"
                places.append(f"{rank}. {names[seat]} {score}")
    when = str(game.get("finished") or "")[:16].replace("T", " ")
    title = str(game.get("game", "?")).replace("_", " ").title()
    return f"{game.get('table')}: {title}, {when} UTC - " + ", ".join(places)


class KeepCommands:
    """Seat taking-back and record saving (the console provides what is declared here)."""

    client: Any
    style: Style
    where: Where
    table: dict[str, Any] | None
    game: GameTracker | None
    ended: int | None
    """The last table whose ``game_over`` this console saw (at it, or watching it)."""
    _history_before: int | None = None
    """The oldest table `history` showed last (where `history more` goes on)."""

    def say(self, lines: str | list[str]) -> None:
        raise NotImplementedError

    def prompt(self) -> None:
        raise NotImplementedError

    def call(self, msg: dict[str, Any], then: Callable[[dict[str, Any]], None]) -> None:
        raise NotImplementedError

    def refused(self, failure: Failure) -> None:
        raise NotImplementedError

    # --- taking seats back ---------------------------------------------------------------

    def kept_seats(self) -> list[KeptSeat]:
        """The seats kept on disk for this server, the most recent first."""
        kept = getattr(self.client, "kept_seats", None)
        return list(kept()) if callable(kept) else []

    def take_back_seat(self) -> defer.Deferred[bool]:
        """After the welcome: take back the most recent seat kept for this server, if any.

        Fires with whether a seat was taken back. A seat the server no longer knows is
        forgotten and the next one tried; the others are mentioned, for `resume TABLE`.
        """
        return self._take_back(self.kept_seats())

    def do_resume(self, rest: str) -> None:
        """resume [TABLE]: take back your seat at a game you left, or lost with the connection.

        Without TABLE: the seat this console last held, or else the seat most recently kept on
        this computer for this server (`cosmoport join` takes it back by itself when it
        starts). Seats are kept until their game ends; one the server no longer knows is
        forgotten.
        """
        if self.where != Where.LOBBY:
            self.say("You are at a table already.")
            return
        words = rest.split()
        if len(words) > 1 or (words and not words[0].isdigit()):
            self.say("Usage: resume [TABLE], e.g. `resume` or `resume 3`.")
            return
        kept = self.kept_seats()
        in_memory = getattr(self.client, "token", None)
        here = getattr(self.client, "table_id", None)
        if words:
            table = int(words[0])
            seats = [seat for seat in kept if seat.table == table]
            if not seats and in_memory and here == table:
                self._resume(in_memory, table, [])
            elif not seats:
                self.say(f"No seat of yours is kept for table {table} on this server.")
            else:
                self._take_back(seats)
            return
        if in_memory:
            self._resume(in_memory, here, [s for s in kept if s.table != here])
        elif kept:
            self._take_back(kept)
        else:
            self.say("There is no seat to take back.")

    def _take_back(self, seats: list[KeptSeat]) -> defer.Deferred[bool]:
        if not seats:
            return defer.succeed(False)
        return self._resume(seats[0].token, seats[0].table, seats[1:])

    def _resume(self, token: str, table: Any, others: list[KeptSeat]) -> defer.Deferred[bool]:
        where = f" at table {table}" if isinstance(table, int) else ""
        self.say(f"Taking back your seat{where}...")
        done: defer.Deferred[bool] = defer.Deferred()

        def back(reply: dict[str, Any]) -> None:
            self.took_back(reply)
            self._mention(others)
            self.prompt()
            done.callback(True)

        def refused(failure: Failure) -> None:
            error = failure.value
            if isinstance(error, ServerError) and error.code == "session/bad_token":
                self.say(
                    f"Your seat{where} is gone: the server no longer knows it (the game may have "
                    "ended, or the server restarted without its records). It is forgotten."
                )
                self.prompt()
                self._take_back(others).chainDeferred(done)
                return
            self.say(self.style.bad(f"! Could not take back your seat{where}: ") + describe(error))
            self._mention(others)
            self.prompt()
            done.callback(False)

        d = self.client.request({"type": "resume", "token": token})
        d.addCallbacks(back, refused)
        d.addErrback(self.refused)  # a bug above is shown, not lost in the Deferred
        return done

    def _mention(self, others: list[KeptSeat]) -> None:
        if not others:
            return
        tables = [str(seat.table) for seat in others]
        if len(tables) == 1:
            self.say(
                f"You also have a seat kept at table {tables[0]} on this server: "
                f"`resume {tables[0]}` takes it back."
            )
        else:
            listed = ", ".join(tables[:-1]) + " and " + tables[-1]
            self.say(
                f"You also have seats kept at tables {listed} on this server: "
                "`resume TABLE` takes one back."
            )

    def took_back(self, reply: dict[str, Any]) -> None:
        """Say so, and follow a ``resumed`` reply (a ``snapshot`` follows if the game runs)."""
        self.say(self.style.good(f"Back in your seat at table {reply['table']['id']}."))
        self.on_resumed(reply)

    def on_resumed(self, reply: dict[str, Any]) -> None:
        table = reply["table"]
        self.where, self.table = Where.TABLE, table
        if self.game is None or self.game.table_id != table["id"]:
            self.game = None
            if table.get("state") in ("playing", "finished"):
                self.game = GameTracker(
                    table["id"], str(table["game"]), names_from_table(table), reply.get("seat")
                )
        if table.get("state") == "waiting":
            free = sum(1 for s in table.get("seats") or [] if s is None)
            if free:
                self.say(f"The game has not started: waiting for {free} more player(s).")
            elif not table.get("autostart"):
                self.say("Every place is taken: type `start` to begin.")

    # --- records -------------------------------------------------------------------------

    def finished_table(self) -> int | None:
        """The table whose record `save` fetches: the game here if it is over, or the last one
        seen ending (None while the game here goes on)."""
        game = self.game
        if game is not None and game.started:
            over = game.over is not None or bool((game.view or {}).get("is_over"))
            return game.table_id if over else None
        return self.ended

    def do_history(self, rest: str) -> None:
        """history [more]: the games this server has finished, newest first, with the results.

        `history more` shows the next (older) page; `save TABLE` keeps one's record.
        """
        msg: dict[str, Any] = {"type": "history", "limit": HISTORY_PAGE}
        if rest.strip().lower() == "more":
            if self._history_before is None:
                self.say("Type `history` first; `history more` then shows older games.")
                return
            msg["before"] = self._history_before
        elif rest:
            self.say("Usage: history, then `history more` for older games.")
            return

        def show(reply: dict[str, Any]) -> None:
            games = [g for g in reply.get("games") or [] if isinstance(g, dict)]
            if not games:
                self._history_before = None
                self.say("No finished games (yet)." if "before" not in msg else "No older games.")
                return
            self._history_before = games[-1].get("table")
            lines = ["Finished games (newest first):"]
            lines += [f"  {finished_line(game)}" for game in games]
            more = " `history more` shows older ones." if reply.get("more") else ""
            lines.append(f"`save TABLE` keeps a game's record.{more}")
            self.say(lines)

        self.call(msg, show)

    def do_save(self, rest: str) -> None:
        """save [TABLE] [FILE]: keep the record of the game that just ended (or of the finished
        game at TABLE, see `history`) in a file.

        The record holds the seed and every action, so every hidden card too: the server gives
        it only after the game's end. A FILE ending in .jsonl gets the record appended as one
        line; without FILE it goes to a new file in your data folder (records/), named after
        the date, the game and the table. `cosmoport replay FILE` replays it move by move.
        """
        first, _, others = rest.partition(" ")
        if first.isdigit():
            table: int | None = int(first)
            rest = others.strip()
        else:
            table = self.finished_table()
        if table is None:
            self.say(NOT_YET)
            return
        if rest:
            target: Path | None = Path(rest).expanduser()
        else:
            target = None

        def got(reply: dict[str, Any]) -> None:
            record = reply.get("record")
            if not isinstance(record, dict):
                self.say(self.style.bad(f"! The server sent no record for table {table}."))
                return
            self.keep_record(record, table, target)

        self.call({"type": "record", "table": table}, got)

    def keep_record(self, record: dict[str, Any], table: int, target: Path | None) -> None:
        """Write ``record`` to ``target`` (default: a new file in the records folder) and say
        where, with the command that replays it; a failure is one clear line."""
        path = target if target is not None else record_files.default_path(record, table)
        try:
            if target is None:
                path.parent.mkdir(parents=True, exist_ok=True)
            line = record_files.write(record, path)
        except OSError as error:
            reason = error.strerror or str(error)
            self.say(
                self.style.bad(f"! Could not write the record to {path}: {reason}. ")
                + "The server keeps it: `save` again with another FILE."
            )
            return
        where = f" (line {line})" if line is not None else ""
        self.say(self.style.good(f"Record of table {table} saved to {path}{where}"))
        self.say(f"Replay it with `{record_files.replay_command(path, line)}`")
