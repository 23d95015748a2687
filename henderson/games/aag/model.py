"""AAG data, validated: the records of `data/*.toml`, each declared once as a frozen
dataclass that `data.py` reads through `core.data.read_records`, and the board built from
them.

Side ids are "us" (the Allies) and "jp" (the Axis). Zone ids: sea zones "A".."M",
islands by lower-case name ("new_georgia"), base card zones by base ("rabaul",
"rabaul_sea", "new_caledonia", "new_caledonia_sea"). Every record keeps its `source`.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Literal, cast

from henderson.core.data import check_source
from henderson.core.fields import field
from henderson.core.game import other_side
from henderson.core.paths import cheapest
from henderson.games.aag.actions import Action, act

Side = Literal["us", "jp"]
SIDES: tuple[Side, Side] = ("us", "jp")
OPPONENT: dict[str, Side] = {"us": "jp", "jp": "us"}
Category = Literal["air", "sea", "land"]
CATEGORIES: tuple[Category, Category, Category] = ("air", "sea", "land")
SUPPLY = "supply"  # supply tokens are pieces too: carried, captured and spent
MAX_COUNT = 99  # no count of the game's pieces comes near it (the box holds far fewer)
Ability = Literal["ranged_fire", "torpedo", "resilience", "flight_deck", "capital", "heavy_armor", "token"]


def other(side: str) -> Side:
    """The opposing side (`core.game.other_side`, looked up: the rules ask at every turn)."""
    found = OPPONENT.get(side)
    return found if found is not None else cast(Side, other_side(SIDES, side))


class Advantage(enum.StrEnum):
    """The advantage tokens the engine knows (AAG Appendix 1: Advantages)."""

    COMMAND_DECISION = "command_decision"
    BANZAI_CHARGE = "banzai_charge"
    NIGHT_FIGHTING = "night_fighting"
    QUICK_DROP = "quick_drop"
    SUPERIOR_FIGHTERS = "superior_fighters"
    GOOD_LOGISTICS = "good_logistics"
    AMPHIBIOUS_ASSAULT = "amphibious_assault"
    PT_BOATS = "pt_boats"
    COAST_WATCHERS = "coast_watchers"


# -- the records of the data files ------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Manifest:
    """`game.toml`: what this data directory is."""

    game: Literal["aag"]
    title: str
    data_version: str  # an edition label, for people (the engine hashes the files)
    source: str = field(check=check_source)


@dataclass(frozen=True, kw_only=True)
class Island:
    """An island zone on the board (AAG Game Components: Island Zone)."""

    id: str
    name: str
    airfields: int = field(lo=0, hi=4)  # capacity: airfield markers the island can hold
    chain: str
    seas: tuple[str, ...]
    source: str = field(check=check_source)


@dataclass(frozen=True, kw_only=True)
class Sea:
    """A sea zone A–M; `deployment` maps a side to its deployment number there (AAG Deploy)."""

    id: str
    role: Literal["ring", "slot", "open"]
    adjacent: tuple[str, ...]
    route_to_base: Side | None = None
    deployment: dict[Side, int] = field(factory=dict, lo=1, hi=MAX_COUNT)
    source: str = field(check=check_source)


@dataclass(frozen=True, kw_only=True)
class Base:
    """A base card: a land zone and a sea zone one move from its route-to-base zones."""

    id: str
    side: Side
    name: str
    land: str
    sea: str
    source: str = field(check=check_source)
    routes: tuple[str, ...] = field((), cache="share")  # derived: the seas whose route_to_base is this side


@dataclass(frozen=True, kw_only=True)
class Block:
    """Two sea zones an island separates: no sea move between them (AAG Examples of Sea
    Movement)."""

    island: str
    seas: tuple[str, ...]
    source: str = field(check=check_source)


@dataclass(frozen=True, kw_only=True)
class UnitType:
    """One unit type's cost, attack dice per category and special abilities (AAG Units)."""

    id: str
    name: str
    category: Category
    cost: int = field(lo=0, hi=MAX_COUNT)
    dice: tuple[int, ...] = field(json="attack", lo=0, hi=12)  # [air, sea, land]
    abilities: frozenset[Ability]
    cargo: int = field(0, lo=0, hi=4)  # spaces for land units and supplies (transport 2, destroyer 1)
    range: int = field(0, lo=0, hi=9)  # air units: zones per Movement and per Regroup
    source: str = field(check=check_source)

    @cached_property
    def attack(self) -> dict[str, int]:
        """Attack dice against each category."""
        return dict(zip(CATEGORIES, self.dice, strict=False))

    @property
    def resilient(self) -> bool:
        return "resilience" in self.abilities

    @property
    def capital(self) -> bool:
        return "capital" in self.abilities


@dataclass(frozen=True, kw_only=True)
class Neck:
    """The battle-box neck: the unit type named by each slot 1–12 per category (Appendix 2)."""

    air: tuple[str, ...]
    sea: tuple[str, ...]
    land: tuple[str, ...]
    hit_values: frozenset[int] = field(lo=1, hi=6)
    source: str = field(check=check_source)

    @cached_property
    def slots(self) -> dict[str, tuple[str, ...]]:
        return {"air": self.air, "sea": self.sea, "land": self.land}

    def slot_of(self, die_index: int) -> int:
        """Slot 1–12 of the die at 0-based position `die_index`; past 12 the box is used again."""
        return die_index % 12 + 1

    def type_at(self, category: str, slot: int) -> str:
        return self.slots[category][slot - 1]


# rules.toml: one table per subject, each with its source


@dataclass(frozen=True, kw_only=True)
class Victory:
    points_to_win: int = field(lo=1, hi=MAX_COUNT)
    source: str = field(check=check_source)


@dataclass(frozen=True, kw_only=True)
class Income:
    base: int = field(lo=0, hi=MAX_COUNT)
    per_island: int = field(lo=0, hi=MAX_COUNT)
    source: str = field(check=check_source)


@dataclass(frozen=True, kw_only=True)
class AirfieldRules:
    build_cost: int = field(lo=1, hi=MAX_COUNT)  # supply tokens spent on the island
    air_capacity: int = field(lo=1, hi=MAX_COUNT)  # air units per undamaged airfield marker
    repair_cost: int = field(lo=0, hi=MAX_COUNT)  # supply tokens spent on the island
    source: str = field(check=check_source)


@dataclass(frozen=True, kw_only=True)
class Carriers:
    fighter_capacity: int = field(lo=0, hi=MAX_COUNT)
    source: str = field(check=check_source)


@dataclass(frozen=True, kw_only=True)
class Repair:
    sea_unit_cost: int = field(lo=0, hi=MAX_COUNT)  # supply tokens at the home base per damaged sea unit
    source: str = field(check=check_source)


@dataclass(frozen=True, kw_only=True)
class SupplyCost:
    cost: int = field(lo=0, hi=MAX_COUNT)
    source: str = field(check=check_source)


@dataclass(frozen=True, kw_only=True)
class FirstPlayer:
    side: Side
    source: str = field(check=check_source)


@dataclass(frozen=True)
class Rules:
    """Numbers fixed by the manual (rules.toml), one table each."""

    victory: Victory
    income: Income
    airfields: AirfieldRules
    carriers: Carriers
    repair: Repair
    supply: SupplyCost
    first: FirstPlayer

    @property
    def points_to_win(self) -> int:
        return self.victory.points_to_win

    @property
    def income_base(self) -> int:
        return self.income.base

    @property
    def income_per_island(self) -> int:
        return self.income.per_island

    @property
    def build_cost(self) -> int:
        return self.airfields.build_cost

    @property
    def airfield_air_capacity(self) -> int:
        return self.airfields.air_capacity

    @property
    def airfield_repair_cost(self) -> int:
        return self.airfields.repair_cost

    @property
    def carrier_capacity(self) -> int:
        return self.carriers.fighter_capacity

    @property
    def sea_repair_cost(self) -> int:
        return self.repair.sea_unit_cost

    @property
    def supply_cost(self) -> int:
        return self.supply.cost

    @property
    def first_player(self) -> Side:
        return self.first.side


# setup.toml


@dataclass(frozen=True, kw_only=True)
class SetupAirfield:
    island: str
    side: Side
    source: str = field(check=check_source)


@dataclass(frozen=True, kw_only=True)
class SetupControl:
    """The control markers: the islands each side controls at the start."""

    us: tuple[str, ...]
    jp: tuple[str, ...]
    source: str = field(check=check_source)


@dataclass(frozen=True, kw_only=True)
class SetupPlace:
    """Pieces placed in one zone: type (or `supply`) -> count."""

    side: Side
    zone: str
    units: dict[str, int] = field(lo=0, hi=MAX_COUNT)
    source: str = field(check=check_source)


@dataclass(frozen=True, kw_only=True)
class SetupShip:
    """One sea unit with its cargo: type (land units, supplies, or fighters on a carrier) -> count."""

    side: Side
    zone: str
    type: str
    cargo: dict[str, int] = field(factory=dict, lo=0, hi=MAX_COUNT)
    source: str = field(check=check_source)


@dataclass(frozen=True)
class Setup:
    """The starting position: airfields, control markers, units and supplies."""

    airfields: tuple[SetupAirfield, ...]
    markers: SetupControl
    places: tuple[SetupPlace, ...]
    ships: tuple[SetupShip, ...]

    @cached_property
    def control(self) -> dict[str, Side]:
        """Island -> the side whose control marker is on it."""
        out: dict[str, Side] = dict.fromkeys(self.markers.us, "us")
        out.update(dict.fromkeys(self.markers.jp, "jp"))
        return out


@dataclass(frozen=True, kw_only=True)
class Token:
    """Advantage tokens of one kind for one side (AAG Appendix 1: Advantages)."""

    id: Advantage
    side: Side
    count: int = field(lo=0, hi=8)
    window: str  # the step in which it may be spent ("move:any": any movement step)
    source: str = field(check=check_source)


# -- the board and everything the rules read ------------------------------------------------------


@dataclass(frozen=True)
class Board:
    """Islands, sea zones and base cards, with the adjacency the rules use."""

    islands: dict[str, Island]
    seas: dict[str, Sea]
    bases: dict[str, Base]  # by side
    blocks: tuple[Block, ...]
    sea_graph: dict[str, frozenset[str]]  # sea moves
    air_graph: dict[str, frozenset[str]]  # air moves
    _distances: dict[tuple[str, frozenset[str]], dict[str, int]] = dataclasses.field(
        default_factory=dict, compare=False, repr=False
    )  # air_distances, computed once per start and barred zones
    _reach: dict[tuple[str, frozenset[str]], tuple[tuple[str, int], ...]] = dataclasses.field(
        default_factory=dict, compare=False, repr=False
    )  # air_reach, likewise
    _destinations: dict[tuple[str, frozenset[str], int], tuple[str, ...]] = dataclasses.field(
        default_factory=dict, compare=False, repr=False
    )  # sea_destinations and air_destinations, likewise

    def zone_ids(self) -> list[str]:
        ids = [*self.seas, *self.islands]
        for base in self.bases.values():
            ids += [base.land, base.sea]
        return ids

    def is_island(self, zone: str) -> bool:
        return zone in self.islands

    def is_sea(self, zone: str) -> bool:
        return zone in self.seas or any(b.sea == zone for b in self.bases.values())

    def base_of_zone(self, zone: str) -> Base | None:
        for base in self.bases.values():
            if zone in (base.land, base.sea):
                return base
        return None

    def land_zones_by_sea(self, sea: str) -> tuple[str, ...]:
        """Island (or base land) zones a ship in `sea` may load from or unload onto (a
        shared table)."""
        return self._shores.get(sea, ())

    @cached_property
    def _shores(self) -> dict[str, tuple[str, ...]]:
        """`land_zones_by_sea` for every sea zone and base sea zone, found once."""
        shores = {sea: tuple(i for i, isl in self.islands.items() if sea in isl.seas) for sea in self.seas}
        for base in self.bases.values():  # a base card: its land zone, from either of its zones
            shores[base.sea] = shores[base.land] = (base.land,)
        return shores

    def air_reach(self, start: str, barred: frozenset[str] = frozenset()) -> tuple[tuple[str, int], ...]:
        """`air_distances` as (zone, moves) pairs in zone order (a shared table)."""
        key = (start, barred)
        cached = self._reach.get(key)
        if cached is None:
            cached = self._reach[key] = tuple(sorted(self.air_distances(start, barred).items()))
        return cached

    @cached_property
    def base_zones(self) -> dict[str, frozenset[str]]:
        """Each side's base card: its land and sea zone (by side)."""
        return {side: frozenset((base.land, base.sea)) for side, base in self.bases.items()}

    @cached_property
    def combat_zones(self) -> dict[str, tuple[str, ...]]:
        """By combat category, the zones where units of that category can be fought, in zone
        order: air units in any board zone, sea units at sea, land units on islands (the
        base cards are never fought in)."""
        return {
            "air": tuple(sorted([*self.seas, *self.islands])),
            "sea": tuple(sorted(self.seas)),
            "land": tuple(sorted(self.islands)),
        }

    def sea_destinations(self, start: str, barred: frozenset[str]) -> tuple[str, ...]:
        """The sea zones next to `start` but `barred`, in zone order (a shared table)."""
        key = (start, barred, -1)  # the air destinations' table, with no range of its own
        found = self._destinations.get(key)
        if found is None:
            found = self._destinations[key] = tuple(sorted(self.sea_graph[start] - barred))
        return found

    def air_destinations(self, start: str, barred: frozenset[str], reach: int) -> tuple[str, ...]:
        """The zones 1 to `reach` air moves from `start`, never through `barred`, in zone
        order (a shared table)."""
        key = (start, barred, reach)
        found = self._destinations.get(key)
        if found is None:
            dests = tuple(zone for zone, d in self.air_reach(start, barred) if 0 < d <= reach)
            found = self._destinations[key] = dests
        return found

    def air_within(self, start: str, barred: frozenset[str], reach: int) -> tuple[str, ...]:
        """The zones 0 to `reach` air moves from `start` (itself among them), never through
        `barred`, in zone order (a shared table): where an air unit there may land."""
        key = (start, barred, -2 - reach)  # the destinations' table, apart from theirs
        found = self._destinations.get(key)
        if found is None:
            found = self._destinations[key] = tuple(zone for zone, d in self.air_reach(start, barred) if d <= reach)
        return found

    def air_distances(self, start: str, barred: frozenset[str] = frozenset()) -> dict[str, int]:
        """Fewest air moves from `start` to every zone, never entering `barred` zones
        (`core.paths.cheapest`, one move per zone; a shared table: do not change it)."""
        key = (start, barred)
        cached = self._distances.get(key)
        if cached is not None:
            return cached
        graph = self.air_graph

        def steps(zone: str, cost: int) -> list[tuple[str, int, bool, None]]:
            return [(n, 1, False, None) for n in sorted(graph[zone]) if n not in barred]

        dist = cheapest({start: 0}, steps).cost
        self._distances[key] = dist
        return dist


@dataclass(frozen=True)
class GameData:
    """Everything the AAG rules read from data."""

    board: Board
    units: dict[str, UnitType]
    neck: Neck
    rules: Rules
    setup: Setup
    data_version: str
    data_dir: Path
    advantages: tuple[Token, ...] = ()

    @cached_property
    def kinds_by_category(self) -> dict[str, tuple[str, ...]]:
        """The unit types of each category ("land", "sea", "air"), in data order (supply
        tokens are no unit type)."""
        found: dict[str, tuple[str, ...]] = {}
        for kind, unit in self.units.items():
            found[unit.category] = (*found.get(unit.category, ()), kind)
        return found

    @cached_property
    def category_kinds(self) -> dict[str, frozenset[str]]:
        """`kinds_by_category` as sets, to tell a piece's category by its type (a supply
        token is of none)."""
        return {cat: frozenset(kinds) for cat, kinds in self.kinds_by_category.items()}

    @cached_property
    def land_pieces(self) -> frozenset[str]:
        """The types of the pieces that go ashore and ride as cargo: the land units and the
        supply tokens."""
        return frozenset((*self.kinds_by_category.get("land", ()), SUPPLY))

    @cached_property
    def purchases(self) -> tuple[tuple[str, int], ...]:
        """What a side may buy at Reinforce, (type, cost), from the most expensive (ties in
        data order, supply tokens last among their cost): the order purchases are listed in
        (`rules.reinforce.Reinforce`). Advantage tokens are no purchase."""
        costs = {kind: unit.cost for kind, unit in self.units.items() if "token" not in unit.abilities}
        costs[SUPPLY] = self.rules.supply_cost
        return tuple((kind, costs[kind]) for kind in sorted(costs, key=lambda k: -costs[k]))

    @cached_property
    def attackers(self) -> dict[str, tuple[frozenset[str], frozenset[str]]]:
        """By combat category, the unit types that add dice against it (an attack above 0),
        and those of them that are no land unit (those that may attack airfields, AAG Combat
        step 4)."""
        found: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
        for cat in CATEGORIES:
            able = frozenset(kind for kind, unit in self.units.items() if unit.attack[cat] > 0)
            found[cat] = (able, frozenset(k for k in able if self.units[k].category != "land"))
        return found

    @cached_property
    def purchase_table(self) -> tuple[tuple[int, ...], tuple[Action, ...]]:
        """`purchases` as the negated costs (rising, for a search by halves) and the actions
        `buy TYPE` in that order: those a number of points pays for are a tail of them."""
        return tuple(-cost for _, cost in self.purchases), tuple(act("buy", kind) for kind, _ in self.purchases)

    @cached_property
    def air_kinds(self) -> tuple[str, ...]:
        """The unit types of the air category (fighters and bombers), in data order."""
        return self.kinds_by_category.get("air", ())
