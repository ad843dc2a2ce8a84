"""End to end over real TCP on 127.0.0.1: complete games of every game through the protocol alone.

Scripted clients connect, create, join, spectate and play at random to the end; one player drops
its connection mid-game and comes back with its token. Bounded: each test gives up after 60 s.
"""

from __future__ import annotations

import random

import pytest
import pytest_twisted
from tcp_client import RandomPlayer, ScriptedClient, connect
from twisted.internet import defer, reactor

import games
from server.limits import Limits
from server.service import listen

pytestmark = pytest.mark.slow

TIMEOUT = 60.0


@pytest.fixture
def server():
    port, factory = listen(reactor, "127.0.0.1", 0, Limits(rate=1e6, burst=10**6))
    yield port.getHost().port, factory
    factory.hub.shutdown()
    port.stopListening()


def bounded(d: defer.Deferred) -> defer.Deferred:
    return d.addTimeout(TIMEOUT, reactor)


async def close_all(clients: list[ScriptedClient]) -> None:
    for client in clients:
        client.transport.loseConnection()
    await defer.gatherResults([c.closed for c in clients])


@pytest.mark.parametrize("game", games.names())
@pytest_twisted.ensureDeferred
async def test_complete_game_with_a_spectator_and_a_mid_game_reconnect(server, game):
    port, _factory = server
    players = max(2, games.get(game).min_players)
    rng = random.Random(11)
    host = await connect(reactor, port, "host")
    created = await host.call({"type": "create", "game": game, "players": players}, "created")
    table = created["table"]["id"]
    clients = [host] + [await connect(reactor, port, f"p{i}") for i in range(1, players)]
    tokens = []
    for client in clients:
        joined = await client.call({"type": "join", "table": table}, "joined")
        tokens.append(joined["token"])
    watcher = await connect(reactor, port, "watcher")
    await watcher.call({"type": "spectate", "table": table}, "spectating")
    watched = []
    watcher_done: defer.Deferred = defer.Deferred()

    def watch(msg):
        watched.append(msg)
        if msg["type"] == "game_over":
            watcher_done.callback(msg)

    watcher.on_message = watch

    bots = [RandomPlayer(c, random.Random(rng.random())) for c in clients]
    host.request({"type": "start"})

    # Let the dropper play a few of its own actions, then cut its connection mid-game.
    dropper = bots[1]
    await bounded(dropper.after(3))
    if not dropper.done.called:
        old = dropper.client
        old.on_message = None
        old.transport.abortConnection()
        await bounded(old.closed)
        back = await connect(reactor, port, "p1 again")
        back.request({"type": "resume", "token": tokens[1]})
        resumed = await bounded(back.expect("resumed"))
        assert resumed["token"] != tokens[1]
        snapshot = await bounded(back.expect("snapshot"))
        assert snapshot["view"]["is_over"] or snapshot["version"] > 0
        back.inbox.insert(0, snapshot)
        dropper.attach(back)
        clients[1] = back

    results = await bounded(defer.gatherResults([b.done for b in bots]))
    await bounded(watcher_done)
    assert all(r["scores"] == results[0]["scores"] for r in results)
    assert len(results[0]["ranking"]) >= 1
    kinds = {m["type"] for m in watched}
    assert {"snapshot", "update", "game_over", "seat_status"} <= kinds
    spectator_views = [m["view"] for m in watched if m["type"] in ("snapshot", "update")]
    assert all(v["seat"] is None for v in spectator_views)
    assert spectator_views[-1]["is_over"]
    await close_all([*clients, watcher])


@pytest_twisted.ensureDeferred
async def test_a_misbehaving_client_is_cut_off_while_a_game_carries_on(server):
    port, _factory = server
    game = games.names()[0]
    host = await connect(reactor, port, "host")
    created = await host.call({"type": "create", "game": game, "players": 2}, "created")
    table = created["table"]["id"]
    other = await connect(reactor, port, "other")
    for client in (host, other):
        await client.call({"type": "join", "table": table}, "joined")
    bots = [RandomPlayer(c, random.Random(i)) for i, c in enumerate((host, other))]

    troll = await connect(reactor, port, "troll")
    troll.transport.write(b"\xff\xff\xff\xff" + b"garbage")
    error = await bounded(troll.expect("error"))
    assert error["code"] == "proto/frame_too_large"
    await bounded(troll.closed)

    host.request({"type": "start"})
    await bounded(defer.gatherResults([b.done for b in bots]))
    await close_all([host, other])
