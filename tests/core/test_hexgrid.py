"""Properties of the core hex math (axial coordinates, offset layouts) and docs/data.md's examples."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from henderson.core.hexgrid import (
    DIRECTIONS,
    Hex,
    OffsetLayout,
    distance,
    hexside,
    line,
    neighbours,
    ring,
    within,
)

coord = st.integers(min_value=-60, max_value=60)
hexes = st.builds(Hex, coord, coord)
radii = st.integers(min_value=0, max_value=12)
layouts = st.builds(
    OffsetLayout,
    parity=st.sampled_from(["even-r", "odd-r", "even-q", "odd-q"]),
    order=st.sampled_from(["row-col", "col-row"]),
    digits=st.just(2),
)
FB = OffsetLayout(parity="even-r", order="row-col", digits=2)


@given(hexes, hexes)
def test_distance_is_symmetric_and_zero_only_on_itself(a, b):
    assert distance(a, b) == distance(b, a) >= 0
    assert (distance(a, b) == 0) == (a == b)


@given(hexes, hexes, hexes)
def test_distance_triangle_inequality(a, b, c):
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(hexes)
def test_neighbours_are_six_hexes_at_distance_one(h):
    ns = neighbours(h)
    assert len(set(ns)) == 6
    assert all(distance(h, n) == 1 for n in ns)
    assert all(h in neighbours(n) for n in ns)


@given(hexes, radii)
def test_ring_size_and_distance(h, r):
    cells = ring(h, r)
    assert len(cells) == (1 if r == 0 else 6 * r)
    assert len(set(cells)) == len(cells)
    assert all(distance(h, c) == r for c in cells)


@given(hexes, radii)
def test_within_is_the_union_of_rings(h, r):
    assert set(within(h, r)) == {c for k in range(r + 1) for c in ring(h, k)}


def test_ring_rejects_negative_radius():
    with pytest.raises(ValueError):
        ring(Hex(0, 0), -1)


@given(hexes, hexes)
def test_line_length_endpoints_and_steps(a, b):
    cells = line(a, b)
    assert len(cells) == distance(a, b) + 1
    assert cells[0] == a and cells[-1] == b
    assert all(distance(x, y) == 1 for x, y in pairwise(cells))


@given(hexes, st.sampled_from(DIRECTIONS))
def test_hexside_is_unordered(h, d):
    n = Hex(h.q + d.q, h.r + d.r)
    assert hexside(h, n) == hexside(n, h)


@given(hexes, hexes)
def test_hexside_needs_adjacent_hexes(a, b):
    if distance(a, b) != 1:
        with pytest.raises(ValueError):
            hexside(a, b)


@given(layouts, st.integers(0, 99), st.integers(0, 99))
def test_offset_round_trip(layout, row, col):
    hex_id = layout.from_offset(row, col)
    assert layout.to_offset(hex_id) == (row, col)
    assert layout.hex_to_offset(layout.offset_to_hex(row, col)) == (row, col)
    assert layout.to_id(layout.to_hex(hex_id)) == hex_id


@given(layouts, st.integers(1, 98), st.integers(1, 98))
def test_offset_neighbours_are_six_distinct_numbers(layout, row, col):
    h = layout.offset_to_hex(row, col)
    ids = {layout.to_id(n) for n in neighbours(h)}
    assert len(ids) == 6 and layout.from_offset(row, col) not in ids


@pytest.mark.parametrize("bad", ["", "070", "07080", "ab12", "07-8"])
def test_layout_rejects_what_is_not_a_hex_number(bad):
    with pytest.raises(ValueError):
        FB.to_offset(bad)


def fb_neighbours(hex_id: str) -> set[str]:
    return {FB.to_id(n) for n in neighbours(FB.to_hex(hex_id))}


def test_data_md_adjacency_fb_4_2():
    assert fb_neighbours("0710") == {"0709", "0711", "0809", "0810", "0609", "0610"}


def test_data_md_adjacency_fb_4_5():
    assert {"0507", "0307"} <= fb_neighbours("0406")


def test_data_md_adjacency_fb_8_2():
    assert "0606" in fb_neighbours("0707") and "0605" not in fb_neighbours("0707")
    assert "0604" in fb_neighbours("0705")


def test_data_md_adjacency_fb_9_3():
    assert {"0603", "0604"} <= fb_neighbours("0504")


def test_data_md_range_fb_9_2():
    """SUY at 0701 with range 8 (counted inclusively) reaches 0708 but not 0709."""
    assert distance(FB.to_hex("0701"), FB.to_hex("0708")) + 1 == 8
    assert distance(FB.to_hex("0701"), FB.to_hex("0709")) + 1 == 9
