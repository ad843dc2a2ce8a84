"""The programs of ``cmd:`` entrants as operating-system processes: started for a game (or kept
running between games), watched, and stopped without leaving anything behind.

What a program sees (its command's placeholders, its environment, the reuse protocol on stdin)
is described in :mod:`tournament.host`, which decides when to start and stop them; this module
only does it. Each program runs in a process group of its own, so that stopping it also stops
whatever it started (a shell script's children): first ``SIGTERM``, then ``SIGKILL``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, Any

from twisted.internet import task

from protocol import BOT_TOKEN_VARIABLE

GRACE = 1.0
"""Seconds a program has to end by itself once its game is over, before it is terminated."""
TERM_GRACE = 2.0
"""Seconds between ``SIGTERM`` and ``SIGKILL``."""
POLL_EVERY = 0.05

REUSE_VARIABLE = "COSMOPORT_REUSE"
PLACEHOLDERS = ("server", "host", "port", "table", "seat", "game")
_PLACEHOLDER = re.compile(r"\{(" + "|".join(PLACEHOLDERS) + r")\}")
_PER_GAME = (
    "COSMOPORT_SERVER",
    "COSMOPORT_HOST",
    "COSMOPORT_PORT",
    "COSMOPORT_TABLE",
    "COSMOPORT_SEAT",
    "COSMOPORT_GAME",
    "COSMOPORT_SECONDS",
    "COSMOPORT_TIMEOUT",
    BOT_TOKEN_VARIABLE,
)
_TAIL = 4096  # bytes of a log read back for its last line


@dataclass(frozen=True)
class Seating:
    """Where one program plays one game."""

    host: str
    port: int
    table: int
    seat: int
    game: str
    token: str
    timeout: float

    def values(self) -> dict[str, str]:
        """The placeholders' values."""
        return {
            "server": f"{self.host}:{self.port}",
            "host": self.host,
            "port": str(self.port),
            "table": str(self.table),
            "seat": str(self.seat),
            "game": self.game,
        }

    def environment(self) -> dict[str, str]:
        """The variables a program started for this game gets."""
        env = {f"COSMOPORT_{key.upper()}": value for key, value in self.values().items()}
        env["COSMOPORT_SECONDS"] = env["COSMOPORT_TIMEOUT"] = f"{self.timeout:g}"
        env[BOT_TOKEN_VARIABLE] = self.token
        return env

    def line(self) -> bytes:
        """The game as the one JSON line a kept program reads from its stdin."""
        values = self.values()
        game = {
            "server": values["server"],
            "host": self.host,
            "port": self.port,
            "table": self.table,
            "seat": self.seat,
            "game": self.game,
            "token": self.token,
            "timeout": self.timeout,
        }
        return json.dumps(game).encode() + b"\n"


def substitute(command: Sequence[str], values: dict[str, str]) -> list[str]:
    """``command`` with the placeholders ``{server}``, ``{host}``... replaced in every argument;
    any other braces stay as they are."""
    return [_PLACEHOLDER.sub(lambda m: values[m.group(1)], arg) for arg in command]


def exit_text(status: int) -> str:
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = "a signal"
        return f"killed by signal {-status} ({name})"
    return f"exited with status {status}"


class Program:
    """One running program: its process (the leader of its own process group) and its log."""

    def __init__(self, popen: subprocess.Popen[bytes], log: IO[bytes] | None) -> None:
        self.popen = popen
        self.log = log

    @property
    def pid(self) -> int:
        return self.popen.pid

    def poll(self) -> int | None:
        """Its exit status once it has ended (negative: the signal), else None.

        The ended process is left unreaped (until :meth:`reap`): while its zombie holds its
        pid, signalling its process group cannot reach a stranger's."""
        if self.popen.returncode is not None:
            return self.popen.returncode
        if not hasattr(os, "waitid"):
            return self.popen.poll()
        try:
            info = os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return self.popen.poll()
        if info is None:
            return None
        if info.si_code == os.CLD_EXITED:
            return int(info.si_status)
        return -int(info.si_status)

    def last_line(self) -> str:
        """The last line it wrote to its log (stderr and stdout), or ''."""
        if self.log is None:
            return ""
        try:
            fd = self.log.fileno()
            size = os.fstat(fd).st_size
            tail = os.pread(fd, _TAIL, max(0, size - _TAIL))
        except (OSError, ValueError):
            return ""
        lines = [line.strip() for line in tail.decode("utf-8", "replace").splitlines()]
        lines = [line for line in lines if line]
        return lines[-1][:200] if lines else ""

    def describe_exit(self) -> str:
        """Why it is gone, for a ``crash`` forfeit: its exit status and its last words."""
        status = self.poll()
        text = "is still running" if status is None else exit_text(status)
        last = self.last_line()
        return f"{text}: {last}" if last else text

    def signal(self, number: int) -> None:
        """Send signal ``number`` to its whole process group (what it started included)."""
        if self.popen.returncode is not None:
            return  # reaped: its pid may be someone else's now
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if hasattr(os, "killpg"):
                os.killpg(self.pid, number)
            else:  # no process groups here: the program alone
                self.popen.send_signal(number)

    def reap(self) -> None:
        """Once it has ended: kill what it left running in its group, collect its status, close
        its log."""
        if self.popen.returncode is None:
            self.signal(signal.SIGKILL)
            self.popen.wait()
        if self.log is not None:
            with contextlib.suppress(OSError):
                self.log.close()


def start(command: Sequence[str], seating: Seating, log: IO[bytes] | None) -> Program:
    """Start ``command`` for one game: placeholders substituted, the game in its environment,
    stdin empty, stdout and stderr to ``log`` (a temporary file if None, for its last line).
    Raises OSError if it cannot be started."""
    argv = substitute(command, seating.values())
    output = log if log is not None else tempfile.TemporaryFile()  # noqa: SIM115
    try:
        popen = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=output,
            env={**os.environ, **seating.environment()},
            start_new_session=True,
        )
    except BaseException:
        output.close()
        raise
    return Program(popen, output)


class KeptProgram(Program):
    """A program kept running between games (``cmd[reuse]:``): each game is one JSON line on
    its stdin. What it writes goes to the log of its current game (read by a thread)."""

    def __init__(self, popen: subprocess.Popen[bytes]) -> None:
        super().__init__(popen, None)
        self._lock = threading.Lock()
        self._last = ""
        self._reader = threading.Thread(
            target=self._read, name=f"cosmoport-program-{popen.pid}", daemon=True
        )
        self._reader.start()

    @classmethod
    def start(cls, command: Sequence[str]) -> KeptProgram:
        """Start ``command`` (as written: its games come on stdin). Raises OSError."""
        env = {k: v for k, v in os.environ.items() if k not in _PER_GAME}
        env[REUSE_VARIABLE] = "1"
        popen = subprocess.Popen(
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )
        return cls(popen)

    def hand(self, seating: Seating, log: IO[bytes] | None) -> None:
        """Give it a game; from now on its output goes to ``log``. OSError if it is gone."""
        with self._lock:
            if self.log is not None:
                self.log.close()
            self.log = log
        stdin = self.popen.stdin
        assert stdin is not None
        stdin.write(seating.line())
        stdin.flush()

    def last_line(self) -> str:
        return self._last

    def end_input(self) -> None:
        """EOF on its stdin: no more games."""
        with contextlib.suppress(OSError, ValueError):
            if self.popen.stdin is not None:
                self.popen.stdin.close()

    def _read(self) -> None:
        output = self.popen.stdout
        assert output is not None
        for line in output:
            text = line.decode("utf-8", "replace").strip()
            with self._lock:
                if text:
                    self._last = text[:200]
                if self.log is not None:
                    with contextlib.suppress(OSError, ValueError):
                        self.log.write(line)
                        self.log.flush()

    def reap(self) -> None:
        self.end_input()
        if self.popen.returncode is None:
            self.signal(signal.SIGKILL)
            self.popen.wait()
        self._reader.join(1.0)
        with self._lock:
            if self.log is not None:
                with contextlib.suppress(OSError):
                    self.log.close()
                self.log = None


class Programs:
    """The programs one process runs: those started for a game, and the kept ones, idle
    (by entrant) or busy."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: set[Program] = set()
        self._idle: dict[Any, list[KeptProgram]] = {}

    def start(self, command: Sequence[str], seating: Seating, log: IO[bytes] | None) -> Program:
        program = start(command, seating, log)
        with self._lock:
            self._running.add(program)
        return program

    def take(
        self, key: Any, command: Sequence[str], seating: Seating, log: IO[bytes] | None
    ) -> KeptProgram:
        """An idle kept program of entrant ``key`` (or a new one) playing ``seating``'s game.
        One that has ended since its last game is replaced. Raises OSError if none starts."""
        while True:
            with self._lock:
                idle = self._idle.get(key, [])
                program = idle.pop() if idle else None
            if program is None:
                break
            if program.poll() is None:
                with contextlib.suppress(OSError):  # it ended just now: replaced
                    program.hand(seating, log)
                    return program
            program.reap()
            self.discard(program)
        program = KeptProgram.start(command)
        with self._lock:
            self._running.add(program)
        with contextlib.suppress(OSError):  # ended at once: the host sees it as a crash
            program.hand(seating, log)
        return program

    def give_back(self, key: Any, program: KeptProgram) -> None:
        """``program`` played its game to the end: idle again (or gone, if it has ended)."""
        if program.poll() is not None:
            self.discard(program)
            return
        with self._lock:
            self._idle.setdefault(key, []).append(program)

    def discard(self, program: Program) -> None:
        """Forget ``program``, which has ended (or been stopped)."""
        with self._lock:
            self._running.discard(program)
            for idle in self._idle.values():
                if program in idle:
                    idle.remove(program)

    async def end(self, clock: Any, programs: Sequence[Program], grace: float = GRACE) -> None:
        """Let ``programs`` end by themselves within ``grace`` seconds, then terminate them (and
        kill them ``TERM_GRACE`` seconds later); without blocking ``clock``'s reactor."""
        left = list(programs)
        for number, wait in ((None, grace), (signal.SIGTERM, TERM_GRACE)):
            if number is not None:
                for program in left:
                    program.signal(number)
            deadline = clock.seconds() + wait
            while left and clock.seconds() < deadline:
                await task.deferLater(clock, POLL_EVERY, lambda: None)
                left = [p for p in left if p.poll() is None]
        for program in programs:
            program.reap()
            self.discard(program)

    def close(self) -> None:
        """Stop every program this process runs, blocking: EOF to the kept ones, a moment to
        end by themselves, then ``SIGTERM`` and ``SIGKILL``."""
        with self._lock:
            programs = list(self._running)
            self._idle.clear()
        for program in programs:
            if isinstance(program, KeptProgram):
                program.end_input()
        for number, wait in ((None, GRACE), (signal.SIGTERM, TERM_GRACE)):
            if number is not None:
                for program in programs:
                    if program.poll() is None:
                        program.signal(number)
            deadline = time.monotonic() + wait
            while any(p.poll() is None for p in programs) and time.monotonic() < deadline:
                time.sleep(POLL_EVERY)
        for program in programs:
            program.reap()
            self.discard(program)
