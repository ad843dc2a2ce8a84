"""The SPRT on a match's win share: it accepts what the simulated games were drawn from, its
false-positive rate is about alpha, and its settings parse with one-line errors."""

from __future__ import annotations

import math
import random

import pytest

from tournament.sprt import SPRT, parse_sprt

TEST = SPRT(0.50, 0.55)


def run(sprt: SPRT, p: float, rng: random.Random, cap: int = 5000) -> tuple[str | None, int]:
    """Play wins with chance ``p`` until the test decides (or ``cap`` games): the decision and
    the games it took. Running sums, as a long simulation cannot afford every prefix's list."""
    total = squares = 0.0
    for n in range(1, cap + 1):
        x = 1.0 if rng.random() < p else 0.0
        total += x
        squares += x * x
        mean = total / n
        decision = sprt.decide(sprt.llr_of(n, mean, squares / n - mean * mean))
        if decision is not None:
            return decision, n
    return None, cap


def stream(p: float, games: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    return [1.0 if rng.random() < p else 0.0 for _ in range(games)]


def test_bounds_are_the_wald_bounds_of_alpha_and_beta() -> None:
    low, high = TEST.bounds
    assert low == pytest.approx(-2.944439, abs=1e-6)
    assert high == pytest.approx(2.944439, abs=1e-6)
    low, high = SPRT(0.5, 0.55, alpha=0.05, beta=0.10).bounds
    assert low == pytest.approx(math.log(0.10 / 0.95))
    assert high == pytest.approx(math.log(0.90 / 0.05))


def test_llr_is_the_normal_approximation_of_the_gsprt() -> None:
    scores = [1, 0, 1, 1, 0.5, 0, 1, 1]
    m = sum(scores) / 8
    v = sum((x - m) ** 2 for x in scores) / 8
    assert TEST.llr(scores) == pytest.approx(8 * 0.05 * (2 * m - 1.05) / (2 * v))
    assert TEST.llr(scores) == pytest.approx(0.3540, abs=1e-4)


def test_llr_is_positive_above_the_midpoint_and_negative_below() -> None:
    assert TEST.llr([1, 1, 0, 1, 0]) > 0  # mean 0.6
    assert TEST.llr([1, 0, 0, 1, 0]) < 0  # mean 0.4
    assert TEST.llr([1, 0, 1, 0.5, 0, 0.15, 0.85, 0.5]) == pytest.approx(
        8 * 0.05 * (2 * 0.5 - 1.05) / (2 * 0.155625)
    )


def test_llr_is_zero_before_the_first_game() -> None:
    assert TEST.llr([]) == 0.0
    assert TEST.decision([]) is None


def test_one_win_does_not_decide() -> None:
    # With no spread to measure yet the variance is a win-or-lose game's at p = 0.525.
    assert TEST.llr([1.0]) == pytest.approx(0.05 * 0.95 / (2 * 0.525 * 0.475))
    assert TEST.decision([1.0]) is None
    assert TEST.decision([1.0] * 5) is None


def test_a_long_unbroken_streak_decides() -> None:
    assert TEST.decision([1.0] * 40) == "H1"
    assert TEST.decision([0.0] * 40) == "H0"


def test_running_sums_give_the_same_llr_as_the_scores() -> None:
    scores = stream(0.6, 300, seed=3)
    n, total, squares = len(scores), sum(scores), sum(x * x for x in scores)
    mean = total / n
    assert TEST.llr_of(n, mean, squares / n - mean**2) == pytest.approx(TEST.llr(scores))


def test_a_stronger_entrant_is_accepted() -> None:
    scores = stream(0.65, 2000, seed=1)
    decided = next(n for n in range(1, 2001) if TEST.decision(scores[:n]) is not None)
    assert TEST.decision(scores[:decided]) == "H1"
    assert decided < 2000


def test_a_weaker_entrant_is_rejected() -> None:
    decision, games = run(TEST, 0.40, random.Random(2))
    assert decision == "H0"
    assert games < 1000


def test_ties_count_half_a_win() -> None:
    rng = random.Random(4)
    # Wins 45%, ties 40%, losses 15%: a share of 0.65, decided as for wins alone.
    scores = [1.0 if (r := rng.random()) < 0.45 else 0.5 if r < 0.85 else 0.0 for _ in range(2000)]
    assert TEST.decision(scores) == "H1"
    assert TEST.llr(scores) > TEST.bounds[1]


def test_a_share_between_p0_and_p1_takes_longer_to_decide() -> None:
    rng = random.Random(5)
    clear = sorted(run(TEST, 0.65, rng)[1] for _ in range(21))
    unclear = sorted(run(TEST, 0.525, rng)[1] for _ in range(21))
    assert unclear[10] > 3 * clear[10]  # medians


def test_false_positives_are_about_alpha() -> None:
    rng = random.Random(6)
    decisions = [run(TEST, TEST.p0, rng)[0] for _ in range(200)]
    assert decisions.count("H1") <= 20
    assert decisions.count("H0") >= 170


def test_false_negatives_are_about_beta() -> None:
    rng = random.Random(7)
    decisions = [run(TEST, TEST.p1, rng)[0] for _ in range(200)]
    assert decisions.count("H0") <= 20


@pytest.mark.parametrize(
    ("p0", "p1", "alpha", "beta", "message"),
    [
        (0.55, 0.50, 0.05, 0.05, "the SPRT needs 0 < p0 < p1 < 1, not p0=0.55, p1=0.5"),
        (0.0, 0.50, 0.05, 0.05, "the SPRT needs 0 < p0 < p1 < 1, not p0=0.0, p1=0.5"),
        (0.5, 1.0, 0.05, 0.05, "the SPRT needs 0 < p0 < p1 < 1, not p0=0.5, p1=1.0"),
        (0.5, 0.55, 0.5, 0.05, "the SPRT needs 0 < alpha < 0.5, not alpha=0.5"),
        (0.5, 0.55, 0.05, 0.0, "the SPRT needs 0 < beta < 0.5, not beta=0.0"),
        (0.5, math.nan, 0.05, 0.05, "the SPRT needs 0 < p0 < p1 < 1, not p0=0.5, p1=nan"),
    ],
)
def test_bad_settings_raise_one_line_errors(
    p0: float, p1: float, alpha: float, beta: float, message: str
) -> None:
    with pytest.raises(ValueError) as error:
        SPRT(p0, p1, alpha, beta)
    assert str(error.value) == message


def test_parse_reads_p0_p1_and_optional_alpha_and_beta() -> None:
    assert parse_sprt("0.50,0.55") == SPRT(0.50, 0.55, 0.05, 0.05)
    assert parse_sprt(" 0.5, 0.6 ,0.01") == SPRT(0.5, 0.6, 0.01, 0.05)
    assert parse_sprt("0.50,0.55,0.02,0.1") == SPRT(0.50, 0.55, 0.02, 0.1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0.5", "write P0,P1 or P0,P1,ALPHA,BETA (e.g. 0.50,0.55), not '0.5'"),
        (
            "0.5,0.55,0.05,0.05,1",
            "write P0,P1 or P0,P1,ALPHA,BETA (e.g. 0.50,0.55), not '0.5,0.55,0.05,0.05,1'",
        ),
        ("0.5,high", "write P0,P1 or P0,P1,ALPHA,BETA as numbers, not '0.5,high'"),
        ("0.5,", "write P0,P1 or P0,P1,ALPHA,BETA as numbers, not '0.5,'"),
        ("0.6,0.55", "the SPRT needs 0 < p0 < p1 < 1, not p0=0.6, p1=0.55"),
    ],
)
def test_parse_errors_are_one_line(text: str, message: str) -> None:
    with pytest.raises(ValueError) as error:
        parse_sprt(text)
    assert str(error.value) == message
    assert "\n" not in str(error.value)
