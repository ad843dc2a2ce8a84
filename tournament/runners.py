"""Where a tournament's games are played: worker processes here, or a Dask cluster.

A runner takes :class:`~tournament.game.GameJob` s and hands back ``(job, result)`` pairs as
games finish, in whatever order they finish; ``result`` is the game's result dict, or the
exception that playing it raised (a failure of ours, never a bot's: a bot's problems are
forfeits inside the result). The director keeps at most :attr:`Runner.capacity` jobs in flight,
so stopping early (a decided SPRT, Ctrl-C) wastes little.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
import signal
from typing import Any, Protocol

from tournament.game import GameJob, play


class RunnerGone(Exception):
    """The runner cannot go on (e.g. the Dask scheduler went away); games in flight are lost,
    committed ones are kept."""


class Runner(Protocol):
    capacity: int
    """How many games to keep in flight."""
    description: str

    def submit(self, job: GameJob) -> None: ...

    def next_result(self) -> tuple[GameJob, dict[str, Any] | BaseException]:
        """Block until a game finishes; raises :class:`RunnerGone` if none ever will."""
        ...

    def stop(self) -> None:
        """Stop at once; games in flight are abandoned."""
        ...


def _start_worker() -> None:
    # Ctrl-C reaches the whole process group: the director alone decides what happens then.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # The director stops its workers with SIGTERM, which skips atexit: the programs a worker
    # started (each in a process group of its own) must not outlive it.
    signal.signal(signal.SIGTERM, _stop_worker)


def _stop_worker(number: int, frame: Any) -> None:
    from tournament.host import close_programs

    close_programs()
    os._exit(0)


class InlineRunner:
    """Games one at a time in this very process: no start-up cost (``--workers 1``)."""

    capacity = 1
    description = "this process (1 worker)"

    def __init__(self) -> None:
        self._queue: list[GameJob] = []

    def submit(self, job: GameJob) -> None:
        self._queue.append(job)

    def next_result(self) -> tuple[GameJob, dict[str, Any] | BaseException]:
        job = self._queue.pop(0)
        try:
            return job, play(job)
        except Exception as error:  # a failure of ours in one game: the others go on
            return job, error

    def stop(self) -> None:
        self._queue.clear()


class LocalRunner:
    """Games in ``workers`` processes of this machine (``spawn``ed: clean, no inherited threads)."""

    def __init__(self, workers: int) -> None:
        self.capacity = max(1, workers) * 2
        self.workers = max(1, workers)
        self.description = f"{self.workers} worker process{'es' if self.workers != 1 else ''}"
        context = multiprocessing.get_context("spawn")
        self._pool = context.Pool(self.workers, initializer=_start_worker)
        self._done: queue.Queue[tuple[GameJob, Any]] = queue.Queue()

    def submit(self, job: GameJob) -> None:
        self._pool.apply_async(
            play,
            (job,),
            callback=lambda result: self._done.put((job, result)),
            error_callback=lambda error: self._done.put((job, error)),
        )

    def next_result(self) -> tuple[GameJob, dict[str, Any] | BaseException]:
        return self._done.get()

    def stop(self) -> None:
        self._pool.terminate()
        self._pool.join()


class DaskRunner:
    """Games as tasks of a ``dask.distributed`` cluster; results come back to this process.

    Every worker needs Cosmoport installed (and the programs of ``cmd:`` entrants at the same
    paths). ``pip install 'cosmoport[cluster]'`` gives the ``distributed`` package.
    """

    def __init__(self, address: str, timeout: float = 10.0) -> None:
        try:
            from distributed import Client, as_completed
        except ImportError:
            raise RunnerGone(
                "--dask needs the distributed package: pip install 'cosmoport[cluster]'"
            ) from None
        try:
            self.client = Client(address, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError) as error:
            raise RunnerGone(f"cannot reach the Dask scheduler at {address}: {error}") from None
        self.address = address
        threads = sum(self.client.nthreads().values()) or 1
        self.capacity = threads * 2
        self.description = f"the Dask cluster at {address} ({threads} threads)"
        self._pending = as_completed(loop=self.client.loop, with_results=False)
        self._jobs: dict[Any, GameJob] = {}

    def submit(self, job: GameJob) -> None:
        future = self.client.submit(play, job, pure=False, key=f"cosmoport-game-{job.number}")
        self._jobs[future.key] = job
        self._pending.add(future)

    def next_result(self) -> tuple[GameJob, dict[str, Any] | BaseException]:
        try:
            future = next(self._pending)
        except StopIteration:
            raise RunnerGone("the Dask cluster has no game left to finish") from None
        job = self._jobs.pop(future.key)
        try:
            return job, future.result()
        except (OSError, TimeoutError) as error:
            raise RunnerGone(f"the Dask scheduler at {self.address} went away ({error})") from None
        except Exception as error:
            if self.client.status != "running":
                raise RunnerGone(f"the Dask scheduler at {self.address} went away") from None
            return job, error

    def stop(self) -> None:
        with contextlib.suppress(Exception):  # a scheduler already gone: nothing to close
            self.client.close(timeout=5)


def default_workers() -> int:
    return os.cpu_count() or 1
