"""The server's memory on disk: every table, seat and applied action in one SQLite file.

``cosmoport serve`` keeps its tables here so that a restart (or a crash) loses nothing: an
applied action is committed before the update that announces it is sent, and on start every
unfinished table is rebuilt by replaying its seed and actions (the engines are deterministic).
Finished games stay in the file: ``history`` lists them and ``record`` hands out their records
(the format of :mod:`games.records`, documented in ``docs/records.md``).

The file is WAL-journalled with ``synchronous=NORMAL``: a committed transaction survives the
server process being killed at any moment; a power cut may lose the last moments before it.
Seat tokens are stored as SHA-256 hashes only.

The store never overwrites a file it does not recognise: :meth:`Store.open` refuses a file that
is not SQLite, an SQLite file of another program, one written by a newer Cosmoport, a read-only
or a corrupted one, each with a one-line :class:`StoreError`. A write that fails (a full disk)
raises :class:`StorageFailed` and leaves the file as it was.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import uuid
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games import records
from protocol.codec import encode_value
from server.store_file import (
    APPLICATION_ID,
    MEMORY,
    SCHEMA_VERSION,
    StoreError,
    _create,
    _open_existing,
    _reason,
    _size,
    _size_cap,
    create_schema,
    open_existing,
)

__all__ = [
    "APPLICATION_ID", "MEMORY", "SCHEMA_VERSION", "SavedPlace", "SavedTable", "StorageFailed",
    "Store", "StoreError", "create_schema", "default_path", "open_existing",
    "token_hash",
]  # fmt: skip

RECORDS_KEPT = 32 * 1024 * 1024
"""Bytes of finished games' records kept encoded in memory (a long game's is 15 to 30 KB)."""


# Table states in the file: the lobby's waiting/playing/finished, plus closed (ended unfinished:
# abandoned, nobody came back) and set_aside (its record no longer replays).
WAITING, PLAYING, FINISHED, CLOSED, SET_ASIDE = (
    "waiting",
    "playing",
    "finished",
    "closed",
    "set_aside",
)


class StorageFailed(Exception):
    """A write failed (``full`` when the disk or the file's size limit is reached); the file
    holds what it held before."""

    def __init__(self, message: str, full: bool = False) -> None:
        super().__init__(message)
        self.full = full


def token_hash(token: str) -> str:
    """What the store keeps of a seat token (tokens are 192 random bits: no salt needed)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def iso_time(seconds: float | None) -> str | None:
    """A record's time text (:func:`games.records.timestamp`), or None for no time."""
    return None if seconds is None else records.timestamp(seconds)


def default_path() -> Path:
    """Where ``cosmoport serve`` keeps its tables unless told otherwise."""
    import platformdirs

    return Path(platformdirs.user_data_dir("cosmoport")) / "server.db"


@dataclass
class SavedPlace:
    slot: int
    seat: int | None
    name: str
    token_hash: str | None
    previous_hash: str | None
    bot: str | None  # the level of a bot program the server started, or None for a person


@dataclass
class SavedTable:
    """An unfinished table as the file holds it, to be rebuilt on start."""

    id: int
    game: str
    edition: str
    players: int
    options: dict[str, Any]
    seating: str
    autostart: bool
    creator: str
    state: str
    seed: int | None
    created: float
    timer: int = 0  # seconds per decision (0: no timer)
    bank: int = 0
    undos: int = 0  # actions taken back: the table's version is its moves plus twice these
    places: list[SavedPlace] = field(default_factory=list)
    actions: list[tuple[int, list[Any]]] = field(default_factory=list)  # (seat, action)
    banks: list[float] | None = None  # each seat's bank after the last action, if it has a timer


class Store:
    """One open database. Every write method commits before it returns."""

    def __init__(self, connection: sqlite3.Connection, path: str, server: str = "") -> None:
        self._db = connection
        self.path = path
        self.server = server
        self.server_id = self._server_id()
        # Finished games' records (they never change) with their msgpack bytes, newest use last.
        self._finished: OrderedDict[int, tuple[dict[str, Any], bytes]] = OrderedDict()
        self._finished_bytes = 0
        """Who this server is, whatever address it is reached at (``welcome.server_id``):
        made once per database file, so it stays the same across restarts; a new one for each
        in-memory database."""

    def _server_id(self) -> str:
        fresh = uuid.uuid4().hex
        try:
            self._db.execute("INSERT OR IGNORE INTO meta VALUES ('server_id', ?)", (fresh,))
            row = self._db.execute("SELECT value FROM meta WHERE key='server_id'").fetchone()
        except sqlite3.Error:  # a full disk, a read-only file: this run's own id
            return fresh
        return str(row[0]) if row else fresh

    def begin_run(self) -> bool:
        """A server starts on this database. True if the one before stopped cleanly (and its
        bot programs with it); False after a crash or ``kill -9``, whose bot programs may
        still run and come back by themselves."""
        try:
            with self._write() as db:
                row = db.execute("SELECT value FROM meta WHERE key='stopped'").fetchone()
                db.execute("DELETE FROM meta WHERE key='stopped'")
        except StorageFailed:
            return False
        return row is not None

    def end_run(self) -> None:
        """The server stops cleanly: its bot programs are stopped (see :meth:`begin_run`)."""
        with contextlib.suppress(StorageFailed), self._write() as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES ('stopped', '1')")

    # --- opening ---------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike[str], server: str = "") -> Store:
        """Open (or create) the database at ``path`` (``:memory:``: one that lives in memory).

        Raises :class:`StoreError` for a file that cannot be ours to use, and changes nothing
        in it then.
        """
        name = os.fspath(path)
        if name == MEMORY:
            db = sqlite3.connect(MEMORY, isolation_level=None, check_same_thread=False)
            _create(db)
            return cls(db, name, server)
        file = Path(name)
        if file.exists():
            db = _open_existing(file)
        else:
            try:
                file.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(f"file:{file}?mode=rwc", uri=True, isolation_level=None)
            except (OSError, sqlite3.Error) as exc:
                raise StoreError(f"{file}: cannot create the database ({_reason(exc)})") from None
            try:
                _create(db)
            except sqlite3.Error as exc:
                db.close()
                raise StoreError(f"{file}: cannot create the database ({_reason(exc)})") from None
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA foreign_keys=ON")
            cap = _size_cap()
            if cap is not None:  # keep the journal well under a file-size cap (ulimit -f)
                page = int(db.execute("PRAGMA page_size").fetchone()[0])
                db.execute(f"PRAGMA wal_autocheckpoint={max(8, min(1000, cap // page // 4))}")
        except sqlite3.Error as exc:
            db.close()
            raise StoreError(f"{file}: cannot use the database ({_reason(exc)})") from None
        return cls(db, name, server)

    def close(self) -> None:
        self._db.close()

    @property
    def in_memory(self) -> bool:
        return self.path == MEMORY

    # --- writes -----------------------------------------------------------------------------

    @contextmanager
    def _write(self, single: bool = False) -> Iterator[sqlite3.Connection]:
        """One transaction: committed at the end, rolled back (and reported) on failure.

        ``single``: the block runs one statement, which SQLite commits by itself (no
        BEGIN/COMMIT round trips: the common case of an applied action).
        """
        db = self._db
        try:
            if not single:
                db.execute("BEGIN IMMEDIATE")
            yield db
            if not single:
                db.execute("COMMIT")
        except sqlite3.Error as exc:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise self._write_failed(exc) from None

    def _write_failed(self, exc: sqlite3.Error) -> StorageFailed:
        """What a failed write means; first it makes what room it can, so that the next
        write may succeed: the journal's frames go into the database file and the journal is
        emptied (a journal stuck at a file-size cap would otherwise fail every write)."""
        failure = _failed(exc)
        with contextlib.suppress(sqlite3.Error):
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        if not failure.full and not self.in_memory:
            cap = _size_cap()
            sizes = [_size(self.path + suffix) for suffix in ("", "-wal")]
            if cap is not None and max(sizes) + 64 * 1024 >= cap:
                failure.full = True  # the file-size cap, reported as an I/O error
        return failure

    def next_table_id(self) -> int:
        """One more than any table id this database ever handed out: a table that closed
        before it started is deleted, but its id is remembered (``meta.last_table_id``), so
        that a restarted server never numbers a new table like one a console keeps a seat
        at."""
        row = self._db.execute(
            "SELECT MAX(COALESCE((SELECT MAX(id) FROM tables), 0),"
            " COALESCE((SELECT CAST(value AS INTEGER) FROM meta WHERE key='last_table_id'), 0))"
        ).fetchone()
        return int(row[0] or 0) + 1

    def table_opened(self, t: Any) -> None:
        """A new table (``server.table.Table``): game, options and how it seats people."""
        with self._write() as db:
            db.execute(
                "INSERT INTO tables (id, game, edition, players, options, seating, autostart,"
                " creator, state, created, timer, bank) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    t.id,
                    t.game.name,
                    getattr(t.game, "edition", ""),
                    t.players,
                    _json(t.options),
                    t.seating,
                    int(t.autostart),
                    t.creator,
                    WAITING,
                    t.created_at,
                    t.timer.decision if t.timer else 0,
                    t.timer.bank if t.timer else 0,
                ),
            )
            db.execute(
                "INSERT INTO meta VALUES ('last_table_id', ?) ON CONFLICT(key) DO UPDATE"
                " SET value=excluded.value WHERE CAST(value AS INTEGER) < CAST(excluded.value"
                " AS INTEGER)",
                (str(t.id),),
            )

    def place_saved(self, table_id: int, place: Any) -> None:
        """A place was taken, or its tokens, seat or holder (person or bot) changed."""
        with self._write() as db:
            _save_place(db, table_id, place)

    def tokens_saved(
        self, table_id: int, slot: int, token_hash: str, previous_hash: str | None
    ) -> None:
        """A place's tokens were rotated (``resume``): the new one, and the one still good
        until the client confirms it has the new one."""
        with self._write(single=True) as db:
            db.execute(
                "UPDATE places SET token_hash=?, previous_hash=? WHERE table_id=? AND slot=?",
                (token_hash, previous_hash, table_id, slot),
            )

    def place_freed(self, table_id: int, slot: int) -> None:
        with self._write() as db:
            db.execute("DELETE FROM places WHERE table_id=? AND slot=?", (table_id, slot))

    def table_started(self, t: Any, seed: int, at: float) -> None:
        """The game began with ``seed``; every place now has its engine seat."""
        with self._write() as db:
            db.execute(
                "UPDATE tables SET state=?, seed=?, started=? WHERE id=?",
                (PLAYING, seed, at, t.id),
            )
            for place in t.held:
                _save_place(db, t.id, place)
            # Who sat where at the start, for records (`bot` changes with a takeover).
            db.execute("UPDATE places SET first_bot=bot WHERE table_id=?", (t.id,))

    def action(
        self,
        table_id: int,
        version: int,
        seat: int,
        action: Any,
        at: float,
        result: dict[str, Any] | None = None,
        banks: list[float] | None = None,
    ) -> None:
        """An applied action (and, with ``result``, the end of the game it brought); ``banks``:
        each seat's bank of the turn clock once it is played."""
        row = (table_id, version, seat, _json(action), at, None if banks is None else _json(banks))
        if result is None:  # one statement, which SQLite commits by itself: the common case
            try:
                self._db.execute(_INSERT_ACTION, row)
            except sqlite3.Error as exc:
                raise _failed(exc) from None
            return
        with self._write() as db:
            db.execute(_INSERT_ACTION, row)
            db.execute(
                "UPDATE tables SET state=?, finished=?, result=? WHERE id=?",
                (FINISHED, at, _json(result), table_id),
            )

    def undo(self, table_id: int, version: int) -> None:
        """The last action (``version``: its index, from 0) was taken back: it is forgotten,
        so a restart and the game's record replay only the actions that stand."""
        with self._write() as db:
            db.execute("DELETE FROM actions WHERE table_id=? AND version=?", (table_id, version))
            # Counted, so that the version a restart gives the table is not one clients saw.
            db.execute("UPDATE tables SET undos=undos+1 WHERE id=?", (table_id,))

    def takeover(self, table_id: int, place: Any, version: int, level: str, at: float) -> None:
        """A bot took over ``place``'s seat during the game."""
        with self._write() as db:
            _save_place(db, table_id, place)
            db.execute(
                "INSERT INTO takeovers (table_id, seat, version, level, at) VALUES (?,?,?,?,?)",
                (table_id, place.seat, version, level, at),
            )

    def table_closed(self, table_id: int) -> None:
        """The lobby closed the table: a game never started is forgotten, an unfinished one is
        kept as ``closed`` (not restored), a finished one stays as it is."""
        with self._write() as db:
            row = db.execute("SELECT state FROM tables WHERE id=?", (table_id,)).fetchone()
            if row is None:
                return
            if row[0] == WAITING:
                db.execute("DELETE FROM tables WHERE id=?", (table_id,))
            elif row[0] == PLAYING:
                db.execute("UPDATE tables SET state=? WHERE id=?", (CLOSED, table_id))

    def forget(self, table_id: int) -> None:
        """Delete everything kept of a table (for a host that keeps its games elsewhere, like a
        tournament's, whose in-memory database would otherwise grow with every game)."""
        kept = self._finished.pop(table_id, None)
        if kept is not None:
            self._finished_bytes -= len(kept[1])
        with self._write() as db:
            for name in ("actions", "places", "takeovers"):  # (no cascade without foreign_keys)
                db.execute(f"DELETE FROM {name} WHERE table_id=?", (table_id,))
            db.execute("DELETE FROM tables WHERE id=?", (table_id,))

    def set_aside(self, table_id: int, reason: str) -> None:
        """The table's record no longer replays: keep it, but never restore it again."""
        with self._write() as db:
            db.execute(
                "UPDATE tables SET state=?, reason=? WHERE id=?", (SET_ASIDE, reason, table_id)
            )

    # --- reads ------------------------------------------------------------------------------

    def unfinished(self) -> list[SavedTable]:
        """Every waiting or playing table, oldest first, with its places and actions."""
        db = self._db
        tables = []
        rows = db.execute(
            "SELECT id, game, edition, players, options, seating, autostart, creator, state,"
            " seed, created, timer, bank, undos FROM tables WHERE state IN (?, ?) ORDER BY id",
            (WAITING, PLAYING),
        ).fetchall()
        for row in rows:
            saved = SavedTable(
                id=row[0],
                game=row[1],
                edition=row[2],
                players=row[3],
                options=json.loads(row[4]),
                seating=row[5],
                autostart=bool(row[6]),
                creator=row[7],
                state=row[8],
                seed=row[9],
                created=row[10],
                timer=row[11],
                bank=row[12],
                undos=row[13],
            )
            saved.places = [
                SavedPlace(*p)
                for p in db.execute(
                    "SELECT slot, seat, name, token_hash, previous_hash, bot FROM places"
                    " WHERE table_id=? ORDER BY slot",
                    (saved.id,),
                )
            ]
            rows = db.execute(
                "SELECT seat, action, banks FROM actions WHERE table_id=? ORDER BY version",
                (saved.id,),
            ).fetchall()
            saved.actions = [(seat, json.loads(action)) for seat, action, _ in rows]
            if rows and rows[-1][2] is not None:
                saved.banks = json.loads(rows[-1][2])
            tables.append(saved)
        return tables

    def history(self, limit: int, before: int | None = None) -> tuple[list[dict[str, Any]], bool]:
        """The most recently finished games (newest first), and whether there are more.

        ``before``: only tables with a smaller id (the next page after the last one shown).
        """
        query = "SELECT id, game, players, finished, result FROM tables WHERE state=?"
        params: list[Any] = [FINISHED]
        if before is not None:
            query += " AND id<?"
            params.append(before)
        query += " ORDER BY id DESC LIMIT ?"
        params.append(limit + 1)
        rows = self._db.execute(query, params).fetchall()
        games = []
        for table_id, game, players, finished, result in rows[:limit]:
            seats = self._seats(table_id)
            outcome = json.loads(result)
            games.append(
                {
                    "table": table_id,
                    "game": game,
                    "players": players,
                    "seats": [s["name"] for s in seats],
                    "bots": [s["bot"] for s in seats],
                    "scores": outcome["scores"],
                    "ranking": outcome["ranking"],
                    "finished": iso_time(finished),
                }
            )
        return games, len(rows) > limit

    def state_of(self, table_id: int) -> str | None:
        row = self._db.execute("SELECT state FROM tables WHERE id=?", (table_id,)).fetchone()
        return None if row is None else str(row[0])

    def finished_record(self, table_id: int) -> tuple[dict[str, Any], bytes] | None:
        """The record of the finished game at ``table_id`` and its msgpack bytes, or None if
        there is none. A finished game's record never changes: the last ones asked for are
        kept (up to :data:`RECORDS_KEPT` bytes), so that asking again costs next to nothing."""
        kept = self._finished.get(table_id)
        if kept is not None:
            self._finished.move_to_end(table_id)
            return kept
        if self.state_of(table_id) != FINISHED:
            return None
        record = self.record(table_id)
        if record is None:
            return None
        kept = (record, encode_value(record))
        self._finished[table_id] = kept
        self._finished_bytes += len(kept[1])
        while self._finished_bytes > RECORDS_KEPT and len(self._finished) > 1:
            _, (_, dropped) = self._finished.popitem(last=False)
            self._finished_bytes -= len(dropped)
        return kept

    def record(self, table_id: int) -> dict[str, Any] | None:
        """The record of a started table (see ``docs/records.md``), or None."""
        db = self._db
        row = db.execute(
            "SELECT game, edition, players, options, seed, created, started, finished, result"
            " FROM tables WHERE id=? AND seed IS NOT NULL",
            (table_id,),
        ).fetchone()
        if row is None:
            return None
        game, edition, players, options, seed, created, started, finished, result = row
        actions = [
            {"version": version, "seat": seat, "action": json.loads(action), "at": iso_time(at)}
            for version, seat, action, at in db.execute(
                "SELECT version, seat, action, at FROM actions WHERE table_id=? ORDER BY version",
                (table_id,),
            )
        ]
        takeovers = [
            {"seat": seat, "version": version, "level": level, "at": iso_time(at)}
            for seat, version, level, at in db.execute(
                "SELECT seat, version, level, at FROM takeovers WHERE table_id=? ORDER BY rowid",
                (table_id,),
            )
        ]
        seats = self._seats(table_id)
        return {
            "format": records.FORMAT,
            "format_version": records.FORMAT_VERSION,
            "game": game,
            "edition": edition,
            "players": players,
            "options": json.loads(options),
            "seed": seed,
            "seats": seats,
            "takeovers": takeovers,
            "actions": actions,
            "result": None if result is None else json.loads(result),
            "created": iso_time(created),
            "started": iso_time(started),
            "finished": iso_time(finished),
            "table": table_id,
            "server": self.server,
        }

    def _seats(self, table_id: int) -> list[dict[str, Any]]:
        """Names by engine seat, and the level of each seat's bot at the start (None: a
        person; a bot that took a seat over later is a takeover)."""
        return [
            {"name": name, "bot": bot}
            for name, bot in self._db.execute(
                "SELECT name, first_bot FROM places WHERE table_id=? ORDER BY seat, slot",
                (table_id,),
            )
        ]

    def limit_size(self, pages: int) -> None:
        """Cap the file at ``pages`` pages (tests use it to run out of room like a full disk)."""
        self._db.execute(f"PRAGMA max_page_count = {int(pages)}")

    def page_count(self) -> int:
        return int(self._db.execute("PRAGMA page_count").fetchone()[0])


# --- helpers -------------------------------------------------------------------------------------


_json = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
"""Compact JSON; one encoder for all (``json.dumps`` with these settings builds a new one per
call, a cost on every applied action)."""


_INSERT_ACTION = (
    "INSERT INTO actions (table_id, version, seat, action, at, banks) VALUES (?,?,?,?,?,?)"
)


def _failed(exc: sqlite3.Error) -> StorageFailed:
    full = isinstance(exc, sqlite3.OperationalError) and "full" in str(exc).lower()
    return StorageFailed(f"the server could not save this ({_reason(exc)})", full)


def _save_place(db: sqlite3.Connection, table_id: int, place: Any) -> None:
    db.execute(
        "INSERT INTO places (table_id, slot, seat, name, token_hash, previous_hash, bot)"
        " VALUES (?,?,?,?,?,?,?) ON CONFLICT (table_id, slot) DO UPDATE SET seat=excluded.seat,"
        " name=excluded.name, token_hash=excluded.token_hash,"
        " previous_hash=excluded.previous_hash, bot=excluded.bot",
        (
            table_id,
            place.slot,
            place.seat,
            place.name,
            place.token_hash,
            place.previous_hash,
            place.level,
        ),
    )
