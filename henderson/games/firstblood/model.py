"""FIRST BLOOD data, validated: frozen records loaded from `data/*.toml` by `data.py`.

Side ids are "us" and "jp". Hex ids are the printed RRCC numbers (docs/data.md).
Every record keeps its `source` (provenance, docs/data.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from henderson.core.hexgrid import OffsetLayout

Side = Literal["us", "jp"]
SIDES: tuple[Side, Side] = ("us", "jp")
Terrain = Literal["clear", "jungle", "ridge"]
HexsideType = Literal["clear", "jungle", "ridge", "river", "ford"]
ResultCode = Literal["AE", "A2", "A1", "EX", "DR", "D1", "DE"]
ODDS_COLUMNS: tuple[str, ...] = ("1-2", "1-1", "2-1", "3-1")  # FB 8.6
RESULT_CODES: tuple[str, ...] = ("AE", "A2", "A1", "EX", "DR", "D1", "DE")  # FB 8.10

# FB hex numbers: RRCC, rows south to north, columns east to west; even rows are
# shoved half a hex toward higher column numbers (docs/data.md, hex numbers).
FB_LAYOUT = OffsetLayout(parity="even-r", order="row-col", digits=2)


@dataclass(frozen=True)
class MapHex:
    id: str
    terrain: Terrain
    source: str


@dataclass(frozen=True)
class Airfield:
    """Henderson Field (two hexes, operational at start) or the Fighter Strip (built by engineers)."""

    id: str  # "henderson" or "fighter_strip"
    name: str
    kind: Literal["airfield", "fighter_strip"]
    hexes: tuple[str, ...]
    built: bool  # at the start of the game
    source: str


@dataclass(frozen=True)
class EntryPoint:
    number: int
    side: Side
    circled: bool
    arrows: tuple[str, ...]  # the hexes its arrows point to
    source: str


@dataclass(frozen=True)
class Box:
    """An off-board movement box on the south edge (FB 6.0)."""

    id: str  # "A".."D"
    order: int  # position along the south edge; boxes of adjacent order are adjacent
    arrows: tuple[str, ...]
    reinforcement: bool  # Japanese reinforcements may be placed here (A and D, FB 7.2)
    source: str


@dataclass(frozen=True)
class HoldingBox:
    id: str  # usaf_reserve, usaf_cap, usaf_ground_attack, ijaf_reserve, ijaf_attack, ijn_reserve, ijn_attack
    name: str
    side: Side
    source: str


@dataclass(frozen=True)
class MapLabel:
    """A place name printed on the map (Lunga Point, Edson's Ridge ...), for drawing only."""

    text: str
    hex: str  # the hex the name is centred on
    source: str


@dataclass(frozen=True)
class MapData:
    hexes: dict[str, MapHex]
    hexsides: dict[tuple[str, str], tuple[HexsideType, str]]  # key: sorted id pair -> (type, source)
    airfields: dict[str, Airfield]
    entry_points: dict[int, EntryPoint]
    boxes: dict[str, Box]
    holding_boxes: dict[str, HoldingBox]
    setup_rows: tuple[int, int]  # FB 3.0 US set-up area, inclusive
    setup_cols: tuple[int, int]
    layout: OffsetLayout = FB_LAYOUT
    labels: tuple[MapLabel, ...] = ()

    def hexside_type(self, a: str, b: str) -> HexsideType:
        """The type of the hexside between adjacent hexes a and b ("clear" when not listed)."""
        key = (a, b) if a < b else (b, a)
        entry = self.hexsides.get(key)
        return entry[0] if entry else "clear"


@dataclass(frozen=True)
class GroundUnit:
    id: str  # as printed, e.g. "1/5", "6DB", "228/1", "SUY"
    name: str
    side: Side
    kind: str  # infantry, raider, parachute, engineer, artillery, tank, ...
    cf: int  # combat factor (FB 8.3)
    range: int | None  # artillery only (FB 9.1)
    mf: int  # movement factor (FB 4.0)
    source: str

    @property
    def is_artillery(self) -> bool:
        return self.range is not None  # FB 9.1

    @property
    def is_engineer(self) -> bool:
        return self.kind == "engineer"


@dataclass(frozen=True)
class AirType:
    id: str  # e.g. "F4F", "SBD", "Zero", "Betty"
    name: str
    side: Side
    roles: tuple[Literal["fighter", "bomber"], ...]  # F4F has both (FB 13.1)
    source: str

    @property
    def is_fighter(self) -> bool:
        return "fighter" in self.roles

    @property
    def is_bomber(self) -> bool:
        return "bomber" in self.roles


@dataclass(frozen=True)
class ShipType:
    id: str  # e.g. "DD", "CL", "CA", "BB"
    name: str
    source: str


@dataclass(frozen=True)
class AirUnit:
    """One air counter, numbered from the Turn Record Chart counts: "<type>-<n>"."""

    id: str
    type: str  # AirType.id
    side: Side
    arrives: str  # turn name, or "start"


@dataclass(frozen=True)
class Ship:
    """One Japanese naval counter: "<type>-<n>", or an id given for the special box."""

    id: str
    type: str  # ShipType.id
    arrives: str  # turn name, "start", or "special" for the special IJN box (FB 10.1)


@dataclass(frozen=True)
class Reinforcement:
    """What one side receives on one turn ("start" for the at-start forces)."""

    turn: str
    side: Side
    units: tuple[str, ...]
    air: dict[str, int]
    naval: dict[str, int]
    source: str


@dataclass(frozen=True)
class SpecialShips:
    """The special IJN box: committed once, on `earliest` or a later turn (FB 10.1)."""

    ships: tuple[str, ...]  # ship ids
    earliest: str
    source: str


@dataclass(frozen=True)
class CombatTable:
    """An attack table (FB 8.9): results by odds column and die 1..6."""

    attacker: Side  # "us": American Attack Table, "jp": Japanese Attack Table
    name: str
    results: dict[str, tuple[str, ...]]  # column -> six result codes for die 1..6
    source: str


@dataclass(frozen=True)
class Placement:
    """A default set-up placement (FB 3.0, 3.1): a ground unit to a hex or box, an air unit to a hex or box."""

    unit: str
    at: str  # hex id, box id "A".."D", or holding box id
    source: str


@dataclass(frozen=True)
class FBData:
    directory: Path
    data_version: str
    map: MapData
    ground: dict[str, GroundUnit]
    air_types: dict[str, AirType]
    ship_types: dict[str, ShipType]
    air: dict[str, AirUnit]
    ships: dict[str, Ship]
    turns: tuple[str, ...]  # "SEP I" ... "JAN III" (FB 2.0)
    reinforcements: tuple[Reinforcement, ...]
    special_ships: SpecialShips
    tables: dict[Side, CombatTable]
    setup: tuple[Placement, ...] = field(default=())

    def arrivals(self, turn: str, side: Side) -> Reinforcement | None:
        for r in self.reinforcements:
            if r.turn == turn and r.side == side:
                return r
        return None
