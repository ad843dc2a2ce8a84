"""In-process agents: ``py:MODULE:CALLABLE`` entrants, a policy of one's own played in the
tournament's own process, through the same observation and action mask as the research
environments (docs/research.md, :mod:`games.encoding`).

``MODULE`` is a module to import (``mypackage.agents``, looked up from the current folder too)
or a Python file (``examples/heuristic_agent.py``); ``CALLABLE`` is a name in it:

- a **function** (or any callable object): called for every decision of every game as
  ``agent(observation, action_mask)``, or ``agent(observation, action_mask, info=info)`` when it
  takes an ``info`` keyword (or ``**kwargs``);
- a **class**: instantiated once per game and seat, with those of the keywords ``game`` (its
  name, ``cosmic_run`` or ``alien_artifacts``), ``players``, ``seat`` and ``seed`` (the game's
  seed for this seat's randomness) its constructor names, then its instance is called as a
  function is.

``observation`` is the seat's view encoded exactly as ``cosmoport.envs.aec_env`` encodes it (a
float32 numpy vector), ``action_mask`` the int8 vector with 1 for each legal action, and
``info`` ``{"view": view}``, the seat's view as the engine gives it (as in the environment's
``infos``). It returns the integer of a legal action (a Python or numpy integer).

It plays under the same rules as a ``cmd:`` program: the time control (``--tc``) and the
per-decision ``--timeout`` measure it the same way, and it forfeits the game when it raises
(``crash``), returns anything but a legal action's integer (``illegal``), or takes too long
(``timeout``, or ``time`` on a game clock). It runs in a thread of its own, so that an agent
that never answers loses on time instead of stopping the tournament (its thread is left to
finish by itself). numpy is needed (``pip install 'cosmoport[research]'``).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import queue
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from games.api import Action, View
from games.encoding import Encoder

KIND = "py"
"""The kind of an entrant that is an in-process agent."""

CONSTRUCTOR_KEYWORDS = ("game", "players", "seat", "seed")


class AgentLoadError(ValueError):
    """The agent cannot be found or loaded (a problem of the entrant, known before any game)."""


class AgentError(Exception):
    """The agent failed one decision: ``reason`` is the forfeit's (``crash`` or ``illegal``)."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


class AgentTimeout(Exception):
    """The agent had not answered within the seconds it was given."""


# --- finding the callable ----------------------------------------------------------------------

_LOADED: dict[tuple[str, str], Any] = {}
_LOCK = threading.Lock()


def split_target(text: str) -> tuple[str, str]:
    """``MODULE:CALLABLE`` -> (module or file, callable name); ValueError if it is not that."""
    module, colon, name = text.strip().rpartition(":")
    module, name = module.strip(), name.strip()
    if not colon or not module or not name:
        raise ValueError("write an in-process agent as py:MODULE:CALLABLE")
    if not all(part.isidentifier() for part in name.split(".")):
        raise ValueError(f"{name!r} is not a Python name")
    return module, name


def is_file(module: str) -> bool:
    return module.endswith(".py") or os.sep in module or "/" in module


def load(module: str, name: str) -> Any:
    """The callable ``name`` of ``module`` (a module name or a ``.py`` file), loaded once per
    process. Raises :class:`AgentLoadError` with a one-line message."""
    key = (module, name)
    with _LOCK:
        if key in _LOADED:
            return _LOADED[key]
        from games.encoding import numpy

        try:
            numpy()
        except ImportError as error:
            raise AgentLoadError(f"py: agents {error}") from None
        loaded = _import(module)
        target: Any = loaded
        for part in name.split("."):
            try:
                target = getattr(target, part)
            except AttributeError:
                raise AgentLoadError(f"{module} has no {name!r}") from None
        if not callable(target):
            raise AgentLoadError(f"{module}:{name} is not a function or a class")
        _LOADED[key] = target
        return target


def _import(module: str) -> ModuleType:
    try:
        if is_file(module):
            path = os.path.abspath(module)
            if not os.path.isfile(path):
                raise AgentLoadError(f"no Python file {module!r}")
            unique = "cosmoport_agent_" + "".join(c if c.isalnum() else "_" for c in path)
            if unique in sys.modules:
                return sys.modules[unique]
            spec = importlib.util.spec_from_file_location(unique, path)
            if spec is None or spec.loader is None:
                raise AgentLoadError(f"{module!r} cannot be loaded as a Python file")
            loaded = importlib.util.module_from_spec(spec)
            sys.modules[unique] = loaded
            try:
                spec.loader.exec_module(loaded)
            except BaseException:
                del sys.modules[unique]
                raise
            return loaded
        try:
            return importlib.import_module(module)
        except ModuleNotFoundError as error:
            here = os.getcwd()
            if error.name != module.split(".")[0] or here in sys.path:
                raise
            sys.path.append(here)  # as ``python -m`` would find it, from the current folder
            return importlib.import_module(module)
    except AgentLoadError:
        raise
    except Exception as error:
        text = " ".join(str(error).split()) or type(error).__name__
        raise AgentLoadError(f"cannot import {module}: {type(error).__name__}: {text}") from None


def _accepts(function: Any, keyword: str) -> bool:
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(
        p.kind is inspect.Parameter.VAR_KEYWORD
        or (p.name == keyword and p.kind is not inspect.Parameter.POSITIONAL_ONLY)
        for p in parameters
    )


# --- playing -----------------------------------------------------------------------------------


@dataclass
class _Call:
    done: threading.Event = field(default_factory=threading.Event)
    value: Any = None
    error: BaseException | None = None


class _Worker:
    """One daemon thread that runs an agent's decisions one after the other."""

    def __init__(self, name: str) -> None:
        self.jobs: queue.SimpleQueue[tuple[Callable[[], Any], _Call] | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while True:
            job = self.jobs.get()
            if job is None:
                return
            function, call = job
            try:
                call.value = function()
            except BaseException as error:
                call.error = error
            call.done.set()

    def run(self, function: Callable[[], Any], wait: float | None) -> Any:
        call = _Call()
        self.jobs.put((function, call))
        if not call.done.wait(wait):
            raise AgentTimeout
        if call.error is not None:
            raise call.error
        return call.value

    def close(self) -> None:
        self.jobs.put(None)  # it ends once done with what it has (now, if idle)


class AgentBot:
    """A ``py:`` entrant's agent in one seat of one game, as a bot: :meth:`choose` encodes the
    view, asks the agent and gives back the engine action of its integer."""

    def __init__(
        self, target: Any, label: str, game: str, players: int, seat: int, seed: int
    ) -> None:
        self.name = label
        self.encoder = Encoder(game, players)
        self.agent: Any
        if inspect.isclass(target):
            given = {"game": game, "players": players, "seat": seat, "seed": seed}
            keywords = {k: v for k, v in given.items() if _accepts(target, k)}
            try:
                self.agent = target(**keywords)
            except Exception as error:
                raise AgentError("crash", f"{label}() raised {_describe(error)}") from error
        else:
            self.agent = target
        self.with_info = _accepts(self.agent, "info")
        self._worker: _Worker | None = None

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """The agent's action for ``view`` among ``legal``; :class:`AgentError` if it raises or
        answers with no legal action."""
        encoder = self.encoder
        observation = encoder.encode(view)
        mask = encoder.mask(legal)
        try:
            if self.with_info:
                number = self.agent(observation, mask, info={"view": view})
            else:
                number = self.agent(observation, mask)
        except Exception as error:
            raise AgentError("crash", f"raised {_describe(error)}") from error
        try:
            action = encoder.action(number)
        except (TypeError, IndexError):
            action = None
        if action is None or not mask[int(number)]:
            shown = repr(number)
            shown = shown if len(shown) <= 60 else shown[:57] + "..."
            raise AgentError("illegal", f"returned {shown}, not a legal action's number")
        return action

    def decide(self, view: View, legal: Sequence[Action], wait: float | None) -> Action:
        """:meth:`choose` in the agent's own thread, waiting at most ``wait`` seconds (None:
        for ever); :class:`AgentTimeout` if it has not answered by then."""
        if self._worker is None:
            self._worker = _Worker(f"cosmoport-agent-{self.name}")
        action: Action = self._worker.run(lambda: self.choose(view, legal), wait)
        return action

    def close(self) -> None:
        if self._worker is not None:
            self._worker.close()
            self._worker = None


def _describe(error: BaseException) -> str:
    text = " ".join(str(error).split())
    shown = f"{type(error).__name__}: {text}" if text else type(error).__name__
    return shown[:200]
