"""Decision kinds (phases), effect contexts and the knowledge bits used throughout the engine."""

from __future__ import annotations

# Decision kinds of §12.2 (plus the faction choice of the "choice" dealing variant, and OVER).
(
    CHOOSE_FACTION,
    PRE_ACTION,
    CHOOSE_ACTION,
    PAY,
    CHOOSE_SIDE,
    ATTACK_TARGET,
    BUY_PICK,
    CHOOSE_PROJECT,
    CHOOSE_DECK,
    STAR_CHART_PICK,
    KEEP_ARTIFACT,
    POST_ACTION,
    DISCARD,
    OVER,
) = range(14)
PHASE_NAMES = (
    "choose_faction",
    "pre_action",
    "choose_action",
    "pay",
    "choose_side",
    "attack_target",
    "buy_pick",
    "choose_project",
    "choose_deck",
    "star_chart_pick",
    "keep_artifact",
    "post_action",
    "discard",
    "over",
)

# Where play goes once an effect chain (a main action, an artifact) has fully resolved.
CTX_MAIN, CTX_EXTRA, CTX_PRE, CTX_POST = range(4)
CTX_NAMES = ("main", "extra", "pre", "post")

# Market and artifact-deck knowledge: a bitmask of seats that know a card's position, plus
# PUBLIC for what everyone (spectators included) has seen.
PUBLIC = 1 << 8

NO_CARD = -1
