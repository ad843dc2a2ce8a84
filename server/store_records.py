"""Reading a game's record straight from a server's database file (``cosmoport replay --db``),
read-only: a running server may keep writing to it."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

from server.store import FINISHED, Store
from server.store_file import APPLICATION_ID, SCHEMA_VERSION, StoreError, _reason


def load_record(path: str | os.PathLike[str], table_id: int | None = None) -> dict[str, Any]:
    """The record of the game at ``table_id`` in the database at ``path`` (None: the most
    recently finished game), opened read-only: a running server may keep writing to it.

    Raises :class:`StoreError` (one line) for a file that is not a Cosmoport database and for
    a game it does not hold. A game that has not ended is given too (the file's owner sees
    everything anyway); its ``result`` is None.
    """
    file = Path(path)
    try:
        db = sqlite3.connect(f"file:{file}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise StoreError(f"{file}: cannot open the database ({_reason(exc)})") from None
    try:
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        if app_id != APPLICATION_ID:
            raise StoreError(f"{file} is not a Cosmoport database")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(f"{file} was written by a newer Cosmoport (database format {version})")
        if table_id is None:
            row = db.execute(
                "SELECT id FROM tables WHERE state=? ORDER BY finished DESC, id DESC LIMIT 1",
                (FINISHED,),
            ).fetchone()
            if row is None:
                raise StoreError(f"{file} holds no finished game yet")
            table_id = int(row[0])
        record = Store(db, str(file)).record(table_id)
        if record is None:
            raise StoreError(f"{file} holds no game of table {table_id}")
        return record
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{file} cannot be read ({_reason(exc)})") from None
    finally:
        db.close()
