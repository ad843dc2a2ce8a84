"""Every card and table of Alien Artifacts (spec §1-§3, §7-§9), as plain tuples indexed by int ids.

Ids are dense ints so that the engine can use lists and bitmasks; the printed ids (``R01``,
``S04``, ``AL3``, ...) are the names in ``*_NAMES`` and are what views, events and actions use.

- resource cards: 0..53 = R01..R54
- market cards: 0..15 = S01..S16 (ships), 16..31 = T01..T16 (techs), 32..47 = P01..P16 (planets);
  the type of market card ``c`` is ``c // 16``
- alien systems: 0..7 = AL1..AL8; defence plans: 0..9 = DP01..DP10; artifacts: 0..13 = AR01..AR14

The way back, from a printed name to its id, is the ``*_INDEX`` maps at the end: the only ones
of the engine (actions, views and determinization all read names through them).
"""

from __future__ import annotations

from games.alien_artifacts.codes import CTX_NAMES, PHASE_NAMES

# --- colours and 4X symbols ----------------------------------------------------------------------

RED, BLUE, GREEN, GOLD = 0, 1, 2, 3
COLOUR_NAMES = ("Red", "Blue", "Green", "Gold")

EXPLORE, EXPAND, EXPLOIT, EXTERMINATE = 0, 1, 2, 3
SYMBOL_NAMES = ("Explore", "Expand", "Exploit", "Exterminate")

# --- card types, action kinds --------------------------------------------------------------------

SHIP, TECH, PLANET = 0, 1, 2
TYPE_NAMES = ("ship", "tech", "planet")  # the market deck names used in actions
TYPE_WORDS = ("ship", "technology", "planet")
# The colour that builds a type: ship -> Red, technology -> Blue, planet -> Green.
TYPE_COLOUR = (RED, BLUE, GREEN)

# Action kinds that use a payment (and that a logistic ship can name, except Pilgrimage).
A_SHIP, A_TECH, A_PLANET, A_TRADE, A_OFFENSIVE, A_INCOME, A_MINE, A_PILGRIMAGE = range(8)
ACTION_WORDS = (
    "Build a Ship",
    "Develop a Technology",
    "Discover a Planet",
    "Trade",
    "Launch an Offensive",
    "Collect Income",
    "Mine Planets",
    "Pilgrimage",
)
# The same kinds as views name them (``pay_action``).
KIND_NAMES = ("ship", "tech", "planet", "trade", "offensive", "income", "mine", "pilgrimage")
# The colour an operative action is paid with (Gold never allowed).
OPERATIVE_COLOUR = {A_OFFENSIVE: RED, A_INCOME: BLUE, A_MINE: GREEN}
OPERATIVE_COST = 5
PILGRIMAGE_COST = 5
PILGRIMAGE_CREDITS = 2

# --- key numbers (§1.3) --------------------------------------------------------------------------

HAND_SIZE = 3
HAND_SIZE_T04 = 4
BASE_LIMIT = 2
LOGISTIC_SHIP_LIMIT = 1  # cards added to the production limit of the action the ship names
BASE_BUILD_COST = 5
LOGISTIC_PLANET_BUILD_DISCOUNT = 2
BASE_BUY_PRICE = 5
LOGISTIC_PLANET_BUY_DISCOUNT = 1
MIN_BUY_PRICE = 2
STARTING_CREDITS = 8
PLANET_BUILD_PRODUCTION = 3
PLANET_BUILD_PRODUCTION_T01 = 4
MINE_PRODUCTION = 1  # cards each operative planet produces when its owner Mines Planets
MINE_PRODUCTION_T06 = 2
HARVEST_VP = 2
END_VP_OPERATIVE = 2
END_VP_LOGISTIC = 4
UNUSED_ARTIFACT_VP = 1
DISPLAY_SIZE = 3
STAR_CHART_LOOK = 5
SALVAGE_CREDITS = 3
TURN_CAP = 5000  # safety cap of §4.6; a game that reaches it is a bug

# --- resource cards (§3.2) -----------------------------------------------------------------------
# (top colour, top count, bottom colour, bottom count, attack number, 4X symbol)

_R, _B, _G, _Y = RED, BLUE, GREEN, GOLD
_XPL, _XPA, _XPT, _XTM = EXPLORE, EXPAND, EXPLOIT, EXTERMINATE

RESOURCES: tuple[tuple[int, int, int, int, int, int], ...] = (
    (_R, 3, _B, 3, 1, _XPL),  # R01
    (_R, 3, _B, 3, 2, _XPA),
    (_R, 3, _B, 3, 3, _XPT),
    (_R, 3, _B, 2, 4, _XTM),
    (_R, 3, _B, 2, 1, _XPL),  # R05
    (_R, 3, _B, 2, 2, _XPA),
    (_R, 2, _B, 3, 3, _XPT),
    (_R, 2, _B, 3, 4, _XTM),
    (_R, 2, _B, 3, 2, _XPL),
    (_R, 3, _B, 1, 3, _XPA),  # R10
    (_R, 1, _B, 3, 1, _XPT),
    (_R, 2, _B, 2, 4, _XTM),
    (_R, 2, _B, 2, 2, _XPL),
    (_R, 2, _B, 2, 3, _XPA),
    (_B, 3, _G, 3, 1, _XPT),  # R15
    (_B, 3, _G, 3, 2, _XTM),
    (_B, 3, _G, 3, 3, _XPL),
    (_B, 3, _G, 2, 4, _XPA),
    (_B, 3, _G, 2, 1, _XPT),
    (_B, 3, _G, 2, 2, _XTM),  # R20
    (_B, 2, _G, 3, 3, _XPL),
    (_B, 2, _G, 3, 4, _XPA),
    (_B, 2, _G, 3, 2, _XPT),
    (_B, 3, _G, 1, 3, _XTM),
    (_B, 1, _G, 3, 1, _XPL),  # R25
    (_B, 2, _G, 2, 4, _XPA),
    (_B, 2, _G, 2, 2, _XPT),
    (_B, 2, _G, 2, 3, _XTM),
    (_G, 3, _R, 3, 1, _XPL),
    (_G, 3, _R, 3, 2, _XPA),  # R30
    (_G, 3, _R, 3, 3, _XPT),
    (_G, 3, _R, 2, 4, _XTM),
    (_G, 3, _R, 2, 1, _XPL),
    (_G, 3, _R, 2, 2, _XPA),
    (_G, 2, _R, 3, 3, _XPT),  # R35
    (_G, 2, _R, 3, 4, _XTM),
    (_G, 2, _R, 3, 2, _XPL),
    (_G, 3, _R, 1, 3, _XPA),
    (_G, 1, _R, 3, 1, _XPT),
    (_G, 2, _R, 2, 4, _XTM),  # R40
    (_G, 2, _R, 2, 2, _XPL),
    (_G, 2, _R, 2, 3, _XPA),
    (_R, 3, _Y, 1, 1, _XPT),
    (_R, 3, _Y, 1, 2, _XTM),
    (_R, 2, _Y, 1, 3, _XPL),  # R45
    (_R, 2, _Y, 2, 4, _XPA),
    (_B, 3, _Y, 1, 2, _XPT),
    (_B, 3, _Y, 1, 3, _XTM),
    (_B, 2, _Y, 1, 4, _XPL),
    (_B, 2, _Y, 2, 1, _XPA),  # R50
    (_G, 3, _Y, 1, 3, _XPT),
    (_G, 3, _Y, 1, 4, _XTM),
    (_G, 2, _Y, 1, 1, _XPL),
    (_G, 2, _Y, 2, 2, _XPA),  # R54
)
N_RESOURCES = len(RESOURCES)
RESOURCE_NAMES = tuple(f"R{i + 1:02d}" for i in range(N_RESOURCES))
# Per card, per half (0 = top, 1 = bottom): colour and symbol count.
HALF_COLOUR = tuple((r[0], r[2]) for r in RESOURCES)
HALF_VALUE = tuple((r[1], r[3]) for r in RESOURCES)
ATTACK_NUMBER = tuple(r[4] for r in RESOURCES)
RESOURCE_SYMBOL = tuple(r[5] for r in RESOURCES)
HALF_NAMES = ("top", "bottom")

# --- market cards (§9) ---------------------------------------------------------------------------

N_MARKET = 48
MARKET_NAMES = (
    tuple(f"S{i:02d}" for i in range(1, 17))
    + tuple(f"T{i:02d}" for i in range(1, 17))
    + tuple(f"P{i:02d}" for i in range(1, 17))
)
S01, S02, S03, S05, S08, S09, S14 = 0, 1, 2, 4, 7, 8, 13
T01, T02, T03, T04, T05, T06, T07, T08 = range(16, 24)
T09, T10, T11, T12, T13, T14, T15, T16 = range(24, 32)
P01, P03 = 32, 34

# Ships: (name, symbol, action named on the logistic side, operative attack bonus)
SHIPS = (
    ("Union Vanguard", _XTM, A_OFFENSIVE, 1),
    ("Armoured Hauler", _XPA, A_TRADE, 0),
    ("Frigate", _XTM, A_SHIP, 1),
    ("Destroyer", _XTM, A_SHIP, 2),
    ("Science Vessel", _XPL, A_TECH, 0),
    ("Survey Ship", _XPL, A_PLANET, 1),
    ("Battlecruiser", _XTM, A_OFFENSIVE, 2),
    ("Freighter", _XPT, A_TRADE, 1),
    ("Mining Barge", _XPT, A_MINE, 0),
    ("Colony Ship", _XPA, A_PLANET, 1),
    ("Research Cruiser", _XPL, A_INCOME, 1),
    ("Dreadnought", _XTM, A_SHIP, 2),
    ("Courier", _XPA, A_TECH, 1),
    ("Privateer", _XPT, A_TRADE, 1),
    ("Carrier", _XPA, A_INCOME, 1),
    ("Corvette", _XTM, A_PLANET, 2),
)
ARMOURED = frozenset({S02, S09})  # rider: Damaged results do not affect it
SALVAGER = S05  # rider: credits after an attack that leaves it in the empire
SALVAGER_CREDITS = 1
RAIDER = S14  # rider: a bonus to its attack value against a player
RAIDER_BONUS = 1

# Technologies: (name, symbol); abilities and conditions are coded in the rules by id.
TECHS = (
    ("Orbital Foundries", _XPT),
    ("Targeting Matrix", _XTM),
    ("Trade Protocols", _XPT),
    ("Expanded Holds", _XPA),
    ("Market Analytics", _XPT),
    ("Deep Core Mining", _XPT),
    ("Deflector Shields", _XPA),
    ("Xenoarchaeology", _XPL),
    ("Gold Refinery", _XPL),
    ("Salvage Drones", _XTM),
    ("Colonial Charter", _XPL),
    ("Research Grants", _XPA),
    ("Cloning Vats", _XPA),
    ("Diplomatic Corps", _XPL),
    ("Quartermaster", _XPT),
    ("Xeno Linguistics", _XTM),
)
# The numbers of the technologies' logistic abilities (T01's, T04's and T10's are above).
ATTACK_BONUS_T02 = 1
TRADE_CREDITS_T03 = 1
BUY_DISCOUNT_T05 = 1
GOLD_BONUS_T09 = 1  # on each Gold half paid for a build or a trade
PLANET_DISCOUNT_T11 = 1  # on the build cost of planets
INCOME_CREDITS_T12 = 2
COMPLETION_CREDITS_T13 = 1
ATTACK_MALUS_T14 = 1  # on attacks against its owner
ALIEN_CREDITS_T16 = 1  # after each attack on an alien system that leaves the ship in the empire
TECH_LOGISTIC_TEXT = (
    f"operative planets produce {PLANET_BUILD_PRODUCTION_T01} when built",
    f"+{ATTACK_BONUS_T02} attack value",
    f"+{TRADE_CREDITS_T03} credit per Trade",
    f"hand size {HAND_SIZE_T04}",
    f"buy price -{BUY_DISCOUNT_T05}",
    f"Mine produces {MINE_PRODUCTION_T06} per planet",
    "Damaged ignored, Destroyed becomes Damaged",
    "gain artifacts by drawing 2, keeping 1",
    f"Gold halves count +{GOLD_BONUS_T09} on builds and trades",
    f"+{SALVAGE_CREDITS} credits when a ship leaves through combat",
    f"planets cost {PLANET_DISCOUNT_T11} less",
    f"+{INCOME_CREDITS_T12} credits per Collect Income",
    f"+{COMPLETION_CREDITS_T13} credit per completed project",
    f"attacks on you get -{ATTACK_MALUS_T14}",
    "discard 1, draw 1 before the action",
    f"+{ALIEN_CREDITS_T16} credit after an alien attack",
)
# An operative technology scores 1 VP per ``per`` of what it counts, at most ``cap`` VP (§9.3);
# what each one counts is coded in the scoring rules by id.
TECH_SCORING: tuple[tuple[int, int], ...] = (
    (1, 3),  # T01: operative planets
    (1, 3),  # T02: operative ships
    (4, 3),  # T03: credits
    (2, 3),  # T04: logistic cards
    (1, 2),  # T05: projects
    (1, 3),  # T06: Explore symbols
    (1, 3),  # T07: Exterminate symbols
    (1, 2),  # T08: artifacts held
    (1, 3),  # T09: Expand symbols
    (2, 3),  # T10: ships
    (2, 3),  # T11: planets
    (2, 3),  # T12: technologies
    (3, 3),  # T13: cards in the empire
    (1, 3),  # T14: ship+technology+planet sets
    (1, 3),  # T15: different 4X symbols beyond the first
    (1, 3),  # T16: Exploit symbols
)
_TECH_COUNTS = (
    ("operative planet", "operative planets"),
    ("operative ship", "operative ships"),
    ("credit", "credits"),
    ("logistic card", "logistic cards"),
    ("project", "projects"),
    ("Explore symbol", "Explore symbols"),
    ("Exterminate symbol", "Exterminate symbols"),
    ("artifact held", "artifacts held"),
    ("Expand symbol", "Expand symbols"),
    ("ship", "ships"),
    ("planet", "planets"),
    ("technology", "technologies"),
    ("card in the empire", "cards in the empire"),
    ("ship+technology+planet set", "ship+technology+planet sets"),
    ("different 4X symbol beyond the first", "different 4X symbols beyond the first"),
    ("Exploit symbol", "Exploit symbols"),
)
TECH_OPERATIVE_TEXT = tuple(
    f"1 VP per {one if per == 1 else f'{per} {many}'} (max {cap})"
    for (per, cap), (one, many) in zip(TECH_SCORING, _TECH_COUNTS, strict=True)
)

# Planets: (name, symbol, the type its logistic side discounts)
PLANETS = (
    ("New Harmony", _XPT, PLANET),
    ("Forge World", _XTM, SHIP),
    ("Crystal Moon", _XPL, TECH),
    ("Red Dunes", _XTM, SHIP),
    ("Ocean Deep", _XPL, PLANET),
    ("Ice Giant", _XPA, TECH),
    ("Jungle Sphere", _XPL, PLANET),
    ("Iron Belt", _XPT, SHIP),
    ("Glass Plains", _XPA, TECH),
    ("Storm World", _XTM, SHIP),
    ("Twin Suns", _XPL, PLANET),
    ("Ring World", _XPA, PLANET),
    ("Gas Harvest", _XPT, TECH),
    ("Ancient Ruins", _XPL, TECH),
    ("Frontier Rock", _XPA, SHIP),
    ("Golden Fields", _XPT, PLANET),
)

MARKET_TITLES = (
    tuple(s[0] for s in SHIPS) + tuple(t[0] for t in TECHS) + tuple(p[0] for p in PLANETS)
)
MARKET_SYMBOL = (
    tuple(s[1] for s in SHIPS) + tuple(t[1] for t in TECHS) + tuple(p[1] for p in PLANETS)
)
SHIP_NAMED_ACTION = tuple(s[2] for s in SHIPS)
SHIP_BONUS = tuple(s[3] for s in SHIPS)
PLANET_DISCOUNT = tuple(p[2] for p in PLANETS)  # indexed by planet number 0..15


def _mask(ids: object) -> int:
    m = 0
    for i in ids:  # type: ignore[attr-defined]
        m |= 1 << i
    return m


# Bitmasks over market card ids: the engine keeps each player's logistic and operative cards as
# two ints, so counts are popcounts.
TYPE_MASK = tuple(_mask(range(16 * t, 16 * t + 16)) for t in range(3))
SYMBOL_MASK = tuple(_mask(c for c in range(N_MARKET) if MARKET_SYMBOL[c] == x) for x in range(4))
# Logistic ships naming each action kind (Pilgrimage: none).
SHIPS_NAMING = tuple(_mask(s for s in range(16) if SHIP_NAMED_ACTION[s] == a) for a in range(8))
# Logistic planets discounting each type.
PLANETS_DISCOUNTING = tuple(
    _mask(32 + p for p in range(16) if PLANET_DISCOUNT[p] == t) for t in range(3)
)

# --- alien systems (§7.3) ------------------------------------------------------------------------
# Each row: (hit, credits, vp, artifact); hit 0 = none, 1 = Damaged, 2 = Destroyed.
# Rows are attack values <=1, 2, 3, 4, 5, 6+.

NO_HIT, DAMAGED, DESTROYED = 0, 1, 2
_N = (0, 0, 0, 0)
_DMG = (DAMAGED, 0, 0, 0)


def _cr(n: int) -> tuple[int, int, int, int]:
    return (0, n, 0, 0)


def _vp(n: int, cr: int = 0) -> tuple[int, int, int, int]:
    return (0, cr, n, 0)


def _art(vp: int = 0, cr: int = 0) -> tuple[int, int, int, int]:
    return (0, cr, vp, 1)


ALIENS = (
    ("Kepler Outpost", (_DMG, _cr(1), _vp(1), _vp(1, 2), _art(), _art(1))),
    ("Hive Cluster", ((DESTROYED, 0, 0, 0), _DMG, _vp(2), _vp(2, 1), _art(1), _art(2))),
    ("Derelict Station", (_N, _cr(1), _cr(2), _vp(1, 1), _vp(1, 2), _art())),
    ("Smuggler Nebula", (_DMG, _cr(2), _cr(3), _cr(4), _art(0, 1), _art(0, 3))),
    ("Ancient Vault", (_DMG, _N, _cr(1), _art(), _art(1), _art(2))),
    ("Sentinel Array", (_DMG, _DMG, _vp(1), _vp(2), _vp(3), _art(2))),
    ("Frontier Colony", (_DMG, _cr(1), _vp(1, 1), _vp(1, 2), _art(), _art(0, 2))),
    ("Void Leviathan", (_DMG, _DMG, _vp(1), _vp(2, 2), _art(1), _art(3))),
)
N_ALIENS = len(ALIENS)
ALIEN_NAMES = tuple(f"AL{i + 1}" for i in range(N_ALIENS))
ALIEN_TITLES = tuple(a[0] for a in ALIENS)
ALIEN_TABLE = tuple(a[1] for a in ALIENS)

# --- defence plans (§7.4) ------------------------------------------------------------------------
# Each row: (repelled, raid, strike, fortify); rows are attack values <=1, 2, 3, 4, 5+.


def _d(rep: int = 0, raid: int = 0, strike: int = 0, fortify: int = 0) -> tuple[int, ...]:
    return (rep, raid, strike, fortify)


_REP = _d(rep=1)
_NONE = _d()
DEFENCES = (
    ("Fortress", (_REP, _REP, _NONE, _d(raid=2), _d(strike=1))),
    ("Flak Screen", (_REP, _NONE, _d(raid=1), _d(strike=1), _d(strike=1, raid=2))),
    ("Decoy Fleet", (_NONE, _NONE, _d(raid=2), _d(raid=3), _d(strike=1, raid=1))),
    ("Minefield", (_REP, _REP, _REP, _d(strike=1), _d(strike=2))),
    ("Open Skies", (_NONE, _d(raid=1), _d(strike=1), _d(strike=1, raid=1), _d(strike=2))),
    (
        "Counter-Battery",
        (_d(rep=1, fortify=2), _d(fortify=1), _d(raid=1), _d(strike=1), _d(strike=1, raid=2)),
    ),
    ("Bunker", (_REP, _NONE, _NONE, _d(raid=1), _d(strike=1, raid=2))),
    ("Evacuation", (_NONE, _d(raid=1), _d(raid=2), _d(raid=3), _d(raid=4))),
    ("Guerrilla Net", (_REP, _d(raid=1), _d(strike=1), _d(strike=1), _d(strike=1, raid=2))),
    ("Shield Grid", (_REP, _REP, _d(raid=1), _d(strike=1), _d(strike=1, raid=1))),
)
N_DEFENCES = len(DEFENCES)
DEFENCE_NAMES = tuple(f"DP{i + 1:02d}" for i in range(N_DEFENCES))
DEFENCE_TITLES = tuple(d[0] for d in DEFENCES)
DEFENCE_TABLE = tuple(d[1] for d in DEFENCES)

# --- artifacts (§8.3) ----------------------------------------------------------------------------

(
    E_LOOP,
    E_ASSEMBLY,
    E_CACHE,
    E_WARFLEET,
    E_ARCHIVE,
    E_SEEDER,
    E_HOARD,
    E_CHART,
    E_RELIC,
    E_OVERDRIVE,
    E_CONVERTER,
) = range(11)
WINDOW_A, WINDOW_B, WINDOW_AB = 1, 2, 3
# (name, effect, windows)
ARTIFACTS = (
    ("Temporal Loop", E_LOOP, WINDOW_B),
    ("Instant Assembly", E_ASSEMBLY, WINDOW_AB),
    ("Resource Cache", E_CACHE, WINDOW_AB),
    ("Resource Cache", E_CACHE, WINDOW_AB),
    ("Alien Warfleet", E_WARFLEET, WINDOW_AB),
    ("Xeno Archive", E_ARCHIVE, WINDOW_AB),
    ("Planet Seeder", E_SEEDER, WINDOW_AB),
    ("Credit Hoard", E_HOARD, WINDOW_AB),
    ("Credit Hoard", E_HOARD, WINDOW_AB),
    ("Star Chart", E_CHART, WINDOW_AB),
    ("Ancient Relic", E_RELIC, WINDOW_AB),
    ("Ancient Relic", E_RELIC, WINDOW_AB),
    ("Overdrive Core", E_OVERDRIVE, WINDOW_A),
    ("Universal Converter", E_CONVERTER, WINDOW_A),
)
N_ARTIFACTS = len(ARTIFACTS)
ARTIFACT_NAMES = tuple(f"AR{i + 1:02d}" for i in range(N_ARTIFACTS))
ARTIFACT_TITLES = tuple(a[0] for a in ARTIFACTS)
ARTIFACT_EFFECT = tuple(a[1] for a in ARTIFACTS)
ARTIFACT_WINDOWS = tuple(a[2] for a in ARTIFACTS)
CACHE_DRAW = 3
HOARD_CREDITS = 5
RELIC_VP = 3
SEEDER_PRODUCTION = 2
OVERDRIVE_LIMIT = 2

# --- factions (§2.2) -----------------------------------------------------------------------------

SU, COM, BIO, EPI, LEA, CLO = range(6)
FACTION_NAMES = ("SU", "COM", "BIO", "EPI", "LEA", "CLO")
FACTION_TITLES = (
    "Star Union",
    "Community",
    "Bionics",
    "Episcopacy",
    "The League",
    "Clone Clans",
)
LOGISTIC, OPERATIVE = 1, 2
SIDE_NAMES = ("", "logistic", "operative")
# (starting card, its side, starting project decks in order)
FACTION_START = (
    (S01, OPERATIVE, (SHIP, PLANET, SHIP)),
    (P01, OPERATIVE, (PLANET, SHIP, TECH)),
    (T12, OPERATIVE, (TECH, PLANET, SHIP)),
    (P03, LOGISTIC, (TECH, SHIP, TECH)),
    (S08, LOGISTIC, (TECH, PLANET, SHIP)),
    (S03, LOGISTIC, (SHIP, TECH, PLANET)),
)
COMMUNITY_SETUP_STORE = 3
CHEAP_OPERATIVE = 3  # SU Offensive, COM Mine, BIO Income
FACTION_CHEAP_ACTION = (A_OFFENSIVE, A_MINE, A_INCOME, -1, -1, -1)
LEAGUE_BUY_DISCOUNT = 2
LEAGUE_CREDITS_PER_VP = 3
CLONE_BUILD_LIMIT = 1


# --- from names back to ids ----------------------------------------------------------------------
# Every name-to-index map of the engine lives here; each inverts the ``*_NAMES`` tuple it names.


def _index(names: tuple[str, ...]) -> dict[str, int]:
    return {name: i for i, name in enumerate(names)}


COLOUR_INDEX = _index(COLOUR_NAMES)
SYMBOL_INDEX = _index(SYMBOL_NAMES)
TYPE_INDEX = _index(TYPE_NAMES)
KIND_INDEX = _index(KIND_NAMES)  # "offensive" -> A_OFFENSIVE, ...
RESOURCE_INDEX = _index(RESOURCE_NAMES)
HALF_INDEX = _index(HALF_NAMES)
MARKET_INDEX = _index(MARKET_NAMES)
ALIEN_INDEX = _index(ALIEN_NAMES)
DEFENCE_INDEX = _index(DEFENCE_NAMES)
ARTIFACT_INDEX = _index(ARTIFACT_NAMES)
FACTION_INDEX = _index(FACTION_NAMES)
PHASE_INDEX = _index(PHASE_NAMES)  # the decision kinds of :mod:`.codes`
CONTEXT_INDEX = _index(CTX_NAMES)
