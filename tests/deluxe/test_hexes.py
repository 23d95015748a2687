"""The printed hex-number convention (docs/rulings/deluxe.md): CCRR, columns west to east,
rows north to south, flat-topped columns with even columns shifted half a hex south."""

from __future__ import annotations

from henderson.core.hexgrid import OffsetLayout, distance

from .support import GAME

M = GAME.data.map


def test_layout_is_even_q_column_row():
    assert M.layout == OffsetLayout("even-q", "col-row", 2)


def test_every_hex_number_round_trips():
    for hid, info in M.hexes.items():
        assert M.layout.to_id(info.hex) == hid


def test_neighbours_follow_the_column_rule():
    """Odd column c, row r: (c±1, r-1), (c±1, r), (c, r±1); even column: (c±1, r), (c±1, r+1)."""
    assert set(M.adjacent["3707"]) == {"3706", "3708", "3606", "3607", "3806", "3807"}
    assert set(M.adjacent["3608"]) == {"3607", "3609", "3508", "3509", "3708", "3709"}


def test_adjacencies_the_rules_imply():
    assert "3312" in M.adjacent["3212"]  # DG 2.1.4 slope hexside between 3212 and 3312
    assert distance(M.hexes["3313"].hex, M.hexes["3312"].hex) == 1  # Mount Austen above it
    assert M.distance("3209", "3707") == 5  # Matanikau five columns west of the field


def test_coast_is_north_and_columns_run_east():
    # the Matanikau (west) has a lower column than Henderson Field; the sea lies north
    assert int("3209"[:2]) < int("3707"[:2])
    assert not M.hexes["3701"].land and M.hexes["3720"].land
