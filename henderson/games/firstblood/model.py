"""FIRST BLOOD data, validated: the records of `data/*.toml`, declared once (`core.fields`)
and read by `data.py` with `core.data.read_records`, and the model built from them.

Side ids are "us" and "jp". Hex ids are the printed RRCC numbers (docs/data.md).
Every record keeps its `source` (provenance, docs/data.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from henderson.core.fields import field
from henderson.core.hexgrid import OffsetLayout

Side = Literal["us", "jp"]
SIDES: tuple[Side, Side] = ("us", "jp")
Terrain = Literal["clear", "jungle", "ridge"]
HexsideType = Literal["clear", "jungle", "ridge", "river", "ford"]
Role = Literal["fighter", "bomber"]
ODDS_COLUMNS: tuple[str, ...] = ("1-2", "1-1", "2-1", "3-1")  # FB 8.6
RESULT_CODES: tuple[str, ...] = ("AE", "A2", "A1", "EX", "DR", "D1", "DE")  # FB 8.10
MAX_FACTOR = 99  # no combat factor, movement factor or range of a counter comes near it
MAX_COUNT = 99  # counters of one type arriving on one turn: validated before any is built

# FB hex numbers: RRCC, rows south to north, columns east to west; even rows are
# shoved half a hex toward higher column numbers (docs/data.md, hex numbers).
FB_LAYOUT = OffsetLayout(parity="even-r", order="row-col", digits=2)


# --- records as the data files write them ------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Manifest:
    """game.toml: which game the directory is for, and an edition label for people."""

    game: str
    title: str
    data_version: str = ""
    source: str = ""


@dataclass(frozen=True, kw_only=True)
class MapHex:
    id: str
    terrain: Terrain
    source: str = ""


@dataclass(frozen=True, kw_only=True)
class HexsideDefaults:
    """The type of an unlisted hexside, from the terrain of its hexes (first match wins)."""

    by_terrain: tuple[Literal["ridge", "jungle"], ...]
    source: str = ""


@dataclass(frozen=True, kw_only=True)
class Hexsides:
    """Hexsides of one type, each "RRCC-RRCC"."""

    type: HexsideType
    hexsides: tuple[str, ...]
    source: str = ""


@dataclass(frozen=True, kw_only=True)
class River:
    """A river as a connected chain of hexsides (FB 4.2, 4.4, 8.7.3)."""

    name: str
    hexsides: tuple[str, ...]
    source: str = ""


@dataclass(frozen=True, kw_only=True)
class Airfield:
    """Henderson Field (two hexes, operational at start) or the Fighter Strip (built by engineers)."""

    id: str  # "henderson" or "fighter_strip"
    name: str
    kind: Literal["airfield", "fighter_strip"]
    hexes: tuple[str, ...]
    built: bool = False  # at the start of the game
    source: str = ""


@dataclass(frozen=True, kw_only=True)
class EntryPoint:
    number: int = field(lo=1, hi=99)
    side: Side
    circled: bool = False
    arrows: tuple[str, ...]  # the hexes its arrows point to
    source: str = ""


@dataclass(frozen=True, kw_only=True)
class Box:
    """An off-board movement box on the south edge (FB 6.0)."""

    id: str  # "A".."D"
    order: int = field(lo=1, hi=99)  # position along the south edge; boxes of adjacent order are adjacent
    arrows: tuple[str, ...]
    reinforcement: bool = False  # Japanese reinforcements may be placed here (A and D, FB 7.2)
    source: str = ""


@dataclass(frozen=True, kw_only=True)
class HoldingBox:
    id: str  # usaf_reserve, usaf_cap, usaf_ground_attack, ijaf_reserve, ijaf_attack, ijn_reserve, ijn_attack
    name: str
    side: Side
    source: str = ""


@dataclass(frozen=True, kw_only=True)
class SetupArea:
    """FB 3.0: the rows and columns of the US set-up area, first and last, inclusive."""

    rows: tuple[int, ...] = field(lo=0, hi=99)
    cols: tuple[int, ...] = field(lo=0, hi=99)
    source: str = ""


@dataclass(frozen=True, kw_only=True)
class MapLabel:
    """A place name printed on the map (Lunga Point, Edson's Ridge ...), for drawing only."""

    text: str
    hex: str  # the hex the name is centred on
    source: str = ""


@dataclass(frozen=True, kw_only=True)
class GroundUnit:
    id: str  # as printed, e.g. "1/5", "6DB", "228/1", "SUY"
    name: str
    side: Side
    kind: str  # infantry, raider, parachute, engineer, artillery, tank, ...
    cf: int = field(lo=0, hi=MAX_FACTOR)  # combat factor (FB 8.3)
    range: int | None = field(None, lo=1, hi=MAX_FACTOR)  # artillery only (FB 9.1)
    mf: int = field(lo=1, hi=MAX_FACTOR)  # movement factor (FB 4.0)
    source: str = ""

    @property
    def is_artillery(self) -> bool:
        return self.range is not None  # FB 9.1

    @property
    def is_engineer(self) -> bool:
        return self.kind == "engineer"


@dataclass(frozen=True, kw_only=True)
class AirType:
    id: str  # e.g. "F4F", "SBD", "Zero", "Betty"
    name: str
    side: Side
    roles: tuple[Role, ...]  # F4F has both (FB 13.1)
    source: str = ""

    @property
    def is_fighter(self) -> bool:
        return "fighter" in self.roles

    @property
    def is_bomber(self) -> bool:
        return "bomber" in self.roles


@dataclass(frozen=True, kw_only=True)
class ShipType:
    id: str  # e.g. "DD", "CL", "CA", "BB"
    name: str
    source: str = ""


@dataclass(frozen=True, kw_only=True)
class Chart:
    """The Turn Record Chart's turns, in order (FB 2.0)."""

    turns: tuple[str, ...]
    source: str = ""


@dataclass(frozen=True, kw_only=True)
class Reinforcement:
    """What one side receives on one turn ("start" for the at-start forces)."""

    turn: str
    side: Side
    units: tuple[str, ...] = ()
    air: dict[str, int] = field(factory=dict, lo=1, hi=MAX_COUNT)  # air type -> counters
    naval: dict[str, int] = field(factory=dict, lo=1, hi=MAX_COUNT)  # ship type -> counters
    source: str = ""


@dataclass(frozen=True, kw_only=True)
class SpecialShips:
    """The special IJN box: committed once, on `earliest` or a later turn (FB 10.1)."""

    type: str  # ShipType.id
    ships: tuple[str, ...] = field(json="ids")  # ship ids
    earliest: str
    source: str = ""


@dataclass(frozen=True, kw_only=True)
class CombatTable:
    """An attack table (FB 8.9): results by odds column and die 1..6."""

    attacker: Side  # "us": American Attack Table, "jp": Japanese Attack Table
    name: str
    results: dict[str, tuple[str, ...]]  # column -> six result codes for die 1..6
    source: str = ""


@dataclass(frozen=True, kw_only=True)
class Placements:
    """setup.toml: the default set-up's counters at one place (FB 3.0, 3.1)."""

    at: str  # hex id, box id "A".."D", or holding box id
    units: tuple[str, ...]
    source: str = ""


# --- the model built from them -----------------------------------------------------------


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
class Placement:
    """A default set-up placement (FB 3.0, 3.1): a ground unit to a hex or box, an air unit to a hex or box."""

    unit: str
    at: str
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
    tables: dict[str, CombatTable]  # by attacking side
    setup: tuple[Placement, ...] = ()

    def arrivals(self, turn: str, side: str) -> Reinforcement | None:
        for r in self.reinforcements:
            if r.turn == turn and r.side == side:
                return r
        return None
