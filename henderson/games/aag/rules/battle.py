"""The battle in one zone (AAG How to Attack, Declare Your Hits, Loss of Cargo, Ranged Fire):
the first player attacks, then the other, and only then are the casualties removed.

An attacker with ranged units that may join, or units that may attack airfields, declares
its attack (the `Declare` decision); one with nothing to declare rolls at once (the forced
`roll` of the step, `forced_roll`). The hits are assigned die by die in slot order; where
units of the type hit differ, a player chooses which takes it (the `HitChoice` decision).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from henderson.core.events import Event
from henderson.core.fields import replaced
from henderson.games.aag.actions import ROLL, Action, act
from henderson.games.aag.model import Advantage, other
from henderson.games.aag.pieces import Piece
from henderson.games.aag.rules import combat
from henderson.games.aag.rules.base import AagPhase
from henderson.games.aag.rules.battlebox import effect, is_hit, target_type
from henderson.games.aag.rules.common import casualty_signature, note, remove_casualties, representatives
from henderson.games.aag.state import Battle, Declare, HitChoice, Roll

if TYPE_CHECKING:
    from henderson.games.aag.state import AAGState

STEP_RULE = {"air": "AAG Combat step 1", "sea": "AAG Combat step 2", "land": "AAG Combat step 4"}


def the_battle(state: AAGState) -> Battle:
    fought = state.battle
    assert fought is not None, "no battle is being fought"
    return fought


def open_battle(state: AAGState, zone: str, cat: str, events: list[Event]) -> None:
    """The first player picks `zone`: both sides attack there (AAG Combat Sequence)."""
    state.battle = Battle(zone=zone, category=cat, attacker=state.first)  # type: ignore[arg-type]
    note(events, "battle", f"{STEP_RULE[cat]}: {cat} combat in {zone}", zone=zone)
    begin_attack(state, events)


def open_assault(state: AAGState, side: str, island: str, events: list[Event]) -> None:
    """AAG Appendix 1 Amphibious Assault: `side` attacks the land units on `island` with the
    units it unloaded there this turn, alone, before the Attack Land Units step."""
    state.battle = Battle(zone=island, category="land", attacker=side, assault=True)  # type: ignore[arg-type]
    begin_attack(state, events)


def declare_options(state: AAGState) -> list[Action]:
    """What the attacker may still declare: ranged units that may join the attack, and air
    units and joined ships that may attack the enemy airfields instead (AAG Combat step 4)."""
    fought = the_battle(state)
    side, zone, cat = fought.attacker, fought.zone, fought.category
    out: list[Action] = []
    ranged = combat.ranged_candidates(state, side, zone, cat)
    for p in representatives(state, [q for q in ranged if not q.joined]):
        out.append(act("join", p.id))
    if cat == "land" and not fought.assault and any(not a.damaged for a in combat.enemy_airfields(state, side, zone)):
        aimable = [p for p in combat.own_attackers(state, side, zone, cat) if state.category(p) == "air"]
        aimable += [p for p in ranged if p.joined]
        for p in representatives(state, [q for q in aimable if not q.aimed]):
            out.append(act("aim", p.id))
    return out


def begin_attack(state: AAGState, events: list[Event]) -> None:
    """The next side with something to fire at declares its attack (when it has a choice)
    or rolls at once; when no side is left, the zone's casualties are removed."""
    fought = the_battle(state)
    sides = [fought.attacker] if fought.assault else [state.first, state.second]
    while fought.stage < len(sides):
        side = sides[fought.stage]
        fought.attacker = side
        if combat.can_attack(state, side, fought.zone, fought.category):
            if declare_options(state):
                state.pending.append(Declare(side))
            return
        fought.stage += 1
    finish_zone(state, events)


def forced_roll(state: AAGState) -> Action | None:
    """An attack with nothing to declare is rolled at once."""
    return ROLL if state.battle is not None and not state.pending else None


def roll_attack(state: AAGState, events: list[Event]) -> None:
    """AAG How to Attack: roll one die per attack power; a hit per 1 or 2 in slot order."""
    fought = the_battle(state)
    side, zone, cat = fought.attacker, fought.zone, fought.category
    neck = state.data.neck
    vs_units, vs_fields = combat.attack_power(state, side, zone, cat)
    dice: list[Roll] = []
    night, banzai = combat.modifiers(state, side, zone, cat)
    count = vs_units if combat.targets(state, side, zone, cat) else 0  # `dice_against_units`
    purpose = f"{STEP_RULE[cat]} {side} attack on {cat} units in {zone}, die "
    for i in range(count):
        value = state.roll(f"{purpose}{i + 1}", events)
        if night and value == 2:
            value = 1  # AAG Appendix 1 Night Fighting: a 2 destroys like a 1
        if is_hit(neck, value) or (banzai and value == 3):  # AAG Appendix 1 Banzai Charge: 3s hit
            dice.append(Roll(slot=neck.slot_of(i), value=value))
    if count or not vs_fields:
        note_attack(events, side, zone, cat, count, dice)
    if vs_fields:
        hits = 0
        for i in range(vs_fields):
            value = state.roll(f"AAG Combat step 4 {side} attack on airfields in {zone}, die {i + 1}", events)
            hits += is_hit(neck, value)
        damaged = damage_airfields(state, side, zone, hits // 2, events)
        note(
            events,
            "attack",
            f"AAG Combat step 4: {side}'s attack on the airfields in {zone}: {vs_fields} dice, "
            f"{plural(hits, 'hit')}, {plural(damaged, 'airfield')} damaged",
            zone=zone,
            side=side,
            dice=vs_fields,
            hits=hits,
        )
    fought.dice = dice
    continue_assigning(state, events)


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n or 'no'} {noun}s"


def note_attack(events: list[Event], side: str, zone: str, cat: str, count: int, dice: list[Roll]) -> None:
    """Say what an attack's roll came to, hits or none, so that no roll goes unexplained
    (AAG Declare Your Hits: each 1 or 2 among the dice of the attack's power is a hit)."""
    if not count:
        text = f"{STEP_RULE[cat]}: {side} rolls no dice in {zone} (no unit attacks there)"
    else:
        slots = ", ".join(str(d.slot) for d in dice)
        where = "slots" if len(dice) > 1 else "slot"
        result = f"{plural(len(dice), 'hit')} ({where} {slots})" if dice else "no hits"
        text = f"{STEP_RULE[cat]}: {side}'s attack on {cat} units in {zone}: {count} dice, {result}"
    note(events, "attack", text, zone=zone, side=side, dice=count, hits=len(dice))


def damage_airfields(state: AAGState, side: str, zone: str, count: int, events: list[Event]) -> int:
    """Every 2 hits damage one enemy airfield; never more than one damaged marker each
    (AAG Combat step 4). Returns how many were damaged."""
    done = 0
    for field in combat.enemy_airfields(state, side, zone):
        if done >= count:
            break
        if not field.damaged:
            state.change_airfield(field, damaged=True)
            done += 1
            note(events, "airfield", f"{field.side} airfield on {zone} damaged", island=zone)
    return done


def continue_assigning(state: AAGState, events: list[Event]) -> None:
    """Assign hits die by die; stop when a player must choose the unit hit."""
    fought = the_battle(state)
    side, zone, cat = fought.attacker, fought.zone, fought.category
    neck = state.data.neck
    while fought.dice:
        hit = fought.dice.pop(0)
        slot, value = hit.slot, hit.value
        alive = [p for p in combat.targets(state, side, zone, cat) if p.hit != "destroyed"]  # what may be hit
        present = {p.type for p in alive}  # the types present, read once per hit
        if neck.type_at(cat, slot) not in present and "pt_boat" in present:
            # AAG Appendix 1 PT Boats: a PT boat takes a hit on a type that is not there
            boat = next(p for p in alive if p.type == "pt_boat")
            state.update(boat, hit="destroyed")
            note(events, "hit", f"slot {slot}: {boat.id} (PT boat) takes the hit", unit=boat.id)
            continue
        kind = target_type(neck, cat, slot, present)
        if kind is None:
            note(events, "miss", f"slot {slot}: a hit with nothing left to hit")
            continue
        cands = [p for p in alive if p.type == kind]
        if kind == "battleship":  # AAG Heavy Armor: 1 hit ignored per battleship first
            fresh = [p for p in cands if not p.armor_used]
            if fresh:
                state.update(fresh[0], armor_used=True)
                note(events, "armor", f"slot {slot}: {fresh[0].id} ignores the hit (heavy armour)")
                continue
        undamaged = [p for p in cands if p.hit is None]
        pool = undamaged or cands  # AAG: hits go to undamaged units before damaged ones
        if len({casualty_signature(state, p) for p in pool}) > 1:
            chooser = side if value == 1 else other(side)  # AAG: 1 attacker chooses, 2 defender
            state.pending.append(
                HitChoice(side=chooser, value=value, slot=slot, type=kind, candidates=[p.id for p in pool])
            )
            return
        apply_hit(state, pool[0], value, events, slot)
    fought.stage += 1
    begin_attack(state, events)


def apply_hit(state: AAGState, p: Piece, value: int, events: list[Event], slot: int | None = None) -> None:
    resilient = state.data.units[p.type].resilient
    p = state.update(p, hit=effect(resilient, p.hit == "damaged", value))
    where = f"slot {slot}: " if slot else ""
    note(events, "hit", f"{where}{value} hits {p.id} ({p.type}): {p.hit}", unit=p.id, value=value)


def finish_zone(state: AAGState, events: list[Event]) -> None:
    """Both sides have attacked: remove the casualties and go on to the next zone."""
    fought = the_battle(state)
    zone = fought.zone
    marked = [p for p in state.pieces.values() if p.hit and not p.damaged]  # the casualties in play
    remove_casualties(state, marked, f"{fought.category} combat in {zone}", events)
    state.battle = None
    repeat = None
    if not fought.assault:  # an Amphibious Assault: the island's own combat is to come
        repeat = next(
            (
                d
                for d in state.active
                if d.token == Advantage.COMMAND_DECISION
                and d.zone == zone
                and d.category == fought.category
                and not d.done
            ),
            None,
        )
    declared = [p for p in state.pieces.values() if p.aimed or p.joined]  # the few marked by this attack
    for p in declared:
        joined = p.joined and repeat is not None  # ranged units that joined fire again in a repeat (below)
        if p.aimed or p.joined != joined:
            state.update(p, aimed=False, joined=joined)
    if fought.assault:
        return
    if repeat is not None:  # AAG Appendix 1 Command Decision: "both players attack again"
        i = next(i for i, d in enumerate(state.active) if d is repeat)
        state.active[i] = replaced(repeat, done=True)
        note(events, "advantage", f"Command Decision: both sides attack again in {zone}")
        state.battle = Battle(zone=zone, category=fought.category, attacker=state.first)
        begin_attack(state, events)
        return
    state.resolved.append(zone)


class DeclarePhase(AagPhase):
    """The attacker declares: `join UNIT` (ranged fire into this zone), `aim UNIT` (an air
    unit or joined ship against the airfields), then `roll`
    (AAG Determine Total Attack Power, Ranged Fire, Combat step 4)."""

    def actions(self, state: AAGState) -> list[Action]:  # type: ignore[override]
        return [*declare_options(state), ROLL]

    def do(self, state: AAGState, action: Action, events: list[Event]) -> None:  # type: ignore[override]
        if action == ROLL:
            state.pending.pop()
            roll_attack(state, events)
            return
        p = state.pieces[action.args[0]]
        if action.verb == "join":
            state.update(p, joined=True, fired=True)  # AAG Ranged Fire: once declared, no other zone this turn
            note(events, "join", f"{p.id} ({p.type}) joins the attack on {the_battle(state).zone}")
        else:
            state.update(p, aimed=True)
            note(events, "aim", f"{p.id} ({p.type}) attacks the airfields")
        if not declare_options(state):
            state.pending.pop()  # nothing left to declare: the attack is rolled at once


class HitPhase(AagPhase):
    """`hit UNIT`: which of the units the hit falls on takes it (AAG Declare Your Hits: a 1,
    the attacker chooses; a 2, the defender; AAG Loss of Cargo)."""

    def choice(self, state: AAGState) -> HitChoice:
        decision = state.pending[-1]
        assert isinstance(decision, HitChoice)
        return decision

    def actions(self, state: AAGState) -> list[Action]:  # type: ignore[override]
        cands = [state.pieces[i] for i in self.choice(state).candidates]
        return [act("hit", p.id) for p in representatives(state, cands, casualty_signature)]

    def is_legal(self, state: AAGState, action: Action) -> bool:  # type: ignore[override]
        """Any unit of the group the hit falls on."""
        return state.is_listed(action) or (action.verb == "hit" and action.args[0] in self.choice(state).candidates)

    def do(self, state: AAGState, action: Action, events: list[Event]) -> None:  # type: ignore[override]
        choice = self.choice(state)
        state.pending.pop()
        apply_hit(state, state.pieces[action.args[0]], choice.value, events)
        continue_assigning(state, events)


DECLARE = DeclarePhase()
HIT = HitPhase()
