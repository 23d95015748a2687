"""Hex grid math in axial/cube coordinates, and printed hex numbers through offset layouts.

Following Red Blob Games' hexagon guide: cube coordinates for the math, offset
coordinates only to read and write the numbers printed on a map.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal, NamedTuple


class Hex(NamedTuple):
    """A hex in axial coordinates (q, r); the cube coordinate s is -q - r."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r


DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0),
    Hex(1, -1),
    Hex(0, -1),
    Hex(-1, 0),
    Hex(-1, 1),
    Hex(0, 1),
)


def add(a: Hex, b: Hex) -> Hex:
    return Hex(a.q + b.q, a.r + b.r)


def distance(a: Hex, b: Hex) -> int:
    """Number of hex steps between a and b."""
    dq = a.q - b.q
    dr = a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six hexes adjacent to h, in direction order."""
    q, r = h
    return tuple(Hex(q + d.q, r + d.r) for d in DIRECTIONS)


def ring(center: Hex, radius: int) -> list[Hex]:
    """Hexes exactly `radius` steps from center (the center itself for radius 0)."""
    if radius < 0:
        raise ValueError("radius must be >= 0")
    if radius == 0:
        return [center]
    result = []
    h = Hex(center.q + DIRECTIONS[4].q * radius, center.r + DIRECTIONS[4].r * radius)
    for i in range(6):
        for _ in range(radius):
            result.append(h)
            h = add(h, DIRECTIONS[i])
    return result


def within(center: Hex, radius: int) -> Iterator[Hex]:
    """Hexes at distance <= radius from center."""
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            yield Hex(center.q + dq, center.r + dr)


def _cube_round(q: float, r: float) -> Hex:
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(int(rq), int(rr))


def line(a: Hex, b: Hex) -> list[Hex]:
    """Hexes on the straight line from a to b inclusive (nudged off exact corners)."""
    n = distance(a, b)
    if n == 0:
        return [a]
    eps = 1e-6
    aq, ar = a.q + eps, a.r + eps
    bq, br = b.q + eps, b.r + eps
    return [_cube_round(aq + (bq - aq) * i / n, ar + (br - ar) * i / n) for i in range(n + 1)]


class Hexside(NamedTuple):
    """The edge between two adjacent hexes, the same whichever side it is seen from."""

    a: Hex
    b: Hex


def hexside(x: Hex, y: Hex) -> Hexside:
    """The unordered pair identifying the edge between adjacent hexes x and y."""
    if distance(x, y) != 1:
        raise ValueError(f"{x} and {y} are not adjacent")
    return Hexside(x, y) if x <= y else Hexside(y, x)


@dataclass(frozen=True)
class OffsetLayout:
    """How a game prints hex numbers: which offset parity, and how digits are laid out.

    `parity` follows Red Blob's names: "even-r"/"odd-r" for horizontal rows of
    pointy-top hexes (the named rows are shoved by half a hex), "even-q"/"odd-q"
    for vertical columns of flat-top hexes. `order` says whether the printed
    number gives the row or the column first, `digits` how many digits each.
    """

    parity: Literal["even-r", "odd-r", "even-q", "odd-q"]
    order: Literal["row-col", "col-row"] = "row-col"
    digits: int = 2

    @property
    def pattern(self) -> re.Pattern[str]:
        return re.compile(rf"^(\d{{{self.digits}}})(\d{{{self.digits}}})$")

    def to_offset(self, hex_id: str) -> tuple[int, int]:
        """(row, col) from a printed number; ValueError if it is not one."""
        m = self.pattern.match(hex_id)
        if not m:
            raise ValueError(f"{hex_id!r} is not a hex number of {2 * self.digits} digits")
        first, second = int(m.group(1)), int(m.group(2))
        return (first, second) if self.order == "row-col" else (second, first)

    def from_offset(self, row: int, col: int) -> str:
        if row < 0 or col < 0:
            raise ValueError(f"row {row}, column {col} has no printed number")
        first, second = (row, col) if self.order == "row-col" else (col, row)
        return f"{first:0{self.digits}d}{second:0{self.digits}d}"

    def offset_to_hex(self, row: int, col: int) -> Hex:
        if self.parity == "even-r":
            return Hex(col - (row + (row & 1)) // 2, row)
        if self.parity == "odd-r":
            return Hex(col - (row - (row & 1)) // 2, row)
        if self.parity == "even-q":
            return Hex(col, row - (col + (col & 1)) // 2)
        return Hex(col, row - (col - (col & 1)) // 2)

    def hex_to_offset(self, h: Hex) -> tuple[int, int]:
        q, r = h
        if self.parity == "even-r":
            return r, q + (r + (r & 1)) // 2
        if self.parity == "odd-r":
            return r, q + (r - (r & 1)) // 2
        if self.parity == "even-q":
            return r + (q + (q & 1)) // 2, q
        return r + (q - (q & 1)) // 2, q

    def to_hex(self, hex_id: str) -> Hex:
        return self.offset_to_hex(*self.to_offset(hex_id))

    def to_id(self, h: Hex) -> str:
        return self.from_offset(*self.hex_to_offset(h))
