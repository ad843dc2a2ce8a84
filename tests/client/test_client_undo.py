"""`undo` in the console: offered exactly when the server allows it, sent against the version
the console holds, the board back as it was, and a plain answer when there is nothing to undo.

The whole-game tests run the real server in memory (``client_helpers.Network``), a solo Cosmic
Run so no bot is needed; the others script the server (``FakeClient``).
"""

from __future__ import annotations

from client_helpers import FakeClient, Network, Typist, legal_of, position, result, table_map

from games.cosmic_run.state import CosmicRunState


def greeted(net: Network, name: str = "Ann") -> Typist:
    client = net.client(name)
    typist = Typist(client)
    client.on_message = typist.console.receive
    client.on_status = typist.console.status
    d = client.start()
    net.run()
    typist.console.welcome(result(d))
    return typist


def solo(seed: int = 8) -> tuple[Network, Typist]:
    net = Network(seed=seed)
    typist = greeted(net)
    typist.type("create cr 1")
    net.run()
    typist.type("start")
    net.run()
    return net, typist


def _engine(net: Network) -> CosmicRunState:
    table = next(iter(net.factory.hub.lobby.tables.values()))
    assert isinstance(table.engine, CosmicRunState)
    return table.engine


def _play_until_undo_is_offered(net: Network, typist: Typist) -> dict:
    """Type choices until `undo` is offered; the view before the last one typed."""
    before: dict = {}
    for _ in range(200):
        game = typist.console.game
        assert game is not None and game.over is None and game.view is not None
        if game.undo is not None:
            return before
        before = game.view
        typist.type("" if len(game.legal) == 1 else "1")
        net.run()
    raise AssertionError("undo was never offered")


def test_the_board_offers_undo_and_undo_puts_the_game_back() -> None:
    net, typist = solo()
    before = _play_until_undo_is_offered(net, typist)
    game = typist.console.game
    assert game is not None and game.undo is not None
    shown = typist.take()
    assert "`undo` takes back: " + typist.console._undo_text(game) in shown
    engine = _engine(net)
    version = game.version
    typist.type("undo")
    net.run()
    text = typist.take()
    assert "Taking back:" in text
    assert "takes back:" in text  # the log line every seat gets
    assert game.version == version + 1
    assert _engine(net) is not engine  # the server swapped the earlier state back in
    assert game.view == _engine(net).view(0) == before
    assert game.legal == legal_of(_engine(net))


def test_undo_is_refused_politely_when_nothing_can_be_taken_back() -> None:
    net, typist = solo()
    game = typist.console.game
    assert game is not None and game.undo is None  # the turn starts with a roll: a barrier
    typist.take()
    typist.type("undo")
    net.run()
    text = typist.take()
    assert "Nothing to take back" in text
    assert "`undo` takes back" not in text


def test_help_lists_undo() -> None:
    typist = Typist(FakeClient())
    typist.type("help")
    assert "undo" in typist.take()
    typist.type("help undo")
    assert "take back your last action of this turn" in typist.take()


def _seated_with_undo(label: str) -> tuple[Typist, FakeClient]:
    client = FakeClient()
    typist = Typist(client)
    typist.type("join 4")
    names = ["Ann", "Bob"]
    table = table_map(4, "cosmic_run", names)
    client.reply({"type": "joined", "table": table, "slot": 0, "token": "t0k"})
    state = position("cosmic_run", 2, 5, 0)
    table["state"] = "playing"
    typist.console.receive({"type": "started", "table": table, "seat": 0, "seats": names})
    snapshot = {
        "type": "snapshot",
        "table": 4,
        "version": 7,
        "seat": 0,
        "view": state.view(0),
        "events": [],
        "legal": legal_of(state),
        "undo": label,
    }
    typist.console.receive(snapshot)
    return typist, client


def test_undo_is_sent_against_the_version_held_and_a_refusal_is_shown() -> None:
    typist, client = _seated_with_undo("Put die 2 (a 3) on planet 5")
    assert "`undo` takes back: Put die 2 (a 3) on planet 5" in typist.take()
    typist.type("undo")
    assert client.sent[-1] == {"type": "undo", "version": 7}
    client.refuse("action/no_undo", "nothing to take back")
    assert "Nothing to take back: something random or hidden" in typist.take()
    game = typist.console.game
    assert game is not None and game.legal  # the choices are open again


def test_an_undone_event_is_narrated_with_the_seat_and_what_was_taken_back() -> None:
    typist, _client = _seated_with_undo("Put die 2 (a 3) on planet 5")
    state = position("cosmic_run", 2, 5, 0)
    typist.take()
    typist.console.receive(
        {
            "type": "update",
            "table": 4,
            "version": 8,
            "seat": 0,
            "view": state.view(0),
            "events": [
                {"type": "undone", "seat": 0, "action": ["assign", 2, "P5"], "label": "Put it"}
            ],
            "legal": legal_of(state),
            "undo": None,
        }
    )
    text = typist.take()
    assert "Ann" in text and "takes back: Put it" in text
    game = typist.console.game
    assert game is not None and game.undo is None


def test_the_full_screen_menu_offers_undo_exactly_when_the_server_does() -> None:
    from client.tui import content

    typist, _client = _seated_with_undo("Put die 2 (a 3) on planet 5")
    lines, _targets, title = content.menu(typist.console, 80)
    assert title == "Your move"
    assert any("`undo` takes back: Put die 2 (a 3) on planet 5" in line for line in lines)
    game = typist.console.game
    assert game is not None
    game.undo = None
    lines, _targets, _title = content.menu(typist.console, 80)
    assert not any("undo" in line for line in lines)
