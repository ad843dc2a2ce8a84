"""The database file itself: its format (schema, format version, migrations) and the checks
that make :meth:`server.store.Store.open` refuse, with one line, a file it must not touch (not
SQLite, another program's, a newer Cosmoport's, damaged, read-only); and the size limits of the
process writing it."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

APPLICATION_ID = 0x436F5350  # "CoSP": marks the file as Cosmoport's (PRAGMA application_id)

SCHEMA_VERSION = 3  # PRAGMA user_version; a newer file is refused, never rewritten
# What takes a file of an older format to the next one, in one transaction each. Format 2: the
# turn timer of each table (tables opened before it have none). Format 3: how many actions each
# table took back (its version is its moves plus twice its undos), the turn clock's banks after
# each action (a restart gives back the banks, not full ones) and the server's id.
_MIGRATIONS = {
    1: "ALTER TABLE tables ADD COLUMN timer INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE tables ADD COLUMN bank INTEGER NOT NULL DEFAULT 0;",
    2: "ALTER TABLE tables ADD COLUMN undos INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE actions ADD COLUMN banks TEXT;"
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);",
}

MEMORY = ":memory:"
_SQLITE_MAGIC = b"SQLite format 3\x00"

_SCHEMA = """
CREATE TABLE tables (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    edition TEXT NOT NULL,
    players INTEGER NOT NULL,
    options TEXT NOT NULL,
    seating TEXT NOT NULL,
    autostart INTEGER NOT NULL,
    creator TEXT NOT NULL,
    state TEXT NOT NULL,
    seed INTEGER,
    created REAL NOT NULL,
    started REAL,
    finished REAL,
    result TEXT,
    reason TEXT,
    timer INTEGER NOT NULL DEFAULT 0,
    bank INTEGER NOT NULL DEFAULT 0,
    undos INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE places (
    table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    slot INTEGER NOT NULL,
    seat INTEGER,
    name TEXT NOT NULL,
    token_hash TEXT,
    previous_hash TEXT,
    bot TEXT,
    first_bot TEXT,
    PRIMARY KEY (table_id, slot)
);
CREATE TABLE actions (
    table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    banks TEXT,
    PRIMARY KEY (table_id, version)
) WITHOUT ROWID;
CREATE TABLE takeovers (
    table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    version INTEGER NOT NULL,
    level TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX finished_tables ON tables (state, finished);
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


class StoreError(Exception):
    """The database cannot be used; ``str()`` is one line for the person starting the server."""


def _size_cap() -> int | None:
    """The largest file this process may write (``ulimit -f``), None if unlimited (or on a
    system without such limits)."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    soft, _hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    return None if soft == resource.RLIM_INFINITY else int(soft)


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _reason(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def _create(db: sqlite3.Connection) -> None:
    """Set up an empty database: the schema and the marks that make it ours, in one go."""
    create_schema(db, _SCHEMA, APPLICATION_ID, SCHEMA_VERSION)


def create_schema(db: sqlite3.Connection, schema: str, application_id: int, version: int) -> None:
    """Create ``schema`` in an empty database and mark it (application id, version) at once."""
    try:
        db.executescript(
            "BEGIN IMMEDIATE;"
            + schema
            + f"PRAGMA application_id = {application_id};"
            + f"PRAGMA user_version = {version};"
            + "COMMIT;"
        )
    except sqlite3.Error:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


def _open_existing(file: Path) -> sqlite3.Connection:
    """Open a file that exists, after checking that it is a usable Cosmoport database, and
    bring an older format up to this one."""
    db = open_existing(
        file,
        application_id=APPLICATION_ID,
        version=SCHEMA_VERSION,
        create=_create,
        what="a Cosmoport database",
        read_only_hint="the server writes every move there; choose another file with --db, "
        "or --db :memory: to keep nothing",
    )
    try:
        found = db.execute("PRAGMA user_version").fetchone()[0]
        for version in range(found, SCHEMA_VERSION):
            db.executescript(
                f"BEGIN IMMEDIATE;{_MIGRATIONS[version]}PRAGMA user_version = {version + 1};COMMIT;"
            )
    except sqlite3.Error as exc:
        if db.in_transaction:
            db.execute("ROLLBACK")
        db.close()
        raise StoreError(f"{file}: cannot bring it up to format {SCHEMA_VERSION} "
                         f"({_reason(exc)}); left as it is") from None  # fmt: skip
    return db


def open_existing(
    file: Path,
    *,
    application_id: int,
    version: int,
    create: Callable[[sqlite3.Connection], None],
    what: str,
    read_only_hint: str,
) -> sqlite3.Connection:
    """Open an SQLite file that exists for writing, after checking it is ``what`` we expect:
    our application id, a format version we read, not damaged, writable. An empty file is set up
    with ``create``. Anything else is a one-line :class:`StoreError`, and the file is left as
    it is."""
    try:
        with file.open("rb") as handle:
            head = handle.read(len(_SQLITE_MAGIC))
    except OSError as exc:
        raise StoreError(f"{file}: cannot read it ({_reason(exc)})") from None
    if head and head != _SQLITE_MAGIC:
        raise StoreError(f"{file} is not {what} (not an SQLite file); left as it is")
    if not os.access(file, os.W_OK) or not os.access(file.parent, os.W_OK):
        raise StoreError(f"{file} is read-only ({read_only_hint})")
    try:
        db = sqlite3.connect(f"file:{file}?mode=rw", uri=True, isolation_level=None)
    except sqlite3.Error as exc:
        raise StoreError(f"{file}: cannot open the database ({_reason(exc)})") from None
    try:
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        found = db.execute("PRAGMA user_version").fetchone()[0]
        has_tables = db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]
        if not head or (app_id == 0 and found == 0 and has_tables == 0):
            create(db)  # an empty file: ours to set up
            return db
        if app_id != application_id:
            raise StoreError(f"{file} is not {what} (an SQLite file of another program or "
                             "another kind); left as it is")  # fmt: skip
        if found > version:
            raise StoreError(
                f"{file} was written by a newer Cosmoport (database format {found}; this one "
                f"reads up to {version}); left as it is"
            )
        check = db.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise StoreError(f"{file} is damaged ({check}); left as it is")
        db.execute("BEGIN IMMEDIATE")  # can we write at all (a read-only file system)?
        db.execute("ROLLBACK")
    except sqlite3.DatabaseError as exc:
        db.close()
        raise StoreError(f"{file} cannot be used ({_reason(exc)}); left as it is") from None
    except StoreError:
        db.close()
        raise
    return db
