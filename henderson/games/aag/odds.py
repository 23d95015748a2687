"""Exact odds of a battle-box attack: the distribution of casualties by unit type for N dice
against a force, computed by dynamic programming over the dice in slot order (no sampling).

Each die is a miss (3–6, 4/6), a 1 (1/6) or a 2 (1/6); a hit falls on the type its slot
names or is redirected up the neck; heavy armour, resilience and damaged-before-destroyed
follow AAG Declare Your Hits and Damaging and Destroying Units. Which unit of a type is hit
(a 1 or a 2 choice) does not change the counts, so it is left out.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from henderson.games.aag.model import GameData
from henderson.games.aag.rules.battlebox import effect, target_type

if TYPE_CHECKING:
    from henderson.games.aag.state import AagState

MISS, ONE, TWO = Fraction(4, 6), Fraction(1, 6), Fraction(1, 6)


@dataclass(frozen=True)
class Odds:
    """Outcomes: {((type, destroyed, damaged), ...): probability}, exact fractions."""

    category: str
    dice: int
    force: dict[str, int]
    outcomes: dict[tuple[tuple[str, int, int], ...], Fraction]

    def by_type(self) -> dict[str, dict[tuple[int, int], Fraction]]:
        """For each type: {(destroyed, damaged): probability}."""
        out: dict[str, dict[tuple[int, int], Fraction]] = {
            k: defaultdict(Fraction) for k in self.force
        }
        for outcome, p in self.outcomes.items():
            for kind, destroyed, damaged in outcome:
                out[kind][(destroyed, damaged)] += p
        return {k: dict(sorted(v.items())) for k, v in out.items()}

    def expected(self) -> dict[str, tuple[Fraction, Fraction]]:
        """Expected (destroyed, damaged) per type."""
        return {
            k: (
                sum((d * p for (d, _), p in v.items()), Fraction()),
                sum((g * p for (_, g), p in v.items()), Fraction()),
            )
            for k, v in self.by_type().items()
        }

    def text(self) -> str:
        lines = [
            f"{self.dice} dice against {self.category} units "
            + ", ".join(f"{n} {k}" for k, n in self.force.items())
        ]
        for kind, dist in self.by_type().items():
            cells = ", ".join(
                f"{d} destroyed{f' {g} damaged' if g else ''}: {float(p):.4f}"
                for (d, g), p in dist.items()
            )
            lines.append(f"  {kind}: {cells}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "category": self.category,
            "dice": self.dice,
            "force": self.force,
            "by_type": {
                k: [
                    {"destroyed": d, "damaged": g, "p": str(p), "float": float(p)}
                    for (d, g), p in v.items()
                ]
                for k, v in self.by_type().items()
            },
        }


def odds(
    data: GameData, category: str, dice: int, force: Mapping[str, int], armor_used: int = 0
) -> Odds:
    """Exact casualties of `dice` attack dice against `force` ({type: count}) of `category`.

    `armor_used`: battleships whose heavy armour is already spent this turn.
    """
    kinds = sorted(k for k, n in force.items() if n > 0)
    for k in kinds:
        if data.units[k].category != category:
            raise ValueError(f"{k} is not a {category} unit")
    start = tuple(
        (force[k], 0, 0, max(0, force[k] - armor_used) if k == "battleship" else 0) for k in kinds
    )
    dist: dict[tuple[tuple[int, int, int, int], ...], Fraction] = {start: Fraction(1)}
    for i in range(dice):
        slot = data.neck.slot_of(i)
        nxt: dict[tuple[tuple[int, int, int, int], ...], Fraction] = defaultdict(Fraction)
        for st, p in dist.items():
            nxt[st] += p * MISS
            for value, q in ((1, ONE), (2, TWO)):
                nxt[_hit(data, category, kinds, st, slot, value)] += p * q
        dist = nxt
    outcomes: dict[tuple[tuple[str, int, int], ...], Fraction] = defaultdict(Fraction)
    for st, p in dist.items():
        outcomes[tuple((k, s[2], s[1]) for k, s in zip(kinds, st, strict=True))] += p
    return Odds(category, dice, {k: force[k] for k in kinds}, dict(outcomes))


def _hit(
    data: GameData,
    category: str,
    kinds: list[str],
    st: tuple[tuple[int, int, int, int], ...],
    slot: int,
    value: int,
) -> tuple[tuple[int, int, int, int], ...]:
    present = [k for k, s in zip(kinds, st, strict=True) if s[0] + s[1] > 0]
    if data.neck.type_at(category, slot) not in present and "pt_boat" in present:
        kind: str | None = "pt_boat"  # AAG Appendix 1 PT Boats
    else:
        kind = target_type(data.neck, category, slot, present)
    if kind is None:
        return st
    i = kinds.index(kind)
    undamaged, damaged, destroyed, armor = st[i]
    if kind == "battleship" and armor > 0:
        armor -= 1  # AAG Heavy Armor
    elif undamaged > 0:
        if effect(data.units[kind].resilient, False, value) == "damaged":
            undamaged, damaged = undamaged - 1, damaged + 1
        else:
            undamaged, destroyed = undamaged - 1, destroyed + 1
    else:
        damaged, destroyed = damaged - 1, destroyed + 1
    return (*st[:i], (undamaged, damaged, destroyed, armor), *st[i + 1 :])


def airfield_odds(dice: int, airfields: int) -> dict[int, Fraction]:
    """Airfields damaged by `dice` dice: one per two hits (AAG Combat step 4)."""
    from math import comb

    out: dict[int, Fraction] = defaultdict(Fraction)
    for hits in range(dice + 1):
        p = comb(dice, hits) * Fraction(1, 3) ** hits * Fraction(2, 3) ** (dice - hits)
        out[min(hits // 2, airfields)] += p
    return dict(sorted(out.items()))


def zone_odds(state: AagState, zone: str, category: str, side: str) -> Odds:
    """The odds of `side`'s attack on `category` units in `zone` with every unit it could add
    (ranged units that have not fired count as joined; none aimed at airfields)."""
    from henderson.games.aag.rules import combat

    units = combat.own_attackers(state, side, zone, category)
    units += [p for p in combat.ranged_candidates(state, side, zone, category) if not p.joined]
    dice = sum(state.data.units[p.type].attack[category] for p in units)
    force: dict[str, int] = defaultdict(int)
    used = 0
    for p in combat.targets(state, side, zone, category):
        force[p.type] += 1
        used += p.type == "battleship" and p.armor_used
    return odds(state.data, category, dice, dict(force), armor_used=used)


def parse_spec(data: GameData, text: str) -> Odds | dict[int, Fraction]:
    """Odds from a one-line spec, as a command line would take it:

    "10 sea: 2 destroyer, 1 cruiser, 1 battleship, 2 transport"
    "8 air vs 3 fighter 1 bomber"
    "6 airfields: 2"          (airfield damage for 6 dice against 2 airfields)
    """
    from henderson.core.errors import NotationError

    words = text.replace(",", " ").replace(":", " ").split()
    words = [w for w in words if w.lower() != "vs"]
    if len(words) < 2 or not words[0].isdigit():
        raise NotationError(text, "expected '<dice> <air|sea|land|airfields>: <count> <type> ...'")
    dice, category = int(words[0]), words[1].lower()
    rest = words[2:]
    if category in ("airfield", "airfields"):
        if len(rest) != 1 or not rest[0].isdigit():
            raise NotationError(text, "expected '<dice> airfields: <number of airfields>'")
        return airfield_odds(dice, int(rest[0]))
    if category not in ("air", "sea", "land"):
        raise NotationError(text, f"unknown category {category!r} (air, sea, land, airfields)")
    if len(rest) % 2:
        raise NotationError(text, "the force is pairs of '<count> <type>'")
    force: dict[str, int] = defaultdict(int)
    for count, kind in zip(rest[::2], rest[1::2], strict=True):
        name = kind.lower()
        if name not in data.units and name.endswith("s") and name[:-1] in data.units:
            name = name[:-1]
        if not count.isdigit() or name not in data.units:
            raise NotationError(text, f"bad force entry {count!r} {kind!r}")
        if data.units[name].category != category:
            raise NotationError(text, f"{name} is not a {category} unit")
        force[name] += int(count)
    return odds(data, category, dice, dict(force))
