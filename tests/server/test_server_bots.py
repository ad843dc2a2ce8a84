"""``add_bot``: the server starts bot programs that join over loopback, and cleans them up.

In memory, the program start is a fake that records the command line; one end-to-end test starts
real bot programs against a real server on 127.0.0.1.
"""

from __future__ import annotations

import os
import random
import site
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import pytest_twisted
from server_helpers import MemoryServer, last_game_message
from tcp_client import RandomPlayer, connect
from twisted.internet import defer, reactor
from twisted.logger import LogLevel, formatEvent

import server.bot_programs as server_bots
from protocol import BOT_TOKEN_VARIABLE
from server.hub import MAX_BOT_RESTARTS
from server.limits import Limits
from server.service import listen


class FakeTransport:
    def __init__(self) -> None:
        self.signals: list[str] = []

    def signalProcess(self, signal: str) -> None:
        self.signals.append(signal)


class FakeSpawn:
    """Records every program the server starts instead of starting it."""

    def __init__(self) -> None:
        self.started: list[tuple[list[str], dict[str, str], Any]] = []

    def __call__(self, argv: list[str], env: dict[str, str], process: Any) -> None:
        process.transport = FakeTransport()
        self.started.append((argv, env, process))


def bot_server(max_bots: int = 8, **limits: Any) -> tuple[MemoryServer, FakeSpawn]:
    server = MemoryServer(Limits(rate=1e9, burst=10**9, max_bots=max_bots, **limits))
    spawn = FakeSpawn()
    server.hub.bots.spawn = spawn
    server.hub.bots.address = ("127.0.0.1", 7777)
    return server, spawn


def seated(server: MemoryServer, players: int = 3, **create: Any) -> tuple[Any, int]:
    host = server.greeted("host")
    table = host.create("secret_race", players, **create)
    host.join(table)
    host.received()
    return host, table


def seats(client: Any) -> list[Any]:
    return client.one("tables", client.request({"type": "list"}))["tables"][0]["seats"]


def arrive(server: MemoryServer, started: tuple[list[str], dict[str, str], Any]) -> Any:
    """What the bot program does: hello, then resume the kept place with its token."""
    argv, env, _process = started
    bot = server.greeted(argv[argv.index("--name") + 1], host="127.0.0.1")
    bot.one("resumed", bot.request({"type": "resume", "token": env[BOT_TOKEN_VARIABLE]}))
    return bot


def test_add_bot_keeps_a_place_and_starts_a_bot_program_for_it():
    server, spawn = bot_server()
    host, table = seated(server)
    reply = host.one("bot_added", host.request({"type": "add_bot", "level": "hard"}))
    assert reply["table"] == table and reply["slot"] == 1 and reply["level"] == "hard"
    assert reply["name"] == "Hard bot 1"
    [(argv, env, _process)] = spawn.started
    assert argv[0] == sys.executable
    assert argv[1:10] == [
        "-P", "-m", "cosmoport", "bot", "127.0.0.1:7777", "--table", str(table), "--level", "hard",
    ]  # fmt: skip
    assert argv[argv.index("--name") + 1] == "Hard bot 1" and "--seed" in argv
    token = env[BOT_TOKEN_VARIABLE]
    assert token and token not in argv  # never on the command line, where `ps` shows it
    assert seats(host)[1] == {"name": "Hard bot 1", "connected": False, "bot": True}


def test_the_kept_place_and_name_cannot_be_taken_by_anyone_else():
    server, spawn = bot_server()
    host, table = seated(server, players=2)
    host.request({"type": "add_bot", "level": "easy"})
    squatter = server.greeted("squatter")
    assert squatter.error(squatter.request({"type": "join", "table": table})) == (
        "lobby/table_full"
    )
    arrive(server, spawn.started[0])
    assert seats(host)[1] == {"name": "Easy bot 1", "connected": True, "bot": True}


def test_an_autostart_table_starts_when_its_bots_have_arrived():
    server, spawn = bot_server()
    host, _table = seated(server, players=3, autostart=True)
    host.request({"type": "add_bot", "level": "easy"})
    host.request({"type": "add_bot", "level": "random"})
    assert [argv[argv.index("--name") + 1] for argv, _, _ in spawn.started] == [
        "Easy bot 1",
        "Random bot 1",
    ]
    arrive(server, spawn.started[0])
    assert not [m for m in host.received() if m["type"] == "started"]
    arrive(server, spawn.started[1])
    assert host.one("started")["seats"]


def test_a_bot_program_that_ends_before_sitting_down_frees_its_place():
    server, spawn = bot_server()
    host, _ = seated(server, players=2)
    host.request({"type": "add_bot", "level": "easy"})
    assert host.error(host.request({"type": "add_bot", "level": "easy"})) == "lobby/table_full"
    spawn.started[0][2].processEnded(None)
    assert seats(host)[1] is None
    host.one("bot_added", host.request({"type": "add_bot", "level": "random"}))


def test_a_bot_program_that_dies_during_its_game_is_started_again():
    server, spawn = bot_server()
    host, _ = seated(server, players=2)
    host.request({"type": "add_bot", "level": "easy"})
    bot = arrive(server, spawn.started[0])
    host.one("started", host.request({"type": "start"}))
    bot.drop()
    spawn.started[0][2].processEnded(None)
    assert len(spawn.started) == 2
    arrive(server, spawn.started[1])  # the new program takes the seat with its new token
    assert seats(host)[1]["connected"] is True


def test_a_bot_program_that_keeps_dying_is_given_up_with_an_error_in_the_log(logged):
    server, spawn = bot_server()
    host, _ = seated(server, players=2)
    host.request({"type": "add_bot", "level": "easy"})
    arrive(server, spawn.started[0])
    host.one("started", host.request({"type": "start"}))
    for attempt in range(MAX_BOT_RESTARTS + 1):
        spawn.started[attempt][2].processEnded(None)
    assert len(spawn.started) == MAX_BOT_RESTARTS + 1  # the first program and its restarts
    [given_up] = [e for e in logged if e["log_level"] == LogLevel.error]
    assert "is not restarted" in formatEvent(given_up) and "Easy bot 1" in formatEvent(given_up)


def test_what_a_bot_writes_to_stderr_is_a_warning_and_to_stdout_debug_detail(logged):
    server, spawn = bot_server()
    host, _ = seated(server, players=2)
    host.request({"type": "add_bot", "level": "easy"})
    process = spawn.started[0][2]
    process.outReceived(b"decision 1: ['roll']\ndecision")
    process.errReceived(b"Traceback (most recent call last):\n")
    process.outReceived(b" 2: ['pass']\n")
    lines = [(e["log_level"], formatEvent(e)) for e in logged if "bot {name}" in e["log_format"]]
    assert lines == [
        (LogLevel.debug, "bot Easy bot 1: decision 1: ['roll']"),
        (LogLevel.warn, "bot Easy bot 1: Traceback (most recent call last):"),
        (LogLevel.debug, "bot Easy bot 1: decision 2: ['pass']"),
    ]


@pytest.mark.slow
def test_the_bot_command_line_runs_our_program_whatever_the_working_directory_holds(tmp_path):
    # A client author's client.py (or a cosmoport.py) where the server was started must not
    # stand in for our packages in the bot programs it starts.
    server, spawn = bot_server()
    host, _ = seated(server, players=2)
    host.request({"type": "add_bot", "level": "easy"})
    [(argv, env, _process)] = spawn.started
    for shadow in ("cosmoport.py", "client.py", "ai.py"):
        (tmp_path / shadow).write_text("raise SystemExit('the wrong module ran')\n")
    command = [*argv[: argv.index("bot") + 1], "--help"]
    done = subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "usage: cosmoport bot" in done.stdout


def test_bot_programs_find_our_packages_first_unless_they_are_installed_in_site_packages():
    server, spawn = bot_server()
    host, _ = seated(server, players=2)
    host.request({"type": "add_bot", "level": "easy"})
    [(_argv, env, _process)] = spawn.started
    root = str(Path(server_bots.__file__).resolve().parents[1])
    assert env["PYTHONPATH"].split(os.pathsep)[0] == root
    assert server_bots.bot_python_path("/x", root) == os.pathsep.join([root, "/x"])
    # A wheel install: site-packages must not go ahead of the standard library.
    installed = site.getsitepackages()[0]
    assert server_bots.bot_python_path(None, installed) is None
    assert server_bots.bot_python_path("/x", installed) == "/x"


def test_a_server_without_bots_says_so():
    server = MemoryServer()  # never listened: nowhere for a bot to connect to
    host, _ = seated(server)
    assert host.error(host.request({"type": "add_bot", "level": "hard"})) == "lobby/no_bots"
    server, _ = bot_server(max_bots=0)
    host, _ = seated(server)
    assert host.error(host.request({"type": "add_bot", "level": "hard"})) == "lobby/no_bots"
    assert seats(host)[1] is None


def test_the_number_of_bot_programs_is_limited():
    server, spawn = bot_server(max_bots=1)
    host, _ = seated(server)
    host.one("bot_added", host.request({"type": "add_bot", "level": "hard"}))
    other, _ = seated(server)
    assert other.error(other.request({"type": "add_bot", "level": "hard"})) == "limit/bots"
    spawn.started[0][2].processEnded(None)
    other.one("bot_added", other.request({"type": "add_bot", "level": "hard"}))


def test_bots_are_only_added_to_waiting_tables_and_by_seated_people():
    server, _spawn = bot_server()
    _table, clients = server.table_with(2)
    assert clients[0].error(clients[0].request({"type": "add_bot", "level": "easy"})) == (
        "lobby/not_waiting"
    )
    stranger = server.greeted("stranger")
    assert stranger.error(stranger.request({"type": "add_bot", "level": "easy"})) == (
        "session/wrong_state"
    )


def test_add_bot_with_a_slot_takes_that_free_place():
    server, _spawn = bot_server()
    host, _ = seated(server, players=3)  # the host holds place 0
    assert (
        host.one("bot_added", host.request({"type": "add_bot", "level": "easy", "slot": 2}))["slot"]
        == 2
    )
    assert seats(host)[1] is None and seats(host)[2]["bot"] is True
    assert host.error(host.request({"type": "add_bot", "level": "easy", "slot": 2})) == (
        "lobby/seat_taken"
    )
    assert host.error(host.request({"type": "add_bot", "level": "easy", "slot": 3})) == (
        "lobby/no_such_seat"
    )
    assert host.error(host.request({"type": "add_bot", "level": "easy", "seat": 1})) == (
        "table/not_started"  # seats exist once the game has started
    )


def away_game(**limits: Any) -> tuple[MemoryServer, FakeSpawn, int, Any, Any]:
    """A started two-player game whose second player (place 1) has just lost the connection."""
    server, spawn = bot_server(dead_after=10**6, idle_timeout=10**6, **limits)
    table, (a, b) = server.table_with(2, options={"target": 30})
    b.drop()
    a.received()
    return server, spawn, table, a, b


def test_a_bot_takes_over_the_seat_of_a_player_away_long_enough():
    server, spawn, table, a, b = away_game(bot_takeover_after=60.0)
    a.request({"type": "act", "version": 0, "action": ["step", 1]})
    server.advance(30)
    assert a.error(a.request({"type": "add_bot", "level": "easy", "seat": 1})) == "table/too_soon"
    assert spawn.started == []
    server.advance(30)
    a.received()
    added = a.one("bot_added", a.request({"type": "add_bot", "level": "easy", "seat": 1}))
    assert (added["slot"], added["name"], added["level"]) == (1, "p1", "easy")
    [(argv, _env, _process)] = spawn.started
    assert argv[argv.index("--name") + 1] == "Easy bot for p1"  # not the player in the log
    # The player's token is dead: coming back now (or anyone holding it) is refused.
    back = server.greeted("p1 again")
    assert back.error(back.request({"type": "resume", "token": b.token})) == "session/bad_token"
    bot = arrive(server, spawn.started[0])
    status = a.one("seat_status")
    assert (status["slot"], status["connected"], status["bot"]) == (1, True, True)
    assert seats(a)[1] == {"name": "p1", "connected": True, "bot": True}
    snapshot = last_game_message(bot)
    assert snapshot["type"] == "snapshot" and snapshot["version"] == 1 and snapshot["legal"]
    bot.one("update", bot.request({"type": "act", "version": 1, "action": ["step", 2]}))
    assert server.hub.lobby.table(table).version == 2


def test_a_seat_just_given_to_a_bot_cannot_be_given_again_at_once():
    server, spawn, _table, a, _b = away_game(bot_takeover_after=60.0)
    server.advance(61)
    a.received()
    added = a.one("bot_added", a.request({"type": "add_bot", "level": "easy", "seat": 1}))
    assert (added["slot"], added["seat"]) == (1, 1)
    assert a.error(a.request({"type": "add_bot", "level": "hard", "seat": 1})) == "table/too_soon"
    assert len(spawn.started) == 1 and len(server.hub.bots.running) == 1


def test_an_earlier_bot_program_for_a_taken_over_seat_is_stopped_and_then_ignored():
    server, spawn = bot_server(dead_after=10**6, idle_timeout=10**6, bot_takeover_after=60.0)
    host, table = seated(server, players=2, seating="fixed", options={"target": 30})
    host.request({"type": "add_bot", "level": "easy"})
    first = arrive(server, spawn.started[0])
    host.one("started", host.request({"type": "start"}))
    first.drop()  # its link is gone; the program lives on, trying to reconnect
    server.advance(61)
    host.received()
    host.one("bot_added", host.request({"type": "add_bot", "level": "hard", "seat": 1}))
    assert spawn.started[0][2].transport.signals == ["TERM"]  # the old program is stopped
    second = arrive(server, spawn.started[1])
    spawn.started[0][2].processEnded(None)  # ... and its end changes nothing
    assert len(spawn.started) == 2
    assert not second.disconnected and seats(host)[1]["connected"] is True
    host.one("update", host.request({"type": "act", "version": 0, "action": ["step", 1]}))
    second.received()
    second.one("update", second.request({"type": "act", "version": 1, "action": ["step", 2]}))
    assert server.hub.lobby.table(table).version == 2


def test_a_seat_whose_bot_never_arrived_can_go_to_a_new_one_even_at_the_bot_limit():
    server, spawn, _table, a, _b = away_game(bot_takeover_after=60.0, max_bots=1)
    server.advance(61)
    a.received()
    a.one("bot_added", a.request({"type": "add_bot", "level": "easy", "seat": 1}))
    server.advance(61)  # that program never got to the seat
    a.received()
    a.one("bot_added", a.request({"type": "add_bot", "level": "hard", "seat": 1}))
    assert spawn.started[0][2].transport.signals == ["TERM"]
    arrive(server, spawn.started[1])
    assert seats(a)[1]["connected"] is True


def test_stopping_the_server_does_not_restart_the_bots_it_stops():
    server, spawn = bot_server()
    host, _ = seated(server, players=2)
    host.request({"type": "add_bot", "level": "easy"})
    arrive(server, spawn.started[0])
    host.one("started", host.request({"type": "start"}))
    server.hub.shutdown()
    assert spawn.started[0][2].transport.signals == ["TERM"]
    spawn.started[0][2].processEnded(None)
    assert len(spawn.started) == 1


def test_a_waiting_bot_whose_program_ends_before_its_link_does_not_disturb_its_successor():
    server, spawn = bot_server()
    host, table = seated(server, players=2)
    host.request({"type": "add_bot", "level": "easy"})
    bot = arrive(server, spawn.started[0])
    spawn.started[0][2].processEnded(None)  # the program's end is seen before its socket's
    newcomer = server.greeted("newcomer")
    newcomer.join(table)
    host.received()
    bot.drop()
    assert [m for m in host.received() if m["type"] == "seat_status"] == []
    assert seats(host)[1] == {"name": "newcomer", "connected": True, "bot": False}


def test_only_the_seat_of_a_player_who_is_away_can_go_to_a_bot():
    _server, spawn, _table, a, _b = away_game()
    assert a.error(a.request({"type": "add_bot", "level": "easy", "seat": 0})) == (
        "table/seat_connected"
    )
    assert a.error(a.request({"type": "add_bot", "level": "easy"})) == "lobby/not_waiting"
    assert a.error(a.request({"type": "add_bot", "level": "easy", "seat": 5})) == (
        "lobby/no_such_seat"
    )
    assert spawn.started == []


def test_a_bot_that_cannot_start_leaves_the_seat_to_its_player():
    server, _spawn, _table, a, b = away_game(bot_takeover_after=0.0)

    def broken(argv: list[str], env: dict[str, str], process: Any) -> None:
        raise OSError("no such program")

    server.hub.bots.spawn = broken
    assert a.error(a.request({"type": "add_bot", "level": "easy", "seat": 1})) == (
        "server/internal"
    )
    assert seats(a)[1] == {"name": "p1", "connected": False, "bot": False}
    back = server.greeted("p1 again")
    back.one("resumed", back.request({"type": "resume", "token": b.token}))


def test_an_unknown_level_is_a_bad_message():
    server, spawn = bot_server()
    host, _ = seated(server)
    assert host.error(host.request({"type": "add_bot", "level": "godlike"})) == (
        "proto/bad_message"
    )
    assert spawn.started == []


def test_closing_a_table_stops_its_bots_still_running():
    server, spawn = bot_server()
    host, table = seated(server)
    host.request({"type": "add_bot", "level": "hard"})
    other, other_table = seated(server)
    other.request({"type": "add_bot", "level": "hard"})
    server.hub.lobby.close(server.hub.lobby.tables[table])
    assert spawn.started[0][2].transport.signals == ["TERM"]
    assert spawn.started[1][2].transport.signals == []
    assert other_table != table


def test_a_table_left_to_its_bots_expires_and_its_bots_are_stopped():
    server, spawn = bot_server(empty_table_ttl=60.0)
    host, table = seated(server, players=2)
    host.request({"type": "add_bot", "level": "easy"})
    arrive(server, spawn.started[0])
    host.request({"type": "leave"})
    server.advance(61)
    assert table not in server.hub.lobby.tables
    assert spawn.started[0][2].transport.signals == ["TERM"]


def test_a_bot_program_that_cannot_start_is_an_internal_error_and_keeps_no_place():
    server, _ = bot_server()

    def broken(argv: list[str], env: dict[str, str], process: Any) -> None:
        raise OSError("no such program")

    server.hub.bots.spawn = broken
    host, _ = seated(server, players=2)
    assert host.error(host.request({"type": "add_bot", "level": "hard"})) == "server/internal"
    assert server.hub.bots.running == []
    assert seats(host)[1] is None


@pytest.mark.slow
@pytest_twisted.ensureDeferred
async def test_real_bot_programs_join_play_to_the_end_and_exit(monkeypatch):
    from server.session import Session

    sent: list[tuple[str, dict[str, Any]]] = []
    original = Session.send

    def recording(self: Session, msg: dict[str, Any]) -> None:
        sent.append((self.name, msg))
        original(self, msg)

    monkeypatch.setattr(Session, "send", recording)
    port, factory = listen(reactor, "127.0.0.1", 0, Limits(rate=1e6, burst=10**6))
    try:
        person = await connect(reactor, port.getHost().port, "person")
        created = await person.call(
            {"type": "create", "game": "cosmic_run", "players": 3, "autostart": True}, "created"
        )
        table = created["table"]["id"]
        await person.call({"type": "join", "table": table}, "joined")
        player = RandomPlayer(person, random.Random(3))
        await person.call({"type": "add_bot", "level": "random"}, "bot_added")
        await person.call({"type": "add_bot", "level": "easy"}, "bot_added")
        over = await player.done.addTimeout(120, reactor)
        assert len(over["seats"]) == 3
        assert sorted(over["seats"]) == ["Easy bot 1", "Random bot 1", "person"]
        # Each bot program was sent its own seat's messages and nothing else.
        for bot in ("Easy bot 1", "Random bot 1"):
            seat = over["seats"].index(bot)
            game = [m for name, m in sent if name == bot and m["type"] in ("snapshot", "update")]
            assert game, f"{bot} got no game messages"
            for msg in game:
                assert msg["seat"] == seat and msg["view"]["seat"] == seat
                others = [s for i, s in enumerate(msg["view"]["seats"]) if i != seat]
                assert all(s["infodere"] is None for s in others) or msg["view"]["is_over"]
        # The bot programs end by themselves after the game.
        await factory.hub.bots.when_idle().addTimeout(60, reactor)
        assert factory.hub.bots.running == []
    finally:
        factory.hub.shutdown()
        await defer.maybeDeferred(port.stopListening)


def test_a_player_hands_their_own_seat_to_a_bot_as_they_leave():
    server, spawn = bot_server(dead_after=10**6, idle_timeout=10**6, bot_takeover_after=60.0)
    table, (a, b) = server.table_with(2, options={"target": 30})
    a.received()
    left = b.one("left", b.request({"type": "leave", "bot": "hard"}))
    assert left == {"type": "left", "table": table, "reason": "request", "id": left["id"]}
    [(argv, _env, _process)] = spawn.started
    assert argv[argv.index("--level") + 1] == "hard"
    assert argv[argv.index("--name") + 1] == "Hard bot for p1"
    status = a.one("seat_status")
    assert (status["seat"], status["connected"], status["bot"]) == (1, False, True)
    again = server.greeted("p1 again")
    assert again.error(again.request({"type": "resume", "token": b.token})) == "session/bad_token"
    arrive(server, spawn.started[0])
    assert a.one("seat_status")["connected"] is True
    assert seats(a)[1] == {"name": "p1", "connected": True, "bot": True}


def test_leave_with_a_bot_the_server_cannot_start_is_refused_and_the_player_stays():
    server, _spawn = bot_server(max_bots=0, dead_after=10**6, idle_timeout=10**6)
    table, (_a, b) = server.table_with(2, options={"target": 30})
    assert b.error(b.request({"type": "leave", "bot": "easy"})) == "lobby/no_bots"
    assert server.hub.lobby.table(table).places[1].member is not None
    b.one("left", b.request({"type": "leave"}))  # a plain leave still works


def test_the_seat_of_a_player_who_left_on_purpose_may_go_to_a_bot_at_once():
    server, spawn = bot_server(dead_after=10**6, idle_timeout=10**6, bot_takeover_after=60.0)
    _table, (a, b) = server.table_with(2, options={"target": 30})
    a.received()
    b.one("left", b.request({"type": "leave"}))
    status = a.one("seat_status")
    assert (status["connected"], status["left"]) == (False, True)
    added = a.one("bot_added", a.request({"type": "add_bot", "level": "easy", "seat": 1}))
    assert added["seat"] == 1 and len(spawn.started) == 1
    assert a.error(a.request({"type": "add_bot", "level": "hard", "seat": 1})) == "table/too_soon"


def test_a_lost_connection_is_not_leaving_on_purpose():
    _server, _spawn, _table, a, _b = away_game(bot_takeover_after=60.0)
    assert a.error(a.request({"type": "add_bot", "level": "easy", "seat": 1})) == "table/too_soon"


def test_a_bot_program_is_named_for_the_seat_it_takes_over():
    from server.bot_programs import bot_name

    assert bot_name("Normal bot 2", "normal") == "Normal bot 2"
    assert bot_name("Bob", "hard") == "Hard bot for Bob"
    assert bot_name("Easy bot 2", "hard") == "Hard bot for Easy bot 2"
    assert len(bot_name("A" * 24, "greedy")) == 24
