"""Alien Artifacts's legend: every symbol and abbreviation its board and menus show, in player words
(laid out by :mod:`client.games.legend`)."""

from __future__ import annotations

from client.games.legend import Section, Symbol

LEGEND: tuple[Section, ...] = (
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
