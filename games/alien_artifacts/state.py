"""The Alien Artifacts game state: plain ints and lists, a hand-written ``clone``, the contract.

The turn flow lives in :mod:`.rules`, the legal lists in :mod:`.legal`, what a seat may see in
:mod:`.views`, action texts in :mod:`.labels`.
"""

from __future__ import annotations

import random
from typing import Any

from games.alien_artifacts import codes, labels, legal, rules, scoring, views
from games.api import Action, Event, IllegalAction, View


class AlienArtifactsState:
    """One game of Alien Artifacts. Mutated by :meth:`apply`; :meth:`clone` gives a copy."""

    __slots__ = (
        "_legal",
        "_public",
        "adeck",
        "adiscard",
        "agen",
        "agen_cur",
        "aknown",
        "alien_deck",
        "alien_discard",
        "art_played",
        "arts",
        "attacked",
        "attacker",
        "buy_n",
        "buy_type",
        "chart_n",
        "chart_type",
        "converter",
        "credits",
        "ctx",
        "cur",
        "ddeck",
        "ddiscard",
        "deck",
        "dgen",
        "dgen_cur",
        "disc_floor",
        "disc_n",
        "discard",
        "display",
        "empire",
        "factions",
        "final",
        "free_factions",
        "gained",
        "gen",
        "hand",
        "keep",
        "lmask",
        "market",
        "mknown",
        "n",
        "omask",
        "overdrive",
        "passed",
        "pay_col",
        "pay_floor",
        "pay_kind",
        "pay_limit",
        "pay_proj",
        "pay_req",
        "pay_val",
        "paying",
        "pcards",
        "pdep",
        "phase",
        "plan",
        "playing",
        "proj",
        "qm_used",
        "queue",
        "rgen",
        "rharv",
        "rng",
        "rng_shared",
        "round",
        "side_card",
        "store",
        "turns",
        "vp",
    )

    def __init__(self, players: int, rng: random.Random) -> None:
        n = players
        self.n = n
        self.rng = rng
        # Copy-on-write: after clone() both states share one generator and copy it before use.
        self.rng_shared = False
        self.factions = [-1] * n
        self.free_factions: list[int] = []  # factions still to choose (choice variant)
        self.vp = [0] * n
        self.credits = [0] * n
        self.hand: list[list[int]] = [[] for _ in range(n)]
        self.store: list[list[int]] = [[] for _ in range(n)]
        # Construction area: project card ids, their deposit values and the cards under them.
        self.proj: list[list[int]] = [[] for _ in range(n)]
        self.pdep: list[list[int]] = [[] for _ in range(n)]
        self.pcards: list[list[list[int]]] = [[] for _ in range(n)]
        # Empire: card ids in empire order, and the logistic / operative sides as bitmasks.
        self.empire: list[list[int]] = [[] for _ in range(n)]
        self.lmask = [0] * n
        self.omask = [0] * n
        self.arts: list[list[int]] = [[] for _ in range(n)]
        self.plan = [-1] * n
        self.gained = [0] * n
        # Resource deck (top = last), discard (oldest first), and per card the deck generation it
        # last came from and the harvest knowledge of its store slot (see :mod:`.views`).
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.gen = 0
        self.rgen = [0] * 54
        self.rharv = [0] * 54
        self.round = 1
        self.final = False
        # Market decks (top = index 0) and who knows each market card's place (codes.PUBLIC...).
        self.market: list[list[int]] = [[], [], []]
        self.mknown = [0] * 48
        self.display = [-1, -1, -1]
        self.alien_deck: list[int] = []  # top = last
        self.alien_discard: list[int] = []
        self.ddeck: list[int] = []  # top = last
        self.ddiscard: list[int] = []
        self.dgen = [0] * 10
        self.dgen_cur = 0
        self.adeck: list[int] = []  # top = last, bottom = index 0
        self.adiscard: list[int] = []
        self.agen = [0] * 14
        self.agen_cur = 0
        self.aknown = [0] * 14
        # Turn.
        self.cur: int = 0
        self.phase = codes.PRE_ACTION
        self.ctx = codes.CTX_MAIN
        self.turns = 0
        self.art_played = False
        self.qm_used = False
        self.attacked = 0  # bitmask of ship ids that attacked this turn
        self.overdrive = False
        self.converter = False
        self.passed = False
        self.playing = -1  # the artifact being resolved
        self.disc_floor = 0
        self.disc_n = 0
        # Pending decision data.
        self.pay_kind = -1
        self.pay_proj = -1
        self.pay_req = 0
        self.pay_val = 0
        self.pay_col = -1
        self.pay_limit = 0
        self.pay_floor = 0
        self.paying: list[int] = []  # card * 2 + half, in the order added
        self.side_card = -1
        self.buy_type = -1
        self.buy_n = 0
        self.queue: list[int] = []  # ships still due to attack, empire order
        self.attacker = -1
        self.chart_type = -1
        self.chart_n = 0
        self.keep: list[int] = []
        self._legal: list[Action] | None = None
        self._public: tuple[list[Action], views.Public] | None = None  # see views.public

    def random(self) -> random.Random:
        """The state's own generator, copied first if a clone still shares it."""
        if self.rng_shared:
            rng = random.Random()
            rng.setstate(self.rng.getstate())
            self.rng = rng
            self.rng_shared = False
        return self.rng

    # --- the contract ---------------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self.phase == codes.OVER else self.cur

    @property
    def is_over(self) -> bool:
        return self.phase == codes.OVER

    @property
    def players(self) -> int:
        return self.n

    def legal_actions(self) -> list[Action]:
        acts = self._legal
        if acts is None:
            acts = self._legal = legal.legal_actions(self)
        return list(acts)

    def apply(self, action: Action) -> list[Event]:
        acts = self._legal
        if acts is None:
            acts = self._legal = legal.legal_actions(self)
        if type(action) is not tuple:
            try:
                action = tuple(action)
            except TypeError:
                raise IllegalAction(f"not an action: {action!r}") from None
        if action not in acts:
            if self.phase == codes.OVER:
                raise IllegalAction("the game is over")
            raise IllegalAction(
                f"{action!r} is not legal now (seat {self.cur}, "
                f"{codes.PHASE_NAMES[self.phase]}); legal: {acts!r}"
            )
        events: list[Event] = []
        rules.step(self, action, events)
        # A decision with exactly one legal option is taken at once (§12.1).
        while True:
            acts = legal.legal_actions(self)
            if len(acts) != 1:
                break
            rules.step(self, acts[0], events)
        self._legal = acts
        return events

    def settle(self) -> None:
        """Take every single-option decision (when a game starts: :func:`.rules.start_game`)."""
        events: list[Event] = []
        while True:
            acts = legal.legal_actions(self)
            if len(acts) != 1:
                break
            rules.step(self, acts[0], events)
        self._legal = acts

    def clone(self) -> AlienArtifactsState:
        c = AlienArtifactsState.__new__(AlienArtifactsState)
        n = self.n
        c.n = n
        self.rng_shared = True
        c.rng = self.rng
        c.rng_shared = True
        c.factions = self.factions[:]
        c.free_factions = self.free_factions[:]
        c.vp = self.vp[:]
        c.credits = self.credits[:]
        c.hand = [h[:] for h in self.hand]
        c.store = [s[:] for s in self.store]
        c.proj = [x[:] for x in self.proj]
        c.pdep = [x[:] for x in self.pdep]
        c.pcards = [[y[:] for y in x] for x in self.pcards]
        c.empire = [x[:] for x in self.empire]
        c.lmask = self.lmask[:]
        c.omask = self.omask[:]
        c.arts = [x[:] for x in self.arts]
        c.plan = self.plan[:]
        c.gained = self.gained[:]
        c.deck = self.deck[:]
        c.discard = self.discard[:]
        c.gen = self.gen
        c.rgen = self.rgen[:]
        c.rharv = self.rharv[:]
        c.round = self.round
        c.final = self.final
        m = self.market
        c.market = [m[0][:], m[1][:], m[2][:]]
        c.mknown = self.mknown[:]
        c.display = self.display[:]
        c.alien_deck = self.alien_deck[:]
        c.alien_discard = self.alien_discard[:]
        c.ddeck = self.ddeck[:]
        c.ddiscard = self.ddiscard[:]
        c.dgen = self.dgen[:]
        c.dgen_cur = self.dgen_cur
        c.adeck = self.adeck[:]
        c.adiscard = self.adiscard[:]
        c.agen = self.agen[:]
        c.agen_cur = self.agen_cur
        c.aknown = self.aknown[:]
        c.cur = self.cur
        c.phase = self.phase
        c.ctx = self.ctx
        c.turns = self.turns
        c.art_played = self.art_played
        c.qm_used = self.qm_used
        c.attacked = self.attacked
        c.overdrive = self.overdrive
        c.converter = self.converter
        c.passed = self.passed
        c.playing = self.playing
        c.disc_floor = self.disc_floor
        c.disc_n = self.disc_n
        c.pay_kind = self.pay_kind
        c.pay_proj = self.pay_proj
        c.pay_req = self.pay_req
        c.pay_val = self.pay_val
        c.pay_col = self.pay_col
        c.pay_limit = self.pay_limit
        c.pay_floor = self.pay_floor
        c.paying = self.paying[:]
        c.side_card = self.side_card
        c.buy_type = self.buy_type
        c.buy_n = self.buy_n
        c.queue = self.queue[:]
        c.attacker = self.attacker
        c.chart_type = self.chart_type
        c.chart_n = self.chart_n
        c.keep = self.keep[:]
        # The cached list is never mutated in place, so sharing it is safe.
        c._legal = self._legal
        c._public = self._public  # valid as long as _legal is the same list (views.public)
        return c

    def scores(self) -> list[int]:
        return self.vp[:]

    def ranking(self) -> list[list[int]]:
        return scoring.ranking(self)

    def view(self, seat: int | None) -> View:
        return views.view(self, seat)

    def label(self, action: Action) -> str:
        return labels.label(self, tuple(action))

    def barrier(self, action: Action, after: AlienArtifactsState | None = None) -> bool:
        """Whether ``action`` cannot be undone: it (or a single-option decision taken after
        it) draws or shuffles any deck, shows a market, artifact or alien card to anyone,
        attacks (a resource card is turned), ends the turn or the game, or hands the decision
        to another seat. Choosing an action, paying cards and choosing a side are not."""
        if after is None:  # else the caller has played it already (a server, on a copy)
            after = self.clone()
            after.apply(action)
        return _hidden_fingerprint(self) != _hidden_fingerprint(after)

    def __repr__(self) -> str:
        return (
            f"<AlienArtifactsState {self.n}p round {self.round} seat {self.cur} "
            f"{codes.PHASE_NAMES[self.phase]} vp={self.vp}>"
        )


def _hidden_fingerprint(st: AlienArtifactsState) -> tuple[Any, ...]:
    """What changes whenever chance is resolved, something hidden comes to light or the
    decision passes: the generator, every deck's size and generation, who knows which market
    and artifact cards, whose decision it is and the turn count."""
    return (
        st.rng.getstate(),
        len(st.deck),
        st.gen,
        len(st.ddeck),
        st.dgen_cur,
        len(st.adeck),
        st.agen_cur,
        len(st.alien_deck),
        tuple(st.display),
        tuple(st.mknown),
        tuple(st.aknown),
        tuple(st.keep),
        st.cur,
        st.turns,
        st.phase == codes.OVER,
    )
