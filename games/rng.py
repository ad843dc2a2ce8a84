"""A ``random.Random`` whose whole state is one integer, so game states clone it cheaply.

The standard generator (Mersenne Twister) carries 625 words of state: copying it costs more than
copying the rest of a game state. Engines sit in the inner loop of the AI and clone constantly,
so they use this subclass, built the way the ``random`` docs describe ("override random(), seed(),
getstate(), setstate() and optionally getrandbits()"). The generator is SplitMix64: fast,
statistically sound for games, and fully determined by the seed.
"""

from __future__ import annotations

import random
from typing import Any

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_SCALE = 2.0**-53


class Rng(random.Random):
    """SplitMix64 behind the whole ``random.Random`` API (shuffle, sample, choice, ...)."""

    _s: int

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)

    def seed(self, a: Any = 0, version: int = 2) -> None:
        if not isinstance(a, int):
            raise TypeError(f"Rng takes an integer seed, not {type(a).__name__}")
        # Fold big seeds into 64 bits so every int seed is accepted and distinct small ones stay so.
        state = 0
        while True:
            state = (state * 0x100000001B3 ^ (a & _MASK)) & _MASK
            a >>= 64
            if not a:
                break
        self._s = state
        self.gauss_next = None

    def _next(self) -> int:
        s = (self._s + _GAMMA) & _MASK
        self._s = s
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def random(self) -> float:
        return (self._next() >> 11) * _SCALE

    def getrandbits(self, k: int) -> int:
        if k <= 64:
            if k < 0:
                raise ValueError("number of bits must be non-negative")
            return self._next() >> (64 - k)
        result = 0
        bits = 0
        while bits < k:
            result = (result << 64) | self._next()
            bits += 64
        return result >> (bits - k)

    def die(self) -> int:
        """A fair six-sided die: 1-6 (one step of the generator, inlined: dice are the hot path)."""
        s = (self._s + _GAMMA) & _MASK
        self._s = s
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return (((z ^ (z >> 31)) * 6) >> 64) + 1

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        """Shuffle ``x`` in place (Fisher-Yates; index by multiply-shift of 64 random bits)."""
        s = self._s
        for i in range(len(x) - 1, 0, -1):
            s = (s + _GAMMA) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            j = ((z ^ (z >> 31)) * (i + 1)) >> 64
            x[i], x[j] = x[j], x[i]
        self._s = s

    def getstate(self) -> tuple[Any, ...]:
        return ("splitmix64", self._s, self.gauss_next)

    def setstate(self, state: tuple[Any, ...]) -> None:
        if not (isinstance(state, tuple) and len(state) == 3 and state[0] == "splitmix64"):
            raise ValueError("not an Rng state")
        self._s = state[1]
        self.gauss_next = state[2]

    def copy(self) -> Rng:
        """An independent generator in the same state (what ``clone()`` uses)."""
        other = Rng.__new__(Rng)
        other._s = self._s
        other.gauss_next = self.gauss_next
        return other

    # Random's pickling and copying go through getstate/setstate, which works as is.
