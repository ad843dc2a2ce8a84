"""The host sees the party: `cosmoport serve` logs people arriving, sitting down, leaving,
dropping and coming back, seats handed to bots, tables starting, finishing with their result and
closing, one line each and once; ``--quiet`` and ``--verbose`` filter as documented.

The party is played on the real server stack in memory (``MemoryServer``, bot programs faked),
and its lines are read through the very observer ``cosmoport serve`` logs through.
"""

from __future__ import annotations

import io
import re
import signal
import subprocess
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from process_helpers import start_server
from server_helpers import MemoryServer, last_game_message
from test_server_bots import FakeSpawn, arrive
from twisted.logger import Logger, LogLevel, globalLogPublisher

from cosmoport.cli import build_parser
from server import cli, party_log
from server.limits import Limits

SECRET_TOKENS = "token-"


class Terminal:
    """What the host's terminal shows, through the observer of ``cosmoport serve``."""

    def __init__(self, verbosity: str) -> None:
        self.out = io.StringIO()
        self.observer = party_log.observer(self.out, verbosity)

    def lines(self) -> list[str]:
        text = self.out.getvalue()
        stamped = text.splitlines()
        assert all(re.match(r"\d\d:\d\d:\d\d ", line) for line in stamped), stamped
        return [line[9:] for line in stamped]


@pytest.fixture
def terminals() -> Iterator[dict[str, Terminal]]:
    shown = {v: Terminal(v) for v in party_log.VERBOSITIES}
    for terminal in shown.values():
        globalLogPublisher.addObserver(terminal.observer)
    yield shown
    for terminal in shown.values():
        globalLogPublisher.removeObserver(terminal.observer)


def party_server() -> tuple[MemoryServer, FakeSpawn]:
    counter = iter(range(1, 1000))
    server = MemoryServer(Limits(rate=1e9, burst=10**9, bot_takeover_after=0.0))
    # Tokens that are easy to look for in the log (they must never be there).
    server.hub.lobby._new_token = lambda: f"{SECRET_TOKENS}{next(counter):04d}"
    spawn = FakeSpawn()
    server.hub.bots.spawn = spawn
    server.hub.bots.address = ("127.0.0.1", 7777)
    return server, spawn


def play_to_the_end(players: list[Any]) -> dict[str, Any]:
    """Every seat picks the first legal action until the game is over; the game_over."""
    for _ in range(500):
        for client in players:
            client.received()
        movers = [(c, last_game_message(c)) for c in players if last_game_message(c)["legal"]]
        if not movers:
            break
        mover, last = movers[0]
        choice = last["legal"][0]["action"]
        mover.one(
            "update", mover.request({"type": "act", "version": last["version"], "action": choice})
        )
    over = [m for m in players[0].log if m["type"] == "game_over"]
    assert len(over) == 1
    return over[0]


def a_whole_party(chat: str = "my token is in the chat") -> tuple[MemoryServer, dict[str, Any]]:
    """Connect, open, join, watch, leave, add a bot, start, drop, resume, hand a seat to a bot,
    play to the end, leave, close, disconnect. Returns the server and the game_over."""
    server, spawn = party_server()
    ann = server.greeted("Ann", host="192.168.1.20")
    table = ann.create("secret_race", 3, seating="fixed")
    ann.join(table)
    bob = server.greeted("Bob", host="192.168.1.21")
    bob.join(table)
    cid = server.greeted("Cid", host="192.168.1.22")
    cid.join(table)
    cid.request({"type": "chat", "text": chat})
    cid.one("left", cid.request({"type": "leave"}))
    assert cid.error(cid.request({"type": "start"})) == "session/wrong_state"
    dan = server.greeted("Dan", host="192.168.1.23")
    dan.one("spectating", dan.request({"type": "spectate", "table": table}))
    dan.one("left", dan.request({"type": "leave"}))
    ann.one("bot_added", ann.request({"type": "add_bot", "level": "easy"}))
    easy = arrive(server, spawn.started[0])
    ann.one("started", ann.request({"type": "start"}))
    bob.drop()
    bob_again = server.greeted("Bob", host="192.168.1.31")  # back on the other network
    assert bob.token is not None
    bob_again.one("resumed", bob_again.request({"type": "resume", "token": bob.token}))
    ann.one("left", ann.request({"type": "leave"}))
    bob_again.one("bot_added", bob_again.request({"type": "add_bot", "level": "hard", "seat": 0}))
    hard = arrive(server, spawn.started[1])
    over = play_to_the_end([hard, bob_again, easy])
    bob_again.one("left", bob_again.request({"type": "leave"}))
    server.advance(1)  # the sweep closes the finished table nobody attends
    ann.drop()
    cid.drop()
    dan.drop()
    return server, over


def test_a_whole_party_is_logged_one_line_for_each_thing_that_happened_and_once(terminals):
    _server, over = a_whole_party()
    names = over["seats"]
    scores = over["scores"]
    result = party_log.results(names, scores, over["ranking"])
    assert result.startswith("1. ") and result.count(" VP") == 3
    lines = terminals["party"].lines()
    assert lines == [
        "Ann (192.168.1.20) connected",
        "table 1 (Secret Race) opened for 3 players",
        "Ann (192.168.1.20) joined table 1 (Secret Race) at place A",
        "Bob (192.168.1.21) connected",
        "Bob (192.168.1.21) joined table 1 (Secret Race) at place B",
        "Cid (192.168.1.22) connected",
        "Cid (192.168.1.22) joined table 1 (Secret Race) at place C",
        "Cid (192.168.1.22) left table 1 (Secret Race): place C is free",
        "Dan (192.168.1.23) connected",
        "Dan (192.168.1.23) is watching table 1 (Secret Race)",
        "Dan (192.168.1.23) stopped watching table 1 (Secret Race)",
        "started a bot program for Easy bot 1 at table 1",
        "Easy bot 1 (127.0.0.1) connected",
        "the easy bot (127.0.0.1) took Easy bot 1's place C at table 1 (Secret Race)",
        "table 1 (Secret Race) started: A Ann, B Bob, C Easy bot 1",
        "Bob (192.168.1.21) dropped from table 1 (Secret Race): seat B waits for them",
        "Bob (192.168.1.31) connected",
        "Bob (192.168.1.31) is back at table 1 (Secret Race), seat B",
        "Ann (192.168.1.20) left table 1 (Secret Race) during the game: seat A waits for them",
        "started a bot program for Ann at table 1",
        "Ann's seat A at table 1 (Secret Race) is handed to the hard bot",
        "Hard bot for Ann (127.0.0.1) connected",  # (a bot, not Ann)
        "the hard bot (127.0.0.1) took Ann's seat A at table 1 (Secret Race)",
        f"table 1 finished: {result}",
        "Bob (192.168.1.31) left table 1 (Secret Race)",
        "table 1 (Secret Race) closed",
        "Ann (192.168.1.20) disconnected",
        "Cid (192.168.1.22) disconnected",
        "Dan (192.168.1.23) disconnected",
    ]
    assert max(Counter(lines).values()) == 1


def test_the_log_never_shows_a_token_nor_what_was_said_in_the_chat(terminals):
    a_whole_party(chat="psst")
    for terminal in terminals.values():
        text = terminal.out.getvalue()
        assert SECRET_TOKENS not in text
        assert "psst" not in text


def test_verbose_adds_each_refused_request_with_its_code_and_who_chats_how_much(terminals):
    a_whole_party(chat="psst")
    party = terminals["party"].lines()
    verbose = terminals["verbose"].lines()
    added = [line for line in verbose if line not in party]
    assert set(party) <= set(verbose)
    assert "(debug) Cid (192.168.1.22) says 4 characters at table 1" in added
    assert (
        "(debug) Cid (192.168.1.22): start refused: session/wrong_state"
        " (`start` is not allowed while lobby)" in added
    )
    assert all(line.startswith("(debug) ") for line in added), added


def test_quiet_shows_warnings_and_errors_only(terminals):
    a_whole_party()
    log = Logger(namespace="server.hub")
    log.info("an information line")
    log.warn("a warning line")
    log.error("an error line")
    assert terminals["quiet"].lines() == ["warning: a warning line", "error: an error line"]


def test_the_libraries_chatter_shows_only_when_verbose(terminals):
    twisted_log = Logger(namespace="twisted.internet.tcp")
    twisted_log.info("ServerFactory starting on 7777")
    twisted_log.warn("a library's warning")
    assert terminals["party"].lines() == ["warning: a library's warning"]
    assert terminals["verbose"].lines() == [
        "ServerFactory starting on 7777",
        "warning: a library's warning",
    ]


def test_a_connection_the_server_closes_says_why():
    server, _spawn = party_server()
    events: list[dict[str, Any]] = []
    globalLogPublisher.addObserver(events.append)
    try:
        ann = server.greeted("Ann", host="192.168.1.20")
        table = ann.create("secret_race", 2)
        ann.join(table)
        server.advance(Limits().dead_after + 1)  # Ann's client answers no ping
    finally:
        globalLogPublisher.removeObserver(events.append)
    said = [party_log.line(e) for e in events if e["log_level"] == LogLevel.info]
    assert said[-1] == (
        "Ann (192.168.1.20) dropped from table 1 (Secret Race) (nothing heard for 45s):"
        " place A waits for them"
    )


def test_a_tie_shares_its_rank():
    assert party_log.results(["Ann", "Bob", "Cid"], [9, 9, 4], [[0, 1], [2]]) == (
        "1. Ann 9 VP, 1. Bob 9 VP, 3. Cid 4 VP"
    )


def test_quiet_and_verbose_choose_what_serve_logs():
    parse = build_parser().parse_args
    assert cli.verbosity(parse(["serve"])) == party_log.PARTY
    assert cli.verbosity(parse(["serve", "--quiet"])) == party_log.QUIET
    assert cli.verbosity(parse(["serve", "--verbose"])) == party_log.VERBOSE
    with pytest.raises(SystemExit):
        parse(["serve", "--quiet", "--verbose"])


@pytest.mark.slow
def test_serve_says_where_it_listens_once():
    proc, _port, lines = start_server("--db", ":memory:")
    try:
        assert sum("listening on" in line for line in lines) == 1, lines
        assert lines[0].startswith("Cosmoport server listening on 127.0.0.1:"), lines
        assert sum("join with" in line for line in lines) == 1, lines
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            out, _err = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _err = proc.communicate()
    assert "listening on" not in out and "starting on" not in out, out
