"""AAG data, validated: frozen records loaded from `data/*.toml` by `data.py`.

Side ids are "us" (the Allies) and "jp" (the Axis). Zone ids: sea zones "A".."M",
islands by lower-case name ("new_georgia"), base card zones by base ("rabaul",
"rabaul_sea", "new_caledonia", "new_caledonia_sea"). Every record keeps its `source`.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

Side = Literal["us", "jp"]
SIDES: tuple[str, str] = ("us", "jp")
CATEGORIES: tuple[str, str, str] = ("air", "sea", "land")
SUPPLY = "supply"  # supply tokens are pieces too: carried, captured and spent


def other(side: str) -> str:
    """The opposing side."""
    return "jp" if side == "us" else "us"


@dataclass(frozen=True)
class Island:
    """An island zone on the board (AAG Game Components: Island Zone)."""

    id: str
    name: str
    airfields: int  # capacity: airfield markers the island can hold
    chain: str
    seas: tuple[str, ...]
    source: str


@dataclass(frozen=True)
class Sea:
    """A sea zone A–M; `deployment` maps a side to its deployment number there (AAG Deploy)."""

    id: str
    role: Literal["ring", "slot", "open"]
    adjacent: tuple[str, ...]
    route_to_base: str | None
    deployment: dict[str, int]
    source: str


@dataclass(frozen=True)
class Base:
    """A base card: a land zone and a sea zone one move from its route-to-base zones."""

    id: str
    side: str
    name: str
    land: str
    sea: str
    routes: tuple[str, ...]  # derived: the sea zones whose route_to_base is this side
    source: str


@dataclass(frozen=True)
class Block:
    """Two sea zones an island separates: no sea move between them.

    AAG Examples of Sea Movement.
    """

    island: str
    seas: tuple[str, str]
    source: str


@dataclass(frozen=True)
class UnitType:
    """One unit type's cost, attack dice per category and special abilities (AAG Units)."""

    id: str
    name: str
    category: Literal["land", "sea", "air"]
    cost: int
    attack: dict[str, int]  # category -> dice
    abilities: frozenset[str]
    cargo: int  # spaces for land units and supplies (transport 2, destroyer 1)
    range: int  # air units: zones per Movement and per Regroup
    source: str

    @property
    def resilient(self) -> bool:
        return "resilience" in self.abilities

    @property
    def capital(self) -> bool:
        return "capital" in self.abilities


@dataclass(frozen=True)
class Neck:
    """The battle-box neck: the unit type named by each slot 1–12 per category (Appendix 2)."""

    slots: dict[str, tuple[str, ...]]
    hit_values: frozenset[int]
    source: str

    def slot_of(self, die_index: int) -> int:
        """Slot 1–12 of the die at 0-based position `die_index`; past 12 the box is used again."""
        return die_index % 12 + 1

    def type_at(self, category: str, slot: int) -> str:
        return self.slots[category][slot - 1]


@dataclass(frozen=True)
class Rules:
    """Numbers fixed by the manual (rules.toml)."""

    points_to_win: int
    income_base: int
    income_per_island: int
    build_cost: int
    airfield_air_capacity: int
    airfield_repair_cost: int
    carrier_capacity: int
    sea_repair_cost: int
    supply_cost: int
    first_player: str
    sources: dict[str, str]


@dataclass(frozen=True)
class SetupShip:
    side: str
    zone: str
    type: str
    cargo: dict[str, int]
    source: str


@dataclass(frozen=True)
class SetupPlace:
    side: str
    zone: str
    units: dict[str, int]
    source: str


@dataclass(frozen=True)
class Setup:
    """The starting position: airfields, control markers, units and supplies."""

    airfields: tuple[tuple[str, str, str], ...]  # (island, side, source)
    control: dict[str, str]  # island -> side
    control_source: str
    places: tuple[SetupPlace, ...]
    ships: tuple[SetupShip, ...]


@dataclass(frozen=True)
class Board:
    """Islands, sea zones and base cards, with the adjacency the rules use."""

    islands: dict[str, Island]
    seas: dict[str, Sea]
    bases: dict[str, Base]  # by side
    blocks: tuple[Block, ...]
    sea_graph: dict[str, frozenset[str]] = field(default_factory=dict)  # sea moves
    air_graph: dict[str, frozenset[str]] = field(default_factory=dict)  # air moves
    _distances: dict[tuple[str, frozenset[str]], dict[str, int]] = field(
        default_factory=dict, compare=False, repr=False
    )  # air_distances, computed once per start and barred zones

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

    def land_zones_by_sea(self, sea: str) -> list[str]:
        """Island (or base land) zones a ship in `sea` may load from or unload onto."""
        base = self.base_of_zone(sea)
        if base is not None:
            return [base.land]
        return [i for i, isl in self.islands.items() if sea in isl.seas]

    def air_distances(self, start: str, barred: frozenset[str] = frozenset()) -> dict[str, int]:
        """Fewest air moves from `start` to every zone, never entering `barred` zones
        (a shared table: do not change it)."""
        key = (start, barred)
        cached = self._distances.get(key)
        if cached is not None:
            return cached
        dist = {start: 0}
        queue = deque([start])
        while queue:
            zone = queue.popleft()
            for nxt in sorted(self.air_graph[zone]):
                if nxt not in dist and nxt not in barred:
                    dist[nxt] = dist[zone] + 1
                    queue.append(nxt)
        self._distances[key] = dist
        return dist


@dataclass(frozen=True)
class Token:
    """Advantage tokens of one kind for one side (AAG Appendix 1: Advantages)."""

    id: str
    side: str
    count: int
    window: str  # the step in which it may be spent ("move:any": any movement step)
    source: str


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
