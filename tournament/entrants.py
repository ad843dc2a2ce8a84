"""Who plays in a tournament: built-in bots with their settings, or programs of anyone's own.

An entrant is written the way a user types it on the command line::

    hard                                 the built-in MCTS bot at its hard level
    hard:iterations=4000                 ... with a fixed budget of 4000 iterations per decision
    normal:seconds=0.2,exploration=1.0   ... 0.2 s per decision, UCT exploration constant 1.0
    greedy:name=Greedy                   a display name (names must differ within an event)
    hard:tc=30+0.2                       its own time control, instead of the event's --tc
    cmd:./mybot --fast                   a program of one's own, started per game
    cmd[name=mine,reuse]:./mybot         ... with a display name, kept running between games
    py:mypackage.agents:policy           a Python callable of one's own, played in-process
    py[name=mine,tc=30+0.2]:agent.py:Agent   ... a class in a file, with a name and a tc

Every problem is an :class:`EntrantError` (a ``ValueError``) with a one-line message.
"""

from __future__ import annotations

import math
import os
import random
import shlex
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ai.bots import KINDS, LEVELS, Bot, MCTSBot, make_bot
from games.api import Game

PROGRAM = "cmd"
"""The kind of an entrant that is a program of its own."""
AGENT = "py"
"""The kind of an entrant that is a Python callable of its own (:mod:`tournament.agents`)."""

_SETTINGS: dict[str, tuple[type, str]] = {
    "iterations": (int, "search iterations per decision (a whole number, at least 1)"),
    "seconds": (float, "search time per decision in seconds (more than 0)"),
    "exploration": (float, "the UCT exploration constant (0 or more)"),
    "name": (str, "the name shown in the standings"),
    "tc": (str, "its time control, BANK+INC in seconds (e.g. 30+0.2)"),
}
"""Settings a built-in entrant takes, and what each is (for messages)."""

_MCTS_ONLY = ("iterations", "seconds", "exploration")


class EntrantError(ValueError):
    """An entrant the user wrote that cannot be understood or cannot play."""


@dataclass(frozen=True)
class Entrant:
    """One entrant of an event, as parsed from what the user wrote."""

    name: str
    """The name in the standings, unique within the event."""
    spec: str
    """What the user wrote, exactly (kept in the event's database)."""
    kind: str
    """``random``, ``greedy``, ``easy``, ``normal``, ``hard``, ``cmd`` or ``py``."""
    iterations: int | None = None
    seconds: float | None = None
    exploration: float | None = None
    command: tuple[str, ...] = ()
    """The program and its arguments (``cmd`` entrants); the module (or file) and the
    callable's name (``py`` entrants)."""
    reuse: bool = False
    """A ``cmd`` program kept running between games (it reads its next game from stdin)."""
    tc: str | None = None
    """Its own time control (``BANK+INC``), overriding the event's; None: the event's."""

    @property
    def own_budget(self) -> bool:
        """Whether its search has a budget of its own (iterations or seconds)."""
        return self.iterations is not None or self.seconds is not None

    @property
    def is_program(self) -> bool:
        return self.kind == PROGRAM

    @property
    def is_agent(self) -> bool:
        """A ``py:`` entrant: a callable of one's own, played in-process."""
        return self.kind == AGENT

    @property
    def is_own(self) -> bool:
        """A program or an agent of one's own: it forfeits on its own problems (a crash, an
        illegal action, a decision over ``--timeout``), not only on time."""
        return self.kind in (PROGRAM, AGENT)

    def budget(self) -> str:
        """The time control, for people: ``2500 iterations``, ``0.2 s``, ``random``..."""
        if self.kind not in LEVELS:
            return self.kind if not self.is_own else "its own"
        level = LEVELS[self.kind]
        iterations, seconds = self.iterations, self.seconds
        if iterations is None and seconds is None:
            iterations, seconds = level.iterations, level.seconds
        parts = []
        if iterations is not None:
            parts.append(f"{iterations} iterations")
        if seconds is not None:
            parts.append(f"{seconds:g} s")
        return " or ".join(parts)

    def make_bot(
        self, game: Game, seed: int, timed: bool = False, players: int = 0, seat: int = 0
    ) -> Bot:
        """A fresh in-process bot for one game (built-in entrants and agents). ``timed``: it
        plays on a game clock, so a search without a budget of its own is budgeted by the clock
        alone (:meth:`ai.bots.MCTSBot.use_clock` before each decision). An agent
        (:class:`tournament.agents.AgentBot`) needs the game's ``players`` and its ``seat``;
        making it raises :class:`tournament.agents.AgentError` if its class raises."""
        if self.is_program:
            raise EntrantError(f"{self.name} is a program: it plays over the network")
        if self.is_agent:
            from tournament.agents import AgentBot, load

            module, name = self.command
            target = load(module, name)
            return AgentBot(target, self.name, game.name, players, seat, seed)
        iterations, seconds = self.iterations, self.seconds
        if timed and not self.own_budget:
            seconds = 1.0  # replaced before every decision by the clock's share
        bot = make_bot(self.kind, game, seed, iterations=iterations, seconds=seconds)
        if self.exploration is not None and isinstance(bot, MCTSBot):
            bot.search.exploration = self.exploration
        return bot

    def to_dict(self) -> dict[str, Any]:
        extra = {} if self.tc is None else {"tc": self.tc}  # absent: as databases before it
        return {
            "name": self.name,
            "spec": self.spec,
            "kind": self.kind,
            "iterations": self.iterations,
            "seconds": self.seconds,
            "exploration": self.exploration,
            "command": list(self.command),
            "reuse": self.reuse,
            **extra,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Entrant:
        return cls(**{**data, "command": tuple(data.get("command") or ())})


def parse(spec: str) -> Entrant:
    """One entrant from what the user wrote (its name not yet made unique)."""
    text = spec.strip()
    if not text:
        raise EntrantError("an empty entrant: write a bot (random, greedy, easy, normal, hard), "
                           "cmd:PROGRAM or py:MODULE:CALLABLE")  # fmt: skip
    head, _, rest = text.partition(":")
    if head == PROGRAM or head.startswith(PROGRAM + "["):
        return _parse_program(text, head, rest)
    if head == AGENT or head.startswith(AGENT + "["):
        return _parse_agent(text, head, rest)
    kind = head.strip().lower()
    if kind not in KINDS:
        raise EntrantError(
            f"unknown entrant {head!r}: choose one of {', '.join(KINDS)}, cmd:PROGRAM or "
            "py:MODULE:CALLABLE"
        )
    settings = _settings(rest, text) if rest.strip() else {}
    extra = [key for key in _MCTS_ONLY if key in settings]
    if extra and kind not in LEVELS:
        raise EntrantError(f"{text!r}: {kind} does not search, so it takes no {extra[0]}")
    name = settings.pop("name", None) or _default_name(kind, settings)
    return Entrant(name=name, spec=text, kind=kind, **settings)


def _settings(text: str, spec: str) -> dict[str, Any]:
    settings: dict[str, Any] = {}
    for item in text.split(","):
        key, equals, value = item.partition("=")
        key, value = key.strip().lower(), value.strip()
        if not equals or not key or not value:
            raise EntrantError(f"{spec!r}: write settings as key=value, not {item.strip()!r}")
        if key not in _SETTINGS:
            raise EntrantError(
                f"{spec!r}: unknown setting {key!r}; settings: {', '.join(_SETTINGS)}"
            )
        kind, meaning = _SETTINGS[key]
        try:
            parsed = kind(value)
        except ValueError:
            raise EntrantError(f"{spec!r}: {key} is {meaning}, not {value!r}") from None
        if not _in_range(key, parsed):
            raise EntrantError(f"{spec!r}: {key} is {meaning}, not {value!r}")
        if key == "tc":
            parsed = _time_control(parsed, spec)
        settings[key] = parsed
    return settings


def _time_control(text: str, spec: str) -> str:
    from tournament.clock import parse_tc

    try:
        return parse_tc(text).text()
    except ValueError as error:
        raise EntrantError(f"{spec!r}: {error}") from None


def _in_range(key: str, value: Any) -> bool:
    if key == "iterations":
        return bool(value >= 1)
    if key == "seconds":
        return bool(math.isfinite(value) and value > 0)
    if key == "exploration":
        return bool(math.isfinite(value) and value >= 0)
    return bool(str(value).strip())


def _default_name(kind: str, settings: dict[str, Any]) -> str:
    if not settings:
        return kind
    shown = ",".join(f"{key}={value:g}" if isinstance(value, float) else f"{key}={value}"
                     for key, value in settings.items())  # fmt: skip
    return f"{kind}:{shown}"


def _own_settings(text: str, head: str, kind: str) -> tuple[str | None, bool, str | None]:
    """The settings of ``cmd[...]`` or ``py[...]``: name, reuse (programs only) and tc."""
    name: str | None = None
    reuse = False
    tc: str | None = None
    if head == kind:
        return name, reuse, tc
    program = kind == PROGRAM
    if not head.endswith("]"):
        if program:
            raise EntrantError(f"{text!r}: write program settings as cmd[name=NAME,reuse]:COMMAND")
        raise EntrantError(f"{text!r}: write agent settings as py[name=NAME]:MODULE:CALLABLE")
    for item in head[len(kind) + 1 : -1].split(","):
        key, equals, value = (part.strip() for part in item.partition("="))
        if key == "reuse" and not equals and program:
            reuse = True
        elif key == "name" and value:
            name = value
        elif key == "tc" and value:
            tc = _time_control(value, text)
        elif key:
            what = "a program takes the settings name=NAME, reuse" if program else (
                "an agent takes the settings name=NAME")  # fmt: skip
            raise EntrantError(f"{text!r}: {what} and tc=BANK+INC, not {item.strip()!r}")
    return name, reuse, tc


def _parse_agent(text: str, head: str, target: str) -> Entrant:
    from tournament.agents import is_file, split_target

    name, _reuse, tc = _own_settings(text, head, AGENT)
    try:
        module, callable_name = split_target(target)
    except ValueError as error:
        raise EntrantError(f"{text!r}: {error}") from None
    if is_file(module):
        module = os.path.abspath(module)  # the same file for worker processes
    if name is None:
        name = callable_name.rpartition(".")[2]
    return Entrant(name=name, spec=text, kind=AGENT, command=(module, callable_name), tc=tc)


def check_agent(entrant: Entrant) -> None:
    """Raise :class:`EntrantError` if ``entrant``'s callable cannot be loaded (or numpy, which
    agents need, is missing)."""
    from tournament.agents import AgentLoadError, load

    try:
        load(*entrant.command)
    except AgentLoadError as error:
        raise EntrantError(f"{entrant.name}: {error}") from None


def _parse_program(text: str, head: str, command_text: str) -> Entrant:
    name, reuse, tc = _own_settings(text, head, PROGRAM)
    try:
        command = tuple(shlex.split(command_text))
    except ValueError as error:
        raise EntrantError(f"{text!r}: the command does not parse ({error})") from None
    if not command:
        raise EntrantError(f"{text!r}: no program after cmd:")
    if name is None:
        name = os.path.basename(command[0]) or command[0]
    return Entrant(name=name, spec=text, kind=PROGRAM, command=command, reuse=reuse, tc=tc)


def check_program(entrant: Entrant, cwd: str | None = None) -> None:
    """Raise :class:`EntrantError` if ``entrant``'s program cannot be found or run."""
    program = entrant.command[0]
    if os.sep in program or (os.altsep and os.altsep in program):
        path = os.path.join(cwd or os.getcwd(), program)
        if not os.path.isfile(path):
            raise EntrantError(f"{entrant.name}: no program {program!r}")
        if not os.access(path, os.X_OK):
            raise EntrantError(f"{entrant.name}: {program!r} is not executable (chmod +x it)")
    elif shutil.which(program) is None:
        raise EntrantError(f"{entrant.name}: no program {program!r} on the PATH")


def parse_all(specs: Sequence[str], defaults: dict[str, Any] | None = None) -> list[Entrant]:
    """Every entrant, with the event's default budget given to MCTS entrants that set none,
    and names made unique (a second ``hard`` becomes ``hard#2``)."""
    entrants = []
    for spec in specs:
        entrant = parse(spec)
        unset = entrant.iterations is None and entrant.seconds is None
        if defaults and entrant.kind in LEVELS and unset:
            entrant = replace(entrant, **{k: v for k, v in defaults.items() if v is not None})
        entrants.append(entrant)
    seen: dict[str, int] = {}
    unique = []
    for entrant in entrants:
        count = seen.get(entrant.name, 0) + 1
        seen[entrant.name] = count
        unique.append(entrant if count == 1 else replace(entrant, name=f"{entrant.name}#{count}"))
    return unique


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of the game with ``game_seed``: the same both ways a
    game can be played (in-process or over the network)."""
    return random.Random(game_seed * 16 + seat).getrandbits(63)
