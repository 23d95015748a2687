"""Exact odds of a battle-box attack: the distribution of casualties by unit type for N dice
against a force, computed by dynamic programming over the dice in slot order (no sampling).
The DP counts the ways each outcome arises among the 6**N equally likely rolls, in
integers, and divides once at the end. A type hit only by its own slots is counted apart
from the rest until it is wiped out or takes the hits of other slots (`_battle`), so even
the largest battles take milliseconds, and a preview sums each type's chances without
listing every joint outcome (`Odds.by_type`).

Each die is a miss (3–6, 4/6), a 1 (1/6) or a 2 (1/6); a hit falls on the type its slot
names or is redirected up the neck; heavy armour, resilience and damaged-before-destroyed
follow AAG Declare Your Hits and Damaging and Destroying Units. Which unit of a type is hit
(a 1 or a 2 choice) does not change the counts, so it is left out.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from math import prod
from typing import TYPE_CHECKING, Any, NamedTuple

from henderson.core.errors import HendersonError, NotationError
from henderson.games.aag.model import CATEGORIES, SIDES, GameData
from henderson.games.aag.rules.battlebox import effect, target_type

if TYPE_CHECKING:
    from henderson.games.aag.state import AAGState

SPEC_FORMS = (
    "'<dice> <air|sea|land>: <count> <type>, ...', '<dice> airfields: <number of airfields>'"
    " or, with a position, '<zone> <air|sea|land|airfields> <us|jp>'"
)


MAX_BATTLE_STATES = 5_000  # partial battles kept at once: tens of milliseconds of work, then refused
MAX_OUTCOMES = 200_000  # joint outcomes written out at once (`Odds.outcomes`), then refused


class OddsTooLarge(HendersonError):
    """A battle whose exact odds would take too long to work out (a preview is never allowed
    to run for minutes): one line saying so."""


class OddsSpecError(NotationError):
    """An odds request that cannot be read or names no attack: one line saying what is wrong."""

    def __init__(self, text: str, message: str) -> None:
        ValueError.__init__(self, f"cannot read odds {text!r}: {message}")
        self.text = text
        self.message = message


Outcome = tuple[tuple[str, int, int], ...]  # (type, destroyed, damaged) for each type of the force
_Result = tuple[int, int]  # one type's units destroyed and damaged
_Results = tuple[tuple[_Result, int], ...]  # a type's results, each with the ways of the dice to it


class _Row(NamedTuple):
    """Outcomes in product form: `ways` of the rolls leave exactly the types of `present` (bit
    `j` for type `j`), the `leader`'s units with `result`, every other type present with the
    results of its own dice (`Odds.apart`), every type not present all destroyed."""

    ways: int
    present: int
    leader: int  # -1 when no unit is left
    result: _Result


@dataclass(frozen=True)
class Odds:
    """The casualties of an attack, exact: for each type, the chance of each (destroyed,
    damaged) (`by_type`, what a preview shows), and the joint chance of every outcome
    (`outcomes`, listed from the rows only when asked for). Every chance is a number of the
    6**dice equally likely rolls over all of them."""

    category: str
    dice: int
    force: dict[str, int]
    rows: tuple[_Row, ...] = field(repr=False)
    apart: tuple[_Results, ...] = field(repr=False)  # each type's results while hit by its own slots only

    @cached_property
    def outcomes(self) -> dict[Outcome, Fraction]:
        """{((type, destroyed, damaged), ...): probability} for every outcome, types in the
        order of `force`; refused past MAX_OUTCOMES (the preview never needs them)."""
        size = sum(prod(len(r) for r in self._results(row)) for row in self.rows)
        if size > MAX_OUTCOMES:
            raise OddsTooLarge(
                f"the {size} outcomes of {self.dice} dice against {sum(self.force.values())} {self.category} "
                "units are too many to list; the chances for each unit type are in the preview"
            )
        rolls = 6**self.dice
        counts: dict[Outcome, int] = defaultdict(int)
        for row in self.rows:
            partial: list[tuple[Outcome, int]] = [((), row.ways)]
            for kind, results in zip(self.force, self._results(row), strict=True):
                partial = [((*key, (kind, *r)), n * m) for key, n in partial for r, m in results]
            for key, n in partial:
                counts[key] += n
        return {key: Fraction(n, rolls) for key, n in counts.items()}

    def _results(self, row: _Row) -> list[_Results]:
        """Each type's results in `row`."""
        return [
            self.apart[j] if j != row.leader and row.present >> j & 1
            else ((row.result, 1),) if j == row.leader
            else (((size, 0), 1),)
            for j, size in enumerate(self.force.values())
        ]

    def by_type(self) -> dict[str, dict[tuple[int, int], Fraction]]:
        """For each type: {(destroyed, damaged): probability}, summed from the rows without
        listing the outcomes: in a row, a type's result counts with the ways of every
        combination of the other types' results. The rows of one set of types present share
        their leader and the types kept apart, so those are counted once a set."""
        totals = [sum(m for _, m in results) for results in self.apart]
        leaders: dict[int, int] = {}  # each set of types present: its leader
        apart_ways: dict[int, int] = {}  # the ways of all the results of its types kept apart
        present_ways: dict[int, int] = defaultdict(int)  # the ways of its rows
        ways: list[dict[_Result, int]] = [defaultdict(int) for _ in self.force]
        for row in self.rows:
            if row.present not in leaders:
                leaders[row.present] = row.leader
                apart_ways[row.present] = prod(
                    totals[j] for j in range(len(totals)) if j != row.leader and row.present >> j & 1
                )
            present_ways[row.present] += row.ways
            if row.leader >= 0:
                ways[row.leader][row.result] += row.ways * apart_ways[row.present]
        for present, n in present_ways.items():
            whole = n * apart_ways[present]
            if not whole:
                continue
            for j, size in enumerate(self.force.values()):
                if not present >> j & 1:
                    ways[j][(size, 0)] += whole
                elif j != leaders[present]:
                    share = whole // totals[j]
                    for result, m in self.apart[j]:
                        ways[j][result] += share * m
        rolls = 6**self.dice
        return {
            kind: {result: Fraction(n, rolls) for result, n in sorted(dist.items())}
            for kind, dist in zip(self.force, ways, strict=True)
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
    box = _Box(data, category, kinds, night, banzai)
    rows, apart = _battle(box, dice, start)
    return Odds(category, dice, {k: force[k] for k in kinds}, rows, apart)


def _faces(night: bool, banzai: bool) -> tuple[int, list[tuple[int, int]]]:
    """What one die does: how many of its 6 faces miss, and for each value that hits how
    many faces read it. A 1 or a 2 hits (AAG Declare Your Hits); Night Fighting reads a 2 as
    a 1, Banzai Charge a 3 hits."""
    hits = [(1, 2)] if night else [(1, 1), (2, 1)]
    if banzai:
        hits.append((3, 1))
    return 6 - sum(n for _, n in hits), hits


_Units = tuple[int, int, int, int]  # one type's units: undamaged, damaged, destroyed, heavy armour left
_Chain = dict[_Units, int]  # a type's states that still hold a unit, with the ways of its dice to each
_Partial = tuple[int, _Units | None]  # the types present (a bit each) and the leader's units


def _battle(box: _Box, dice: int, start: tuple[_Units, ...]) -> tuple[tuple[_Row, ...], tuple[_Results, ...]]:
    """The dice rolled in slot order, counting the ways of the rolls to each partial outcome.

    Only one type takes the hits of slots naming a type not present: the leader (AAG Hitting
    Units the Enemy Doesn't Have; Appendix 1 PT Boats). Every other type is hit by its own
    slots alone while it lasts, so its units depend on its own dice only: each is kept apart,
    as a chain of its states, until it is wiped out or becomes the leader. A partial outcome
    is then only the types present and the leader's units: far fewer than all the types'
    units together, and the same exact counts.
    """
    apart: list[_Chain] = [{units: 1} for units in start]
    leaders, moves = box.leaders, box.moves  # read once: the loop below runs thousands of times
    everyone = (1 << len(start)) - 1
    first = leaders[everyone]
    ways: dict[_Partial, int] = {(everyone, None if first < 0 else start[first]): 1}
    for i in range(dice):
        slot = box.data.neck.slot_of(i)
        named = box.named(slot)
        if named >= 0:
            survivors, wiped_out = box.roll(named, apart[named])
        nxt: dict[_Partial, int] = defaultdict(int)
        for (present, lead), n in ways.items():
            j = leaders[present]
            if named >= 0 and named != j and present >> named & 1:
                nxt[(present, lead)] += n  # the slot's own type, kept apart: its chain counts the die
                if wiped_out:
                    nxt[(present & ~(1 << named), lead)] += n * wiped_out
            elif lead is None:  # no unit left: the hits fall on nothing
                nxt[(present, lead)] += 6 * n
            else:
                for after, faces in moves(j, lead):
                    if after is not None:
                        nxt[(present, after)] += n * faces
                        continue
                    rest = present & ~(1 << j)  # the leader wiped out: the next type present leads
                    heir = leaders[rest]
                    if heir < 0:
                        nxt[(rest, None)] += n * faces
                    else:
                        for heir_units, m in apart[heir].items():
                            nxt[(rest, heir_units)] += n * faces * m
        if named >= 0:
            apart[named] = survivors
        ways = nxt
        if len(ways) > MAX_BATTLE_STATES:
            raise OddsTooLarge(
                f"the exact odds of {dice} dice against {sum(sum(units[:3]) for units in start)} {box.category} units "
                "are too long to work out; preview a smaller part of the battle"
            )
    merged: dict[tuple[int, _Result], int] = defaultdict(int)
    for (present, lead), n in ways.items():
        merged[(present, (0, 0) if lead is None else (lead[2], lead[1]))] += n
    rows = tuple(_Row(n, present, box.leaders[present], result) for (present, result), n in merged.items())
    return rows, tuple(_results(chain) for chain in apart)


def _results(chain: _Chain) -> _Results:
    """A chain's results (destroyed, damaged), heavy armour left no longer told apart."""
    found: dict[_Result, int] = defaultdict(int)
    for units, n in chain.items():
        found[(units[2], units[1])] += n
    return tuple(found.items())


class _Box:
    """The battle box's rules for one force (AAG Declare Your Hits, Hitting Units the Enemy
    Doesn't Have, Damaging and Destroying Units, Heavy Armor), each answer worked out once
    per odds: the type each slot names, the leader of each set of types present (bit `j`
    for `kinds[j]`), and what a die does to a type's units. Type -1 is none."""

    def __init__(self, data: GameData, category: str, kinds: list[str], night: bool, banzai: bool) -> None:
        self.data, self.category, self.kinds = data, category, kinds
        self.misses, self.hits = _faces(night, banzai)
        self.index = {k: j for j, k in enumerate(kinds)}
        self.leaders = [self._leader(present) for present in range(1 << len(kinds))]
        self.known: dict[tuple[int, _Units], list[tuple[_Units | None, int]]] = {}

    def named(self, slot: int) -> int:
        """The type `slot` names, or -1 when the force has none."""
        return self.index.get(self.data.neck.type_at(self.category, slot), -1)

    def _leader(self, present: int) -> int:
        """The type that takes the hits of slots naming a type not present: a PT boat (AAG
        Appendix 1 PT Boats), else the first type present reading up the neck from slot 1
        (AAG Hitting Units the Enemy Doesn't Have)."""
        names = [k for j, k in enumerate(self.kinds) if present >> j & 1]
        kind = "pt_boat" if "pt_boat" in names else target_type(self.data.neck, self.category, 1, names)
        return -1 if kind is None else self.index[kind]

    def moves(self, j: int, units: _Units) -> list[tuple[_Units | None, int]]:
        """What one die on type `j` does to its units: each result (None when wiped out) with
        the faces that give it, a miss included."""
        key = (j, units)
        found = self.known.get(key)
        if found is None:
            found = [(units, self.misses)]
            for value, faces in self.hits:
                after = _struck(self.data, self.kinds[j], units, value)
                found.append((after if after[0] + after[1] else None, faces))
            self.known[key] = found
        return found

    def roll(self, j: int, chain: _Chain) -> tuple[_Chain, int]:
        """One die on type `j` kept apart: its chain after the die, and the ways the die wipes
        it out."""
        after: _Chain = defaultdict(int)
        wiped_out = 0
        for units, n in chain.items():
            for hit, faces in self.moves(j, units):
                if hit is None:
                    wiped_out += n * faces
                else:
                    after[hit] += n * faces
        return after, wiped_out


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
