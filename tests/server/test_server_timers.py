"""Turn timers: seconds per decision, a bank per seat, the stand-in bot for a seat out of time,
the hand-over after three timeouts in a row, `back`, and clocks that stand while nobody waits.

Everything runs on the real server stack in memory with a fake clock (``MemoryServer``): time
only moves when a test advances it, and the housekeeping tick that checks the clocks runs once
per second of it.
"""

from __future__ import annotations

import random
import sqlite3
from typing import Any

import pytest
from server_helpers import SECRET_RACE, MemoryClient, MemoryServer, last_game_message
from twisted.internet.testing import MemoryReactorClock
from twisted.logger import globalLogPublisher

from server import store_file as store_module
from server.limits import Limits
from server.store import Store
from server.table import Table
from server.timers import HANDED_OVER, RESTART_GRACE, TIMEOUT, TimerSettings, TurnClock

LIMITS: dict[str, Any] = {
    "rate": 1e9, "burst": 10**9, "act_rate": 1e9, "act_burst": 10**9, "dead_after": 1e6
}  # fmt: skip


def timed(timer: int = 10, bank: int = 5, players: int = 2, game: str = "cosmic_run", **kw: Any):
    """A started table with a timer; every client has read what it was sent."""
    server = MemoryServer(Limits(**LIMITS), **kw)
    table, clients = server.table_with(players, game=game, timer=timer, bank=bank)
    for c in clients:
        c.received()
    return server, table, clients


def mover(clients: list[MemoryClient]) -> MemoryClient:
    return next(c for c in clients if last_game_message(c)["legal"])


def act(client: MemoryClient, clients: list[MemoryClient], pick: int = 0) -> dict[str, Any]:
    last = last_game_message(client)
    action = last["legal"][pick]["action"]
    got = client.request({"type": "act", "version": last["version"], "action": action})
    for other in clients:
        if other is not client:
            other.received()
    return client.one("update", got)


def updates(client: MemoryClient) -> list[dict[str, Any]]:
    return [m for m in client.received() if m["type"] == "update"]


# --- the clock's arithmetic ----------------------------------------------------------------------


def test_time_past_the_decision_comes_out_of_the_bank_and_each_decision_starts_afresh():
    turns = TurnClock(TimerSettings(10, 30), 2)
    turns.begin(0, 100.0)
    turns.spend(108.0)  # within the decision: the bank is untouched
    assert turns.banks == [30.0, 30.0]
    turns.begin(0, 108.0)  # the same seat decides again: a fresh 10 s
    assert turns.message(108.0)["decision"] == 10.0
    turns.spend(120.0)  # 12 s: 2 from the bank
    assert turns.banks == [28.0, 30.0]
    turns.begin(1, 120.0)
    assert turns.due(120.0 + 10 + 30 - 0.1) is None
    assert turns.due(120.0 + 10 + 30) == TIMEOUT


def test_the_clock_message_counts_the_deciding_seats_bank_down_as_of_now():
    turns = TurnClock(TimerSettings(10, 30), 3)
    turns.begin(2, 0.0)
    assert turns.message(4.0) == {
        "seat": 2,
        "decision": 6.0,
        "banks": [30.0, 30.0, 30.0],
        "auto": [False, False, False],
        "paused": False,
    }
    assert turns.message(15.0)["decision"] == 0.0
    assert turns.message(15.0)["banks"] == [30.0, 30.0, 25.0]
    assert turns.banks == [30.0, 30.0, 30.0]  # a message spends nothing


def test_three_timeouts_in_a_row_hand_a_seat_over_and_acting_ends_the_run():
    turns = TurnClock(TimerSettings(10, 0), 2)
    assert turns.timed_out(0) is False
    assert turns.timed_out(0) is False
    assert turns.present(0) is False  # its player acted: the run starts again
    assert [turns.timed_out(0) for _ in range(3)] == [False, False, True]
    assert turns.auto == [True, False]
    turns.begin(0, 50.0)
    assert turns.due(50.5) is None
    assert turns.due(51.0) == HANDED_OVER  # the stand-in waits one second, not the timer
    assert turns.present(0) is True
    assert turns.auto == [False, False] and turns.timeouts == [0, 0]


def test_paused_clocks_stand_and_resume_where_they_stood():
    turns = TurnClock(TimerSettings(10, 5), 2)
    turns.begin(0, 0.0)
    turns.pause(4.0)
    assert turns.due(1000.0) is None
    assert turns.message(1000.0)["decision"] == 6.0 and turns.message(1000.0)["paused"]
    turns.resume(1000.0)
    assert turns.message(1003.0)["decision"] == 3.0
    assert turns.due(1010.9) is None and turns.due(1011.0) == TIMEOUT


@pytest.mark.parametrize(
    ("text", "settings"),
    [("90+300", TimerSettings(90, 300)), ("45", TimerSettings(45, 0)), ("off", None), ("0", None)],
)
def test_timer_settings_read_like_a_chess_clock(text, settings):
    assert TimerSettings.parse(text) == settings


@pytest.mark.parametrize("text", ["ninety", "90+", "-5", "4000", "90+99999"])
def test_a_bad_timer_setting_says_how_to_write_one(text):
    with pytest.raises(ValueError, match="SECONDS\\+BANK like 90\\+300"):
        TimerSettings.parse(text)


# --- tables ---------------------------------------------------------------------------------------


def test_create_sets_the_timer_and_the_server_default_applies_otherwise():
    server = MemoryServer(Limits(**LIMITS, timer=60, bank=120))
    host = server.greeted("host")
    tables = server.hub.lobby.tables
    assert tables[host.create("cosmic_run", 2)].info()["timer"] == 60
    assert tables[host.create("cosmic_run", 2)].info()["bank"] == 120
    chosen = tables[host.create("cosmic_run", 2, timer=30, bank=0)].info()
    assert (chosen["timer"], chosen["bank"]) == (30, 0)
    assert tables[host.create("cosmic_run", 2, timer=0)].timer is None
    assert (
        host.error(
            host.request({"type": "create", "game": "cosmic_run", "players": 2, "timer": 4000})
        )
        == "proto/bad_message"
    )


def test_every_snapshot_and_update_carries_the_clock():
    server, _table, clients = timed(timer=10, bank=5)
    for seat, client in enumerate(clients):
        snap = last_game_message(client)
        assert snap["clock"] == {
            "seat": 0,
            "decision": 10.0,
            "banks": [5.0, 5.0],
            "auto": [False, False],
            "paused": False,
        }, seat
    server.advance(3)
    update = act(mover(clients), clients)
    assert update["clock"]["decision"] == 10.0  # the next decision starts afresh


def test_a_table_without_a_timer_sends_a_nil_clock_and_never_plays_for_anyone():
    server, _table, clients = timed(timer=0)
    assert last_game_message(clients[0])["clock"] is None
    server.advance(10_000)
    assert all(updates(c) == [] for c in clients)


def test_a_seat_out_of_time_gets_a_stand_in_move_that_everyone_is_told_of():
    server, table, clients = timed(timer=10, bank=5)
    engine = server.hub.lobby.table(table).engine
    legal_before = {tuple(a) for a in engine.legal_actions()}
    server.advance(14)
    assert all(updates(c) == [] for c in clients)
    server.advance(1)
    got = [updates(c) for c in clients]
    assert all(len(u) == 1 for u in got)
    first, second = got[0][0], got[1][0]
    assert first["events"][0] == {"type": "stand_in", "seat": 0, "why": "timeout"}
    assert first["events"] == second["events"] and first["version"] == 1
    assert "id" not in first  # nobody asked for it
    stood_in = server.hub.lobby.table(table)
    assert stood_in.moves == 1 and first["clock"]["banks"][0] == 0.0
    assert first["undo"] is None  # nothing the stand-in did can be taken back
    assert legal_before  # the action it played was one of them (checked by the server)


def test_the_stand_in_plays_the_same_move_for_the_same_seed_and_moves():
    played = []
    for _ in range(2):
        server, table, _clients = timed(timer=5, bank=0, seed=7)
        server.advance(5)
        tab = server.hub.lobby.table(table)
        assert tab.moves == 1
        played.append(list(tab.recent))
    assert played[0] == played[1]


def test_undo_is_refused_after_the_stand_in_played():
    server, table, clients = timed(timer=5, bank=0)
    tab = server.hub.lobby.table(table)
    seat = tab.engine.current_player
    server.advance(5)
    for c in clients:
        c.received()
    if tab.engine.current_player == seat:  # still its turn: the stand-in's move is final
        client = clients[seat]
        version = last_game_message(client)["version"]
        got = client.request({"type": "undo", "version": version})
        assert client.error(got) == "action/no_undo"
    assert tab._undo == []


def test_acting_in_time_uses_the_bank_only_for_time_past_the_decision():
    server, table, clients = timed(timer=10, bank=5)
    server.advance(13)
    update = act(mover(clients), clients)
    tab = server.hub.lobby.table(table)
    assert tab.turns is not None and tab.turns.banks[0] == 2.0
    assert "stand_in" not in [e["type"] for e in update["events"]]


def handed_over(timer: int = 5) -> tuple[MemoryServer, int, list[MemoryClient], int]:
    """A two-seat game in which seat 0 timed out three decisions in a row."""
    server, table, clients = timed(timer=timer, bank=0)
    tab = server.hub.lobby.table(table)
    assert tab.turns is not None
    for _ in range(200):
        if tab.turns.auto[0]:
            return server, table, clients, tab.version
        if tab.engine.current_player == 0:
            server.advance(timer)
        else:
            server.advance(1)
            act(mover(clients), clients)
        for c in clients:
            c.received()
    raise AssertionError("seat 0 never timed out three times")


def test_three_timeouts_in_a_row_hand_the_seat_to_the_stand_in_and_everyone_is_told():
    server, table, clients = timed(timer=5, bank=0)
    tab = server.hub.lobby.table(table)
    statuses: list[dict[str, Any]] = []
    for _ in range(200):
        if tab.turns.auto[0]:
            break
        if tab.engine.current_player == 0:
            server.advance(5)
        else:
            act(mover(clients), clients)
        statuses += [m for m in clients[1].received() if m["type"] == "seat_status"]
        clients[0].received()
    assert tab.turns.timeouts[0] == 3
    assert statuses[-1]["auto"] is True and statuses[-1]["seat"] == 0
    assert [m for m in clients[0].log if m["type"] == "seat_status"][-1]["auto"] is True
    # From now on the stand-in plays seat 0's decisions one second after they start.
    if tab.engine.current_player != 0:
        act(mover(clients), clients)
    version = tab.version
    server.advance(1)
    made = updates(clients[1])
    assert made and made[0]["events"][0] == {"type": "stand_in", "seat": 0, "why": "handed_over"}
    assert tab.version > version


def test_back_gives_the_seat_back_and_the_timer_runs_again():
    server, table, clients, _ = handed_over()
    tab = server.hub.lobby.table(table)
    got = clients[0].request({"type": "back"})
    mine = clients[0].one("seat_status", got)
    assert mine["auto"] is False and mine["id"] == clients[0]._next_id - 1
    theirs = clients[1].one("seat_status")
    assert theirs["auto"] is False and "id" not in theirs
    assert tab.turns.auto == [False, False] and tab.turns.timeouts == [0, 0]
    if tab.engine.current_player != 0:
        act(mover(clients), clients)
    server.advance(4)  # the decision's 5 seconds are not up: nobody plays for seat 0
    assert updates(clients[1]) == []


def test_back_for_a_seat_not_handed_over_answers_and_tells_nobody_else():
    _server, _table, clients = timed()
    mine = clients[1].one("seat_status", clients[1].request({"type": "back"}))
    assert mine["auto"] is False
    assert clients[0].received() == []


def test_back_is_refused_before_the_start_and_to_a_spectator():
    server = MemoryServer(Limits(**LIMITS))
    table, (a, _b) = server.table_with(2, game="cosmic_run", start=False)
    assert a.error(a.request({"type": "back"})) == "table/not_started"
    watcher = server.greeted("wat")
    watcher.request({"type": "spectate", "table": table})
    assert watcher.error(watcher.request({"type": "back"})) == "session/wrong_state"


def test_acting_while_handed_over_takes_the_seat_back():
    server, table, clients, _ = handed_over()
    tab = server.hub.lobby.table(table)
    for _ in range(50):  # to a decision of seat 0 (the stand-in waits a second: we are quicker)
        if tab.engine.current_player == 0:
            break
        act(mover(clients), clients)
    got = clients[0].request(
        {
            "type": "act",
            "version": tab.version,
            "action": list(tab.engine.legal_actions()[0]),
        }
    )
    assert next(m["type"] for m in got if m["type"] in ("seat_status", "update")) == "seat_status"
    assert tab.turns.auto[0] is False
    assert clients[1].one("seat_status", [m for m in clients[1].received()])["auto"] is False


def test_the_clocks_stand_while_nobody_is_connected_and_run_on_when_someone_is_back():
    server, table, clients = timed(timer=10, bank=5)
    server.advance(4)
    for c in clients:
        c.drop()
    server.advance(3000)  # (an hour without anybody closes the table)
    tab = server.hub.lobby.table(table)
    assert tab.version == 0 and tab.turns.message(server.clock.seconds())["paused"]
    back = server.client()
    back.hello("p1")
    snap = back.one("snapshot", back.request({"type": "resume", "token": clients[1].token}))
    assert snap["clock"]["decision"] == 6.0 and snap["clock"]["paused"] is False
    server.advance(10)
    assert tab.version == 0
    server.advance(1)
    assert tab.version == 1  # 6 s of the decision and 5 of the bank later


def test_a_seat_away_while_others_wait_runs_out_of_time():
    server, table, clients = timed(timer=5, bank=0)
    clients[0].drop()  # seat 0 must decide; seat 1 is there, waiting
    server.advance(5)
    assert server.hub.lobby.table(table).version == 1


def secret_race_table(players: int, stand_in: Any) -> tuple[Table, MemoryReactorClock]:
    """A started Secret Race table (a secret per seat) of 5 seconds per decision and no bank."""
    clock = MemoryReactorClock()
    tab = Table(1, SECRET_RACE, players, {"target": 50}, clock=clock.seconds,
                timer=TimerSettings(5, 0), stand_in=stand_in)  # fmt: skip
    for slot in range(players):
        tab.join(f"p{slot}", _Member(), f"hash{slot}", slot)
    tab.start(random.Random(3), None)
    return tab, clock


def test_the_stand_in_sees_only_its_seats_view():
    seen: list[tuple[dict[str, Any], list[Any]]] = []

    def stand_in(game, view, legal, rng):
        seen.append((view, legal))
        return legal[0]

    tab, clock = secret_race_table(3, stand_in)
    engine = tab.engine
    for _ in range(4):
        seat = engine.current_player
        expected = engine.view(seat)
        clock.advance(5)
        tab.check_time()
        view, _legal = seen[-1]
        assert view == expected and view["seat"] == seat
        others = [engine.secrets[s] for s in range(3) if s != seat]
        assert not any(secret in repr(view) for secret in others)
        engine = tab.engine
    assert len(seen) == 4


def test_a_failing_stand_in_still_moves_the_game_on_with_a_legal_action():
    def broken(game, view, legal, rng):
        raise RuntimeError("the bot fell over")

    tab, clock = secret_race_table(2, broken)
    clock.advance(5)
    tab.check_time()
    assert tab.moves == 1


class _Member:
    def __init__(self) -> None:
        self.got: list[dict[str, Any]] = []

    def deliver(self, msg: dict[str, Any]) -> None:
        self.got.append(msg)


# --- the store and the host's log -----------------------------------------------------------------


def test_a_restart_keeps_the_timer_and_the_banks_of_the_last_action(tmp_path):
    path = tmp_path / "cosmoport.sqlite"
    first = MemoryServer(Limits(**LIMITS), store=Store.open(path))
    table, _clients = first.table_with(2, game="cosmic_run", timer=20, bank=40)
    first.advance(60)  # seat 0 ran out of time: its bank is spent
    assert first.hub.lobby.table(table).turns.banks[0] == 0
    first.hub.store.close()
    second = MemoryServer(Limits(**LIMITS), store=Store.open(path))
    again = second.hub.lobby.table(table)
    assert again.timer == TimerSettings(20, 40)
    assert again.turns.banks == [0.0, 40.0] and again.turns.auto == [False, False]


def test_the_time_the_server_was_down_is_nobodys(tmp_path):
    """A seat that used part of its bank finds it as it was at its last action; its decision
    starts afresh, however long the server was down."""
    path = tmp_path / "cosmoport.sqlite"
    first = MemoryServer(Limits(**LIMITS), store=Store.open(path))
    table, clients = first.table_with(2, game="cosmic_run", timer=20, bank=40)
    first.advance(30)  # seat 0 decides 10 s into its bank
    mover = next(c for c in clients if last_game_message(c)["legal"])
    msg = last_game_message(mover)
    mover.request({"type": "act", "version": msg["version"], "action": msg["legal"][0]["action"]})
    banks = list(first.hub.lobby.table(table).turns.banks)
    assert banks[0] == pytest.approx(30.0, abs=0.1)  # (the next decision may be seat 0's too)
    first.hub.store.close()
    second = MemoryServer(Limits(**LIMITS), store=Store.open(path))
    again = second.hub.lobby.table(table)
    assert again.turns.banks == pytest.approx(banks, abs=0.1)
    resumed = second.greeted("back")
    snapshot = resumed.one("snapshot", resumed.request({"type": "resume", "token": mover.token}))
    assert snapshot["clock"]["decision"] == 20.0  # the decision starts afresh
    assert snapshot["clock"]["banks"] == pytest.approx(banks, abs=0.1)


def restarted_with_one_back(tmp_path: Any) -> tuple[MemoryServer, int, MemoryClient, str]:
    """A timed game restarted; only the seat that does not decide now is back. Returns the
    server, the table, that client and the deciding seat's token."""
    path = tmp_path / "cosmoport.sqlite"
    first = MemoryServer(Limits(**LIMITS), store=Store.open(path))
    table, clients = first.table_with(2, game="cosmic_run", timer=5, bank=5)
    deciding = mover(clients)
    waiting = next(c for c in clients if c is not deciding)
    first.hub.store.close()
    second = MemoryServer(Limits(**LIMITS), store=Store.open(path))
    back = second.greeted("back")
    back.one("snapshot", back.request({"type": "resume", "token": waiting.token}))
    return second, table, back, deciding.token


def test_after_a_restart_the_seat_to_act_is_not_charged_until_its_player_is_back(tmp_path):
    """The other player came back at once; the deciding one takes 40 s (a console's retries):
    the clocks stand meanwhile, and run from when the deciding player is back."""
    server, table, back, token = restarted_with_one_back(tmp_path)
    server.advance(40)
    turns = server.hub.lobby.table(table).turns
    assert turns.message(server.clock.seconds())["paused"] is True
    assert not any(e.get("type") == "stand_in" for m in updates(back) for e in m["events"])
    late = server.greeted("late")
    snapshot = late.one("snapshot", late.request({"type": "resume", "token": token}))
    assert snapshot["clock"]["decision"] == 5.0 and snapshot["clock"]["paused"] is False
    server.advance(11)  # 5 s of decision and 5 of bank, and then some: now it is theirs
    assert any(e.get("type") == "stand_in" for m in updates(late) for e in m["events"])


def test_a_player_who_never_comes_back_after_a_restart_is_waited_for_a_minute(tmp_path):
    server, _table, back, _token = restarted_with_one_back(tmp_path)
    server.advance(RESTART_GRACE - 1)
    assert not any(e.get("type") == "stand_in" for m in updates(back) for e in m["events"])
    server.advance(12)
    assert any(e.get("type") == "stand_in" for m in updates(back) for e in m["events"])


def test_a_database_of_the_format_before_timers_is_brought_up_and_its_tables_have_none(tmp_path):
    path = tmp_path / "old.sqlite"
    old_schema = store_module._SCHEMA.replace(
        "    reason TEXT,\n    timer INTEGER NOT NULL DEFAULT 0,\n"
        "    bank INTEGER NOT NULL DEFAULT 0,\n    undos INTEGER NOT NULL DEFAULT 0\n",
        "    reason TEXT\n",
    ).replace("    banks TEXT,\n", "")
    old_schema = old_schema[: old_schema.index("CREATE TABLE meta")]
    assert old_schema != store_module._SCHEMA
    db = sqlite3.connect(path, isolation_level=None)
    store_module.create_schema(db, old_schema, store_module.APPLICATION_ID, 1)
    db.execute(
        "INSERT INTO tables (id, game, edition, players, options, seating, autostart, creator,"
        " state, created) VALUES (1, 'cosmic_run', '', 2, '{}', 'fixed', 0, '', 'waiting', 0)"
    )
    db.close()
    store = Store.open(path)
    (saved,) = store.unfinished()
    assert (saved.timer, saved.bank, saved.undos, saved.banks) == (0, 0, 0, None)
    check = sqlite3.connect(path)
    assert check.execute("PRAGMA user_version").fetchone()[0] == store_module.SCHEMA_VERSION
    check.close()
    store.close()


def test_the_host_sees_timeouts_the_hand_over_and_the_player_coming_back():
    lines: list[str] = []

    def observe(event: dict[str, Any]) -> None:
        from twisted.logger import formatEvent

        lines.append(formatEvent(event))

    globalLogPublisher.addObserver(observe)
    try:
        _server, _table, clients, _ = handed_over()
        clients[0].request({"type": "back"})
    finally:
        globalLogPublisher.removeObserver(observe)
    ran_out = [line for line in lines if "ran out of time" in line]
    assert len(ran_out) == 3, lines
    assert "p0 ran out of time at table 1 (Cosmic Run), seat A: a bot played" in ran_out[0]
    assert ran_out[-1].endswith("the seat is handed to the bot until they act again")
    assert [line for line in lines if "is back" in line] == [
        "p0 is back at table 1 (Cosmic Run): the bot gives seat A back"
    ]
