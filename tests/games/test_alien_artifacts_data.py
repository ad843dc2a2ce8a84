"""Alien Artifacts card data against the spec's counts (§1.1, §3, §9)."""

from collections import Counter

from games.alien_artifacts import data as d


def test_component_counts():
    assert d.N_RESOURCES == 54
    assert d.N_MARKET == 48 and len(d.SHIPS) == len(d.TECHS) == len(d.PLANETS) == 16
    assert d.N_ALIENS == 8 and d.N_DEFENCES == 10 and d.N_ARTIFACTS == 14
    assert len(d.FACTION_NAMES) == 6


def test_resource_halves_have_different_colours():
    assert all(c[0] != c[1] for c in d.HALF_COLOUR)


def test_resource_pairs_follow_the_count_pattern():
    pattern = Counter({(3, 3): 3, (3, 2): 3, (2, 3): 3, (3, 1): 1, (1, 3): 1, (2, 2): 3})
    for first, second in ((d.RED, d.BLUE), (d.BLUE, d.GREEN), (d.GREEN, d.RED)):
        counts = Counter(
            (d.HALF_VALUE[c][0], d.HALF_VALUE[c][1])
            for c in range(54)
            if d.HALF_COLOUR[c] == (first, second)
        )
        assert counts == pattern


def test_gold_cards_per_colour():
    for colour in (d.RED, d.BLUE, d.GREEN):
        gold = Counter(
            (d.HALF_VALUE[c][0], d.HALF_VALUE[c][1])
            for c in range(54)
            if d.HALF_COLOUR[c] == (colour, d.GOLD)
        )
        assert gold == Counter({(3, 1): 2, (2, 1): 1, (2, 2): 1})


def test_symbols_per_colour_and_gold():
    for colour in (d.RED, d.BLUE, d.GREEN):
        halves = [
            d.HALF_VALUE[c][h] for c in range(54) for h in (0, 1) if d.HALF_COLOUR[c][h] == colour
        ]
        assert (len(halves), sum(halves)) == (32, 78)
    gold = [d.HALF_VALUE[c][h] for c in range(54) for h in (0, 1) if d.HALF_COLOUR[c][h] == d.GOLD]
    assert (len(gold), sum(gold)) == (12, 15)


def test_attack_numbers_and_resource_symbols():
    assert Counter(d.ATTACK_NUMBER) == {1: 12, 2: 15, 3: 15, 4: 12}
    assert max(d.ATTACK_NUMBER) == 4  # seed: "4 (the maximum)"
    assert Counter(d.RESOURCE_SYMBOL) == {
        d.EXPLORE: 14,
        d.EXPAND: 14,
        d.EXPLOIT: 13,
        d.EXTERMINATE: 13,
    }


def test_market_symbol_totals():
    assert Counter(d.MARKET_SYMBOL) == {x: 12 for x in range(4)}
    assert Counter(d.MARKET_SYMBOL[:16]) == {
        d.EXTERMINATE: 6,
        d.EXPAND: 4,
        d.EXPLORE: 3,
        d.EXPLOIT: 3,
    }
    assert Counter(d.MARKET_SYMBOL[16:32]) == {
        d.EXPLOIT: 5,
        d.EXPAND: 4,
        d.EXPLORE: 4,
        d.EXTERMINATE: 3,
    }
    assert Counter(d.MARKET_SYMBOL[32:]) == {
        d.EXPLORE: 5,
        d.EXPAND: 4,
        d.EXPLOIT: 4,
        d.EXTERMINATE: 3,
    }


def test_card_ids_and_names():
    assert d.RESOURCE_NAMES[0] == "R01" and d.RESOURCE_NAMES[-1] == "R54"
    assert (
        d.MARKET_NAMES[0] == "S01" and d.MARKET_NAMES[16] == "T01" and d.MARKET_NAMES[47] == "P16"
    )
    assert tuple(f"AL{i}" for i in range(1, 9)) == d.ALIEN_NAMES
    assert d.DEFENCE_NAMES[9] == "DP10" and d.ARTIFACT_NAMES[13] == "AR14"


def test_tables_have_every_row():
    assert all(len(rows) == 6 for rows in d.ALIEN_TABLE)
    assert all(len(rows) == 5 for rows in d.DEFENCE_TABLE)


def test_seed_example_alien_value_4_gives_1_vp_and_2_credits():
    # AL1 and AL7 match the seed's example reward for attack value 4.
    for alien in (0, 6):
        assert d.ALIEN_TABLE[alien][3] == (d.NO_HIT, 2, 1, 0)


def test_faction_starting_cards():
    assert [d.MARKET_NAMES[s[0]] for s in d.FACTION_START] == [
        "S01",
        "P01",
        "T12",
        "P03",
        "S08",
        "S03",
    ]
    assert [s[1] for s in d.FACTION_START] == [
        d.OPERATIVE,
        d.OPERATIVE,
        d.OPERATIVE,
        d.LOGISTIC,
        d.LOGISTIC,
        d.LOGISTIC,
    ]
