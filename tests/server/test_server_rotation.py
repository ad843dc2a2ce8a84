"""The housekeeping sweep visits a share of the sessions and tables per run, never all at once
(unless a run comes a whole period late), and still every one about once per period."""

from __future__ import annotations

from server.limits import Limits
from server.rotation import SLICES, Rotation
from tests.server.server_helpers import MemoryServer


def test_each_run_visits_its_share_and_a_round_visits_every_item_once():
    rotation: Rotation[int] = Rotation(1.0, start=0.0)
    items = list(range(25))
    runs = [rotation.due(k / 10, items) for k in range(1, 10)]
    assert [len(run) for run in runs] == [3] * 8 + [1]  # ceil(25 / 10), and the rest
    assert [item for run in runs for item in run] == items  # in order, each once
    assert rotation.due(1.0, items) == [0, 1, 2]  # the next round starts over


def test_a_run_a_whole_period_late_or_with_the_clock_gone_back_visits_everything():
    rotation: Rotation[str] = Rotation(2.0, start=10.0)
    assert rotation.due(10.2, "abcdefghij") == ["a"]
    assert rotation.due(12.2, "abcdefghij") == list("abcdefghij")
    assert rotation.due(11.0, "abcdefghij") == list("abcdefghij")
    assert rotation.due(11.0, "abcdefghij") == []  # no time has passed: nothing is due


def test_items_that_come_wait_for_the_next_round_and_items_that_go_are_still_handed_out():
    rotation: Rotation[int] = Rotation(1.0, start=0.0)
    items = [1, 2, 3, 4]
    assert rotation.due(0.5, items) == [1, 2]
    items.remove(3)
    items.append(5)
    assert rotation.due(1.0, items) == [3, 4]  # the round's snapshot: the caller skips 3
    assert rotation.due(1.5, items) == [1, 2]
    assert rotation.due(2.0, items) == [4, 5]


def test_the_server_times_out_silent_connections_a_share_at_a_time():
    server = MemoryServer(Limits(handshake_timeout=10, rate=1e9, burst=10**9))
    clients = [server.client(f"10.0.0.{n}") for n in range(1, 21)]
    step = server.hub.limits.tick / SLICES
    server.advance(10, step=step)  # a run every tenth of a second, the last at 10 s
    closed = [client.disconnected for client in clients]
    # At 10 s only the share looked at by that run is out (the others wait their turn)...
    assert 0 < sum(closed) < len(clients)
    server.advance(server.hub.limits.tick + 2 * step, step=step)
    # ...and within about one more period every one of them is.
    assert all(client.disconnected for client in clients)
    assert all(client.one("reject")["code"] == "limit/handshake_timeout" for client in clients)


def test_turn_timers_run_out_at_every_table_within_a_period_of_their_due_time():
    limits = Limits(
        rate=1e9, burst=10**9, act_rate=1e9, act_burst=10**9, connections_per_address=99
    )
    server = MemoryServer(limits)
    tables = [server.table_with(2, timer=5, bank=0) for _ in range(12)]
    step = server.hub.limits.tick / SLICES
    server.advance(5 + server.hub.limits.tick, step=step)
    for _table, clients in tables:
        updates = [m for m in clients[1].received() if m["type"] == "update"]
        assert updates and updates[0]["events"][0]["type"] == "stand_in", updates
