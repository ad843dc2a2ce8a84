"""Cosmic Run and Alien Artifacts as research environments (docs/research.md).

- :func:`aec_env` makes a PettingZoo ``AECEnv`` of either game at any player count;
- :func:`register_openspiel` registers both games with OpenSpiel (``pyspiel``) as
  ``python_cosmoport_cosmic_run`` and ``python_cosmoport_alien_artifacts``;
- :func:`action_table` and :func:`layout` tell which integer is which action and which element
  of an observation means what.

They need the ``research`` extra (``pip install 'cosmoport[research]'``): numpy, gymnasium,
PettingZoo, OpenSpiel. Importing this package needs none of them; each is loaded on first use.
The action tables, the layouts and the observation encoders live in :mod:`games.encoding`,
which the tournament's in-process agents (``py:`` entrants) share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cosmoport.envs.actions import ActionTable, action_table
from games.encoding import layout

if TYPE_CHECKING:
    from cosmoport.envs.openspiel_game import register_openspiel
    from cosmoport.envs.pettingzoo_env import CosmoportAEC, aec_env

__all__ = [
    "ActionTable",
    "CosmoportAEC",
    "action_table",
    "aec_env",
    "layout",
    "register_openspiel",
]

_LAZY = {
    "aec_env": "cosmoport.envs.pettingzoo_env",
    "CosmoportAEC": "cosmoport.envs.pettingzoo_env",
    "register_openspiel": "cosmoport.envs.openspiel_game",
}


def __getattr__(name: str) -> Any:
    module_name = _LAZY.get(name)
    if module_name is None:
        raise AttributeError(f"module 'cosmoport.envs' has no attribute {name!r}")
    import importlib

    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ImportError(
            f"cosmoport.envs.{name} needs the research extra: "
            f"pip install 'cosmoport[research]' ({error})"
        ) from error
    return getattr(module, name)
