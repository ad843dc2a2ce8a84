"""The rules inside the client (:mod:`client.console.rulebook`) and the rulebooks they read.

Every topic of both rulebooks is rendered at 40, 60 and 80 columns: no line is wider than asked,
and no word is cut (every word of the output is a word of the rulebook). The rulebooks stand
alone, and their tables hold the numbers the engines play with.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from client.console import rulebook as rules
from games.alien_artifacts import data as aa
from games.cosmic_run import data as cr

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
GAMES = ("cosmic_run", "alien_artifacts")
WIDTHS = (40, 60, 80)


def headings(game: str) -> list[str]:
    source = (DOCS / rules.file_name(game)).read_text(encoding="utf-8")
    return re.findall(r"^## (.+)$", source, re.MULTILINE)


def words(lines: list[str]) -> set[str]:
    return {w.strip("*|:`") for line in lines for w in line.split()}


def table(game: str, topic: str, first_cell: str) -> dict[str, list[str]]:
    """The rows (by first cell) of the table in ``topic`` headed by ``first_cell``."""
    found = rules.find(rules._load(game), topic)  # type: ignore[arg-type]
    assert isinstance(found, rules.Topic)
    rows: dict[str, list[str]] = {}
    inside = False
    for line in found.body:
        if line.startswith("|"):
            cells = rules._cells(line)
            if cells[0] == first_cell:
                inside = True
            elif inside and not set(cells[0]) <= {"-", ":"}:
                rows[cells[0]] = cells[1:]
        elif inside:
            break
    assert rows, f"no table headed {first_cell!r} in {topic!r}"
    return rows


# --- topics -------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_topics_are_the_level_two_headings_in_order(game):
    titles = headings(game)
    assert [title for _, title in rules.topics(game)] == titles
    assert [key for key, _ in rules.topics(game)] == [rules.slug(t) for t in titles]
    assert len(titles) >= 12


def test_every_spelling_of_a_game_reads_the_same_rules():
    cosmic = rules.topics("cosmic_run")
    assert rules.topics("cosmic-run") == rules.topics("cr") == rules.topics("Cosmic Run") == cosmic
    assert rules.topics("aa") == rules.topics("alien-artifacts") == rules.topics("alien_artifacts")
    assert rules.topics("aa") != cosmic


def test_a_key_is_the_title_in_lower_case_words():
    assert rules.slug("Phase 2: dice") == "phase-2-dice"
    assert ("phase-2-dice", "Phase 2: dice") in rules.topics("cr")


# --- rendering ----------------------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("game", GAMES)
def test_every_topic_fits_the_width_without_cutting_a_word(game, width):
    source = (DOCS / rules.file_name(game)).read_text(encoding="utf-8")
    for key, title in rules.topics(game):
        lines = rules.text(game, key, width)
        assert lines[0] == title or title.startswith(lines[0])
        too_wide = [line for line in lines if len(line) > width]
        assert not too_wide, (key, width, too_wide)
        known = words(source.split("\n")) | words(rules.text(game, key, 10_000))
        cut = [w for w in words(lines) if w not in known and set(w) != {"-"}]
        assert not cut, (key, width, cut)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("game", GAMES)
def test_the_list_of_topics_numbers_every_title_and_says_how_to_open_one(game, width):
    lines = rules.text(game, None, width)
    assert all(len(line) <= width for line in lines)
    text = " ".join(" ".join(lines).split())
    for number, (_, title) in enumerate(rules.topics(game), start=1):
        assert f"{number} {title}" in text
    assert "Type `rules TOPIC`" in text


def test_a_topic_is_found_by_key_number_start_of_title_or_a_word_of_it_in_any_case():
    for query in ("setup", "SETUP", "3", " Set", "setu"):
        assert rules.text("cr", query, 80)[0] == "Setup", query
    assert rules.text("cr", "phase-2-dice", 80)[0] == "Phase 2: dice"
    assert rules.text("cr", "Phase 3", 80)[0] == "Phase 3: actions"
    assert rules.text("cr", "meteor", 80)[0] == "Phase 1: meteor"
    assert rules.text("alien-artifacts", "combat", 80)[0] == "Combat"


def test_an_ambiguous_topic_names_the_candidates():
    text = " ".join(rules.text("cr", "phase", 60))
    assert "could be several topics" in text
    for title in ("Phase 1: meteor", "Phase 2: dice", "Phase 3: actions"):
        assert title in text
    assert "Setup" not in text


def test_an_unknown_topic_says_so_and_suggests_a_close_one():
    assert rules.text("cr", "warp drive", 80) == [
        "No rules topic `warp drive`. Type `rules` for the list of topics."
    ]
    assert "Did you mean Scoring?" in " ".join(rules.text("aa", "scorng", 80))
    last = len(rules.topics("cr"))
    assert rules.text("cr", "99", 80) == [
        f"There is no topic 99: the topics are numbered 1 to {last}."
    ]


def test_a_topic_ends_by_pointing_to_the_next_one():
    last = len(rules.topics("cr"))
    lines = rules.text("cr", "setup", 80)
    assert lines[-1] == f"Cosmic Run rules, topic 3 of {last}. Next: `rules 4` (The planets)."
    assert rules.text("cr", str(last), 80)[-1] == f"Cosmic Run rules, topic {last} of {last}."
    assert rules.topics("cr")[-1] == ("using-the-console", "Using the console")
    assert rules.topics("aa")[-1] == ("using-the-console", "Using the console")
    bare = rules.text("cr", "setup", 80, footer=False)
    assert bare == lines[:-2] and bare[-1]


def test_an_unknown_game_and_missing_rulebooks_are_one_line_each(tmp_path, monkeypatch):
    assert rules.text("chess", None, 80) == [
        "No rules for `chess`: the games are cosmic-run (cr) and alien-artifacts (aa)."
    ]
    assert rules.topics("chess") == []
    monkeypatch.setattr(rules, "RULES_DIR", tmp_path)
    assert rules.topics("cr") == []
    assert rules.text("cr", "setup", 80) == [
        "The rules are not installed here: docs/rules/cosmic-run.md is missing."
    ]
    narrow = rules.text("aa", None, 40)
    assert (
        " ".join(narrow)
        == "The rules are not installed here: docs/rules/alien-artifacts.md is missing."
    )
    assert all(len(line) <= 40 for line in narrow)


def test_markdown_becomes_plain_lines_with_hanging_indents():
    source = [
        "A **bold** word and an *emphasis*, with `code`.",
        "",
        "### A sub-heading",
        "",
        "- a first bullet that is long enough to wrap onto a second line",
        "   - a nested bullet, also long enough to wrap onto another line",
        "1. a numbered item that also wraps onto a second line here",
        "",
        "```",
        "keep   this   as is",
        "```",
    ]
    assert rules.render_markdown(source, 30) == [
        "A bold word and an emphasis,",
        "with `code`.",
        "",
        "A sub-heading",
        "",
        "- a first bullet that is long",
        "  enough to wrap onto a second",
        "  line",
        "  - a nested bullet, also long",
        "    enough to wrap onto",
        "    another line",
        "1. a numbered item that also",
        "   wraps onto a second line",
        "   here",
        "",
        "keep   this   as is",
    ]


def test_a_table_is_aligned_when_it_fits_and_one_block_per_row_when_it_does_not():
    source = ["| planet | length |", "| --- | --- |", "| P1 | 16 |", "| P2 | 9 |"]
    assert rules.render_table(source, 40) == [
        "planet  length",
        "------  ------",
        "P1      16",
        "P2      9",
    ]
    wide = [
        "| system | when the attack value is 1 or less | 2 |",
        "| --- | --- | --- |",
        "| AL2 Hive Cluster | Destroyed, the ship goes to the bottom of the deck | Damaged |",
    ]
    assert rules.render_table(wide, 20) == [
        "AL2 Hive Cluster",
        "  when the attack",
        "    value is 1 or",
        "    less: Destroyed,",
        "    the ship goes to",
        "    the bottom of",
        "    the deck",
        "  2: Damaged",
    ]
    grid = rules.render_table(wide, 60)
    assert grid[0].startswith("system") and grid[2].startswith("AL2 Hive")
    assert all(len(line) <= 60 for line in grid)


def test_alien_systems_read_as_a_table_at_80_columns_and_as_blocks_at_40():
    wide = rules.text("aa", "combat", 80)
    assert any(line.startswith("AL4 Smuggler") and "+2 cr" in line for line in wide)
    narrow = rules.text("aa", "combat", 40)
    at = narrow.index("AL4 Smuggler Nebula")
    assert narrow[at + 1 : at + 3] == ["  1 or less: Damaged", "  2: +2 cr"]


# --- the rulebooks themselves -------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_a_rulebook_stands_alone(game):
    source = (DOCS / rules.file_name(game)).read_text(encoding="utf-8")
    for outside in ("§", "../", "shared/", "step 3", "section ", "[S", "games/"):
        assert outside not in source, outside
    assert not re.search(r"\bspec", source)
    for link in re.findall(r"\]\(([^)]+)\)", source):
        assert (DOCS / link).exists(), link
    for path in re.findall(r"`(docs/[^`]+)`", source):
        assert (DOCS.parents[1] / path).exists(), path


@pytest.mark.parametrize("game", GAMES)
def test_the_console_is_explained_only_in_its_own_last_topic(game):
    *rule_topics, (last, _) = rules.topics(game)
    assert last == "using-the-console"
    for key, _ in rule_topics:
        text = " ".join(rules.text(game, key, 1000, footer=False))
        assert set(re.findall(r"`([^`]+)`", text)) <= {"docs/cards.md"}, key
        assert "console" not in text.replace('"Using the console"', "").replace(
            "console client", ""
        ), key


def _spans(text: str) -> list[int]:
    """``0-3: 0, 4-6: 1`` as the VP of each space: [0, 0, 0, 0, 1, 1, 1]."""
    vp: list[int] = []
    for first, last, value in re.findall(r"(\d+)(?:-(\d+))?: (\d+)", text):
        vp += [int(value)] * (int(last or first) - int(first) + 1)
    return vp


def test_the_cosmic_run_planet_table_is_the_engines():
    rows = table("cr", "the planets", "planet")
    assert list(rows) == [f"P{n}" for n in range(1, 7)]
    for planet, (need, length, discoverer, others) in enumerate(rows.values()):
        assert int(length) == cr.TRACK_LENGTH[planet]
        assert int(discoverer) == cr.DISCOVERER_VP[planet]
        if planet < 5:
            assert _spans(others) == list(cr.SPACE_VP[planet])
            assert need.split()[-1] in cr.REQUIREMENT[planet]
    assert rows["P6"][3] == "by rank: " + ", ".join(str(v) for v in cr.P6_RANK_VP)


def test_the_cosmic_run_setup_table_is_the_engines():
    rows = table("cr", "setup", "players")
    for players, (deck, rounds, crystals, vp) in zip(range(1, 5), rows.values(), strict=True):
        size = len(cr.STRIKE_CARDS) + cr.MISS_CARDS_USED[players]
        assert deck == f"12 strike + {cr.MISS_CARDS_USED[players]} miss = {size}"
        assert int(rounds) == size // players
        assert crystals == ", ".join(str(c) for c in cr.START_CRYSTALS[:players])
        assert vp == ", ".join(str(v) for v in cr.START_VP[players])


def test_the_cosmic_run_length_and_track_steps_are_the_engines():
    rounds = {n: (len(cr.STRIKE_CARDS) + cr.MISS_CARDS_USED[n]) // n for n in range(1, 5)}
    goal = " ".join(rules.text("cr", "goal", 1000))
    assert (
        f"at most {rounds[2]} turns each with 2 players, {rounds[3]} with 3, "
        f"{rounds[4]} with 4 and {rounds[1]} solo"
    ) in goal
    steps = cr.TRACK_LENGTH
    planets = " ".join(rules.text("cr", "the planets", 1000))
    assert (
        f"So P1 is {steps[0]} steps from the start to the planet, P2 {steps[1]}, P3 {steps[2]}, "
        f"P4 {steps[3]}, P5 {steps[4]} and P6 {steps[5]}."
    ) in planets


def test_the_cosmic_run_ability_costs_and_solo_steps_are_the_engines():
    costs = table("cr", "crystals", "ability")  # the phase-2 abilities; Boost is phase 3's
    assert [int(row[0].split()[0]) for row in costs.values()] == [cr.REROLL_COST, cr.NUDGE_COST]
    phase3 = " ".join(rules.text("cr", "phase 3", 1000))
    assert f"Boost costs {cr.BOOST_COST} crystals" in phase3
    solo = " ".join(rules.text("cr", "solo", 1000))
    first, *middle, last = (f"{n} on P{p}" for p, n in enumerate(cr.DRONE_STEPS, start=1))
    steps = f"{first.replace(' on', ' steps on')}, {', '.join(middle)} and {last}"
    assert f"It moves {steps}," in solo


def _results(cell: str) -> tuple[int, int, int, int]:
    """``artifact, +1 VP`` as the data's (hit, credits, vp, artifact)."""
    hit = 2 if "Destroyed" in cell else 1 if "Damaged" in cell else 0
    credits = sum(int(n) for n in re.findall(r"\+(\d+) cr", cell))
    vp = sum(int(n) for n in re.findall(r"\+(\d+) VP", cell))
    return hit, credits, vp, int("artifact" in cell)


def _defence(cell: str) -> tuple[int, int, int, int]:
    found = dict(re.findall(r"(Raid|Strike|Fortify) (\d+)", cell))
    return (
        int("Repelled" in cell),
        int(found.get("Raid", 0)),
        int(found.get("Strike", 0)),
        int(found.get("Fortify", 0)),
    )


def test_the_alien_artifacts_combat_tables_are_the_engines():
    systems = table("aa", "combat", "system")
    assert list(systems) == [
        f"{c} {t}" for c, t in zip(aa.ALIEN_NAMES, aa.ALIEN_TITLES, strict=True)
    ]
    for row, expected in zip(systems.values(), aa.ALIEN_TABLE, strict=True):
        assert tuple(_results(cell) for cell in row) == expected
    plans = table("aa", "combat", "plan")
    assert list(plans) == [
        f"{c} {t}" for c, t in zip(aa.DEFENCE_NAMES, aa.DEFENCE_TITLES, strict=True)
    ]
    for row, expected in zip(plans.values(), aa.DEFENCE_TABLE, strict=True):
        assert tuple(_defence(cell) for cell in row) == expected


def test_the_alien_artifacts_factions_and_artifacts_are_the_engines():
    factions = table("aa", "factions", "faction")
    assert list(factions) == [
        f"{t} ({c})" for c, t in zip(aa.FACTION_NAMES, aa.FACTION_TITLES, strict=True)
    ]
    for (start, _, _), row in zip(aa.FACTION_START, factions.values(), strict=True):
        assert row[0].startswith(aa.MARKET_NAMES[start])
    artifacts = table("aa", "artifacts", "artifact")
    named = [code for key in artifacts for code in re.findall(r"AR\d\d", key)]
    assert named == list(aa.ARTIFACT_NAMES)
    text = " ".join(rules.text("aa", None, 80) + rules.text("aa", "building", 1000))
    assert "Cost = 5 + the cards" in text.replace("- Cost", "Cost")
    end = " ".join(rules.text("aa", "scoring", 1000))
    assert f"{aa.END_VP_OPERATIVE} VP on its operative side" in end
    assert f"{aa.END_VP_LOGISTIC} VP on its logistic side" in end
