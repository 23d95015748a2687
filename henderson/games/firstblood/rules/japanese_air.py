"""Japanese air missions (FB 13.3) and fire on the airfields by Japanese artillery (FB 9.5.1,
9.5.3) and ships (FB 10.1.2, 10.3, 10.5).

Missions may be flown in the Japanese movement or combat phase, in any order (see rulings).
Every Japanese air unit is removed once its mission is over (FB 13.3.3 example).
"""

from __future__ import annotations

from dataclasses import replace

from henderson.core.errors import IllegalAction
from henderson.core.events import Event
from henderson.core.game import Action
from henderson.games.firstblood import actions as A
from henderson.games.firstblood.rules import airfields, artillery, decisions
from henderson.games.firstblood.state import FBState, Lose, Status

JP_AIR_BOXES = ("ijaf_reserve", "ijaf_attack")
JP_SHIP_BOXES = ("ijn_reserve", "ijn_attack")


def ready(st: FBState, role: str) -> list[str]:
    """Japanese air units of a role in the IJAF boxes (FB 13.4: either box may fly)."""
    types = st.data.air_types
    return sorted(
        a for a, where in st.air.items() if where in JP_AIR_BOXES and role in types[st.data.air[a].type].roles
    )


def representatives(st: FBState, units: list[str]) -> list[str]:
    """One unit per (type, box): the others of its kind would do exactly the same."""
    seen: set[tuple[str, str]] = set()
    reps = []
    for a in units:
        key = (st.data.air[a].type, st.air[a])
        if key not in seen:
            seen.add(key)
            reps.append(a)
    return reps


def same_kind(st: FBState, unit: str) -> list[str]:
    """The Japanese air units or ships identical to `unit`: same type, same box (FB 10.3, 13.3 let
    any of them fly or fire; the legal list names the first of each kind)."""
    if unit in st.air:
        key = (st.data.air[unit].type, st.air[unit])
        return sorted(a for a, where in st.air.items() if (st.data.air[a].type, where) == key)
    key = (st.data.ships[unit].type, st.ships[unit])
    return sorted(s for s, where in st.ships.items() if (st.data.ships[s].type, where) == key)


def listed_form(st: FBState, action: A.AirMission | A.Bombard) -> A.AirMission | A.Bombard | None:
    """The action of the legal list that `action` is, up to identical counters: `air Zero-2 cap` is
    listed as `air Zero-1 cap` when both wait in the same box. None if a counter is not in play,
    or named twice."""
    if isinstance(action, A.Bombard):
        if action.unit not in st.ships:
            return None
        return A.Bombard(action.hex, same_kind(st, action.unit)[0])
    units = action.units
    if len(set(units)) != len(units) or any(st.air.get(u) not in JP_AIR_BOXES for u in units):
        return None
    if len(units) == 2 and same_kind(st, units[0]) == same_kind(st, units[1]):
        kind = same_kind(st, units[0])
        return A.AirMission((kind[0], kind[1]), action.target)
    return A.AirMission(tuple(sorted(same_kind(st, u)[0] for u in units)), action.target)


def accepts(st: FBState, action: Action) -> bool:
    """An air mission or bombardment naming other identical counters than the listed one (FB 10.3, 13.3)."""
    if not isinstance(action, A.AirMission | A.Bombard):
        return False
    listed = listed_form(st, action)
    return listed is not None and listed != action and st.is_listed(listed)


def bomb_targets(st: FBState) -> list[str]:
    """FB 13.3.3: airfield hexes (Henderson Field in any state, the Fighter Strip once built,
    FB 12.6.1): those the artillery and ships may hit too (FB 9.5.1, 10.3). A destroyed hex can
    still be bombed: it stops the engineers rebuilding it (FB 11.4)."""
    return artillery_targets(st)


def missions(st: FBState) -> list[Action]:
    """The Japanese air missions open now (FB 13.3), one per kind of counter. They depend on
    where the air units are and on the airfields only, so each answer is kept with the
    phase's other answers, for the many listings of a phase in which neither changes."""
    if st.phasing != "jp" or st.combat.building is not None:
        return []
    key = ("air missions", tuple(st.air.items()), tuple(st.airfield.items()))
    found = st.reach_cache.get(key)
    if found is None:
        found = st.reach_cache[key] = _missions(st)
    return list(found)


def _missions(st: FBState) -> list[Action]:
    cap = airfields.air_on(st, "usaf_cap")
    ga = airfields.air_on(st, "usaf_ground_attack")
    fighters = ready(st, "fighter")
    bombers = ready(st, "bomber")
    acts: list[Action] = []
    for f in representatives(st, fighters):
        if cap:
            acts.append(A.AirMission((f,), "usaf_cap"))  # FB 13.3.1
        elif ga:
            acts.append(A.AirMission((f,), "usaf_ground_attack"))  # FB 13.3.1
    if cap:  # FB 13.3.3: two bombers may eliminate a CAP fighter
        reps = representatives(st, bombers)
        for i, b1 in enumerate(reps):
            for b2 in reps[i:]:
                if b1 == b2:
                    same = [
                        b for b in bombers if st.data.air[b].type == st.data.air[b1].type and st.air[b] == st.air[b1]
                    ]
                    if len(same) >= 2:
                        acts.append(A.AirMission((same[0], same[1]), "usaf_cap"))
                else:
                    acts.append(A.AirMission((b1, b2), "usaf_cap"))
    else:  # FB 13.3.2: no airfield attacks while the CAP box holds US aircraft
        for b in representatives(st, bombers):
            acts.extend(A.AirMission((b,), h) for h in bomb_targets(st))
    return acts


def explain(st: FBState, action: Action) -> IllegalAction:
    if isinstance(action, A.Bombard):
        return explain_bombard(st, action)
    assert isinstance(action, A.AirMission)
    if st.phasing != "jp":
        return IllegalAction("FB 13.3", "only the Japanese player initiates air combat")
    for u in action.units:
        if u not in st.air or st.air[u] not in JP_AIR_BOXES:
            return IllegalAction("FB 13.4", f"{u} is not a Japanese air unit in the IJAF Reserve or Attack box")
    if len(set(action.units)) != len(action.units):
        return IllegalAction("FB 13.3.3", "a unit is named twice: two bombers means two different units")
    roles = [st.data.air_types[st.data.air[u].type].roles for u in action.units]
    cap = airfields.air_on(st, "usaf_cap")
    if action.target == "usaf_cap":
        if not cap:
            return IllegalAction("FB 13.3.1", "the USAF CAP box is empty")
        return IllegalAction("FB 13.3.3", "a CAP fighter is attacked by one Japanese fighter or two Japanese bombers")
    if action.target == "usaf_ground_attack":
        if cap:
            return IllegalAction(
                "FB 13.3.1", "Japanese fighters may not attack the Ground Attack box while US aircraft fly CAP"
            )
        return IllegalAction(
            "FB 13.3.3", "only one Japanese fighter attacks the Ground Attack box, and it must hold US bombers"
        )
    if cap:
        return IllegalAction("FB 13.3.2", "Japanese bombers may not attack airfields while US aircraft fly CAP")
    if len(action.units) != 1 or "bomber" not in roles[0]:
        return IllegalAction("FB 13.3.3", "one Japanese bomber attacks an airfield hex (fighters cannot)")
    if action.target in st.board.fighter_strip:
        return IllegalAction("FB 12.6.1", f"{action.target} is a Fighter Strip hex not yet built: not an airfield hex")
    return IllegalAction("FB 13.3.3", f"{action.target} is not an airfield hex")


def fly(st: FBState, action: A.AirMission, events: list[Event]) -> None:
    names = "+".join(action.units)
    for u in action.units:
        st.eliminate(u, "FB 13.3.3", "its mission is over", events)
    target = action.target
    if target in ("usaf_cap", "usaf_ground_attack"):
        victims = airfields.air_on(st, target)
        box = "CAP" if target == "usaf_cap" else "Ground Attack"
        events.append(
            Event(
                "air",
                f"{names} attack(s) the USAF {box} box (FB 13.3.3)",
                {"units": list(action.units), "target": target},
            )
        )
        st.pending.append(Lose("us", units=victims, count=1, rule="FB 13.3.3"))
    else:
        strike(st, target, "FB 13.3.3", Status.DESTROYED, f"{names} bomb(s) airfield hex {target}", events)
    decisions.settle(st, events)


def strike(st: FBState, hex_id: str, rule: str, damage: Status, text: str, events: list[Event]) -> None:
    """One hit on an airfield hex: a US air unit there (owner's choice, FB 8.10.1), else the hex."""
    st.disturbed |= {hex_id}  # FB 11.4: any attack stops engineer work
    events.append(Event("airfield-attack", f"{text} ({rule})", {"hex": hex_id, "rule": rule}))
    victims = airfields.air_on(st, hex_id)
    if victims:
        st.pending.append(Lose("us", units=victims, count=1, rule=rule))
        return
    status = st.airfield[hex_id]
    if damage == Status.DAMAGED:
        if status == Status.OPERATIONAL:  # FB 9.5.3: damaged, not destroyed; no further damage
            st.airfield[hex_id] = Status.DAMAGED
            st.work.pop(hex_id, None)
            events.append(
                Event("airfield", f"airfield hex {hex_id} damaged ({rule})", {"hex": hex_id, "status": "damaged"})
            )
    elif status != Status.DESTROYED:
        airfields.destroy_hex(st, hex_id, rule, events)


def artillery_targets(st: FBState) -> list[str]:
    """FB 9.5.1: Henderson Field, or the Fighter Strip once constructed."""
    return [h for h in st.board.airfield_hexes if airfields.is_airfield(st, h)]


def bombardments(st: FBState) -> list[Action]:
    if st.phasing != "jp" or st.combat.building is not None:
        return []
    acts: list[Action] = []
    hexes = artillery_targets(st)
    ground, board = st.data.ground, st.board
    for unit in sorted(u for u in artillery.guns(st) if u in st.ground and ground[u].side == "jp"):
        reach = artillery.fire_range(st, unit)  # FB 9.2-9.4: `can_bombard` each hex
        if reach is not None:
            here = st.ground[unit]
            acts.extend(A.Bombard(h, unit) for h in hexes if board.in_range(here, h, reach))
    seen: set[tuple[str, str]] = set()
    for ship in sorted(st.ships):
        key = (st.data.ships[ship].type, st.ships[ship])
        if key in seen:
            continue
        seen.add(key)
        acts.extend(A.Bombard(h, ship) for h in hexes)  # FB 10.1.2, 10.1.3: both boxes
    return acts


def explain_bombard(st: FBState, action: A.Bombard) -> IllegalAction:
    if st.phasing != "jp":
        return IllegalAction("FB 9.5", "only Japanese artillery and ships bombard airfields without a ground attack")
    if action.hex not in artillery_targets(st):
        return IllegalAction("FB 9.5.1", f"{action.hex} is not Henderson Field or a constructed Fighter Strip hex")
    if action.unit in st.data.ships:
        if action.unit not in st.ships:
            return IllegalAction("FB 10.1", f"{action.unit} is not in play: only ships in an IJN box bombard")
        return IllegalAction("FB 10.2", f"{action.unit} fires its mission in the Japanese combat phase")
    g = st.data.ground.get(action.unit)
    if g is None or g.side != "jp" or g.range is None:
        return IllegalAction("FB 9.1", f"{action.unit} is not a Japanese artillery unit")
    if action.unit in st.combat.attacked:
        return IllegalAction("FB 9.4", f"{action.unit} has already fired this turn")
    if artillery.adjacent_to_enemy(st, action.unit):
        return IllegalAction("FB 9.4", f"{action.unit} is next to US units and must attack them")
    return IllegalAction("FB 9.2", f"{action.hex} is out of {action.unit}'s range of {g.range} (counted inclusively)")


def bombard(st: FBState, action: A.Bombard, events: list[Event]) -> None:
    if action.unit in st.data.ships:
        st.eliminate(action.unit, "FB 10.5", "removed after its bombardment", events)
        strike(st, action.hex, "FB 10.3", Status.DESTROYED, f"{action.unit} shells airfield hex {action.hex}", events)
    else:
        st.combat = replace(st.combat, attacked=st.combat.attacked | {action.unit})  # FB 9.4: one attack per turn
        strike(st, action.hex, "FB 9.5.3", Status.DAMAGED, f"{action.unit} bombards airfield hex {action.hex}", events)
    decisions.settle(st, events)
