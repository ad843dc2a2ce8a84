"""Whole games in memory: the console (typed input) and random bots against the real server.

Everything runs on one fake reactor through iosim pumps: real framing, real sessions, real
tables, no socket, no sleep. The person always types the first listed action (Enter when there
is only one), so each game is the same every run.
"""

from __future__ import annotations

import argparse

import pytest
from client_helpers import HOST, PORT, Network, Typist, result
from twisted.internet import defer

from client.net.network_bot import start_bots
from cosmoport.play import Match

TURN_LIMIT = 3000


def play_out(net: Network, typist: Typist) -> int:
    """Type actions until the game is over; how many were typed."""
    typed = 0
    for _ in range(TURN_LIMIT):
        game = typist.console.game
        if game is not None and game.over is not None:
            return typed
        if game is not None and game.my_turn:
            typist.type("" if len(game.legal) == 1 else "1")
            typed += 1
        net.run()
        net.reactor.advance(0.5)  # bots wait a little before they act
    raise AssertionError("the game did not end")


def greeted(net: Network, name: str = "Ann") -> Typist:
    client = net.client(name)
    typist = Typist(client)
    client.on_message = typist.console.receive
    client.on_status = typist.console.status
    d = client.start()
    net.run()
    typist.console.welcome(result(d))
    return typist


@pytest.mark.parametrize(("game", "players"), [("cosmic_run", 2), ("alien_artifacts", 3)])
def test_a_person_plays_a_whole_game_against_bots_through_the_console(
    game: str, players: int
) -> None:
    net = Network(seed=3)
    typist = greeted(net)
    typist.type(f"create {game} {players} autostart")
    net.run()
    assert typist.console.where == "table"
    bots = start_bots(net.reactor, HOST, PORT, 1, players - 1, game, seed=5, delay=0.5)
    net.run()
    assert len(result(bots)) == players - 1
    typed = play_out(net, typist)
    text = typist.text
    assert typed > 10
    assert "The game of" in text and "starts!" in text
    assert "=== Game over ===" in text and "Random bot 1" in text
    assert "Type `leave` to go back to the lobby" in text
    typist.type("leave")
    net.run()
    assert typist.console.where == "lobby"
    assert all(bot.done.called for bot in result(bots))


def test_the_solo_game_needs_no_bots() -> None:
    net = Network(seed=8)
    typist = greeted(net)
    typist.type("create cr 1")
    net.run()
    typist.type("start")
    net.run()
    play_out(net, typist)
    assert "Solo rank:" in typist.text


def test_a_spectator_sees_the_board_as_turns_pass_and_never_a_menu() -> None:
    net = Network(seed=4)
    watcher = greeted(net, "Wat")
    host = greeted(net, "Host")
    host.type("create cr 2 autostart")
    net.run()
    watcher.type("spectate 1")
    net.run()
    start_bots(net.reactor, HOST, PORT, 1, 1, "cosmic_run", seed=2)
    net.run()
    for _ in range(40):
        net.reactor.advance(0.1)
        net.run()
    text = watcher.text
    assert "Watching table 1" in text
    assert "Cosmic Run  round" in text
    assert "Your move" not in text
    watcher.type("1")
    assert "spectators cannot play" in watcher.take()


def test_a_person_who_drops_mid_game_comes_back_to_the_same_seat() -> None:
    net = Network(seed=6)
    typist = greeted(net)
    typist.type("create cr 2 autostart")
    net.run()
    start_bots(net.reactor, HOST, PORT, 1, 1, "cosmic_run", seed=1)
    net.run()
    for _ in range(5):
        if typist.console.game and typist.console.game.my_turn:
            typist.type("1")
        net.run()
        net.reactor.advance(0.5)
    typist.take()
    net.drop(typist.console.client)
    net.advance(2)
    text = typist.take()
    assert "Connection to the server lost." in text
    assert "Back in your seat at table 1." in text
    assert "Cosmic Run  round" in text  # the snapshot redraws the board
    play_out(net, typist)
    assert "=== Game over ===" in typist.text


def test_play_sets_up_a_table_with_bots_and_again_starts_a_new_one() -> None:
    net = Network(seed=9)
    args = argparse.Namespace(game="cosmic-run", players=2, seed=4, bot_delay=0.0, bots="random")
    match = Match(net.reactor, args)
    match.port = PORT
    client = net.client("Ann")
    typist = Typist(client, again=match.again)
    match.client, match.console = client, typist.console
    client.on_message = typist.console.receive
    client.on_status = typist.console.status
    client.start()
    net.run()
    done = defer.ensureDeferred(match.new_table())
    net.run()
    result(done)
    play_out(net, typist)
    assert "`again` for a new game" in typist.take()
    typist.type("again")
    net.run()
    assert typist.console.table is not None and typist.console.table["id"] == 2
    assert typist.console.game is not None and typist.console.game.table_id == 2
    assert "The game of Cosmic Run starts!" in typist.take()


def test_every_place_is_taken_is_said_once_to_each_person_at_the_table() -> None:
    net = Network(seed=3)
    ann, bob, cy = greeted(net, "Ann"), greeted(net, "Bob"), greeted(net, "Cy")
    ann.type("create cr 3")
    net.run()
    bob.type("join 1")
    net.run()
    cy.type("join 1")  # the last place: the server's reply and the table's news both tell Cy
    net.run()
    for person in (ann, bob, cy):
        text = person.take()
        assert text.count("Every place is taken") == 1, text
        assert "place C" in text
