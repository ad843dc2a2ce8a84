"""Menu previews (client.games.preview) against the engines: what they claim for sure really
happens, they read nothing hidden, and they are worded right.

Positions come from seeded games of both games played by a mix of the greedy and the random bot;
each preview is computed from the view of the seat to move, and checked by applying the action
to the real state.
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import games
from ai.bots import GreedyBot
from client.games import preview
from client.games.preview import Effect, effects, preview_text, previews, signed
from games.cosmic_run.data import ALIENS

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games"))

import aa_helpers as aah
import cr_helpers as crh

GAMES = [
    ("cosmic_run", 2, 1),
    ("cosmic_run", 3, 2),
    ("cosmic_run", 1, 3),
    ("alien_artifacts", 2, 4),
]
GAMES += [("alien_artifacts", 3, 5), ("cosmic_run", 4, 6), ("alien_artifacts", 4, 7)]
_CR_CUT = {"turn", "drone_roll", "storm", "game_over"}


def positions(name: str, players: int, seed: int, every: int = 5) -> Iterator[Any]:
    """Every ``every``-th position of a seeded game (greedy and random moves mixed)."""
    game = games.get(name)
    state = game.new(players, seed)
    rng = random.Random(seed)
    greedy = GreedyBot(game, rng)
    step = 0
    while not state.is_over:
        legal = state.legal_actions()
        if step % every == 0:
            yield state.clone()
        seat = state.current_player
        if rng.random() < 0.6:
            action = greedy.choose(state.view(seat), legal)
        else:
            action = legal[rng.randrange(len(legal))]
        state.apply(action)
        step += 1


def all_positions(every: int = 5) -> Iterator[tuple[str, Any]]:
    for name, players, seed in GAMES:
        for state in positions(name, players, seed, every):
            yield name, state


# --- (1) what a preview claims for sure is what the engine does -----------------------------------


def _cr_mine(view: dict[str, Any], seat: int) -> dict[str, Any]:
    me = view["seats"][seat]
    return {
        "vp": me["vp"],
        "crystals": me["crystals"],
        "tokens": me["infodere_count"],
        "discovered": me["discovered"],
        "ships": {p["planet"]: p["ships"] and p["ships"][seat] for p in view["planets"]},
        "status": {p["planet"]: p["status"] for p in view["planets"]},
    }


def _check_cr(state: Any, action: tuple[Any, ...], effect: Effect | None, seat: int) -> bool:
    """True if checked: the action's real effect up to the end of the turn equals the claims."""
    before = _cr_mine(state.view(seat), seat)
    real = state.clone()
    events = real.apply(action)
    cut = next((i for i, e in enumerate(events) if e["type"] in _CR_CUT), len(events))
    for event in events[cut:]:
        # What the next turn (a meteor, the Drone, a solo player's next start) did is not the
        # action's doing: such positions are not compared.
        if event["type"] == "planet_scored" or (
            event.get("seat") == seat and event["type"] in ("crystals", "move", "infodere")
        ):
            return False
    after = _cr_mine(real.view(seat), seat)
    certain = effect.certain if effect else {}
    ranges = effect.ranges if effect else {}
    for key in ("vp", "crystals", "tokens"):
        if key in ranges:
            continue
        assert after[key] - before[key] == certain.get(key, 0), (key, action, effect)
    items = effect.items if effect else {}
    for planet, space in after["ships"].items():
        text = items.get(f"ship P{planet}")
        if text is None:
            if space is not None:
                assert space == before["ships"][planet], (planet, action, effect)
        elif text.startswith("discover"):
            assert after["status"][planet] == "discovered"
            assert after["discovered"] == before["discovered"] + 1
        else:
            assert space == int(re.search(r"space (\d+)", text).group(1)), (text, action)
    return True


def _aa_mine(view: dict[str, Any], seat: int) -> dict[str, int]:
    me = view["seats"][seat]
    return {"vp": me["vp"], "credits": me["credits"], "hand": me["hand_count"]}


def _pay_randomly(state: Any, seat: int, rng: random.Random) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    while not state.is_over and state.current_player == seat and state.view(seat)["phase"] == "pay":
        legal = state.legal_actions()
        events += state.apply(legal[rng.randrange(len(legal))])
    return events


def _check_aa(
    state: Any, action: tuple[Any, ...], effect: Effect | None, seat: int, rng: random.Random
) -> bool:
    before = _aa_mine(state.view(seat), seat)
    real = state.clone()
    events = real.apply(action)
    if action[0] in ("offensive", "income", "mine", "pilgrimage"):
        # The preview says what the action does once paid, whatever cards pay.
        events += _pay_randomly(real, seat, rng)
    after = _aa_mine(real.view(seat), seat)
    certain = effect.certain if effect else {}
    ranges = effect.ranges if effect else {}
    for key in ("vp", "credits"):
        change = after[key] - before[key]
        if key in ranges:
            kinds = {e["type"] for e in events}
            if "produce" in kinds and "attack" not in kinds:  # a harvest: every total is known
                low, high = ranges[key]
                assert low <= change <= high, (key, action, effect)
            continue
        assert change == certain.get(key, 0), (key, action, effect)
    if action[0] in ("discard", "done", "quartermaster", "play_artifact") and "drawn" in certain:
        left = 1 if action[0] in ("discard", "quartermaster") else 0
        assert after["hand"] - before["hand"] + left == certain["drawn"], (action, effect)
    return True


def test_what_a_preview_claims_for_sure_is_what_the_engine_does():
    rng = random.Random(0)
    checked = {"cosmic_run": 0, "alien_artifacts": 0}
    claims = {"cosmic_run": 0, "alien_artifacts": 0}
    for name, state in all_positions():
        seat = state.current_player
        legal = state.legal_actions()
        for action, effect in zip(legal, effects(state.view(seat), legal), strict=True):
            if name == "cosmic_run":
                done = _check_cr(state, action, effect, seat)
            else:
                done = _check_aa(state, action, effect, seat, rng)
            checked[name] += done
            claims[name] += bool(done and effect and (effect.certain or effect.items))
    assert min(checked.values()) > 300, checked
    assert min(claims.values()) > 100, claims


def test_a_placed_die_moves_the_ship_where_the_preview_says_once_rolling_ends():
    projections = 0
    for name, state in all_positions(every=3):
        if name != "cosmic_run":
            continue
        seat = state.current_player
        legal = state.legal_actions()
        for action, effect in zip(legal, effects(state.view(seat), legal), strict=True):
            if not effect or not effect.projected:
                continue
            real = state.clone()
            real.apply(action)
            # End rolling without another step: every other die goes on the technology card.
            while real.current_player == seat and real.view(seat)["decision"] == "assign":
                real.apply(
                    next(a for a in real.legal_actions() if a[0] == "assign" and a[2] == "T")
                )
            if real.current_player == seat and real.view(seat)["decision"] == "boost":
                real.apply(("pass",))
            for key, space in effect.projected.items():
                planet = int(key.removeprefix("ship P"))
                info = real.view(seat)["planets"][planet - 1]
                if space >= info["length"]:
                    assert info["status"] == "discovered", (action, effect)
                elif info["ships"] is not None:
                    assert info["ships"][seat] == space, (action, effect)
                projections += 1
    assert projections > 100


def test_a_die_that_completes_a_set_says_the_planet_is_reached_and_its_vp():
    state = crh.at_roll(crh.new(2), [3, 3, 3, 5, 6, 2], seat=0)
    state.pos[0][2] = 4  # one step short of planet 3
    crh.place(state, 0, "P3")
    crh.place(state, 1, "P3")
    view = state.view(0)
    text = preview_text("cosmic_run", view, ("assign", 2, "P3"))
    assert text == "+1 step on P3 when rolling ends (reaches the planet: +9 VP)"
    crh.put(state, (2, "P3"), (3, "T"), (4, "T"), (5, "T"))
    crh.finish(state)
    assert state.status[2] != 0 and state.vp[0] == 9


def test_the_last_die_that_discovers_a_planet_is_previewed_with_its_vp():
    state = crh.at_roll(crh.new(2), [3, 3, 3, 5, 6, 2], seat=0)
    state.pos[0][2] = 4
    state.pos[1][2] = 2  # the other ship scores its space when planet 3 is discovered
    for die, target in ((0, "P3"), (1, "P3"), (3, "P2"), (4, "P2"), (5, "T")):
        crh.place(state, die, target)
    action = ("assign", 2, "P3")
    [effect] = effects(state.view(0), [action])
    assert effect is not None
    assert effect.text == "ends rolling, discover planet 3, +1 crystal, +9 VP, ends your turn"
    assert effect.certain == {"crystals": 1, "vp": 9}
    assert _check_cr(state, action, effect, 0)


def test_the_yellow_die_on_p6_says_rolling_ends_and_how_many_dice_are_lost():
    state = crh.at_roll(crh.new(2), [1, 2, 4, 5, 6, 3], seat=0)
    text = preview_text("cosmic_run", state.view(0), ("assign", 5, "P6"))
    assert text is not None
    assert text.startswith("ends rolling: 5 dice lost, ship to space 3 on P6")
    assert text.endswith("ends your turn")


def _full_hands_at_recruit() -> Any:
    """Seat 0 holds 5 aliens and has covered the first row card; rolling goes on."""
    state = crh.new(2)
    crh.give(state, 0, *(ALIENS[a].id for a in state.alien_deck[-5:]))
    faces = ALIENS[state.row[0]].faces
    state = crh.at_roll(state, [*faces, 2, 4, 5, 6, 3][:6], seat=0)
    crh.put(state, *((die, "A1") for die in range(len(faces))))
    return state


def test_ending_rolling_with_a_full_hand_of_aliens_says_one_must_be_retired():
    state = _full_hands_at_recruit()
    text = preview_text("cosmic_run", state.view(0), ("assign", 5, "P6"))
    assert text is not None and text.endswith("then retire an alien (you may hold 5)")


def test_retiring_the_incoming_alien_does_not_recruit_it():
    state = _full_hands_at_recruit()
    crh.put(state, *((die, "T") for die in range(6) if state.loc[die] < 0))
    crh.finish(state)
    incoming = ALIENS[state.row[state.retire_slot]]
    text = preview_text("cosmic_run", state.view(0), ("retire", incoming.id))
    assert text == f"retire {incoming.name}, +{incoming.vp} VP, ends your turn"
    kept = ALIENS[state.held[0][0]]
    text = preview_text("cosmic_run", state.view(0), ("retire", kept.id))
    assert text == f"retire {kept.name}, recruit {incoming.name}, +{kept.vp} VP, ends your turn"


def test_a_roll_and_a_reroll_say_they_roll():
    state = crh.at_roll(crh.new(2), [1, 2, 4, 5, 6, 3], seat=0)
    crh.put(state, (0, "P1"))
    view = state.view(0)
    assert preview_text("cosmic_run", view, ("roll",)) == "roll 5 dice"
    assert preview_text("cosmic_run", view, ("reroll", 1)) == "-1 crystal, re-roll W2"


# --- (2) nothing hidden leaks ---------------------------------------------------------------------


def _hidden(state: Any) -> tuple[Any, ...]:
    """The parts of a state that some seat cannot see: decks, others' cards, future rolls."""
    if hasattr(state, "meteor_deck"):
        return (
            state.meteor_deck,
            state.alien_deck,
            state.board_tokens,
            state.tokens,
            state.rng.die(),
        )
    return state.deck, state.hand, state.store, state.plan, state.adeck, state.market


def test_positions_that_look_the_same_to_the_seat_get_the_same_previews():
    compared = differed = 0
    for name, state in all_positions(every=9):
        seat = state.current_player
        view = state.view(seat)
        game = games.get(name)
        one, two = game.determinize(view, seat, 1), game.determinize(view, seat, 2)
        assert one.view(seat) == two.view(seat) == view
        differed += _hidden(one) != _hidden(two)
        texts = []
        for real in (state, one, two):
            preview._cache.clear()
            texts.append(previews(real.view(seat), real.legal_actions()))
        assert texts[0] == texts[1] == texts[2]
        compared += 1
    assert differed > compared // 2  # the hidden parts really were different


_CARD_ID = re.compile(r"\b(?:AR|DP|AL|R|S|T|P)\d\d\b")


def test_a_preview_names_no_card_the_seat_cannot_see():
    named = 0
    for name, state in all_positions(every=4):
        if name != "alien_artifacts":
            continue
        seat = state.current_player
        view = state.view(seat)
        seen = json.dumps(view)
        for text in previews(view, state.legal_actions()):
            for card in _CARD_ID.findall(text or ""):
                assert f'"{card}"' in seen, (card, text)
                named += 1
    assert named > 50


def test_cards_drawn_are_counted_never_named():
    state = aah.new(["LEA", "BIO"])
    aah.give_artifact(state, 0, "AR03")  # Resource Cache: draw 3
    aah.to_pre(state, 0)
    text = preview_text("alien_artifacts", state.view(0), ("play_artifact", "AR03"))
    assert text == "draw 3 cards"


# --- (3) the wasted turn: Income that scores nothing --------------------------------------


def _income_position(
    tech: str, credits: int = 0, hand: tuple[str, ...] = ("R01", "R11", "R33")
) -> Any:
    """Seat 0 to choose its action with ``tech`` its only card (operative) and Blue to pay."""
    state = aah.new(["LEA", "BIO"])
    aah.clear_empire(state, 0)
    aah.clear_projects(state, 0)
    aah.give_card(state, 0, tech)
    state.credits[0] = credits
    aah.set_hand(state, 0, hand)  # R01, R11, R24: Blue 3 bottom halves; R33: no Blue
    return aah.to_action(state, 0)


def test_collecting_income_that_scores_nothing_is_previewed_as_plus_0_vp():
    state = _income_position("T15")
    [effect] = effects(state.view(0), [("income",)])
    assert effect is not None
    assert effect.text == "-5 Blue, +0 VP (T15 +0)"
    assert effect.certain == {"vp": 0}
    state.apply(("income",))  # the only way to pay is taken at once
    assert state.view(0)["phase"] == "discard"
    assert state.vp[0] == 0


def test_the_half_that_completes_an_income_payment_is_previewed_as_its_scoring():
    state = _income_position("T15", hand=("R01", "R11", "R24"))  # three Blue 3 bottom halves
    state.apply(("income",))
    state.apply(aah.add("hand", 0, "bottom"))
    half = aah.add("hand", 0, "bottom")
    assert half in state.legal_actions()
    # The engine finishes on its own once the cost is paid: the half's preview is the scoring.
    assert preview_text("alien_artifacts", state.view(0), half) == "+0 VP (T15 +0)"
    state.apply(half)
    assert state.view(0)["phase"] == "discard"
    assert state.vp[0] == 0


def test_collecting_income_that_scores_says_how_much():
    state = _income_position("T03", credits=8)  # 1 VP per 4 credits
    assert preview_text("alien_artifacts", state.view(0), ("income",)) == "-5 Blue, +2 VP (T03 +2)"


# --- (4) wording ----------------------------------------------------------------------------------


def test_signed_counts_are_singular_for_one_and_plural_otherwise():
    assert signed(1, "credit") == "+1 credit"
    assert signed(2, "credit") == "+2 credits"
    assert signed(-1, "crystal") == "-1 crystal"
    assert signed(-3, "crystal") == "-3 crystals"
    assert signed(0, "credit") == "+0 credits"
    assert signed(0, "VP") == "+0 VP"
    assert signed(-2, "VP") == "-2 VP"


_NOUNS = r"(?:credit|crystal|card|step|artifact|Infodere token)"
_ONE_PLURAL = re.compile(rf"(?<![\d.])[+-]?1 (?:{_NOUNS}s|dice)\b")
_MANY_SINGULAR = re.compile(rf"(?<![\d.])[+-]?(?:0|[2-9]|\d\d+) (?:{_NOUNS}|die)\b(?!s)")


def test_every_preview_is_worded_with_the_right_number():
    texts = set()
    for _, state in all_positions(every=3):
        seat = state.current_player
        texts.update(t for t in previews(state.view(seat), state.legal_actions()) if t)
    assert len(texts) > 200
    for text in texts:
        assert not _ONE_PLURAL.search(text), text
        assert not _MANY_SINGULAR.search(text), text
        assert "dice" not in text or not re.search(r"\b1 dice\b", text), text
        assert "  " not in text and not text.endswith((",", " ")), text


# --- the interface ------------------------------------------------------------------------------


def test_the_protocols_legal_items_get_the_same_previews_as_action_tuples():
    state = crh.at_roll(crh.new(2), [1, 2, 4, 5, 6, 3], seat=0)
    legal = state.legal_actions()
    items = [{"action": list(a), "label": state.label(a)} for a in legal]
    assert previews(state.view(0), items) == previews(state.view(0), legal)


def test_a_seat_not_to_move_and_a_spectator_get_no_previews():
    state = crh.at_roll(crh.new(2), [1, 2, 4, 5, 6, 3], seat=0)
    legal = state.legal_actions()
    assert previews(state.view(1), legal) == [None] * len(legal)
    assert previews(state.view(None), legal) == [None] * len(legal)
    assert previews({"game": "chess", "seat": 0, "current_player": 0}, [("e4",)]) == [None]


def test_an_action_the_position_does_not_allow_gets_no_preview():
    state = crh.at_roll(crh.new(2), [1, 2, 4, 5, 6, 3], seat=0)
    assert previews(state.view(0), [("boost", "P3"), ("assign", 0, "P1")])[0] is None


@pytest.mark.parametrize("game", ["cosmic_run", "alien_artifacts"])
def test_preview_text_refuses_another_games_view(game):
    state = crh.at_roll(crh.new(2), [1, 2, 4, 5, 6, 3], seat=0)
    expected = (
        None if game == "alien_artifacts" else "+1 step on P1 when rolling ends (ship to space 1)"
    )
    assert preview_text(game, state.view(0), ("assign", 0, "P1")) == expected
