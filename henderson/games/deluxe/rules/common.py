"""Mechanisms several rules share: occupancy, zones of control (a hex at a time; a side's
whole zone is `core.paths.zone_of_control` in movement.py), stacking, control of Henderson
Field and villages, step losses, victory points, this turn's random event, the start of a
player turn. Each lives here once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from operator import is_
from typing import TYPE_CHECKING, Any

from henderson.core.events import Event

from ..model import other
from ..units import OFF_MAP_SET

if TYPE_CHECKING:
    from ..state import DGState
    from ..units import UnitState


def occupancy(state: DGState) -> dict[str, list[UnitState]]:
    """Units on the map by hex, bottom to top (DG 7.8: the last placed is on top). The last
    one made is kept on the game with the records it was made from (it reads nothing else),
    and made again only when one of them was replaced: the rules read it several times a
    decision, and a position's clones share its records. Never to be changed by a caller."""
    units = state.units
    game = state.game
    kept = game.occupied
    if kept is not None:
        made_from = kept[0]
        if len(made_from) == len(units) and all(map(is_, made_from, units.values())):
            return kept[1]
    occ = placed(units.values())
    game.occupied = (tuple(units.values()), occ)
    return occ


def placed(units: Iterable[UnitState]) -> dict[str, list[UnitState]]:
    """`units` on the map by hex, bottom to top (DG 7.8), worked out from their records."""
    occ: dict[str, list[UnitState]] = {}
    off = OFF_MAP_SET
    for u in units:
        at = u.at
        if at in off:
            continue
        here = occ.get(at)
        if here is None:
            occ[at] = [u]
        else:
            here.append(u)
    for units in occ.values():
        if len(units) > 1:
            units.sort(key=stack_order)
    return occ


def stack_order(u: UnitState) -> tuple[int, str]:
    """Bottom to top in a stack: placing order, then id (DG 7.8)."""
    return (u.order, u.id)


def side_in(occ: dict[str, list[UnitState]], hex_id: str) -> str | None:
    """The side holding a hex, or None when it is empty."""
    units = occ.get(hex_id)
    return units[0].side if units else None


def visible_units(units: list[UnitState]) -> list[UnitState]:
    """The units of a stack not under a stealth marker."""
    return [u for u in units if not u.stealth]


def enemy_adjacent(state: DGState, occ: dict[str, list[UnitState]], hex_id: str, side: str) -> bool:
    """True when a (non-stealth) enemy unit is next to `hex_id`."""
    for n in state.data.map.adjacent[hex_id]:
        units = occ.get(n)
        if units and units[0].side != side and visible_units(units):
            return True
    return False


def in_enemy_zoc(state: DGState, occ: dict[str, list[UnitState]], hex_id: str, side: str) -> bool:
    """DG 7.4: every unit controls the six hexes around it; DG 7.4.2: jungle negates it.

    Units under stealth exert no zone of control (docs/rulings/deluxe.md, DG 7.7).
    """
    if state.data.map.hexes[hex_id].jungle:
        return False
    return enemy_adjacent(state, occ, hex_id, side)


def counts_two(state: DGState, u: UnitState) -> bool:
    """DG 10.2.3 note: a Heavy battalion counts two for stacking in its landing hex on its
    landing turn ("only one other non-heavy unit may stack with one heavy unit in the
    landing hex"); a unit's `start` is its landing hex on the turn it lands."""
    return u.landed == state.turn and u.at == u.start and state.data.units[u.id].heavy


def stack_size(units: list[UnitState], state: DGState) -> int:
    """How many stacking places the units fill (DG 7.5, a landed Heavy counts two)."""
    return sum(2 if counts_two(state, u) else 1 for u in units)


def stack_sizes(state: DGState, occ: dict[str, list[UnitState]]) -> dict[str, int]:
    """The stacking places filled in each occupied hex (DG 7.5, DG 10.2.3 note): as
    `stack_size`, a heavy only looked at when it landed this turn."""
    turn = state.turn
    types = state.data.units
    out: dict[str, int] = {}
    for h, us in occ.items():
        n = len(us)
        for u in us:
            if u.landed == turn and u.at == u.start and types[u.id].heavy:  # `counts_two`
                n += 1
        out[h] = n
    return out


def room(
    state: DGState,
    occ: dict[str, list[UnitState]],
    hex_id: str,
    unit: UnitState,
    landing: bool = False,
) -> bool:
    """DG 7.5: at most three units a hex (checked whenever a unit would end there); a Heavy
    battalion landing, or back in its landing hex on the landing turn, needs two places."""
    here = [u for u in occ.get(hex_id, []) if u.id != unit.id]
    heavy = state.data.units[unit.id].heavy
    back = unit.landed == state.turn and hex_id == unit.start
    need = 2 if heavy and (landing or back) else 1
    return stack_size(here, state) + need <= state.data.constants.stacking


def place(state: DGState, unit: UnitState, hex_id: str, **changes: Any) -> UnitState:
    """Put a unit on top of the stack in `hex_id` (with other `changes` to its record in the
    same copy); the unit's new record."""
    state.counter += 1
    return state.update(unit, at=hex_id, order=state.counter, **changes)


def hf_operational(state: DGState) -> bool:
    """DG 7.11: Henderson Field needs at least ten status points to be operational."""
    return state.airfield.status >= state.data.constants.hf_operational


def change_hf(state: DGState, amount: int, by: str, events: list[Event], why: str) -> None:
    """Move the Henderson Field status marker within 0..max (DG 7.11, 8.1.6, 8.2.8)."""
    if amount == 0:
        return
    before = state.airfield.status
    field = state.airfield = replace(state.airfield, status=max(0, min(state.data.constants.hf_max, before + amount)))
    if field.status == before:
        return
    events.append(
        Event(
            "hf",
            f"{why}: Henderson Field status {before} -> {field.status}",
            {"from": before, "to": field.status, "by": by},
        )
    )
    limit = state.data.constants.hf_operational
    # DG 10.2.1 "capture Henderson Field ... or reduce it to inoperable status": the field
    # the Japanese reduce must be the US-held one (wrecking their own field earns nothing)
    if before >= limit > field.status and by == "jp" and field.control == "us":
        state.this_turn.jp_reduced = True
        bonus(state, events)


def bonus(state: DGState, events: list[Event]) -> None:
    """DG 10.2.1: four supply points at once when the Japanese capture or disable the field."""
    if state.this_turn.capture_bonus_given:
        return
    state.this_turn.capture_bonus_given = True
    add_supply(state, "jp", state.data.constants.capture_bonus, events, "DG 10.2.1 capture bonus")


def add_supply(state: DGState, side: str, amount: int, events: list[Event], why: str) -> None:
    """Artillery supply changes, kept within 0..40 (DG 8.1.1)."""
    before = state.supply[side]
    state.supply[side] = max(0, min(state.data.constants.supply_cap, before + amount))
    if state.supply[side] != before:
        events.append(
            Event(
                "supply",
                f"{why}: {side} supply {before} -> {state.supply[side]}",
                {"side": side, "from": before, "to": state.supply[side]},
            )
        )


def take_control(state: DGState, unit: UnitState, hex_id: str, events: list[Event]) -> None:
    """DG 9.3: a non-artillery unit that occupies or passes through Henderson Field or a
    village takes control of it."""
    if state.data.units[unit.id].artillery:
        return
    m = state.data.map
    if hex_id == m.henderson_field and state.airfield.control != unit.side:
        state.airfield = replace(state.airfield, control=unit.side)
        events.append(
            Event(
                "control",
                f"{unit.side} takes control of Henderson Field",
                {"hex": hex_id, "side": unit.side},
            )
        )
        if unit.side == "us":
            state.this_turn.hf_us_touched = True
        else:
            state.this_turn.jp_captured = True
            bonus(state, events)
    elif hex_id in m.villages and state.villages.get(hex_id) != unit.side:
        state.villages[hex_id] = unit.side
        events.append(
            Event(
                "control",
                f"{unit.side} takes control of {m.villages[hex_id]}",
                {"hex": hex_id, "side": unit.side},
            )
        )


def award_vp(state: DGState, side: str, points: int, events: list[Event], why: str) -> None:
    """Zero-sum victory points (DG 9.0): `state.vp` is positive when the US leads."""
    if points == 0:
        return
    state.vp += points if side == "us" else -points
    events.append(
        Event(
            "vp",
            f"{why}: {side} +{points} VP (now {vp_text(state.vp)})",
            {"side": side, "points": points, "vp": state.vp},
        )
    )


def vp_text(vp: int) -> str:
    """The VP track as a player reads it: 'US 12', 'Japan 3', 'even'."""
    if vp == 0:
        return "even"
    return f"US {vp}" if vp > 0 else f"Japan {-vp}"


# the points the enemy scores for each factor a side loses: 3 a US factor (DG 9.1), 2 a
# Japanese one (DG 9.2)
STEP_VP = {"us": 3, "jp": 2}


def lose_step(state: DGState, unit: UnitState, events: list[Event], why: str) -> None:
    """One step loss (DG 2.2.1.7): strength minus one, eliminated at zero. Each factor lost
    scores for the enemy (`STEP_VP`, DG 9.1, 9.2)."""
    unit = state.update(unit, strength=state.units[unit.id].strength - 1)
    award_vp(state, other(unit.side), STEP_VP[unit.side], events, f"{unit.id} loses a step")
    if unit.strength <= 0:
        unit = state.update(unit, strength=0, at="eliminated", stealth=0)
        events.append(Event("eliminated", f"{unit.id} is eliminated ({why})", {"unit": unit.id}))
    else:
        events.append(
            Event(
                "step",
                f"{unit.id} loses a step ({why}), now {unit.strength}",
                {"unit": unit.id, "strength": unit.strength},
            )
        )


def eliminate(state: DGState, unit: UnitState, events: list[Event], why: str) -> None:
    """Remove a unit with all its remaining steps (each step scores, DG 9.1-9.2)."""
    while unit.on_map and unit.strength > 0:
        lose_step(state, unit, events, why)
        unit = state.units[unit.id]


def event_effect(state: DGState, kind: str, side: str) -> int:
    """The amount of this turn's random event of `kind` that applies to `side` (DG 5.0)."""
    ev = state.this_turn.event
    if ev is None or ev.kind != kind:
        return 0
    applies = (
        ev.target == "both" or (ev.target == "self" and side == ev.side) or (ev.target == "enemy" and side != ev.side)
    )
    return ev.amount if applies else 0


def begin_player_turn(state: DGState, side: str) -> None:
    """The start of `side`'s player turn: DG 7.9, 7.10 remember where each of its units
    begins it; DG 8.1 each artillery unit fires once in a player's turn, in its side's
    artillery phase or in that turn's assaults (docs/rulings/deluxe.md, ruling 24a)."""
    for u in list(state.units.values()):
        start = (u.at if u.on_map else "") if u.side == side else u.start
        if u.start != start or u.fired:
            state.update(u, start=start, fired=False)
