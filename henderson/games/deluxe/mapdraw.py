"""Draw the Deluxe Guadalcanal map from its data with matplotlib: a picture to check the
reconstructed map by eye, and a position's stacks on it.

Flat-topped hexes in vertical columns, even columns half a hex south, north up (DG 2.1 and
`data/map.toml`); sea, clear and jungle by colour, the level of each land hex, rivers and
roads as links between hex centres, the villages by name, Henderson Field, the number of
every land hex, and optionally the stacks (hex -> unit ids, top counter last).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path

from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from henderson.core.drawing import SIDE_COLOURS, draw_to

from .model import GameData

SQRT3 = math.sqrt(3.0)
BASE_COLOURS = {"sea": "#bfdbfe", "clear": "#eee6b8", "jungle": "#7fb36a"}
LEVEL_SHADE = 0.12  # each level above 0 darkens the hex by this much
RIVER = "#2563c9"
ROAD = "#7a4a1c"


def centre(data: GameData, hex_id: str) -> tuple[float, float]:
    """Drawing coordinates of a hex centre (circumradius 1): x east, y north."""
    row, col = data.map.layout.to_offset(hex_id)
    return (1.5 * col, -SQRT3 * (row + (0.5 if col % 2 == 0 else 0.0)))


def corners(x: float, y: float) -> list[tuple[float, float]]:
    """The six corners of a flat-topped hex."""
    return [(x + math.cos(math.radians(60 * k)), y + math.sin(math.radians(60 * k))) for k in range(6)]


def shade(colour: str, level: int) -> tuple[float, float, float]:
    """A terrain colour darkened for a hex's level (DG 2.1: hills and ridges rise in levels)."""
    rgb = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    k = max(0.35, 1.0 - LEVEL_SHADE * level)
    return (rgb[0] * k, rgb[1] * k, rgb[2] * k)


def draw_map(data: GameData, path: Path, stacks: Mapping[str, Sequence[tuple[str, str]]] | None = None) -> None:
    """Draw the map to `path` (.svg or .png); `stacks` maps a hex to its (unit id, side) pairs,
    bottom to top. Raises MapDrawError for another suffix or an unwritable file."""
    draw_to(path, (30, 10), lambda ax: _draw(ax, data, stacks or {}))


def _draw(ax: Axes, data: GameData, stacks: Mapping[str, Sequence[tuple[str, str]]]) -> None:
    m = data.map
    polys, colours = [], []
    for hid, h in m.hexes.items():
        polys.append(corners(*centre(data, hid)))
        colours.append(shade(BASE_COLOURS.get(h.base, "#dddddd"), h.level if h.land else 0))
    ax.add_collection(PolyCollection(polys, facecolors=colours, edgecolors="#9a9a8a", linewidths=0.3, zorder=1))
    for hid in m.hexes:
        if not m.hexes[hid].land:
            continue  # open sea: numbered for nothing a unit on land needs
        x, y = centre(data, hid)
        ax.text(x, y + 0.6, hid, ha="center", va="center", fontsize=2.6, color="#333333", zorder=6)
    for links, colour, style, width in ((m.river_links, RIVER, "solid", 1.6), (m.road_links, ROAD, "dashed", 0.9)):
        segments = []
        for link in links:
            a, b = sorted(link)
            segments.append([centre(data, a), centre(data, b)])
        ax.add_collection(LineCollection(segments, colors=colour, linewidths=width, linestyles=style, zorder=3))
    for hid, name in m.villages.items():
        x, y = centre(data, hid)
        ax.plot([x], [y], marker="s", markersize=3, color="#111111", zorder=7)
        ax.text(x, y - 0.55, name, ha="center", va="center", fontsize=4, fontweight="bold", zorder=7)
    hx, hy = centre(data, m.henderson_field)
    ax.text(hx, hy, "HF", ha="center", va="center", fontsize=6, fontweight="bold", color="#7f1d1d", zorder=8)
    for hid, units in stacks.items():
        if hid not in m.hexes or not units:
            continue
        x, y = centre(data, hid)
        top, side = units[-1]
        label = top if len(units) == 1 else f"{top} +{len(units) - 1}"
        ax.text(
            x,
            y - 0.1,
            label,
            ha="center",
            va="center",
            fontsize=3.6,
            color="white",
            bbox={"boxstyle": "round,pad=0.15", "fc": SIDE_COLOURS.get(side, "#444444"), "lw": 0},
            zorder=9,
        )
    handles: list[Artist] = [Patch(facecolor=c, edgecolor="#9a9a8a", label=k) for k, c in BASE_COLOURS.items()]
    handles += [
        Patch(facecolor=shade(BASE_COLOURS["clear"], 3), edgecolor="#9a9a8a", label="darker: higher level"),
        Line2D([0], [0], color=RIVER, lw=1.6, label="river"),
        Line2D([0], [0], color=ROAD, lw=0.9, ls="dashed", label="road"),
    ]
    ax.legend(handles=handles, loc="lower left", fontsize=7, frameon=True)
    ax.set_title(f"Deluxe Guadalcanal - the map (data {data.version})", fontsize=12)
    ax.autoscale_view()
