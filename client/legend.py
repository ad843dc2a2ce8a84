"""The legend: every symbol and abbreviation a game's board and menus show, in player words.

The notation is the renderers' (:mod:`client.render.cosmic_run`,
:mod:`client.render.alien_artifacts`); this module says what it means. :func:`legend` lays a
game's legend out for a width; :func:`explain` answers ``info`` about one symbol or word
(``+``, ``found``, ``op``). Each :class:`Symbol` is shown as the board shows it, with the board
tokens it stands for (``pattern``: ``5>P2`` for any placed die) and the words ``info`` knows it by.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

from client.game_names import TITLES, game_name


@dataclass(frozen=True)
class Symbol:
    shown: str
    """As the board or menu shows it, e.g. ``Y 5>P2``."""
    meaning: str
    pattern: str = ""
    """A regular expression for the board tokens this explains (``\\d>P[1-6]``), if any."""
    keys: tuple[str, ...] = ()
    """What ``info`` finds it by, besides ``shown`` itself (case does not matter)."""


Section = tuple[str, tuple[Symbol, ...]]

COSMIC_RUN: tuple[Section, ...] = (
    (
        "Top line",
        (
            Symbol(
                "round 6/13",
                "this round, and the last one the meteor deck lasts; after it the meteor storm "
                "ends the game",
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
            Symbol("3 cr", "crystals (at most 5)", keys=("cr", "crystal", "crystals")),
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
                "and the place (`W1 P3`), or the value and the place (`2s P3`: any die showing "
                "2, so the same words keep working as dice are placed)",
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
                "reroll (1 cr) W1",
                "roll one unplaced die again, for crystals, or (free) with a Re-roller",
                pattern=r"[Rr]e-?roll",
                keys=("re-roll", "reroll"),
            ),
            Symbol(
                "nudge (2 cr) W2 to 5",
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
                "boost (3 cr, +1 step) P6",
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

ALIEN_ARTIFACTS: tuple[Section, ...] = (
    (
        "Top line",
        (
            Symbol(
                "round 1/3",
                "this round, of as many as there are players; a round ends when the resource "
                "deck runs out",
                keys=("round",),
            ),
            Symbol(
                "turn 12", "the turn of the game, counting every player's turns", keys=("turn",)
            ),
            Symbol("deck 42", "resource cards left in the deck", keys=("deck",)),
            Symbol("discard 5", "cards on the discard pile (face up)", keys=("discard",)),
            Symbol(
                "FINAL PHASE",
                "the deck ran out in the last round: the turn ends without refill, every later "
                "seat plays one more turn, then the game ends",
                keys=("final", "final phase"),
            ),
            Symbol("game over", "the game has ended: the final scores follow"),
        ),
    ),
    (
        "Aliens and market",
        (
            Symbol(
                "Aliens AL6 Sentinel Array",
                "the three alien systems a ship may attack (slot 0, 1, 2 from the left); "
                "`info AL6` tells what each attack value brings",
                keys=("aliens", "alien", "system"),
            ),
            Symbol(
                "Market S05 T15 P02",
                "the face-up top card of the ship, technology and planet decks, to buy",
                keys=("market",),
            ),
            Symbol("(ship deck empty)", "no card is left in that market deck", keys=("empty",)),
        ),
    ),
    (
        "Players",
        (
            Symbol(">", "whose turn it is", keys=("turn",)),
            Symbol(
                "A B C D E",
                "the seats in turn order: A plays first",
                pattern=r"[A-E]",
                keys=("A", "B", "C", "D", "E"),
            ),
            Symbol("(you)", "your own seat", keys=("you",)),
            Symbol("Ann~", "a name cut short to fit", pattern=r"\S+~", keys=("~",)),
            Symbol("Bionics", "the player's faction (`info Bionics`)", keys=("faction",)),
            Symbol("12 VP", "victory points, public", keys=("VP",)),
            Symbol(
                "8 cr",
                "credits: they pay for buying cards and for Pilgrimage",
                keys=("cr", "credit", "credits"),
            ),
            Symbol(
                "plan DP08 Evacuation",
                "your secret defence plan: what an attack on you brings (`info DP08`)",
                keys=("plan", "defence"),
            ),
            Symbol(
                "hand",
                "your resource cards (another seat's line shows how many: hand 3)",
            ),
            Symbol(
                "store",
                "cards your operative planets produced; pay with them like hand cards (store 3: "
                "how many another seat has)",
            ),
            Symbol(
                "artifacts",
                "your alien artifacts (artifacts 1: how many another seat has)",
                keys=("artifact",),
            ),
            Symbol("projects", "cards you bought and are building", keys=("project",)),
            Symbol(
                "T01 [3]",
                "a project with 3 resources deposited on it (T01[3] on another seat's line)",
                pattern=r"\[\d+\]|[STP]\d\d\[\d+\]",
                keys=("[3]", "deposit"),
            ),
            Symbol("empire", "your built cards, in the order they were built"),
            Symbol(
                "(op) :op",
                "on its operative side: ships attack, planets produce cards, technologies "
                "score; 2 VP at the end",
                pattern=r"\(op\)|[STP]\d\d:op",
                keys=("op", "(op)", ":op", "operative"),
            ),
            Symbol(
                "(log) :log",
                "on its logistic side: a lasting advantage; 4 VP at the end",
                pattern=r"\(log\)|[STP]\d\d:log",
                keys=("log", "(log)", ":log", "logistic"),
            ),
            Symbol("T12:op P15:log", "other seats' cards, by id and side: `info T12` explains one"),
            Symbol("-", "nothing"),
            Symbol("??", "a card hidden from you", keys=("hidden",)),
        ),
    ),
    (
        "Resource cards",
        (
            Symbol(
                "R51 G3/Gd1 a3 Xpt",
                "card R51: top half Green 3, bottom half Gold 1, attack number 3, symbol "
                "Exploit; you pay with one half",
                pattern=r"(R|B|G|Gd)[1-3]/(R|B|G|Gd)[1-3]",
                keys=("/", "half"),
            ),
            Symbol(
                "R B G Gd",
                "Red (ships, Offensive), Blue (technologies, Income), Green (planets, Mining), "
                "Gold (wild for building and trading)",
                keys=("R", "B", "G", "Gd", "red", "blue", "green", "gold"),
            ),
            Symbol(
                "a1 ... a4",
                "the attack number used when a ship attacks",
                pattern=r"a[1-4]",
                keys=("a1", "a2", "a3", "a4", "attack"),
            ),
            Symbol(
                "Xpl Xpa Xpt Xtm",
                "the 4X symbol: Explore, Expand, Exploit, Exterminate (planet harvests and some "
                "technologies count them)",
                keys=(
                    "4X",
                    "Xpl",
                    "Xpa",
                    "Xpt",
                    "Xtm",
                    "explore",
                    "expand",
                    "exploit",
                    "exterminate",
                ),
            ),
        ),
    ),
    (
        "Sides",
        (
            Symbol(
                "logistic side",
                "ship: +1 card in the production limit of the action it names; planet: cards of "
                "its type cost 2 less to build and 1 credit less to buy; technology: its "
                "lasting ability; 4 VP at the end",
            ),
            Symbol(
                "operative side",
                "ship: attacks when built and at every Launch an Offensive; planet: produces 3 "
                "cards when built and 1 at every Mine Planets, +2 VP per card matching its "
                "symbol; technology: scores at every Collect Income and at the end; 2 VP at "
                "the end",
            ),
        ),
    ),
    (
        "Paying, buying, attacking",
        (
            Symbol(
                "Paying for ship S12 Dreadnought: 4 of 5 Red, cards 2/2",
                "paid 4 of the 5 Red needed, with 2 of the 2 cards the production limit allows",
                keys=("paying", "limit"),
            ),
            Symbol(
                "Attacking with S04 Destroyer",
                "this ship attacks: choose its target",
                keys=("attacking",),
            ),
            Symbol(
                "Buying from the ship deck",
                "take one of the revealed cards, or dig deeper",
                keys=("buying", "dig"),
            ),
            Symbol(
                "Completed: S04 Destroyer",
                "the card is built: choose its side",
                keys=("completed",),
            ),
            Symbol("(slot 0)", "alien systems on display, 0 the leftmost", keys=("slot",)),
            Symbol(
                "seat 1 (Bionics)", "seats count from 0: seat 0 is A, seat 1 is B", keys=("seat",)
            ),
        ),
    ),
    (
        "Menu",
        (
            Symbol(
                "Pay from hand 1 R08 top Red 2",
                "pay with the top half of R08 (Red 2); type 1",
                keys=("pay",),
            ),
            Symbol(
                "top bottom", "the half of the resource card you pay with", keys=("top", "bottom")
            ),
            Symbol("Pay from store", "pay with a card from your store", keys=("from",)),
            Symbol(
                "Build P16 Golden Fields: 6 Green",
                "6 Green (or Gold) still to pay; `: complete` means nothing is left to pay",
                keys=("build", "complete"),
            ),
            Symbol("Buy ship deck for 5 cr", "buy from that deck at that price", keys=("buy",)),
            Symbol("Take", "take that revealed card into your projects", keys=("take",)),
            Symbol("Discard 1 R29", "throw that hand card away (type 1)"),
            Symbol(
                "Quartermaster: discard",
                "T15 Quartermaster: discard a hand card and draw another",
                pattern=r"[Qq]uartermaster:?",
                keys=("quartermaster",),
            ),
            Symbol("quartermaster (discard, draw 1) R10", "the same, naming the card to discard"),
            Symbol(
                "place T07 op",
                "put the completed card into your empire on that side: op (operative) or log "
                "(logistic)",
                keys=("place",),
            ),
            Symbol(
                "attack with S11 AL6",
                "the ship attacks that alien system, or that player (attack B)",
                keys=("attack",),
            ),
            Symbol("play AR08", "play that artifact now", keys=("play",)),
            Symbol("keep AR05", "keep that artifact (Xenoarchaeology)", keys=("keep",)),
            Symbol("complete T11", "Instant Assembly completes that project", keys=("complete",)),
            Symbol("look ship", "Star Chart: look at the top cards of that deck", keys=("look",)),
            Symbol("faction SU", "choose that faction"),
            Symbol("finish", "stop adding cards: pay what you chose"),
            Symbol("dig", "pay 1 credit to reveal the next card of the deck"),
            Symbol("go", "go on to the main action, or to the end of the turn"),
            Symbol("done", "end the turn (then draw back up)"),
        ),
    ),
    (
        "At the end",
        (
            Symbol(
                "faction VP credits empire",
                "the final standing; ties go to the most credits, then the biggest empire",
            ),
        ),
    ),
)

LEGENDS = {"cosmic_run": COSMIC_RUN, "alien_artifacts": ALIEN_ARTIFACTS}


def _game_id(game: str) -> str:
    return game_name(game)


def symbols(game: str) -> list[Symbol]:
    """Every symbol of ``game``'s legend, in order (none for a game we do not know)."""
    return [symbol for _, group in LEGENDS.get(_game_id(game), ()) for symbol in group]


def legend(game: str, width: int) -> list[str]:
    """``game``'s legend as lines of at most ``width`` characters (the symbol, then its meaning)."""
    width = max(width, 20)
    sections = LEGENDS.get(_game_id(game))
    if sections is None:
        return _wrap(
            f"No legend for `{game}`: the games are cosmic-run (cr) and alien-artifacts (aa).",
            width,
        )
    column = min(18, max(8, width // 4))
    lines = _wrap(f"{TITLES[_game_id(game)]}: what the board shows", width)
    for title, group in sections:
        lines += ["", title]
        for symbol in group:
            lines += _entry(symbol, column, width)
    lines += [
        "",
        *_wrap("`info` with any symbol, card or name says more, e.g. `info found`.", width),
    ]
    return lines


def _wrap(text: str, width: int, indent: str = "", hang: str = "") -> list[str]:
    return textwrap.wrap(
        text, width, initial_indent=indent, subsequent_indent=hang, break_on_hyphens=False
    )


def _entry(symbol: Symbol, column: int, width: int) -> list[str]:
    """``  x..     meteor hits...`` with the meaning under a hanging indent."""
    hang = " " * (column + 4)
    head = f"  {symbol.shown}"
    if len(head) + 2 <= column + 4:
        return _wrap(symbol.meaning, width, head.ljust(column + 4), hang)
    return _wrap(symbol.shown, width, "  ", "    ") + _wrap(symbol.meaning, width, hang, hang)


def explain(word: str) -> list[tuple[str, Symbol]]:
    """(game, symbol) for every legend entry that ``info WORD`` should show, in both games."""
    wanted = " ".join(word.lower().split())
    found = []
    for game, sections in LEGENDS.items():
        for _, group in sections:
            for symbol in group:
                names = {symbol.shown.lower(), *(k.lower() for k in symbol.keys)}
                if wanted in names or (symbol.pattern and re.fullmatch(symbol.pattern, word, re.I)):
                    found.append((game, symbol))
    return found
