"""The drawn AAG board (`data/board_layout.toml`): sea zones as polygons, islands as coasts,
the base cards and the blocked straits, checked against the board the rules use.

Presentation only: the browser client draws from it, no rule reads it. Every problem is
collected and raised at once, like the game data (`file: record: field: what`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from henderson.core.data import Collector, load_toml
from henderson.games.aag.model import Board

FILE = "board_layout.toml"
DEFAULT = Path(__file__).parent / "data" / FILE

Point = tuple[float, float]


def layout_path(data_dir: Path) -> Path:
    """The layout file of a data directory, or the packaged one when it has none."""
    path = Path(data_dir) / FILE
    return path if path.exists() else DEFAULT


def _point(value: Any) -> Point | None:
    ok = isinstance(value, list) and len(value) == 2
    if not ok or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value):
        return None
    return float(value[0]), float(value[1])


def _stacks(value: Any) -> list[float] | None:
    ok = isinstance(value, list) and len(value) == 3
    if not ok or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return None
    return [float(v) for v in value]


def _rect(value: Any) -> list[float] | None:
    ok = isinstance(value, list) and len(value) == 4
    if not ok or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value):
        return None
    return [float(v) for v in value]


def load_layout(board: Board, path: Path = DEFAULT) -> dict[str, Any]:
    """The layout as JSON-ready data for the client; DataErrors lists every problem."""
    c = Collector()
    doc = load_toml(path)
    f = path.name
    c.source(doc, f, "layout")
    width = c.field(doc, "width", int, f, "layout", default=1)
    height = c.field(doc, "height", int, f, "layout", default=1)
    vertices: dict[str, Point] = {}
    for name, value in dict(c.field(doc, "vertex", dict, f, "layout", default={})).items():
        p = _point(value)
        if p is None:
            c.add(f, "vertex", name, f"expected [x, y], got {value!r}")
        else:
            vertices[name] = p

    def need(rec: dict[str, Any], rid: str, key: str, parse: Any, what: str) -> Any:
        value = parse(rec.get(key))
        if value is None:
            c.add(f, rid, key, f"expected {what}, got {rec.get(key)!r}")
        return list(value) if isinstance(value, tuple) else value  # JSON-ready

    seas: dict[str, dict[str, Any]] = {}
    for rec in doc.get("sea", []):
        rid = str(rec.get("id", "?"))
        c.source(rec, f, rid)
        names = c.field(rec, "outline", list, f, rid, default=[])
        points = []
        for name in names:
            if name not in vertices:
                c.add(f, rid, "outline", f"unknown vertex {name!r}")
            else:
                points.append(vertices[name])
        if len(points) < 3:
            c.add(f, rid, "outline", "expected at least three vertices")
        entry: dict[str, Any] = {
            "outline": list(names),
            "points": [list(p) for p in points],
            "label": need(rec, rid, "label", _point, "[x, y]"),
            "stacks": need(rec, rid, "stacks", _stacks, "[x, y, columns]"),
        }
        if "route" in rec:
            entry["route"] = need(rec, rid, "route", _point, "[x, y]")
        seas[rid] = entry
    islands: dict[str, dict[str, Any]] = {}
    for rec in doc.get("island", []):
        rid = str(rec.get("id", "?"))
        c.source(rec, f, rid)
        coast = [_point(p) for p in c.field(rec, "outline", list, f, rid, default=[])]
        if len(coast) < 3 or any(p is None for p in coast):
            c.add(f, rid, "outline", "expected at least three [x, y] points")
        islands[rid] = {
            "outline": [list(p) for p in coast if p is not None],
            "label": need(rec, rid, "label", _point, "[x, y]"),
            "airfields": need(rec, rid, "airfields", _point, "[x, y]"),
            "stacks": need(rec, rid, "stacks", _stacks, "[x, y, columns]"),
        }
    sides = {b.id: b.side for b in board.bases.values()}
    bases: dict[str, dict[str, Any]] = {}
    for rec in doc.get("base", []):
        rid = str(rec.get("id", "?"))
        c.source(rec, f, rid)
        bases[rid] = {"side": sides.get(rid)} | {
            key: need(rec, rid, key, parse, what)
            for key, parse, what in (
                ("land", _rect, "[x, y, width, height]"),
                ("sea", _rect, "[x, y, width, height]"),
                ("land_stacks", _stacks, "[x, y, columns]"),
                ("sea_stacks", _stacks, "[x, y, columns]"),
            )
        }
    straits: list[dict[str, Any]] = []
    for i, rec in enumerate(doc.get("strait", [])):
        rid = f"strait #{i + 1}"
        c.source(rec, f, rid)
        pair = c.field(rec, "seas", list, f, rid, default=[])
        between = c.field(rec, "islands", list, f, rid, default=[])
        if len(pair) != 2 or any(s not in seas for s in pair):
            c.add(f, rid, "seas", f"expected two drawn sea zones, got {pair!r}")
            continue
        if any(s in board.sea_graph.get(pair[0], ()) for s in pair[1:]):
            c.add(f, rid, "seas", f"{pair[0]} and {pair[1]} are adjacent: no strait between them")
        coasts = [islands.get(i, {}).get("outline", []) for i in between]
        if len(between) != 2 or not all(coasts):
            c.add(f, rid, "islands", f"expected two drawn islands, got {between!r}")
            continue
        shared = [
            (a, b)
            for a, b in shared_edges(seas[pair[0]]["outline"], seas[pair[1]]["outline"])
            for x, y in ((a, b), (b, a))
            if inside(vertices[x], coasts[0]) and inside(vertices[y], coasts[1])
        ]
        if len(shared) != 1:
            c.add(f, rid, "seas", f"{pair[0]} and {pair[1]} should share one border from {between[0]} to {between[1]}")
            continue
        a, b = shared[0]
        straits.append({"seas": list(pair), "islands": list(between), "line": [list(vertices[a]), list(vertices[b])]})
    # every zone of the board is drawn, and nothing else
    for what, drawn, known in (
        ("sea", seas, board.seas),
        ("island", islands, board.islands),
        ("base", bases, {b.id for b in board.bases.values()}),
    ):
        for zone in known:
            if zone not in drawn:
                c.add(f, what, "id", f"{zone!r} is not drawn")
        for zone in drawn:
            if zone not in known:
                c.add(f, what, "id", f"{zone!r} is not on the board")
    c.raise_if_any()
    compass = doc.get("compass", [0, 0, 0])
    ok = isinstance(compass, list) and len(compass) == 3
    if not ok or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in compass):
        c.add(f, "layout", "compass", f"expected [x, y, degrees], got {compass!r}")
    c.raise_if_any()
    return {
        "width": width,
        "height": height,
        "compass": compass,
        "seas": seas,
        "islands": islands,
        "bases": bases,
        "straits": straits,
    }


def shared_edges(a: list[str], b: list[str]) -> list[tuple[str, str]]:
    """The polygon edges (pairs of vertex names) two outlines have in common."""

    def edges(names: list[str]) -> set[frozenset[str]]:
        return {frozenset((names[i], names[(i + 1) % len(names)])) for i in range(len(names))}

    common = edges(a) & edges(b)
    return [tuple(sorted(e)) for e in common]  # type: ignore[misc]


def inside(point: Point, polygon: list[list[float]]) -> bool:
    """Whether a point lies inside a polygon (even-odd rule)."""
    x, y = point
    hit = False
    n = len(polygon)
    for i in range(n):
        x1, y1 = polygon[i]
        x2, y2 = polygon[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit
