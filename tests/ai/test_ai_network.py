"""The bot as a network client: it plays complete games of both games over real TCP.

The server runs in this process on 127.0.0.1 (port 0); the bot is the same code
``cosmoport bot`` runs (``NetworkBot`` + the threaded chooser), the opponent a random player.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import pytest
import pytest_twisted
from twisted.internet import reactor

import games
from client.net.network_bot import start_bot
from cosmoport.bot import ThreadedChooser, bot_name
from cosmoport.cli import main
from server.limits import Limits
from server.service import listen

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))
from tcp_client import RandomPlayer, connect

pytestmark = pytest.mark.slow


def bot_args(**overrides):
    values = {"level": "easy", "iterations": 12, "think": None, "verbose": False, "name": None}
    values.update(overrides)
    return argparse.Namespace(**values)


@pytest.mark.parametrize("game", games.names())
@pytest_twisted.ensureDeferred
async def test_a_search_bot_plays_a_whole_networked_game_against_a_random_player(game):
    port, factory = listen(reactor, "127.0.0.1", 0, Limits(rate=1e6, burst=10**6), bots=False)
    number = port.getHost().port
    try:
        person = await connect(reactor, number, "random")
        created = await person.call(
            {"type": "create", "game": game, "players": 2, "autostart": True}, "created"
        )
        table = created["table"]["id"]
        await person.call({"type": "join", "table": table}, "joined")
        player = RandomPlayer(person, random.Random(1))
        chooser = ThreadedChooser(bot_args(), seed=4)
        bot = await start_bot(reactor, "127.0.0.1", number, table, "MCTS bot (easy)", chooser)
        over = await bot.done.addTimeout(120, reactor)
        await player.done
        assert over["type"] == "game_over" and "MCTS bot (easy)" in over["seats"]
        assert chooser.decisions == bot.actions > 0
        person.transport.loseConnection()
    finally:
        factory.hub.shutdown()
        await port.stopListening()


def test_bot_names_say_what_plays():
    assert bot_name("hard", bot_args(level="hard")) == "MCTS bot (hard)"
    assert bot_name("random", bot_args(level="random")) == "Random bot"
    assert bot_name("hard", bot_args(name="Deep Thought")) == "Deep Thought"


@pytest.mark.parametrize(
    ("argv", "complaint"),
    [
        (["bot", "localhost:notaport", "--table", "1"], "port"),
        (["bot", "localhost", "--table", "1", "--iterations", "0"], "--iterations"),
        (["bot", "localhost", "--table", "1", "--think", "-1"], "--think"),
    ],
)
def test_bad_bot_arguments_are_refused_with_a_reason(argv, complaint, capsys):
    assert main(argv) == 2
    assert complaint in capsys.readouterr().err


def test_the_protocol_offers_exactly_the_bots_there_are():
    from ai.bots import KINDS
    from protocol import BOT_LEVELS

    assert set(BOT_LEVELS) == set(KINDS)


class FakeClient:
    """Stands in for client.net.session.Client: records requests, succeeds or refuses them."""

    def __init__(self, refuse: str | None = None) -> None:
        self.on_message = None
        self.requests: list[dict] = []
        self.refuse = refuse
        self.closed = False

    def request(self, msg):
        from twisted.internet import defer

        from client.net.connection import ServerError

        self.requests.append(msg)
        if self.refuse:
            return defer.fail(ServerError(self.refuse, "refused"))
        return defer.succeed({"type": "update"})

    def close(self):
        from twisted.internet import defer

        self.closed = True
        return defer.succeed(None)


class BrokenChooser:
    def choose(self, view, legal):
        raise RuntimeError("a bug in the bot")


def _update(version, legal, over=False, kind="update"):
    return {
        "type": kind,
        "version": version,
        "view": {"is_over": over, "scores": [1, 2]},
        "legal": [{"action": list(a), "label": "x"} for a in legal],
    }


def test_a_bot_whose_chooser_fails_plays_a_legal_action_instead_of_stalling():
    from twisted.internet.task import Clock

    from client.net.network_bot import NetworkBot

    clock, client = Clock(), FakeClient()
    NetworkBot(clock, client, BrokenChooser())
    client.on_message(_update(3, [("roll",), ("pass",)]))
    clock.advance(0)
    [sent] = client.requests
    assert sent["version"] == 3 and tuple(sent["action"]) in {("roll",), ("pass",)}


def test_a_bot_refused_once_plays_again_from_the_next_snapshot():
    from twisted.internet.task import Clock

    from ai.bots import RandomBot
    from client.net.network_bot import NetworkBot

    clock, client = Clock(), FakeClient(refuse="action/illegal")
    bot = NetworkBot(clock, client, RandomBot(random.Random(1)))
    client.on_message(_update(1, [("roll",)]))
    clock.advance(0)
    assert not client.closed and not bot.done.called
    client.on_message(_update(1, [("roll",)], kind="snapshot"))  # a strict server asks again
    clock.advance(0)
    assert len(client.requests) == 2 and not client.closed


def test_a_bot_plays_from_a_snapshot_whose_version_is_lower_than_what_it_held():
    """After a resume the snapshot is the game as of now (an older server renumbered a restored
    game that had undos): a bot that ignored it would never move again."""
    from twisted.internet.task import Clock

    from ai.bots import RandomBot
    from client.net.network_bot import NetworkBot

    clock, client = Clock(), FakeClient()
    NetworkBot(clock, client, RandomBot(random.Random(1)))
    client.on_message(_update(9, []))
    client.on_message(_update(7, [("roll",)], kind="snapshot"))
    clock.advance(0)
    [sent] = client.requests
    assert sent["version"] == 7


def test_a_bot_refused_three_times_in_a_row_stops_instead_of_looping():
    from twisted.internet.task import Clock

    from ai.bots import RandomBot
    from client.net.network_bot import MAX_REFUSED, NetworkBot

    clock, client = Clock(), FakeClient(refuse="action/illegal")
    bot = NetworkBot(clock, client, RandomBot(random.Random(1)))
    failures = []
    bot.done.addErrback(failures.append)
    for _ in range(MAX_REFUSED):
        client.on_message(_update(1, [("roll",)], kind="snapshot"))
        clock.advance(0)
    assert len(client.requests) == MAX_REFUSED == 3
    assert client.closed and failures and "action/illegal" in str(failures[0].value)


def test_a_bot_back_after_the_end_sees_the_game_is_over():
    from twisted.internet.task import Clock

    from ai.bots import RandomBot
    from client.net.network_bot import NetworkBot

    clock, client = Clock(), FakeClient()
    bot = NetworkBot(clock, client, RandomBot(random.Random(1)))
    client.on_message(_update(9, [], over=True, kind="snapshot"))
    assert bot.done.called and client.closed and client.requests == []
