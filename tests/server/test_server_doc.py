"""PROTOCOL.md agrees with the server and the engines: limits, states, table maps, game views.

The game sections are checked against the engines themselves: every view key, every action
kind and every event type seen in a few seeded random games must be named in the game's section,
so an engine change that the document does not follow fails here.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import games
from protocol import ERROR_CODES
from protocol.fields import TABLE_INFO_KEYS
from server.limits import Limits
from server.session import ALLOWED

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "PROTOCOL.md").read_text(encoding="utf-8")


def rows(section_start: str) -> list[list[str]]:
    """The table rows that follow ``section_start`` in PROTOCOL.md, cells stripped."""
    text = DOC[DOC.index(section_start) :]
    result = []
    started = False
    for line in text.splitlines():
        if line.startswith("|"):
            started = True
            cells = [c.strip() for c in line.strip("|").split("|")]
            if not set(cells[0]) <= {"-", " "}:
                result.append(cells)
        elif started:
            break
    return result[1:]  # without the header


def test_the_limits_table_gives_the_servers_defaults():
    documented = {cells[0].strip("`"): cells[1] for cells in rows("## 8. Limits")}
    defaults = Limits().public()
    assert set(documented) == set(defaults)
    for key, value in defaults.items():
        assert float(documented[key]) == float(value), key


def test_the_state_table_is_the_session_machine():
    documented = {}
    for cells in rows("## 5. Sessions and their states"):
        state = cells[0].strip("`")
        documented[state] = set(re.findall(r"`(\w+)`", cells[2]))
    assert documented == {state: set(allowed) for state, allowed in ALLOWED.items()}


def test_the_table_map_fields_are_all_documented():
    documented = {cells[0].strip("`") for cells in rows("## 7. Tables")}
    assert documented == set(TABLE_INFO_KEYS)


def test_every_error_code_is_exercised_by_some_test():
    sources = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("test_*.py"))
    missing = [code for code in ERROR_CODES if f'"{code}"' not in sources]
    assert missing == []


def game_section(name: str) -> str:
    match = re.search(rf"### 12\.\d [^\n]*\(`{name}`.*?(?=\n### |\n## )", DOC, re.DOTALL)
    assert match, f"PROTOCOL.md has no section for {name}"
    return match.group(0)


def observe(name: str, games_to_play: int = 3) -> tuple[set[str], set[str], dict[str, set[str]]]:
    """View keys, action kinds, and event types with their fields, seen in random games."""
    game = games.get(name)
    keys: set[str] = set()
    kinds: set[str] = set()
    events: dict[str, set[str]] = {}
    for seed in range(games_to_play):
        players = game.min_players + seed % (game.max_players - game.min_players + 1)
        state = game.new(players, seed)
        rng = random.Random(seed)
        while not state.is_over:
            keys.update(state.view(0))
            legal = state.legal_actions()
            kinds.update(a[0] for a in legal)
            for event in state.apply(rng.choice(legal)):
                events.setdefault(event["type"], set()).update(event)
        keys.update(state.view(None))
    return keys, kinds, events


def event_fields(section: str, event: str) -> str:
    """The fields the section gives ``event``: its table row's fields cell, or its entry up to
    the next ";"."""
    events = section[section.index("**Events") :]
    for line in events.splitlines():
        cells = line.split("|")
        if line.startswith("|") and f"`{event}`" in cells[1]:
            return cells[2]
    start = events.index(f"`{event}`")
    end = events.find(";", start)
    return events[start : end if end > 0 else len(events)]


@pytest.mark.parametrize("name", games.names())
def test_each_games_views_actions_and_events_are_documented(name):
    section = game_section(name)
    keys, kinds, events = observe(name)
    common = {"game", "players", "seat", "current_player", "is_over", "scores", "ranking"}
    undocumented = sorted(k for k in keys - common if f"`{k}`" not in section)
    assert undocumented == [], f"view keys missing from PROTOCOL.md §12 for {name}"
    undocumented = sorted(k for k in kinds if f'`["{k}"' not in section)
    assert undocumented == [], f"action kinds missing from PROTOCOL.md §12 for {name}"
    undocumented = sorted(e for e in events if f"`{e}`" not in section)
    assert undocumented == [], f"event types missing from PROTOCOL.md §12 for {name}"
    missing = {
        event: sorted(f for f in fields - {"type"} if not re.search(rf"\b{f}\b", text))
        for event, fields in events.items()
        for text in [event_fields(section, event)]
    }
    assert {e: f for e, f in missing.items() if f} == {}, f"event fields missing for {name}"


def test_every_message_type_is_exercised_by_some_server_test():
    from protocol import CATALOGUE

    here = Path(__file__).resolve().parent
    sources = "".join(p.read_text(encoding="utf-8") for p in here.glob("*.py"))
    missing = [m.type for m in CATALOGUE if f'"{m.type}"' not in sources]
    assert missing == []
