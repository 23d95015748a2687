"""Draw the Axis & Allies: Guadalcanal board with matplotlib from its drawn layout
(`data/board_layout.toml`, the one the browser draws): the sea zones A–M, the islands, the
two base cards and the blocked straits, each zone named, and optionally what each side has
in each zone (zone -> side -> text)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from matplotlib.axes import Axes
from matplotlib.patches import Polygon, Rectangle

from henderson.core.drawing import SIDE_COLOURS, draw_to

SEA = "#bfdbfe"
LAND = "#d9c89a"


def draw_map(
    layout: Mapping[str, Any],
    names: Mapping[str, str],
    path: Path,
    forces: Mapping[str, Mapping[str, str]] | None = None,
) -> None:
    """Draw the board to `path` (.svg or .png); `names` gives each zone's name on the board,
    `forces` what each side has in a zone. Raises MapDrawError for another suffix or an
    unwritable file."""
    height = float(layout["height"])
    width = float(layout["width"])
    draw_to(path, (16, 16 * height / width), lambda ax: _draw(ax, layout, names, forces or {}))


def _draw(
    ax: Axes, layout: Mapping[str, Any], names: Mapping[str, str], forces: Mapping[str, Mapping[str, str]]
) -> None:
    h = float(layout["height"])

    def up(p: list[float]) -> tuple[float, float]:  # the layout's y grows south
        return (p[0], h - p[1])

    labels: dict[str, tuple[float, float]] = {}
    for zone, sea in layout["seas"].items():
        ax.add_patch(Polygon([up(p) for p in sea["points"]], closed=True, fc=SEA, ec="#60a5fa", lw=0.8, zorder=1))
        labels[zone] = up(sea["label"])
        ax.text(*labels[zone], f"sea {zone}", fontsize=9, fontweight="bold", color="#1e3a8a", zorder=5)
    for zone, island in layout["islands"].items():
        ax.add_patch(Polygon([up(p) for p in island["outline"]], closed=True, fc=LAND, ec="#7a4a1c", lw=0.8, zorder=2))
        labels[zone] = up(island["label"])
        ax.text(*labels[zone], names.get(zone, zone), fontsize=9, fontweight="bold", ha="center", zorder=5)
    for base, card in layout["bases"].items():
        for part, colour, zone in (("land", LAND, base), ("sea", SEA, f"{base}_sea")):
            x, y, w, hh = card[part]
            ax.add_patch(
                Rectangle((x, h - y - hh), w, hh, fc=colour, ec=SIDE_COLOURS.get(card["side"], "#444"), lw=1.5)
            )
            labels[zone] = (x + 6, h - y - 14)
            ax.text(*labels[zone], names.get(zone, zone), fontsize=8, fontweight="bold", zorder=5)
    for strait in layout["straits"]:
        (x1, y1), (x2, y2) = (up(p) for p in strait["line"])
        ax.plot([x1, x2], [y1, y2], color="#111111", lw=3, zorder=4)
    for zone, by_side in forces.items():
        if zone not in labels:
            continue
        x, y = labels[zone]
        for k, (side, text) in enumerate(sorted(by_side.items())):
            ax.text(x, y - 16 * (k + 1), text, fontsize=7, color=SIDE_COLOURS.get(side, "#444"), zorder=6)
    ax.set_xlim(0, float(layout["width"]))
    ax.set_ylim(0, h)
    ax.set_title("Axis & Allies: Guadalcanal - the board (black bars: straits closed to ships)", fontsize=12)
