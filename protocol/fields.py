"""Field kinds of the message catalogue: what each kind accepts, and the protocol's field limits.

:mod:`protocol.messages` declares every message's fields with these kinds; each kind has a
human description (for PROTOCOL.md) and a checker that returns a complaint or None.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

NAME_MAX = 24
CHAT_MAX = 300
TOKEN_MAX = 64
ID_STR_MAX = 64
ACTION_MAX_PARTS = 16
ACTION_STR_MAX = 64
OPTIONS_MAX_KEYS = 32
OPTION_LIST_MAX = 32
OPTION_KEY_MAX = 32
OPTION_STR_MAX = 64
INT_MAX = 2**31 - 1
INT_MIN = -(2**31)
ID_INT_MIN = INT_MIN
ID_INT_MAX = 2**53 - 1
"""The integer ids a request may carry: 2**53 - 1 is the largest integer every JSON and
JavaScript number holds exactly (JavaScript msgpack encoders send 2**53 as a float)."""
ID_INT_MIN_V1 = -(2**63)
ID_INT_MAX_V1 = 2**64 - 1
"""The integer ids a version-1 session may send: any msgpack integer (int 64 to uint 64), as
version 1 was first written; the server echoes them as they came."""
VERSIONS_MAX = 16
"""The most entries in ``hello.versions``."""


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a message: ``kind`` names an entry of :data:`KINDS`."""

    name: str
    kind: str
    doc: str
    required: bool = True
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None


# --- field kinds -----------------------------------------------------------------------------

Checker = Callable[[Field, Any], "str | None"]  # returns a complaint, or None when fine


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_int(field: Field, value: Any) -> str | None:
    if not _is_int(value):
        return "must be an integer"
    low = INT_MIN if field.low is None else field.low
    high = INT_MAX if field.high is None else field.high
    if not low <= value <= high:
        return f"must be between {low} and {high}"
    return None


def _check_str(field: Field, value: Any) -> str | None:
    if not isinstance(value, str):
        return "must be a string"
    low = 0 if field.low is None else field.low
    high = 256 if field.high is None else field.high
    if not low <= len(value) <= high:
        return f"must be {low} to {high} characters long"
    return None


def _check_choice(field: Field, value: Any) -> str | None:
    if value not in field.choices or not isinstance(value, str):
        return f"must be one of {', '.join(field.choices)}"
    return None


def _check_bool(field: Field, value: Any) -> str | None:
    return None if isinstance(value, bool) else "must be a boolean"


def check_id(value: Any, wide: bool = False) -> str | None:
    """Why ``value`` is not a valid request ``id``, or None if it is: the one rule the catalogue
    checks and the server echoes by. ``wide``: the rule of version 1, any 64-bit integer."""
    if _is_int(value):
        low, high = (ID_INT_MIN_V1, ID_INT_MAX_V1) if wide else (ID_INT_MIN, ID_INT_MAX)
        if low <= value <= high:
            return None
        return f"must be between {low} and {high} (the integer ids of this protocol version)"
    if isinstance(value, str):
        return None if len(value) <= ID_STR_MAX else f"longer than {ID_STR_MAX} characters"
    if isinstance(value, float):
        return "must be a msgpack integer, not a float"
    return "must be an integer or a string"


def _check_id(field: Field, value: Any) -> str | None:
    return check_id(value)


def _check_versions(field: Field, value: Any) -> str | None:
    if not isinstance(value, list) or not 1 <= len(value) <= VERSIONS_MAX:
        return f"must be an array of 1 to {VERSIONS_MAX} integers"
    if not all(_is_int(v) and 0 <= v <= INT_MAX for v in value):
        return f"may only hold integers from 0 to {INT_MAX}"
    return None


def _check_text(field: Field, value: Any) -> str | None:
    if not isinstance(value, str) or not 1 <= len(value) <= CHAT_MAX:
        return f"must be a string of 1 to {CHAT_MAX} characters"
    if not value.isprintable():
        return "must be printable text (no control characters or line breaks)"
    return None


def _check_token(field: Field, value: Any) -> str | None:
    if not isinstance(value, str) or not 1 <= len(value) <= TOKEN_MAX:
        return f"must be a string of 1 to {TOKEN_MAX} characters"
    return None


def check_name(value: Any) -> str | None:
    """Why ``value`` is not a valid person's name, or None if it is."""
    if not isinstance(value, str):
        return "must be a string"
    if not 1 <= len(value) <= NAME_MAX:
        return f"must have 1 to {NAME_MAX} characters"
    if not value.isprintable():
        return "must be printable (no control characters)"
    if value != value.strip():
        return "may not start or end with spaces"
    return None


def _check_name(field: Field, value: Any) -> str | None:
    return check_name(value)


def _is_action_part(value: Any) -> bool:
    if isinstance(value, str):
        return len(value) <= ACTION_STR_MAX
    return _is_int(value) and INT_MIN <= value <= INT_MAX


def _check_action(field: Field, value: Any) -> str | None:
    if not isinstance(value, list) or not 1 <= len(value) <= ACTION_MAX_PARTS:
        return f"must be an array of 1 to {ACTION_MAX_PARTS} strings and integers"
    if not all(_is_action_part(part) for part in value):
        return "may only hold strings (up to 64 characters) and 32-bit integers"
    return None


def _is_option_scalar(value: Any) -> bool:
    if isinstance(value, str):
        return len(value) <= OPTION_STR_MAX
    if _is_int(value):
        return INT_MIN <= value <= INT_MAX
    return value is None or isinstance(value, bool)


def _check_options(field: Field, value: Any) -> str | None:
    if not isinstance(value, dict) or len(value) > OPTIONS_MAX_KEYS:
        return f"must be a map of at most {OPTIONS_MAX_KEYS} entries"
    for key, item in value.items():
        if not isinstance(key, str) or not 1 <= len(key) <= OPTION_KEY_MAX:
            return f"keys must be strings of 1 to {OPTION_KEY_MAX} characters"
        if isinstance(item, list):
            if len(item) > OPTION_LIST_MAX or not all(_is_option_scalar(x) for x in item):
                return f"option {key!r} must be a scalar or a short array of scalars"
        elif not _is_option_scalar(item):
            return f"option {key!r} must be a scalar or a short array of scalars"
    return None


def _check_map(field: Field, value: Any) -> str | None:
    return None if isinstance(value, dict) else "must be a map"


def _check_list(field: Field, value: Any) -> str | None:
    return None if isinstance(value, list) else "must be an array"


def _check_int_or_nil(field: Field, value: Any) -> str | None:
    return None if value is None else _check_int(field, value)


def _check_str_or_nil(field: Field, value: Any) -> str | None:
    return None if value is None else _check_str(field, value)


def _check_clock(field: Field, value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        return "must be a map or nil"
    missing = CLOCK_KEYS - value.keys()
    return f"lacks {', '.join(sorted(missing))}" if missing else None


def _check_table(field: Field, value: Any) -> str | None:
    if not isinstance(value, dict):
        return "must be a table map"
    missing = TABLE_INFO_KEYS - value.keys()
    return f"lacks {', '.join(sorted(missing))}" if missing else None


_LEGAL_KEYS = ({"action", "label"}, {"action"})  # without labels if hello said `labels: false`


def _check_legal(field: Field, value: Any) -> str | None:
    if not isinstance(value, list):
        return "must be an array"
    for item in value:
        if not isinstance(item, dict) or set(item) not in _LEGAL_KEYS:
            return "items must be maps with exactly `action` and `label` (or `action` alone)"
        if _check_action(field, item["action"]) or not isinstance(item.get("label", ""), str):
            return "items must hold an action array and a label string"
    return None


def _check_events(field: Field, value: Any) -> str | None:
    if not isinstance(value, list):
        return "must be an array"
    if not all(isinstance(e, dict) and isinstance(e.get("type"), str) for e in value):
        return "items must be maps with a string `type`"
    return None


def _check_view(field: Field, value: Any) -> str | None:
    if not isinstance(value, dict):
        return "must be a map"
    missing = VIEW_KEYS - value.keys()
    return f"lacks {', '.join(sorted(missing))}" if missing else None


KINDS: dict[str, tuple[str, Checker]] = {
    "int": ("integer (within the bounds given)", _check_int),
    "int|nil": ("integer or nil", _check_int_or_nil),
    "str": ("string (length within the bounds given)", _check_str),
    "str|nil": ("string (length within the bounds given) or nil", _check_str_or_nil),
    "choice": ("one of the strings listed", _check_choice),
    "bool": ("boolean", _check_bool),
    "id": (
        "integer from −2³¹ to 2⁵³ − 1 (a msgpack integer, never a float; in version 1 any "
        f"64-bit integer), or string of at most {ID_STR_MAX} characters",
        _check_id,
    ),
    "versions": (
        f"array of 1 to {VERSIONS_MAX} integers ≥ 0",
        _check_versions,
    ),
    "name": (
        f"string of 1 to {NAME_MAX} printable characters, no leading or trailing space",
        _check_name,
    ),
    "text": (f"string of 1 to {CHAT_MAX} printable characters (no line breaks)", _check_text),
    "token": (f"string of 1 to {TOKEN_MAX} characters", _check_token),
    "action": (
        f"array of 1 to {ACTION_MAX_PARTS} items, each a string (up to {ACTION_STR_MAX} "
        "characters) or a 32-bit integer",
        _check_action,
    ),
    "options": (
        f"map of up to {OPTIONS_MAX_KEYS} entries: string keys, values a string, integer, "
        f"boolean, nil or an array of up to {OPTION_LIST_MAX} of those",
        _check_options,
    ),
    "map": ("map", _check_map),
    "list": ("array", _check_list),
    "table": ("table map (see Table maps)", _check_table),
    "view": ("game view map (see Game views)", _check_view),
    "events": ("array of event maps, each with a string `type`", _check_events),
    "legal": (
        "array of maps `{action, label}` (`{action}` if you asked for no labels)",
        _check_legal,
    ),
    "clock": (
        "clock map `{seat, decision, banks, auto, paused}` (see Turn timers), or nil",
        _check_clock,
    ),
}

TABLE_INFO_KEYS = frozenset(
    {
        "id",
        "game",
        "players",
        "options",
        "seating",
        "autostart",
        "state",
        "seats",
        "spectators",
        "version",
        "timer",
        "bank",
    }
)
"""Keys of every table map the server sends."""

CLOCK_KEYS = frozenset({"seat", "decision", "banks", "auto", "paused"})
"""Keys of every ``clock`` map of updates and snapshots at a table with a turn timer."""

VIEW_KEYS = frozenset({"game", "players", "seat", "current_player", "is_over", "scores", "ranking"})
"""Keys every game view carries (the engine contract in ``games/api.py``)."""

TABLE_STATES = ("waiting", "playing", "finished", "closed")
