"""Pure rules engines for Cosmoport's games, behind one contract (:mod:`games.api`).

No I/O, no Twisted, no msgpack, no clock and no module-level ``random`` live here.

>>> import games
>>> state = games.get("cosmic_run").new(players=2, seed=7)
"""

from games.api import (
    Action,
    Event,
    Game,
    IllegalAction,
    State,
    UnknownGame,
    View,
    get,
    names,
    seat_letter,
)

__all__ = [
    "Action",
    "Event",
    "Game",
    "IllegalAction",
    "State",
    "UnknownGame",
    "View",
    "get",
    "names",
    "seat_letter",
]
