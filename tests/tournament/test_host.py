"""Tournament games over the protocol: the same games as in-process, programs of one's own with
their placeholders, environment and logs, kept programs, and every forfeit. Real sockets on
127.0.0.1 and real processes; every program ends with its game."""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tournament import host
from tournament.entrants import parse_all
from tournament.game import GameJob, play, play_in_process
from tournament.programs import Seating, substitute

BOTS = Path(__file__).resolve().parent / "bots"
PYTHON = shlex.quote(sys.executable)

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def _no_program_outlives_its_test() -> Iterator[None]:
    yield
    host.close_programs()


def program(name: str, *args: str, settings: str = "") -> str:
    """The entrant of a test program from ``tests/tournament/bots``."""
    head = f"cmd[{settings}]" if settings else "cmd"
    return f"{head}:{PYTHON} {shlex.quote(str(BOTS / name))} {' '.join(args)}".rstrip()


def job(specs: list[str], tmp_path: Path | None = None, **changes: Any) -> GameJob:
    entrants = tuple(parse_all(specs))
    settings: dict[str, Any] = {
        "number": 0,
        "game": "cosmic_run",
        "players": len(entrants),
        "seed": 2026,
        "seating": tuple(range(len(entrants))),
        "entrants": entrants,
        "timeout": 10.0,
        "log_dir": None if tmp_path is None else str(tmp_path / "logs"),
    }
    settings.update(changes)
    return GameJob(**settings)


def moves(result: dict[str, Any]) -> list[tuple[int, list[Any]]]:
    return [(a["seat"], a["action"]) for a in result["record"]["actions"]]


def log(tmp_path: Path, game: int, seat: int) -> str:
    return (tmp_path / "logs" / f"game-{game}-seat-{seat}.log").read_text()


def pids(text: str) -> set[int]:
    return {int(pid) for pid in re.findall(r"^pid (\d+):", text, re.MULTILINE)}


def running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def children() -> set[int]:
    """The processes this one started that are still there (Linux: from /proc)."""
    mine = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid():
                mine.append(int(entry.name))
    return set(mine)


def assert_forfeit(result: dict[str, Any], seat: int, reason: str) -> dict[str, Any]:
    forfeit = result["forfeit"]
    assert forfeit is not None and (forfeit["seat"], forfeit["reason"]) == (seat, reason)
    assert result["ranking"][-1] == [seat]
    assert result["record"]["forfeit"] == forfeit
    return forfeit


@pytest.mark.parametrize(("game", "players"), [("cosmic_run", 3), ("alien_artifacts", 2)])
def test_a_networked_game_is_the_in_process_game(game: str, players: int) -> None:
    specs = ["normal:iterations=20", "greedy", "random"][:players]
    local = job(specs, game=game, seed=77)
    here = play_in_process(local)
    there = play(replace(local, network=True))
    assert there["network"] is True and there["forfeit"] is None
    assert moves(there) == moves(here)
    assert there["ranking"] == here["ranking"] and there["scores"] == here["scores"]
    assert there["record"]["result"] == here["record"]["result"]
    decisions = [seat["decisions"] for seat in there["timing"]]
    assert decisions == [seat["decisions"] for seat in here["timing"]]
    assert sum(decisions) == len(moves(there))


def test_games_from_several_threads_share_the_host_and_stay_the_same_games() -> None:
    jobs = [job(["greedy", "random"], number=n, seed=n, network=True) for n in range(4)]
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(play, jobs))
    for one, result in zip(jobs, results, strict=True):
        assert moves(result) == moves(play_in_process(one))


def test_cosmoport_bot_plays_a_whole_game_as_a_program(tmp_path: Path) -> None:
    before = children()
    bot = f"cmd:{PYTHON} -m cosmoport bot {{server}} --table {{table}} --level random"
    result = play(job([bot, "greedy"], tmp_path))
    assert result["forfeit"] is None and result["network"] is True
    assert result["record"]["result"] is not None
    assert {seat for seat, _ in moves(result)} == {0, 1}
    assert result["timing"][0]["decisions"] == sum(s == 0 for s, _ in moves(result))
    assert "seated at table" in log(tmp_path, 0, 0)
    assert children() <= before


def test_a_program_gets_its_game_in_its_arguments_and_environment(tmp_path: Path) -> None:
    entrant = program("player.py", "{seat}", "{game}", "{server}", "{other}", "x{table}x")
    result = play(job(["random", entrant], tmp_path, timeout=7.5))
    assert result["forfeit"] is None
    text = log(tmp_path, 0, 1)
    argv = json.loads(re.search(r"argv (.*)", text)[1])  # type: ignore[index]
    env = json.loads(re.search(r"environment (.*)", text)[1])  # type: ignore[index]
    table, server = env["COSMOPORT_TABLE"], env["COSMOPORT_SERVER"]
    assert argv == ["1", "cosmic_run", server, "{other}", f"x{table}x"]
    assert server == f"{env['COSMOPORT_HOST']}:{env['COSMOPORT_PORT']}"
    assert env["COSMOPORT_HOST"] == "127.0.0.1" and env["COSMOPORT_SEAT"] == "1"
    assert env["COSMOPORT_GAME"] == "cosmic_run"
    assert env["COSMOPORT_SECONDS"] == env["COSMOPORT_TIMEOUT"] == "7.5"
    assert env["COSMOPORT_SEAT_TOKEN"] not in " ".join(argv)
    assert not any(running(pid) for pid in pids(text))


def test_a_program_that_exits_at_once_forfeits_with_a_crash(tmp_path: Path) -> None:
    result = play(job([program("crash.py"), "random"], tmp_path))
    forfeit = assert_forfeit(result, 0, "crash")
    assert "status 3" in forfeit["detail"] and "out of ideas" in forfeit["detail"]
    assert result["record"]["actions"] == []
    assert not any(running(pid) for pid in pids(log(tmp_path, 0, 0)))


def test_a_program_that_never_acts_forfeits_on_timeout(tmp_path: Path) -> None:
    result = play(job([program("silent.py"), "random"], tmp_path, timeout=1.0))
    forfeit = assert_forfeit(result, 0, "timeout")
    assert "1 s" in forfeit["detail"]
    assert result["timing"][0]["decisions"] == 0
    assert not any(running(pid) for pid in pids(log(tmp_path, 0, 0)))


def test_a_program_that_never_takes_its_seat_is_a_no_show(tmp_path: Path) -> None:
    result = play(job(["random", program("sleepy.py")], tmp_path, timeout=1.0))
    assert_forfeit(result, 1, "no_show")
    assert not any(running(pid) for pid in pids(log(tmp_path, 0, 1)))


def test_a_program_that_sends_an_illegal_action_forfeits(tmp_path: Path) -> None:
    result = play(job([program("illegal.py"), "random"], tmp_path))
    forfeit = assert_forfeit(result, 0, "illegal")
    assert '["nonsense", 99]' in forfeit["detail"]
    assert not any(running(pid) for pid in pids(log(tmp_path, 0, 0)))


def test_a_program_that_does_not_exist_forfeits_with_a_crash(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-bot"
    result = play(job(["random", f"cmd:{missing} {{server}}"], tmp_path))
    forfeit = assert_forfeit(result, 1, "crash")
    assert "could not be started" in forfeit["detail"] and str(missing) in forfeit["detail"]


def test_a_kept_program_plays_game_after_game_as_one_process(tmp_path: Path) -> None:
    kept = program("player.py", "{table}", settings="reuse")
    first = play(job(["greedy", kept], tmp_path, number=0))
    second = play(job([kept, "random"], tmp_path, number=1, seed=9))
    assert first["forfeit"] is None and second["forfeit"] is None
    one, two = log(tmp_path, 0, 1), log(tmp_path, 1, 0)
    assert len(pids(one)) == 1 and pids(one) == pids(two)
    assert '"seat": 0' in two and '"token": "' in two
    assert '["COSMOPORT_REUSE"]' in one  # no per-game variables, no placeholders
    assert '"{table}"' in one
    (pid,) = pids(one)
    assert running(pid)
    host.close_programs()
    assert not running(pid)


def test_a_game_the_host_gives_up_raises_and_leaves_no_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(host, "WATCHDOG_MIN", 0.5)
    monkeypatch.setattr(host, "WATCHDOG_PER_TIMEOUT", 0.0)
    with pytest.raises(host.HostError, match=r"still running after 0\.5 s"):
        play(job([program("silent.py"), "random"], tmp_path, timeout=30.0))
    assert not any(running(pid) for pid in pids(log(tmp_path, 0, 0)))


def test_a_job_the_server_refuses_raises_a_one_line_host_error() -> None:
    bad = job(["random", "random"], network=True, options={"no_such_option": True})
    with pytest.raises(host.HostError, match="lobby/bad_options") as caught:
        play(bad)
    assert "\n" not in str(caught.value)


def test_only_the_named_placeholders_are_replaced() -> None:
    seating = Seating("127.0.0.1", 4000, 7, 2, "alien_artifacts", "secret", 3.0)
    argv = ["{server}/{table}", "{seat}{game}", "{other}", "{'a': 1}", "{{port}}", "{host}"]
    assert substitute(argv, seating.values()) == [
        "127.0.0.1:4000/7", "2alien_artifacts", "{other}", "{'a': 1}", "{4000}", "127.0.0.1",
    ]  # fmt: skip


def test_the_hosts_server_forgets_each_game_once_played() -> None:
    # The result holds the record; the loopback server's own database must not grow per game.
    job = GameJob(0, "cosmic_run", 2, 11, (0, 1), tuple(parse_all(["random", "greedy"])),
                  network=True)  # fmt: skip
    assert play(job)["record"]["result"] is not None
    store = host._host().factory.hub.lobby.store
    counts = [store._db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
              for t in ("tables", "places", "actions")]  # fmt: skip
    assert counts == [0, 0, 0]
