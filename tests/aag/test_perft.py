"""Legal-action counts at fixed positions, like perft in chess: the number of action sequences of
a given length from a position (each played on a clone, with the position's seeded dice). They
pin the legal actions of every step kind so that a change to them is seen.

The counts were taken with the engine before it moved onto the game kit, and found the same
after. If a count changes on purpose, check the new one by hand and update it here."""

from __future__ import annotations

import pytest

from henderson.core.dice import SeededDice
from henderson.games.aag.state import AAGState

from .helpers import acts, game, piece, position


def perft(state: AAGState, depth: int) -> int:
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        total += perft(child, depth - 1)
    return total


def seeded(state: AAGState) -> AAGState:
    state.dice = SeededDice(7)
    return state


@pytest.mark.parametrize(
    ("options", "counts"),
    [
        ({}, [10, 77, 714]),  # Japan's transports, then the Allies' (AAG Movement step 1)
        ({"hidden_movement": True}, [15, 145, 1029]),  # loads, then secret sea orders
        ({"advantages": True}, [10, 78, 745]),  # Coast Watchers may be spent before moving
    ],
    ids=["plain", "hidden", "advantages"],
)
def test_counts_from_the_opening(options: dict[str, bool], counts: list[int]) -> None:
    state = game().new_state(1, options=options, dice=SeededDice(1))
    assert [perft(state, depth) for depth in (1, 2, 3)] == counts


def test_counts_in_a_land_combat_with_ranged_ships_and_airfields_rule_aag_combat_step_4() -> None:
    pieces = [
        piece("us1", "cruiser", "G"),
        piece("us2", "battleship", "I"),
        piece("us3", "fighter", "new_georgia"),
        piece("us4", "bomber", "new_georgia"),
        piece("us5", "infantry", "new_georgia"),
        piece("jp1", "infantry", "new_georgia"),
        piece("jp2", "artillery", "new_georgia"),
        piece("jp3", "fighter", "new_georgia"),
    ]
    fields = [{"island": "new_georgia", "side": "jp"}, {"island": "new_georgia", "side": "jp"}]
    state = seeded(position(pieces, step="combat:land", first="us", airfields=fields))
    assert acts(state) == ["fight new_georgia"]
    assert perft(state, 2) == 5  # join us1, join us2, aim us3, aim us4, roll
    assert perft(state, 3) == 19


def test_counts_in_a_sea_combat_with_a_hit_to_assign_rule_aag_loss_of_cargo() -> None:
    pieces = [
        piece("us1", "destroyer", "H"),
        piece("us2", "destroyer", "H"),
        piece("us3", "cruiser", "H"),
        piece("jp1", "transport", "H"),
        piece("jp2", "transport", "H"),
        piece("jp3", "infantry", "H", aboard="jp2"),
        piece("jp4", "battleship", "H"),
        piece("us6", "artillery", "guadalcanal"),
    ]
    state = seeded(position(pieces, step="combat:sea", first="us"))
    assert acts(state) == ["fight H"]
    assert perft(state, 2) == 2  # join us6, roll
    assert perft(state, 4) == 11


def test_counts_when_air_units_land_rule_aag_landing_capacities() -> None:
    pieces = [
        piece("us1", "fighter", "H"),
        piece("us2", "fighter", "H"),
        piece("us3", "bomber", "E"),
        piece("us4", "carrier", "J"),
        piece("us5", "fighter", "J", aboard="us4"),
    ]
    state = seeded(position(pieces, step="regroup:land", first="us"))
    assert sorted(acts(state)) == [
        "land us1 guadalcanal",
        "land us1 us4",
        "land us3 guadalcanal",
        "land us5 guadalcanal",
        "land us5 new_caledonia",
        "land us5 us4",
    ]
    assert perft(state, 2) == 24


def test_counts_when_reinforcing_rule_aag_reinforce() -> None:
    pieces = [
        piece("us1", "transport", "new_caledonia_sea"),
        piece("us2", "infantry", "new_caledonia"),
        piece("us3", "fighter", "new_caledonia"),
        piece("us4", "carrier", "new_caledonia_sea"),
    ]
    state = seeded(position(pieces, step="regroup:buy", first="us", points={"us": 14}))
    assert acts(state) == [
        "buy battleship",
        "buy cruiser",
        "buy carrier",
        "buy destroyer",
        "buy bomber",
        "buy submarine",
        "buy fighter",
        "buy artillery",
        "buy aa_gun",
        "buy transport",
        "buy supply",
        "buy infantry",
        "load us1 us2",
        "load us4 us3",
        "end",
    ]
    assert perft(state, 2) == 213
