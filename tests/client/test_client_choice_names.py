"""Choices by name: every spelling a player may type, names that keep their meaning for a whole
turn while the server's numbers move, every die in the menu, and seats named by letter and name.

Positions come from the engines (seeded random play, or a seeded position with its dice set by
hand); the console is driven with a scripted client that plays each sent action on the engine
and sends the update back, as the server would.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from client_helpers import FakeClient, Typist, legal_of, position, table_map

import games
from client import render
from client.games import plugin
from client.games.cosmic_run import names as cosmic_run_names
from client.text.style import Style

PLAIN = Style(False)
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]


def find(game: str, players: int, wanted: Any, seeds: range = range(40)) -> Any:
    """The first position of seeded random play where ``wanted(state)`` holds."""
    for seed in seeds:
        state = games.get(game).new(players, seed)
        rng = random.Random(seed)
        while not state.is_over:
            if wanted(state):
                return state
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    raise AssertionError("no such position in the seeds tried")


def with_dice(state: Any, values: list[int], crystals: int | None = None, flips: int = 0) -> Any:
    """``state`` (a Cosmic Run placement decision) with its dice, crystals and free flips set."""
    state.dice[:] = values
    if crystals is not None:
        state.crystals[state.turn] = crystals
    state.free[2] = flips
    state._legal = state._public = None  # the engine's caches of the old dice
    return state


def index_of(state: Any, *action: Any) -> int:
    return [list(a) for a in state.legal_actions()].index(list(action))


def resolved(state: Any, text: str) -> render.Resolved | None:
    seat = state.current_player
    view = state.view(seat)
    return render.resolve(view, legal_of(state), text, NAMES[: view["players"]])


# --- a console at a table, with the engine behind the scripted server --------------------


class Table:
    """A console seated at the current player's seat of ``state``; ``answer()`` plays what it
    sent on the engine and sends the update back."""

    def __init__(self, state: Any) -> None:
        self.state = state
        self.client = FakeClient()
        self.typist = Typist(self.client)
        self.seat = state.current_player
        self.version = 0
        view = state.view(self.seat)
        names = NAMES[: view["players"]]
        table = table_map(4, view["game"], names, "playing")
        console = self.typist.console
        console.receive({"type": "started", "table": table, "seat": self.seat, "seats": names})
        console.receive(self.message("snapshot", []))
        self.typist.take()

    def message(self, kind: str, events: Any) -> dict[str, Any]:
        mine = self.state.current_player == self.seat
        return {
            "type": kind,
            "table": 4,
            "version": self.version,
            "seat": self.seat,
            "view": self.state.view(self.seat),
            "events": list(events),
            "legal": legal_of(self.state) if mine else [],
        }

    def answer(self) -> list[Any]:
        """The action the console sent, played on the engine; the update sent back."""
        sent = self.client.sent[-1]
        assert sent["type"] == "act" and sent["version"] == self.version
        events = self.state.apply(tuple(sent["action"]))
        self.client.reply({"type": "ok"})
        self.version += 1
        self.typist.console.receive(self.message("update", events))
        return list(sent["action"])


def test_typing_the_same_name_four_times_puts_four_fours_on_p5() -> None:
    state = with_dice(position("cosmic_run", 2, 5, 0), [4, 4, 2, 4, 4, 1])
    table = Table(state)
    placed = []
    for _ in range(4):
        assert table.typist.console.play_named("4s P5")
        placed.append(table.answer())
    assert placed == [["assign", die, "P5"] for die in (0, 1, 3, 4)]
    assert [d["at"] for d in state.view(0)["dice"]] == ["P5", "P5", None, "P5", "P5", None]
    assert table.typist.console.play_named("4s P5")
    assert "No unplaced die shows a 4" in table.typist.take()


def test_a_die_name_keeps_its_meaning_while_the_numbers_move() -> None:
    state = with_dice(position("cosmic_run", 2, 5, 0), [4, 4, 2, 4, 4, 1])
    table = Table(state)
    console = table.typist.console
    assert ("assign", 3, "P5") not in state.legal_actions()  # the server lists W1's move
    # W1, W2, W4 and W5 show 4: the server lists the move once, with W1; W4's name sends it,
    # and from then on the die that moved is W4 on the board and in the log (issue 26).
    assert console.play_named("W4 P5")
    assert table.answer() == ["assign", 0, "P5"]
    said = table.typist.take()
    assert "Ann puts W4 (a 4) on P5." in said and "the game moves W1" not in said
    assert "W1 [4]  W2 [4]  W3 [2]  W4 4>P5  W5 [4]" in said
    assert console.play_named("w4p5")
    assert table.typist.take().strip() == "W4 is already placed (on P5)."
    assert table.client.sent[-1]["action"] == ["assign", 0, "P5"]  # nothing more sent
    assert console.play_named("W1 P5")
    assert table.answer() == ["assign", 1, "P5"]
    assert "Ann puts W1 (a 4) on P5." in table.typist.take()
    assert console.play_named("5 p5")  # W5, by its number: the server moves its twin
    assert table.answer() == ["assign", 3, "P5"]
    said = table.typist.take()
    assert "Ann puts W5 (a 4) on P5." in said
    assert "W1 4>P5  W2 [4]  W3 [2]  W4 4>P5  W5 4>P5" in said
    assert console.play_named("W2 P5")
    assert table.answer() == ["assign", 4, "P5"]
    assert "Ann puts W2 (a 4) on P5." in table.typist.take()


def test_numbers_still_play_the_servers_list_and_a_name_is_not_sent_twice() -> None:
    state = position("cosmic_run", 2, 5, 0)
    table = Table(state)
    console = table.typist.console
    assert legal_of(state)[2]["action"] == ["assign", 0, "P4"]
    console.play_number(3)
    assert table.answer() == ["assign", 0, "P4"]
    assert console.play_named("W2 P3")
    assert console.play_named("W2 P3")  # typed again before the server answered
    assert "It is not your turn" in table.typist.take()
    assert sum(m["type"] == "act" for m in table.client.sent) == 2


def test_names_are_not_moves_outside_ones_turn_and_unknown_words_are_left_alone() -> None:
    state = position("cosmic_run", 2, 5, 0)
    table = Table(state)
    console = table.typist.console
    assert console.play_named("hello there") is False
    assert console.play_named("W3 P1")  # a 3 cannot go on P1
    assert "`W3 P1` is not possible now" in table.typist.take()
    assert console.play_named("roll")
    assert "You cannot roll now: place a die first." in table.typist.take()
    lobby = Typist(FakeClient())
    assert lobby.console.play_named("W1 P2") is False


# --- every spelling ----------------------------------------------------------------------


def test_a_placement_answers_to_every_spelling() -> None:
    state = position("cosmic_run", 2, 5, 0)  # W1 2, W2 4, W3 3, W4 6, W5 2, Y 2
    w3p5 = index_of(state, "assign", 2, "P5")
    spellings = ["W3 P5", "w3p5", "3 5", "3p5", "w3 5", "W3 on P5", "put w3 on p5", "P5 W3"]
    spellings += ["  w3   P5 ", "`W3 P5`", "3s P5", "3S p5"]
    for text in spellings:
        found = resolved(state, text)
        assert found is not None and found.index == w3p5, text
    assert resolved(state, "Y P6!").index == index_of(state, "assign", 5, "P6")  # type: ignore[union-attr]
    assert resolved(state, "y6").index == index_of(state, "assign", 5, "P6")  # type: ignore[union-attr]
    for text in ("W1 T", "1 t", "w1 tech"):
        assert resolved(state, text).index == index_of(state, "assign", 0, "T"), text  # type: ignore[union-attr]
    # 2s: the white dice first; the yellow 2 only if no white die shows 2, and never on P6
    assert resolved(state, "2s P6").index == index_of(state, "assign", 0, "P6")  # type: ignore[union-attr]
    twin = resolved(state, "W5 P2")
    assert twin is not None and twin.index == index_of(state, "assign", 0, "P2")
    assert "W1 shows a 2 too" in twin.message


def test_abilities_answer_to_their_words() -> None:
    state = with_dice(position("cosmic_run", 2, 5, 0), [2, 4, 3, 6, 2, 2], crystals=5, flips=1)
    expect = {
        "reroll W2": ("reroll", 1),
        "re-roll w2": ("reroll", 1),
        "rr2": ("reroll", 1),
        "nudge W2 to 5": ("nudge", 1, 1),
        "nudge w2 +": ("nudge", 1, 1),
        "nudge 2 up": ("nudge", 1, 1),
        "nudge W2 3": ("nudge", 1, -1),
        "nudge w2 -": ("nudge", 1, -1),
        "flip W2": ("flip", 1),
        "flip W2 to 3": ("flip", 1),
        "reroll W5": ("reroll", 0),  # W5 and W1 both show 2: the same move
        "reroll Y": ("reroll", 5),
    }
    for text, action in expect.items():
        found = resolved(state, text)
        assert found is not None and found.index == index_of(state, *action), text


def test_boost_pass_and_retire_answer_to_their_words() -> None:
    boost = find("cosmic_run", 2, lambda s: s.legal_actions()[0][0] == "boost")
    planet = boost.legal_actions()[0][1]
    for text in (f"boost {planet}", f"BOOST{planet[1]}", f"boost {planet[1]}"):
        assert resolved(boost, text).index == 0, text  # type: ignore[union-attr]
    for text in ("pass", "no boost", "Pass"):
        assert resolved(boost, text).index == index_of(boost, "pass"), text  # type: ignore[union-attr]
    retire = find("cosmic_run", 2, lambda s: s.legal_actions()[0][0] == "retire")
    alien = retire.legal_actions()[-1][1]
    name = cosmic_run_names.alien_name(alien)
    last = len(retire.legal_actions()) - 1
    for text in (f"retire {alien}", f"retire {name}", alien.lower(), name.upper()):
        assert resolved(retire, text).index == last, text  # type: ignore[union-attr]


def test_alien_artifacts_choices_answer_to_their_codes() -> None:
    choose = find("alien_artifacts", 3, lambda s: ("buy", "ship") in s.legal_actions())
    view = choose.view(choose.current_player)
    build = next(a for a in choose.legal_actions() if a[0] == "build")
    card = build[1]
    top = view["market"]["ship"][0]
    cases = {
        (f"build {card}", f"BUILD {card.lower()}", f"build{card}", card): build,
        ("buy ship", "buy s", f"buy {top}", "Buy Ship"): ("buy", "ship"),
        ("trade", "TRADE"): ("trade",),
        ("pass",): ("pass",),
    }
    for spellings, action in cases.items():
        for text in spellings:
            assert resolved(choose, text).index == index_of(choose, *action), text  # type: ignore[union-attr]
    paying = find("alien_artifacts", 3, lambda s: s.legal_actions()[0][0] == "add")
    add = paying.legal_actions()[0]
    where = paying.view(paying.current_player)["seats"][paying.current_player][add[1]]
    code, half = where[add[2]], add[3]
    for text in (
        f"pay {code} {half}",
        f"{code} {half}",
        f"{code}{half[0]}",
        f"pay {code} {half[0]}",
    ):
        assert resolved(paying, text).index == 0, text  # type: ignore[union-attr]
    side = find("alien_artifacts", 3, lambda s: s.legal_actions()[0][0] == "side")
    completed = side.view(side.current_player)["pending"]["side_card"]
    for text in (f"place {completed} op", "op", "operative", "place op", f"{completed} op"):
        assert resolved(side, text).index == index_of(side, "side", "operative"), text  # type: ignore[union-attr]
    assert resolved(side, "logistic").index == index_of(side, "side", "logistic")  # type: ignore[union-attr]


def test_an_attack_names_aliens_by_code_and_players_by_letter_and_name() -> None:
    attack = find(
        "alien_artifacts",
        3,
        lambda s: any(a[:2] == ("target", "player") for a in s.legal_actions()),
    )
    view = attack.view(attack.current_player)
    target = next(a for a in attack.legal_actions() if a[:2] == ("target", "player"))
    letter, name = chr(65 + target[2]), NAMES[target[2]]
    for text in (f"attack {letter}", f"attack {name}", name.lower()):
        assert resolved(attack, text).index == index_of(attack, *target), text  # type: ignore[union-attr]
    alien = next(a for a in attack.legal_actions() if a[:2] == ("target", "alien"))
    code = view["aliens"]["display"][alien[2]]
    for text in (f"attack {code}", code):
        assert resolved(attack, text).index == index_of(attack, *alien), text  # type: ignore[union-attr]
    legal, names = legal_of(attack), NAMES[:3]
    shown = "\n".join(
        render.menu(view, legal, names, PLAIN)
        + render.full_list(legal, PLAIN, view=view, names=names)
    )
    assert f"{letter} {name}" in shown and code in shown
    assert not re.search(r"\b(seat|slot|place) \d", shown), shown


def test_a_word_of_the_game_that_is_not_a_choice_now_says_so() -> None:
    choose = find("alien_artifacts", 3, lambda s: ("buy", "ship") in s.legal_actions())
    found = resolved(choose, "build Z99")
    assert found is not None and found.index is None and "not a choice now" in found.message
    assert resolved(choose, "xyzzy") is None


# --- the menu shows every die ------------------------------------------------------------


def test_every_unplaced_die_has_its_row_when_values_repeat() -> None:
    checked = 0
    for seed in range(12):
        state = find(
            "cosmic_run",
            2 + seed % 3,
            lambda s: (
                s.legal_actions()[0][0] == "assign"
                and len({s.dice[d] for d in range(5) if s.loc[d] < 0})
                < sum(1 for d in range(5) if s.loc[d] < 0)
            ),
            range(seed, seed + 20),
        )
        view, legal = state.view(state.current_player), legal_of(state)
        text = "\n".join(render.menu(view, legal, NAMES, PLAIN, limit=None))
        for die in view["dice"]:
            if die["at"] is None:
                assert f"{die['die']} [{die['value']}]" in text, text
                found = render.resolve(view, legal, f"{die['die']} T")
                assert found is not None and found.index is not None
                assert legal[found.index]["action"][2] == "T"
                checked += 1
    assert checked > 30


@pytest.mark.parametrize("game", ["cosmic_run", "alien_artifacts"])
def test_the_examples_under_the_menu_are_choices_one_can_type_now(game: str) -> None:
    tried = 0
    for players in (2, 3, 4):
        for steps in range(0, 400, 7):
            state = position(game, players, 3 + players, steps, players)
            if state.is_over:
                continue
            view, legal = state.view(state.current_player), legal_of(state)
            names = NAMES[:players]
            module = plugin(game)
            assert module is not None
            for width in (60, 80):
                hint = module.hint(view, render.choices(view, legal, names), width)
                for example in re.findall(r"`([^`]+)`", hint):
                    if example in ("actions", "undo"):  # commands, not choices
                        continue
                    found = render.resolve(view, legal, example, names)
                    assert found is not None and found.index is not None, (example, hint)
                    tried += 1
    assert tried > 100


def test_a_value_only_the_yellow_die_shows_is_not_put_on_p6_by_its_value() -> None:
    state = with_dice(position("cosmic_run", 2, 5, 0), [2, 2, 3, 3, 5, 4])
    found = resolved(state, "4s P6")
    assert found is not None and found.index is None
    assert found.message == "Only Y shows a 4: `Y P6` puts it there (rolling ends)."
    assert resolved(state, "4s P5").index == index_of(state, "assign", 5, "P5")  # type: ignore[union-attr]


def test_a_discard_answers_to_the_card_alone() -> None:
    state = find("alien_artifacts", 3, lambda s: s.legal_actions()[0][0] == "discard")
    view = state.view(state.current_player)
    card = view["seats"][state.current_player]["hand"][state.legal_actions()[0][1]]
    for text in (f"discard {card}", card.lower()):
        assert resolved(state, text).index == 0, text  # type: ignore[union-attr]
