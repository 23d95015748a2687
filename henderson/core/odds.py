"""Odds columns shared by the games' combat tables: an attack against a defence as a ratio,
always rounded in the defender's favour, and the column of a table it falls in.

FIRST BLOOD (FB 8.4, 8.6) and Deluxe Guadalcanal (DG 8.2.1.3) both compare the attacker's
strength with the defender's, drop fractions against the attacker, and read a table whose
columns run from a worst ratio (1-2, 1-6) to a best one (3-1, 6-1); what happens beyond the
table's ends is each game's own rule.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

Number = int | Fraction


@dataclass(frozen=True)
class Ratio:
    """An odds ratio `attack`-`defence` with one side 1: 3-1, 1-2; "defenceless" when the
    defence is nothing, "no attack" when the attack is nothing."""

    attack: int
    defence: int

    def __str__(self) -> str:
        return f"{self.attack}-{self.defence}"

    @property
    def value(self) -> Fraction:
        return Fraction(self.attack, self.defence) if self.defence else Fraction(10**9)


def ratio(attack: Number, defence: Number) -> Ratio:
    """The ratio of `attack` to `defence`, rounded in the defender's favour: 7 against 3 is
    2-1, 3 against 7 is 1-3 (FB 8.4, DG 8.2.1.3). A zero defence is 1-0 (every column is
    beaten), a zero attack 0-1 (none is reached)."""
    if defence <= 0:
        return Ratio(1, 0)
    if attack <= 0:
        return Ratio(0, 1)
    if attack >= defence:
        return Ratio(math.floor(Fraction(attack) / Fraction(defence)), 1)
    return Ratio(1, math.ceil(Fraction(defence) / Fraction(attack)))


def column(found: Ratio, columns: tuple[str, ...]) -> int:
    """The index of the table column `found` falls in, columns given worst first ("1-6" ...
    "6-1"): -1 below the worst, len(columns) above the best."""
    ratios = [Fraction(int(a), int(d)) for a, d in (c.split("-") for c in columns)]
    if found.defence == 0:
        return len(columns)
    value = found.value
    if value < ratios[0]:
        return -1
    if value > ratios[-1]:
        return len(columns)
    index = 0
    for i, r in enumerate(ratios):
        if value >= r:
            index = i
    return index
