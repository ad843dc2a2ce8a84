"""The one way the client says counts and seats: plurals that agree, seats by letter and name."""

from __future__ import annotations

import pytest

from client.text.wording import agree, article, letter, plural, seat_name, who

NAMES = ["Ann", "Bob", "Cy"]


@pytest.mark.parametrize(
    ("count", "word", "text"),
    [
        (1, "die", "1 die"),
        (2, "die", "2 dice"),
        (0, "die", "0 dice"),
        (1, "credit", "1 credit"),
        (3, "credit", "3 credits"),
        (1, "more player", "1 more player"),
        (2, "more player", "2 more players"),
    ],
)
def test_plural_agrees_with_the_count_irregular_dice_included(
    count: int, word: str, text: str
) -> None:
    assert plural(count, word) == text


@pytest.mark.parametrize(
    ("made", "said"),
    [
        ("Put the yellow die (a 6) on planet 6: ends rolling, 1 dice lost", "1 die lost"),
        ("fortify +1 credits", "fortify +1 credit"),
        ("Boost planet 1: +1 step (1 crystals)", "(1 crystal)"),
        ("your address already holds 1 open tables", "1 open table"),
        ("draws 1 cards", "draws 1 card"),
    ],
)
def test_agree_mends_a_count_of_one_with_a_plural_noun(made: str, said: str) -> None:
    assert said in agree(made)


@pytest.mark.parametrize("text", ["2 dice lost", "11 credits", "W1 cards", "0.1 credits", "1 VP"])
def test_agree_leaves_other_counts_alone(text: str) -> None:
    assert agree(text) == text


def test_seats_are_named_by_letter_and_name_everywhere() -> None:
    assert letter(0) == "A" and letter(2) == "C" and letter(None) == "?"
    assert seat_name(NAMES, 1) == "B Bob"
    assert who(NAMES, 1) == "Bob"
    assert who(NAMES, "drone") == "the Drone"
    assert who(NAMES, 4) == "seat E"  # never "seat 4": the board shows letters


def test_an_article_agrees_with_the_word():
    assert [article(w) for w in ("easy", "hard", "normal", "Ultimate")] == [
        "an easy",
        "a hard",
        "a normal",
        "an Ultimate",
    ]
