"""Cosmic Run's legend: every symbol and abbreviation its board and menus show, in player words
(laid out by :mod:`client.games.legend`)."""

from __future__ import annotations

from client.games.cosmic_run.narrate import max_rounds
from client.games.legend import Section, Symbol

LEGEND: tuple[Section, ...] = (
    (
        "Top line",
        (
            Symbol(
                "round 6/13",
                "this round, and the last one the meteor deck lasts (with 1, 2, 3 or 4 players: "
                f"{', '.join(str(max_rounds(n)) for n in (1, 2, 3))} or {max_rounds(4)} rounds); "
                "after it the meteor storm ends the game",
                keys=("round",),
            ),
            Symbol(
                "LAST ROUND 13/13",
                "every planet is closed: the round is played to its end (no meteors, dice only "
                "on aliens and technology cards), then the game ends",
                keys=("last round", "last"),
            ),
            Symbol("game over", "the game has ended: the final scores follow"),
            Symbol("meteor deck 30", "meteor cards left in the deck", keys=("meteor", "deck")),
            Symbol(
                "card M09 (3 1 4)",
                "this turn's meteor card: it hit the first open planet of P3, P1, P4 (`info M09`)",
                pattern=r"\(\d|\d\)",
                keys=("card",),
            ),
            Symbol(
                "card: miss",
                "this turn's meteor card was a miss: no planet was hit",
                keys=("miss",),
            ),
            Symbol("alien deck 22", "alien cards left to refill the row", keys=("alien deck",)),
        ),
    ),
    (
        "Planet tracks",
        (
            Symbol(
                "P1 ... P6",
                "the six planets, each with its track (`info P3` tells what a planet asks for)",
                pattern=r"P[1-6]",
                keys=("planet", "P1", "P2", "P3", "P4", "P5", "P6"),
            ),
            Symbol(
                "x..",
                "meteor hits on the planet, one x per hit; the third hit destroys it",
                pattern=r"x*\.*",
                keys=("x", "hits", "meteor hits"),
            ),
            Symbol(
                ".",
                "an empty space of the track; the first one is the start space (0)",
                keys=("space",),
            ),
            Symbol(
                "A B C D E",
                "a ship of that seat (A is the first seat, B the second...)",
                pattern=r"[A-E]",
                keys=("ship", "A", "B", "C", "D"),
            ),
            Symbol("+", "two or more ships on the same space", keys=("ships",)),
            Symbol("@", "the Drone's ship (solo game)", keys=("drone",)),
            Symbol(
                "i",
                "a face-down Infodere token: end a move exactly on it to take it",
                keys=("token", "infodere"),
            ),
            Symbol("]", "the planet itself: the ship that reaches it discovers it"),
            Symbol(
                "A3 B0",
                "where each seat's ship stands on this track: A on space 3, B on the start",
                pattern=r"[A-E]\d{1,2}",
                keys=("position",),
            ),
            Symbol("@5", "where the Drone stands on this track", pattern=r"@\d{1,2}"),
            Symbol(
                "lead CAB",
                "the race for P6, best placed first (further along; on the same space, lower "
                "in the stack, that is there first)",
                pattern=r"[A-E@]{2,5}",
                keys=("lead",),
            ),
            Symbol("discovered", "a ship reached the planet; it is closed and scored"),
            Symbol("destroyed", "meteors destroyed the planet; it is closed and scored"),
        ),
    ),
    (
        "Dice",
        (
            Symbol(
                "Dice W1 ... W5 Y",
                "the five white dice and the yellow die (the yellow die on P6 ends the rolling)",
                pattern=r"W[1-5]|Y",
                keys=("dice", "die", "W1", "W2", "W3", "W4", "W5", "Y", "yellow", "white"),
            ),
            Symbol(
                "W1 [5]",
                "a die not placed yet, showing 5",
                pattern=r"\[[1-6]\]",
                keys=("[5]", "[]", "unplaced"),
            ),
            Symbol(
                "Y 5>P2",
                "a die placed this turn: the yellow die, showing 5, is on P2 (on a planet P1-P6, "
                "an alien card A1-A4, or T, your technology card)",
                pattern=r"[1-6]>(P[1-6]|A[1-4]|T)",
                keys=(">", "placed", "5>P2"),
            ),
            Symbol(
                "free: re-roll, nudge, flip",
                "free uses your aliens still give this turn (Re-roller, Tuner, Flipper)",
                pattern=r"re-roll|nudge|flip",
                keys=("free", "free:"),
            ),
        ),
    ),
    (
        "Alien row",
        (
            Symbol(
                "Row A1 ... A4",
                "the four aliens you may recruit, in slots A1 to A4",
                pattern=r"A[1-4]",
                keys=("row", "slot", "A1", "A2", "A3", "A4"),
            ),
            Symbol(
                "A1 Myrr 5 5 Navigator P5",
                "slot, alien, the die faces to cover with dice, its ability (`info Myrr`)",
            ),
            Symbol(
                "+W2+Y",
                "dice placed on that alien card this turn",
                pattern=r"(\+(W[1-5]|Y))+",
            ),
            Symbol("(empty)", "a slot the empty alien deck could not refill", keys=("empty",)),
        ),
    ),
    (
        "Players",
        (
            Symbol(">", "whose turn it is", keys=("turn",)),
            Symbol("(you)", "your own seat", keys=("you",)),
            Symbol(
                "12 VP",
                "the score track: starting VP, planets, retired aliens and ability VP; held "
                "aliens, Infodere tokens and crystals are added at the end",
                keys=("VP", "score"),
            ),
            Symbol("3 cry", "crystals (at most 5)", keys=("cry", "crystal", "crystals")),
            Symbol(
                "tokens 2 [3 1]",
                "Infodere tokens held; their values, in brackets, only on your own line",
                pattern=r"\[[1-5]|[1-5]\]",
                keys=("tokens",),
            ),
            Symbol("found 1", "planets this player discovered", keys=("found",)),
            Symbol("Pim, Orra", "the aliens this player holds", keys=("aliens", "held")),
            Symbol("@ the Drone", "the solo game's rival: it races you but never scores"),
        ),
    ),
    (
        "Menu",
        (
            Symbol(
                "W3 P5",
                "put die W3 on P5 (each unplaced die lists the places it may go: P1-P6, an "
                "alien card A1-A4, or T)",
                pattern=r"(W[1-5]|Y) ?(P[1-6]!?|A[1-4]|T)",
                keys=("placement",),
            ),
            Symbol(
                "W1 [2] P2 P3 T",
                "a row per unplaced die: W1 shows 2 and may go on P2, P3 or T; type the die "
                "and the place (`W1 P3`), or the value and the place (`2s P3`: one die showing "
                "2, whichever; typed again, it puts the next one)",
                pattern=r"[1-6]s",
                keys=("4s", "value"),
            ),
            Symbol(
                "P6!",
                "the yellow die on P6: it ends your rolling at once",
                pattern=r"P6!",
                keys=("!",),
            ),
            Symbol("T", "your technology card: one crystal per die", keys=("technology",)),
            Symbol("roll", "roll the dice not placed yet (after placing at least one)"),
            Symbol(
                "reroll (1 cry) W1",
                "roll one unplaced die again, for crystals, or (free) with a Re-roller",
                pattern=r"[Rr]e-?roll",
                keys=("re-roll", "reroll"),
            ),
            Symbol(
                "nudge (2 cry) W2 to 5",
                "turn a die one up or down, for crystals, or (free) with a Tuner",
                pattern=r"[Nn]udge",
                keys=("nudge", "to"),
            ),
            Symbol(
                "flip (free) W3 to 4",
                "turn a die to its opposite face (1-6, 2-5, 3-4) with a Flipper",
                pattern=r"[Ff]lip",
                keys=("flip",),
            ),
            Symbol(
                "boost (3 cry, +1 step) P6",
                "one more step on a planet your dice moved, once per turn",
                pattern=r"[Bb]oost|\+1",
                keys=("boost",),
            ),
            Symbol("pass", "no boost this turn", pattern=r"[Pp]ass"),
            Symbol(
                "retire A07 Grib",
                "give up an alien to make room for a sixth; it scores its VP now",
                pattern=r"[Rr]etire",
                keys=("retire",),
            ),
        ),
    ),
    (
        "At the end",
        (
            Symbol(
                "track aliens infodere crystals total",
                "the score track, held aliens, Infodere values, crystals (1 VP per 2) and the "
                "total",
                keys=("total", "track"),
            ),
            Symbol(
                "Solo rank: Captain (a win), Cadet (a loss)",
                "the solo result: Cadet or Pilot lose, Captain or Admiral win",
                keys=("rank", "solo"),
            ),
        ),
    ),
)
