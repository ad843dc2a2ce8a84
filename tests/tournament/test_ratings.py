"""Ratings from game outcomes: openskill's own numbers, ties sharing a rank, an entrant in two
seats counted once, Wilson intervals, Elo, head-to-head shares and standings."""

from __future__ import annotations

import math
import random

import pytest
from openskill.models import PlackettLuce

from tournament.ratings import Outcome, best_places, elo, pairs, rate, standings, wilson

NAMES = ["A", "B", "C"]

# A first, B second, C third in every game, each in a different seat each time.
A_B_C: list[Outcome] = [
    ((0, 1, 2), [[0], [1], [2]]),
    ((1, 2, 0), [[2], [0], [1]]),
    ((2, 0, 1), [[1], [2], [0]]),
]


def test_ratings_match_openskill_called_directly() -> None:
    model = PlackettLuce()
    a, b, c = model.rating(), model.rating(), model.rating()
    for _ in range(3):
        [a], [b], [c] = model.rate([[a], [b], [c]], ranks=[0, 1, 2])
    ratings = {r.name: r for r in rate(NAMES, A_B_C)}
    for name, expected in zip(NAMES, (a, b, c), strict=True):
        assert ratings[name].mu == pytest.approx(expected.mu)
        assert ratings[name].sigma == pytest.approx(expected.sigma)
        assert ratings[name].ordinal == pytest.approx(expected.mu - 3 * expected.sigma)
        assert ratings[name].games == 3


def test_ratings_come_best_ordinal_first() -> None:
    ratings = rate(NAMES, A_B_C)
    assert [r.name for r in ratings] == ["A", "B", "C"]
    assert ratings[0].ordinal > ratings[1].ordinal > ratings[2].ordinal
    assert ratings[0].mu > 25 > ratings[2].mu


def test_the_order_of_games_matters_as_played() -> None:
    # A wins first and loses last, or the other way round: openskill weighs recent games more.
    early = [((0, 1), [[0], [1]])] * 3 + [((0, 1), [[1], [0]])]
    late = [((0, 1), [[1], [0]])] + [((0, 1), [[0], [1]])] * 3
    assert rate(["A", "B"], early)[0].mu != pytest.approx(rate(["A", "B"], late)[0].mu)


def test_tied_seats_share_a_rank() -> None:
    ratings = {r.name: r for r in rate(NAMES, [((0, 1, 2), [[2], [0, 1]])])}
    model = PlackettLuce()
    [a], [b], [c] = model.rate([[model.rating()] for _ in range(3)], ranks=[1, 1, 0])
    assert ratings["A"].mu == pytest.approx(a.mu)
    assert ratings["B"].mu == pytest.approx(b.mu)
    assert ratings["A"].mu == pytest.approx(ratings["B"].mu)
    assert ratings["A"].sigma == pytest.approx(ratings["B"].sigma)
    assert ratings["C"].mu == pytest.approx(c.mu)
    assert ratings["A"].mu < 25 < ratings["C"].mu


def test_an_entrant_in_two_seats_is_rated_once_at_its_best_seat() -> None:
    # A 3-player match: B in seats 1 and 2, first and third; A second.
    ratings = {r.name: r for r in rate(["A", "B"], [((0, 1, 1), [[1], [0], [2]])])}
    model = PlackettLuce()
    [a], [b] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 0])
    assert ratings["A"].mu == pytest.approx(a.mu)
    assert ratings["B"].mu == pytest.approx(b.mu)
    assert ratings["A"].games == ratings["B"].games == 1


def test_a_solo_game_counts_but_rates_nothing() -> None:
    ratings = {r.name: r for r in rate(["A", "B"], [((0,), [[0]]), ((1,), [[0]])])}
    assert ratings["A"].games == 1
    assert ratings["A"].mu == 25.0
    assert ratings["A"].sigma == pytest.approx(25 / 3)


def test_an_entrant_without_games_keeps_the_default_rating() -> None:
    ratings = {r.name: r for r in rate(["A", "B", "C", "D"], A_B_C)}
    assert (ratings["D"].mu, ratings["D"].games) == (25.0, 0)


def test_best_places_keeps_each_entrants_best_group() -> None:
    assert best_places((0, 1, 1), [[2], [0], [1]]) == {0: 1, 1: 0}
    assert best_places((3, 1, 2), [[2], [0, 1]]) == {3: 1, 1: 1, 2: 0}


@pytest.mark.parametrize("ranking", [[[0], [1]], [[0], [1], [2], [2]], [[0, 1, 3]]])
def test_a_ranking_must_place_every_seat_once(ranking: list[list[int]]) -> None:
    with pytest.raises(ValueError, match="does not place seats 0 to 2 once each"):
        best_places((0, 1, 2), ranking)


def test_wilson_known_values() -> None:
    assert wilson(50, 100) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(8, 10) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    assert wilson(10, 10)[1] == 1.0
    assert wilson(0, 10)[0] == 0.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_wilson_takes_half_wins() -> None:
    low, high = wilson(2.5, 5)
    assert low == pytest.approx(1 - high)
    assert low < 0.5 < high


def test_elo_of_known_shares() -> None:
    assert elo(0.5) == 0
    assert elo(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo(0.25) == pytest.approx(-190.85, abs=0.01)
    assert elo(1.0) == math.inf
    assert elo(0.0) == -math.inf


def random_outcomes(rng: random.Random, entrants: int, players: int, games: int) -> list[Outcome]:
    outcomes: list[Outcome] = []
    for _ in range(games):
        seating = rng.sample(range(entrants), players)
        seats = list(range(players))
        rng.shuffle(seats)
        ranking: list[list[int]] = []
        for seat in seats:
            if ranking and rng.random() < 0.3:
                ranking[-1].append(seat)
            else:
                ranking.append([seat])
        outcomes.append((seating, ranking))
    return outcomes


def test_pairs_are_symmetric() -> None:
    outcomes = random_outcomes(random.Random(1), entrants=5, players=3, games=200)
    table = pairs(5, outcomes, two_player=False)
    assert len(table) == 5 * 4
    for (a, b), pair in table.items():
        other = table[b, a]
        assert pair.games == other.games
        assert pair.share + other.share == pytest.approx(1.0)
        assert pair.low <= pair.share <= pair.high
        assert pair.elo is None


def test_pairs_on_a_multiplayer_ranking() -> None:
    table = pairs(3, [((0, 1, 2), [[2], [0, 1]])], two_player=False)
    assert table[2, 0].score == 1.0
    assert table[0, 2].score == 0.0
    assert table[0, 1].score == table[1, 0].score == 0.5
    assert table[0, 1].games == 1
    assert table[0, 1].elo is None


def test_pairs_leave_out_entrants_who_never_met() -> None:
    table = pairs(4, [((0, 1), [[0], [1]]), ((2, 3), [[1], [0]])], two_player=True)
    assert sorted(table) == [(0, 1), (1, 0), (2, 3), (3, 2)]


def test_two_player_pairs_give_elo_with_an_interval() -> None:
    outcomes: list[Outcome] = [
        ((0, 1), [[0], [1]]),
        ((1, 0), [[1], [0]]),
        ((0, 1), [[0, 1]]),
        ((1, 0), [[0], [1]]),
    ]
    pair = pairs(2, outcomes, two_player=True)[0, 1]
    assert (pair.games, pair.score, pair.share) == (4, 2.5, 0.625)
    assert (pair.low, pair.high) == wilson(2.5, 4)
    assert pair.elo == pytest.approx(88.74, abs=0.01)
    assert pair.elo is not None and pair.elo_low is not None and pair.elo_high is not None
    assert pair.elo_low < pair.elo < pair.elo_high
    assert pair.elo_low == pytest.approx(elo(pair.low))


def test_a_clean_sweep_has_an_infinite_elo() -> None:
    pair = pairs(2, [((0, 1), [[0], [1]])] * 3, two_player=True)[0, 1]
    assert pair.elo == math.inf
    assert pair.elo_high == math.inf
    # Three wins say little: the interval's low end is still below an even match.
    assert pair.elo_low == pytest.approx(elo(wilson(3, 3)[0]))
    assert pair.elo_low == pytest.approx(-42.96, abs=0.01)


def test_pairs_refuse_an_unknown_entrant() -> None:
    with pytest.raises(ValueError, match="entrant 2 of a game is not one of the 2 entrants"):
        pairs(2, [((0, 2), [[0], [1]])], two_player=True)


def test_pairs_compare_an_entrant_in_two_seats_at_its_best() -> None:
    # B third and first: it beat A, whatever its other seat did.
    table = pairs(2, [((0, 1, 1), [[2], [0], [1]])], two_player=False)
    assert table[1, 0].score == 1.0
    assert table[0, 1].score == 0.0


def test_standings_count_wins_shares_and_places() -> None:
    outcomes: list[Outcome] = [
        ((0, 1, 2), [[0], [1], [2]]),
        ((1, 2, 0), [[2, 0], [1]]),  # A and B share first place, C third
        ((2, 0, 1), [[0], [1, 2]]),  # C first, A and B share second
    ]
    rows = {row["name"]: row for row in standings(["A", "B", "C", "D"], outcomes)}
    assert rows["A"]["games"] == 3
    assert rows["A"]["wins"] == 1.5
    assert rows["B"]["wins"] == 0.5
    assert rows["C"]["wins"] == 1.0
    assert rows["A"]["win_share"] == 0.5
    assert (rows["A"]["low"], rows["A"]["high"]) == wilson(1.5, 3)
    assert rows["A"]["mean_place"] == pytest.approx((1 + 1 + 2) / 3)
    assert rows["B"]["mean_place"] == pytest.approx((2 + 1 + 2) / 3)
    assert rows["C"]["mean_place"] == pytest.approx((3 + 3 + 1) / 3)
    assert rows["D"] == {
        "name": "D",
        "games": 0,
        "wins": 0.0,
        "win_share": None,
        "low": 0.0,
        "high": 1.0,
        "mean_place": None,
    }


def test_standings_count_a_shared_first_between_ones_own_seats() -> None:
    rows = standings(["A", "B"], [((0, 1, 1), [[1, 2], [0]])])
    assert rows[1]["wins"] == 1.0
    assert rows[0]["wins"] == 0.0
    assert rows[0]["mean_place"] == 3
