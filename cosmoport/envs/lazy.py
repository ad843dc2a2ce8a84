"""A dict whose values are made when first read: an agent's ``info`` in the PettingZoo
environment, so that a step whose info nobody reads costs nothing to build (the view is the
dearest part of a step; see bench/envs.py).

It is a real ``dict`` (``isinstance(info, dict)``): reading a key makes that value, and anything
that looks at the values as a whole (``items()``, ``==``, ``repr``, ``copy``, ``{**info}``,
``json.dumps``, pickling) makes them all first. Once made, a value stays as it was made.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

_NOT_MADE: Any = object()


class LazyDict(dict[str, Any]):
    """``LazyDict(keys, make, *args)``: ``info[key]`` is ``make(key, *args)``, made once."""

    __slots__ = ("_args", "_make_value")

    def __init__(self, keys: tuple[str, ...], make: Callable[..., Any], *args: Any) -> None:
        dict.__init__(self, dict.fromkeys(keys, _NOT_MADE))
        self._make_value = make
        self._args = args

    def _make(self, key: Any) -> Any:
        value = dict.__getitem__(self, key)
        if value is _NOT_MADE:
            value = self._make_value(key, *self._args)
            dict.__setitem__(self, key, value)
        return value

    def _make_all(self) -> None:
        for key, value in list(dict.items(self)):
            if value is _NOT_MADE:
                self._make(key)

    def __getitem__(self, key: Any) -> Any:
        return self._make(key)

    def get(self, key: Any, default: Any = None) -> Any:
        return self._make(key) if dict.__contains__(self, key) else default

    def __iter__(self) -> Iterator[Any]:
        return iter(dict.keys(self))  # not dict's own: so {**info} reads through __getitem__

    def items(self) -> Any:
        self._make_all()
        return dict.items(self)

    def values(self) -> Any:
        self._make_all()
        return dict.values(self)

    def pop(self, key: Any, *default: Any) -> Any:
        if dict.__contains__(self, key):
            self._make(key)
        return dict.pop(self, key, *default)

    def popitem(self) -> tuple[Any, Any]:
        self._make_all()
        return dict.popitem(self)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if dict.__contains__(self, key):
            return self._make(key)
        return dict.setdefault(self, key, default)

    def copy(self) -> dict[str, Any]:
        return dict(self.items())

    def __eq__(self, other: object) -> bool:
        self._make_all()
        if isinstance(other, LazyDict):
            other._make_all()
        return dict.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None

    def __or__(self, other: Any) -> Any:
        return dict(self.items()) | other

    def __ror__(self, other: Any) -> Any:
        return other | dict(self.items())

    def __repr__(self) -> str:
        self._make_all()
        return dict.__repr__(self)

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (dict, (dict(self.items()),))
