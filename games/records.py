"""Game records: one finished (or running) game as a JSON object, checked and replayed.

A record holds what it takes to play a game again with the engine: the game, its player count,
options and seed, and every applied action in order (``docs/records.md`` is the full format).
Same seed, same options, same actions give the same game, so every view any seat ever saw, every
event and the final result can be recomputed from it -- which is also why a record names every
hidden card and is handed out only after the game.

Pure: no file or network I/O, no clock, no module-level ``random``. The server writes records
with :func:`dumps` and checks one still replays with :func:`final_state` when it starts; a viewer
steps through one with :class:`Timeline`::

    record = loads(text)               # parse and check
    for step in replay(record):        # version 0 .. len(actions), forward only
        ...
    timeline = Timeline(record)        # random access: timeline.state(12), timeline.moves[11]

Every problem is a :class:`RecordError` (a ``ValueError``) with a one-line message. Actions are
numbered from 0 in messages, like their ``version``: "action 12" is the 13th action.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from typing import Any, NamedTuple

import games
from games.api import Action, Event, Game, State

FORMAT = "cosmoport-record"
FORMAT_VERSION = 1
"""The record format version this module reads and writes. Minor additions (new keys, which
readers ignore) keep the number; a reader refuses a record with a greater one."""

CHECKPOINT_EVERY = 32
"""How many actions apart :class:`Timeline` keeps a copy of the state (seeking back replays at
most this many actions from the copy before it)."""

Record = dict[str, Any]

_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z")
_EXAMPLE_TIME = "2026-12-03T22:31:07.512Z"
_NO_LONGER = "the record no longer replays:"
_SHOWN = 60  # characters of a bad value quoted in a message


class RecordError(ValueError):
    """A record that is not well formed, of an unknown game or format, or no longer replays."""


class Move(NamedTuple):
    """One applied action of a record: who played what, and the public events it produced."""

    version: int
    """The state version the action was played against: its index in ``actions``, from 0."""
    seat: int
    action: Action
    label: str
    """``state.label(action)`` just before the action was applied."""
    events: list[Event]


class Step(NamedTuple):
    """A position of a replay: the state after ``version`` actions and the move that led there."""

    version: int
    state: State
    """The live state of the replay: read it, do not change it (the next step changes it)."""
    move: Move | None
    """The last action applied (``None`` at version 0)."""


class Line(NamedTuple):
    """One record's line of a ``.jsonl`` text."""

    number: int
    """1-based line number in the text (blank lines are counted, but hold no record)."""
    text: str


# --- writing --------------------------------------------------------------------------------


def new_record(
    game: str,
    players: int,
    seed: int,
    options: Mapping[str, Any] | None,
    seats: list[dict[str, Any]],
    *,
    created: str,
    started: str,
    table: int | None = None,
    server: str | None = None,
) -> Record:
    """A record of a game just started, without actions: ``seats`` as ``{"name", "bot"}``.

    ``seed`` and ``options`` are exactly what was passed to the engine's ``new``; times are
    :func:`timestamp` texts. ``table`` and ``server`` are left out when ``None``.
    """
    record: Record = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": game,
        "edition": games.get(game).edition,
        "players": players,
        "options": dict(options or {}),
        "seed": seed,
        "seats": [{"name": s["name"], "bot": s.get("bot")} for s in seats],
        "takeovers": [],
        "actions": [],
        "result": None,
        "created": created,
        "started": started,
        "finished": None,
    }
    if table is not None:
        record["table"] = table
    if server is not None:
        record["server"] = server
    return record


def add_action(record: Record, seat: int, action: Action | list[Any], at: str) -> None:
    """Append an action ``seat`` just played (against version ``len(actions)``)."""
    actions = record["actions"]
    actions.append({"version": len(actions), "seat": seat, "action": list(action), "at": at})


def add_takeover(record: Record, seat: int, level: str, at: str) -> None:
    """Note that a bot of ``level`` took ``seat`` over now (at the current version)."""
    entry = {"seat": seat, "version": len(record["actions"]), "level": level, "at": at}
    record["takeovers"].append(entry)


def result_of(state: State) -> dict[str, Any]:
    """A record's ``result`` for a finished ``state``: its scores and ranking, as lists."""
    return {"scores": list(state.scores()), "ranking": [list(g) for g in state.ranking()]}


def finish(record: Record, state: State, at: str) -> None:
    """Set the result of a game that is over (``state`` after the last action)."""
    record["result"] = result_of(state)
    record["finished"] = at


# --- checking ---------------------------------------------------------------------------------


def _show(value: Any) -> str:
    """A short readable quote of a bad value."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_time(value: Any) -> bool:
    return isinstance(value, str) and _TIME.fullmatch(value) is not None


def _field(record: Record, key: str, where: str = "") -> Any:
    if key not in record:
        raise RecordError(f"{where}missing {key!r}")
    return record[key]


def _seat_ok(value: Any, players: int) -> bool:
    return _is_int(value) and 0 <= value < players


def check(record: Any) -> None:
    """Raise :class:`RecordError` unless ``record`` is a well-formed record of a known game.

    Checks the structure only (every field, its type, the invariants between fields); whether
    the actions still replay is for :func:`replay`, which needs the engine to run them.
    """
    if not isinstance(record, dict):
        raise RecordError(f"a record is a JSON object, not {_show(record)}")
    if record.get("format") != FORMAT:
        raise RecordError(f"not a Cosmoport game record ('format' is not {FORMAT!r})")
    version = _field(record, "format_version")
    if not _is_int(version) or version < 1:
        raise RecordError(f"'format_version' must be a positive integer, not {_show(version)}")
    if version > FORMAT_VERSION:
        raise RecordError(
            f"record format version {version} is newer than this program reads "
            f"({FORMAT_VERSION}): update Cosmoport"
        )
    name = _field(record, "game")
    if not isinstance(name, str) or name not in games.names():
        raise RecordError(f"unknown game {_show(name)}; known games: {', '.join(games.names())}")
    game = games.get(name)
    if not isinstance(_field(record, "edition"), str):
        raise RecordError(f"'edition' must be a string, not {_show(record['edition'])}")
    players = _field(record, "players")
    if not _is_int(players) or not game.min_players <= players <= game.max_players:
        raise RecordError(
            f"'players' must be an integer from {game.min_players} to {game.max_players} for "
            f"{game.title}, not {_show(players)}"
        )
    options = _field(record, "options")
    if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
        raise RecordError(f"'options' must be a JSON object, not {_show(options)}")
    if not _is_int(_field(record, "seed")):
        raise RecordError(f"'seed' must be an integer, not {_show(record['seed'])}")
    _check_seats(record, players)
    actions = _field(record, "actions")
    if not isinstance(actions, list):
        raise RecordError(f"'actions' must be a list, not {_show(actions)}")
    for index, entry in enumerate(actions):
        _check_action(index, entry, players)
    _check_takeovers(record, players, len(actions))
    _check_result(_field(record, "result"), players)
    for key in ("created", "started"):
        if not _is_time(_field(record, key)):
            raise RecordError(
                f"{key!r} must be a UTC time like {_EXAMPLE_TIME}, not {_show(record[key])}"
            )
    finished = _field(record, "finished")
    if finished is not None and not _is_time(finished):
        raise RecordError(
            f"'finished' must be null or a UTC time like {_EXAMPLE_TIME}, not {_show(finished)}"
        )
    if record.get("table") is not None and not _is_int(record["table"]):
        raise RecordError(f"'table' must be an integer, not {_show(record['table'])}")
    if record.get("server") is not None and not isinstance(record["server"], str):
        raise RecordError(f"'server' must be a string, not {_show(record['server'])}")


def _check_seats(record: Record, players: int) -> None:
    seats = _field(record, "seats")
    if not isinstance(seats, list):
        raise RecordError(f"'seats' must be a list, not {_show(seats)}")
    if len(seats) != players:
        raise RecordError(f"'seats' lists {len(seats)} seats for a game of {players} players")
    for seat, entry in enumerate(seats):
        where = f"seat {seat}: "
        if not isinstance(entry, dict):
            raise RecordError(f"{where}must be an object with 'name' and 'bot', not {_show(entry)}")
        if not isinstance(_field(entry, "name", where), str):
            raise RecordError(f"{where}'name' must be a string, not {_show(entry['name'])}")
        bot = _field(entry, "bot", where)
        if bot is not None and (not isinstance(bot, str) or not bot):
            raise RecordError(f"{where}'bot' must be a bot level or null, not {_show(bot)}")


def _check_action(index: int, entry: Any, players: int) -> None:
    where = f"action {index}: "
    if not isinstance(entry, dict):
        raise RecordError(f"{where}must be an object, not {_show(entry)}")
    version = _field(entry, "version", where)
    if version != index or not _is_int(version):
        raise RecordError(f"action {index} has version {_show(version)}, expected {index}")
    seat = _field(entry, "seat", where)
    if not _seat_ok(seat, players):
        raise RecordError(
            f"{where}'seat' must be a seat from 0 to {players - 1}, not {_show(seat)}"
        )
    action = _field(entry, "action", where)
    if (
        not isinstance(action, list)
        or not action
        or not all(isinstance(part, str) or _is_int(part) for part in action)
    ):
        raise RecordError(
            f"{where}'action' must be a non-empty list of strings and integers, not {_show(action)}"
        )
    if not _is_time(_field(entry, "at", where)):
        raise RecordError(
            f"{where}'at' must be a UTC time like {_EXAMPLE_TIME}, not {_show(entry['at'])}"
        )


def _check_takeovers(record: Record, players: int, actions: int) -> None:
    takeovers = _field(record, "takeovers")
    if not isinstance(takeovers, list):
        raise RecordError(f"'takeovers' must be a list, not {_show(takeovers)}")
    for number, entry in enumerate(takeovers):
        where = f"takeover {number}: "
        if not isinstance(entry, dict):
            raise RecordError(f"{where}must be an object, not {_show(entry)}")
        if not _seat_ok(_field(entry, "seat", where), players):
            raise RecordError(
                f"{where}'seat' must be a seat from 0 to {players - 1}, not {_show(entry['seat'])}"
            )
        version = _field(entry, "version", where)
        if not _is_int(version) or not 0 <= version <= actions:
            raise RecordError(
                f"{where}'version' must be from 0 to {actions} (the actions played), "
                f"not {_show(version)}"
            )
        level = _field(entry, "level", where)
        if not isinstance(level, str) or not level:
            raise RecordError(f"{where}'level' must be a bot level, not {_show(level)}")
        if not _is_time(_field(entry, "at", where)):
            raise RecordError(
                f"{where}'at' must be a UTC time like {_EXAMPLE_TIME}, not {_show(entry['at'])}"
            )


def _check_result(result: Any, players: int) -> None:
    if result is None:
        return
    if not isinstance(result, dict):
        raise RecordError(f"'result' must be null or an object, not {_show(result)}")
    scores = _field(result, "scores", "result: ")
    if not isinstance(scores, list) or len(scores) != players or not all(map(_is_int, scores)):
        raise RecordError(f"result: 'scores' must list {players} integers, not {_show(scores)}")
    ranking = _field(result, "ranking", "result: ")
    if (
        not isinstance(ranking, list)
        or not all(isinstance(group, list) and group for group in ranking)
        or sorted(s if _is_int(s) else -1 for group in ranking for s in group)
        != list(range(players))
    ):
        raise RecordError(
            f"result: 'ranking' must group every seat from 0 to {players - 1} once, "
            f"not {_show(ranking)}"
        )


def edition_note(record: Record) -> str | None:
    """A warning when the record was played by another rules edition than the installed one.

    Such a record is still worth trying (most changes leave old games playable); the viewer
    shows the note, and :func:`replay` says exactly where the game stopped replaying if it does.
    """
    game = games.get(record["game"])
    if record["edition"] == game.edition:
        return None
    return (
        f"this game was played with edition {record['edition']} of the {game.title} rules; "
        f"this program plays edition {game.edition}, so it may not replay"
    )


# --- replaying --------------------------------------------------------------------------------


def game_of(record: Record) -> Game:
    """The engine of a checked record's game."""
    return games.get(record["game"])


def new_state(record: Record) -> State:
    """The state before the first action: ``new(players, seed, options or None)``."""
    game = game_of(record)
    try:
        return game.new(record["players"], record["seed"], record["options"] or None)
    except ValueError as exc:
        raise RecordError(f"{_NO_LONGER} the game does not start: {exc}") from None


def _play(state: State, record: Record, index: int) -> Move:
    """Apply action ``index`` of ``record`` to ``state`` after checking it fits the game."""
    entry = record["actions"][index]
    action = tuple(entry["action"])
    seat = entry["seat"]
    what = f"action {index} {entry['action']!r}"
    if state.is_over:
        raise RecordError(f"{_NO_LONGER} {what} comes after the end of the game")
    if state.current_player != seat:
        raise RecordError(
            f"{_NO_LONGER} {what} is played by seat {seat}, but seat "
            f"{state.current_player} is to play"
        )
    if action not in state.legal_actions():
        raise RecordError(f"{_NO_LONGER} {what} is not legal")
    try:
        label = state.label(action)
        events = state.apply(action)
    except Exception as exc:  # any engine failure is the record's verdict, never a crash
        raise RecordError(f"{_NO_LONGER} {what} makes the engine fail: {exc!r}") from None
    return Move(index, seat, action, label, events)


def _check_outcome(state: State, record: Record) -> None:
    """The replayed end must be the recorded one (a record without a result may be running)."""
    recorded = record["result"]
    if recorded is None:
        return
    if not state.is_over:
        actions = len(record["actions"])
        raise RecordError(
            f"{_NO_LONGER} the game is not over after its {actions} actions, "
            "yet the record has a result"
        )
    replayed = result_of(state)
    for key in ("scores", "ranking"):
        if replayed[key] != recorded[key]:
            raise RecordError(
                f"{_NO_LONGER} the replay ends with {key} {replayed[key]}, "
                f"the record says {recorded[key]}"
            )


def replay(record: Record, *, checked: bool = False) -> Iterator[Step]:
    """Every position of ``record``: version 0 (the start) to ``len(actions)``, in order.

    Each :class:`Step` carries the one live state of the replay (changed by the next step:
    ``clone()`` it to keep it). Raises :class:`RecordError` when the record is not well formed
    (unless ``checked``: the caller ran :func:`check`), or at the step that no longer replays:
    an action out of turn, illegal or failing in the engine, or a final result that differs
    from the record's.
    """
    if not checked:
        check(record)
    state = new_state(record)
    count = len(record["actions"])
    if count == 0:
        _check_outcome(state, record)
    yield Step(0, state, None)
    for index in range(count):
        move = _play(state, record, index)
        if index == count - 1:
            _check_outcome(state, record)
        yield Step(index + 1, state, move)


def final_state(record: Record) -> State:
    """The state after every action of ``record`` (checked and replayed on the way)."""
    state: State | None = None
    for step in replay(record):
        state = step.state
    assert state is not None  # replay yields at least version 0
    return state


class Timeline:
    """Random access to every position of a record, for a viewer that steps forward and back.

    Built by one full checked replay, which keeps every :class:`Move` (labels and events) and a
    copy of the state every :data:`CHECKPOINT_EVERY` actions. :meth:`state` then reaches any
    version from the nearest copy at or before it, or from where it stands when moving forward.
    """

    __slots__ = ("_at", "_checkpoints", "_every", "_state", "moves", "record")

    def __init__(self, record: Record, every: int = CHECKPOINT_EVERY) -> None:
        if every < 1:
            raise ValueError("checkpoints must be at least one action apart")
        self.record = record
        self.moves: list[Move] = []
        self._every = every
        self._checkpoints: list[State] = []
        state: State | None = None
        for step in replay(record):
            if step.version % every == 0:
                self._checkpoints.append(step.state.clone())
            if step.move is not None:
                self.moves.append(step.move)
            state = step.state
        assert state is not None
        self._state: State = state
        self._at = len(self.moves)

    def __len__(self) -> int:
        """The number of actions (positions run from 0 to this)."""
        return len(self.moves)

    def state(self, version: int) -> State:
        """The state after ``version`` actions (read it, do not change it; valid until the
        next call). Raises ``IndexError`` outside 0 .. ``len(self)``."""
        if not 0 <= version <= len(self.moves):
            raise IndexError(f"no position {version}: the record has {len(self.moves)} actions")
        base = version - version % self._every
        if not base <= self._at <= version:
            self._state = self._checkpoints[base // self._every].clone()
            self._at = base
        actions = self.record["actions"]
        while self._at < version:
            self._state.apply(tuple(actions[self._at]["action"]))
            self._at += 1
        return self._state


# --- text -------------------------------------------------------------------------------------


def timestamp(seconds: float) -> str:
    """A record's time text for POSIX ``seconds``: UTC, milliseconds, ``Z``."""
    moment = datetime.fromtimestamp(seconds, UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def dumps(record: Record) -> str:
    """``record`` (checked first) as one line of compact UTF-8 JSON, no newline at the end."""
    check(record)
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def loads(text: str) -> Record:
    """The record in ``text`` (one JSON object), checked."""
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except ValueError as exc:  # JSONDecodeError is one
        raise RecordError(f"not JSON: {exc}") from None
    check(value)
    result: Record = value
    return result


def jsonl_lines(text: str) -> list[Line]:
    """The lines of a ``.jsonl`` text that hold a record (blank lines skipped).

    Lines end at ``\\n`` only: JSON written with ``ensure_ascii=False`` may hold characters that
    ``str.splitlines`` would also split at (U+2028, U+0085...).
    """
    lines = []
    for number, raw in enumerate(text.split("\n"), start=1):
        if raw.strip():
            lines.append(Line(number, raw.rstrip("\r")))
    return lines


def loads_line(line: Line, position: int) -> Record:
    """The record on ``line``, the ``position``-th (from 1) of its file; errors say which."""
    try:
        return loads(line.text)
    except RecordError as exc:
        where = f"record {position}" + (f" (line {line.number})" if line.number != position else "")
        raise RecordError(f"{where}: {exc}") from None


def loads_jsonl(text: str) -> list[Record]:
    """Every record of a ``.jsonl`` text, checked; the first bad one raises."""
    return [loads_line(line, position) for position, line in enumerate(jsonl_lines(text), 1)]
