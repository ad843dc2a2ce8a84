"""Past one machine: games as tasks of a dask.distributed cluster (here a LocalCluster of two
worker processes on loopback), results in the same database, resumable when the cluster goes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tournament.director import Director, Event
from tournament.entrants import parse_all
from tournament.runners import DaskRunner, InlineRunner, RunnerGone
from tournament.store import EventStore

distributed = pytest.importorskip("distributed")

pytestmark = pytest.mark.slow


def event() -> Event:
    return Event(
        name="dask-test",
        game="cosmic_run",
        players=2,
        entrants=parse_all(["random", "greedy"]),
        games=12,
        seed=5,
    )


def cluster() -> Any:
    return distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address="127.0.0.1:0",
        worker_dashboard_address="127.0.0.1:0",
    )


def outcomes(store: EventStore) -> dict[int, Any]:
    return {r["number"]: (r["ranking"], r["scores"]) for r in store.results()}


def test_a_cluster_plays_the_games_an_inline_run_plays(tmp_path: Path) -> None:
    inline = EventStore.open(tmp_path / "inline.sqlite")
    Director(event(), inline).run(InlineRunner())
    store = EventStore.open(tmp_path / "dask.sqlite")
    with cluster() as local:
        runner = DaskRunner(local.scheduler_address)
        assert "2 threads" in runner.description
        outcome = Director(event(), store).run(runner)
    assert outcome.stopped is None and outcome.done == outcome.total == 12
    assert outcomes(store) == outcomes(inline)


def test_a_scheduler_that_goes_away_stops_the_run_cleanly_and_the_next_resumes(
    tmp_path: Path,
) -> None:
    store = EventStore.open(tmp_path / "dask.sqlite")
    local = cluster()
    seen: list[int] = []

    def close_after_three(director: Director, result: dict[str, Any] | None) -> None:
        if result is not None:
            seen.append(result["number"])
            if len(seen) == 3:
                local.close()

    director = Director(event(), store, on_result=close_after_three)
    outcome = director.run(DaskRunner(local.scheduler_address, timeout=5))
    assert outcome.stopped is not None and "went away" in outcome.stopped
    assert 3 <= outcome.done < 12
    kept = set(store.played_numbers())
    with cluster() as again:
        resumed = Director(event(), store).run(DaskRunner(again.scheduler_address))
    assert resumed.stopped is None and resumed.done == 12
    assert resumed.played == 12 - len(kept)


def test_an_unreachable_scheduler_is_one_clear_error() -> None:
    with pytest.raises(RunnerGone, match="cannot reach the Dask scheduler"):
        DaskRunner("tcp://127.0.0.1:9", timeout=1)
