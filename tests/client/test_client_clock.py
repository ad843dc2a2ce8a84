"""The turn timer in the console: the clock under the board and on `clock`, the stand-in's moves
narrated, the hand-over and `back`, and `create ... timer=`.

The game tests run the real server in memory on a fake reactor (``client_helpers.Network``), the
console's countdown on the same fake clock: a solo Cosmic Run, so no bot is needed.
"""

from __future__ import annotations

from client_helpers import FakeClient, Network, Typist, result

from client.console.clock import clock_line, left
from server.limits import Limits

CLOCK = {"seat": 1, "decision": 10.0, "banks": [30.0, 5.0], "auto": [False, False]}


def test_the_countdown_spends_the_decision_first_then_the_bank():
    assert left({**CLOCK, "paused": False}, 4.0) == (6.0, 5.0)
    assert left({**CLOCK, "paused": False}, 12.0) == (0.0, 3.0)
    assert left({**CLOCK, "paused": False}, 99.0) == (0.0, 0.0)
    assert left({**CLOCK, "paused": True}, 99.0) == (10.0, 5.0)
    assert left(None, 1.0) is None and left({**CLOCK, "seat": None}, 1.0) is None


def test_the_clock_line_names_every_seat_and_the_one_deciding():
    line = clock_line({**CLOCK, "paused": False}, 2.5, ["Ann", "Bob"], 0)
    assert line == "Clock: you 0:30 bank · B Bob decides, 0:08 left + 0:05 bank"
    mine = clock_line({**CLOCK, "paused": False}, 0.0, ["Ann", "Bob"], 1)
    assert mine == "Clock: A Ann 0:30 bank · you decide, 0:10 left + 0:05 bank"
    handed = clock_line({**CLOCK, "auto": [True, False], "paused": True}, 0.0, ["Ann", "Bob"], 1)
    assert handed is not None and handed.startswith("Clock: A Ann: a bot plays · ")
    assert handed.endswith("(stopped: nobody is at the table)")
    assert clock_line(None, 0.0, ["Ann"], 0) is None


def solo(timer: str = "10+5") -> tuple[Network, Typist]:
    net = Network(seed=3, limits=Limits(rate=1e6, burst=10**6, dead_after=1e6))
    client = net.client("Ann")
    typist = Typist(client, clock=net.reactor.seconds)
    client.on_message = typist.console.receive
    client.on_status = typist.console.status
    d = client.start()
    net.run()
    typist.console.welcome(result(d))
    typist.type(f"create cr 1 timer={timer}")
    net.run()
    typist.type("start")
    net.run()
    return net, typist


def test_the_board_shows_the_clock_and_clock_counts_down():
    net, typist = solo()
    assert "Clock: you decide, 0:10 left + 0:05 bank" in typist.take()
    net.advance(3)
    typist.type("clock")
    assert typist.take().strip() == "Clock: you decide, 0:07 left + 0:05 bank"
    typist.type("time")
    assert "0:07 left" in typist.take()


def test_a_table_without_a_timer_says_so():
    _net, typist = solo(timer="off")
    assert "Clock:" not in typist.take()
    typist.type("clock")
    assert "no turn timer" in typist.take()


def test_running_out_of_time_is_narrated_and_three_times_hand_the_seat_to_a_bot():
    net, typist = solo(timer="5")
    typist.take()
    net.advance(5)
    assert "You ran out of time: a bot makes this move:" in typist.take()
    net.advance(10)
    text = " ".join(typist.take().split())  # (wrapped to the screen)
    assert "a bot plays for you now. Type `back` when you are here again." in text
    net.advance(3)
    assert "The bot plays for you:" in typist.take()
    typist.type("back")
    net.run()
    assert "You play your seat again." in typist.take()
    game = typist.console.game
    assert game is not None and game.clock is not None and game.clock["auto"] == [False]
    typist.type("back")
    net.run()
    assert "You are playing your seat yourself" in typist.take()


def test_create_sends_the_timer_and_refuses_a_timer_it_cannot_read():
    client = FakeClient()
    typist = Typist(client)
    typist.type("create cr 3 timer=60+120")
    assert client.sent[-1] == {
        "type": "create", "game": "cosmic_run", "players": 3, "timer": 60, "bank": 120,
    }  # fmt: skip
    typist.type("create cr 2 timer=off")
    assert (client.sent[-1]["timer"], client.sent[-1]["bank"]) == (0, 0)
    sent = len(client.sent)
    typist.take()
    typist.type("create cr 2 timer=soon")
    assert "write timer=SECONDS+BANK like timer=90+300" in typist.take()
    assert len(client.sent) == sent


def test_the_table_list_shows_a_tables_timer():
    typist = Typist(FakeClient())
    table = {"id": 4, "game": "cosmic_run", "players": 2, "state": "waiting", "seats": [None, None]}
    assert "Cosmic Run timer=90+300," in typist.console.describe_table(
        {**table, "timer": 90, "bank": 300}
    )
    assert "timer" not in typist.console.describe_table({**table, "timer": 0, "bank": 0})


def test_the_full_screen_board_pane_ends_with_the_clock():
    from client.tui import content

    net, typist = solo()
    lines, _title = content.board(typist.console, 80)
    assert lines[-1].strip() == "Clock: you decide, 0:10 left + 0:05 bank"
    net.advance(2)
    assert content.board(typist.console, 80)[0][-1].strip().endswith("0:08 left + 0:05 bank")
