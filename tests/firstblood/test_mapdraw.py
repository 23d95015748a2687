"""Drawing the FIRST BLOOD map: SVG and PNG files that are not empty, a clear error otherwise."""

from __future__ import annotations

from pathlib import Path

import pytest

from henderson.core.errors import HendersonError
from henderson.games.firstblood.data import load_data
from henderson.games.firstblood.mapdraw import MapDrawError, centre, draw_map, edge
from henderson.games.firstblood.model import FBData


@pytest.fixture(scope="module")
def data() -> FBData:
    return load_data()


def test_svg(data, tmp_path: Path):
    path = tmp_path / "map.svg"
    draw_map(data, path)
    text = path.read_text()
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    assert len(text) > 50_000  # hundreds of hexes, numbers and hexsides


def test_png_with_units(data, tmp_path: Path):
    path = tmp_path / "setup.png"
    draw_map(data, path, {p.unit: p.at for p in data.setup})
    blob = path.read_bytes()
    assert blob[:8] == b"\x89PNG\r\n\x1a\n" and len(blob) > 50_000


def test_other_suffix_is_a_clear_error(data, tmp_path: Path):
    message = r"map\.pdf: cannot draw a map as '\.pdf'; use \.svg or \.png"
    with pytest.raises(MapDrawError, match=message):
        draw_map(data, tmp_path / "map.pdf")
    assert issubclass(MapDrawError, HendersonError)


def test_unwritable_path_is_a_clear_error(data, tmp_path: Path):
    with pytest.raises(MapDrawError, match="cannot write the map"):
        draw_map(data, tmp_path / "no such directory" / "map.svg")


def test_geometry_north_up_columns_increase_westward(data):
    x1, y1 = centre(data, "0701")
    x2, y2 = centre(data, "0702")
    _x3, y3 = centre(data, "0801")
    assert x2 < x1 and y2 == y1  # column 02 lies west (left) of column 01
    assert y3 > y1  # row 08 lies north of row 07
    (ax, ay), (bx, by) = edge(data, "0709", "0710")
    assert ax == pytest.approx(bx)  # a hexside within a row is vertical (pointy-top hexes)
    assert abs(ay - by) == pytest.approx(1.0)
