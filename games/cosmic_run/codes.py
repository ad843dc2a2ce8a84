"""Internal codes of the Cosmic Run engine: decision points, die locations, free uses, planets."""

from __future__ import annotations

# Decision points (§8.2), plus the end.
ASSIGN, BOOST, RETIRE, OVER = range(4)
PHASE_NAMES = ("assign", "boost", "retire", None)

# Where a die lies: -1 unassigned, 0-5 planets P1-P6, 6-9 row slots A1-A4, 10 the technology card.
UNASSIGNED = -1
SLOT0 = 6
TECH = 10
TARGET_NAMES = ("P1", "P2", "P3", "P4", "P5", "P6", "A1", "A2", "A3", "A4", "T")
TARGET_INDEX = {name: index for index, name in enumerate(TARGET_NAMES)}

# Free alien uses left this turn (``st.free``): Re-roller, Tuner, Flipper.
FREE_REROLL, FREE_TUNE, FREE_FLIP = range(3)

# Planet status.
OPEN, DISCOVERED, DESTROYED = 0, 1, 2
STATUS_NAMES = ("open", "discovered", "destroyed")

# The solo Drone, where a seat number would stand (P6 ranking, discoverer).
DRONE = -1
