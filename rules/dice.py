"""Dice for the rules engine, from an injected random source.

The app passes ``random.SystemRandom()`` (the default); tests pass ``random.Random(seed)``
so that a roll is repeatable. Every roll is kept in ``Dice.log`` with what it was for, so
the caller can store it in the gang's dice log.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Roll:
    """One throw of one or more dice of the same kind."""

    purpose: str
    sides: int
    dice: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.dice)

    @property
    def notation(self) -> str:
        return f"{len(self.dice)}D{self.sides}"

    def to_dict(self) -> dict[str, Any]:
        return {"purpose": self.purpose, "dice": f"D{self.sides}", "rolled": list(self.dice)}


@dataclass
class Dice:
    """Rolls dice and remembers each roll, in order."""

    source: random.Random = field(default_factory=random.SystemRandom)
    log: list[Roll] = field(default_factory=list)

    def roll(self, count: int, sides: int, purpose: str) -> Roll:
        if count < 1 or sides < 2:
            raise ValueError(f"can't roll {count}D{sides}")
        result = Roll(purpose, sides, tuple(self.source.randint(1, sides) for _ in range(count)))
        self.log.append(result)
        return result

    def d6(self, purpose: str) -> int:
        return self.roll(1, 6, purpose).total

    def d20(self, purpose: str) -> int:
        return self.roll(1, 20, purpose).total
