"""`henderson map GAME`: every game draws its map (and a position's units on it) through the
kit's MAP_DRAWING capability, and refuses a file it cannot write with a one-line error."""

from __future__ import annotations

import pytest

from henderson import games
from henderson.core.drawing import MapDrawError
from henderson.core.game import Capability

SHOWN = {"firstblood": ">1/5<", "deluxe": ">1/1<", "aag": "1 aa, 1 art, 2 ftr"}


@pytest.mark.parametrize("name", ["firstblood", "deluxe", "aag"])
def test_every_game_draws_its_map_with_a_positions_units(name, tmp_path):
    game = games.get(name)
    assert Capability.MAP_DRAWING in game.capabilities
    state = game.new_state(4)
    if name != "aag":
        state.apply(state.legal_actions()[0])  # the first US set-up or landing puts a unit on the map
    placed = tmp_path / "placed.svg"
    game.draw_map(placed, state)
    svg = placed.read_text()
    assert svg.startswith("<?xml")
    assert SHOWN[name] in svg  # text stays text: a unit or a force of the position is named


@pytest.mark.parametrize("name", ["firstblood", "deluxe", "aag"])
def test_a_map_file_of_another_kind_is_refused(name, tmp_path):
    with pytest.raises(MapDrawError, match=r"map\.gif: cannot draw a map as '\.gif'; use \.svg or \.png"):
        games.get(name).draw_map(tmp_path / "map.gif")
