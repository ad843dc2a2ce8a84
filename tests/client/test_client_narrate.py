"""Narration: every public event of both games becomes one readable line."""

from __future__ import annotations

import random

import pytest

import games
from client.narrate import narrate

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]


def events_of(game: str, seeds: range, players: int = 3) -> list[dict]:
    found = []
    for seed in seeds:
        options = {"factions": "choice"} if game == "alien_artifacts" and seed % 2 else None
        state = games.get(game).new(players, seed, options)
        rng = random.Random(seed)
        while not state.is_over:
            legal = state.legal_actions()
            found.extend(state.apply(legal[rng.randrange(len(legal))]))
    return found


@pytest.mark.parametrize("game", ["cosmic_run", "alien_artifacts"])
def test_every_event_of_random_games_has_its_own_sentence(game: str) -> None:
    kinds = set()
    for event in events_of(game, range(4)):
        text = narrate(game, event, NAMES)
        kinds.add(event["type"])
        if text is None:
            continue
        assert not text.startswith(f"{event['type']}:"), (event, text)  # not the fallback
        assert "\n" not in text
    assert len(kinds) >= 15


@pytest.mark.parametrize(
    ("event", "text"),
    [
        (
            {
                "type": "attack",
                "seat": 1,
                "ship": "S12",
                "target": "alien",
                "slot": 0,
                "alien": "AL4",
                "card": "R14",
                "value": 5,
            },
            "Bob's S12 Dreadnought attacks AL4 Smuggler Nebula: R14 revealed, attack value 5.",
        ),
        (
            {
                "type": "attack",
                "seat": 0,
                "ship": "S05",
                "target": "player",
                "defender": 2,
                "cancelled": True,
            },
            "Ann's S05 Science Vessel attacks Cy, but the deck is empty: no attack.",
        ),
        (
            {
                "type": "defence_result",
                "seat": 1,
                "defender": 0,
                "repelled": False,
                "raid": 2,
                "strike": 1,
                "fortify": 0,
            },
            "Bob raids 2 credits from Ann and Bob strikes: +1 VP, Ann loses as many.",
        ),
        (
            {"type": "alien_result", "seat": 2, "credits": 1, "vp": 2, "artifact": True},
            "Cy gains 1 credit, 2 VP and an artifact.",
        ),
        (
            {
                "type": "pay",
                "seat": 0,
                "card": "R52",
                "from": "store",
                "half": "bottom",
                "value": 1,
            },
            "Ann pays R52 from store: bottom half, Gold 1.",
        ),
        (
            {
                "type": "tech_scoring",
                "seat": 0,
                "reason": "income",
                "techs": [["T04", 2], ["T12", 0]],
                "vp": 2,
            },
            "Ann's technologies score 2 VP (T04 +2, T12 +0) [Income].",
        ),
        (
            {"type": "action", "seat": 1, "action": "buy", "deck": "tech", "price": 3},
            "Bob buys from the tech deck for 3 credits.",
        ),
        (
            {"type": "built", "seat": 0, "card": "T04", "side": "operative"},
            "T04 Expanded Holds joins Ann's empire, operative side.",
        ),
        ({"type": "faction", "seat": 1, "faction": "EPI"}, "Bob takes the faction Episcopacy."),
        (
            {"type": "game_over", "scores": [17, 23, 17], "ranking": [[1], [0, 2]]},
            "Game over. Bob 23 > Ann 17 = Cy 17.",
        ),
    ],
)
def test_alien_artifacts_sentences(event: dict, text: str) -> None:
    assert narrate("alien_artifacts", event, NAMES) == text


def test_an_unknown_or_broken_event_is_listed_plainly_and_never_crashes() -> None:
    assert narrate("alien_artifacts", {"type": "nova", "seat": 1}, NAMES) == "nova: seat=1"
    assert narrate("alien_artifacts", {"type": "attack"}, NAMES) == "attack"
    assert narrate("cosmic_run", {"type": "move", "seat": 9}, NAMES) == "move: seat=9"
    assert narrate("chess", {"type": "mate"}, NAMES) == "mate"
