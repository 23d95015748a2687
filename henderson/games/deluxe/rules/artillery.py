"""Artillery (DG 8.1): supply, range, line of sight over levels and slopes, spotting, the
fire table, Henderson Field damage, counter-battery fire and naval bombardment."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

from henderson.core.events import Event, roll
from henderson.core.game import Action
from henderson.core.hexgrid import line

from ..actions import NUMBERS, DGAction, act, make
from ..decisions import ArtilleryLoss
from ..model import other
from .common import change_hf, event_effect, in_enemy_zoc, lose_step, occupancy, visible_units
from .phase import DGPhase

if TYPE_CHECKING:
    from ..model import GameData
    from ..state import DGState
    from ..units import UnitState

TARGETS_LIMIT = 20_000  # firing units' targets kept (`kept_targets`) before they are emptied
LOS_CACHE_LIMIT = 100_000  # lines of sight kept (pairs of hexes) before the cache is emptied


def line_of_sight(state: DGState, a: str, b: str) -> bool:
    """DG 8.1.4: can a unit in `a` see hex `b`?

    Adjacent hexes always see each other (8.1.4.3). At the same level, intervening jungle
    hexes and slope hexsides (an intervening hex at another level) block (8.1.4.1). At
    different levels the view is clear only when the higher hex is next to the slope toward
    the lower one (its first hex on the line is lower) and nothing on the line is higher than
    the higher end (8.1.4.2). docs/rulings/deluxe.md gives the reading.
    """
    m = state.data.map
    if a == b or b in m.adjacent[a]:
        return True
    cache = state.game.los_cache
    key = (a, b)
    if key not in cache:
        if len(cache) > LOS_CACHE_LIMIT:  # bounded: a long-running process plays many games
            cache.clear()
        cache[key] = _sight(state, a, b)
    return cache[key]


def _sight(state: DGState, a: str, b: str) -> bool:
    m = state.data.map
    ha, hb = m.hexes[a], m.hexes[b]
    # the hexes next to the ends on the line are intervening hexes (a and b are not adjacent):
    # without a neighbour that could let the view through, no line need be drawn
    opening = state.game.sight_openings
    if ha.level == hb.level:  # DG 8.1.4.1 a clear hex at their level next to both ends
        if a not in opening.level or b not in opening.level:
            return False
    elif (a if ha.level > hb.level else b) not in opening.slope:  # DG 8.1.4.2 the slope down
        return False
    at = state.game.hex_at  # the map's hexes by position: a lookup instead of a conversion
    path = [at.get(h) for h in line(ha.hex, hb.hex)]
    if any(p is None for p in path):
        return False
    between = [m.hexes[p] for p in path[1:-1] if p]
    if ha.level == hb.level:
        return not any(h.jungle or h.level != ha.level for h in between)
    high, seq = (ha, between) if ha.level > hb.level else (hb, list(reversed(between)))
    if seq and seq[0].level >= high.level:
        return False
    return not any(h.level > high.level for h in seq)


class Openings(NamedTuple):
    """For each hex, whether a neighbour could let a view through (DG 8.1.4): `level`, the hexes
    next to a hex that is not jungle at their own level (DG 8.1.4.1); `slope`, those next to a
    lower hex (DG 8.1.4.2). Fixed with the map, made once per game: most of the island is
    jungle, and most lines of sight are refused by these alone (`_sight`)."""

    level: frozenset[str]
    slope: frozenset[str]


def openings(data: GameData) -> Openings:
    """The map's `Openings`."""
    m = data.map
    level = frozenset(
        h
        for h, info in m.hexes.items()
        if any(not m.hexes[n].jungle and m.hexes[n].level == info.level for n in m.adjacent[h])
    )
    slope = frozenset(h for h, info in m.hexes.items() if any(m.hexes[n].level < info.level for n in m.adjacent[h]))
    return Openings(level, slope)


def spotted(state: DGState, side: str, target: str, spotters: Iterable[str] | None = None) -> bool:
    """DG 8.1.4: the firing unit or any friendly unit must see the target (`spotters`: the
    hexes of the side's units not under stealth, when the caller has them)."""
    if spotters is None:
        spotters = spotter_hexes(state, side)
    m = state.data.map
    known = state.game.los_cache
    unknown = []
    for h in spotters:  # lines already worked out first
        seen = known.get((h, target))
        if seen:
            return True
        if seen is None:
            unknown.append(h)
    # then the nearest first: most often the one that sees, and the cheapest line to work out
    return any(line_of_sight(state, h, target) for h in sorted(unknown, key=lambda h: m.distance(h, target)))


def spotter_hexes(state: DGState, side: str) -> list[str]:
    """The hexes holding units of `side` not under stealth, each once (DG 8.1.4)."""
    return list(dict.fromkeys(u.at for u in state.units.values() if u.side == side and u.on_map and not u.stealth))


def unlimited(state: DGState, side: str) -> bool:
    """DG 8.1.1: "Unl." on the turn track: US artillery fires without spending supply."""
    return side == "us" and state.data.turn(state.turn).supply["us"] == "unl"


def can_fire(state: DGState, u: UnitState, occ: dict) -> bool:
    """DG 8.1: artillery not in an enemy zone of control, not yet fired, not suppressed."""
    return (
        state.data.units[u.id].artillery
        and u.on_map
        and not u.fired
        and not u.suppressed
        and u.strength > 0
        and not in_enemy_zoc(state, occ, u.at, u.side)
        and event_effect(state, "no_fire", u.side) == 0  # DG 5.0 card 9 (Japanese)
    )


def targets(state: DGState, u: UnitState, occ: dict) -> list[str]:
    """Hexes within range holding visible enemy units, or Henderson Field when the enemy holds
    it (DG 8.1.3, 8.1.6), that a friendly unit can see."""
    m = state.data.map
    rng = state.data.units[u.id].range
    out = []
    for hid, units in occ.items():
        if units[0].side != u.side and visible_units(units) and m.distance(u.at, hid) <= rng:
            out.append(hid)
    hf = m.henderson_field
    if state.airfield.control != u.side and hf not in out and m.distance(u.at, hf) <= rng:
        out.append(hf)
    spotters = spotter_hexes(state, u.side) if out else []
    return sorted(h for h in out if spotted(state, u.side, h, spotters))


class Sighting(NamedTuple):
    """What every firing unit's targets read in one position besides its hex and range: its
    side, the enemy hexes with a unit not under stealth, whether the enemy holds Henderson
    Field, and the hexes of its side's units not under stealth (the spotters, DG 8.1.3-4)."""

    side: str
    enemy: frozenset[str]
    field: bool
    spotters: tuple[str, ...]


def sighting(state: DGState, side: str, occ: dict) -> Sighting:
    """The position's `Sighting` for `side`."""
    enemy = frozenset(hid for hid, units in occ.items() if units[0].side != side and visible_units(units))
    return Sighting(side, enemy, state.airfield.control != side, tuple(spotter_hexes(state, side)))


def kept_targets(state: DGState, u: UnitState, occ: dict, seen: Sighting) -> list[str]:
    """`targets`, kept on the game under the unit's hex and range and what it reads of the
    position (`seen`): the lines of sight never change, and an artillery phase lists the
    same fires again after each shot that leaves the enemy and the spotters where they were."""
    cache = state.game.target_cache
    key = (u.at, state.data.units[u.id].range, seen)
    found = cache.get(key)
    if found is None:
        if len(cache) > TARGETS_LIMIT:
            cache.clear()
        found = cache[key] = targets(state, u, occ)
    return found


def factors_allowed(state: DGState, u: UnitState, counter: bool = False) -> int:
    """DG 8.1.2: one supply point a factor; DG 8.1.8: counter-battery fires half, rounded up."""
    most = (u.strength + 1) // 2 if counter else u.strength
    return most if unlimited(state, u.side) else min(most, state.supply[u.side])


def legal(state: DGState, side: str) -> list[DGAction]:
    """Fire and counter-battery actions of `side` in an artillery phase."""
    occ = occupancy(state)
    out: list[DGAction] = []
    seen = None
    for u in map(state.units.__getitem__, state.game.ids_by_side[side]):  # in id order
        if not can_fire(state, u, occ):
            continue
        most = factors_allowed(state, u)
        if most < 1:
            continue
        if seen is None:
            seen = sighting(state, side, occ)
        for hid in kept_targets(state, u, occ, seen):
            for n in range(1, most + 1):
                out.append(make("fire", u.id, hid, NUMBERS[n]))
            if hid in occ:  # DG 8.1.8 any enemy hex: its artillery may be out of sight
                half = factors_allowed(state, u, counter=True)
                out.extend(make("counter", u.id, hid, NUMBERS[n]) for n in range(1, half + 1))
    return out


def spend(state: DGState, side: str, n: int) -> None:
    """Spend supply for fired factors (nothing under unlimited supply)."""
    if not unlimited(state, side):
        state.supply[side] -= n


def reveal(state: DGState, hex_id: str, events: list[Event]) -> None:
    """DG 8.2.11: stealth units sharing an attacked hex with other units are revealed."""
    for u in list(state.units.values()):
        if u.at == hex_id and u.stealth:
            u = state.update(u, stealth=0)
            events.append(Event("reveal", f"{u.id} is revealed in {hex_id}", {"unit": u.id, "hex": hex_id}))


def strike(state: DGState, hex_id: str, by: str, n: int, purpose: str, events: list[Event]) -> None:
    """`n` artillery factors against a hex (DG 8.1.5-8.1.6), each resolved by the total
    defending strength left; the final step of a unit is never lost to artillery; each 5-6
    damages the field. The owner then chooses which units take the steps (`assign`)."""
    defenders = [u for u in state.units.values() if u.at == hex_id and u.side != by and not u.stealth]
    strength = sum(u.strength for u in defenders)
    room_left = sum(u.strength - 1 for u in defenders)  # DG 8.1.5: final steps stay
    first_strength = strength
    total = 0
    dice: list[int] = []
    for _ in range(n):
        die = roll(state.dice, purpose, events)
        dice.append(die)
        hits = state.data.hits(strength, die) if strength else 0
        taken = min(hits, room_left)  # whichever units take them, the total falls the same
        strength -= taken
        room_left -= taken
        total += taken
        if hex_id == state.data.map.henderson_field and die in state.data.airfield_damage_on:
            change_hf(state, -1, by, events, purpose)
    seen = state.visible_ids(by)
    told = all(u.id in seen for u in defenders)  # DG 7.8: a stack's strength is not the firer's to know
    events.append(fire_result(state, hex_id, purpose, dice, first_strength if told else None, total))
    if total:
        state.pending.append(ArtilleryLoss(other(by), hex=hex_id, hits=total))
        settle_forced(state, events)


def fire_result(state: DGState, hex_id: str, purpose: str, dice: list[int], strength: int | None, lost: int) -> Event:
    """What a fire at a hex came to, a miss included: the dice, the rolls that hit there, and
    the steps lost, so that no fired die goes unexplained (DG 8.1.5). The rolls that hit
    follow from the hex's defending strength, so they are told only when the firer sees every
    defending counter (`strength` None: a stack, whose contents it may not review, DG 7.8);
    the strength itself is never told."""
    needed = [d for d in range(1, 7) if strength and state.data.hits(strength, d)]
    if strength is None:
        why = "what hits a stack is not shown: its counters are hidden"
    elif not strength:
        why = "no enemy unit there to hit"
    elif not needed:
        why = "no roll hits there"
    else:
        why = f"{' or '.join(str(d) for d in needed)} needed to hit"
    if lost:
        outcome = f"{lost} step{'s' if lost > 1 else ''} lost"
    elif any(d in needed for d in dice):
        outcome = "no effect"
        why += "; a unit's final step is never lost to artillery fire"
    else:
        outcome = "no effect"
    rolled = ", ".join(str(d) for d in dice)
    return Event(
        "fire_result",
        f"{purpose} at {hex_id}: {outcome} (dice {rolled}; {why})",
        {"hex": hex_id, "dice": dice, "needed": needed, "lost": lost},
    )


def loss_takers(state: DGState, p: ArtilleryLoss) -> list[UnitState]:
    """Units of the owner in the hex that can still lose a step to artillery (DG 8.1.5)."""
    return sorted(
        (u for u in state.units.values() if u.at == p.hex and u.side == p.side and not u.stealth and u.strength > 1),
        key=lambda u: u.id,
    )


def settle_forced(state: DGState, events: list[Event]) -> None:
    """Take the artillery losses that leave no choice (one unit can take them, or every
    step that can go must go), and drop the decision once no loss is left."""
    p = state.decision(ArtilleryLoss)
    while p.hits > 0:
        able = loss_takers(state, p)
        if not able:
            break
        if len(able) > 1 and sum(u.strength - 1 for u in able) > p.hits:
            return
        lose_step(state, able[0], events, "DG 8.1.5 artillery fire")
        p.hits -= 1
    state.pending.pop()


def fire(state: DGState, u: UnitState, hex_id: str, n: int, events: list[Event]) -> None:
    """DG 8.1: fire n factors of artillery unit u at a hex."""
    u = state.update(u, fired=True)
    spend(state, u.side, n)
    events.append(Event("fire", f"{u.id} fires {n} factor(s) at {hex_id}", {"unit": u.id, "hex": hex_id, "n": n}))
    reveal(state, hex_id, events)
    strike(state, hex_id, u.side, n, "DG 8.1.5 artillery fire", events)


def counter(state: DGState, u: UnitState, hex_id: str, n: int, events: list[Event]) -> None:
    """DG 8.1.8: "only half (rounding up) of its factors may be fired": 1..half of them; each
    4-6 suppresses one enemy artillery unit in the hex."""
    u = state.update(u, fired=True)
    spend(state, u.side, n)
    events.append(
        Event(
            "counter",
            f"{u.id} fires {n} counter-battery factor(s) at {hex_id}",
            {"unit": u.id, "hex": hex_id, "n": n},
        )
    )
    for _ in range(n):
        die = roll(state.dice, "DG 8.1.8 counter-battery", events)
        if die in state.data.counter_battery_on:
            guns = sorted(
                (
                    x
                    for x in state.units.values()
                    if x.at == hex_id and x.side != u.side and state.data.units[x.id].artillery and not x.suppressed
                ),
                key=lambda x: x.id,
            )
            if guns:
                state.update(guns[0], suppressed=True)
                events.append(
                    Event(
                        "suppressed",
                        "an enemy artillery unit is suppressed",
                        {"hex": hex_id, "side": other(u.side)},
                    )
                )


# -- DG 8.1.7 naval bombardment -----------------------------------------------------------------
def can_bombard(state: DGState, side: str) -> bool:
    """From turn 2, by the side not holding Henderson Field, never two turns running."""
    return (
        state.turn >= state.data.naval_first_turn
        and state.airfield.control != side
        and state.naval_last.get(side, -9) != state.turn - 1
        and event_effect(state, "no_naval", side) == 0
        and not naval_event_blocks(state, side)
    )


def naval_event_blocks(state: DGState, side: str) -> bool:
    """DG 5.0: this turn's event, drawn by the other side, forbids `side`'s bombardment."""
    ev = state.this_turn.event
    return ev is not None and ev.kind == "no_naval" and ev.side != side


def bombard(state: DGState, side: str, events: list[Event]) -> None:
    """DG 8.1.7: roll for the bombardment, then for its strength, then each attack."""
    # DG 5.0 card 8 (Japanese): after a naval victory the bombardment surely takes place
    sure = event_effect(state, "sure_naval", side) > 0
    die = 0 if sure else roll(state.dice, "DG 8.1.7 naval bombardment occurs on 4-6", events)
    if not sure and die not in state.data.naval_on:
        events.append(Event("naval", f"{side} naval bombardment does not take place", {"side": side}))
        return
    state.naval_last[side] = state.turn
    month = state.data.turn(state.turn).month
    dice = state.data.naval[month][side]
    attacks = sum(roll(state.dice, "DG 8.1.7 naval bombardment strength", events) for _ in range(dice))
    events.append(
        Event(
            "naval",
            f"{side} naval bombardment: {attacks} attacks on Henderson Field",
            {"side": side, "attacks": attacks},
        )
    )
    hf = state.data.map.henderson_field
    strike(state, hf, side, attacks, "DG 8.1.7 naval bombardment fire", events)


# -- the phases ---------------------------------------------------------------------------------
BOMBARD, PASS = act("bombard"), act("pass")


class NavalBombardment(DGPhase):
    """Steps 3 and 13: the side not holding Henderson Field may bombard it (DG 8.1.7), or
    `pass`; either ends the step."""

    kind = "naval"
    offers_end = False  # declined with `pass`

    def has_choice(self, state: DGState) -> bool:
        return can_bombard(state, state.side_of(state.current_step))

    def actions(self, state: DGState) -> list[Action]:
        return [BOMBARD, PASS] if self.has_choice(state) else [PASS]

    def do(self, state: DGState, action: Action, events: list[Event]) -> None:
        if action == BOMBARD:
            bombard(state, state.side_of(state.current_step), events)
        state.finish_step(events)  # the steps the owner loses are taken in the next step


class ArtilleryFire(DGPhase):
    """Steps 8, 9, 17, 18: the side's artillery fires at range, each unit once in its player
    turn (DG 8.1), or counter-battery (DG 8.1.8); the step ends with `end` or when no gun
    may fire (the engine lists the actions to know: `has_choice` is not answered apart,
    so the targets are found once, for the list the side then chooses from)."""

    kind = "fire"

    def actions(self, state: DGState) -> list[Action]:
        return list(legal(state, state.side_of(state.current_step)))

    def do(self, state: DGState, action: Action, events: list[Event]) -> None:
        assert isinstance(action, DGAction)
        shoot = fire if action.verb == "fire" else counter
        shoot(state, state.units[action.args[0]], action.args[1], action.number(2), events)


class Losses(DGPhase):
    """The owner picks the unit for each step lost to artillery fire that leaves a choice
    (DG 8.1.5 "apply the losses")."""

    kind = "artillery_loss"

    def actions(self, state: DGState) -> list[Action]:
        return [act("lose", u.id) for u in loss_takers(state, state.decision(ArtilleryLoss))]

    def do(self, state: DGState, action: Action, events: list[Event]) -> None:
        assert isinstance(action, DGAction)
        p = state.decision(ArtilleryLoss)
        lose_step(state, state.units[action.args[0]], events, "DG 8.1.5 artillery fire")
        p.hits -= 1
        settle_forced(state, events)


NAVAL = NavalBombardment()
FIRE = ArtilleryFire()
LOSS = Losses()
