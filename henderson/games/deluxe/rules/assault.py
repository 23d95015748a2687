"""Assault combat (DG 8.2): mandatory attacks in enemy zones of control, optional attacks
from jungle, combat ratios rounded for the defender, the Attrition Table's losses, retreats
and advances, straining, artillery in assault, multi-hex attack and defence, Henderson Field
reduction, ambush, banzai, and attacks on stealth stacks.

An assault is built from small actions (`attack`, `target`, `with`, `support`, `strain`,
`ambush`, `go`) so that the action space stays small; the resolution then asks each owner
for its own decisions (`defend`, `lose`, `retreat`, `advance`/`stop`, `banzai`/`pass`).
The assault in progress is an `Assault` decision on `state.pending` (decisions.py).
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from henderson.core.errors import IllegalAction
from henderson.core.events import Event, roll
from henderson.core.game import Action
from henderson.core.odds import column, ratio

from ..actions import DGAction, act, make
from ..data import RATIOS
from ..decisions import Assault, Stage
from ..model import other
from .artillery import reveal, unlimited
from .common import (
    change_hf,
    eliminate,
    event_effect,
    hf_operational,
    in_enemy_zoc,
    lose_step,
    occupancy,
    place,
    room,
    side_in,
    take_control,
    visible_units,
)
from .phase import DGPhase

if TYPE_CHECKING:
    from ..model import GameData
    from ..state import DGState
    from ..units import UnitState


# -- who may and who must attack ------------------------------------------------------------
def attackable(state: DGState, occ: dict, hex_id: str, side: str) -> bool:
    """An enemy hex with a unit not under stealth (DG 8.2.11), not yet attacked in this
    combat phase (DG 8.2 "each defending hex may only be attacked once")."""
    units = occ.get(hex_id)
    return bool(
        units and units[0].side != side and visible_units(units) and hex_id not in state.this_turn.attacked_hexes
    )


def can_join(state: DGState, u: UnitState) -> bool:
    """A unit that may still attack this turn (DG 8.2.2: once a turn); artillery only supports."""
    return u.on_map and not u.attacked and not u.stealth and u.strength > 0 and not state.data.units[u.id].artillery


def can_support(state: DGState, u: UnitState) -> bool:
    """DG 8.2.4: artillery adds its factors to an assault for supply, once a turn; not when
    suppressed (DG 8.1.8 "may not fire") nor when it fired at range in this player's turn
    (DG 8.1: artillery fires at range or "as part of the assault process", ruling 24a)."""
    return (
        state.data.units[u.id].artillery
        and u.on_map
        and not u.attacked
        and not u.fired
        and not u.suppressed
        and u.strength > 0
    )


def duty_bound(state: DGState, u: UnitState, occ: dict) -> bool:
    """DG 8.2: a combat unit in an enemy zone of control "must attack", once (DG 8.2.2), so
    until it has attacked in this combat phase. Not a unit in jungle (the zone is negated
    there, DG 7.4.2: its attacks are optional, DG 8.2.7), nor a unit that advanced after
    combat (DG 8.2.2), nor artillery, which never initiates an assault (DG 8.2.4)."""
    return can_join(state, u) and u.id not in state.this_turn.advanced and in_enemy_zoc(state, occ, u.at, u.side)


def bound_units(state: DGState, side: str, occ: dict) -> list[UnitState]:
    """The units of `side` that must still attack in this combat phase (DG 8.2) and still
    can: a unit whose enemy hexes have all been attacked (the enemy came next to it after
    those attacks) can meet its duty no more, and it lapses (ruling 21)."""
    adjacent = state.data.map.adjacent
    return [
        u
        for u in state.units.values()
        if u.side == side and duty_bound(state, u, occ) and any(attackable(state, occ, n, side) for n in adjacent[u.at])
    ]


def owed(state: DGState, side: str, occ: dict, bound: list[UnitState] | None = None) -> list[str]:
    """Enemy hexes DG 8.2 still requires `side` to attack in this combat phase: every hex
    that can still be attacked next to a unit that must still attack ("must attack all enemy
    units to which they are adjacent"). The phase cannot end while one is left.

    A hex next to no such unit is not owed: its neighbours have all attacked (DG 8.2.2 once
    a phase) or are in jungle (DG 8.2.7). `go` never lets an assault leave a hex that was
    owed without a unit bound to attack it (`shirked`), so a hex loses its last such
    neighbour only when the enemy comes next to units that have attacked already (a retreat
    or an advance): no unit attacks twice, and that duty lapses (ruling 21).
    """
    hexes: set[str] = set()
    adjacent = state.data.map.adjacent
    for u in bound_units(state, side, occ) if bound is None else bound:
        hexes.update(n for n in adjacent[u.at] if attackable(state, occ, n, side))
    return sorted(hexes)


Duty = tuple[list["UnitState"], list[str]]  # the units bound to attack, the hexes owed


def duty(state: DGState, side: str, occ: dict) -> Duty:
    """The units of `side` bound to attack (`bound_units`) and the hexes it owes (`owed`),
    worked out once for the many checks of one listing (`blocked`, `shirked`): neither
    depends on the assault being built, only on the position (DG 8.2)."""
    bound = bound_units(state, side, occ)
    return bound, owed(state, side, occ, bound)


def can_be_attacked(state: DGState, occ: dict, side: str, hex_id: str) -> bool:
    """Whether a unit of `side` next to `hex_id` may still join an attack on it (DG 8.2.2:
    each unit attacks once a phase)."""
    return any(v.side == side and can_join(state, v) for n in state.data.map.adjacent[hex_id] for v in occ.get(n, []))


def shirked(state: DGState, p: Assault, occ: dict, due: Duty | None = None) -> tuple[list[str], list[str]]:
    """What committing this assault (`go`) would leave undone for good (DG 8.2): the owed
    hexes outside its targets with no unit bound to attack left next to them, and the units
    bound to attack outside it with no hex left to attack. Both must join it (`target`,
    `with`) first. So the units in a zone of control meet their duty themselves: they may
    share out their hexes (a soak-off, DG 8.2.6), but never leave a hex to a unit in jungle,
    which is not required to attack (DG 8.2.7), nor leave a unit out of the attacks (DG 8.2
    "any combat units that are within an enemy zone of control must attack")."""
    side = p.attacker
    joined = set(p.units)
    targets = set(p.targets)
    adjacent = state.data.map.adjacent
    bound, owed_now = duty(state, side, occ) if due is None else due
    rest = [u for u in bound if u.id not in joined]
    rest_near = {n for u in rest for n in adjacent[u.at]}
    hexes = [h for h in owed_now if h not in targets and h not in rest_near]
    idle = sorted(
        u.id for u in rest if not any(n not in targets and attackable(state, occ, n, side) for n in adjacent[u.at])
    )
    return hexes, idle


def attacks(state: DGState, side: str) -> list[DGAction]:
    """The assaults `side` may open: each enemy hex it can attack (DG 8.2, 8.2.2)."""
    occ = occupancy(state)
    return [
        make("attack", hid)
        for hid in sorted(occ)
        if attackable(state, occ, hid, side) and can_be_attacked(state, occ, side, hid)
    ]


def open_assault(state: DGState, side: str, hex_id: str) -> None:
    """`attack HEX`: start building an assault on an enemy hex."""
    state.pending.append(
        Assault(
            side,
            attacker=side,
            stage=Stage.BUILD,
            targets=[hex_id],
            units=[],
            support={},
            strain=0,
            ambush=False,
            defend=0,
            banzai=False,
        )
    )


# -- building ---------------------------------------------------------------------------------
def contributors(p: Assault) -> list[str]:
    """The units adding strength to the assault: attackers and supporting artillery."""
    return [*p.units, *p.support]


def next_to_all(state: DGState, hex_id: str, others: list[str] | set[str]) -> bool:
    """Whether `hex_id` is next to every hex in `others`."""
    adjacent = state.data.map.adjacent[hex_id]
    return all(h in adjacent for h in others)


def blocked(
    state: DGState, p: Assault, occ: dict, unit: str = "", target: str = "", due: Duty | None = None
) -> str | None:
    """Why the assault, with `unit` or `target` added, could never be committed; None when it
    can. DG 8.2.5 combines units of several hexes against one hex, DG 8.2.6 units of one hex
    against several hexes: every attacking unit is next to every defending hex. And `go`
    needs every duty met (`shirked`): an owed hex whose units bound to attack are all in the
    assault must join its targets, a unit bound to attack whose hexes are all targets must
    join its units. Those additions are forced, in any assault that contains this one; if one
    is not next to all the others, nothing can complete the assault. Offering only additions
    that pass keeps every assault being built completable, so no player is ever stuck.
    `due`: the side's `duty` in this position, when already worked out."""
    side = p.attacker
    m = state.data.map
    units = set(contributors(p)) | ({unit} if unit else set())
    hexes = {state.units[i].at for i in units}
    targets = set(p.targets) | ({target} if target else set())
    bound, owed_now = duty(state, side, occ) if due is None else due
    hexes_of = {u.id: u.at for u in bound}
    while True:
        grown = False
        for h in owed_now:  # owed hexes left without a unit bound to attack them
            if h in targets or any(i not in units and at in m.adjacent[h] for i, at in hexes_of.items()):
                continue
            if not next_to_all(state, h, hexes):
                return f"{h} would then have to join the defending hexes, and it is not next to every attacking unit"
            targets.add(h)
            grown = True
        for i, at in hexes_of.items():  # units bound to attack left with nothing to attack
            if i in units or any(n not in targets and attackable(state, occ, n, side) for n in m.adjacent[at]):
                continue
            if not next_to_all(state, at, targets):
                return f"{i} would then have to join the attack, and it is not next to every defending hex"
            units.add(i)
            hexes.add(at)
            grown = True
        if not grown:
            return None


def joinable_after(state: DGState, p: Assault, occ: dict, arty: str, due: Duty | None = None) -> bool:
    """Whether, with `arty` supporting, an attacking unit can still join: artillery only
    supports (DG 8.2.4), so an assault that has no attacking unit yet must keep room for one,
    else supporting first would leave the attacker with nothing to play."""
    if p.units:
        return True
    supported = replace(p, support={**p.support, arty: 1})
    due = duty(state, p.attacker, occ) if due is None else due
    return any(
        u.side == p.attacker
        and u.on_map
        and can_join(state, u)
        and next_to_all(state, u.at, p.targets)
        and blocked(state, supported, occ, unit=u.id, due=due) is None
        for u in state.units.values()
    )


def build_legal(state: DGState, p: Assault) -> list[DGAction]:
    """Actions that add to the assault being built, and `go`. A unit joins when it is next to
    every defending hex, a hex when it is next to every attacking unit (DG 8.2.5, 8.2.6), and
    only when the assault can still be committed afterwards (`blocked`)."""
    occ = occupancy(state)
    side = p.attacker
    due = duty(state, side, occ)  # read by every check below: the position is the same
    m = state.data.map
    out: list[DGAction] = []
    targets = p.targets
    for u in map(state.units.__getitem__, state.game.ids_by_side[side]):  # the side's units in id order
        if not u.on_map or u.id in p.units or u.id in p.support:
            continue
        if not next_to_all(state, u.at, targets):
            continue
        if can_join(state, u):
            if blocked(state, p, occ, unit=u.id, due=due) is None:
                out.append(make("with", u.id))
        elif (
            can_support(state, u)
            and blocked(state, p, occ, unit=u.id, due=due) is None
            and joinable_after(state, p, occ, u.id, due)
        ):
            left = state.supply[side] - sum(p.support.values())
            most = u.strength if unlimited(state, side) else min(u.strength, left)
            out.extend(act("support", u.id, n) for n in range(1, most + 1))
    if p.units:
        hexes = {state.units[i].at for i in contributors(p)}
        near = set.intersection(*(set(m.adjacent[h]) for h in hexes)) - set(targets)
        for h in sorted(near):
            if attackable(state, occ, h, side) and blocked(state, p, occ, target=h, due=due) is None:
                out.append(make("target", h))
        if not p.strain and strain_points(state, p) is not None:
            out.append(act("strain"))
        if not p.ambush and ambush_ready(state, p):
            out.append(act("ambush"))
        if shirked(state, p, occ, due) == ([], []):  # DG 8.2 no duty left undone
            out.append(act("go"))
    return out


def refuse_go(state: DGState, p: Assault) -> IllegalAction | None:
    """Why `go` is refused: no attacking unit yet (DG 8.2.1), or it would leave a duty
    undone (DG 8.2, `shirked`)."""
    if not p.units:
        return IllegalAction(
            "DG 8.2.1", "no attacking unit yet: add one with `with` (artillery only supports, DG 8.2.4)"
        )
    hexes, idle = shirked(state, p, occupancy(state))
    if hexes:
        return IllegalAction(
            "DG 8.2",
            f"this attack would leave {', '.join(hexes)} unattacked with no unit in an enemy zone "
            "of control left to attack it: units in an enemy zone of control must attack every "
            "adjacent enemy hex, and units in jungle need not (DG 8.2.7); add it with `target` "
            "(DG 8.2.6)",
        )
    if idle:
        return IllegalAction(
            "DG 8.2",
            f"this attack would leave {', '.join(idle)} in an enemy zone of control with no enemy "
            "hex left to attack: every unit in an enemy zone of control must attack; add it "
            "with `with`",
        )
    return None


def build(state: DGState, p: Assault, action: DGAction, events: list[Event]) -> None:
    """Apply one building action (`with`, `support`, `target`, `strain`, `ambush`, `go`)."""
    verb = action.verb
    if verb == "with":
        p.units.append(action.args[0])
    elif verb == "support":  # DG 8.2.4 artillery adds factors by spending supply
        p.support[action.args[0]] = int(action.args[1])
    elif verb == "target":  # DG 8.2.6 several hexes as one defence
        p.targets.append(action.args[0])
    elif verb == "strain":
        p.strain = strain_points(state, p) or 0
    elif verb == "ambush":
        p.ambush = True
    elif verb == "go":
        start(state, p, events)


# -- strengths and ratio --------------------------------------------------------------------------
def multiplier(state: DGState, side: str, condition_of: set[str]) -> Fraction:
    """The product of the Terrain Effects multipliers for a side under these conditions."""
    return terrain_multiplier(state.data, side, condition_of)


def terrain_multiplier(data: GameData, side: str, condition_of: set[str]) -> Fraction:
    """The product of the Terrain Effects multipliers (DG 8.2.1.1-2) for `side` ("attacker" or
    "defender") under these conditions, from the game's data."""
    result = Fraction(1)
    for eff in data.combat_effects:
        if eff.side == side and eff.condition in condition_of:
            result *= eff.multiplier
    return result


def hex_conditions(state: DGState, hex_id: str) -> set[str]:
    """The terrain conditions of a hex for the Terrain Effects table."""
    h = state.data.map.hexes[hex_id]
    found = set(h.types())
    return found


def air_bonus(state: DGState) -> int:
    """DG 10.2.3: one more factor for each Japanese non-artillery unit, earned last turn and
    lasting "until Henderson Field is captured or reduced to inoperability by the U.S.":
    so only while the Japanese still hold an operational field."""
    return int(state.this_turn.air_bonus and state.airfield.control == "jp" and hf_operational(state))


def attack_strength(state: DGState, p: Assault, with_strain: bool = True) -> Fraction:
    """DG 8.2.1.1: attacking strengths, each modified by its own hex; artillery support
    (DG 8.2.4); the Japanese air bonus (DG 10.2.3); ambush doubling (DG 8.2.9); strain."""
    bonus = air_bonus(state) if p.attacker == "jp" else 0
    units = [
        (state.units[uid].strength + bonus, multiplier(state, "attacker", hex_conditions(state, state.units[uid].at)))
        for uid in p.units
        if state.units[uid].on_map
    ]
    support = [
        (n, multiplier(state, "attacker", hex_conditions(state, state.units[uid].at)))
        for uid, n in p.support.items()
        if state.units[uid].on_map
    ]
    return combined_attack(units, support, p.ambush_hit, p.strain if with_strain else 0)


def combined_attack(
    units: list[tuple[int, Fraction]], support: list[tuple[int, Fraction]], ambush: bool, strain: int
) -> Fraction:
    """DG 8.2.1.1: the attack from (strength, multiplier of its hex) of each attacking unit and
    (points, multiplier) of each supporting artillery (DG 8.2.4); an ambush doubles the units
    only (DG 8.2.9); strain points count like the unit best placed (rulings, DG 8.2.3). The
    position's assault and the battle calculator both add up here."""
    total = sum((Fraction(n) * m for n, m in units), Fraction(0))
    if ambush:  # DG 8.2.9 "the attacking unit's strength is doubled": not the
        total *= 2  # artillery support nor the strain points added below
    total += sum((Fraction(n) * m for n, m in support), Fraction(0))
    if strain:
        total += strain * max((m for _, m in units), default=Fraction(1))
    return total


def best_multiplier(state: DGState, p: Assault) -> Fraction:
    """Strain points are added to an attacking unit and modified like it (rulings, DG 8.2.3)."""
    mults = [
        multiplier(state, "attacker", hex_conditions(state, state.units[i].at))
        for i in p.units
        if state.units[i].on_map
    ]
    return max(mults, default=Fraction(1))


def defenders(state: DGState, p: Assault) -> list[UnitState]:
    """Enemy units in the defending hexes of the assault."""
    return [u for u in state.units.values() if u.on_map and u.at in p.targets and u.side != p.attacker]


def defence_units(state: DGState, p: Assault) -> list[UnitState]:
    """The defenders the strengths are counted from. Until `go` commits the attack, only
    those the attacker can see: the top counter not under stealth of each target hex
    (DG 7.8; stealth units are revealed only once the attack is declared, DG 8.2.11). So
    neither the odds nor the offer to strain tell the attacker what the stack hides; from
    `go` on, every defender counts."""
    if p.defenders is not None:
        return defenders(state, p)
    occ = occupancy(state)
    out = []
    for t in p.targets:
        shown = visible_units([u for u in occ.get(t, []) if u.side != p.attacker])
        out.extend(shown[-1:])
    return out


def unseen_counters(state: DGState, p: Assault) -> int:
    """How many counters of the target hexes the attacker knows of but cannot see: those
    below the top counter (DG 7.8); stealth units are markers only (DG 7.7)."""
    occ = occupancy(state)
    return sum(max(0, len(visible_units([u for u in occ.get(t, []) if u.side != p.attacker])) - 1) for t in p.targets)


def supply_cap(state: DGState, u: UnitState, alone: bool) -> int:
    """DG 8.2.4: supply points a defending artillery unit can take (one point free when
    alone in its hex); none when suppressed (DG 8.1.8) or when it fired at range in this
    player's turn (DG 8.1, ruling 24a)."""
    if u.suppressed or u.fired:
        return 0
    return u.strength - 1 if alone else u.strength


def artillery_capacity(state: DGState, p: Assault) -> int:
    """DG 8.2.4: supply the defender may spend on its artillery in the attacked hexes."""
    most = 0
    for t in p.targets:
        here = [u for u in defenders(state, p) if u.at == t]
        alone = all(state.data.units[u.id].artillery for u in here)
        for u in here:
            if state.data.units[u.id].artillery:
                most += supply_cap(state, u, alone)
    return most


def defense_strength(state: DGState, p: Assault) -> Fraction:
    """DG 8.2.1.2: defending strengths by hex, artillery per DG 8.2.4, terrain multipliers."""
    total = Fraction(0)
    supply_left = p.defend
    bonus = air_bonus(state) if p.attacker == "us" else 0
    attacker_levels = [state.data.map.hexes[state.units[i].at].level for i in p.units if state.units[i].on_map]
    counted = defence_units(state, p)  # DG 7.8: before `go`, what the attacker sees
    for t in sorted(p.targets):
        here = sorted((u for u in counted if u.at == t), key=lambda u: u.id)
        alone = all(state.data.units[u.id].artillery for u in here)
        points = 0
        for u in here:
            if state.data.units[u.id].artillery:
                extra = min(supply_cap(state, u, alone), supply_left)
                supply_left -= extra
                points += (1 if alone else 0) + extra
            else:  # DG 10.2.3 the air bonus helps in defence too; DG 5.0 card 7 (Japanese)
                points += max(1, u.strength + bonus + event_effect(state, "defence", u.side))
        conds = hex_conditions(state, t)
        level = state.data.map.hexes[t].level
        if attacker_levels and all(lv < level for lv in attacker_levels):
            conds.add("uphill")
        total += points * multiplier(state, "defender", conds)
    return total


def ratio_index(state: DGState, attack: Fraction, defense: Fraction) -> int:
    """DG 8.2.1.3: the column of the Attrition Table, the ratio rounded for the defender
    (`core.odds`): -1 below 1-6, 11 above 6-1, otherwise 0 (1-6) ... 10 (6-1)."""
    return attrition_column(state.data, attack, defense)


def attrition_column(data: GameData, attack: Fraction, defense: Fraction) -> int:
    """The Attrition Table column index of `attack` against `defense` (see `ratio_index`)."""
    return column(ratio(attack, defense), data.attrition.columns)


def ratio_name(index: int) -> str:
    """The Attrition Table column of a ratio index (or below 1-6 / above 6-1)."""
    if index < 0:
        return "below 1-6"
    if index >= len(RATIOS):
        return "above 6-1"
    return RATIOS[index]


def strain_points(state: DGState, p: Assault) -> int | None:
    """DG 8.2.3: raw points needed to reach the next ratio; None when straining is not allowed
    (fewer than two non-artillery points, more than five needed, more than the force has)."""
    base = sum(state.units[i].strength for i in p.units if state.units[i].on_map)
    if base < 2:
        return None
    attack, defense = attack_strength(state, p, with_strain=False), defense_strength(state, p)
    idx = ratio_index(state, attack, defense)
    top = state.data.constants.max_ratio
    if idx >= 2 * top - 2 or idx < 0 or defense <= 0:
        return None
    nxt = idx + 1  # the next column: "k-1" needs k times the defence, "1-k" a k-th of it
    threshold = defense * (nxt - top + 2) if nxt >= top - 1 else defense / (top - nxt)
    mult = best_multiplier(state, p)
    need = math.ceil((threshold - attack) / mult)
    if need < 1 or need > 5 or need > base:
        return None
    return need


def ambush_ready(state: DGState, p: Assault) -> bool:
    """DG 8.2.9: Japanese units that left stealth on their own and moved at most half."""
    if p.attacker != "jp" or not p.units:
        return False
    return all(state.units[i].self_exit and state.units[i].spent * 2 <= state.units[i].pool_start for i in p.units)


# -- resolution ----------------------------------------------------------------------------------
def start(state: DGState, p: Assault, events: list[Event]) -> None:
    """`go`: the assault is declared; stealth units in the targets are revealed (DG 8.2.11)."""
    side = p.attacker
    for uid in (*p.units, *p.support):
        state.update(state.units[uid], attacked=True)
    if not unlimited(state, side):
        state.supply[side] -= sum(p.support.values())
    state.this_turn.attacked_hexes.extend(p.targets)
    for t in p.targets:
        reveal(state, t, events)
    p.defenders = sorted(u.id for u in defenders(state, p))
    p.attacker_hexes = sorted({state.units[i].at for i in (*p.units, *p.support)})
    hf = state.data.map.henderson_field
    p.hf_defended = any(state.units[i].at == hf for i in p.defenders)
    if defence_supply(state, p) > 0:
        p.stage = Stage.DEFEND
        p.side = other(side)
    else:
        resolve(state, p, events)


def defence_supply(state: DGState, p: Assault) -> int:
    """DG 8.2.4: the most supply the defender may spend on its artillery in this assault."""
    enemy = other(p.attacker)
    supply = 99 if unlimited(state, enemy) else state.supply[enemy]
    return min(artillery_capacity(state, p), supply)


def column_shift(state: DGState, side: str, idx: int) -> int:
    """DG 5.0: this turn's random event may shift `side`'s assaults one column up."""
    ev = state.this_turn.event
    return shifted_up(idx) if ev is not None and ev.kind == "combat" and ev.side == side else idx


def shifted_up(idx: int) -> int:
    """DG 5.0: a combat event moves a column on the table one to the right (never off it)."""
    return min(10, idx + 1) if 0 <= idx <= 10 else idx


def resolve(state: DGState, p: Assault, events: list[Event]) -> None:
    """DG 8.2.1.4: roll on the Attrition Table and set the losses, retreats and advances."""
    side = p.attacker
    if p.ambush and not p.ambush_rolled:
        p.ambush_rolled = True
        die = roll(state.dice, "DG 8.2.9 ambush", events)
        turns = max(
            (state.units[i].pool_start // max(1, state.data.units[i].movement) for i in p.units),
            default=0,
        )
        p.ambush_hit = die <= turns
    attack, defense = attack_strength(state, p), defense_strength(state, p)
    idx = column_shift(state, side, ratio_index(state, attack, defense))
    events.append(
        Event(
            "assault",
            f"{side} assaults {', '.join(p.targets)}: {_num(attack)} to {_num(defense)}, {ratio_name(idx)}",
            {"targets": list(p.targets), "attack": str(attack), "defense": str(defense), "ratio": ratio_name(idx)},
        )
    )
    loss_a = loss_d = retreat_a = retreat_d = adv_a = adv_d = 0
    if idx < 0:  # DG 8.2.1.3 attackers below 1-6 are eliminated
        for uid in (*p.units, *p.support):
            eliminate(state, state.units[uid], events, "DG 8.2.1.3 attack below 1-6")
    elif idx > 10:  # DG 8.2.1.3 defenders above 6-1 are eliminated, advance two
        for u in defenders(state, p):
            eliminate(state, u, events, "DG 8.2.1.3 attacked above 6-1")
        adv_a = 2
    else:
        die = roll(state.dice, "DG 8.2.1.4 assault", events)
        cell_a, cell_d = state.data.attrition.result(ratio_name(idx), die)
        loss_a, retreat_a, adv_a = cell_a.loss, cell_a.retreat, cell_a.advance
        loss_d, retreat_d, adv_d = cell_d.loss, cell_d.retreat, cell_d.advance
        if p.strain and not p.strain_checked:  # DG 8.2.3 strain check
            p.strain_checked = True
            check = roll(state.dice, "DG 8.2.3 strain check", events)
            if check <= p.strain:
                loss_a += 1
        if p.ambush_hit and not p.ambush_loss:  # DG 8.2.9 one more loss
            p.ambush_loss = True
            loss_d += 1
    enemy = other(side)
    p.loss_taken = {side: loss_a, enemy: loss_d}
    p.loss = {side: loss_a, enemy: loss_d}
    p.retreat = {side: retreat_a, enemy: retreat_d}
    p.advance = {side: adv_a, enemy: adv_d}
    p.stage = Stage.LOSE_D
    proceed(state, p, events)


def _num(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


def force(state: DGState, p: Assault, side: str) -> list[UnitState]:
    """The units of `side` in this assault still on the map."""
    ids = [*p.units, *p.support] if side == p.attacker else p.defenders or []
    return [state.units[i] for i in ids if state.units[i].on_map]


def proceed(state: DGState, p: Assault, events: list[Event]) -> None:
    """Run the stages that need no decision; stop at the first one that does (or drop the
    assault, done)."""
    side, enemy = p.attacker, other(p.attacker)
    while True:
        stage = p.stage
        if stage in (Stage.LOSE_D, Stage.LOSE_A):
            owner = enemy if stage is Stage.LOSE_D else side
            units = force(state, p, owner)
            need = p.loss[owner]
            if need <= 0 or not units:
                p.stage = Stage.LOSE_A if stage is Stage.LOSE_D else Stage.BANZAI
                continue
            if len(units) == 1 or sum(u.strength for u in units) <= need:
                lose_step(state, units[0], events, "DG 8.2.1.4 attrition")
                p.loss[owner] -= 1
                continue
            p.side = owner
            return
        if stage is Stage.BANZAI:
            if p.banzai_go:  # the extra banzai losses are taken: attack again
                p.banzai_go = False
                again(state, p, events)
                return
            p.stage = Stage.RETREAT_D
            if (
                side == "jp"
                and not p.banzai
                and p.retreat[enemy] == 0
                and force(state, p, enemy)
                and any(not state.data.units[u.id].artillery for u in force(state, p, side))
            ):
                p.stage = Stage.BANZAI_CHOICE
                p.side = side
                return
            continue
        if stage in (Stage.RETREAT_D, Stage.RETREAT_A):
            owner = enemy if stage is Stage.RETREAT_D else side
            dist = p.retreat[owner]
            todo = [u for u in force(state, p, owner) if u.id not in p.retreated]
            if dist <= 0 or not todo:
                p.stage = Stage.RETREAT_A if stage is Stage.RETREAT_D else Stage.HF
                continue
            u = todo[0]
            options = retreat_options(state, u, dist, p)
            if len(options) <= 1:
                p.retreated.append(u.id)
                if options:
                    do_retreat(state, u, options[0], events)
                else:
                    eliminate(state, u, events, "DG 8.2.1.4 cannot retreat")
                continue
            p.side = owner
            return
        if stage is Stage.HF:  # DG 8.2.8 Henderson Field reduction after a successful assault
            hf = state.data.map.henderson_field
            if p.hf_defended and side_in(occupancy(state), hf) != enemy:
                die = roll(state.dice, "DG 8.2.8 Henderson Field reduction", events)
                change_hf(state, -die, side, events, "DG 8.2.8 assault on Henderson Field")
            p.stage = Stage.ADVANCE
            continue
        if stage in (Stage.ADVANCE, Stage.COUNTER_ADVANCE):
            mover = side if stage is Stage.ADVANCE else enemy
            if advance_legal(state, p, mover):
                p.side = mover
                return
            if stage is Stage.ADVANCE:
                p.stage = Stage.COUNTER_ADVANCE
                continue
            state.pending.remove(p)
            return
        raise AssertionError(f"an assault waits at stage {stage}")


def again(state: DGState, p: Assault, events: list[Event]) -> None:
    """DG 8.2.10: the surviving attackers attack the same hexes once more."""
    p.units = [i for i in p.units if state.units[i].on_map]
    p.ambush_hit = False  # DG 8.2.9 the ambush doubles the first attack only
    p.support = {}
    p.strain = 0
    p.defend = 0
    p.side = p.attacker
    resolve(state, p, events)


def decision_legal(state: DGState, p: Assault) -> list[DGAction]:
    """The actions of the side deciding at this stage of the assault."""
    stage = p.stage
    if stage is Stage.BUILD:
        return build_legal(state, p)
    if stage is Stage.DEFEND:  # DG 8.2.4 how much supply the defender spends on its artillery
        return [act("defend", n) for n in range(0, defence_supply(state, p) + 1)]
    if stage in (Stage.LOSE_D, Stage.LOSE_A):
        return [act("lose", u.id) for u in sorted(force(state, p, p.side), key=lambda x: x.id)]
    if stage is Stage.BANZAI_CHOICE:
        return [act("banzai"), act("pass")]
    if stage in (Stage.RETREAT_D, Stage.RETREAT_A):
        owner = p.side
        u = next(u for u in force(state, p, owner) if u.id not in p.retreated)
        return [act("retreat", u.id, h) for h in retreat_options(state, u, p.retreat[owner], p)]
    if stage in (Stage.ADVANCE, Stage.COUNTER_ADVANCE):
        return [*advance_legal(state, p, p.side), act("stop")]
    return []


def decide(state: DGState, p: Assault, action: DGAction, events: list[Event]) -> None:
    """Apply a decision inside an assault (one of `decision_legal`)."""
    stage = p.stage
    if stage is Stage.BUILD:
        build(state, p, action, events)
        return
    if stage is Stage.DEFEND:
        p.defend = action.number(0)
        enemy = other(p.attacker)
        if not unlimited(state, enemy):
            state.supply[enemy] -= p.defend
        p.side = p.attacker
        resolve(state, p, events)
        return
    if stage in (Stage.LOSE_D, Stage.LOSE_A):
        lose_step(state, state.units[action.args[0]], events, "DG 8.2.1.4 attrition")
        p.loss[p.side] -= 1
    elif stage is Stage.BANZAI_CHOICE:
        if action.verb == "banzai":  # DG 8.2.10 attack the same hexes again, once
            p.banzai = True
            events.append(Event("banzai", "Banzai! the Japanese attack again", {"targets": list(p.targets)}))
            side = p.attacker
            if p.retreat[side] == 0:
                again(state, p, events)
                return
            # instead of retreating: double the losses (one if none), then attack again
            p.loss = {side: max(1, p.loss_taken[side]), other(side): 0}
            p.retreat[side] = 0
            p.banzai_go = True
            p.stage = Stage.LOSE_A
        else:
            p.stage = Stage.RETREAT_D
    elif stage in (Stage.RETREAT_D, Stage.RETREAT_A):
        u = state.units[action.args[0]]
        p.retreated.append(u.id)
        do_retreat(state, u, action.args[1], events)
    elif stage in (Stage.ADVANCE, Stage.COUNTER_ADVANCE):
        if action.verb == "stop":
            p.advanced.extend(u.id for u in force(state, p, p.side))
            if stage is Stage.COUNTER_ADVANCE:
                state.pending.remove(p)
                return
            p.stage = Stage.COUNTER_ADVANCE
        else:
            u = state.units[action.args[0]]
            p.advanced.append(u.id)
            state.this_turn.advanced.append(u.id)  # DG 8.2.2 no new duty
            path = advance_paths(state, p, u, p.advance[p.side])[action.args[1]]
            for h in path:
                take_control(state, u, h, events)
            frm = u.at
            u = place(state, u, action.args[1])
            events.append(Event("advance", f"{u.id} advances {frm} -> {u.at}", {"unit": u.id, "to": u.at}))
    proceed(state, p, events)


# -- retreats and advances ----------------------------------------------------------------------
def retreat_options(state: DGState, u: UnitState, dist: int, p: Assault) -> list[str]:
    """DG 8.2.1.4 R: hexes `dist` away, each step away from the enemy hexes when possible,
    never into an enemy zone of control, the sea or an over-full hex."""
    occ = occupancy(state)
    m = state.data.map
    if u.side == p.attacker:
        enemies = list(p.targets)
    else:
        enemies = sorted({state.units[i].at for i in (*p.units, *p.support) if state.units[i].on_map})
    enemies = enemies or [u.at]

    def far(h: str) -> int:
        """Distance to the nearest enemy hex of the assault."""
        return min(m.distance(h, e) for e in enemies)

    for away in (True, False):
        finals: set[str] = set()
        stack: list[tuple[str, int, tuple[str, ...]]] = [(u.at, 0, (u.at,))]
        while stack:
            here, n, seen = stack.pop()
            if n == dist:
                if room(state, occ, here, u):
                    finals.add(here)
                continue
            for nb in m.adjacent[here]:
                h = m.hexes[nb]
                if not h.land or nb in seen:
                    continue
                if side_in(occ, nb) not in (None, u.side):
                    continue
                if in_enemy_zoc(state, occ, nb, u.side):
                    continue
                if away and far(nb) <= far(here):
                    continue
                stack.append((nb, n + 1, (*seen, nb)))
        if finals:
            return sorted(finals)
    return []


def do_retreat(state: DGState, u: UnitState, dest: str, events: list[Event]) -> None:
    """Move a retreating unit to its chosen hex (DG 8.2.1.4 R)."""
    frm = u.at
    u = place(state, u, dest)
    take_control(state, u, dest, events)  # DG 9.3 the last to occupy controls
    events.append(Event("retreat", f"{u.id} retreats {frm} -> {dest}", {"unit": u.id, "from": frm, "to": dest}))


def vacated(state: DGState, p: Assault, mover: str) -> list[str]:
    """Hexes the other side left in this assault, now empty: where an advance starts."""
    occ = occupancy(state)
    hexes = p.targets if mover == p.attacker else p.attacker_hexes
    return [h for h in hexes if side_in(occ, h) in (None, mover)]


def advance_paths(state: DGState, p: Assault, u: UnitState, dist: int) -> dict[str, tuple[str, ...]]:
    """DG 8.2.1.4 A: the first hex is a vacated hex next to the unit; further hexes up to
    `dist`, halting on entering an enemy zone of control."""
    occ = occupancy(state)
    m = state.data.map
    out: dict[str, tuple[str, ...]] = {}
    for first in vacated(state, p, u.side):
        if first not in m.adjacent[u.at]:
            continue
        stack: list[tuple[str, int, tuple[str, ...]]] = [(first, 1, (first,))]
        while stack:
            here, n, path = stack.pop()
            if here not in out and room(state, occ, here, u):
                out[here] = path
            if n >= dist or in_enemy_zoc(state, occ, here, u.side):
                continue
            for nb in m.adjacent[here]:
                if m.hexes[nb].land and nb not in path and side_in(occ, nb) in (None, u.side):
                    stack.append((nb, n + 1, (*path, nb)))
    return out


def advance_legal(state: DGState, p: Assault, mover: str) -> list[DGAction]:
    """Advance actions open to `mover` after the assault (DG 8.2.1.4 A)."""
    dist = p.advance.get(mover, 0)
    if dist <= 0:
        return []
    units = [u for u in force(state, p, mover) if u.id not in p.advanced and not state.data.units[u.id].artillery]
    out: list[DGAction] = []
    for u in sorted(units, key=lambda x: x.id):
        out.extend(act("advance", u.id, h) for h in sorted(advance_paths(state, p, u, dist)))
    return out


def odds(state: DGState, p: Assault) -> dict[str, Any]:
    """The exact outcome distribution of the assault `p` as built so far (DG 8.2.1.4): its
    strengths, ratio column and, for each die face, both sides' losses, retreats and
    advances; with straining, the chance of the extra loss (DG 8.2.3). Ambush and the
    defender's artillery supply, not yet known, are left out; so are the counters the
    attacker cannot see (DG 7.8: below the top of a stack, under stealth), whose number is
    given as `unseen_counters`."""
    attack, defense = attack_strength(state, p), defense_strength(state, p)
    idx = column_shift(state, p.attacker, ratio_index(state, attack, defense))
    unseen = 0 if p.defenders is not None else unseen_counters(state, p)
    return attrition_odds(state.data, attack, defense, idx, p.strain, unseen)


def attrition_odds(
    data: GameData, attack: Fraction, defense: Fraction, idx: int, strain: int, unseen: int = 0
) -> dict[str, Any]:
    """The odds of an assault from its strengths and column (`odds`): each die face's results
    on the Attrition Table (DG 8.2.1.4) and the strain check's chance (DG 8.2.3). The
    position's assault and the battle calculator both read the table here."""
    out: dict[str, Any] = {
        "attack": str(attack),
        "defense": str(defense),
        "ratio": ratio_name(idx),
        "strain_loss_chance": str(Fraction(min(strain, 6), 6)),
        "unseen_counters": unseen,
        "results": [],
    }
    if 0 <= idx <= 10:
        for die in range(1, 7):
            a, d = data.attrition.result(ratio_name(idx), die)
            out["results"].append(
                {
                    "die": die,
                    "chance": "1/6",
                    "attacker": {"loss": a.loss, "retreat": a.retreat, "advance": a.advance},
                    "defender": {"loss": d.loss, "retreat": d.retreat, "advance": d.advance},
                }
            )
    return out


# -- the phases ---------------------------------------------------------------------------------
class Combat(DGPhase):
    """Steps 10 and 19: the side opens assaults, one at a time, each hex attacked once a phase;
    the phase ends with `end` once no unit in an enemy zone of control still owes an attack
    (DG 8.2)."""

    kind = "combat"

    def enter(self, state: DGState, events: list[Event]) -> None:
        # DG 8.2 "each defending hex may only be attacked once": once in each combat phase,
        # so a hex the US attacked in step 10 may be attacked by Japan in step 19
        state.this_turn.attacked_hexes = []
        state.this_turn.advanced = []

    def has_choice(self, state: DGState) -> bool:
        # a phase with an assault behind it waits for its `end`; one with none to open passes
        return bool(state.this_turn.attacked_hexes) or bool(attacks(state, state.side_of(state.current_step)))

    def actions(self, state: DGState) -> list[Action]:
        return list(attacks(state, state.side_of(state.current_step)))

    def do(self, state: DGState, action: Action, events: list[Event]) -> None:
        assert isinstance(action, DGAction)
        open_assault(state, state.side_of(state.current_step), action.args[0])

    def end_blocker(self, state: DGState) -> IllegalAction | None:
        side = state.side_of(state.current_step)
        occ = occupancy(state)
        hexes = owed(state, side, occ)
        if not hexes:
            return None
        adjacent = state.data.map.adjacent
        units = sorted(u.id for u in bound_units(state, side, occ) if set(adjacent[u.at]) & set(hexes))
        return IllegalAction(
            "DG 8.2",
            f"units in an enemy zone of control must attack every adjacent enemy hex: "
            f"{', '.join(units)} must still attack {', '.join(hexes)}",
        )


class AssaultRules(DGPhase):
    """An assault being built and fought: each owner decides at its stage (DG 8.2.1.4)."""

    kind = "assault"

    def actions(self, state: DGState) -> list[Action]:
        return list(decision_legal(state, state.decision(Assault)))

    def do(self, state: DGState, action: Action, events: list[Event]) -> None:
        assert isinstance(action, DGAction)
        decide(state, state.decision(Assault), action, events)


COMBAT = Combat()
ASSAULT = AssaultRules()
