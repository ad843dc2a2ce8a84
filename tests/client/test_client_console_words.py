"""The console's words, as issue 26 asked: one meaning per abbreviation, exact menu hints, die
names that stay put, payments that say why a card is not offered, precise ``info`` texts, and
long lines that wrap under their own text."""

from __future__ import annotations

import itertools
import random
from typing import Any

from client_helpers import FakeClient, Typist, legal_of, position, table_map
from test_client_console import game_message

import games
from client import render
from client.games import plugin
from client.games.alien_artifacts import board as aa_board
from client.games.alien_artifacts import payment
from client.games.cards import card_info, card_lines
from client.games.cosmic_run.dice_names import DiceNames
from client.text.style import Style

PLAIN = Style(False)
NAMES = ["Ann", "Bob", "Cyd", "Dee"]


def console_at(state: Any, width: int = 80) -> tuple[Typist, FakeClient, int]:
    """A console seated at the current player's seat of ``state`` (its snapshot received)."""
    client = FakeClient()
    typist = Typist(client)
    typist.screen.width = width
    seat = state.current_player
    view = state.view(seat)
    names = NAMES[: view["players"]]
    table = table_map(4, view["game"], names, "playing")
    typist.console.receive({"type": "started", "table": table, "seat": seat, "seats": names})
    typist.console.receive(message("snapshot", state, seat, 0))
    typist.take()
    return typist, client, seat


def message(kind: str, state: Any, seat: int, version: int, events: Any = ()) -> dict[str, Any]:
    """The console tests' game message, its events as plain dicts (as they arrive)."""
    return game_message(kind, state, seat, version, [dict(e) for e in events])


def with_dice(state: Any, values: list[int]) -> Any:
    state.dice[:] = values
    state._legal = state._public = None  # the engine's caches of the old dice
    return state


# --- 1. "cr" is credits (Alien Artifacts), "cry" crystals (Cosmic Run) ----------------------


def test_cosmic_run_writes_crystals_cry_and_alien_artifacts_credits_cr() -> None:
    state = position("cosmic_run", 2, 5, 0)
    view = state.view(0)
    text = "\n".join(
        render.board(view, NAMES[:2], PLAIN) + render.menu(view, legal_of(state), NAMES, PLAIN)
    )
    assert "1 cry  tokens 0" in text and "reroll (1 cry)" in text
    assert " cr " not in text.replace("\n", " ") + " " and "(1 cr)" not in text
    aa = position("alien_artifacts", 3, 5, 0)
    board = "\n".join(render.board(aa.view(0), NAMES[:3], PLAIN))
    assert " cr" in board and " cry" not in board


# --- 2. the value example under the menu says what it does -----------------------------------


def test_the_value_example_says_it_puts_one_die() -> None:
    state = with_dice(position("cosmic_run", 2, 5, 0), [2, 4, 3, 6, 2, 2])
    view, legal = state.view(0), legal_of(state)
    module = plugin("cosmic_run")
    assert module is not None
    shown = render.choices(view, legal, NAMES[:2])
    wide, narrow = module.hint(view, shown, 80), module.hint(view, shown, 60)
    assert wide == "Type a die and a place: `W1 P2`, or `2s P2`: one die showing 2 on P2."
    assert narrow == "Type a die and a place: `W1 P2`; `2s P2`: one 2 on P2."
    assert "any" not in wide + narrow
    found = render.resolve(view, legal, "2s P2", NAMES[:2])
    assert found is not None and found.index is not None
    assert legal[found.index]["action"] == ["assign", 0, "P2"]  # one die, not every 2


# --- 3. the die typed is the die the log and the board name ----------------------------------


def test_w2_typed_while_w1_shows_the_same_value_is_logged_and_drawn_as_w2() -> None:
    state = with_dice(position("cosmic_run", 2, 5, 0), [4, 4, 2, 1, 6, 5])
    typist, client, seat = console_at(state)
    typist.type("W2 P2")
    sent = client.sent[-1]["action"]
    assert sent == ["assign", 0, "P2"]  # the server lists the move of equal dice with W1
    events = state.apply(tuple(sent))
    update = message("update", state, seat, 1, events)
    update["undo"] = state.label(("assign", 0, "P2"))  # "Put W1 (a 4) on planet 2"
    typist.console.receive(update)
    said = typist.take()
    assert "Ann puts W2 (a 4) on P2." in said
    assert "W1 [4]  W2 4>P2  W3 [2]" in said
    assert "`undo` takes back: Put W2 (a 4) on planet 2" in said
    assert "the game moves W1" not in said
    typist.type("W1 P3")  # the other 4, under the name the board gives it
    assert client.sent[-1]["action"] == ["assign", 1, "P3"]
    events = state.apply(("assign", 1, "P3"))
    typist.console.receive(message("update", state, seat, 2, events))
    assert "Ann puts W1 (a 4) on P3." in typist.take()


def test_a_refused_move_gives_the_names_back_and_a_new_turn_starts_plain() -> None:
    names = DiceNames()
    state = with_dice(position("cosmic_run", 2, 5, 0), [4, 4, 2, 1, 6, 5])
    names.incoming(message("snapshot", state, 0, 0))
    assert names.outgoing(["assign", 0, "P2"]) == ["assign", 0, "P2"]
    names.swap(1, 0)
    assert names.outgoing(["assign", 1, "P2"]) == ["assign", 0, "P2"]
    assert names.text("Put W1 (a 4) on planet 2") == "Put W2 (a 4) on planet 2"
    names.swap(1, 0)  # refused: as before
    assert not names.renamed
    names.swap(1, 0)
    turn = {"type": "turn", "seat": 1, "round": 1}
    after = names.incoming({**message("update", state, 0, 1), "events": [turn]})
    assert not names.renamed and after["events"] == [turn]


def test_renamed_dice_never_change_what_the_view_says_but_names() -> None:
    state = with_dice(position("cosmic_run", 2, 5, 0), [4, 4, 2, 1, 6, 5])
    names = DiceNames()
    names.incoming(message("snapshot", state, 0, 0))
    names.swap(1, 0)
    state.apply(("assign", 0, "P2"))
    msg = message("update", state, 0, 1, [])
    out = names.incoming(msg)
    assert msg["view"]["dice"][0]["at"] == "P2"  # the message itself is left alone
    shown = out["view"]["dice"]
    assert [d["die"] for d in shown] == ["W1", "W2", "W3", "W4", "W5", "Y"]
    assert [(d["value"], d["at"]) for d in shown[:2]] == [(4, None), (4, "P2")]
    facts = sorted((d["value"], str(d["at"])) for d in shown)
    assert facts == sorted((d["value"], str(d["at"])) for d in msg["view"]["dice"])
    assert {tuple(i["action"]) for i in out["legal"]} >= {("assign", 0, "P3")}


# --- 4. a payment says why a card that could pay is not offered ------------------------------


def pay_positions(limit: int = 400) -> list[Any]:
    found = []
    for seed in range(40):
        state = games.get("alien_artifacts").new(3, seed)
        rng = random.Random(seed)
        for _ in range(300):
            if state.is_over or len(found) >= limit:
                break
            if state.view(state.current_player)["phase"] == "pay":
                found.append(state.clone())
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    return found


def test_a_payment_says_in_one_line_why_a_useful_card_is_not_offered() -> None:
    said: dict[str, int] = {}
    for state in pay_positions():
        seat = state.current_player
        view, legal = state.view(seat), legal_of(state)
        me = view["seats"][seat]
        offered = {
            f"{me[a['action'][1]][a['action'][2]]} {a['action'][3]}"
            for a in legal
            if a["action"][0] == "add"
        }
        for width in (60, 80):
            note = payment.why_not(view, offered, width)
            plain = render.menu(view, legal, NAMES[:3], PLAIN, width)
            if note is None:
                continue
            assert len(note) <= width - 2
            cards = [c for c in me["hand"] + me["store"]]
            lead = note.split(" not offered")[0].split(":")[0]
            mentioned = lead.replace(" and ", ", ").split(", ") if lead[:1] == "R" else []
            for card in mentioned:  # a card said to be left out is one the server left out
                assert card in cards and f"{card} top" not in offered, note
                assert f"{card} bottom" not in offered, note
            # whole on one line, after the typing hint: one more line at most
            assert any(line.replace("\u00a0", " ").endswith(note) for line in plain), plain
            for key in ("hand order", "before the last card", "is paid in", "Gold never"):
                said[key] = said.get(key, 0) + (key in note)
    assert all(said.get(key) for key in ("hand order", "before the last card", "is paid in"))


def test_the_payment_note_is_for_the_payer_only() -> None:
    state = next(s for s in pay_positions(60) if s.current_player is not None)
    payer = state.current_player
    other = (payer + 1) % 3
    assert payment.why_not(state.view(other), set()) is None
    assert payment.why_not({**state.view(payer), "seat": None}, set()) is None


def test_hand_order_is_explained_with_the_card_to_add_first() -> None:
    view = {
        "game": "alien_artifacts",
        "phase": "pay",
        "seat": 0,
        "current_player": 0,
        "turn_state": {"converter": False},
        "seats": [{"hand": ["R04", "R12", "R32"], "store": []}],
        "pending": {
            "pay_action": "offensive",
            "pay_requirement": 3,
            "pay_value": 0,
            "pay_colour": None,
            "pay_limit": 2,
            "pay_floor": 0,
            "paid": [],
        },
    }
    # R04 Red 3 pays it all; R12 Red 2 needs one more; R32 Red 2 is last: nothing after it.
    assert payment.why_not(view, {"R04 top", "R12 top"}) == (
        "R32 not offered yet: cards are added in hand order, add R12 first."
    )
    assert payment.why_not(view, {"R04 top", "R12 top"}, 40) == "R32: add R12 first."


# --- 5. info: the real limits and costs, precise texts ---------------------------------------


def test_info_trade_gives_the_limit_rule_and_the_players_limit_in_a_game() -> None:
    (rule,) = card_info("trade")
    assert "The League starts with one, S08 Freighter: 3" in rule
    state = position("alien_artifacts", 3, 5, 40)
    seat = state.current_player
    view = state.view(seat)
    ships = [
        e
        for e in view["seats"][seat]["empire"]
        if e[0] in ("S02", "S08", "S14") and e[1] == "logistic"
    ]
    lines = card_info("TRADE", view)
    assert lines[-1] == f"  Your production limit for Trade now: {2 + len(ships)} cards."
    assert card_info("trade", None) == [rule]


def test_info_build_t11_and_ar06_say_what_they_change() -> None:
    (build,) = card_info("build")
    assert "- 2 for each logistic planet of yours naming that type" in build
    t11 = " ".join(card_info("T11"))
    assert "building a planet costs you 1 less" in t11 and "buy price does not change" in t11
    (ar06,) = card_info("AR06")
    assert "each of your operative technologies scores its VP once" in ar06
    assert "without paying" in ar06 and "T12 Research Grants' credits do not come" in ar06


# --- 6. the artifacts row keeps a space after its heading ------------------------------------


def test_the_artifacts_row_has_a_space_before_its_first_card() -> None:
    state = position("alien_artifacts", 3, 5, 40)
    view = state.view(state.current_player)
    view["seats"][view["seat"]]["artifacts"] = ["AR10"]
    lines = aa_board.board(view, NAMES[:3], PLAIN)
    assert "    artifacts AR10 Star Chart" in lines
    assert not any("artifactsAR" in line for line in lines)


# --- 7. long lines wrap under their own text -------------------------------------------------


def test_preview_and_info_lines_wrap_under_their_text() -> None:
    state = position("alien_artifacts", 3, 5, 10)
    typist, _, _ = console_at(state, width=60)
    typist.type("preview")
    lines = typist.take().splitlines()
    assert all(len(line) <= 60 for line in lines)
    for before, line in itertools.pairwise(lines):
        if line.strip() and not line.lstrip().startswith(("->",)) and not line[:3].strip():
            head = before.index("] ") + 2 if "] " in before else before.index("-> ") + 3
            assert len(line) - len(line.lstrip()) == head, (before, line)
    wrapped = card_lines("T11", 50)
    assert wrapped[2].startswith("    ") and all(len(line) <= 50 for line in wrapped)
