"""Exact odds of a battle-box attack: the distribution of casualties by unit type for N dice
against a force, computed by dynamic programming over the dice in slot order (no sampling).
The DP counts the ways each outcome arises among the 6**N equally likely rolls, in
integers, and divides once at the end: exact, and far cheaper than fractions at each step.

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

from henderson.core.errors import HendersonError, NotationError
from henderson.games.aag.model import CATEGORIES, SIDES, GameData
from henderson.games.aag.rules.battlebox import effect, target_type

if TYPE_CHECKING:
    from henderson.games.aag.state import AAGState

SPEC_FORMS = (
    "'<dice> <air|sea|land>: <count> <type>, ...', '<dice> airfields: <number of airfields>'"
    " or, with a position, '<zone> <air|sea|land|airfields> <us|jp>'"
)


MAX_BATTLE_STATES = 20_000  # partial outcomes kept at once: about a second of work, then refused


class OddsTooLarge(HendersonError):
    """A battle whose exact odds would take too long to work out (a preview is never allowed
    to run for minutes): one line saying so."""


class OddsSpecError(NotationError):
    """An odds request that cannot be read or names no attack: one line saying what is wrong."""

    def __init__(self, text: str, message: str) -> None:
        ValueError.__init__(self, f"cannot read odds {text!r}: {message}")
        self.text = text
        self.message = message


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
    data: GameData,
    category: str,
    dice: int,
    force: Mapping[str, int],
    armor_used: int = 0,
    *,
    damaged: Mapping[str, int] | None = None,
    night: bool = False,
    banzai: bool = False,
) -> Odds:
    """Exact casualties of `dice` attack dice against `force` ({type: count}) of `category`.

    `armor_used`: battleships whose heavy armour is already spent this turn. `damaged`: units
    of the force already marked damaged in this attack (hit again, they are destroyed).
    `night`: Night Fighting, a 2 destroys like a 1; `banzai`: Banzai Charge, a 3 hits too
    (AAG Appendix 1).
    """
    kinds = sorted(k for k, n in force.items() if n > 0)
    for k in kinds:
        if data.units[k].category != category:
            raise ValueError(f"{k} is not a {category} unit")
    marked = dict(damaged or {})
    start = tuple(
        (
            force[k] - marked.get(k, 0),
            marked.get(k, 0),
            0,
            max(0, force[k] - armor_used) if k == "battleship" else 0,
        )
        for k in kinds
    )
    misses, hit_faces = _faces(night, banzai)
    box = _Box(data, category, kinds, start)
    ways: dict[int, int] = {box.code(start): 1}  # of the rolls so far, how many lead to each state
    for i in range(dice):
        slot = data.neck.slot_of(i)
        nxt: dict[int, int] = defaultdict(int)
        for st, n in ways.items():
            nxt[st] += n * misses
            j = box.target(st, slot)
            if j is None:  # no unit left: the hits fall on nothing
                nxt[st] += n * (6 - misses)
                continue
            for value, faces_of in hit_faces:
                nxt[st + box.struck(st, j, value)] += n * faces_of
        ways = nxt
        if len(ways) > MAX_BATTLE_STATES:
            raise OddsTooLarge(
                f"the exact odds of {dice} dice against {sum(force[k] for k in kinds)} {category} units "
                "are too long to work out; preview a smaller part of the battle"
            )
    counts: dict[tuple[tuple[str, int, int], ...], int] = defaultdict(int)
    for st, n in ways.items():
        counts[tuple((k, s[2], s[1]) for k, s in zip(kinds, box.units(st), strict=True))] += n
    rolls = 6**dice
    outcomes = {outcome: Fraction(n, rolls) for outcome, n in counts.items()}
    return Odds(category, dice, {k: force[k] for k in kinds}, outcomes)


def _faces(night: bool, banzai: bool) -> tuple[int, list[tuple[int, int]]]:
    """What one die does: how many of its 6 faces miss, and for each value that hits how
    many faces read it. A 1 or a 2 hits (AAG Declare Your Hits); Night Fighting reads a 2 as
    a 1, Banzai Charge a 3 hits."""
    hits = [(1, 2)] if night else [(1, 1), (2, 1)]
    if banzai:
        hits.append((3, 1))
    return 6 - sum(n for _, n in hits), hits


_Units = tuple[int, int, int, int]  # one type's units: undamaged, damaged, destroyed, heavy armour left


class _Box:
    """The battle box's rules for one force (AAG Declare Your Hits, Hitting Units the Enemy
    Doesn't Have, Damaging and Destroying Units, Heavy Armor), each answer worked out once
    per odds: the type a hit in a slot falls on, given the types still present, and what a
    hit does to that type's units.

    A state of the force (`_Units` by type, in the order of `kinds`) is coded as one number,
    each type's damaged, destroyed and armour left a digit of it (its undamaged units are
    the rest): quick to hash, and a hit on a type adds to it."""

    def __init__(self, data: GameData, category: str, kinds: list[str], start: tuple[_Units, ...]) -> None:
        self.data, self.category, self.kinds = data, category, kinds
        self.sizes = [sum(units[:3]) for units in start]
        self.radix = [(n + 1) * (n + 1) * (units[3] + 1) for n, units in zip(self.sizes, start, strict=True)]
        self.stride = [1] * len(kinds)
        for j in range(1, len(kinds)):
            self.stride[j] = self.stride[j - 1] * self.radix[j - 1]
        self.present: dict[int, tuple[bool, ...]] = {}
        self.targets: dict[tuple[int, tuple[bool, ...]], int | None] = {}
        self.hits: dict[tuple[int, int, int], int] = {}

    def code(self, state: tuple[_Units, ...]) -> int:
        return sum(self._local(j, units) * self.stride[j] for j, units in enumerate(state))

    def _local(self, j: int, units: _Units) -> int:
        n = self.sizes[j]
        _, damaged, destroyed, armor = units
        return damaged + (n + 1) * (destroyed + (n + 1) * armor)

    def _unit(self, j: int, local: int) -> _Units:
        n = self.sizes[j]
        damaged, rest = local % (n + 1), local // (n + 1)
        destroyed, armor = rest % (n + 1), rest // (n + 1)
        return (n - damaged - destroyed, damaged, destroyed, armor)

    def units(self, st: int) -> tuple[_Units, ...]:
        """The state coded as `st`, type by type."""
        return tuple(self._unit(j, st // self.stride[j] % self.radix[j]) for j in range(len(self.kinds)))

    def target(self, st: int, slot: int) -> int | None:
        """The index of the type a hit in `slot` falls on, or None when no unit is left."""
        present = self.present.get(st)
        if present is None:
            present = self.present[st] = tuple(u[0] + u[1] > 0 for u in self.units(st))
        key = (slot, present)
        if key not in self.targets:
            names = [k for k, here in zip(self.kinds, present, strict=True) if here]
            if self.data.neck.type_at(self.category, slot) not in names and "pt_boat" in names:
                kind: str | None = "pt_boat"  # AAG Appendix 1 PT Boats
            else:
                kind = target_type(self.data.neck, self.category, slot, names)
            self.targets[key] = None if kind is None else self.kinds.index(kind)
        return self.targets[key]

    def struck(self, st: int, j: int, value: int) -> int:
        """What a hit of `value` on type `j` adds to the state coded as `st`."""
        local = st // self.stride[j] % self.radix[j]
        key = (j, local, value)
        found = self.hits.get(key)
        if found is None:
            after = _struck(self.data, self.kinds[j], self._unit(j, local), value)
            found = self.hits[key] = (self._local(j, after) - local) * self.stride[j]
        return found


def _struck(data: GameData, kind: str, units: _Units, value: int) -> _Units:
    """A hit of `value` on units of type `kind`: heavy armour absorbs it, else an undamaged
    unit is damaged or destroyed, else a damaged one is destroyed."""
    undamaged, damaged, destroyed, armor = units
    if kind == "battleship" and armor > 0:
        armor -= 1  # AAG Heavy Armor
    elif undamaged > 0:
        if effect(data.units[kind].resilient, False, value) == "damaged":
            undamaged, damaged = undamaged - 1, damaged + 1
        else:
            undamaged, destroyed = undamaged - 1, destroyed + 1
    else:
        damaged, destroyed = damaged - 1, destroyed + 1
    return (undamaged, damaged, destroyed, armor)


@dataclass(frozen=True)
class AirfieldOdds:
    """Airfields damaged by an attack on airfields: {number damaged: probability}."""

    dice: int
    airfields: int
    distribution: dict[int, Fraction]

    def text(self) -> str:
        cells = ", ".join(f"{n} damaged: {float(p):.4f}" for n, p in self.distribution.items())
        return f"{self.dice} dice against {self.airfields} airfield(s)\n  airfields: {cells}"

    def to_json(self) -> dict[str, Any]:
        return {
            "category": "airfields",
            "dice": self.dice,
            "airfields": self.airfields,
            "damaged": [
                {"damaged": n, "p": str(p), "float": float(p)} for n, p in self.distribution.items()
            ],
        }


def airfield_odds(dice: int, airfields: int) -> dict[int, Fraction]:
    """Airfields damaged by `dice` dice: one per two hits (AAG Combat step 4)."""
    from math import comb

    out: dict[int, Fraction] = defaultdict(Fraction)
    for hits in range(dice + 1):
        p = comb(dice, hits) * Fraction(1, 3) ** hits * Fraction(2, 3) ** (dice - hits)
        out[min(hits // 2, airfields)] += p
    return dict(sorted(out.items()))


def zone_odds(state: AAGState, zone: str, category: str, side: str) -> Odds | AirfieldOdds:
    """The odds of `side`'s attack on `category` units (or `airfields`) in `zone`, with exactly
    the dice its roll would use now (AAG Determine Total Attack Power): the units in the zone
    and the ranged units that have joined this attack, less those aimed at the airfields
    (AAG Combat step 4: "It can't attack both"); Night Fighting and Banzai Charge count."""
    from henderson.games.aag.rules import combat

    check_zone_request(state, zone, category, side)
    if category == "airfields":
        fields = [a for a in combat.enemy_airfields(state, side, zone) if not a.damaged]
        dice = combat.attack_power(state, side, zone, "land")[1]
        return AirfieldOdds(dice, len(fields), airfield_odds(dice, len(fields)))
    dice = combat.dice_against_units(state, side, zone, category)
    night, banzai = combat.modifiers(state, side, zone, category)
    force: dict[str, int] = defaultdict(int)
    marked: dict[str, int] = defaultdict(int)
    used = 0
    for p in combat.targets(state, side, zone, category):
        if p.hit == "destroyed":
            continue
        force[p.type] += 1
        marked[p.type] += p.hit == "damaged"
        used += p.type == "battleship" and p.armor_used
    return odds(
        state.data, category, dice, dict(force), armor_used=used, damaged=marked,
        night=night, banzai=banzai,
    )


def check_zone_request(state: AAGState, zone: str, category: str, side: str) -> None:
    """Refuse a zone, category or side that names no attack, saying which (one line)."""
    text = f"{zone} {category} {side}"
    board = state.data.board
    if side not in SIDES:
        raise OddsSpecError(text, f"unknown side {side!r} (us or jp)")
    if category not in (*CATEGORIES, "airfields"):
        raise OddsSpecError(text, f"unknown category {category!r} (air, sea, land, airfields)")
    if zone not in board.zone_ids():
        zones = ", ".join(sorted(board.seas) + sorted(board.islands))
        raise OddsSpecError(text, f"unknown zone {zone!r} (zones: {zones})")
    if zone not in board.seas and zone not in board.islands:
        raise OddsSpecError(
            text, f"{zone} is on a base card: combat happens only in the zones of the game board"
        )
    if category in ("land", "airfields") and zone not in board.islands:
        raise OddsSpecError(
            text, f"{zone} is a sea zone: land units and airfields are attacked on islands (AAG Combat step 4)"
        )
    if category == "sea" and zone not in board.seas:
        raise OddsSpecError(text, f"{zone} is an island: sea units are attacked in sea zones (AAG Combat step 2)")


def from_spec(data: GameData, state: AAGState | None, text: str) -> Odds | AirfieldOdds:
    """Odds for a command line or a client: "ZONE CATEGORY SIDE" on a position (its units,
    as `zone_odds`), or a spec that names the dice and the force (`parse_spec`)."""
    words = text.split()
    if len(words) == 3 and not words[0].isdigit():
        if state is None:
            raise OddsSpecError(text, f"'{text}' needs a position; without one, use {SPEC_FORMS}")
        return zone_odds(state, words[0], words[1].lower(), words[2].lower())
    return parse_spec(data, text)


def parse_spec(data: GameData, text: str) -> Odds | AirfieldOdds:
    """Odds from a one-line spec, as a command line would take it:

    "10 sea: 2 destroyer, 1 cruiser, 1 battleship, 2 transport"
    "8 air vs 3 fighter 1 bomber"
    "6 airfields: 2"          (airfield damage for 6 dice against 2 airfields)
    """
    words = text.replace(",", " ").replace(":", " ").split()
    words = [w for w in words if w.lower() != "vs"]
    if len(words) < 2 or not words[0].isdigit():
        raise OddsSpecError(text, f"expected {SPEC_FORMS}")
    dice, category = int(words[0]), words[1].lower()
    rest = words[2:]
    if category in ("airfield", "airfields"):
        if len(rest) != 1 or not rest[0].isdigit():
            raise OddsSpecError(text, "expected '<dice> airfields: <number of airfields>'")
        return AirfieldOdds(dice, int(rest[0]), airfield_odds(dice, int(rest[0])))
    if category not in CATEGORIES:
        raise OddsSpecError(text, f"unknown category {category!r} (air, sea, land, airfields)")
    if len(rest) % 2:
        raise OddsSpecError(text, "the force is pairs of '<count> <type>'")
    force: dict[str, int] = defaultdict(int)
    for count, kind in zip(rest[::2], rest[1::2], strict=True):
        name = kind.lower()
        if name not in data.units and name.endswith("s") and name[:-1] in data.units:
            name = name[:-1]
        if not count.isdigit():
            raise OddsSpecError(text, f"{count!r} is not a number of units")
        if name not in data.units:
            raise OddsSpecError(text, f"unknown unit type {kind!r} (known: {', '.join(data.units)})")
        if data.units[name].category != category:
            raise OddsSpecError(text, f"{name} is not a {category} unit")
        force[name] += int(count)
    return odds(data, category, dice, dict(force))
