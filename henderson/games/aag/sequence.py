"""The AAG sequence of play as data: the steps of a turn, in order (AAG Sequence of Play).

Each step is done by the first player and then the other, except the combat steps,
where the first player picks zones one at a time and both sides attack in each.
"""

from __future__ import annotations

# AAG Phase 1 Movement Sequence, steps 1–8
MOVEMENT = (
    "move:transport",
    "move:battleship",
    "move:carrier",
    "move:cruiser",
    "move:destroyer",
    "move:submarine",
    "move:bomber",
    "move:fighter",
)
# AAG Appendix 1 Hidden Movement replaces the Movement steps
HIDDEN_MOVEMENT = ("hidden:load", "hidden:orders", "hidden:torpedo", "move:bomber", "move:fighter")
# AAG Phase 2 Combat Sequence, steps 1–4
COMBAT = ("combat:air", "combat:sea", "unload", "combat:land")
# AAG Phase 3 Regroup Sequence, steps 2–4 (1, 5 and 6 need no decision)
REGROUP = ("regroup:land", "regroup:build", "regroup:buy", "regroup:repair", "regroup:deploy")

# the unit type each movement step moves
STEP_TYPE = {
    "move:transport": "transport",
    "move:battleship": "battleship",
    "move:carrier": "carrier",
    "move:cruiser": "cruiser",
    "move:destroyer": "destroyer",
    "move:submarine": "submarine",
    "move:bomber": "bomber",
    "move:fighter": "fighter",
}
COMBAT_CATEGORY = {"combat:air": "air", "combat:sea": "sea", "combat:land": "land"}


# AAG Appendix 1 Advantages: windows in which tokens are spent, and the Coast Watchers'
# deferred movement ("after all other units have moved")
ADVANTAGE_WINDOWS = (
    "move:deferred",
    "move:end",
    "combat:begin",
    "combat:before_sea",
    "combat:before_land",
)


def steps(hidden_movement: bool, advantages: bool = False) -> tuple[str, ...]:
    """Every step of one turn, with or without the hidden-movement and advantage options."""
    movement = HIDDEN_MOVEMENT if hidden_movement else MOVEMENT
    if not advantages:
        return movement + COMBAT + REGROUP
    return (
        *movement,
        "move:deferred",
        "move:end",
        "combat:begin",
        "combat:air",
        "combat:before_sea",
        "combat:sea",
        "unload",
        "combat:before_land",
        "combat:land",
        *REGROUP,
    )
