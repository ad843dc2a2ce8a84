"""Game records on the person's disk: where they go, and writing one whole or as a line.

A record (the format of :mod:`games.records`, documented in ``docs/records.md``) comes from the
server's ``record`` reply after a game's end; the client only moves it around. It is written as
UTF-8 compact JSON: a file of its own (``save FILE``, or the default name from
:func:`default_path`), or one line appended to a ``.jsonl`` file (``save FILE.jsonl``, and
``cosmoport play``, which keeps every game in ``played.jsonl``). ``cosmoport replay PATH [N]``
replays it, N being the line of a ``.jsonl`` file (1 for the first).

A file of its own is written to a temporary file beside it, then moved over the name: an
existing file is never left half written. An appended line is written in one call, under an
advisory lock where the system has one, so two clients appending at once do not interleave; a
file whose last line was cut short (a crash) gets its line ended first, so that every record
starts a line of its own and line numbers stay true.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shlex
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO

import platformdirs

try:
    import fcntl
except ImportError:  # Windows: appends go unlocked
    fcntl = None  # type: ignore[assignment]

PLAYED_FILE = "played.jsonl"
CHUNK = 1 << 20


def records_dir() -> Path:
    """``<user data dir>/records`` (on Linux ``$XDG_DATA_HOME/cosmoport/records``)."""
    return Path(platformdirs.user_data_dir("cosmoport")) / "records"


def played_path() -> Path:
    """Where ``cosmoport play`` keeps the record of every game it plays."""
    return records_dir() / PLAYED_FILE


def encode(record: dict[str, Any]) -> str:
    """The record as one line of compact JSON (no line break in it)."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def default_path(record: dict[str, Any], table: int, now: datetime | None = None) -> Path:
    """``<records dir>/<YYYYmmdd-HHMMSS>-<game>-table<id>.json``.

    The time is the game's end (the record's ``finished``) in local time, or ``now`` (by default
    the present) if the record does not say.
    """
    when = _finished(record) or now or datetime.now(UTC)
    stamp = when.astimezone().strftime("%Y%m%d-%H%M%S")
    game = re.sub(r"[^A-Za-z0-9_-]+", "_", str(record.get("game") or "game"))[:40]
    return records_dir() / f"{stamp}-{game}-table{table}.json"


def write(record: dict[str, Any], path: Path) -> int | None:
    """Write ``record`` to ``path``: appended as a line to a ``.jsonl`` file, else the whole file.

    Returns the 1-based line number of an appended record (None for a file of its own). Raises
    ``OSError`` if it cannot be written; nothing that was there before is lost then.
    """
    if path.suffix.lower() == ".jsonl":
        return append(record, path)
    temporary = path.parent / f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    try:
        with open(temporary, "x", encoding="utf-8") as out:
            out.write(encode(record) + "\n")
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return None


def append(record: dict[str, Any], path: Path) -> int:
    """Append ``record`` as one line of ``path`` (created if missing); its 1-based line number."""
    line = (encode(record) + "\n").encode("utf-8")
    with open(path, "a+b", buffering=0) as out:
        if fcntl is not None:
            fcntl.flock(out.fileno(), fcntl.LOCK_EX)  # released when the file is closed
        lines, ended = _count_lines(out)
        if not ended:
            line = b"\n" + line  # end a line cut short, so ours starts one of its own
            lines += 1
        _write_all(out, line)
    return lines + 1


def replay_command(path: Path, line: int | None = None) -> str:
    """The command that replays ``path`` (its line ``line`` in a ``.jsonl`` file)."""
    command = f"cosmoport replay {shlex.quote(str(path))}"
    return command if line is None else f"{command} {line}"


def _finished(record: dict[str, Any]) -> datetime | None:
    text = record.get("finished")
    if not isinstance(text, str):
        return None
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _count_lines(stream: BinaryIO) -> tuple[int, bool]:
    """(complete lines in the file, whether it is empty or ends with a line break)."""
    stream.seek(0)
    lines, last = 0, b"\n"
    while chunk := stream.read(CHUNK):
        lines += chunk.count(b"\n")
        last = chunk[-1:]
    return lines, last == b"\n"


def _write_all(stream: BinaryIO, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = stream.write(view)
        view = view[written or 0 :]
        if not written:
            raise OSError("the record could not be written")
    os.fsync(stream.fileno())
