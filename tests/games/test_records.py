"""Game records: seeded random games written as records replay exactly, views and all.

Each case plays a seeded random game directly on the engine, keeping every view of every seat
(and the spectator's) at every version, then writes the game as a record, sends it through
``dumps``/``loads`` and replays it: the replay must show the same views, events, labels and
result. Damaged records must fail with a message that says what is wrong and where.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

import games
from games import records
from games.records import RecordError

NAMES = ["Ann", "Bob \u2028the second", "Zoë", "Dee", "Eve"]
T0 = 1_796_256_000.0  # 2026-12-03T00:00:00Z in POSIX seconds

CASES = [
    (name, players, None)
    for name in games.names()
    for players in range(games.get(name).min_players, games.get(name).max_players + 1)
] + [("alien_artifacts", players, {"factions": "choice"}) for players in range(2, 6)]


class Played:
    """A seeded random game as it happened: its record and what every seat saw at each version."""

    def __init__(self, name: str, players: int, seed: int, options: Any = None) -> None:
        seats = [{"name": NAMES[s], "bot": "random" if s % 2 else None} for s in range(players)]
        self.record = records.new_record(
            name,
            players,
            seed,
            options,
            seats,
            created=records.timestamp(T0),
            started=records.timestamp(T0 + 60),
            table=7,
            server="test",
        )
        state = games.get(name).new(players, seed, options)
        rng = random.Random(seed)
        self.views = [self.all_views(state)]
        self.events: list[Any] = []
        self.labels: list[str] = []
        while not state.is_over:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            seat = state.current_player
            assert seat is not None
            self.labels.append(state.label(action))
            records.add_action(self.record, seat, action, records.timestamp(T0 + 61 + seat))
            self.events.append(json.dumps(state.apply(action)))
            self.views.append(self.all_views(state))
        records.finish(self.record, state, records.timestamp(T0 + 3600))
        self.scores, self.ranking = state.scores(), state.ranking()

    @staticmethod
    def all_views(state: Any) -> list[str]:
        seats: list[int | None] = [*range(len(state.scores())), None]
        return [json.dumps(state.view(seat), sort_keys=True) for seat in seats]


_PLAYED: dict[tuple[str, int, str], Played] = {}


def played(name: str = "cosmic_run", players: int = 2, options: Any = None) -> Played:
    """The game of a case (played once per test session: several tests read it)."""
    key = (name, players, json.dumps(options))
    if key not in _PLAYED:
        _PLAYED[key] = Played(name, players, seed=1000 + players, options=options)
    return _PLAYED[key]


def damaged(record: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(record)


def replay_error(record: dict[str, Any]) -> str:
    with pytest.raises(RecordError) as caught:
        records.final_state(record)
    return str(caught.value)


# --- replays are exact -------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_a_record_replays_every_view_event_and_label_of_its_game(
    name: str, players: int, options: Any
) -> None:
    game = played(name, players, options)
    record = records.loads(records.dumps(game.record))
    assert record == game.record
    steps = 0
    for step in records.replay(record):
        assert self_views(step.state) == game.views[step.version], f"version {step.version}"
        if step.move is not None:
            assert step.move.version == step.version - 1
            assert json.dumps(step.move.events) == game.events[step.move.version]
            assert step.move.label == game.labels[step.move.version]
            assert list(step.move.action) == record["actions"][step.move.version]["action"]
        steps += 1
    assert steps == len(record["actions"]) + 1 == len(game.views)
    final = records.final_state(record)
    assert final.is_over
    assert final.scores() == game.scores and final.ranking() == game.ranking
    assert record["result"] == {"scores": game.scores, "ranking": game.ranking}


def self_views(state: Any) -> list[str]:
    return Played.all_views(state)


@pytest.mark.parametrize("every", [1, 5, records.CHECKPOINT_EVERY])
@pytest.mark.parametrize("name", ["cosmic_run", "alien_artifacts"])
def test_a_timeline_reaches_any_position_in_any_order(name: str, every: int) -> None:
    game = played(name, 3)
    timeline = records.Timeline(game.record, every=every)
    assert len(timeline) == len(game.record["actions"])
    order = list(range(len(timeline) + 1))
    random.Random(every).shuffle(order)
    # forward one by one, back one by one, then jumps
    for version in [*order[:40], 0, 1, 2, 3, 2, 1, 0, len(timeline), len(timeline) - 1]:
        assert self_views(timeline.state(version)) == game.views[version], f"version {version}"
    assert [json.dumps(m.events) for m in timeline.moves] == game.events
    assert [m.label for m in timeline.moves] == game.labels


def test_a_timeline_refuses_positions_outside_the_game() -> None:
    timeline = records.Timeline(played().record)
    with pytest.raises(IndexError):
        timeline.state(len(timeline) + 1)
    with pytest.raises(IndexError):
        timeline.state(-1)


def test_a_running_game_without_result_replays_to_where_it_stands() -> None:
    record = damaged(played("alien_artifacts", 2).record)
    record["actions"] = record["actions"][:40]
    record["result"] = record["finished"] = None
    state = records.final_state(record)
    assert not state.is_over
    assert Played.all_views(state) == played("alien_artifacts", 2).views[40]


def test_a_record_with_no_action_is_the_start_of_the_game() -> None:
    record = damaged(played().record)
    record["actions"], record["result"], record["finished"] = [], None, None
    steps = list(records.replay(record))
    assert len(steps) == 1 and steps[0].move is None
    assert self_views(steps[0].state) == played().views[0]


# --- text -------------------------------------------------------------------------------------


def test_dumps_writes_one_compact_line_of_unescaped_utf8() -> None:
    text = records.dumps(played().record)
    assert "\n" not in text and ", " not in text and '": ' not in text
    assert "Zoë" not in text  # two players: Ann and Bob
    assert "\u2028" in text  # kept as is, not escaped
    three = records.dumps(played("cosmic_run", 3).record)
    assert "Zoë" in three
    assert json.loads(three) == played("cosmic_run", 3).record


def test_dumps_refuses_a_record_that_does_not_check() -> None:
    record = damaged(played().record)
    record["seed"] = "7"
    with pytest.raises(RecordError, match="'seed' must be an integer"):
        records.dumps(record)


def test_jsonl_lines_split_at_newlines_only_and_skip_blank_lines() -> None:
    one, two = records.dumps(played().record), records.dumps(played("cosmic_run", 3).record)
    text = f"{one}\n\n{two}\r\n"
    lines = records.jsonl_lines(text)
    assert [line.number for line in lines] == [1, 3]
    assert records.loads_jsonl(text) == [played().record, played("cosmic_run", 3).record]


def test_a_bad_jsonl_line_is_named_by_record_and_line() -> None:
    one = records.dumps(played().record)
    text = f"{one}\n\n{one[:-20]}\n"
    with pytest.raises(RecordError, match=r"^record 2 \(line 3\): not JSON"):
        records.loads_jsonl(text)
    bad = damaged(played().record)
    bad["actions"][12]["version"] = 11
    text = f"{one}\n{json.dumps(bad)}\n{one}\n"
    with pytest.raises(RecordError) as caught:
        records.loads_jsonl(text)
    assert str(caught.value) == "record 2: action 12 has version 11, expected 12"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not JSON"),
        ("{", "not JSON"),
        ("[1, 2]", "a record is a JSON object"),
        ('{"format": NaN}', "not JSON: NaN is not JSON"),
        ('{"format": "chess-pgn"}', "not a Cosmoport game record"),
    ],
)
def test_loads_refuses_what_is_not_a_record(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        records.loads(text)


def test_timestamp_is_utc_with_milliseconds_and_z() -> None:
    assert records.timestamp(0) == "1970-01-01T00:00:00.000Z"
    assert records.timestamp(T0 + 0.2509) == "2026-12-03T00:00:00.250Z"


# --- damaged records --------------------------------------------------------------------------


def test_readers_ignore_keys_they_do_not_know() -> None:
    record = damaged(played().record)
    record["comment"] = "a later minor addition"
    record["actions"][0]["think_ms"] = 120
    record["seats"][0]["rating"] = 1500
    record["result"]["margin"] = 3
    del record["table"], record["server"]
    records.check(record)
    assert records.final_state(record).is_over


def field_cases() -> list[tuple[str, Any, str]]:
    """(key, bad value, expected message) for top-level fields."""
    return [
        ("format_version", 2, "record format version 2 is newer than this program reads (1)"),
        ("format_version", 0, "'format_version' must be a positive integer"),
        ("format_version", "1", "'format_version' must be a positive integer"),
        ("game", "chess", 'unknown game "chess"; known games: alien_artifacts, cosmic_run'),
        ("edition", 1.0, "'edition' must be a string"),
        ("players", 9, "'players' must be an integer from 1 to 4 for Cosmic Run, not 9"),
        ("players", True, "'players' must be an integer"),
        ("options", [], "'options' must be a JSON object"),
        ("seed", 1.5, "'seed' must be an integer, not 1.5"),
        ("seats", {}, "'seats' must be a list"),
        ("seats", [{"name": "Ann", "bot": None}], "'seats' lists 1 seats for a game of 2 players"),
        ("seats", [{"name": "Ann"}, {"name": "B", "bot": None}], "seat 0: missing 'bot'"),
        ("seats", [{"name": 1, "bot": None}] * 2, "seat 0: 'name' must be a string"),
        ("takeovers", None, "'takeovers' must be a list"),
        ("actions", {}, "'actions' must be a list"),
        ("result", [], "'result' must be null or an object"),
        ("result", {"scores": [1], "ranking": [[0], [1]]}, "result: 'scores' must list 2"),
        ("result", {"scores": [1, 2], "ranking": [[0]]}, "result: 'ranking' must group every"),
        ("result", {"scores": [1, 2], "ranking": [[0, 0]]}, "result: 'ranking' must group every"),
        ("created", "yesterday", "'created' must be a UTC time like 2026-12-03T22:31:07.512Z"),
        ("started", "2026-12-03T22:31:07+01:00", "'started' must be a UTC time"),
        ("finished", 5, "'finished' must be null or a UTC time"),
        ("table", "7", "'table' must be an integer"),
        ("server", 0.1, "'server' must be a string"),
    ]


@pytest.mark.parametrize(("key", "value", "message"), field_cases())
def test_a_mistyped_field_is_named(key: str, value: Any, message: str) -> None:
    record = damaged(played().record)
    record[key] = value
    with pytest.raises(RecordError) as caught:
        records.check(record)
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize("key", ["format_version", "game", "players", "seed", "actions", "result"])
def test_a_missing_field_is_named(key: str) -> None:
    record = damaged(played().record)
    del record[key]
    with pytest.raises(RecordError, match=f"^missing '{key}'$"):
        records.check(record)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"version": 11}, "action 12 has version 11, expected 12"),
        ({"version": True}, "action 12 has version true, expected 12"),
        ({"seat": 2}, "action 12: 'seat' must be a seat from 0 to 1, not 2"),
        ({"action": []}, "action 12: 'action' must be a non-empty list"),
        ({"action": ["roll", True]}, "action 12: 'action' must be a non-empty list"),
        ({"action": "roll"}, "action 12: 'action' must be a non-empty list"),
        ({"at": None}, "action 12: 'at' must be a UTC time"),
    ],
)
def test_a_malformed_action_is_named(change: dict[str, Any], message: str) -> None:
    record = damaged(played().record)
    record["actions"][12].update(change)
    with pytest.raises(RecordError) as caught:
        records.check(record)
    assert str(caught.value).startswith(message)


def test_a_takeover_after_the_last_action_is_refused() -> None:
    record = damaged(played().record)
    records.add_takeover(record, 1, "easy", records.timestamp(T0))
    records.check(record)
    record["takeovers"][0]["version"] += 1
    with pytest.raises(RecordError, match="takeover 0: 'version' must be from 0 to"):
        records.check(record)


def test_a_changed_action_no_longer_replays_and_the_step_is_named() -> None:
    record = damaged(played("alien_artifacts", 2).record)
    record["actions"][12]["action"] = ["buy", 3]
    assert replay_error(record) == (
        "the record no longer replays: action 12 ['buy', 3] is not legal"
    )


def test_an_action_by_the_wrong_seat_no_longer_replays() -> None:
    record = damaged(played().record)
    seat = record["actions"][12]["seat"]
    record["actions"][12]["seat"] = 1 - seat
    assert replay_error(record).startswith(
        f"the record no longer replays: action 12 {record['actions'][12]['action']!r} is "
        f"played by seat {1 - seat}, but seat {seat} is to play"
    )


def test_an_action_after_the_end_no_longer_replays() -> None:
    record = damaged(played().record)
    last = record["actions"][-1]
    records.add_action(record, last["seat"], last["action"], last["at"])
    count = len(record["actions"])
    assert replay_error(record).endswith(
        f"action {count - 1} {last['action']!r} comes after the end of the game"
    )


def test_a_result_that_differs_from_the_replay_is_refused() -> None:
    record = damaged(played().record)
    record["result"]["scores"][0] += 1
    assert "the replay ends with scores" in replay_error(record)
    record = damaged(played().record)
    record["result"]["ranking"].reverse()
    assert "the replay ends with ranking" in replay_error(record)


def test_a_result_for_an_unfinished_game_is_refused() -> None:
    record = damaged(played().record)
    del record["actions"][-1]
    message = replay_error(record)
    assert message.endswith("yet the record has a result")
    assert f"after its {len(record['actions'])} actions" in message


def test_options_the_engine_refuses_no_longer_start_a_game() -> None:
    record = damaged(played().record)
    record["options"] = {"storm": True}
    assert replay_error(record) == (
        "the record no longer replays: the game does not start: "
        "Cosmic Run has no options (got: storm)"
    )


def test_an_engine_failure_is_the_records_error_not_a_crash(monkeypatch: Any) -> None:
    record = played().record
    state = records.new_state(record)

    def broken(action: Any) -> Any:
        raise ZeroDivisionError("engine bug")

    monkeypatch.setattr(type(state), "apply", lambda self, action: broken(action))
    assert replay_error(record) == (
        f"the record no longer replays: action 0 {record['actions'][0]['action']!r} makes the "
        "engine fail: ZeroDivisionError('engine bug')"
    )


def test_another_edition_is_noted_and_still_replayed() -> None:
    record = damaged(played().record)
    assert records.edition_note(record) is None
    record["edition"] = "0.9"
    note = records.edition_note(record)
    assert note is not None and "edition 0.9" in note and "edition 1.0" in note
    assert records.final_state(record).is_over


# --- the format's documentation ---------------------------------------------------------------

DOC = Path(__file__).resolve().parents[2] / "docs" / "records.md"


def test_the_documented_example_is_a_well_formed_record() -> None:
    text = DOC.read_text(encoding="utf-8")
    example = text.split("```json\n", 1)[1].split("```", 1)[0]
    records.check(json.loads(example))


def test_the_field_table_documents_every_field_a_record_has() -> None:
    rows = [line for line in DOC.read_text(encoding="utf-8").splitlines() if line.startswith("| `")]
    documented = {row.split("`")[1] for row in rows}
    assert documented == set(played().record)
