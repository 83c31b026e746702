"""Seeded, logged, order-independent dice.

A roll's value is a pure function of (campaign seed, turn, purpose, index): the generator is
keyed and counter-based, so adding, removing or reordering unrelated orders changes no other roll.
Values come from BLAKE2b, whose output is fixed by its specification, so a campaign replays the
same on any machine and any library version (a numpy ``Generator`` only promises a stable bit
stream, not stable ``integers()``). A purpose can be rolled once per turn: rolling it twice would
silently repeat the same numbers, so it is refused.

These are the *keyed* dice: only who holds the seed can check them. A campaign can instead use the
*verifiable* dice of :mod:`adjudicator.dice.verifiable` (same interface, values from signatures
every player can check); the campaign setting ``dice`` chooses.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass


class DiceError(ValueError):
    """Raised when a roll is asked for twice with the same purpose, or with no sides."""


@dataclass(frozen=True)
class Roll:
    turn: int
    purpose: str
    sides: int
    values: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.values)

    def notation(self) -> str:
        return f"{len(self.values)}d{self.sides}"


def _uniform(key: bytes, index: int, sides: int) -> int:
    """An unbiased integer in 1..sides from the keyed stream (rejection sampling on 64-bit words)."""
    limit = (1 << 64) - ((1 << 64) % sides)
    counter = 0
    while True:
        block = hashlib.blake2b(key + f"|{index}|{counter}".encode(), digest_size=8).digest()
        word = int.from_bytes(block, "big")
        if word < limit:
            return word % sides + 1
        counter += 1


class Dice:
    """The dice of one turn: every roll is keyed by its purpose and logged."""

    def __init__(self, seed: int, turn: int) -> None:
        self.seed = int(seed)
        self.turn = int(turn)
        self.log: list[Roll] = []
        self._used: set[str] = set()

    def roll(self, purpose: str, sides: int, count: int = 1) -> Roll:
        if sides < 1 or count < 1:
            raise DiceError(f"cannot roll {count}d{sides} for {purpose!r}")
        if purpose in self._used:
            raise DiceError(f"dice already rolled this turn for {purpose!r}")
        self._used.add(purpose)
        result = Roll(self.turn, purpose, sides, self._values(purpose, sides, count))
        self.log.append(result)
        return result

    def _values(self, purpose: str, sides: int, count: int) -> tuple[int, ...]:
        """The dice of one roll; a second source of dice (:mod:`adjudicator.dice.verifiable`) replaces this."""
        key = f"adjudicator|{self.seed}|{self.turn}|{purpose}".encode()
        return tuple(_uniform(key, i, sides) for i in range(count))

    def d(self, sides: int, purpose: str) -> int:
        """One die: ``dice.d(10, "battle:0712:round1:alpha")``."""
        return self.roll(purpose, sides).values[0]

    def sorted_log(self) -> list[Roll]:
        """The rolls in a stable order (by purpose), independent of resolution order."""
        return sorted(self.log, key=lambda r: r.purpose)
