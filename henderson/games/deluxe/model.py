"""Frozen value types for Deluxe Guadalcanal data: the records of `data/*.toml`, each declared
once as a dataclass that `data.py` reads through `core.data.read_records` (types, ranges,
choices), and the values built from them: the map, the tables, the turn track.

They are built once by `data.load_data` after validation and never change during play;
the changing position lives in `state.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Literal

from henderson.core.fields import field as declared
from henderson.core.game import other_side
from henderson.core.hexgrid import Hex, OffsetLayout, distance
from henderson.core.sequence import SequenceSpec

Side = Literal["us", "jp"]
SIDES: tuple[str, str] = ("us", "jp")
# the kinds of random event (events.toml; data.EVENT_STEPS says where each acts)
EventKind = Literal[
    "supply", "hf", "vp", "combat", "movement", "detect", "no_naval", "sure_naval", "no_fire", "defence"
]
UnitKind = Literal["infantry", "artillery", "engineer", "lvt", "labour", "special", "heavy", "armor"]
MAX_NUMBER = 99  # no count, strength or turn of the game's data comes near it


def other(side: str) -> str:
    """The opposing side (`core.game.other_side`)."""
    return other_side(SIDES, side)


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


@dataclass(frozen=True, kw_only=True)
class UnitType:
    """One counter as printed (DG 2.2.1), a record of units.toml: full strength is also its
    number of steps; `arrival` 0 for a unit that comes only from Rabaul (DG 10.1)."""

    id: str
    side: Side
    type: UnitKind
    bar: str  # black: 1st Marine Division; blue: 2nd Marine Division; red: US Army or Japanese
    strength: int = declared(lo=1, hi=9)
    movement: int = declared(lo=1, hi=MAX_NUMBER)
    range: int = declared(lo=0, hi=MAX_NUMBER)
    arrival: int = declared(lo=0, hi=26)
    rabaul_period: int = declared(lo=0, hi=4)
    rabaul_periods: int = declared(lo=0, hi=4)
    heavy: bool = False

    # read for every counter in many listings: worked out once, then an attribute of the record
    @cached_property
    def artillery(self) -> bool:
        """An artillery unit (DG 8.1)."""
        return self.type == "artillery"

    @cached_property
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


@dataclass(frozen=True, kw_only=True)
class FireBand:
    """A defending-strength band of the artillery fire table with hits for die 1..6 (DG 8.1.5),
    a `[[fire.band]]` record of artillery.toml."""

    min_strength: int = declared(lo=1, hi=MAX_NUMBER)
    max_strength: int = declared(lo=1, hi=MAX_NUMBER)
    hits: tuple[int, ...] = declared(lo=0, hi=MAX_NUMBER)


@dataclass(frozen=True)
class Turn:
    """One box of the turn track (DG 2.1.8.1-2)."""

    turn: int
    date: str
    month: str
    event: str
    supply: dict[str, str]


@dataclass(frozen=True, kw_only=True)
class Period:
    """A Rabaul reinforcement period (DG 10.1), a record of rabaul.toml."""

    period: int = declared(lo=1, hi=4)
    colour: str
    first_turn: int = declared(lo=1, hi=MAX_NUMBER)
    last_turn: int = declared(lo=1, hi=MAX_NUMBER)


@dataclass(frozen=True, kw_only=True)
class EventEffect:
    """One side's half of a random event card (DG 5.0): what `kind` of effect, on whom, how much."""

    title: str
    kind: EventKind
    target: Literal["self", "enemy", "both"]
    amount: int = declared(lo=-MAX_NUMBER, hi=MAX_NUMBER)


@dataclass(frozen=True, kw_only=True)
class Card:
    """A random event card: a US event and a Japanese event (DG 2.3), a record of events.toml."""

    number: int = declared(lo=1, hi=MAX_NUMBER)
    us: EventEffect
    jp: EventEffect

    def effect(self, side: str) -> EventEffect:
        """The half of the card the drawing side reads."""
        return self.us if side == "us" else self.jp


@dataclass(frozen=True, kw_only=True)
class Movement:
    """Movement costs of the Terrain Effects table (DG 7.3), the [movement] table of terrain.toml."""

    clear: int = declared(lo=0, hi=MAX_NUMBER)
    jungle: int = declared(lo=0, hi=MAX_NUMBER)
    river: int = declared(lo=0, hi=MAX_NUMBER)
    village: int = declared(lo=0, hi=MAX_NUMBER)
    road_to_road: int = declared(lo=0, hi=MAX_NUMBER)
    road_to_village: int = declared(lo=0, hi=MAX_NUMBER)
    landing_penalty: int = declared(lo=0, hi=MAX_NUMBER)
    sea_landing: int = declared(lo=0, hi=MAX_NUMBER)
    stealth_hex: int = declared(lo=0, hi=MAX_NUMBER)


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
    sequence: SequenceSpec  # sequence.toml: the steps of the set-up and of a turn (DG 3.0, 4.0)
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
