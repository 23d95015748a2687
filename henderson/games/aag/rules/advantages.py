"""Optional rule: the sixteen advantage tokens (AAG Appendix 1: Advantages).

A token is spent with `use TOKEN [ARGS]` in its window; its effect stays in force for the
rest of the turn (`state.active`). The effects themselves are applied where the rule they
change lives: movement (Superior Fighters, Coast Watchers, PT boats moving with destroyers),
combat (Command Decision, Banzai Charge, Night Fighting, Amphibious Assault, PT boats
taking hits) and regroup (Good Logistics).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from henderson.core.errors import IllegalAction
from henderson.games.aag.actions import END, Action
from henderson.games.aag.model import CATEGORIES, other
from henderson.games.aag.rules import combat, movement, regroup
from henderson.games.aag.rules.common import is_cargo, land_piece
from henderson.games.aag.sequence import STEP_TYPE

if TYPE_CHECKING:
    from henderson.games.aag.state import AagState

RULE = "AAG Appendix 1 Advantages"


def has(state: AagState, side: str, token: str) -> bool:
    return state.tokens.get(side, {}).get(token, 0) > 0


def uses(state: AagState) -> list[Action]:
    """The tokens the side to act may spend now, with their arguments."""
    if not state.options.get("advantages") or state.battle is not None:
        return []
    side, step = state.mover, state.step
    out: list[Action] = []
    if step in STEP_TYPE:
        kind = STEP_TYPE[step]
        mine = [p for p in state.on_board(side) if p.type == kind]
        fresh = bool(mine) and not any(p.moved or p.fired for p in mine)
        superior = kind == "fighter" and has(state, side, "superior_fighters")
        if superior and fresh and not state.in_force("superior_fighters", side):
            out.append(Action("use", ("superior_fighters",)))
        if has(state, side, "coast_watchers") and fresh and kind not in state.deferred.get(side, ()):
            out.append(Action("use", ("coast_watchers", kind)))
    elif step == "move:end" and has(state, side, "quick_drop"):
        seen = set()
        for p in state.on_board(side):
            if is_cargo(p) and land_piece(state, p) and p.zone not in seen:
                seen.add(p.zone)
                for island in state.data.board.land_zones_by_sea(p.zone):
                    if island in state.data.board.islands:
                        out.append(Action("use", ("quick_drop", p.zone, island)))
    elif step == "combat:begin" and has(state, side, "command_decision"):
        for cat in CATEGORIES:
            for zone in battles_to_come(state, cat):
                if not state.in_force("command_decision", side, zone=zone, category=cat):
                    out.append(Action("use", ("command_decision", zone, cat)))
    elif step == "combat:before_sea":
        if has(state, side, "night_fighting"):
            for zone in sorted(state.data.board.seas):
                if combat.can_attack(state, side, zone, "sea") and not state.in_force(
                    "night_fighting", side, zone=zone
                ):
                    out.append(Action("use", ("night_fighting", zone)))
        if has(state, side, "pt_boats"):
            for zone in sorted(state.data.board.seas):
                if any(not is_cargo(p) for p in state.in_zone(zone, side)):
                    out.append(Action("use", ("pt_boats", zone)))
    elif step == "combat:before_land":
        for island in sorted(state.data.board.islands):
            enemy = combat.targets(state, side, island, "land")
            if (
                has(state, side, "banzai_charge")
                and combat.can_attack(state, side, island, "land")
                and not state.in_force("banzai_charge", side, zone=island)
            ):
                out.append(Action("use", ("banzai_charge", island)))
            landed = [p for p in state.in_zone(island, side) if p.unloaded and p.type != "supply"]
            if has(state, side, "amphibious_assault") and enemy and landed:
                power = sum(state.data.units[p.type].attack["land"] for p in landed)
                if power and not state.in_force("amphibious_assault", side, zone=island):
                    out.append(Action("use", ("amphibious_assault", island)))
    elif (
        step == "regroup:buy"
        and has(state, side, "good_logistics")
        and state.points[side] == regroup.income(state, side)
        and not state.in_force("good_logistics", side)
    ):
        out.append(Action("use", ("good_logistics",)))
    return out


def battles_to_come(state: AagState, cat: str) -> list[str]:
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


def window_legal(state: AagState) -> list[Action]:
    return [*uses(state), END]


def deferred_legal(state: AagState) -> list[Action]:
    """Coast Watchers: the deferred unit types move after all other units (both of a side's
    tokens may defer two types in one turn; they then move in this one step)."""
    out: list[Action] = []
    for kind in state.deferred.get(state.mover, ()):
        out += [a for a in movement.legal(state, kind) if a != END and a not in out]
    return [*out, END]


def play(state: AagState, action: Action) -> None:
    side = state.mover
    token, args = action.args[0], action.args[1:]
    state.tokens[side][token] -= 1
    entry: dict[str, object] = {"id": token, "side": side}
    state.emit("advantage", f"{side} uses {token} {' '.join(args)}".strip(), side=side, token=token)
    if token == "coast_watchers":
        state.deferred.setdefault(side, []).append(args[0])
        state.active.append({**entry, "type": args[0]})
        state.end_half()  # this side moves that type after all other units
        return
    if token == "quick_drop":
        sea, island = args
        for p in list(state.on_board(side)):
            if p.zone == sea and is_cargo(p) and land_piece(state, p):
                p.aboard, p.zone, p.unloaded = None, island, True
                state.emit("unload", f"{p.id} ({p.type}) dropped onto {island}")
        state.active.append({**entry, "zone": sea})
        return
    if token == "command_decision":
        state.active.append({**entry, "zone": args[0], "category": args[1], "done": False})
        return
    if token == "pt_boats":  # the token becomes a sea unit in the zone
        boat = state.new_piece(side, "pt_boat", args[0])
        state.emit("pt_boat", f"{boat.id} (PT boat) placed in {args[0]}", unit=boat.id)
        return
    if token == "amphibious_assault":
        state.active.append({**entry, "zone": args[0]})
        state.battle = {
            "zone": args[0],
            "category": "land",
            "stage": 0,
            "attacker": side,
            "sides": [side],
            "only_unloaded": True,
            "extra": True,
        }
        combat.begin_attack(state)
        return
    state.active.append({**entry, "zone": args[0]} if args else entry)


def check(state: AagState, action: Action) -> None:
    side = state.current_player() or ""
    token = action.args[0]
    if not state.options.get("advantages"):
        raise IllegalAction(RULE, "this game is played without advantage tokens")
    if not has(state, side, token):
        raise IllegalAction(RULE, f"{side} has no {token} token left")
    raise IllegalAction(RULE, f"{action} cannot be spent now ({state.step})")


__all__ = ["check", "deferred_legal", "other", "play", "uses", "window_legal"]
