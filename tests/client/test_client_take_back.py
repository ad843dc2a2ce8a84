"""A console started again after its process died takes its seat back from the kept token.

`cosmoport join`'s pieces (``client.console.join.open_session``, then the welcome) run against the
real server in memory (``client_helpers.Network``): the first console is "killed" by closing its
connection without a word (the server holds the seat, as after a kill -9), and a second console,
with a new store on the same file, plays on. ``XDG_STATE_HOME`` points under ``tmp_path``.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from client_helpers import HOST, PORT, FakeClient, Network, Typist, result, table_map

from client.console.join import open_session
from client.net.network_bot import start_bots
from client.net.tokens import TokenStore

SERVER = f"{HOST}:{PORT}"
"""Where an older console kept seats: by the address (moved to the server's id on welcome)."""


def kept_key(net: Network) -> str:
    """Where seats of the server of ``net`` are kept: by the id its welcome gives."""
    return f"id:{net.factory.hub.store.server_id}"


TURN_LIMIT = 3000


@pytest.fixture(autouse=True)
def state_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return tmp_path / "state"


class Person:
    """One run of `cosmoport join` on the in-memory network: its client, console and screen."""

    def __init__(self, net: Network, name: str = "Ann") -> None:
        self.net = net
        self.typist = Typist(FakeClient())  # only for its captured screen
        self.typist.screen.width = 1000  # long paths are not cut across lines
        self.store = TokenStore()
        self.client, self.console = open_session(
            net.reactor, HOST, PORT, name, self.typist.screen, self.typist.quit, self.store
        )
        self.typist.console = self.console

    def enter(self) -> str:
        """Connect and be welcomed (taking back a kept seat): what the screen shows."""
        d = self.client.start()
        self.net.run()
        self.console.welcome(result(d))
        self.net.run()
        return self.typist.take()

    def type(self, line: str) -> None:
        self.typist.type(line)
        self.net.run()

    def play(self, moves: int) -> int:
        """Play the first action at each turn (bots move too) for up to ``moves`` of ours."""
        played = 0
        for _ in range(TURN_LIMIT):
            game = self.console.game
            if played == moves or (game is not None and game.over is not None):
                return played
            if game is not None and game.my_turn:
                self.type("" if len(game.legal) == 1 else "1")
                played += 1
            self.net.run()
            self.net.reactor.advance(0.5)
        raise AssertionError("the game did not get on")

    def kill(self) -> None:
        """The process dies: the connection goes without a `leave` (the server holds the seat),
        and whatever was in memory is lost with this object."""
        self.client.close()
        self.net.run()


def game_under_way(net: Network) -> Person:
    """Ann at table 1, a Cosmic Run for two against a random bot, a few moves in."""
    ann = Person(net)
    ann.enter()
    ann.type("create cr 2 autostart")
    start_bots(net.reactor, HOST, PORT, 1, 1, "cosmic_run", seed=4, delay=0.5)
    net.run()
    assert ann.play(3) == 3
    return ann


def test_a_console_started_again_takes_its_seat_back_by_itself_and_plays_to_the_end() -> None:
    net = Network(seed=5)
    ann = game_under_way(net)
    held = ann.store.seat(kept_key(net), 1)
    assert held is not None and held.token == ann.client.token
    ann.kill()
    again = Person(net)
    text = again.enter()
    assert "Taking back your seat at table 1..." in text
    assert "Back in your seat at table 1." in text
    assert "Cosmic Run  round" in text  # the snapshot draws the board
    assert again.console.where == "table" and again.client.seated
    rotated = again.store.seat(kept_key(net), 1)
    assert rotated is not None and rotated.token == again.client.token != held.token
    again.play(TURN_LIMIT)
    assert "=== Game over ===" in again.typist.take()
    assert again.store.seats(kept_key(net)) == []  # nothing left to take back
    third = Person(net)
    assert "Taking back" not in third.enter()


def test_the_most_recent_seat_is_taken_back_and_the_others_mentioned() -> None:
    net = Network(seed=5)
    ann = game_under_way(net)
    ann.kill()
    store = TokenStore(now=lambda: datetime(2020, 1, 1, tzinfo=UTC))
    store.save(SERVER, 7, "old-seven", "Ann", "cosmic_run")
    store.save(SERVER, 8, "old-eight", "Ann", "cosmic_run")
    again = Person(net)
    text = again.enter()
    assert "Taking back your seat at table 1..." in text
    assert "You also have seats kept at tables 8 and 7 on this server: `resume TABLE`" in " ".join(
        text.split()
    )
    again.type("leave")
    again.type("resume 7")
    text = again.typist.take()
    assert "Your seat at table 7 is gone: the server no longer knows it" in " ".join(text.split())
    assert [s.table for s in again.store.seats(kept_key(net))] == [1, 8]


def test_a_seat_the_server_forgot_is_dropped_and_the_next_one_taken_back() -> None:
    net = Network(seed=5)
    ann = game_under_way(net)
    ann.kill()
    later = datetime.now(UTC) + timedelta(days=1)
    TokenStore(now=lambda: later).save(SERVER, 9, "from-a-server-restarted", "Ann", "cosmic_run")
    again = Person(net)
    text = " ".join(again.enter().split())
    assert text.index("Taking back your seat at table 9...") < text.index(
        "Your seat at table 9 is gone"
    )
    assert "Taking back your seat at table 1..." in text and "Back in your seat at table 1." in text
    assert [s.table for s in again.store.seats(kept_key(net))] == [1]


def test_resume_without_a_token_in_memory_uses_the_kept_one() -> None:
    net = Network(seed=5)
    ann = game_under_way(net)
    ann.kill()
    bob = Person(net, "Bob")  # another console of the same person, started with no seat
    bob.client.tokens = None  # ...that does not look at the kept seats by itself
    bob.enter()
    bob.client.tokens = bob.store
    assert bob.client.token is None
    bob.type("resume")
    text = bob.typist.take()
    assert "Taking back your seat at table 1..." in text and "Back in your seat at table 1." in text
    assert bob.console.where == "table" and bob.console.game is not None
    assert bob.play(1) == 1


def test_resume_says_plainly_when_there_is_nothing_to_take_back() -> None:
    net = Network()
    ann = Person(net)
    ann.enter()
    ann.type("resume")
    assert "There is no seat to take back." in ann.typist.take()
    ann.type("resume 4")
    assert "No seat of yours is kept for table 4 on this server." in ann.typist.take()
    ann.type("resume now")
    assert "Usage: resume [TABLE]" in ann.typist.take()


def test_a_console_whose_client_keeps_no_tokens_takes_nothing_back() -> None:
    client = FakeClient()
    typist = Typist(client)
    typist.console.welcome({"server": "s", "name": "Ann", "games": []})
    assert client.sent == [] and "Taking back" not in typist.take()


def test_a_resume_at_a_table_still_waiting_says_what_it_waits_for() -> None:
    client = FakeClient()
    client.token = "t0k"
    typist = Typist(client)
    typist.type("resume")
    assert client.sent[-1] == {"type": "resume", "token": "t0k"}
    client.reply(
        {
            "type": "resumed",
            "table": table_map(4, "cosmic_run", ["Ann", None]),
            "slot": 0,
            "seat": None,
            "token": "t1k",
        }
    )
    text = typist.take()
    assert "Back in your seat at table 4." in text
    assert "The game has not started: waiting for 1 more player(s)." in text
    assert typist.screen.prompt == "table 4> "


def test_a_corrupt_token_file_is_a_note_on_the_console_and_the_next_seat_rewrites_it(
    state_home: Path,
) -> None:
    path = state_home / "cosmoport" / "seat-tokens.json"
    path.parent.mkdir(parents=True)
    path.write_text("{ this is not json")
    net = Network()
    ann = Person(net)
    text = " ".join(ann.enter().split())
    assert f"The kept seat tokens in {path} make no sense: ignored" in text
    assert ann.console.where == "lobby"
    ann.type("create cr 2")
    assert [s.table for s in TokenStore(path).seats(kept_key(net))] == [1]


def test_history_lists_finished_games_and_save_table_keeps_one(tmp_path: Path) -> None:
    net = Network(seed=5)
    ann = game_under_way(net)
    ann.play(TURN_LIMIT)
    ann.typist.take()
    ann.type("leave")
    ann.type("history")
    text = " ".join(ann.typist.take().split())
    assert "Finished games (newest first):" in text
    over = ann.console.ended
    assert over == 1
    assert "1: Cosmic Run, " in text and "1. " in text and "2. " in text
    assert "`save TABLE` keeps a game's record." in text and "history more" not in text
    ann.type("history more")
    assert "No older games." in ann.typist.take()
    target = tmp_path / "kept.json"
    ann.type(f"save 1 {target}")
    assert f"Record of table 1 saved to {target}" in " ".join(ann.typist.take().split())
    record = json.loads(target.read_text(encoding="utf-8"))
    assert record["table"] == 1 and record["result"] is not None
    ann.type("save 99")
    assert "no game at table 99" in " ".join(ann.typist.take().split())
