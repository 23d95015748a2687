"""Airfield hexes: their status, US air capacity, and Japanese occupation (FB 9.5.3, 11.2, 12.x).

Status of each airfield hex: "operational", "damaged" (artillery, FB 9.5.3),
"destroyed" (air, naval or ground attack, FB 10.3, 12.6, 13.3.3) or "unbuilt"
(a Fighter Strip hex not yet constructed, FB 11.2, 12.6.1).
"""

from __future__ import annotations

from henderson.core.events import Event
from henderson.games.firstblood.rules.placement import AIRSTRIP_STACK
from henderson.games.firstblood.state import FBState, Status

FLYING_BOXES = ("usaf_cap", "usaf_ground_attack")


def is_airfield(st: FBState, hex_id: str) -> bool:
    """An airfield hex in the sense of FB 2.0/12.6: Henderson Field, or a constructed Fighter Strip hex."""
    return hex_id in st.airfield and st.airfield[hex_id] != Status.UNBUILT  # FB 12.6.1


def operative(st: FBState, hex_id: str) -> bool:
    return st.airfield.get(hex_id) == Status.OPERATIONAL


def fighters_only(st: FBState, hex_id: str) -> bool:
    return hex_id in st.board.fighter_strip  # FB 12.5


def is_fighter(st: FBState, unit: str) -> bool:
    return st.data.air_types[st.data.air[unit].type].is_fighter


def is_bomber(st: FBState, unit: str) -> bool:
    return st.data.air_types[st.data.air[unit].type].is_bomber


def air_on(st: FBState, place: str) -> list[str]:
    return sorted(a for a, where in st.air.items() if where == place)


def capacity_ok(st: FBState, extra: str | None = None) -> bool:
    """FB 12.3.1, 12.5: at most 6 air units per operative airfield hex on the strips and in
    the CAP and Ground Attack boxes together; Fighter Strip capacity only for fighters.
    `extra` is a unit about to join them."""
    strips = [h for h in st.board.airfield_hexes if operative(st, h)]
    total = len([h for h in strips if not fighters_only(st, h)])
    fs = len(strips) - total
    units = [a for a, where in st.air.items() if where in strips or where in FLYING_BOXES]
    units += [a for a, where in st.air.items() if where in st.board.airfield_hexes and where not in strips]
    if extra is not None and extra not in units:
        units.append(extra)
    non_fighters = sum(1 for a in units if not is_fighter(st, a))
    return len(units) <= AIRSTRIP_STACK * (total + fs) and non_fighters <= AIRSTRIP_STACK * total


def landing_hexes(st: FBState, unit: str) -> list[str]:
    """Operative airstrip hexes with room for `unit` (FB 5.2, 12.1, 12.5)."""
    fighter = is_fighter(st, unit)
    return [
        h
        for h in st.board.airfield_hexes
        if operative(st, h)
        and (fighter or not fighters_only(st, h))
        and sum(1 for where in st.air.values() if where == h) < AIRSTRIP_STACK
    ]


def destroy_hex(st: FBState, hex_id: str, rule: str, events: list[Event]) -> None:
    st.airfield[hex_id] = Status.DESTROYED
    st.work.pop(hex_id, None)
    events.append(
        Event("airfield", f"airfield hex {hex_id} destroyed ({rule})", {"hex": hex_id, "status": "destroyed"})
    )


def occupied(st: FBState, hex_id: str, events: list[Event]) -> None:
    """FB 12.6: a Japanese ground unit entering an airfield hex destroys the US air units on it
    and the hex itself."""
    if not is_airfield(st, hex_id):
        return
    for a in air_on(st, hex_id):
        st.eliminate(a, "FB 12.6", f"on the ground when Japanese troops took {hex_id}", events)
    if st.airfield[hex_id] != Status.DESTROYED:
        destroy_hex(st, hex_id, "FB 12.6", events)


def japanese_on_airfield(st: FBState) -> list[str]:
    """Airfield hexes held by Japanese ground units (FB 2.0, 12.6.2)."""
    return sorted(h for h in st.airfield if is_airfield(st, h) and st.owner_of_hex(h) == "jp")
