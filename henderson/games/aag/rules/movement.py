"""Phase 1 Movement (AAG Movement Sequence 1–8) and the hidden-movement option (Appendix 1).

Sea units move one sea zone; transports and destroyers load from adjacent island zones
before moving; carriers take their fighters along; submarines move and then make a 1-die
torpedo attack; bombers fly up to 3 zones and fighters up to 2.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from henderson.core.errors import IllegalAction
from henderson.games.aag.actions import END, Action, move
from henderson.games.aag.model import SUPPLY
from henderson.games.aag.pieces import Piece
from henderson.games.aag.rules.battlebox import effect
from henderson.games.aag.rules.common import (
    is_cargo,
    land_piece,
    remove_casualties,
    representatives,
)

if TYPE_CHECKING:
    from henderson.games.aag.state import AagState

SEA_RULE = "AAG Phase 1 Movement"


def ships(state: AagState, side: str, kind: str) -> list[Piece]:
    return [p for p in state.on_board(side) if p.type == kind]


def load_actions(
    state: AagState, side: str, kinds: tuple[str, ...], *, at_base: bool
) -> list[Action]:
    """`load SHIP PIECE` for ships that may still load (AAG Load and Move Transports/Destroyers)."""
    out: list[Action] = []
    cand = [p for p in state.on_board(side) if p.type in kinds]
    if at_base:  # AAG Reinforce: new or existing ships at the base load, moved or not
        cand = [p for p in cand if p.zone == state.base_sea(side)]
    else:  # AAG Movement step 1: transports may not load after moving
        cand = [p for p in cand if not p.moved]
    for ship in representatives(state, cand):
        ut = state.data.units[ship.type]
        if ship.type == "carrier":
            room = state.data.rules.carrier_capacity - len(state.fighters_aboard(ship))
            pool = [p for p in state.in_zone(state.base_land(side), side) if p.type == "fighter"]
        else:
            room = ut.cargo - len(state.land_cargo(ship))
            pool = []
            for zone in state.data.board.land_zones_by_sea(ship.zone):
                if zone in state.enemy_base_zones(side):
                    continue
                pool += [
                    p for p in state.in_zone(zone, side) if land_piece(state, p) and not p.aboard
                ]
        if room <= 0:
            continue
        for piece in representatives(state, pool):
            out.append(Action("load", (ship.id, piece.id)))
    return out


def play_load(state: AagState, action: Action) -> None:
    ship, piece = state.pieces[action.args[0]], state.pieces[action.args[1]]
    piece.aboard = ship.id
    piece.zone = ship.zone
    state.emit(
        "load", f"{piece.id} ({piece.type}) loaded on {ship.id} ({ship.type}) in {ship.zone}"
    )


def sea_moves(state: AagState, side: str, kinds: tuple[str, ...]) -> list[Action]:
    """Sea units move one sea zone; never onto the enemy base card (AAG Sea unit)."""
    out: list[Action] = []
    barred = state.enemy_base_zones(side)
    units = [p for p in state.on_board(side) if p.type in kinds and not p.moved]
    for rep in representatives(state, units):
        for dest in sorted(state.data.board.sea_graph[rep.zone] - barred):
            out.append(move(dest, [rep.id]))
    by_zone: dict[tuple[str, str], list[str]] = {}
    for p in units:
        by_zone.setdefault((p.zone, p.type), []).append(p.id)
    for (zone, _kind), ids in sorted(by_zone.items()):
        if len(ids) > 1:
            for dest in sorted(state.data.board.sea_graph[zone] - barred):
                out.append(move(dest, ids))
    return out


def air_moves(state: AagState, side: str, kind: str) -> list[Action]:
    """Air units fly up to their range, through any zone but the enemy base (AAG Air unit)."""
    out: list[Action] = []
    units = [p for p in state.on_board(side) if p.type == kind and not p.moved]
    rng = state.data.units[kind].range
    if units:
        rng = state.air_range(units[0])
    for rep in representatives(state, units):
        dist = state.data.board.air_distances(rep.zone, state.enemy_base_zones(side))
        for dest, d in sorted(dist.items()):
            if 0 < d <= rng:
                out.append(move(dest, [rep.id]))
    by_zone: dict[str, list[str]] = {}
    for p in units:
        by_zone.setdefault(p.zone, []).append(p.id)
    for zone, ids in sorted(by_zone.items()):
        if len(ids) > 1:
            dist = state.data.board.air_distances(zone, state.enemy_base_zones(side))
            for dest, d in sorted(dist.items()):
                if 0 < d <= rng:
                    out.append(move(dest, ids))
    return out


def torpedo_actions(state: AagState, side: str) -> list[Action]:
    """`torpedo SUB TARGET` on an enemy sea unit in the submarine's zone (AAG Torpedo Attack)."""
    out: list[Action] = []
    subs = [p for p in state.on_board(side) if p.type == "submarine" and not p.fired]
    for sub in representatives(state, subs):
        targets = [
            p
            for p in state.in_zone(sub.zone)
            if p.side != side and state.category(p) == "sea" and p.hit != "destroyed"
        ]
        for t in representatives(state, targets):
            out.append(Action("torpedo", (sub.id, t.id)))
    return out


def legal(state: AagState, kind: str) -> list[Action]:
    side = state.mover
    out: list[Action] = []
    if kind in ("transport", "destroyer"):
        out += load_actions(state, side, (kind,), at_base=False)
    if kind in ("bomber", "fighter"):
        out += air_moves(state, side, kind)
    elif kind == "submarine":
        subs = [p for p in state.on_board(side) if p.type == "submarine" and not p.moved]
        out += sea_moves(state, side, ("submarine",)) if subs else []
        out += torpedo_actions(state, side)
    elif kind == "destroyer":  # PT boats move with the destroyers (AAG Appendix 1 PT Boats)
        out += sea_moves(state, side, ("destroyer", "pt_boat"))
    else:
        out += sea_moves(state, side, (kind,))
    out.append(END)
    return out


def play_move(state: AagState, action: Action, *, hidden: bool = False) -> None:
    dest = action.args[0]
    ids = action.args[1].split(",")
    for uid in ids:
        p = state.pieces[uid]
        if hidden:  # AAG Hidden Movement: written down now, revealed together
            state.orders[p.side][uid] = dest
            p.moved = True
            continue
        move_piece(state, p, dest)
    if hidden:  # the other side reads it redacted (AagState.redact) until the game is over
        side = state.pieces[ids[0]].side
        state.emit("order", f"{side} writes a sea order: {', '.join(ids)} to {dest}", side=side, units=ids, dest=dest)


def move_piece(state: AagState, p: Piece, dest: str) -> None:
    start = p.zone
    if state.category(p) == "air":
        p.flown = state.data.board.air_distances(start, state.enemy_base_zones(p.side))[dest]
        p.aboard = None  # a fighter leaving its carrier
    p.zone = dest
    p.moved = True
    for c in state.cargo(p):  # AAG Move Aircraft Carriers: fighters move along; cargo too
        c.zone = dest
    state.emit("move", f"{p.id} ({p.type}) {start} -> {dest}", unit=p.id, start=start, dest=dest)


def play_torpedo(state: AagState, action: Action) -> None:
    """AAG Move and Attack with Submarines: one die on the chosen target; removed at step end."""
    sub, target = state.pieces[action.args[0]], state.pieces[action.args[1]]
    sub.fired = True
    sub.moved = True
    value = state.roll(f"AAG Torpedo Attack by {sub.id} on {target.id}")
    if value not in state.data.neck.hit_values:
        state.emit("miss", f"{sub.id} misses {target.id}")
        return
    if target.type == "battleship" and not target.armor_used:
        target.armor_used = True  # AAG Heavy Armor: ignored, and not again this turn
        state.emit("armor", f"{target.id} ignores the torpedo hit (heavy armour)")
        return
    resilient = state.data.units[target.type].resilient
    target.hit = effect(resilient, target.hit == "damaged", value)
    state.emit("hit", f"{sub.id} hits {target.id} ({target.type}): {target.hit}", unit=target.id)


def end_submarines(state: AagState, side: str) -> None:
    """Casualties of a side's torpedo attacks are removed after all its submarines attack."""
    marked = [p for p in state.on_board() if p.hit and p.side != side]
    remove_casualties(state, marked, "torpedo attack")


# --- hidden movement (AAG Appendix 1) ---------------------------------------------------


def hidden_load_legal(state: AagState) -> list[Action]:
    return [*load_actions(state, state.mover, ("transport", "destroyer"), at_base=False), END]


def hidden_orders_legal(state: AagState) -> list[Action]:
    kinds = tuple(k for k, u in state.data.units.items() if u.category == "sea")
    return [*sea_moves(state, state.mover, kinds), END]


def hidden_torpedo_legal(state: AagState) -> list[Action]:
    return [*torpedo_actions(state, state.mover), END]


def reveal_orders(state: AagState) -> None:
    """Both sides' written sea orders are revealed and carried out together."""
    for side in (state.first, state.second):
        for uid, dest in sorted(state.orders[side].items()):
            if uid in state.pieces:
                move_piece(state, state.pieces[uid], dest)
        state.orders[side] = {}
    state.emit("reveal", "hidden sea orders revealed and carried out")


def check_move(state: AagState, action: Action) -> None:
    """Explain why a move is illegal (called only for actions not in the legal list)."""
    for uid in action.args[1].split(","):
        p = state.pieces.get(uid)
        if p is None:
            raise IllegalAction(SEA_RULE, f"there is no unit {uid}")
        if p.side != state.current_player():
            raise IllegalAction(SEA_RULE, f"{uid} is not yours")
        if p.moved:
            raise IllegalAction(SEA_RULE, f"{uid} has already moved this turn")
        if is_cargo(p):
            raise IllegalAction("AAG Land unit", f"{uid} moves only with its ship")
        if p.type == SUPPLY or state.category(p) == "land":
            raise IllegalAction("AAG Land unit", "land units move only by transport or destroyer")
        dest = action.args[0]
        board = state.data.board
        if state.category(p) == "sea" and dest not in board.sea_graph.get(p.zone, ()):
            raise IllegalAction(
                "AAG Examples of Sea Movement",
                f"{dest} is not one sea move from {p.zone} "
                "(a sea unit moves 1 sea zone, never across an island)",
            )
        if state.category(p) == "air":
            rng = state.air_range(p)
            d = board.air_distances(p.zone, state.enemy_base_zones(p.side)).get(dest)
            if d is None or d > rng:
                raise IllegalAction(
                    f"AAG Units {p.type.capitalize()}", f"{dest} is beyond range {rng}"
                )
    raise IllegalAction(SEA_RULE, f"{action} is not a legal move in {state.step}")
