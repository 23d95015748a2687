"""Frozen value types for Deluxe Guadalcanal data: the map, the counters and every table.

They are built once by `data.load_data` after validation and never change during play;
the mutable position lives in `state.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from henderson.core.hexgrid import Hex, OffsetLayout, distance

SIDES: tuple[str, str] = ("us", "jp")


def other(side: str) -> str:
    """The opposing side."""
    return "jp" if side == "us" else "us"


@dataclass(frozen=True)
class HexInfo:
    """One map hex: its base terrain, level and the features drawn in it (DG 2.1)."""

    id: str
    hex: Hex
    base: str  # "sea", "clear" or "jungle"
    level: int
    coastal: bool = False
    river: bool = False
    road: bool = False
    village: str = ""

    @property
    def land(self) -> bool:
        """Not a sea hex."""
        return self.base != "sea"

    @property
    def jungle(self) -> bool:
        """A jungle hex (DG 2.1.2)."""
        return self.base == "jungle"

    def types(self) -> set[str]:
        """Every terrain type of the hex (a hex can be of several types, DG 2.1.3)."""
        found = {self.base}
        for name, on in (("coastal", self.coastal), ("river", self.river), ("road", self.road)):
            if on:
                found.add(name)
        if self.village:
            found.add("village")
        return found


@dataclass(frozen=True)
class MapData:
    """The map: hexes by printed number, river and road connections, villages (DG 2.1)."""

    layout: OffsetLayout
    hexes: dict[str, HexInfo]
    adjacent: dict[str, tuple[str, ...]]
    river_links: frozenset[frozenset[str]]
    road_links: frozenset[frozenset[str]]
    villages: dict[str, str]  # hex id -> village name
    henderson_field: str
    rivers: dict[str, tuple[str, ...]] = field(default_factory=dict)
    roads: dict[str, tuple[str, ...]] = field(default_factory=dict)
    road_next: dict[str, frozenset[str]] = field(default_factory=dict)  # road-linked neighbours
    river_next: dict[str, frozenset[str]] = field(default_factory=dict)  # up/down stream

    def __post_init__(self) -> None:
        pairs = ((self.road_links, self.road_next), (self.river_links, self.river_next))
        for links, target in pairs:
            found: dict[str, set[str]] = {}
            for link in links:
                a, b = sorted(link)
                found.setdefault(a, set()).add(b)
                found.setdefault(b, set()).add(a)
            target.update({h: frozenset(n) for h, n in found.items()})

    def __contains__(self, hex_id: object) -> bool:
        return hex_id in self.hexes

    def distance(self, a: str, b: str) -> int:
        """Hexes between two printed numbers."""
        return distance(self.hexes[a].hex, self.hexes[b].hex)

    def slope(self, a: str, b: str) -> bool:
        """True when the hexside between adjacent a and b is a slope (levels differ, DG 2.1.4)."""
        return self.hexes[a].level != self.hexes[b].level

    def to_id(self, h: Hex) -> str | None:
        """The printed number of axial hex `h`, or None when it is off the map."""
        try:
            hid = self.layout.to_id(h)
        except ValueError:
            return None
        return hid if hid in self.hexes else None


@dataclass(frozen=True)
class UnitType:
    """One counter as printed (DG 2.2.1): full strength is also its number of steps."""

    id: str
    side: str
    type: str  # infantry, artillery, engineer, lvt, labour, special, heavy, armor
    bar: str
    strength: int
    movement: int
    range: int
    arrival: int
    rabaul_period: int
    rabaul_periods: int
    heavy: bool
    source: str

    @property
    def artillery(self) -> bool:
        """An artillery unit (DG 8.1)."""
        return self.type == "artillery"

    @property
    def infantry(self) -> bool:
        """An infantry unit: the Japanese Heavy battalions are "Heavy Infantry" (DG 10.2.3
        note), so they may use stealth (DG 7.7.1) and repair the field as infantry (DG 7.11.2)."""
        return self.type in ("infantry", "heavy")

    @property
    def first_marine(self) -> bool:
        """A unit of the 1st Marine Division (black bar, DG 7.9.2)."""
        return self.side == "us" and self.bar == "black"


@dataclass(frozen=True)
class Cell:
    """One side's result in the Attrition Table: steps lost, hexes retreated, hexes advanced."""

    loss: int
    retreat: int
    advance: int


@dataclass(frozen=True)
class AttritionTable:
    """Ratio column (e.g. "2-1") -> six (attacker, defender) results for die 1..6 (DG 8.2.1.4)."""

    columns: tuple[str, ...]
    results: dict[str, tuple[tuple[Cell, Cell], ...]]

    def result(self, ratio: str, die: int) -> tuple[Cell, Cell]:
        """(attacker, defender) results for a ratio column and a die."""
        return self.results[ratio][die - 1]


@dataclass(frozen=True)
class FireBand:
    """A defending-strength band of the artillery fire table with hits for die 1..6."""

    min_strength: int
    max_strength: int
    hits: tuple[int, ...]


@dataclass(frozen=True)
class Turn:
    """One box of the turn track (DG 2.1.8.1-2)."""

    turn: int
    date: str
    month: str
    event: str
    supply: dict[str, str]


@dataclass(frozen=True)
class Period:
    """A Rabaul reinforcement period (DG 10.1)."""

    period: int
    colour: str
    first_turn: int
    last_turn: int


@dataclass(frozen=True)
class EventEffect:
    """One side's half of a random event card (DG 5.0)."""

    title: str
    kind: str
    target: str
    amount: int


@dataclass(frozen=True)
class Card:
    """A random event card: a US event and a Japanese event (DG 2.3)."""

    number: int
    us: EventEffect
    jp: EventEffect

    def effect(self, side: str) -> EventEffect:
        """The half of the card the drawing side reads."""
        return self.us if side == "us" else self.jp


@dataclass(frozen=True)
class Step:
    """One step of the sequence of play (DG 4.0)."""

    number: int
    id: str
    side: str
    kind: str
    name: str


@dataclass(frozen=True)
class Movement:
    """Movement costs of the Terrain Effects table (DG 7.3)."""

    clear: int
    jungle: int
    river: int
    village: int
    road_to_road: int
    road_to_village: int
    landing_penalty: int
    sea_landing: int
    stealth_hex: int


@dataclass(frozen=True)
class CombatEffect:
    """A combat strength multiplier of the Terrain Effects table (DG 8.2.1.1-2)."""

    side: str
    condition: str
    multiplier: Fraction


@dataclass(frozen=True)
class Constants:
    """Values fixed by the text of the rules (rules.toml)."""

    turns: int
    events_from_turn: int
    withdrawal_turn: int
    japan_withdrawals_per_turn: int
    stacking: int
    sea_moves_per_turn: int
    stealth_max: int
    hf_start: int
    hf_max: int
    hf_operational: int
    vp_to_win: int
    max_ratio: int
    supply_cap: int
    capture_bonus: int


@dataclass(frozen=True)
class GameData:
    """Everything the rules read: validated, cross-checked, immutable."""

    map: MapData
    units: dict[str, UnitType]
    attrition: AttritionTable
    fire: tuple[FireBand, ...]
    airfield_damage_on: frozenset[int]
    counter_battery_on: frozenset[int]
    naval_on: frozenset[int]
    naval_first_turn: int
    naval: dict[str, dict[str, int]]  # month -> side -> dice
    replenishment: dict[str, dict[str, tuple[int, ...]]]  # month -> side -> points by die
    turns: tuple[Turn, ...]
    periods: tuple[Period, ...]
    movement: Movement
    combat_effects: tuple[CombatEffect, ...]
    cards: tuple[Card, ...]
    sequence: tuple[Step, ...]
    constants: Constants
    version: str

    def turn(self, number: int) -> Turn:
        """The turn-track box of turn `number` (1-based)."""
        return self.turns[number - 1]

    def period_of(self, turn: int) -> int:
        """The Rabaul period a turn falls in, 0 when none (DG 10.1)."""
        for p in self.periods:
            if p.first_turn <= turn <= p.last_turn:
                return p.period
        return 0

    def hits(self, strength: int, die: int) -> int:
        """Steps lost by a hex of `strength` defending points on `die` (DG 8.1.5)."""
        for band in self.fire:
            if band.min_strength <= strength <= band.max_strength:
                return band.hits[die - 1]
        return 0
