"""Every ship, technology and planet card effect, played (§9)."""

import pytest
from aa_helpers import (
    A,
    M,
    R,
    add,
    clear_empire,
    clear_projects,
    give_artifact,
    give_card,
    give_project,
    new,
    phase,
    play,
    set_display,
    set_hand,
    stack_deck,
    to_action,
    to_pre,
)

from games.alien_artifacts import codes as k
from games.alien_artifacts import data as d
from games.alien_artifacts import mechanics as core
from games.alien_artifacts import scoring

# Three cards whose halves of one colour are 2 each: 6 with three cards, 4 with two.
TWOS = {d.RED: ["R12", "R13", "R14"], d.BLUE: ["R26", "R27", "R28"], d.GREEN: ["R40", "R41", "R42"]}
KIND_ACTION = {
    d.A_SHIP: "build",
    d.A_TECH: "build",
    d.A_PLANET: "build",
    d.A_TRADE: "trade",
    d.A_OFFENSIVE: "offensive",
    d.A_INCOME: "income",
    d.A_MINE: "mine",
}
KIND_COLOUR = {
    d.A_SHIP: d.RED,
    d.A_TECH: d.BLUE,
    d.A_PLANET: d.GREEN,
    d.A_TRADE: d.RED,
    d.A_OFFENSIVE: d.RED,
    d.A_INCOME: d.BLUE,
    d.A_MINE: d.GREEN,
}
PROJECT_FOR = {d.A_SHIP: "S10", d.A_TECH: "T05", d.A_PLANET: "P07"}
OPERATIVE_FOR = {d.A_OFFENSIVE: "S16", d.A_INCOME: "T08", d.A_MINE: "P16"}


def _three_card_action(ship, with_ship):
    """Seat 0 plays the action named by ``ship`` with three 2-symbol cards; True if it could."""
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    clear_projects(st, 0)
    kind = d.SHIP_NAMED_ACTION[M[ship]]
    if with_ship:
        give_card(st, 0, ship, "logistic")
    if kind in PROJECT_FOR:
        give_project(st, 0, PROJECT_FOR[kind])
        cost = core.build_cost(st, 0, kind)
        if cost > 5:  # the logistic ship itself is a ship
            st.pdep[0][0] = cost - 5
    if kind in OPERATIVE_FOR:
        give_card(st, 0, OPERATIVE_FOR[kind])
    set_hand(st, 0, TWOS[KIND_COLOUR[kind]])
    action = (KIND_ACTION[kind], PROJECT_FOR[kind]) if kind in PROJECT_FOR else (KIND_ACTION[kind],)
    if action not in st.legal_actions():
        return False
    credits = st.credits[0]
    events = play(st, action, add("hand", 0), add("hand", 0), add("hand", 0), ("finish",))
    paid = sum(1 for e in events if e["type"] == "pay")
    if kind == d.A_TRADE:
        assert st.credits[0] == credits + 2 * paid
    return paid == 3


@pytest.mark.parametrize("ship", d.MARKET_NAMES[:16])
def test_logistic_ship_raises_its_named_action_limit(ship):
    assert _three_card_action(ship, with_ship=True)
    assert not _three_card_action(ship, with_ship=False)


@pytest.mark.parametrize("ship", d.MARKET_NAMES[:16])
def test_operative_ship_attack_bonus(ship):
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    clear_projects(st, 0)
    give_project(st, 0, ship)
    set_display(st, ["AL3", "AL1", "AL2"])
    set_hand(st, 0, ["R02", "R03"])
    stack_deck(st, ["R01"])  # attack number 1
    play(st, ("build", ship), add("hand", 0), add("hand", 0), ("side", "operative"))
    assert phase(st) == "attack_target" and st.attacker == M[ship]
    events = play(st, ("target", "player", 1))
    value = next(e for e in events if e["type"] == "attack")["value"]
    assert value == 1 + d.SHIP_BONUS[M[ship]] + (1 if ship == "S14" else 0)


def test_science_vessel_salvager_rider():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "S05")
    set_display(st, ["AL3", "AL1", "AL2"])
    stack_deck(st, ["R03"])
    st.phase, st.attacker, st.queue = k.ATTACK_TARGET, M["S05"], []
    st._legal = None
    credits = st.credits[0]
    play(st, ("target", "alien", 0))  # AL3 value 3: +2 cr, +1 Salvager
    assert st.credits[0] == credits + 3


# --- technologies: logistic abilities ----------------------------------------------------------


def test_t01_orbital_foundries_planets_produce_four_when_built():
    st = new(["LEA", "BIO"])
    clear_projects(st, 0)
    give_card(st, 0, "T01", "logistic")
    give_project(st, 0, "P07")
    set_hand(st, 0, ["R40", "R31"])
    play(st, ("build", "P07"), add("hand", 0), add("hand", 0), ("side", "operative"))
    assert len(st.store[0]) == 4


def test_t02_targeting_matrix_adds_one_to_every_attack():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "T02", "logistic")
    give_card(st, 0, "S13")
    stack_deck(st, ["R02"])
    st.phase, st.attacker, st.queue = k.ATTACK_TARGET, M["S13"], []
    st._legal = None
    events = play(st, ("target", "player", 1))
    assert next(e for e in events if e["type"] == "attack")["value"] == 2 + 1 + 1


def test_t03_trade_protocols_one_extra_credit_per_trade():
    st = new(["LEA", "BIO"])
    give_card(st, 0, "T03", "logistic")
    set_hand(st, 0, ["R11", "R15"])
    play(st, ("trade",), add("hand", 0, "top"), ("finish",))
    assert st.credits[0] == 8 + 1 + 1


def test_t04_expanded_holds_hand_size_four():
    st = new(["LEA", "BIO"])
    give_card(st, 0, "T04", "logistic")
    set_hand(st, 0, ["R11", "R15"])
    play(st, ("pass",), ("discard", 0), ("done",))
    assert len(st.hand[0]) == 4


def test_t05_market_analytics_buy_one_cheaper():
    st = new(["SU", "BIO"])
    give_card(st, 0, "T05", "logistic")
    play(st, ("buy", "ship"))
    assert st.credits[0] == 8 - 4


def test_t06_deep_core_mining_mine_produces_two_per_planet():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "T06", "logistic")
    give_card(st, 0, "P07")
    set_hand(st, 0, ["R29", "R30"])
    play(st, ("mine",), add("hand", 0), add("hand", 0))
    assert len(st.store[0]) == 2


def test_t07_deflector_shields_protect_ships():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "T07", "logistic")
    give_card(st, 0, "S13")
    set_display(st, ["AL6", "AL1", "AL2"])
    stack_deck(st, ["R01"])
    st.phase, st.attacker, st.queue = k.ATTACK_TARGET, M["S13"], []
    st._legal = None
    play(st, ("target", "alien", 0))
    assert M["S13"] in st.empire[0]


def test_t08_xenoarchaeology_draws_two_keeps_one():
    st = new(["EPI", "BIO"])
    give_card(st, 0, "T08", "logistic")
    st.adeck[-2:] = sorted(st.adeck[-2:])
    top, second = st.adeck[-1], st.adeck[-2]
    set_hand(st, 0, ["R01", "R02"])
    play(st, ("pilgrimage",), add("hand", 0), add("hand", 0))
    if d.ARTIFACT_EFFECT[top] == d.ARTIFACT_EFFECT[second]:
        pytest.skip("identical copies")
    assert phase(st) == "keep_artifact"
    keep = d.ARTIFACT_NAMES[second]
    play(st, ("keep", keep))
    assert st.arts[0] == [A[keep]] and st.adeck[0] == top and st.gained[0] == 1
    # The owner knows the card at the bottom; the other seat does not.
    assert st.view(0)["artifact_deck"]["cards"][-1] == d.ARTIFACT_NAMES[top]
    assert st.view(1)["artifact_deck"]["cards"][-1] == 0


def test_t09_gold_refinery_gold_halves_count_one_more():
    st = new(["LEA", "BIO"])
    give_card(st, 0, "T09", "logistic")
    set_hand(st, 0, ["R43", "R11"])
    play(st, ("trade",), add("hand", 0, "bottom"), ("finish",))
    assert st.credits[0] == 8 + 2


def test_t10_salvage_drones_three_credits_when_a_ship_leaves():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "T10", "logistic")
    give_card(st, 0, "S13")
    set_display(st, ["AL6", "AL1", "AL2"])
    stack_deck(st, ["R01"])
    st.phase, st.attacker, st.queue = k.ATTACK_TARGET, M["S13"], []
    st._legal = None
    credits = st.credits[0]
    play(st, ("target", "alien", 0))
    assert st.credits[0] == credits + 3


def test_t11_colonial_charter_planets_cost_one_less():
    st = new(["LEA", "BIO"])
    before = core.build_cost(st, 0, d.PLANET)
    give_card(st, 0, "T11", "logistic")
    assert core.build_cost(st, 0, d.PLANET) == before - 1


def test_t12_research_grants_income_gives_two_credits():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "T12", "logistic")
    give_card(st, 0, "T08")
    set_hand(st, 0, ["R01", "R11"])
    play(st, ("income",), add("hand", 0, "bottom"), add("hand", 0, "bottom"))
    assert st.credits[0] == 8 + 2


def test_t13_cloning_vats_one_credit_per_completion():
    st = new(["LEA", "BIO"])
    clear_projects(st, 0)
    give_card(st, 0, "T13", "logistic")
    give_project(st, 0, "T05")
    set_hand(st, 0, ["R15", "R16"])
    play(st, ("build", "T05"), add("hand", 0), add("hand", 0), ("side", "logistic"))
    assert st.credits[0] == 8 + 1


def test_t14_diplomatic_corps_attacks_on_you_get_minus_one():
    st = new(["LEA", "BIO"])
    give_card(st, 1, "T14", "logistic")
    give_card(st, 0, "S13")
    stack_deck(st, ["R03"])
    st.phase, st.attacker, st.queue = k.ATTACK_TARGET, M["S13"], []
    st._legal = None
    events = play(st, ("target", "player", 1))
    assert next(e for e in events if e["type"] == "attack")["value"] == 3 + 1 - 1


def test_t15_quartermaster_discard_one_draw_one_once_per_turn():
    st = new(["LEA", "BIO"])
    give_card(st, 0, "T15", "logistic")
    set_hand(st, 0, ["R01", "R02", "R03"])
    stack_deck(st, ["R10"])
    to_pre(st, 0)
    assert st.legal_actions() == [
        ("quartermaster", 0),
        ("quartermaster", 1),
        ("quartermaster", 2),
        ("start_action",),
    ]
    play(st, ("quartermaster", 1))
    assert st.hand[0] == [R["R01"], R["R03"], R["R10"]] and st.discard[-1] == R["R02"]
    assert phase(st) == "choose_action"  # used: only start_action was left


def test_t16_xeno_linguistics_one_credit_after_an_alien_attack():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "T16", "logistic")
    give_card(st, 0, "S13")
    set_display(st, ["AL3", "AL1", "AL2"])
    stack_deck(st, ["R01"])  # value 2 on AL3: +1 cr
    st.phase, st.attacker, st.queue = k.ATTACK_TARGET, M["S13"], []
    st._legal = None
    credits = st.credits[0]
    play(st, ("target", "alien", 0))
    assert st.credits[0] == credits + 1 + 1


# --- technologies: operative conditions ------------------------------------------------------

EMPIRE = [
    ("S04", "operative"),
    ("S07", "operative"),
    ("S02", "logistic"),
    ("P05", "operative"),
    ("P06", "logistic"),
    ("T09", "logistic"),
]
# Empire above plus the tech itself (operative): 3 ships, 2 planets, 2 techs; symbols without
# the tech: Exterminate 2, Expand 3 (S02, P06), Explore 2 (P05, T09); 8 credits, 3 projects.
CONDITION = {
    "T01": 1,  # operative planets: P05
    "T02": 2,  # operative ships
    "T03": 2,  # 8 credits // 4
    "T04": 1,  # logistic cards 3 // 2
    "T05": 2,  # projects, max 2
    "T06": 2,  # Explore: P05, T09
    "T07": 2,  # Exterminate: S04, S07
    "T08": 1,  # artifacts held: 1
    "T09": 2,  # Expand: S02, P06 (T09 itself is Explore and moves to the operative side)
    "T10": 1,  # ships 3 // 2
    "T11": 1,  # planets 2 // 2
    "T12": 1,  # techs (T09 + itself) // 2
    "T13": 2,  # 7 cards // 3
    "T14": 2,  # sets of ship + tech + planet
    "T15": 3,  # Exterminate, Expand, Explore and its own Exploit: 4 - 1
    "T16": 0,  # Exploit symbols: none (T16 is Exterminate)
}


def _condition_state(tech):
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    for name, side in EMPIRE:
        give_card(st, 0, name, side)
    give_card(st, 0, tech, "operative")
    give_artifact(st, 0, "AR11")
    st.credits[0] = 8
    return st


@pytest.mark.parametrize("tech", d.MARKET_NAMES[16:32])
def test_operative_technology_condition_scores_on_income(tech):
    st = _condition_state(tech)
    assert scoring.tech_score(st, 0, M[tech]) == CONDITION[tech]
    set_hand(st, 0, ["R01", "R11"])
    to_action(st, 0)
    vp = st.vp[0]
    play(st, ("income",), add("hand", 0, "bottom"), add("hand", 0, "bottom"))
    total = sum(scoring.tech_score(st, 0, c) for c in core.operative_techs(st, 0))
    assert st.vp[0] == vp + total


def test_technology_conditions_are_capped():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    for name in ("S04", "S07", "S12", "S16", "S10"):
        give_card(st, 0, name)
    give_card(st, 0, "T02")
    st.credits[0] = 40
    give_card(st, 0, "T03")
    assert scoring.tech_score(st, 0, M["T02"]) == 3
    assert scoring.tech_score(st, 0, M["T03"]) == 3


def test_t15_condition_is_distinct_symbols_minus_one_and_at_least_zero():
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    give_card(st, 0, "T15")
    assert scoring.tech_score(st, 0, M["T15"]) == 0  # only its own Exploit


# --- planets -----------------------------------------------------------------------------------


@pytest.mark.parametrize("planet", d.MARKET_NAMES[32:])
def test_logistic_planet_discounts_its_type(planet):
    st = new(["SU", "BIO"])
    clear_empire(st, 0)
    t = d.PLANET_DISCOUNT[M[planet] - 32]
    costs = [core.build_cost(st, 0, x) for x in range(3)]
    give_card(st, 0, planet, "logistic")
    after = [core.build_cost(st, 0, x) for x in range(3)]
    expected = [c + (1 if x == d.PLANET else 0) for x, c in enumerate(costs)]
    expected[t] -= 2
    assert after == expected
    assert core.buy_price(st, 0, t) == 4
    play(st, ("buy", d.TYPE_NAMES[t]))
    assert st.credits[0] == 8 - 4


@pytest.mark.parametrize("planet", d.MARKET_NAMES[32:])
def test_operative_planet_produces_and_harvests_its_symbol(planet):
    st = new(["LEA", "BIO"])
    clear_empire(st, 0)
    clear_projects(st, 0)
    give_project(st, 0, planet)
    sym = d.MARKET_SYMBOL[M[planet]]
    matching = [c for c in range(54) if d.RESOURCE_SYMBOL[c] == sym and c >= 42][:1]
    other = [c for c in range(54) if d.RESOURCE_SYMBOL[c] != sym and c >= 42][:2]
    set_hand(st, 0, ["R29", "R30"])
    stack_deck(st, [d.RESOURCE_NAMES[c] for c in matching + other])
    play(st, ("build", planet), add("hand", 0), add("hand", 0), ("side", "operative"))
    assert st.store[0] == matching + other and st.vp[0] == 2
    # And one card on each Mine Planets.
    to_action(st, 0)
    set_hand(st, 0, ["R31", "R33"])
    play(st, ("mine",), add("hand", 0), add("hand", 0))
    assert len(st.store[0]) == 4
