"""Draw the FIRST BLOOD map from its data with matplotlib: a picture to check the data by eye.

Pointy-top hexes in horizontal rows, north up, column 01 on the east (right)
edge; terrain, rivers, ford, ridges, jungle hexsides, airfields, entry points,
the off-board boxes and the holding boxes, every hex number, and optionally the
units (unit id -> hex or box id) as labels. SVG or PNG by the file suffix.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping
from pathlib import Path

from matplotlib.axes import Axes
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, FancyBboxPatch, Patch, Polygon

from henderson.core.drawing import SIDE_COLOURS, MapDrawError, draw_to
from henderson.core.hexgrid import neighbours
from henderson.games.firstblood.model import FBData

SQRT3 = math.sqrt(3.0)
TERRAIN_COLOURS = {"clear": "#eee6b8", "jungle": "#7fb36a", "ridge": "#c9a26b"}
RIVER = "#2563c9"
RIDGE = "#7a4a1c"
JUNGLE_SIDE = "#2f6b2a"
__all__ = ["MapDrawError", "centre", "draw_map", "edge"]


def centre(data: FBData, hex_id: str) -> tuple[float, float]:
    """Drawing coordinates of a hex centre (circumradius 1): x grows east, y grows north."""
    h = data.map.layout.to_hex(hex_id)
    return (-SQRT3 * (h.q + h.r / 2.0), 1.5 * h.r)


def corners(x: float, y: float) -> list[tuple[float, float]]:
    """The six corners of a pointy-top hex."""
    return [(x + math.cos(math.radians(30 + 60 * k)), y + math.sin(math.radians(30 + 60 * k))) for k in range(6)]


def edge(data: FBData, a: str, b: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two ends of the hexside between adjacent hexes a and b."""
    (xa, ya), (xb, yb) = centre(data, a), centre(data, b)
    mx, my = (xa + xb) / 2, (ya + yb) / 2
    dx, dy = xb - xa, yb - ya
    length = math.hypot(dx, dy)
    px, py = -dy / length * 0.5, dx / length * 0.5
    return ((mx + px, my + py), (mx - px, my - py))


def _outward(data: FBData, hex_id: str) -> tuple[float, float]:
    """Unit vector from a hex toward the missing neighbours around it (off the map)."""
    layout = data.map.layout
    x, y = centre(data, hex_id)
    vx = vy = 0.0
    for nb in neighbours(layout.to_hex(hex_id)):
        row, col = layout.hex_to_offset(nb)
        if row >= 0 and col >= 0 and layout.from_offset(row, col) in data.map.hexes:
            continue
        nx, ny = -SQRT3 * (nb.q + nb.r / 2.0), 1.5 * nb.r
        vx, vy = vx + nx - x, vy + ny - y
    n = math.hypot(vx, vy) or 1.0
    return (vx / n, vy / n)


def draw_map(data: FBData, path: Path, units: Mapping[str, str] | None = None) -> None:
    """Draw the map to `path` (.svg or .png): `units` maps unit ids to places.

    Raises MapDrawError for another suffix or an unwritable file.
    """
    draw_to(path, (17, 12.5), lambda ax: _draw(ax, data, units or {}))


def _draw(ax: Axes, data: FBData, units: Mapping[str, str]) -> None:
    m = data.map
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_facecolor("white")
    # hexes
    polys, colours = [], []
    for hid, h in m.hexes.items():
        polys.append(corners(*centre(data, hid)))
        colours.append(TERRAIN_COLOURS[h.terrain])
    ax.add_collection(PolyCollection(polys, facecolors=colours, edgecolors="#9a9a8a", linewidths=0.4, zorder=1))
    for hid in m.hexes:
        x, y = centre(data, hid)
        ax.text(x, y + 0.62, hid, ha="center", va="center", fontsize=4.2, color="#333333", zorder=6)
    _hexsides(ax, data)
    _airfields(ax, data)
    _labels(ax, data)
    _entry_points(ax, data)
    box_at = _boxes(ax, data)
    panel_at = _holding_boxes(ax, data)
    _units(ax, data, units, box_at, panel_at)
    _sea(ax, data)
    ax.set_title(
        f"FIRST BLOOD - the Lunga perimeter, Guadalcanal, Sep 1942 - Jan 1943  (data {data.data_version})",
        fontsize=14,
        fontweight="bold",
    )
    _legend(ax)
    ax.autoscale_view()


def _hexsides(ax: Axes, data: FBData) -> None:
    styles = {
        "river": (RIVER, 3.2),
        "ford": (RIVER, 3.2),
        "ridge": (RIDGE, 2.2),
        "jungle": (JUNGLE_SIDE, 0.9),
    }
    segments: dict[str, list[tuple[tuple[float, float], tuple[float, float]]]] = defaultdict(list)
    for (a, b), (kind, _source) in data.map.hexsides.items():
        if kind in styles:
            segments[kind].append(edge(data, a, b))
    for kind_drawn, segs in segments.items():
        colour, width = styles[kind_drawn]
        linestyle = (0, (1.5, 1.0)) if kind_drawn == "ford" else "solid"
        z = 4 if kind_drawn in ("river", "ford") else 3
        ax.add_collection(LineCollection(segs, colors=colour, linewidths=width, linestyles=linestyle, zorder=z))
    for (a, b), (kind, _source) in data.map.hexsides.items():
        if kind == "ford":
            (x1, y1), (x2, y2) = edge(data, a, b)
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            ax.plot([mx], [my], marker="o", markersize=6, color="white", markeredgecolor=RIVER, zorder=5)
            ax.text(mx + 0.15, my + 0.25, "ford", fontsize=6, color=RIVER, style="italic", zorder=6)


def _airfields(ax: Axes, data: FBData) -> None:
    """Each airfield hex tinted, and a runway drawn through its hexes (dashed while unbuilt)."""
    for af in data.map.airfields.values():
        pts = [centre(data, h) for h in af.hexes]
        for x, y in pts:
            ax.add_patch(Polygon(corners(x, y), closed=True, fc="#d6d3d1", ec="#3f3f46", lw=1.2, zorder=1.5))
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        if len(pts) > 1:  # extend the runway to the far edges of the end hexes
            dx, dy = xs[-1] - xs[0], ys[-1] - ys[0]
            n = math.hypot(dx, dy)
            xs = [xs[0] - dx / n * 0.6, xs[-1] + dx / n * 0.6]
            ys = [ys[0] - dy / n * 0.6 + 0.3, ys[-1] + dy / n * 0.6 + 0.3]
        style = "solid" if af.built else (0, (2, 1.2))
        width = 9 if af.kind == "airfield" else 6
        ax.plot(
            xs,
            ys,
            color="#27272a",
            linewidth=width,
            linestyle=style,
            solid_capstyle="butt",
            zorder=5,
        )
        ax.plot(xs, ys, color="white", linewidth=0.8, linestyle=(0, (3, 2)), zorder=5.5)
        mx, my = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
        name = af.name if af.built else f"{af.name}\n(to be built)"
        ax.text(
            mx,
            my - 0.62,
            name,
            ha="center",
            va="top",
            fontsize=6.5,
            fontweight="bold",
            color="#18181b",
            zorder=7,
            bbox={"boxstyle": "round,pad=0.12", "fc": "white", "ec": "none", "alpha": 0.8},
        )


def _labels(ax: Axes, data: FBData) -> None:
    for label in data.map.labels:
        if label.hex in data.map.hexes:
            x, y = centre(data, label.hex)
            ax.text(
                x,
                y - 0.25,
                label.text,
                ha="center",
                va="center",
                fontsize=7.5,
                style="italic",
                color="#3b2f1e",
                zorder=6,
            )
    for i, (a, b) in enumerate(_river_label_sides(data)):
        (x1, y1), (x2, y2) = edge(data, a, b)
        ax.text(
            (x1 + x2) / 2 + 0.2,
            (y1 + y2) / 2,
            _river_names(i),
            fontsize=7,
            color=RIVER,
            style="italic",
            rotation=75,
            zorder=6,
            ha="left",
            va="center",
        )


def _river_label_sides(data: FBData) -> list[tuple[str, str]]:
    """One hexside in the middle of each river (rivers are the connected river/ford chains)."""
    sides = [k for k, (kind, _s) in data.map.hexsides.items() if kind in ("river", "ford")]
    groups: list[list[tuple[str, str]]] = []
    for s in sorted(sides, key=lambda k: data.map.hexsides[k][1]):
        source = data.map.hexsides[s][1]
        for g in groups:
            if data.map.hexsides[g[0]][1] == source:
                g.append(s)
                break
        else:
            groups.append([s])
    groups = [g for g in groups if len(g) > 3]
    groups.sort(key=lambda g: -sum(centre(data, a)[0] for a, _ in g) / len(g))
    return [sorted(g, key=lambda k: centre(data, k[0])[1])[len(g) // 3] for g in groups]


def _river_names(i: int) -> str:
    return ("Ilu (Tenaru)", "Lunga", "Matanikau")[i] if i < 3 else ""


def _entry_points(ax: Axes, data: FBData) -> None:
    for ep in data.map.entry_points.values():
        pts = [centre(data, h) for h in ep.arrows if h in data.map.hexes]
        if not pts:
            continue
        ox = oy = 0.0
        for h in ep.arrows:
            if h in data.map.hexes:
                vx, vy = _outward(data, h)
                ox, oy = ox + vx, oy + vy
        n = math.hypot(ox, oy) or 1.0
        ox, oy = ox / n, oy / n
        cx = sum(p[0] for p in pts) / len(pts) + ox * 2.4
        cy = sum(p[1] for p in pts) / len(pts) + oy * 2.4
        colour = SIDE_COLOURS[ep.side]
        for x, y in pts:
            ax.annotate(
                "",
                xy=(x, y),
                xytext=(cx, cy),
                zorder=8,
                arrowprops={
                    "arrowstyle": "-|>",
                    "color": colour,
                    "lw": 1.0,
                    "shrinkA": 9,
                    "shrinkB": 4,
                },
            )
        if ep.circled:
            ax.add_patch(Circle((cx, cy), 0.55, fc="white", ec=colour, lw=1.6, zorder=9))
        else:
            ax.add_patch(
                FancyBboxPatch(
                    (cx - 0.45, cy - 0.4),
                    0.9,
                    0.8,
                    boxstyle="round,pad=0.02",
                    fc="white",
                    ec=colour,
                    lw=0.6,
                    zorder=9,
                )
            )
        ax.text(
            cx,
            cy,
            str(ep.number),
            ha="center",
            va="center",
            fontsize=8,
            fontweight="bold",
            color=colour,
            zorder=10,
        )


def _south_y(data: FBData) -> float:
    return min(centre(data, h)[1] for h in data.map.hexes)


def _boxes(ax: Axes, data: FBData) -> dict[str, tuple[float, float]]:
    """Boxes A-D below the south edge, with arrows to their hexes; returns each box's centre."""
    out = {}
    y = _south_y(data) - 3.6
    for box in sorted(data.map.boxes.values(), key=lambda b: b.order):
        pts = [centre(data, h) for h in box.arrows if h in data.map.hexes]
        if not pts:
            continue
        x = sum(p[0] for p in pts) / len(pts)
        ax.add_patch(
            FancyBboxPatch(
                (x - 2.2, y - 1.1),
                4.4,
                2.2,
                boxstyle="round,pad=0.05",
                fc="#fde2e2" if box.reinforcement else "#f5f5f4",
                ec="#7f1d1d",
                lw=1.2,
                zorder=8,
            )
        )
        ax.text(
            x,
            y + 0.55,
            f"BOX {box.id}",
            ha="center",
            va="center",
            fontsize=10,
            fontweight="bold",
            color="#7f1d1d",
            zorder=9,
        )
        if box.reinforcement:
            ax.text(
                x,
                y + 0.05,
                "reinforcements",
                ha="center",
                va="center",
                fontsize=6,
                color="#7f1d1d",
                zorder=9,
            )
        for px, py in pts:
            ax.annotate(
                "",
                xy=(px, py),
                xytext=(x, y + 1.1),
                zorder=8,
                arrowprops={"arrowstyle": "-|>", "color": "#7f1d1d", "lw": 1.0, "shrinkB": 4},
            )
        out[box.id] = (x, y - 0.4)
    return out


def _holding_boxes(ax: Axes, data: FBData) -> dict[str, tuple[float, float]]:
    """The holding boxes as labelled panels in a row under the map; returns each panel's centre."""
    out: dict[str, tuple[float, float]] = {}
    boxes = list(data.map.holding_boxes.values())
    if not boxes:
        return out
    xs = [centre(data, h)[0] for h in data.map.hexes]
    left, right = min(xs), max(xs)
    width = (right - left) / len(boxes)
    y = _south_y(data) - 8.0
    for i, hb in enumerate(boxes):
        x = left + width * (i + 0.5)
        colour = SIDE_COLOURS[hb.side]
        ax.add_patch(
            FancyBboxPatch(
                (x - width / 2 + 0.2, y - 1.6),
                width - 0.4,
                3.2,
                boxstyle="round,pad=0.05",
                fc="#f8fafc",
                ec=colour,
                lw=1.2,
                zorder=8,
            )
        )
        ax.text(
            x,
            y + 1.2,
            hb.name,
            ha="center",
            va="center",
            fontsize=8,
            fontweight="bold",
            color=colour,
            zorder=9,
        )
        out[hb.id] = (x, y + 0.2)
    return out


def _units(
    ax: Axes,
    data: FBData,
    units: Mapping[str, str],
    box_at: Mapping[str, tuple[float, float]],
    panel_at: Mapping[str, tuple[float, float]],
) -> None:
    by_place: dict[str, list[str]] = defaultdict(list)
    for uid, place in units.items():
        by_place[place].append(uid)
    for place, ids in by_place.items():
        if place in data.map.hexes:
            x, y = centre(data, place)
            y -= 0.15
            text, size = "\n".join(ids), 5.5
        elif place in box_at:
            x, y = box_at[place]
            text, size = _wrap(ids, 4), 5.5
        elif place in panel_at:
            x, y = panel_at[place]
            text, size = _wrap(ids, 4), 5.5
        else:
            continue
        colours = {_side_of(data, u) for u in ids}
        colour = SIDE_COLOURS[colours.pop()] if len(colours) == 1 else "black"
        ax.text(
            x,
            y,
            text,
            ha="center",
            va="center",
            fontsize=size,
            color=colour,
            fontweight="bold",
            zorder=11,
            bbox={
                "boxstyle": "round,pad=0.15",
                "fc": "white",
                "ec": colour,
                "lw": 0.5,
                "alpha": 0.9,
            },
        )


def _wrap(ids: list[str], per_line: int) -> str:
    return "\n".join(" ".join(ids[i : i + per_line]) for i in range(0, len(ids), per_line))


def _side_of(data: FBData, uid: str) -> str:
    if uid in data.ground:
        return data.ground[uid].side
    if uid in data.air:
        return data.air[uid].side
    if uid in data.ships:
        return "jp"
    return "us"


def _sea(ax: Axes, data: FBData) -> None:
    """A word on the sea beyond the north coast."""
    top = max(centre(data, h)[1] for h in data.map.hexes)
    xs = [centre(data, h)[0] for h in data.map.hexes]
    ax.text(
        (min(xs) + max(xs)) / 2 + 6,
        top + 2.2,
        "SEALARK CHANNEL  (Ironbottom Sound)  - north -",
        ha="center",
        va="center",
        fontsize=10,
        color="#1e3a8a",
        style="italic",
    )
    ax.text(min(xs) - 1.5, top + 2.2, "WEST", fontsize=9, color="#555555", ha="right")
    ax.text(max(xs) + 1.5, top + 2.2, "EAST", fontsize=9, color="#555555", ha="left")


def _legend(ax: Axes) -> None:
    handles = [
        Patch(facecolor=TERRAIN_COLOURS["clear"], edgecolor="#9a9a8a", label="clear hex"),
        Patch(facecolor=TERRAIN_COLOURS["jungle"], edgecolor="#9a9a8a", label="jungle hex"),
        Patch(facecolor=TERRAIN_COLOURS["ridge"], edgecolor="#9a9a8a", label="ridge hex"),
        Line2D([], [], color=RIVER, lw=3.2, label="river hexside"),
        Line2D(
            [],
            [],
            color=RIVER,
            lw=3.2,
            linestyle=(0, (1.5, 1.0)),
            marker="o",
            markerfacecolor="white",
            label="ford (FB 4.4)",
        ),
        Line2D([], [], color=RIDGE, lw=2.2, label="ridge hexside"),
        Line2D([], [], color=JUNGLE_SIDE, lw=0.9, label="jungle hexside"),
        Line2D([], [], color="#3f3f46", lw=6, label="airfield / fighter strip (dashed: unbuilt)"),
        Line2D(
            [],
            [],
            color="white",
            marker="o",
            markersize=11,
            markeredgecolor=SIDE_COLOURS["us"],
            label="circled US entry point (max 4 units)",
        ),
        Line2D(
            [],
            [],
            color="white",
            marker="s",
            markersize=9,
            markeredgecolor=SIDE_COLOURS["us"],
            label="US entry point (4-14)",
        ),
        Line2D(
            [],
            [],
            color="white",
            marker="s",
            markersize=9,
            markeredgecolor=SIDE_COLOURS["jp"],
            label="Japanese entry point (1-3, 15-17)",
        ),
    ]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=True)
