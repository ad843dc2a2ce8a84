"""``info``: docs/cards.md is the current text of every card, every id there is a card, and
names, planets, abilities and board symbols are found too."""

from __future__ import annotations

import re
from pathlib import Path

from client.games.cards import NAMES, card_info, reference
from client.games.legend import explain, symbols
from games.cosmic_run import data as cr

DOC = Path(__file__).resolve().parents[2] / "docs" / "cards.md"


def test_the_card_reference_is_current():
    assert DOC.read_text(encoding="utf-8") == reference(), (
        "docs/cards.md is stale: run `python -m client.games.cards docs/cards.md`"
    )


def test_every_card_of_the_reference_is_described():
    codes = re.findall(r"^- \*\*([A-Z]+\d*)\*\*", reference(), re.MULTILINE)
    assert len(codes) == 30 + 12 + 54 + 48 + 8 + 10 + 14 + 6
    for code in codes:
        first = card_info(code)[0]
        assert first.startswith(code) and not first.endswith(": "), code


def test_riders_and_factions_are_described():
    assert "  rider: Armoured: a Damaged result does not affect it" in card_info("S02")
    assert any("+1 to its attack value against a player" in line for line in card_info("S14"))
    assert not any("rider" in line for line in card_info("S01"))
    episcopacy = card_info("EPI")
    assert episcopacy[0] == "EPI Episcopacy (Alien Artifacts faction)"
    assert "  end bonus: 1 VP per artifact gained during the game (used or not)" in episcopacy


# --- info on names, planets, abilities and symbols ----------------------------------------


def test_a_faction_is_found_by_name_or_code_in_any_case():
    community = card_info("COM")
    assert community[0] == "COM Community (Alien Artifacts faction)"
    for query in ("Community", "COMMUNITY", "community", "com"):
        assert card_info(query) == community, query
    assert card_info("Star Union") == card_info("SU")
    assert card_info("League") == card_info("The League") == card_info("LEA")


def test_every_card_is_found_by_its_name():
    for name, codes in NAMES.items():
        first = card_info(name.upper())[0]
        assert first.split()[0] == codes[0], name
    assert card_info("haskel") == card_info("A14")
    assert card_info("Smuggler Nebula") == card_info("AL4")
    assert card_info("Iron Belt") == card_info("P08") == card_info("iron")


def test_identical_copies_are_named_together():
    lines = card_info("Resource Cache")
    assert lines[0].startswith("AR03 Resource Cache")
    assert lines[-1] == "  (2 copies: AR03, AR04, all the same)"


def test_a_cosmic_run_planet_has_its_numbers():
    for planet in range(6):
        lines = card_info(f"P{planet + 1}")
        text = " ".join(lines)
        assert lines[0].startswith(f"P{planet + 1} (Cosmic Run planet): one step for ")
        assert f"track: {cr.TRACK_LENGTH[planet]} spaces" in text
        assert f"discoverer: {cr.DISCOVERER_VP[planet]} VP" in text
    assert "0-3: 0, 4-6: 1, 7-9: 2, 10-12: 3, 13-15: 4" in " ".join(card_info("p1"))
    assert "by rank: 5, 2, 1, 0 VP" in " ".join(card_info("P6"))
    assert card_info("planet 3") == card_info("P3")
    assert card_info("P03")[0] == "P03 Crystal Moon (planet, Explore)"


def test_an_alien_ability_lists_its_aliens():
    assert card_info("NAVIGATOR") == [
        "Navigator (Cosmic Run alien ability): +1 step on its planet in a turn with a dice step "
        "there.",
        "  aliens: A01 Quillon, A02 Bexa, A03 Tarn, A04 Vossk, A05 Myrr, A06 Sol-Ennik",
    ]
    assert card_info("reroller") == card_info("Re-roller")
    assert "A14 Haskel" in card_info("Tinkerer")[1]


def test_a_board_symbol_is_explained_in_the_legends_words():
    for word, game in (("+", "cosmic_run"), ("FOUND", "cosmic_run"), ("OP", "alien_artifacts")):
        (found,) = [s for g, s in explain(word) if g == game]
        assert found.meaning in " ".join(card_info(word)), word
    assert card_info("x..") == [
        "`x..` on the Cosmic Run board: meteor hits on the planet, one x per hit; the third hit "
        "destroys it."
    ]
    # "cr" is Alien Artifacts' credits alone; Cosmic Run's crystals are "cry" (issue 26).
    (credits,) = card_info("CR")
    assert credits.startswith("`8 cr` on the Alien Artifacts board: credits")
    (crystals,) = card_info("CRY")
    assert crystals.startswith("`3 cry` on the Cosmic Run board: crystals")
    assert "operative" in " ".join(card_info("T12:OP"))


def test_everything_the_legend_names_has_an_answer():
    for game in ("cosmic_run", "alien_artifacts"):
        for symbol in symbols(game):
            for key in (symbol.shown, *symbol.keys):
                assert not card_info(key.upper())[0].startswith("No card"), key


def test_an_unknown_name_is_one_line_with_close_matches():
    assert card_info("ZZ9") == [
        "No card `ZZ9` in either game. Ids look like A14, M03, S05, T11, P02, AL3, AR10, SU; "
        "names and board symbols work too (`info Haskel`, `info +`)."
    ]
    assert card_info("HASKLE") == ["No card `HASKLE` in either game. Did you mean A14 Haskel?"]
    (line,) = card_info("Comunity")
    assert line.startswith("No card `Comunity`") and "COM Community" in line
    (line,) = card_info("Kepler Outpots")
    assert "AL1 Kepler Outpost" in line


def test_an_action_is_explained_with_its_price():
    income = card_info("Collect Income")
    assert income == card_info("INCOME")
    assert "pays 5 Blue (never Gold; Bionics: 3)" in income[0]
    assert card_info("pilgrimage")[0].startswith("Pilgrimage (Episcopacy's action): 2 credits")
    assert "Did you mean pilgrimage?" in card_info("Pilgrimmage")[0]


def test_trade_and_build_say_what_changes_their_limit_and_cost():
    (trade,) = card_info("trade")
    assert (
        "at most your production limit for Trade: 2 cards, +1 for each logistic ship of yours "
        "naming Trade (The League starts with one, S08 Freighter: 3), +2 the turn you play AR13"
    ) in trade
    (build,) = card_info("build")
    assert "- 2 for each logistic planet of yours naming that type (and 1 more off planets" in build
    assert "at most your production limit of cards (2, +1 for each logistic ship" in build
