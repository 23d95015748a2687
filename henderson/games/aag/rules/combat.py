"""Phase 2 Combat (AAG Combat Sequence 1–4, How to Attack, Ranged Fire, Loss of Cargo).

For each step the first player picks the zones one at a time (`fight ZONE`); in each,
the first player attacks, then the other, and only then are casualties removed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from henderson.games.aag.actions import END, ROLL, Action
from henderson.games.aag.model import SUPPLY, other
from henderson.games.aag.pieces import Piece
from henderson.games.aag.rules.battlebox import effect, is_hit, target_type
from henderson.games.aag.rules.common import (
    casualty_signature,
    is_cargo,
    land_piece,
    remove_casualties,
    representatives,
)

if TYPE_CHECKING:
    from henderson.games.aag.state import AagState

STEP_RULE = {"air": "AAG Combat step 1", "sea": "AAG Combat step 2", "land": "AAG Combat step 4"}


def targets(state: AagState, side: str, zone: str, cat: str) -> list[Piece]:
    """Enemy units of category `cat` in `zone` that can be fired upon."""
    if cat == "land" and not state.data.board.is_island(zone):
        return []
    return [
        p
        for p in state.in_zone(zone, other(side))
        if p.type != SUPPLY and state.category(p) == cat and not is_cargo(p)
    ]


def enemy_airfields(state: AagState, side: str, zone: str) -> list[dict[str, Any]]:
    return [a for a in state.airfields if a["island"] == zone and a["side"] != side]


def own_attackers(state: AagState, side: str, zone: str, cat: str) -> list[Piece]:
    """Units in the zone adding dice against `cat` (land units only attack on an island)."""
    out = []
    only_unloaded = assault(state, zone)
    for p in state.in_zone(zone, side):
        if p.type == SUPPLY or is_cargo(p) or (only_unloaded and not p.unloaded):
            continue
        ut = state.data.units[p.type]
        if ut.attack[cat] > 0:
            out.append(p)
    return out


def assault(state: AagState, zone: str) -> bool:
    """True during an Amphibious Assault on `zone`: only units unloaded there this turn
    attack, against land units only, with no return fire (AAG Appendix 1)."""
    return bool(state.battle and state.battle.get("only_unloaded") and state.battle["zone"] == zone)


def ranged_candidates(state: AagState, side: str, zone: str, cat: str) -> list[Piece]:
    """Ranged fire into 1 adjacent zone per turn: artillery into a sea zone (AAG Artillery),
    cruisers and battleships into an island zone (AAG Cruiser, Battleship)."""
    board = state.data.board
    out: list[Piece] = []
    if assault(state, zone):
        return out
    if cat == "sea" and zone in board.seas:
        for isl in board.islands.values():
            if zone in isl.seas:
                out += [
                    p
                    for p in state.in_zone(isl.id, side)
                    if p.type == "artillery" and not is_cargo(p) and (not p.fired or p.joined)
                ]
    if cat == "land" and board.is_island(zone):
        for sea in board.islands[zone].seas:
            out += [
                p
                for p in state.in_zone(sea, side)
                if p.type in ("cruiser", "battleship") and (not p.fired or p.joined)
            ]
    return sorted(out, key=lambda p: (p.side, int(p.id[2:])))


def can_attack(state: AagState, side: str, zone: str, cat: str) -> bool:
    """True when `side` has something to fire at in `zone` and dice to fire with."""
    units = own_attackers(state, side, zone, cat) + ranged_candidates(state, side, zone, cat)
    if targets(state, side, zone, cat):
        return bool(units)
    if (
        cat == "land"
        and not assault(state, zone)
        and any(not a["damaged"] for a in enemy_airfields(state, side, zone))
    ):
        # only air units and ranged ships may attack airfields (AAG Combat step 4)
        return any(state.category(p) != "land" for p in units)
    return False


def zones_to_fight(state: AagState, cat: str) -> list[str]:
    """Zones where either side can fire on `cat` units, not yet resolved in this step."""
    board = state.data.board
    zones = {
        "air": [*board.seas, *board.islands],
        "sea": list(board.seas),
        "land": list(board.islands),
    }
    built = state.build_index()  # read-only while the zones are checked
    try:
        return [
            z
            for z in sorted(zones[cat])
            if z not in state.resolved
            and any(can_attack(state, s, z, cat) for s in (state.first, state.second))
        ]
    finally:
        if built:
            state.drop_index()


def legal(state: AagState, cat: str) -> list[Action]:
    battle = state.battle
    if battle is None:
        zones = zones_to_fight(state, cat)
        return [Action("fight", (z,)) for z in zones] or [END]
    if battle.get("choice"):
        choice = battle["choice"]
        cands = [state.pieces[i] for i in choice["candidates"]]
        return [
            Action("hit", (p.id,)) for p in representatives(state, cands, casualty_signature)
        ]
    side, zone = battle["attacker"], battle["zone"]
    out: list[Action] = []
    for p in representatives(
        state, [q for q in ranged_candidates(state, side, zone, cat) if not q.joined]
    ):
        out.append(Action("join", (p.id,)))
    if (
        cat == "land"
        and not assault(state, zone)
        and any(not a["damaged"] for a in enemy_airfields(state, side, zone))
    ):
        aimable = [p for p in own_attackers(state, side, zone, cat) if state.category(p) == "air"]
        aimable += [p for p in ranged_candidates(state, side, zone, cat) if p.joined]
        for p in representatives(state, [q for q in aimable if not q.aimed]):
            out.append(Action("aim", (p.id,)))
    out.append(ROLL)
    return out


def play(state: AagState, action: Action, cat: str) -> None:
    if action == END:
        state.next_step()
        return
    if action.verb == "fight":
        zone = action.args[0]
        state.battle = {"zone": zone, "category": cat, "stage": 0, "attacker": state.first}
        state.emit("battle", f"{STEP_RULE[cat]}: {cat} combat in {zone}", zone=zone)
        begin_attack(state)
    elif action.verb == "join":
        p = state.pieces[action.args[0]]
        p.joined = True
        p.fired = True  # AAG Ranged Fire: once declared, no other zone this turn
        state.emit("join", f"{p.id} ({p.type}) joins the attack on {state.battle['zone']}")  # type: ignore[index]
    elif action.verb == "aim":
        p = state.pieces[action.args[0]]
        p.aimed = True
        state.emit("aim", f"{p.id} ({p.type}) attacks the airfields")
    elif action == ROLL:
        roll_attack(state)
    elif action.verb == "hit":
        choice = state.battle["choice"]  # type: ignore[index]
        state.battle["choice"] = None  # type: ignore[index]
        apply_hit(state, state.pieces[action.args[0]], int(choice["value"]))
        continue_assigning(state)


def begin_attack(state: AagState) -> None:
    """The current attacker declares (if it has choices) or rolls at once."""
    battle = state.battle
    assert battle is not None
    sides = battle.get("sides") or [state.first, state.second]
    while battle["stage"] < len(sides):
        side = sides[battle["stage"]]
        battle["attacker"] = side
        if can_attack(state, side, battle["zone"], battle["category"]):
            return  # declaring: `join`/`aim`, then `roll` (a lone `roll` is played at once)
        battle["stage"] += 1
    finish_zone(state)


def attack_power(state: AagState, side: str, zone: str, cat: str) -> tuple[int, int]:
    """(dice against units, dice against airfields) for `side`'s attack as declared now.

    AAG Determine Total Attack Power: the units in the zone, plus the ranged units that
    have joined this attack (a ranged unit that has not joined adds nothing); an air unit or
    ship aimed at the airfields adds its dice to the airfield attack only (AAG Combat step 4:
    "It can't attack both"). Joins and aims belong to the attack being declared, so they
    count only in that zone and category."""
    declared = (
        state.battle is not None
        and state.battle["zone"] == zone
        and state.battle["category"] == cat
    )
    units = own_attackers(state, side, zone, cat)
    if declared:
        units += [p for p in ranged_candidates(state, side, zone, cat) if p.joined]
    vs_units = sum(
        state.data.units[p.type].attack[cat] for p in units if not (declared and p.aimed)
    )
    vs_fields = sum(state.data.units[p.type].attack[cat] for p in units if declared and p.aimed)
    return vs_units, vs_fields


def dice_against_units(state: AagState, side: str, zone: str, cat: str) -> int:
    """The dice `side`'s roll will use against `cat` units in `zone`: none when there is no
    enemy unit of that category to fire upon (an attack on airfields alone)."""
    if not targets(state, side, zone, cat):
        return 0
    return attack_power(state, side, zone, cat)[0]


def roll_attack(state: AagState) -> None:
    """AAG How to Attack: roll one die per attack power; a hit per 1 or 2 in slot order."""
    battle = state.battle
    assert battle is not None
    side, zone, cat = battle["attacker"], battle["zone"], battle["category"]
    vs_fields = attack_power(state, side, zone, cat)[1]
    dice: list[list[int]] = []
    night, banzai = modifiers(state, side, zone, cat)
    for i in range(dice_against_units(state, side, zone, cat)):
        value = state.roll(f"{STEP_RULE[cat]} {side} attack on {cat} units in {zone}, die {i + 1}")
        if night and value == 2:
            value = 1  # AAG Appendix 1 Night Fighting: a 2 destroys like a 1
        if is_hit(state.data.neck, value) or (banzai and value == 3):
            dice.append([state.data.neck.slot_of(i), value])  # Banzai Charge: 3s hit
    if vs_fields:
        hits = 0
        for i in range(vs_fields):
            value = state.roll(
                f"AAG Combat step 4 {side} attack on airfields in {zone}, die {i + 1}"
            )
            hits += is_hit(state.data.neck, value)
        damage_airfields(state, side, zone, hits // 2)
    battle["dice"] = dice
    continue_assigning(state)


def modifiers(state: AagState, side: str, zone: str, cat: str) -> tuple[bool, bool]:
    """(Night Fighting, Banzai Charge) in force for `side`'s attack on `cat` in `zone`
    (AAG Appendix 1: a 2 against sea units destroys like a 1; a 3 against land units hits)."""
    night = cat == "sea" and state.in_force("night_fighting", side, zone=zone) is not None
    banzai = cat == "land" and state.in_force("banzai_charge", side, zone=zone) is not None
    return night, banzai


def damage_airfields(state: AagState, side: str, zone: str, count: int) -> None:
    """Every 2 hits damage one enemy airfield; never more than one damaged marker each."""
    for field in enemy_airfields(state, side, zone):
        if count <= 0:
            break
        if not field["damaged"]:
            field["damaged"] = True
            count -= 1
            state.emit("airfield", f"{field['side']} airfield on {zone} damaged", island=zone)


def present_types(state: AagState, side: str, zone: str, cat: str) -> set[str]:
    return {p.type for p in targets(state, side, zone, cat) if p.hit != "destroyed"}


def continue_assigning(state: AagState) -> None:
    """Assign hits die by die; stop when a player must choose the unit hit."""
    battle = state.battle
    assert battle is not None
    side, zone, cat = battle["attacker"], battle["zone"], battle["category"]
    while battle["dice"]:
        slot, value = battle["dice"].pop(0)
        present = present_types(state, side, zone, cat)
        if state.data.neck.type_at(cat, slot) not in present and "pt_boat" in present:
            boat = next(
                p
                for p in targets(state, side, zone, cat)
                if p.type == "pt_boat" and p.hit != "destroyed"
            )  # AAG Appendix 1 PT Boats: takes a hit on a type that is not there
            boat.hit = "destroyed"
            state.emit("hit", f"slot {slot}: {boat.id} (PT boat) takes the hit", unit=boat.id)
            continue
        kind = target_type(state.data.neck, cat, slot, present)
        if kind is None:
            state.emit("miss", f"slot {slot}: a hit with nothing left to hit")
            continue
        cands = [
            p for p in targets(state, side, zone, cat) if p.type == kind and p.hit != "destroyed"
        ]
        if kind == "battleship":  # AAG Heavy Armor: 1 hit ignored per battleship first
            fresh = [p for p in cands if not p.armor_used]
            if fresh:
                fresh[0].armor_used = True
                state.emit("armor", f"slot {slot}: {fresh[0].id} ignores the hit (heavy armour)")
                continue
        undamaged = [p for p in cands if p.hit is None]
        pool = undamaged or cands  # AAG: hits go to undamaged units before damaged ones
        if len({casualty_signature(state, p) for p in pool}) > 1:
            chooser = side if value == 1 else other(side)  # AAG: 1 attacker chooses, 2 defender
            battle["choice"] = {
                "chooser": chooser,
                "value": value,
                "slot": slot,
                "type": kind,
                "candidates": [p.id for p in pool],
            }
            return
        apply_hit(state, pool[0], value, slot)
    battle["stage"] += 1
    begin_attack(state)


def apply_hit(state: AagState, p: Piece, value: int, slot: int | None = None) -> None:
    resilient = state.data.units[p.type].resilient
    p.hit = effect(resilient, p.hit == "damaged", value)
    where = f"slot {slot}: " if slot else ""
    state.emit("hit", f"{where}{value} hits {p.id} ({p.type}): {p.hit}", unit=p.id, value=value)


def finish_zone(state: AagState) -> None:
    """Both sides have attacked: remove the casualties and go on to the next zone."""
    battle = state.battle
    assert battle is not None
    zone = battle["zone"]
    marked = [p for p in state.on_board() if p.hit]
    remove_casualties(state, marked, f"{battle['category']} combat in {zone}")
    state.battle = None
    repeat = None
    if not battle.get("extra"):  # an Amphibious Assault: the island's own combat is to come
        repeat = next(
            (
                d
                for d in state.active
                if d["id"] == "command_decision"
                and d.get("zone") == zone
                and d.get("category") == battle["category"]
                and not d.get("done")
            ),
            None,
        )
    for p in state.pieces.values():
        p.aimed = False
        if repeat is None:
            p.joined = False  # ranged units that joined fire again in a repeat (below)
    if battle.get("extra"):
        return
    if repeat is not None:  # AAG Appendix 1 Command Decision: "both players attack again"
        repeat["done"] = True
        state.emit("advantage", f"Command Decision: both sides attack again in {zone}")
        state.battle = {"zone": zone, "category": battle["category"], "stage": 0, "attacker": state.first}
        begin_attack(state)
        return
    state.resolved.append(zone)


# --- Combat step 3: Unload Transports and Destroyers -----------------------------------


def unload_legal(state: AagState) -> list[Action]:
    side = state.mover
    out: list[Action] = []
    cargo = [p for p in state.on_board(side) if is_cargo(p) and land_piece(state, p)]
    seen: set[tuple[str, str, str]] = set()
    for p in cargo:
        for dest in state.data.board.land_zones_by_sea(p.zone):
            if dest in state.enemy_base_zones(side):
                continue
            key = (p.zone, p.type, dest)
            if key not in seen:
                seen.add(key)
                out.append(Action("unload", (p.id, dest)))
    out.append(END)
    return out


def play_unload(state: AagState, action: Action) -> None:
    p = state.pieces[action.args[0]]
    ship = p.aboard
    p.aboard = None
    p.zone = action.args[1]
    p.unloaded = True
    state.emit("unload", f"{p.id} ({p.type}) unloaded from {ship} onto {p.zone}")
