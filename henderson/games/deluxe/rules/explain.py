"""Why an action is refused: the rule that forbids it and the reason, in a sentence.

`why_not(state, action)` is asked only for an action that is not among the legal ones. It
checks, in the order a player would, whose decision it is, which step of the sequence of play
(DG 4.0) is being played, whether the units named are the acting side's, and then the
conditions of the rule of the verb, and names the first that fails.

A refusal must never tell the acting side anything it could not see (DG 7.7, 7.8): it reads
only what that side knows, its own units, the map, the stealth markers and the hexes enemy
counters stand in (which the table shows). It never names an enemy unit the reader cannot see
and never depends on the units under a marker or below the top of an enemy stack: a hex
holding hidden units reads as "enemy units", whatever they are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from henderson.core.errors import IllegalAction

from ..actions import VERBS, DGAction
from ..decisions import ArtilleryLoss, Assault, RabaulPicks, StealthMove
from ..model import other
from . import artillery, assault, movement, rabaul, reinforcements, stealth
from .common import enemy_adjacent, event_effect, in_enemy_zoc, occupancy, room, side_in, visible_units

if TYPE_CHECKING:
    from ..state import DGState
    from ..units import UnitState

# the rule to name when nothing more precise is found
RULE_OF_VERB = {
    "bombard": "DG 8.1.7",
    "land": "DG 6.0",
    "sea": "DG 7.6",
    "guerrilla": "DG 11.0",
    "move": "DG 7.1",
    "stack": "DG 7.5",
    "stealth": "DG 7.7.1",
    "unstealth": "DG 7.7.3",
    "detect": "DG 7.7.5",
    "withdraw": "DG 7.9",
    "consolidate": "DG 7.10",
    "repair": "DG 7.11.2",
    "wreck": "DG 7.11.1",
    "fire": "DG 8.1",
    "counter": "DG 8.1.8",
    "attack": "DG 8.2",
    "target": "DG 8.2.6",
    "with": "DG 8.2.1",
    "support": "DG 8.2.4",
    "strain": "DG 8.2.3",
    "ambush": "DG 8.2.9",
    "go": "DG 8.2.1",
    "defend": "DG 8.2.4",
    "lose": "DG 8.2.1.4",
    "retreat": "DG 8.2.1.4",
    "advance": "DG 8.2.1.4",
    "stop": "DG 8.2.1.4",
    "banzai": "DG 8.2.10",
    "rabaul": "DG 10.2",
    "pass": "DG 4.0",
    "end": "DG 4.0",
}

# the kinds of step (their phases' `kind`) in which each verb is played, outside pending decisions
STEP_VERBS = {
    "naval": ("bombard", "pass"),
    "reinforce": ("land",),
    "guerrilla": ("guerrilla", "pass"),
    "move": (
        "move",
        "stack",
        "sea",
        "stealth",
        "unstealth",
        "detect",
        "withdraw",
        "consolidate",
        "repair",
        "wreck",
        "end",
    ),
    "fire": ("fire", "counter", "end"),
    "combat": ("attack", "end"),
}

# the verbs of each decision that waits in `state.pending`
ASSAULT_VERBS = {
    "build": ("with", "support", "target", "strain", "ambush", "go"),
    "defend": ("defend",),
    "lose_d": ("lose",),
    "lose_a": ("lose",),
    "banzai_choice": ("banzai", "pass"),
    "retreat_d": ("retreat",),
    "retreat_a": ("retreat",),
    "advance": ("advance", "stop"),
    "counter_advance": ("advance", "stop"),
}
PENDING_VERBS = {"stealth_move": ("move", "pass"), "rabaul": ("rabaul", "pass"), "artillery_loss": ("lose",)}
PENDING_WHAT = {
    "assault": "the assault",
    "stealth_move": "the detected units' stealth movement",
    "rabaul": "the Rabaul reinforcement picks",
    "artillery_loss": "the steps lost to artillery fire",
}
FAR = 1_000  # movement points enough to cross the map: to tell an unreachable hex from a far one


class Refused(Exception):
    """Raised by the checks below with the refusal to give."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.error = IllegalAction(rule, message)


def plural(n: int, word: str) -> str:
    """`n` and the word, in the plural unless `n` is one."""
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word}es" if word.endswith("x") else f"{n} {word}s"


def no(rule: str, message: str) -> Refused:
    """A refusal naming its rule."""
    return Refused(rule, message)


def why_not(state: DGState, action: DGAction) -> IllegalAction:
    """The rule and the reason that forbid `action` now (it is not among the legal actions)."""
    try:
        _check(state, action)
    except Refused as r:
        return r.error
    return IllegalAction(
        RULE_OF_VERB.get(action.verb, "DG 4.0"),
        f"'{action}' is not legal now (step {state.step_number}, {state.current_step.name}, turn {state.turn})",
    )


def _where(state: DGState) -> str:
    """The current step as a player reads it: "step 7, U.S. Movement"."""
    return f"step {state.step_number}, {state.current_step.name}"


def _check(state: DGState, a: DGAction) -> None:
    """Raise the first reason that forbids `a`."""
    side = state.current_player() or ""
    if state.pending:
        p = state.pending[-1]
        kind = p.kind
        verbs = ASSAULT_VERBS.get(p.stage, ()) if isinstance(p, Assault) else PENDING_VERBS[kind]
        if a.verb not in verbs:
            stage = f" ({p.stage})" if isinstance(p, Assault) else ""
            raise no(
                RULE_OF_VERB.get(a.verb, "DG 4.0"),
                f"'{a}' is not possible now: {side} must first settle {PENDING_WHAT[kind]}{stage} "
                f"({', '.join(f'`{v}`' for v in verbs)})",
            )
        _names(state, a, side)
        if isinstance(p, Assault):
            _assault(state, p, a, side)
        elif isinstance(p, StealthMove):
            _stealth_move(state, p, a)
        elif isinstance(p, RabaulPicks):
            _rabaul(state, p, a)
        else:
            assert isinstance(p, ArtilleryLoss)
            _artillery_loss(state, p, a)
        return
    step = state.current_step
    kind = state.kind_of(step)
    number = state.step_number
    if a.verb in ASSAULT_VERBS["build"] or a.verb in ("defend", "lose", "retreat", "advance", "stop", "banzai"):
        raise no(
            RULE_OF_VERB[a.verb],
            f"'{a.verb}' belongs to an assault, and none is in progress ({_where(state)})",
        )
    if a.verb == "rabaul":
        raise no(
            "DG 10.2",
            "Rabaul units are picked only at the turn end after capturing, disabling or holding "
            "Henderson Field (DG 10.2.1-2, DG 4.0 step 20)",
        )
    verbs = STEP_VERBS.get(kind, ())
    if a.verb in ("end", "pass") and a.verb not in verbs and {"end", "pass"} & set(verbs):
        word = "pass" if "pass" in verbs else "end"
        raise no("DG 4.0", f"step {number} ({step.name}) is declined or ended with `{word}`")
    if a.verb not in verbs and (kind, a.verb) not in CHECKS:
        plan = state.plan
        turn = plan.steps[plan.first_turn_step :]
        where = sorted({i for i, s in enumerate(turn, 1) if a.verb in STEP_VERBS.get(state.kind_of(s), ())})
        raise no(
            "DG 4.0",
            f"'{a.verb}' is not played in step {number} ({step.name}) of turn {state.turn}; "
            f"it belongs to step{'s' if len(where) > 1 else ''} {', '.join(map(str, where))}",
        )
    _names(state, a, side)
    check = CHECKS.get((kind, a.verb))
    if check is not None:
        check(state, a, side)


def _names(state: DGState, a: DGAction, side: str) -> None:
    """Hexes named must be on the map; units named must exist and be the acting side's (every
    verb names only the units of the side that decides)."""
    spec = VERBS[a.verb].replace("?", "")
    for kind, arg in zip(spec, a.args, strict=False):
        if kind == "h" and arg not in state.data.map.hexes:
            raise no("DG 2.1", f"{arg} is not a hex of the map")
        if kind in ("u", "s"):
            for name in arg.split("+"):
                if name not in state.units:
                    raise no("DG 2.2.1", f"there is no unit {name!r}")
                if state.units[name].side != side:
                    raise no(
                        RULE_OF_VERB.get(a.verb, "DG 4.0"),
                        f"{name} is not a unit of {side}, who decides now ({_where(state)})",
                    )


def _on_map(state: DGState, u: UnitState, rule: str) -> None:
    """An own unit that must be on the map."""
    if u.on_map:
        return
    where = {
        "turn": f"on the turn track (it arrives on turn {state.data.units[u.id].arrival})",
        "rabaul": "at Rabaul",
        "next": "at sea from Rabaul (it lands in the reinforcement step)",
        "eliminated": "eliminated",
        "withdrawn": "withdrawn from Guadalcanal",
        "absorbed": "absorbed by consolidation",
    }[u.at]
    raise no(rule, f"{u.id} is not on the map: it is {where}")


# -- DG 4.0 steps 3/13, 4/14, 6 ---------------------------------------------------------------
def _bombard(state: DGState, a: DGAction, side: str) -> None:
    """DG 8.1.7 and the events of DG 5.0."""
    if state.turn < state.data.naval_first_turn:
        raise no("DG 8.1.7", f"naval bombardment begins with turn {state.data.naval_first_turn}")
    if state.airfield.control == side:
        raise no("DG 8.1.7", f"only the side that does not control Henderson Field bombards it; {side} controls it")
    if state.naval_last.get(side, -9) == state.turn - 1:
        raise no("DG 8.1.7", f"{side} bombarded Henderson Field last turn: not in consecutive turns")
    if event_effect(state, "no_naval", side) or artillery.naval_event_blocks(state, side):
        raise no("DG 5.0", f"this turn's random event ({_event_title(state)}) forbids {side}'s naval bombardment")


def _event_title(state: DGState) -> str:
    """The title of this turn's random event card, as the drawing side read it."""
    ev = state.this_turn.event
    for c in state.data.cards:
        if ev is not None and c.number == ev.card:
            return f"card {c.number}, {c.effect(ev.side).title}"
    return "the random event"


def _land(state: DGState, a: DGAction, side: str) -> None:
    """DG 6.0, DG 4.0 steps 4 and 14, DG 2.2.2.6 note, DG 7.5, DG 10.2.3 note."""
    u = state.units[a.args[0]]
    hex_id = a.args[1]
    due = reinforcements.arriving(state, side)
    if u not in due:
        if u.on_map:
            raise no("DG 6.0", f"{u.id} is already on the map")
        if u.at == "turn":
            raise no("DG 6.0", f"{u.id} arrives on turn {state.data.units[u.id].arrival}, not turn {state.turn}")
        if u.at == "rabaul":
            raise no("DG 10.2", f"{u.id} waits at Rabaul: it lands only when picked (DG 10.2.1-2)")
        raise no("DG 6.0", f"{u.id} is {u.at}")
    occ = occupancy(state)
    first = next((x for x in due if reinforcements.options(state, x, occ)[0]), u)
    if first.id != u.id:
        raise no("DG 6.0", f"arriving units land one at a time in counter order: {first.id} first (ruling 10)")
    rule = "DG 4.0 step 4" if side == "us" else "DG 4.0 step 14"
    h = state.data.map.hexes[hex_id]
    if not h.land:
        raise no("DG 6.0", f"{hex_id} is a sea hex: units land on a coastal hex")
    if not h.coastal:
        raise no("DG 6.0", f"{hex_id} is not a coastal hex: reinforcements are placed on a coastal hex")
    if side_in(occ, hex_id) not in (None, side):
        raise no("DG 7.3.8", f"{hex_id} holds enemy units")
    if not room(state, occ, hex_id, u, landing=True):
        heavy = (
            " (a Heavy battalion counts two in its landing hex, DG 10.2.3 note)" if state.data.units[u.id].heavy else ""
        )
        raise no("DG 7.5", f"{hex_id} has no room for {u.id}: at most three units a hex{heavy}")
    if reinforcements.options(state, u, occ)[1]:  # DG 2.2.2.6 note: anywhere on the coast
        return
    if side == "us" and h.jungle and not h.village:
        raise no(rule, f"{hex_id} is a jungle hex: U.S. units land on a village or a clear coastal hex")
    if in_enemy_zoc(state, occ, hex_id, side):
        raise no(rule, f"{hex_id} is in an enemy zone of control")


def _pass_reinforce(state: DGState, a: DGAction, side: str) -> None:
    """DG 6.0: arriving units are placed on the map; there is nothing to decline."""
    first = reinforcements.legal(state, side)
    name = first[0].args[0] if first else "each arriving unit"
    raise no("DG 6.0", f"arriving units must land (DG 6.0 'these units are placed on a coastal hex'): land {name}")


def _guerrilla(state: DGState, a: DGAction, side: str) -> None:
    """DG 11.0."""
    hex_id = a.args[0]
    m = state.data.map
    if hex_id not in m.villages:
        raise no("DG 11.0", f"{hex_id} is not a village")
    name = m.villages[hex_id]
    if state.villages.get(hex_id) != "jp":
        raise no("DG 11.0", f"{name} is not under Japanese control")
    if hex_id in state.this_turn.guerrilla:
        raise no("DG 11.0", f"{name} has been rolled for this turn: a village once a turn")
    occ = occupancy(state)
    if any(u.side == "jp" for u in occ.get(hex_id, [])):
        raise no("DG 11.0", f"{name} is not free of Japanese units (a counter or a stealth marker stands there)")
    if in_enemy_zoc(state, occ, hex_id, "us"):
        raise no("DG 11.0", f"{name} is in a Japanese zone of control")
    if not artillery.unlimited(state, "us") and state.supply["us"] < 1:
        raise no("DG 11.0", "each roll costs a U.S. supply point, and none is left")


# -- DG 7: the movement phase ------------------------------------------------------------------
def _mover(state: DGState, u: UnitState, rule: str = "DG 7.1") -> None:
    """An own unit that may still move this phase."""
    _on_map(state, u, rule)
    if u.id in state.this_turn.stuck:
        raise no(
            "DG 2.2.2.6",
            f"{u.id} landed where no landing hex was free and may not move any farther this turn (DG 2.2.2.6 note)",
        )
    if u.stealth:
        if u.moved:
            raise no("DG 7.7.1", f"{u.id} entered stealth this phase in lieu of moving")
        raise no("DG 7.7.4", f"{u.id} is under a stealth marker: it moves only after leaving stealth (`unstealth`)")
    if u.id in state.this_turn.hf_work:
        raise no("DG 7.11", f"{u.id} has worked on Henderson Field this phase, which ends its movement")
    if u.moved:
        raise no("DG 7.1", f"{u.id} has finished its move this phase")
    if u.leg == "halt":
        occ = occupancy(state)
        if in_enemy_zoc(state, occ, u.at, u.side):
            raise no("DG 7.4.1", f"{u.id} entered an enemy zone of control in {u.at} and must stop there")
        if state.data.map.hexes[u.at].river:
            raise no("DG 7.3.3", f"{u.id} entered the river in {u.at} and must stop there")
        raise no("DG 7.2", f"{u.id} made its one-hex minimum move, which takes its whole allowance")


def _destination(state: DGState, units: tuple[UnitState, ...], hex_id: str, ctx: movement.Context) -> None:
    """The hex itself: on the map, land, not the enemy's, with room (DG 7.3.8, 7.5)."""
    h = state.data.map.hexes[hex_id]
    if hex_id == units[0].at:
        raise no("DG 7.1", f"{'+'.join(u.id for u in units)} {'is' if len(units) == 1 else 'are'} in {hex_id} already")
    if not h.land:
        raise no("DG 7.1", f"{hex_id} is a sea hex (a move by sea to another coastal hex is `sea`, DG 7.6)")
    if hex_id in ctx.enemy:
        raise no(
            "DG 7.3.8", f"{hex_id} holds enemy units: a combat unit may never enter a hex containing an enemy unit"
        )
    full = state.data.constants.stacking
    if ctx.size.get(hex_id, 0) + len(units) > full:
        left = max(0, full - ctx.size.get(hex_id, 0))
        raise no("DG 7.5", f"{hex_id} has room for {left} more unit{'' if left == 1 else 's'}: at most {full} a hex")
    if units[0].pool and not h.jungle:
        raise no("DG 7.7.4", f"{hex_id} is not a jungle hex: stealth movement stays within jungle terrain")


def _budget(state: DGState, units: tuple[UnitState, ...]) -> int:
    """Movement points the unit, or the stack's slowest unit (DG 7.5), has left."""
    if len(units) == 1:
        return movement.allowance(state, units[0])
    return min(movement.allowance(state, u) - movement.landing_extra(state, u) for u in units)


def _reach(state: DGState, units: tuple[UnitState, ...], hex_id: str, ctx: movement.Context) -> None:
    """Why the hex is out of reach: its cost, a forced stop on the way, or no path at all."""
    who = "+".join(u.id for u in units)
    have = _budget(state, units)
    m = state.data.map
    if hex_id in m.adjacent[units[0].at] and not all(movement.minimum_move(u) for u in units):
        minimum = " (the one-hex minimum move, DG 7.2, is for a unit that has spent nothing this phase)"
    else:
        minimum = ""
    found = movement.route_search(state, units, ctx, FAR)
    no_zoc = movement.route_search(state, units, ctx, FAR, zoc=False)
    no_river = movement.route_search(state, units, ctx, FAR, rivers=False)
    neither = movement.route_search(state, units, ctx, FAR, zoc=False, rivers=False)

    def near(routes: movement.RouteMap) -> bool:
        return routes.costs.get(hex_id, FAR + 1) <= have

    if near(no_zoc) or (hex_id in no_zoc and hex_id not in found):
        raise no(
            "DG 7.4.1",
            f"{who} cannot reach {hex_id}: every path enters an enemy zone of control before it, where the unit "
            f"must stop{minimum}",
        )
    if near(no_river) or (hex_id in no_river and hex_id not in found):
        raise no(
            "DG 7.3.3",
            f"{who} cannot reach {hex_id}: every path enters a river hex before it, where the unit must stop "
            f"(unless an LVT or engineer helps it across){minimum}",
        )
    if near(neither) or (hex_id in neither and hex_id not in found):
        raise no(
            "DG 7.4.1",
            f"{who} cannot reach {hex_id}: every path must stop before it, in an enemy zone of control "
            f"(DG 7.4.1) or a river hex (DG 7.3.3){minimum}",
        )
    if hex_id in found:
        cost = found.costs[hex_id]
        landing = ""
        if len(units) == 1 and movement.landing_extra(state, units[0]):
            landing = ", with the two points to leave its landing hex (DG 7.3.5)"
        slowest = " at the rate of its slowest unit (DG 7.5)" if len(units) > 1 else ""
        raise no(
            "DG 7.1",
            f"{who} cannot reach {hex_id}: the cheapest path costs {cost} movement points{landing}, and it has "
            f"{have} left{slowest}{minimum}",
        )
    if units[0].pool:
        raise no("DG 7.7.4", f"{who} cannot reach {hex_id} through jungle hexes only (stealth movement)")
    raise no("DG 7.3.8", f"{who} cannot reach {hex_id}: no path over land avoids the hexes enemy units hold")


def _move(state: DGState, a: DGAction, side: str) -> None:
    """DG 7.1-7.5, 7.7.4."""
    u = state.units[a.args[0]]
    _mover(state, u)
    ctx = movement.Context(state, side)
    _destination(state, (u,), a.args[1], ctx)
    _reach(state, (u,), a.args[1], ctx)


def _stack(state: DGState, a: DGAction, side: str) -> None:
    """DG 7.5: two or three units of one hex move together at the rate of the slowest."""
    units = tuple(state.units[i] for i in a.args[0].split("+"))
    for u in units:
        _mover(state, u, "DG 7.5")
    if len({u.at for u in units}) > 1:
        raise no(
            "DG 7.5",
            f"{' and '.join(u.id for u in units)} are not in one hex: only units stacked together move together",
        )
    if any(u.pool for u in units):
        raise no("DG 7.7.4", "a unit on stealth movement moves alone")
    ctx = movement.Context(state, side)
    _destination(state, units, a.args[1], ctx)
    _reach(state, units, a.args[1], ctx)


def _sea(state: DGState, a: DGAction, side: str) -> None:
    """DG 7.6."""
    u = state.units[a.args[0]]
    hex_id = a.args[1]
    _mover(state, u, "DG 7.6")
    if u.spent or u.leg or u.pool:
        raise no("DG 7.6", f"{u.id} has begun its movement on land: a sea move begins the unit's movement")
    m = state.data.map
    if not m.hexes[u.at].coastal:
        raise no("DG 7.6", f"{u.id} is not in a coastal hex")
    ctx = movement.Context(state, side)
    near = sorted(n for n in m.adjacent[u.at] if n in ctx.enemy)
    if near:
        raise no("DG 7.6", f"{u.id} is next to enemy units (in {', '.join(near)}): it may not put out to sea")
    used = state.this_turn.sea.get(side, 0)
    if used >= state.data.constants.sea_moves_per_turn:
        raise no("DG 7.6", f"{side} has made {used} sea moves this turn: up to three units a turn")
    if movement.allowance(state, u) < state.data.movement.sea_landing:
        raise no("DG 7.6", f"{u.id} has fewer than the two movement points a sea move costs")
    if hex_id == u.at:
        raise no("DG 7.6", f"{u.id} is in {hex_id} already: a sea move goes to another coastal hex")
    if not m.hexes[hex_id].coastal:
        raise no("DG 7.6", f"{hex_id} is not a coastal hex")
    _destination(state, (u,), hex_id, ctx)


def _stealth(state: DGState, a: DGAction, side: str) -> None:
    """DG 7.7, 7.7.1, 7.7.6."""
    u = state.units[a.args[0]]
    _on_map(state, u, "DG 7.7.1")
    if side not in stealth.stealth_sides(state):
        raise no("DG 7.7.6", "only Japanese units use stealth (U.S. stealth is an option not in play)")
    if not state.data.units[u.id].infantry:
        raise no("DG 7.7.1", f"{u.id} is not an infantry unit: only infantry enters stealth")
    if u.stealth:
        raise no("DG 7.7.2", f"{u.id} is under stealth already: the marker rises by itself each turn it stays")
    if u.moved or u.spent or u.pool or u.leg:
        raise no("DG 7.7.1", f"{u.id} has moved (or acted) this phase: stealth is entered in lieu of moving")
    if not state.data.map.hexes[u.at].jungle:
        raise no("DG 7.7.1", f"{u.id} is not in a jungle hex")
    if enemy_adjacent(state, occupancy(state), u.at, u.side):
        raise no("DG 7.7", f"{u.id} is next to an enemy unit")


def _unstealth(state: DGState, a: DGAction, side: str) -> None:
    """DG 7.7.3."""
    u = state.units[a.args[0]]
    _on_map(state, u, "DG 7.7.3")
    if not u.stealth:
        raise no("DG 7.7.3", f"{u.id} is not under a stealth marker")
    if u.moved:
        raise no("DG 7.7.1", f"{u.id} entered stealth this phase in lieu of moving")


def _detect(state: DGState, a: DGAction, side: str) -> None:
    """DG 7.7.5, and a leg of the move first (ruling 4)."""
    u = state.units[a.args[0]]
    target = a.args[1]
    _on_map(state, u, "DG 7.7.5")
    if u.stealth:
        raise no("DG 7.7.5", f"{u.id} is under a stealth marker: only a moving unit detects")
    if u.pool:
        raise no("DG 7.7.5", f"{u.id} is on stealth movement, not a normal move")
    if u.moved:
        raise no("DG 7.7.5", f"{u.id} has finished its move this phase")
    if movement.allowance(state, u) < 1:
        raise no("DG 7.7.5", f"{u.id} has no movement point left to spend on detection")
    value = stealth.markers(state, other(side)).get(target)
    if value is None:
        raise no("DG 7.7.5", f"{target} holds no enemy stealth marker")
    m = state.data.map
    if len(a.args) == 3:
        via = a.args[2]
        if u.leg == "halt" or u.id in state.this_turn.stuck:
            _mover(state, u, "DG 7.7.5")
        ctx = movement.Context(state, side)
        _destination(state, (u,), via, ctx)
        route = movement.route_to(state, u, via, ctx)
        if route is None:
            _reach(state, (u,), via, ctx)
            return
        if route.cost >= movement.allowance(state, u):
            raise no("DG 7.7.5", f"reaching {via} takes all of {u.id}'s movement points, leaving none for detection")
        dist = m.distance(via, target)
        if dist > value:
            raise no("DG 7.7.5", f"{via} is {plural(dist, 'hex')} from {target}, beyond the marker's value of {value}")
        return
    dist = m.distance(u.at, target)
    if dist > value:
        raise no("DG 7.7.5", f"{u.id} is {plural(dist, 'hex')} from {target}, beyond the marker's value of {value}")


def _withdraw(state: DGState, a: DGAction, side: str) -> None:
    """DG 7.9, 7.9.1, 7.9.2."""
    u = state.units[a.args[0]]
    _on_map(state, u, "DG 7.9")
    c = state.data.constants
    if side == "jp" and state.turn < c.withdrawal_turn:
        raise no("DG 7.9.1", f"the Japanese withdraw from the {c.withdrawal_turn}th turn on")
    if side == "jp" and state.this_turn.withdrawals >= c.japan_withdrawals_per_turn:
        raise no("DG 7.9.1", f"the Japanese have withdrawn {c.japan_withdrawals_per_turn} units this turn, the most")
    if side == "us" and not state.data.units[u.id].first_marine:
        raise no("DG 7.9.2", f"{u.id} is not of the 1st Marine Division (black bar): only its units withdraw")
    if u.stealth:
        raise no("DG 7.9", f"{u.id} is under a stealth marker")
    if u.moved or u.spent or u.leg:
        raise no("DG 7.9", f"{u.id} has moved (or acted) this phase: withdrawal takes its whole turn")
    if u.at != u.start:
        raise no("DG 7.9", f"{u.id} did not begin its turn in {u.at}")
    if u.at not in state.data.map.villages:
        raise no("DG 7.9", f"{u.id} is not in a village hex")
    if in_enemy_zoc(state, occupancy(state), u.at, side):
        raise no("DG 7.9", f"{u.id} is in an enemy zone of control")


def _consolidate(state: DGState, a: DGAction, side: str) -> None:
    """DG 7.10."""
    x, y = state.units[a.args[0]], state.units[a.args[1]]
    if x.id == y.id:
        raise no("DG 7.10", "consolidation merges two different units")
    for u in (x, y):
        _on_map(state, u, "DG 7.10")
    tx, ty = state.data.units[x.id], state.data.units[y.id]
    if tx.type != ty.type:
        raise no("DG 7.10", f"{x.id} ({tx.type}) and {y.id} ({ty.type}) are not of the same type")
    if x.at != y.at:
        raise no("DG 7.10", f"{x.id} and {y.id} are not in the same hex")
    if x.start != x.at or y.start != y.at:
        raise no("DG 7.10", f"{x.id} and {y.id} did not begin the turn stacked in {x.at}")
    for u, t in ((x, tx), (y, ty)):
        if u.strength >= t.strength:
            raise no("DG 7.10", f"{u.id} is at full strength: only reduced units consolidate")
    if x.strength + y.strength > min(tx.strength, ty.strength):
        raise no(
            "DG 7.10",
            f"together {x.id} and {y.id} would have {x.strength + y.strength} factors, larger than "
            f"either at full strength ({min(tx.strength, ty.strength)})",
        )
    for u in (x, y):
        if u.stealth:
            raise no("DG 7.10", f"{u.id} is under a stealth marker")
        if u.moved or u.spent or u.leg:
            raise no("DG 7.10", f"{u.id} has moved (or acted) this phase")


def _field_worker(state: DGState, u: UnitState, rule: str) -> None:
    """A unit on Henderson Field that has not worked on it this phase."""
    _on_map(state, u, rule)
    hf = state.data.map.henderson_field
    if u.at != hf:
        raise no(rule, f"{u.id} is not on Henderson Field ({hf})")
    if u.stealth or u.pool:
        raise no(rule, f"{u.id} is under stealth or on stealth movement")
    if u.id in state.this_turn.hf_work:
        raise no(rule, f"{u.id} has worked on Henderson Field this phase already")


def _repair(state: DGState, a: DGAction, side: str) -> None:
    """DG 7.11.2."""
    u = state.units[a.args[0]]
    t = state.data.units[u.id]
    if not (t.type in ("engineer", "labour") or t.infantry):
        raise no("DG 7.11.2", f"{u.id} is not an engineer, labour or infantry unit")
    _field_worker(state, u, "DG 7.11.2")
    if state.airfield.control != side:
        raise no("DG 7.11.2", f"{side} does not control Henderson Field: a side repairs its own airfield")
    if state.airfield.status >= state.data.constants.hf_max:
        raise no("DG 7.11.2", f"Henderson Field is undamaged (status {state.airfield.status})")
    if (u.moved or u.leg) and u.spent * 2 > t.movement:
        raise no("DG 7.11.2", f"{u.id} has spent {u.spent} of its {t.movement} movement points, more than half")


def _wreck(state: DGState, a: DGAction, side: str) -> None:
    """DG 7.11.1."""
    u = state.units[a.args[0]]
    if state.data.units[u.id].type not in ("engineer", "labour"):
        raise no("DG 7.11.1", f"{u.id} is not an engineer or labour unit")
    _field_worker(state, u, "DG 7.11.1")
    if state.airfield.status <= 0:
        raise no("DG 7.11.1", "Henderson Field's status is 0 already")


# -- DG 8.1 artillery fire ----------------------------------------------------------------------
def _gun(state: DGState, u: UnitState, rule: str) -> None:
    """An own artillery unit that may fire now (DG 8.1, 8.1.1, 8.1.8, 5.0)."""
    if not state.data.units[u.id].artillery:
        raise no(rule, f"{u.id} is not an artillery unit")
    _on_map(state, u, rule)
    if u.fired:
        raise no("DG 8.1", f"{u.id} has fired already in this player's turn (ruling 24a)")
    if u.suppressed:
        raise no("DG 8.1.8", f"{u.id} is suppressed by counter-battery fire until the turn ends")
    if in_enemy_zoc(state, occupancy(state), u.at, u.side):
        raise no("DG 8.1", f"{u.id} is in an enemy zone of control: it fires only as part of an assault")
    if event_effect(state, "no_fire", u.side):
        raise no("DG 5.0", f"this turn's random event ({_event_title(state)}) stops {u.side}'s artillery fire")
    if not artillery.unlimited(state, u.side) and state.supply[u.side] < 1:
        raise no("DG 8.1.1", f"{u.side} has no artillery supply left: each factor fired costs a supply point")


def _aim(state: DGState, u: UnitState, hex_id: str, counter: bool) -> None:
    """The target: in range (DG 8.1.3), seen (DG 8.1.4), holding enemy units the firer's side
    can see, or an enemy-held Henderson Field (DG 8.1.6)."""
    m = state.data.map
    rng = state.data.units[u.id].range
    dist = m.distance(u.at, hex_id)
    if dist > rng:
        raise no("DG 8.1.3", f"{hex_id} is {plural(dist, 'hex')} from {u.id}, beyond its range of {rng}")
    occ = occupancy(state)
    enemy = [v for v in occ.get(hex_id, []) if v.side != u.side]
    hf = hex_id == m.henderson_field and state.airfield.control != u.side
    if not visible_units(enemy) and not hf:
        raise no(
            "DG 8.1",
            f"{hex_id} holds no enemy units your side can see (units under stealth may not be fired "
            "at, DG 7.7), nor is it an enemy-held Henderson Field (DG 8.1.6)",
        )
    if counter and not enemy:
        raise no("DG 8.1.8", f"{hex_id} holds no enemy units: counter-battery fire aims at the enemy's artillery")
    if not artillery.spotted(state, u.side, hex_id):
        raise no("DG 8.1.4", f"neither {u.id} nor any other unit of {u.side} can see {hex_id}")


def _factors(state: DGState, u: UnitState, n: int, counter: bool) -> None:
    """DG 8.1.2 (and 8.1.8): how many factors may be fired."""
    if n < 1:
        raise no("DG 8.1.2", "fire at least one factor")
    if counter and n > (u.strength + 1) // 2:
        raise no(
            "DG 8.1.8",
            f"counter-battery fire uses at most half of {u.id}'s {u.strength} factors, rounded up: "
            f"{(u.strength + 1) // 2}",
        )
    if n > u.strength:
        raise no("DG 8.1.2", f"{u.id} has {plural(u.strength, 'factor')}")
    if not artillery.unlimited(state, u.side) and n > state.supply[u.side]:
        raise no("DG 8.1.2", f"{u.side} has {plural(state.supply[u.side], 'supply point')}, one for each factor fired")


def _fire(state: DGState, a: DGAction, side: str) -> None:
    """DG 8.1, 8.1.2-8.1.4, 8.1.6, 8.1.8."""
    u = state.units[a.args[0]]
    counter = a.verb == "counter"
    _gun(state, u, "DG 8.1.8" if counter else "DG 8.1")
    _aim(state, u, a.args[1], counter)
    _factors(state, u, a.number(2), counter)


# -- DG 8.2 assault ------------------------------------------------------------------------------
def _attackable(state: DGState, hex_id: str, side: str, rule: str = "DG 8.2") -> None:
    """A hex that may be attacked now (DG 8.2, 8.2.11)."""
    occ = occupancy(state)
    units = occ.get(hex_id, [])
    if not units or units[0].side == side:
        raise no(rule, f"{hex_id} holds no enemy unit")
    if not visible_units(units):
        raise no("DG 8.2.11", f"{hex_id} holds only units under a stealth marker, which may not be attacked")
    if hex_id in state.this_turn.attacked_hexes:
        raise no("DG 8.2", f"{hex_id} has been attacked already in this combat phase: each hex once")


def _attack(state: DGState, a: DGAction, side: str) -> None:
    """DG 8.2, 8.2.2, 8.2.4, 8.2.11."""
    hex_id = a.args[0]
    _attackable(state, hex_id, side)
    raise no(
        "DG 8.2.2",
        f"no unit of {side} next to {hex_id} may still attack: each unit attacks once a phase "
        "(DG 8.2.2), artillery never initiates an assault (DG 8.2.4), units under stealth do not attack",
    )


def _assault(state: DGState, p: Assault, a: DGAction, side: str) -> None:
    """The decisions inside an assault."""
    stage = p.stage
    if stage == "build":
        _build(state, p, a, side)
    elif stage == "defend":
        n = a.number(0)
        cap = assault.artillery_capacity(state, p)
        if n > cap:
            raise no("DG 8.2.4", f"the defending artillery can take at most {plural(cap, 'supply point')} here")
        raise no("DG 8.1.1", f"{side} has {plural(state.supply[side], 'supply point')}")
    elif stage in ("lose_d", "lose_a"):
        u = state.units[a.args[0]]
        raise no("DG 8.2.1.4", f"{u.id} is not one of the units of this assault that take its losses")
    elif stage in ("retreat_d", "retreat_a"):
        _retreat(state, p, a)
    elif stage in ("advance", "counter_advance"):
        _advance(state, p, a, side)


def _build(state: DGState, p: Assault, a: DGAction, side: str) -> None:
    """`with`, `support`, `target`, `strain`, `ambush`, `go` (DG 8.2.1-8.2.9)."""
    m = state.data.map
    if a.verb in ("with", "support"):
        u = state.units[a.args[0]]
        _on_map(state, u, RULE_OF_VERB[a.verb])
        arty = state.data.units[u.id].artillery
        if u.id in p.units or u.id in p.support:
            raise no(RULE_OF_VERB[a.verb], f"{u.id} is in this assault already")
        far = [t for t in p.targets if t not in m.adjacent[u.at]]
        if far:
            raise no(
                "DG 8.2.5",
                f"{u.id} is not next to {', '.join(far)}: every unit of an assault is next to every hex it attacks "
                "(DG 8.2.5, 8.2.6)",
            )
        if a.verb == "with" and arty:
            raise no(
                "DG 8.2.4",
                f"{u.id} is artillery: it adds factors for supply (`support`) and never initiates an assault",
            )
        if a.verb == "support" and not arty:
            raise no("DG 8.2.4", f"{u.id} is not artillery: it joins with `with`")
        if u.attacked:
            raise no("DG 8.2.2", f"{u.id} has attacked already in this combat phase: once a turn")
        if u.stealth:
            raise no("DG 7.7", f"{u.id} is under a stealth marker")
        if a.verb == "support":
            if u.suppressed:
                raise no("DG 8.1.8", f"{u.id} is suppressed and may not fire")
            if u.fired:
                raise no("DG 8.1", f"{u.id} fired at range in this player's turn (ruling 24a)")
            n = a.number(1)
            left = state.supply[side] - sum(p.support.values())
            if n < 1:
                raise no("DG 8.2.4", "support with at least one factor")
            if n > u.strength:
                raise no("DG 8.1.2", f"{u.id} has {plural(u.strength, 'factor')}")
            if not artillery.unlimited(state, side) and n > left:
                raise no("DG 8.1.2", f"{side} has {plural(left, 'supply point')} left, one for each factor")
        _completable(state, p, unit=u.id)
        return
    if a.verb == "target":
        hex_id = a.args[0]
        if hex_id in p.targets:
            raise no("DG 8.2.6", f"{hex_id} is a defending hex of this assault already")
        if not p.units:
            raise no("DG 8.2.6", "add an attacking unit first: a hex joins the defence when it is next to one")
        _attackable(state, hex_id, side, "DG 8.2.6")
        far = sorted({state.units[i].at for i in assault.contributors(p)} - set(m.adjacent[hex_id]))
        if far:
            raise no(
                "DG 8.2.6",
                f"{hex_id} is not next to the attacking units in {', '.join(far)}: every unit of an assault is next "
                "to every hex it attacks (DG 8.2.5, 8.2.6)",
            )
        _completable(state, p, target=hex_id)
    if a.verb == "strain":
        _strain(state, p)
    elif a.verb == "ambush":
        _ambush(state, p, side)
    elif a.verb == "go":
        refused = assault.refuse_go(state, p)
        if refused is not None:
            raise no(refused.rule, refused.message)


def _completable(state: DGState, p: Assault, unit: str = "", target: str = "") -> None:
    """DG 8.2: an addition after which the assault could never be committed."""
    why = assault.blocked(state, p, occupancy(state), unit=unit, target=target)
    if why is not None:
        raise no(
            "DG 8.2",
            f"with {unit or target} this assault could never be committed: {why} (units in an enemy zone of "
            "control must attack every adjacent enemy hex, DG 8.2, 8.2.5, 8.2.6)",
        )


def _strain(state: DGState, p: Assault) -> None:
    """DG 8.2.3."""
    if p.strain:
        raise no("DG 8.2.3", "this assault strains already")
    if not p.units:
        raise no("DG 8.2.3", "add an attacking unit first")
    base = sum(state.units[i].strength for i in p.units if state.units[i].on_map)
    if base < 2:
        raise no("DG 8.2.3", "straining needs at least two non-artillery strength points in the attack")
    attack = assault.attack_strength(state, p, with_strain=False)
    defense = assault.defense_strength(state, p)
    idx = assault.ratio_index(state, attack, defense)
    top = state.data.constants.max_ratio
    if idx >= 2 * top - 2:
        raise no("DG 8.2.3", f"the attack is at {assault.ratio_name(idx)} already: there is no next ratio to strain to")
    if idx < 0:
        raise no("DG 8.2.3", "the attack is below 1-6: straining reaches only the next ratio")
    raise no(
        "DG 8.2.3",
        "the next ratio needs more points than straining may add: up to five, and no more than "
        f"the attack's own {base} strength points",
    )


def _ambush(state: DGState, p: Assault, side: str) -> None:
    """DG 8.2.9."""
    if side != "jp":
        raise no("DG 8.2.9", "only Japanese units ambush")
    if p.ambush:
        raise no("DG 8.2.9", "this assault is an ambush already")
    if not p.units:
        raise no("DG 8.2.9", "add an attacking unit first")
    for uid in p.units:
        u = state.units[uid]
        if not u.self_exit:
            raise no("DG 8.2.9", f"{uid} did not come out of stealth on its own this turn")
        if u.spent * 2 > u.pool_start:
            raise no(
                "DG 8.2.9",
                f"{uid} has moved more than half of its stealth movement points ({u.spent} of {u.pool_start})",
            )


def _retreat(state: DGState, p: Assault, a: DGAction) -> None:
    """DG 8.2.1.4 R: the unit, and the hex."""
    owner = p.side
    todo = [u for u in assault.force(state, p, owner) if u.id not in p.retreated]
    u = state.units[a.args[0]]
    if u not in todo:
        raise no("DG 8.2.1.4", f"{u.id} does not retreat in this assault")
    if u is not todo[0]:
        raise no("DG 8.2.1.4", f"units retreat one at a time: {todo[0].id} first")
    hex_id = a.args[1]
    m = state.data.map
    dist = p.retreat[owner]
    occ = occupancy(state)
    if not m.hexes[hex_id].land:
        raise no("DG 8.2.1.4", f"{hex_id} is coastal waters: units cannot retreat into them")
    if m.distance(u.at, hex_id) > dist or hex_id == u.at:
        raise no("DG 8.2.1.4", f"{u.id} must retreat exactly {plural(dist, 'hex')}")
    if side_in(occ, hex_id) not in (None, u.side):
        raise no("DG 7.3.8", f"{hex_id} holds enemy units")
    if in_enemy_zoc(state, occ, hex_id, u.side):
        raise no("DG 8.2.1.4", f"{hex_id} is in an enemy zone of control: units cannot retreat into one")
    if not room(state, occ, hex_id, u):
        raise no("DG 8.2.1.4", f"{hex_id} is full: a retreat may not break the three-unit stacking limit")
    raise no(
        "DG 8.2.1.4",
        f"{u.id} cannot retreat to {hex_id}: the retreat goes {plural(dist, 'hex')}"
        ", each farther from the enemy's hexes when that is possible, never through the enemy's hexes or "
        "zones of control",
    )


def _advance(state: DGState, p: Assault, a: DGAction, side: str) -> None:
    """DG 8.2.1.4 A, 8.2.5."""
    u = state.units[a.args[0]]
    dist = p.advance.get(side, 0)
    if u not in assault.force(state, p, side):
        raise no("DG 8.2.1.4", f"{u.id} did not take part in this assault: only its units advance")
    if state.data.units[u.id].artillery:
        raise no("DG 8.2.4", f"{u.id} is artillery: it supports an assault and does not advance")
    if u.id in p.advanced:
        raise no("DG 8.2.1.4", f"{u.id} has advanced already")
    hex_id = a.args[1]
    m = state.data.map
    first = [h for h in assault.vacated(state, p, side) if h in m.adjacent[u.at]]
    if not first:
        raise no("DG 8.2.1.4", f"{u.id} is not next to a hex the enemy vacated: the first hex of an advance is one")
    if m.distance(u.at, hex_id) > dist:
        raise no("DG 8.2.1.4", f"the result allows an advance of {plural(dist, 'hex')}")
    occ = occupancy(state)
    if side_in(occ, hex_id) not in (None, side):
        raise no("DG 7.3.8", f"{hex_id} holds enemy units")
    if not room(state, occ, hex_id, u):
        raise no("DG 7.5", f"{hex_id} is full: at most three units a hex (DG 8.2.5)")
    raise no(
        "DG 8.2.1.4",
        f"{u.id} cannot advance to {hex_id}: the first hex is the one the enemy vacated "
        f"({', '.join(first)}), and an advance halts on entering an enemy zone of control",
    )


# -- pending decisions outside assaults ----------------------------------------------------------
def _stealth_move(state: DGState, p: StealthMove, a: DGAction) -> None:
    """DG 7.7.5: the detected units complete their stealth movement (DG 7.7.4)."""
    if a.verb == "pass":
        left = sorted(i for i in p.units if not state.units[i].moved and state.units[i].on_map)
        raise no(
            "DG 7.7.5",
            f"a detected unit must complete its stealth movement: {', '.join(left)} must move (it may stop short "
            "of spending all its points)",
        )
    u = state.units[a.args[0]]
    if u.id not in p.units:
        raise no("DG 7.7.5", f"{u.id} was not detected: only {', '.join(p.units)} move now")
    if u.moved:
        raise no("DG 7.7.5", f"{u.id} has made its stealth movement")
    ctx = movement.Context(state, u.side)
    _destination(state, (u,), a.args[1], ctx)
    _reach(state, (u,), a.args[1], ctx)


def _rabaul(state: DGState, p: RabaulPicks, a: DGAction) -> None:
    """DG 10.1, 10.2.1, 10.2.2."""
    u = state.units[a.args[0]]
    t = state.data.units[u.id]
    if not t.rabaul_period:
        raise no("DG 10.1", f"{u.id} is not a Rabaul reinforcement")
    if u.at not in ("rabaul", "turn"):
        raise no("DG 10.2", f"{u.id} is no longer waiting to sail (it is {'picked' if u.at == 'next' else u.at})")
    landing = rabaul.landing_turn(state)
    period = state.data.period_of(landing)
    if not rabaul.in_period(state, u.id, period):
        last = t.rabaul_period + t.rabaul_periods - 1
        raise no(
            "DG 10.1",
            f"{u.id} is available in periods {t.rabaul_period}-{last}; the picks land in turn "
            f"{landing}, " + (f"period {period}" if period else "before the first period"),
        )
    if len(p.picked) >= p.count:
        raise no("DG 10.2.1", f"{len(p.picked)} units are picked already, the most this bonus gives")
    used = sum(state.data.units[i].strength for i in p.picked)
    raise no(
        "DG 10.2.2",
        f"{u.id}'s {t.strength} strength would bring the picks to {used + t.strength}, over the dice's {p.strength}",
    )


def _artillery_loss(state: DGState, p: ArtilleryLoss, a: DGAction) -> None:
    """DG 8.1.5."""
    u = state.units[a.args[0]]
    if u.at != p.hex:
        raise no("DG 8.1.5", f"{u.id} is not in {p.hex}, the hex that was fired at")
    if u.stealth:
        raise no("DG 8.1.5", f"{u.id} is under a stealth marker and was not fired at")
    raise no("DG 8.1.5", f"{u.id} has its final step, which is never lost to artillery fire")


# the checks of each verb in each kind of step
CHECKS = {
    ("naval", "bombard"): _bombard,
    ("reinforce", "land"): _land,
    ("reinforce", "pass"): _pass_reinforce,
    ("reinforce", "end"): _pass_reinforce,
    ("guerrilla", "guerrilla"): _guerrilla,
    ("move", "move"): _move,
    ("move", "stack"): _stack,
    ("move", "sea"): _sea,
    ("move", "stealth"): _stealth,
    ("move", "unstealth"): _unstealth,
    ("move", "detect"): _detect,
    ("move", "withdraw"): _withdraw,
    ("move", "consolidate"): _consolidate,
    ("move", "repair"): _repair,
    ("move", "wreck"): _wreck,
    ("fire", "fire"): _fire,
    ("fire", "counter"): _fire,
    ("combat", "attack"): _attack,
}
