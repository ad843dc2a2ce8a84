"""Every number of Cosmic Run, from Appendix A of the rules specification.

Planets, dice and seats are 0-based inside the engine (planet index 0 is P1, die 5 is the yellow
die); ids (``M09``, ``A14``) and 1-based planet numbers appear only where people read them.
"""

from __future__ import annotations

from typing import NamedTuple

MIN_PLAYERS = 1
MAX_PLAYERS = 4

# --- dice -------------------------------------------------------------------------------------
WHITE_DICE = 5
DICE = 6
YELLOW = 5  # die index of the yellow die
DIE_NAMES = ("W1", "W2", "W3", "W4", "W5", "Y")

# --- planets ----------------------------------------------------------------------------------
PLANETS = 6
P1, P6 = 0, 5
TRACK_LENGTH = (16, 9, 5, 3, 2, 40)
# Dice per set on P2-P5 (P1 and P6 have their own rules).
SET_SIZE = (0, 2, 3, 4, 5, 0)
REQUIREMENT = (
    "each die showing 1",
    "each pair",
    "each three of a kind",
    "each four of a kind",
    "each five of a kind",
    "each different white value, plus the yellow die's pips",
)
INFODERE_SPACES = ((5, 11), (3, 6), (3,), (2,), (1,), (10, 21, 32))
# VP of spaces 0 .. L-1 when a planet is scored (P6 is scored by rank instead).
SPACE_VP = (
    (0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4),
    (0, 0, 1, 1, 2, 2, 3, 3, 4),
    (0, 1, 2, 3, 4),
    (0, 2, 3),
    (0, 4),
    (),
)
DISCOVERER_VP = (10, 10, 9, 9, 12, 18)
P6_RANK_VP = (5, 2, 1, 0)

# --- Infodere tokens --------------------------------------------------------------------------
INFODERE_VALUES = (1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4, 4, 5)
# Set-up order of the 10 marked spaces: (planet index, space). A board token is named by its
# position in this tuple inside the engine, and by "P<n> space <s>" anywhere else.
TOKEN_SPACES = tuple(
    (planet, space) for planet in range(PLANETS) for space in INFODERE_SPACES[planet]
)
TOKEN_AT = {spot: index for index, spot in enumerate(TOKEN_SPACES)}

# --- meteor deck ------------------------------------------------------------------------------
STRIKE_CARDS = (
    ("M01", (1, 3, 6)),
    ("M02", (2, 4, 1)),
    ("M03", (3, 5, 2)),
    ("M04", (4, 6, 3)),
    ("M05", (5, 1, 4)),
    ("M06", (6, 2, 5)),
    ("M07", (1, 5, 2)),
    ("M08", (2, 6, 3)),
    ("M09", (3, 1, 4)),
    ("M10", (4, 2, 5)),
    ("M11", (5, 3, 6)),
    ("M12", (6, 4, 1)),
)
# Meteor cards inside the engine: 0-11 are the strike cards above, MISS is any miss card.
MISS = len(STRIKE_CARDS)
MISS_ID = "X"
METEOR_IDS = (*(card_id for card_id, _ in STRIKE_CARDS), MISS_ID)
METEOR_INDEX = {card_id: index for index, card_id in enumerate(METEOR_IDS)}
# The planets (0-based) each strike card names, top to bottom.
STRIKE_TARGETS = tuple(tuple(n - 1 for n in numbers) for _, numbers in STRIKE_CARDS)
MISS_CARDS_IN_BOX = 40
MISS_CARDS_USED = {1: 8, 2: 24, 3: 33, 4: 40}
HITS_TO_DESTROY = 3

# --- start ------------------------------------------------------------------------------------
START_CRYSTALS = (1, 2, 3, 4)
START_VP = {1: (0,), 2: (0, 3), 3: (0, 2, 3), 4: (0, 1, 2, 3)}

# --- crystals ---------------------------------------------------------------------------------
MAX_CRYSTALS = 5
LEFTOVER_VP_DIVISOR = 2
REROLL_COST = 1
NUDGE_COST = 2
BOOST_COST = 3
TINKERER_DISCOUNT = 1
MIN_COST = 1

# --- aliens -----------------------------------------------------------------------------------
ROW_SIZE = 4
MAX_CARDS_WITH_DICE_PER_TURN = 3
MAX_HELD = 5

NAVIGATOR = "navigator"
REROLLER = "reroller"
TUNER = "tuner"
FLIPPER = "flipper"
MINER = "miner"
PATRON = "patron"
TINKERER = "tinkerer"
PROSPECTOR = "prospector"
ENVOY = "envoy"
SEER = "seer"
SURVEYOR = "surveyor"
SALVAGER = "salvager"
CARTOGRAPHER = "cartographer"

CARTOGRAPHER_VP = 2
SURVEYOR_VP = 1
ENVOY_VP = 1
MINER_CRYSTALS = 1
PATRON_CRYSTALS = 1
PROSPECTOR_CRYSTALS = 1
SALVAGER_CRYSTALS_PER_LOST_DIE = 1
NAVIGATOR_STEPS = 1

# What each ability does, with the numbers above ({planet}: a Navigator's planet, 1-based).
ABILITY_TEXT = {
    NAVIGATOR: (
        f"Navigator P{{planet}}: +{NAVIGATOR_STEPS} step on P{{planet}} in a turn with a dice "
        "step there"
    ),
    REROLLER: "Re-roller: once per turn, re-roll one unassigned die for free",
    TUNER: "Tuner: once per turn, +1 or -1 to one unassigned die for free",
    FLIPPER: "Flipper: once per turn, turn one unassigned die to its opposite face",
    MINER: f"Miner: +{MINER_CRYSTALS} crystal in a turn with a die on your technology card",
    PATRON: f"Patron: +{PATRON_CRYSTALS} crystal at the start of your phase 2",
    TINKERER: (
        f"Tinkerer: your crystal abilities cost {TINKERER_DISCOUNT} less (never below {MIN_COST})"
    ),
    PROSPECTOR: f"Prospector: +{PROSPECTOR_CRYSTALS} crystal each time you take an Infodere token",
    ENVOY: f"Envoy: +{ENVOY_VP} VP each time you recruit another alien",
    SEER: (
        "Seer: at the end, each leftover crystal scores 1 VP (instead of 1 VP per "
        f"{LEFTOVER_VP_DIVISOR})"
    ),
    SURVEYOR: (
        f"Surveyor: +{SURVEYOR_VP} VP when a planet is destroyed while your ship is off its start"
    ),
    SALVAGER: (
        f"Salvager: +{SALVAGER_CRYSTALS_PER_LOST_DIE} crystal per die lost in an incomplete set "
        "or alien card"
    ),
    CARTOGRAPHER: f"Cartographer: +{CARTOGRAPHER_VP} VP each time you discover a planet",
}


class Alien(NamedTuple):
    id: str
    name: str
    faces: tuple[int, ...]
    ability: str
    navigator_planet: int | None  # 1-based, Navigators only

    @property
    def vp(self) -> int:
        """One face 1, two different faces 1, two equal faces 2 (§5.3)."""
        faces = self.faces
        return 2 if len(faces) == 2 and faces[0] == faces[1] else 1


ALIENS = (
    Alien("A01", "Quillon", (1, 1), NAVIGATOR, 1),
    Alien("A02", "Bexa", (2, 2), NAVIGATOR, 2),
    Alien("A03", "Tarn", (3, 3), NAVIGATOR, 3),
    Alien("A04", "Vossk", (4, 4), NAVIGATOR, 4),
    Alien("A05", "Myrr", (5, 5), NAVIGATOR, 5),
    Alien("A06", "Sol-Ennik", (6, 6), NAVIGATOR, 6),
    Alien("A07", "Grib", (6,), REROLLER, None),
    Alien("A08", "Pim", (3,), REROLLER, None),
    Alien("A09", "Oszu", (1,), TUNER, None),
    Alien("A10", "Kettle", (4,), TUNER, None),
    Alien("A11", "Yrvo", (5,), FLIPPER, None),
    Alien("A12", "Drumm", (2,), MINER, None),
    Alien("A13", "Lalune", (1,), PATRON, None),
    Alien("A14", "Haskel", (6,), TINKERER, None),
    Alien("A15", "Zeph", (2,), PROSPECTOR, None),
    Alien("A16", "Orra", (5,), ENVOY, None),
    Alien("A17", "Nim", (3,), SEER, None),
    Alien("A18", "Ceph", (4,), SURVEYOR, None),
    Alien("A19", "Twee", (2, 3), REROLLER, None),
    Alien("A20", "Marrow", (4, 6), REROLLER, None),
    Alien("A21", "Fenn", (1, 5), TUNER, None),
    Alien("A22", "Irix", (3, 6), TUNER, None),
    Alien("A23", "Obby", (2, 6), FLIPPER, None),
    Alien("A24", "Kraal", (1, 4), MINER, None),
    Alien("A25", "Sprocket", (5, 6), MINER, None),
    Alien("A26", "Vell", (1, 2), PATRON, None),
    Alien("A27", "Rusk", (3, 5), SALVAGER, None),
    Alien("A28", "Gloam", (2, 4), SALVAGER, None),
    Alien("A29", "Atlas-9", (1, 3), CARTOGRAPHER, None),
    Alien("A30", "Wend", (4, 5), CARTOGRAPHER, None),
)
ALIEN_INDEX = {alien.id: index for index, alien in enumerate(ALIENS)}
ALIEN_VP = tuple(alien.vp for alien in ALIENS)
ALIEN_FACES = tuple(alien.faces for alien in ALIENS)
ALIEN_ABILITY = tuple(alien.ability for alien in ALIENS)
# For each alien: the planet index (0-based) it navigates, or -1.
NAVIGATES = tuple(-1 if a.navigator_planet is None else a.navigator_planet - 1 for a in ALIENS)

# --- solo -------------------------------------------------------------------------------------
DRONE_STEPS = (3, 2, 2, 1, 1, 7)
SOLO_WIN_AT = 50
SOLO_RANKS = ((0, "Cadet"), (40, "Pilot"), (50, "Captain"), (60, "Admiral"))

# Tie-breakers after VP, in order (§6.3).
TIE_BREAKERS = ("planets_discovered", "infodere_token_count", "crystals_left", "shared")


def solo_rank(vp: int) -> str:
    """The solo title for a final score, e.g. ``"Captain"``."""
    title = SOLO_RANKS[0][1]
    for threshold, name in SOLO_RANKS:
        if vp >= threshold:
            title = name
    return title
