"""``py:`` entrants: Python callables of one's own, played in-process (tournament.agents).

They see what the research environment gives (the observation vector and the action mask),
play small events against built-in bots, and forfeit exactly as ``cmd:`` programs do: a crash,
an illegal answer, a decision over ``--timeout``, a game clock run dry. Slow agents move a fake
clock on instead of sleeping.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cosmoport.cli import main
from cosmoport.envs import aec_env
from games import encoding
from tournament import agents
from tournament.clock import TimeControl
from tournament.entrants import AGENT, EntrantError, check_agent, parse, parse_all
from tournament.game import play_in_process
from tournament.host import play_networked
from tournament.job import GameJob

ROOT = Path(__file__).resolve().parents[2]
AGENTS = Path(__file__).resolve().parent / "bots" / "agents.py"
EXAMPLE = ROOT / "examples" / "heuristic_agent.py"


def py(name: str, settings: str = "") -> str:
    head = f"py[{settings}]" if settings else "py"
    return f"{head}:{AGENTS}:{name}"


def fixture(name: str) -> Any:
    """An object of the agents' module, as the tournament loaded it."""
    module = sys.modules[agents.load(str(AGENTS), "first").__module__]
    return getattr(module, name)


def moves(result: dict[str, Any]) -> list[tuple[int, list[Any]]]:
    return [(entry["seat"], entry["action"]) for entry in result["record"]["actions"]]


def job(specs: list[str], game: str = "cosmic_run", seed: int = 2026, **changes: Any) -> GameJob:
    entrants = tuple(parse_all(specs))
    settings: dict[str, Any] = {
        "number": 0,
        "game": game,
        "players": len(entrants),
        "seed": seed,
        "seating": tuple(range(len(entrants))),
        "entrants": entrants,
        "timeout": 10.0,
    }
    settings.update(changes)
    return GameJob(**settings)


def fake_clock() -> Any:
    now = fixture("NOW")
    now[0] = 0.0
    return lambda: now[0]


# --- what an entrant is ------------------------------------------------------------------------


def test_a_py_entrant_names_a_module_or_a_file_and_a_callable() -> None:
    entrant = parse("py:mypackage.agents:policy")
    assert entrant.kind == AGENT and entrant.is_agent and entrant.is_own
    assert not entrant.is_program
    assert entrant.command == ("mypackage.agents", "policy")
    assert entrant.name == "policy"
    assert entrant.budget() == "its own"
    named = parse("py[name=Mine,tc=30+0.5]:agents/best.py:Policy")
    assert named.name == "Mine" and named.tc == "30+0.5"
    assert named.command == (str(Path("agents/best.py").resolve()), "Policy")
    assert parse_all(["py:a:f", "py:b:f"])[1].name == "f#2"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("py:justamodule", "py:MODULE:CALLABLE"),
        ("py:module:", "py:MODULE:CALLABLE"),
        ("py:module:not-a-name", "not a Python name"),
        ("py[reuse]:m:f", "an agent takes the settings name=NAME and tc=BANK+INC"),
        ("py[name=x:m:f", "py[name=NAME]:MODULE:CALLABLE"),
        ("pyx:m:f", "py:MODULE:CALLABLE"),
    ],
)
def test_a_badly_written_py_entrant_is_refused(spec: str, message: str) -> None:
    with pytest.raises(EntrantError, match=re.escape(message)):
        parse(spec)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("py:no_such_module_here:f", "cannot import no_such_module_here"),
        (f"py:{AGENTS.parent / 'nowhere.py'}:f", "no Python file"),
        (py("missing"), "has no 'missing'"),
        (py("NOT_CALLABLE"), "is not a function or a class"),
    ],
)
def test_an_agent_that_cannot_be_loaded_is_refused_before_any_game(spec: str, message: str) -> None:
    with pytest.raises(EntrantError, match=message):
        check_agent(parse(spec))


def test_without_numpy_a_py_entrant_says_which_extra_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_numpy() -> Any:
        raise ImportError(f"the observation vectors need numpy: {encoding.RESEARCH_EXTRA}")

    monkeypatch.setattr(encoding, "numpy", no_numpy)
    with pytest.raises(EntrantError, match=r"pip install 'cosmoport\[research\]'"):
        check_agent(parse(py("never_loaded_before")))


def test_the_tournament_help_describes_py_entrants(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["tournament", "--help"])
    out = capsys.readouterr().out
    assert "py:MODULE:CALLABLE" in out and "f(observation, action_mask)" in out
    assert "pip install 'cosmoport[research]'" in out


# --- what it sees ------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "players"), [("cosmic_run", 3), ("alien_artifacts", 2)])
def test_an_agent_sees_exactly_what_the_environment_gives(game: str, players: int) -> None:
    seen = fixture("SEEN")
    seen.clear()
    specs = [py("with_info")] + ["greedy"] * (players - 1)
    result = play_in_process(job(specs, game, seed=5, max_decisions=40))
    assert result["forfeit"] is None
    assert seen
    env = aec_env(game, players)
    env.reset(seed=5)
    spec = env.spec_
    for entry in seen[:5]:
        assert entry["dtype"] == "float32" and entry["size"] == spec.size
        assert entry["view"]["seat"] == 0
    # The first decision is the environment's first observation, byte for byte.
    agent = env.agent_selection
    observation = env.observe(agent)
    assert env.state_.current_player == 0
    again: list[Any] = []
    bot = agents.AgentBot(lambda o, m: again.append((o, m)) or int(np.flatnonzero(m)[0]),
                          "t", game, players, 0, 0)  # fmt: skip
    bot.choose(env.state_.view(0), env.state_.legal_actions())
    assert again[0][0].tobytes() == observation["observation"].tobytes()
    assert again[0][1].tobytes() == observation["action_mask"].tobytes()


def test_a_class_is_made_once_per_game_and_seat_with_the_keywords_it_names() -> None:
    made = fixture("Seeded").made
    made.clear()
    result = play_in_process(job([py("Seeded"), "random", py("Seeded")], seed=3))
    assert result["forfeit"] is None and result["record"]["result"] is not None
    assert made == [
        {"game": "cosmic_run", "players": 3, "seat": 0},
        {"game": "cosmic_run", "players": 3, "seat": 2},
    ]
    assert [seat["bot"] for seat in result["record"]["seats"]] == [None, "random", None]


# --- small events ------------------------------------------------------------------------------


def test_a_py_entrant_plays_a_tournament_against_greedy_and_easy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        ["tournament", "cosmic-run", "-e", py("Seeded", "name=mine"), "-e", "greedy", "-e",
         "easy:iterations=5", "--games", "6", "--workers", "1", "--db",
         str(tmp_path / "e.sqlite"), "--quiet"]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    assert "6 of 6 games played" in out
    assert "mine" in out and "greedy" in out


def test_the_same_seed_plays_the_same_games() -> None:
    specs = [py("Seeded"), "greedy", "easy:iterations=5"]
    for game in ("cosmic_run", "alien_artifacts"):
        first = play_in_process(job(specs, game, seed=77, max_decisions=300))
        second = play_in_process(job(specs, game, seed=77, max_decisions=300))
        assert moves(first) == moves(second)
        assert first["scores"] == second["scores"]
        assert first["ranking"] == second["ranking"]


def test_the_example_agent_plays_both_games_and_their_tournaments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # docs/research.md shows examples/heuristic_agent.py, which tests/envs runs as a script.
    spec = importlib.util.spec_from_file_location("heuristic_agent_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    for game, players in (("cosmic_run", 3), ("alien_artifacts", 2)):
        env = aec_env(game, players)
        env.reset(seed=4)
        agents = {name: example.Heuristic(game, players, n) for n, name in enumerate(env.agents)}
        returns = dict.fromkeys(agents, 0.0)
        for name in env.agent_iter():
            observation, reward, terminated, truncated, _info = env.last()
            returns[name] += reward
            env.step(None if terminated or truncated else agents[name](**observation))
        assert sum(returns.values()) == pytest.approx(0.0)
        assert max(returns.values()) > 0
    code = main(
        ["tournament", "alien-artifacts", "-e", f"py:{EXAMPLE}:Heuristic", "-e", "greedy",
         "--games", "2", "--workers", "1", "--quiet", "--db", str(tmp_path / "e.sqlite")]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0 and "Heuristic" in out and "2 of 2 games played" in out


# --- forfeits, as a program's --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "reason", "detail"),
    [
        ("raising", "crash", "raised ValueError: the policy broke"),
        ("Broken", "crash", "Broken() raised RuntimeError: no weights file"),
        ("illegal", "illegal", "not a legal action's number"),
        ("out_of_range", "illegal", "returned "),
        ("not_a_number", "illegal", "returned 'roll'"),
    ],
)
@pytest.mark.parametrize("network", [False, True])
def test_an_agent_that_fails_forfeits_like_a_program(
    name: str, reason: str, detail: str, network: bool
) -> None:
    the_job = job(["greedy", py(name)], network=network)
    result = play_networked(the_job) if network else play_in_process(the_job)
    forfeit = result["forfeit"]
    assert forfeit is not None and forfeit["seat"] == 1 and forfeit["reason"] == reason
    assert detail in forfeit["detail"]
    assert result["ranking"][-1] == [1]
    assert result["record"]["forfeit"] == forfeit


def test_an_agent_slower_than_the_timeout_forfeits() -> None:
    result = play_in_process(job(["greedy", py("slow")], timeout=60.0), clock=fake_clock())
    forfeit = result["forfeit"]
    assert forfeit == {"seat": 1, "reason": "timeout", "detail": "no action within 60 s"}
    assert result["ranking"][-1] == [1]


def test_an_agent_that_never_answers_forfeits_without_stopping_the_event() -> None:
    release = fixture("RELEASE")
    release.clear()
    try:
        result = play_in_process(job(["greedy", py("stuck")], timeout=0.05))
    finally:
        release.set()  # its thread finishes by itself
    assert result["forfeit"]["reason"] == "timeout"
    assert result["forfeit"]["detail"] == "no action within 0.05 s"


def test_an_agent_out_of_time_on_the_game_clock_loses_on_time_or_gets_the_stand_in() -> None:
    clocks = (None, TimeControl(5.0, 0.5))
    lost = play_in_process(job(["greedy", py("quick")], clocks=clocks), clock=fake_clock())
    forfeit = lost["forfeit"]
    assert forfeit["seat"] == 1 and forfeit["reason"] == "time"
    assert "ran out of time (a 5 s bank + 0.5 s per decision)" in forfeit["detail"]
    # 5 s of bank and 0.5 s a decision at 1 s a decision: the 11th decision runs dry.
    assert lost["timing"][1]["decisions"] == 11
    helped = play_in_process(
        job(["greedy", py("quick")], clocks=clocks, on_time="stand-in"), clock=fake_clock()
    )
    assert helped["forfeit"] is None and helped["record"]["result"] is not None
    assert helped["stand_ins"][1] > 0
    assert helped["banks"][1] == 0.0


def test_the_game_clock_governs_when_it_is_shorter_than_the_timeout() -> None:
    clocks = (None, TimeControl(0.0, 2.0))
    result = play_in_process(
        job(["greedy", py("slow")], clocks=clocks, timeout=600.0), clock=fake_clock()
    )
    assert result["forfeit"]["reason"] == "time"


def test_over_the_network_an_agent_that_never_answers_forfeits_on_timeout() -> None:
    release = fixture("RELEASE")
    release.clear()
    try:
        result = play_networked(job(["greedy", py("stuck")], timeout=0.3, network=True))
    finally:
        release.set()
    assert result["network"] is True
    assert result["forfeit"] == {"seat": 1, "reason": "timeout", "detail": "no action within 0.3 s"}


@pytest.mark.parametrize(("game", "players"), [("cosmic_run", 2), ("alien_artifacts", 3)])
def test_over_the_network_an_agent_plays_the_game_it_plays_in_process(
    game: str, players: int
) -> None:
    # The view that comes over the protocol encodes as the engine's own does.
    specs = [py("Seeded"), "greedy", py("Seeded")][:players]
    here = play_in_process(job(specs, game, seed=99))
    there = play_networked(job(specs, game, seed=99, network=True))
    assert there["network"] is True and there["forfeit"] is None
    assert moves(there) == moves(here)
    assert there["scores"] == here["scores"]
