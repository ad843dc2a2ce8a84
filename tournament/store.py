"""An event's results on disk: one SQLite file holding its settings, schedule and every game.

Each finished game is committed, with its full record, in one transaction as its result comes
in, so whatever stops the run (``kill -9``, a power cut after the commit, a cluster going away)
loses at most games still being played: the same command again plays what the schedule still
lacks, and never a game twice. The file is WAL-journalled with ``synchronous=NORMAL``.

The file names itself: its ``application_id`` says it is a Cosmoport tournament and its
``user_version`` the format. A file of another program, of a newer format, read-only or damaged
is refused with a one-line :class:`StoreError` and left as it is; so is a file that holds another
event (other settings) under the name asked for.

Tables: ``meta`` (the event's settings as JSON, the format), ``entrants``, ``schedule`` (one
row per game to play: seed and seating) and ``games`` (one row per game played; ``played``
numbers them in the order they finished, which is the order ratings are computed in).
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from server.store import StoreError, create_schema, open_existing
from tournament.entrants import Entrant
from tournament.schedule import Slot

APPLICATION_ID = 0x436F5354  # "CoST": a Cosmoport tournament (PRAGMA application_id)
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE entrants (
    number INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    spec TEXT NOT NULL,
    data TEXT NOT NULL
);
CREATE TABLE schedule (
    number INTEGER PRIMARY KEY,
    round INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    seating TEXT NOT NULL
);
CREATE TABLE games (
    number INTEGER PRIMARY KEY REFERENCES schedule(number),
    played INTEGER NOT NULL UNIQUE,
    result TEXT NOT NULL,
    record TEXT NOT NULL
);
"""

__all__ = ["EventStore", "StoreError"]


class EventStore:
    """One event's database (see the module docstring)."""

    def __init__(self, db: sqlite3.Connection, path: str) -> None:
        self.db = db
        self.path = path

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, create: bool = True) -> EventStore:
        """Open the event database at ``path``; a missing file is created unless ``create`` is
        false (then it is an error: nothing to report on)."""
        file = Path(path)
        if file.exists():
            db = open_existing(
                file,
                application_id=APPLICATION_ID,
                version=SCHEMA_VERSION,
                create=_create,
                what="a Cosmoport tournament database",
                read_only_hint="a tournament writes every game there; choose another --db",
            )
        elif not create:
            raise StoreError(f"{file}: no such tournament database")
        else:
            try:
                file.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(f"file:{file}?mode=rwc", uri=True, isolation_level=None)
                _create(db)
            except (OSError, sqlite3.Error) as exc:
                raise StoreError(f"{file}: cannot create the database ({exc})") from None
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        return cls(db, str(file))

    def close(self) -> None:
        self.db.close()

    # --- the event -------------------------------------------------------------------------

    def settings(self) -> dict[str, Any] | None:
        """The event's settings, or None for a new file."""
        row = self.db.execute("SELECT value FROM meta WHERE key = 'settings'").fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def begin_event(
        self, settings: dict[str, Any], entrants: Sequence[Entrant], slots: Sequence[Slot]
    ) -> None:
        """Write a new event, or check that the file holds this one and add schedule rows it
        lacks (an event may grow: ``--games`` raised). Raises :class:`StoreError` for a file
        that holds another event, and changes nothing then."""
        stored = self.settings()
        if stored is not None:
            different = sorted(k for k in {*stored, *settings} if stored.get(k) != settings.get(k))
            if different:
                shown = "; ".join(
                    _difference(k, stored.get(k), settings.get(k)) for k in different[:3]
                )
                more = f" and {len(different) - 3} more" if len(different) > 3 else ""
                raise StoreError(
                    f"{self.path} holds another event ({shown}{more}); run it with its own "
                    "settings, or choose another --db"
                )
            self._check_schedule(slots)
        with self._transaction():
            if stored is None:
                self.db.execute(
                    "INSERT INTO meta (key, value) VALUES ('settings', ?)",
                    (json.dumps(settings, sort_keys=True),),
                )
                self.db.executemany(
                    "INSERT INTO entrants (number, name, spec, data) VALUES (?, ?, ?, ?)",
                    [
                        (i, e.name, e.spec, json.dumps(e.to_dict(), sort_keys=True))
                        for i, e in enumerate(entrants)
                    ],
                )
            self.db.executemany(
                "INSERT OR IGNORE INTO schedule (number, round, seed, seating) VALUES (?, ?, ?, ?)",
                [(s.number, s.round, s.seed, json.dumps(list(s.seating))) for s in slots],
            )

    def _check_schedule(self, slots: Sequence[Slot]) -> None:
        stored = {row[0]: row[1:] for row in self.db.execute("SELECT * FROM schedule")}
        for slot in slots:
            row = stored.get(slot.number)
            if row is not None and row != (slot.round, slot.seed, json.dumps(list(slot.seating))):
                raise StoreError(
                    f"{self.path}: game {slot.number} of its schedule differs from this "
                    "event's; choose another --db"
                )

    def add_schedule(self, slots: Sequence[Slot]) -> None:
        """Add games to the schedule (a Swiss round, paired once the one before is played)."""
        with self._transaction():
            self.db.executemany(
                "INSERT INTO schedule (number, round, seed, seating) VALUES (?, ?, ?, ?)",
                [(s.number, s.round, s.seed, json.dumps(list(s.seating))) for s in slots],
            )

    def entrants(self) -> list[Entrant]:
        rows = self.db.execute("SELECT data FROM entrants ORDER BY number")
        return [Entrant.from_dict(json.loads(row[0])) for row in rows]

    def schedule(self) -> list[Slot]:
        rows = self.db.execute("SELECT number, round, seed, seating FROM schedule ORDER BY number")
        return [Slot(n, r, s, tuple(json.loads(seating))) for n, r, s, seating in rows]

    # --- games -------------------------------------------------------------------------------

    def played_numbers(self) -> set[int]:
        return {row[0] for row in self.db.execute("SELECT number FROM games")}

    def add_game(self, result: dict[str, Any]) -> None:
        """Commit one finished game (its result dict, record included)."""
        data = {k: v for k, v in result.items() if k != "record"}
        with self._transaction():
            played = self.db.execute("SELECT COALESCE(MAX(played), -1) + 1 FROM games").fetchone()
            self.db.execute(
                "INSERT INTO games (number, played, result, record) VALUES (?, ?, ?, ?)",
                (
                    result["number"],
                    played[0],
                    json.dumps(data, sort_keys=True),
                    json.dumps(result["record"], separators=(",", ":")),
                ),
            )

    def results(self) -> list[dict[str, Any]]:
        """Every game played, without records, in the order they finished."""
        rows = self.db.execute("SELECT result FROM games ORDER BY played")
        return [json.loads(row[0]) for row in rows]

    def records(self) -> Iterator[str]:
        """Every game's record as compact JSON text, in the order they finished."""
        for row in self.db.execute("SELECT record FROM games ORDER BY played"):
            yield row[0]

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``; a failed write rolls back and is a StoreError."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
            yield
            self.db.execute("COMMIT")
        except sqlite3.Error as error:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise StoreError(f"{self.path}: cannot write ({error})") from None
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise


def _short(value: Any, room: int = 40) -> str:
    text = "none" if value is None else json.dumps(value)
    return text if len(text) <= room else text[: room - 3] + "..."


def _difference(key: str, there: Any, now: Any) -> str:
    """One setting that differs, short enough for one readable line."""
    if key == "entrants" and isinstance(there, list) and isinstance(now, list):
        names_there = [e.get("name") for e in there if isinstance(e, dict)]
        names_now = [e.get("name") for e in now if isinstance(e, dict)]
        if names_there != names_now:
            old_names, new_names = ", ".join(map(str, names_there)), ", ".join(map(str, names_now))
            return f"entrants {_short(old_names, 60)} there, {_short(new_names, 60)} now"
        for old, new in zip(there, now, strict=False):
            if old != new:
                keys = sorted(k for k in {*old, *new} if old.get(k) != new.get(k))
                shown = ", ".join(
                    f"{k} {_short(old.get(k), 24)} there, {_short(new.get(k), 24)} now"
                    for k in keys[:2]
                )
                return f"entrant {old.get('name')}: {shown}"
    return f"{key} {_short(there)} there, {_short(now)} now"


def _create(db: sqlite3.Connection) -> None:
    create_schema(db, _SCHEMA, APPLICATION_ID, SCHEMA_VERSION)
