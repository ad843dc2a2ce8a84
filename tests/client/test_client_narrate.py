"""Narration: every public event of both games becomes one readable line."""

from __future__ import annotations

import random
import re

import pytest

import games
from client.games.cosmic_run.narrate import max_rounds
from client.games.narrate import label_text, narrate

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
            "Income: Ann's technologies score 2 VP (T04 +2, T12 +0).",
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


# --- wording: no rule jargon, counts that agree, seats as the board names them -------------------

JARGON = re.compile(r"\bstep \d|\(step|§|\bsection\b|\bslot \d|\bseat \d|\bplace \d")
ONE_MANY = re.compile(r"(?<![\w.])[+-]?1 (dice|credits|crystals|cards|hits|artifacts|players)\b")


def lines_and_labels(game: str, players: int, seeds: range) -> list[str]:
    """Every narrated line and every offered label (in the console's words) of random games."""
    found = []
    names = NAMES[:players]
    for seed in seeds:
        state = games.get(game).new(players, seed)
        rng = random.Random(seed)
        while not state.is_over:
            legal = state.legal_actions()
            found += [label_text(game, state.label(action), names) for action in legal]
            for event in state.apply(legal[rng.randrange(len(legal))]):
                found.append(narrate(game, event, names) or "")
    return found


@pytest.mark.parametrize(("game", "players"), [("cosmic_run", 2), ("alien_artifacts", 4)])
def test_no_rule_jargon_and_no_seat_numbers_in_what_the_client_prints(
    game: str, players: int
) -> None:
    bad = [text for text in lines_and_labels(game, players, range(3)) if JARGON.search(text)]
    assert bad == []


@pytest.mark.parametrize(("game", "players"), [("cosmic_run", 3), ("alien_artifacts", 3)])
def test_a_count_of_one_is_singular_in_every_line_and_label(game: str, players: int) -> None:
    bad = [text for text in lines_and_labels(game, players, range(4)) if ONE_MANY.search(text)]
    assert bad == []


@pytest.mark.parametrize(("players", "last"), [(1, 20), (2, 18), (3, 15), (4, 13)])
def test_the_storm_comes_after_the_last_round_never_as_a_round_past_it(
    players: int, last: int
) -> None:
    assert max_rounds(players) == last
    names = NAMES[:players]
    turn = {"type": "turn", "seat": 0, "round": last + 1}
    assert narrate("cosmic_run", turn, names) == f"-- Storm (after round {last}) --"
    turn["round"] = last
    assert narrate("cosmic_run", turn, names) == f"-- Round {last}: Ann's turn --"
    rounds = [
        int(text.split()[2].rstrip(":"))
        for text in lines_and_labels("cosmic_run", players, range(3))
        if text.startswith("-- Round ")
    ]
    assert max(rounds) <= last


def test_a_game_ended_by_the_storm_never_narrates_a_round_past_the_last() -> None:
    lines = lines_and_labels("cosmic_run", 2, range(1, 2))  # seed 1: the deck runs out
    assert "-- Storm (after round 18) --" in lines
    assert not any(line.startswith("-- Round 19") for line in lines)


@pytest.mark.parametrize(
    ("event", "text"),
    [
        (
            {"type": "crystals", "seat": 0, "source": "step 3a", "gained": 1, "returned": 0},
            "Ann gains 1 crystal as rolling ends.",
        ),
        (
            {"type": "crystals", "seat": 1, "source": "step 3a", "gained": 2, "returned": 4},
            "Bob gains 2 crystals as rolling ends (4 more lost: 5 at most).",
        ),
        (
            {"type": "crystals", "seat": 1, "source": "patron", "gained": 1, "returned": 0},
            "Bob gains 1 crystal from Patron.",
        ),
        ({"type": "rolling_ends", "seat": 0, "lost": [2]}, "Rolling ends: 1 die lost (W3)."),
        (
            {"type": "rolling_ends", "seat": 0, "lost": [0, 4]},
            "Rolling ends: 2 dice lost (W1 and W5).",
        ),
        (
            {"type": "meteor", "card": "M09", "planet": 4, "hits": 2},
            "Meteor card M09 strikes planet 4: hit 2 of 3.",
        ),
        (
            {"type": "recruit", "seat": 0, "alien": "A16", "slot": "A2"},
            "Ann recruits Orra from A2.",
        ),
        ({"type": "refill", "alien": "A09", "slot": "A2"}, "Oszu fills A2."),
    ],
)
def test_cosmic_run_sentences(event: dict, text: str) -> None:
    assert narrate("cosmic_run", event, NAMES) == text


@pytest.mark.parametrize(
    ("event", "text"),
    [
        (
            {"type": "alien_revealed", "alien": "AL3", "slot": 0},
            "AL3 Derelict Station appears among the alien systems.",
        ),
        (
            {"type": "action", "seat": 1, "action": "buy", "deck": "ship", "price": 1},
            "Bob buys from the ship deck for 1 credit.",
        ),
        ({"type": "artifact_draw", "seat": 0, "count": 1}, "Ann draws 1 artifact to keep one."),
        ({"type": "reshuffle", "deck": 1}, "The discard pile becomes the new deck (1 card)."),
        (
            {"type": "star_chart", "seat": 2, "deck": "tech", "count": 1},
            "Cy looks at the top card of the tech deck.",
        ),
    ],
)
def test_alien_artifacts_counts_and_places(event: dict, text: str) -> None:
    assert narrate("alien_artifacts", event, NAMES) == text


@pytest.mark.parametrize(
    ("game", "label", "text"),
    [
        (
            "alien_artifacts",
            "S03 Frigate attacks seat 1 (The League)",
            "S03 Frigate attacks B Bob (The League)",
        ),
        (
            "alien_artifacts",
            "S03 Frigate attacks AL4 Smuggler Nebula (slot 0)",
            "S03 Frigate attacks AL4 Smuggler Nebula",
        ),
        (
            "cosmic_run",
            "Put the yellow die (a 6) on planet 6: ends rolling, 1 dice lost",
            "Put the yellow die (a 6) on planet 6: ends rolling, 1 die lost",
        ),
        (
            "cosmic_run",
            "Boost planet 2: +1 step (1 crystals)",
            "Boost planet 2: +1 step (1 crystal)",
        ),
        ("cosmic_run", "Put W4 (a 1) on Rusk (A1)", "Put W4 (a 1) on Rusk (A1)"),
    ],
)
def test_labels_in_the_consoles_words(game: str, label: str, text: str) -> None:
    assert label_text(game, label, NAMES) == text
