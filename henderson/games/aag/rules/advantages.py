"""Optional rule: the sixteen advantage tokens (AAG Appendix 1: Advantages).

A token is spent with `use TOKEN [ARGS]` in its window; its effect stays in force for the
rest of the turn (`state.active`). The effects themselves are applied where the rule they
change lives: movement (Superior Fighters, Coast Watchers, PT boats moving with destroyers),
combat (Command Decision, Banzai Charge, Night Fighting, Amphibious Assault, PT boats
taking hits) and Reinforce (Good Logistics). The windows that are steps of their own
(Quick Drop, Command Decision, Night Fighting and PT Boats, Banzai Charge and Amphibious
Assault) are `Window` phases; the tokens spent in a movement step or at Reinforce are
offered there (`in_movement`, `at_reinforce`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from henderson.core.events import Event
from henderson.games.aag.actions import ROLL, Action
from henderson.games.aag.model import CATEGORIES, Advantage
from henderson.games.aag.rules import battle, combat
from henderson.games.aag.rules.base import AagPhase
from henderson.games.aag.rules.common import is_cargo, land_piece, note
from henderson.games.aag.state import InForce

if TYPE_CHECKING:
    from henderson.games.aag.state import AAGState

RULE = "AAG Appendix 1 Advantages"


def can_spend(state: AAGState) -> bool:
    """Tokens are spent only with the option, and never while a combat is being fought."""
    return bool(state.options.get("advantages")) and state.battle is None


def in_movement(state: AAGState, kind: str) -> list[Action]:
    """Before the side's units of type `kind` move: Superior Fighters (fighters fly 3 zones
    this turn) and Coast Watchers (this type moves after all other units)."""
    side, has = state.mover, state.has_token
    if not can_spend(state):
        return []
    out: list[Action] = []
    mine = [p for p in state.on_board(side) if p.type == kind]
    fresh = bool(mine) and not any(p.moved or p.fired for p in mine)
    superior = kind == "fighter" and has(side, Advantage.SUPERIOR_FIGHTERS)
    if superior and fresh and not state.in_force(Advantage.SUPERIOR_FIGHTERS, side):
        out.append(Action("use", (Advantage.SUPERIOR_FIGHTERS.value,)))
    if has(side, Advantage.COAST_WATCHERS) and fresh and kind not in state.deferred.get(side, ()):
        out.append(Action("use", (Advantage.COAST_WATCHERS.value, kind)))
    return out


def quick_drops(state: AAGState) -> list[Action]:
    """At the end of Movement: loaded transports and destroyers put their cargo ashore."""
    side = state.mover
    out: list[Action] = []
    if not state.has_token(side, Advantage.QUICK_DROP):
        return out
    seen = set()
    for p in state.on_board(side):
        if is_cargo(p) and land_piece(state, p) and p.zone not in seen:
            seen.add(p.zone)
            for island in state.data.board.land_zones_by_sea(p.zone):
                if island in state.data.board.islands:
                    out.append(Action("use", (Advantage.QUICK_DROP.value, p.zone, island)))
    return out


def command_decisions(state: AAGState) -> list[Action]:
    """At the beginning of Combat: a combat to come, fought a second time."""
    side = state.mover
    out: list[Action] = []
    if not state.has_token(side, Advantage.COMMAND_DECISION):
        return out
    for cat in CATEGORIES:
        for zone in battles_to_come(state, cat):
            if not state.in_force(Advantage.COMMAND_DECISION, side, zone=zone, category=cat):
                out.append(Action("use", (Advantage.COMMAND_DECISION.value, zone, cat)))
    return out


def before_sea_combat(state: AAGState) -> list[Action]:
    """Before the Attack Sea Units step: Night Fighting where the side can fire on sea
    units, PT Boats where it has a unit."""
    side, has = state.mover, state.has_token
    out: list[Action] = []
    if has(side, Advantage.NIGHT_FIGHTING):
        for zone in sorted(state.data.board.seas):
            if combat.can_attack(state, side, zone, "sea") and not state.in_force(
                Advantage.NIGHT_FIGHTING, side, zone=zone
            ):
                out.append(Action("use", (Advantage.NIGHT_FIGHTING.value, zone)))
    if has(side, Advantage.PT_BOATS):
        for zone in sorted(state.data.board.seas):
            if any(not is_cargo(p) for p in state.in_zone(zone, side)):
                out.append(Action("use", (Advantage.PT_BOATS.value, zone)))
    return out


def before_land_combat(state: AAGState) -> list[Action]:
    """Before the Attack Land Units step, island by island: Banzai Charge where the side can
    fire on land units, Amphibious Assault where it unloaded land units facing the enemy's."""
    side, has = state.mover, state.has_token
    out: list[Action] = []
    for island in sorted(state.data.board.islands):
        enemy = combat.targets(state, side, island, "land")
        if (
            has(side, Advantage.BANZAI_CHARGE)
            and combat.can_attack(state, side, island, "land")
            and not state.in_force(Advantage.BANZAI_CHARGE, side, zone=island)
        ):
            out.append(Action("use", (Advantage.BANZAI_CHARGE.value, island)))
        landed = [p for p in state.in_zone(island, side) if p.unloaded and p.type != "supply"]
        if has(side, Advantage.AMPHIBIOUS_ASSAULT) and enemy and landed:
            power = sum(state.data.units[p.type].attack["land"] for p in landed)
            if power and not state.in_force(Advantage.AMPHIBIOUS_ASSAULT, side, zone=island):
                out.append(Action("use", (Advantage.AMPHIBIOUS_ASSAULT.value, island)))
    return out


def at_reinforce(state: AAGState) -> list[Action]:
    """Before buying anything: Good Logistics (a second supply or artillery free)."""
    side = state.mover
    if (
        can_spend(state)
        and state.has_token(side, Advantage.GOOD_LOGISTICS)
        and state.points[side] == state.income(side)
        and not state.in_force(Advantage.GOOD_LOGISTICS, side)
    ):
        return [Action("use", (Advantage.GOOD_LOGISTICS.value,))]
    return []


def battles_to_come(state: AAGState, cat: str) -> list[str]:
    """The zones where `cat` combat can still happen this Combat phase: where either side
    can fire now, and for land combat also the islands troops can still invade, an island
    next to a side's loaded transports or destroyers with enemy land units or an enemy
    airfield on it (AAG Combat step 3 unloads before the land attacks of step 4)."""
    zones = set(combat.zones_to_fight(state, cat))
    if cat == "land":
        board = state.data.board
        for p in state.on_board():
            if not (is_cargo(p) and land_piece(state, p)):
                continue
            for island in board.land_zones_by_sea(p.zone):
                if island in board.islands and (
                    combat.targets(state, p.side, island, "land") or combat.enemy_airfields(state, p.side, island)
                ):
                    zones.add(island)
    return sorted(zones)


def play(state: AAGState, action: Action, events: list[Event]) -> None:
    """Spend the token and put its effect in force (AAG Appendix 1)."""
    side = state.mover
    token, args = Advantage(action.args[0]), action.args[1:]
    state.tokens[side][token] -= 1
    note(events, "advantage", f"{side} uses {token} {' '.join(args)}".strip(), side=side, token=token.value)
    if token == Advantage.COAST_WATCHERS:
        state.deferred[side] = (*state.deferred.get(side, ()), args[0])
        state.active.append(InForce(token=token, side=side, unit=args[0]))
        state.finish_step(events)  # this side moves that type after all other units
        return
    if token == Advantage.QUICK_DROP:
        sea, island = args
        for p in list(state.on_board(side)):
            if p.zone == sea and is_cargo(p) and land_piece(state, p):
                state.update(p, aboard=None, zone=island, unloaded=True)
                note(events, "unload", f"{p.id} ({p.type}) dropped onto {island}")
        state.active.append(InForce(token=token, side=side, zone=sea))
        return
    if token == Advantage.COMMAND_DECISION:
        state.active.append(InForce(token=token, side=side, zone=args[0], category=args[1]))  # type: ignore[arg-type]
        return
    if token == Advantage.PT_BOATS:  # the token becomes a sea unit in the zone
        boat = state.new_piece(side, "pt_boat", args[0])
        note(events, "pt_boat", f"{boat.id} (PT boat) placed in {args[0]}", unit=boat.id)
        return
    if token == Advantage.AMPHIBIOUS_ASSAULT:
        state.active.append(InForce(token=token, side=side, zone=args[0]))
        battle.open_assault(state, side, args[0], events)
        return
    state.active.append(InForce(token=token, side=side, zone=args[0] if args else None))


class Window(AagPhase):
    """A moment of the turn in which only advantage tokens are spent (AAG Appendix 1), the
    tokens `offers` lists: the end of Movement (Quick Drop), the beginning of Combat (Command
    Decision), before the Attack Sea Units step (Night Fighting, PT Boats) and before the
    Attack Land Units step (Banzai Charge, Amphibious Assault, whose attack is fought here)."""

    def __init__(self, offers: Callable[[AAGState], list[Action]]) -> None:
        self.offers = offers

    def actions(self, state: AAGState) -> list[Action]:  # type: ignore[override]
        return self.offers(state) if can_spend(state) else []

    def forced(self, state: AAGState) -> Action | None:
        return battle.forced_roll(state)

    def do(self, state: AAGState, action: Action, events: list[Event]) -> None:  # type: ignore[override]
        if action == ROLL:
            battle.roll_attack(state, events)
        else:
            play(state, action, events)


END_OF_MOVEMENT = Window(quick_drops)
BEGINNING_OF_COMBAT = Window(command_decisions)
BEFORE_SEA_COMBAT = Window(before_sea_combat)
BEFORE_LAND_COMBAT = Window(before_land_combat)
