"""Seat tokens kept on disk, so that a client killed mid-game can take its seat back.

A seat token (PROTOCOL.md 6.3, 6.6) takes a held seat back from any connection. A client that
keeps it only in memory loses the seat with its process; :class:`TokenStore` keeps each one in
a small JSON file in the user's state directory (``platformdirs.user_state_dir("cosmoport")``,
on Linux ``$XDG_STATE_HOME/cosmoport``), keyed by server and table::

    {"format": "cosmoport-seat-tokens", "version": 1,
     "servers": {"id:9f0c…": {"3": {"token": "n3Xb…", "name": "Ann",
                                    "game": "cosmic_run", "saved": "2025-…+00:00"}}}}

A server is known by the ``server_id`` of its ``welcome`` (``id:…``, :func:`server_id_key`),
the same whatever address reached it; by its address (``host:port``, :func:`server_key`) only
until it said who it is, or if it is too old to say (:meth:`TokenStore.move`).

The tokens are secrets: the file is created with mode 0600 in a directory of mode 0700, always
whole (a temporary file in the same directory, then ``os.replace``), so a reader never sees half
of it. Every change reads the file again first: two clients of the same person (two terminals)
each keep their own seats without undoing the other's.

Nothing here may cost the person their console: a file that cannot be read or makes no sense is
ignored with a note (and rewritten whole by the next save), a write that fails is a note too.
The store knows nothing of the protocol; :class:`client.net.session.Client` decides when a token
is saved or forgotten.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import platformdirs
from twisted.logger import Logger

FILE_NAME = "seat-tokens.json"
FORMAT = "cosmoport-seat-tokens"
FORMAT_VERSION = 1

_log = Logger()

Servers = dict[str, dict[str, dict[str, str]]]
"""The file's ``servers`` map: server key -> table id (as text) -> the kept seat's fields."""


def default_path() -> Path:
    """Where the seat tokens are kept: ``<user state dir>/cosmoport/seat-tokens.json``."""
    return Path(platformdirs.user_state_dir("cosmoport")) / FILE_NAME


def server_key(host: str, port: int) -> str:
    """The key of a server in the file: ``host:port`` (``[v6 address]:port``), host lowercased."""
    host = host.strip().lower()
    if ":" in host:
        host = f"[{host}]"
    return f"{host}:{port}"


def server_id_key(server_id: str) -> str:
    """The key of a server that said who it is (``welcome.server_id``): ``id:…``."""
    return f"id:{server_id}"


def _utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class KeptSeat:
    """One seat kept on disk: where it is, its token, under which name, of which game."""

    server: str
    table: int
    token: str
    name: str
    game: str
    saved: str
    """When it was saved, ISO 8601 in UTC."""


class TokenStore:
    """The seat tokens of one person, in one JSON file (see the module docstring).

    ``now`` gives the time a seat is saved (injected so tests control which seat is the most
    recent); ``on_note`` receives one line for the person whenever the file cannot be read or
    written (by default the line goes to the log). A note is given once per distinct problem.
    """

    def __init__(
        self,
        path: Path | None = None,
        *,
        now: Callable[[], datetime] = _utc_now,
        on_note: Callable[[str], None] | None = None,
    ) -> None:
        self.path = path if path is not None else default_path()
        self.now = now
        self.on_note = on_note
        self._noted: set[str] = set()

    # --- reading -------------------------------------------------------------------------

    def seats(self, server: str) -> list[KeptSeat]:
        """The seats kept for ``server``, the most recently saved first."""
        kept = [
            KeptSeat(server, int(table), **entry)
            for table, entry in self._load().get(server, {}).items()
        ]
        kept.sort(key=lambda seat: (_when(seat.saved), seat.table), reverse=True)
        return kept

    def seat(self, server: str, table: int) -> KeptSeat | None:
        """The seat kept for ``table`` of ``server``, if any."""
        return next((seat for seat in self.seats(server) if seat.table == table), None)

    # --- changing ------------------------------------------------------------------------

    def save(self, server: str, table: int, token: str, name: str, game: str) -> bool:
        """Keep ``token`` as the seat at ``table`` of ``server`` (replacing any older one).

        False if the file could not be written (the person has been told).
        """
        servers = self._load()
        servers.setdefault(server, {})[str(table)] = {
            "token": token,
            "name": name,
            "game": game,
            "saved": self.now().astimezone(UTC).isoformat(),
        }
        return self._write(servers)

    def forget(self, server: str, table: int) -> bool:
        """Forget the seat at ``table`` of ``server``; True if there was one (and it is gone)."""
        servers = self._load()
        if servers.get(server, {}).pop(str(table), None) is None:
            return False
        if not servers[server]:
            del servers[server]
        return self._write(servers)

    def move(self, old: str, new: str) -> bool:
        """Keep the seats of server key ``old`` under ``new`` (the address a server was reached
        at, once it has said who it is); a table kept under both keeps its more recent seat.
        True if there was anything to move (and it moved)."""
        servers = self._load()
        moving = servers.pop(old, None)
        if not moving or old == new:
            return False
        kept = servers.setdefault(new, {})
        for table, entry in moving.items():
            if table not in kept or _when(entry["saved"]) > _when(kept[table]["saved"]):
                kept[table] = entry
        return self._write(servers)

    def forget_token(self, server: str, token: str) -> list[int]:
        """Forget every seat of ``server`` kept with ``token`` (a token the server refused)."""
        tables = [seat.table for seat in self.seats(server) if seat.token == token]
        for table in tables:
            self.forget(server, table)
        return tables

    # --- the file ------------------------------------------------------------------------

    def _load(self) -> Servers:
        """The file's seats, or none if it is missing, unreadable or not ours (with a note)."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except (OSError, UnicodeDecodeError) as error:
            self._note(f"Cannot read the kept seat tokens in {self.path} ({_reason(error)}).")
            return {}
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if (
            not isinstance(data, dict)
            or data.get("format") != FORMAT
            or not isinstance(data.get("servers"), dict)
        ):
            self._note(
                f"The kept seat tokens in {self.path} make no sense: ignored "
                "(the file is written anew with the next seat)."
            )
            return {}
        if data.get("version") != FORMAT_VERSION:
            self._note(f"The kept seat tokens in {self.path} are of another version: ignored.")
            return {}
        return _valid_seats(data["servers"])

    def _write(self, servers: Servers) -> bool:
        directory = self.path.parent
        temporary = directory / f".{self.path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
        text = json.dumps(
            {"format": FORMAT, "version": FORMAT_VERSION, "servers": servers},
            ensure_ascii=False,
            indent=1,
            sort_keys=True,
        )
        try:
            if not directory.is_dir():
                directory.mkdir(mode=0o700, parents=True, exist_ok=True)
                os.chmod(directory, 0o700)  # mkdir's mode goes through the umask
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as out:
                    out.write(text + "\n")
                    out.flush()
                    os.fsync(out.fileno())
                os.replace(temporary, self.path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
                raise
        except OSError as error:
            self._note(f"Cannot keep the seat tokens in {self.path} ({_reason(error)}).")
            return False
        return True

    def _note(self, text: str) -> None:
        if text in self._noted:
            return
        self._noted.add(text)
        if self.on_note is None:
            _log.warn("{text}", text=text)
            return
        try:
            self.on_note(text)
        except Exception:
            _log.failure("showing a note about the seat tokens")


def _valid_seats(raw: dict[Any, Any]) -> Servers:
    """The well-formed seats of a ``servers`` map (anything else in it is left out)."""
    servers: Servers = {}
    for server, tables in raw.items():
        if not isinstance(server, str) or not isinstance(tables, dict):
            continue
        for table, entry in tables.items():
            if (
                isinstance(table, str)
                and table.isdigit()
                and isinstance(entry, dict)
                and all(isinstance(entry.get(k), str) for k in ("token", "name", "game", "saved"))
                and entry["token"]
            ):
                fields = {k: entry[k] for k in ("token", "name", "game", "saved")}
                servers.setdefault(server, {})[str(int(table))] = fields
    return servers


def _when(text: str) -> datetime:
    """A saved time for sorting (an unreadable one sorts as the oldest)."""
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return datetime.min.replace(tzinfo=UTC)
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__
