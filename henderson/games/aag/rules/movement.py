"""Phase 1 Movement (AAG Movement Sequence 1–8): in each step one unit type moves, the
first player's and then the other's (the type is the step's `params.unit`).

Sea units move one sea zone; transports and destroyers load from adjacent island zones
before moving; carriers take their fighters along; submarines move and then make a 1-die
torpedo attack; bombers fly up to 3 zones and fighters up to 2. With the Coast Watchers
advantage a side moves a type after all other units (`DEFERRED`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from henderson.core.events import Event
from henderson.games.aag.actions import Action, act, load_one, moves_to
from henderson.games.aag.pieces import Piece
from henderson.games.aag.rules import advantages
from henderson.games.aag.rules.base import AagPhase
from henderson.games.aag.rules.battlebox import effect
from henderson.games.aag.rules.common import note, remove_casualties, representatives

if TYPE_CHECKING:
    from henderson.games.aag.state import AAGState, Memo


def load_actions(state: AAGState, side: str, kinds: tuple[str, ...], *, at_base: bool) -> list[Action]:
    """`load SHIP PIECE` for ships that may still load (AAG Load and Move Transports/Destroyers)."""
    out: list[Action] = []
    if at_base:  # AAG Reinforce: new or existing ships at the base load, moved or not
        cand = [p for p in state.in_zone(state.base_sea(side), side) if p.type in kinds]
    else:  # AAG Movement step 1: transports may not load after moving
        cand = [p for p in state.of_kind(side, kinds) if not p.moved]
    barred = state.enemy_base_zones(side)
    pools: dict[str, list[Piece]] = {}  # what the ships in a zone may load, found once per zone
    units, deck = state.data.units, state.data.rules.carrier_capacity
    for ship in representatives(state, cand):
        if ship.type == "carrier":
            room = deck - state.aboard_count(ship, fighters=True)
            where = "carrier"
        else:
            room = units[ship.type].cargo - state.aboard_count(ship, fighters=False)
            where = ship.zone
        if room <= 0:
            continue
        pool = pools.get(where)
        if pool is None:
            pool = pools[where] = loadable_groups(state, side, ship, barred)
        for piece in pool:
            out.append(load_one(ship.id, piece.id))
    return out


def loadable(state: AAGState, side: str, ship: Piece, barred: frozenset[str]) -> list[Piece]:
    """The pieces `ship` may take aboard, room aside: a carrier the fighters at the base
    (AAG Aircraft Carrier), a transport or destroyer the land units and supplies not aboard
    in the island zones next to its sea zone, the enemy base aside."""
    if ship.type == "carrier":
        return [p for p in state.in_zone(state.base_land(side), side) if p.type == "fighter"]
    pool: list[Piece] = []
    land = state.data.land_pieces  # as `land_piece`, read once
    for zone in state.data.board.land_zones_by_sea(ship.zone):
        if zone not in barred:
            pool += [p for p in state.in_zone(zone, side) if p.type in land and not p.aboard]
    return pool


def loadable_groups(state: AAGState, side: str, ship: Piece, barred: frozenset[str]) -> list[Piece]:
    """`representatives` of `loadable`, found zone by zone (a unit's zone is part of its
    signature, so no group spans two zones) and kept with each zone's list of the index
    while that list holds (`ZoneIndex.memo`): the shores change far less often than the
    transports are listed."""
    index = state.index
    if ship.type == "carrier" or index is None:
        return representatives(state, loadable(state, side, ship, barred))
    pool: list[Piece] = []
    for zone in state.data.board.land_zones_by_sea(ship.zone):
        if zone not in barred:
            here = index.by_zone.get(zone)
            if here:
                pool += _shore_groups(state, index.memo, here, zone, side)
    return pool


def _shore_groups(state: AAGState, memo: Memo, here: list[Piece], zone: str, side: str) -> list[Piece]:
    """One land unit or supply of `side` not aboard per signature among `here`, the pieces
    in `zone`, kept in `memo` with that very list (never to be changed)."""
    key = ("shore:" + side, zone)
    kept = memo.get(key)
    if kept is not None and kept[0] is here:
        return kept[1]
    land = state.data.land_pieces
    found = representatives(state, [p for p in here if p.side == side and p.type in land and not p.aboard])
    memo[key] = (here, found)
    return found


def play_load(state: AAGState, action: Action, events: list[Event]) -> None:
    ship, piece = state.pieces[action.args[0]], state.pieces[action.args[1]]
    piece = state.update(piece, aboard=ship.id, zone=ship.zone)
    note(events, "load", f"{piece.id} ({piece.type}) loaded on {ship.id} ({ship.type}) in {ship.zone}")


def sea_moves(state: AAGState, side: str, kinds: tuple[str, ...]) -> list[Action]:
    """Sea units move one sea zone; never onto the enemy base card (AAG Sea unit)."""
    out: list[Action] = []
    barred = state.enemy_base_zones(side)
    units = [p for p in state.of_kind(side, kinds) if not p.moved]
    board = state.data.board
    for rep in representatives(state, units):
        out += moves_to(board.sea_destinations(rep.zone, barred), rep.id)
    by_zone: dict[tuple[str, str], list[str]] = {}
    for p in units:
        by_zone.setdefault((p.zone, p.type), []).append(p.id)
    for (zone, _kind), ids in sorted(by_zone.items()):
        if len(ids) > 1:
            group = ",".join(ids)  # as `move` writes it: the units are in id order (`of_kind`)
            out += moves_to(board.sea_destinations(zone, barred), group)
    return out


def air_moves(state: AAGState, side: str, kind: str) -> list[Action]:
    """Air units fly up to their range, through any zone but the enemy base (AAG Air unit)."""
    out: list[Action] = []
    units = [p for p in state.of_kind(side, (kind,)) if not p.moved]
    rng = state.data.units[kind].range
    if units:
        rng = state.air_range(units[0])
    barred = state.enemy_base_zones(side)
    board = state.data.board
    for rep in representatives(state, units):
        out += moves_to(board.air_destinations(rep.zone, barred, rng), rep.id)
    by_zone: dict[str, list[str]] = {}
    for p in units:
        by_zone.setdefault(p.zone, []).append(p.id)
    for zone, ids in sorted(by_zone.items()):
        if len(ids) > 1:
            group = ",".join(ids)  # as `move` writes it: the units are in id order (`of_kind`)
            out += moves_to(board.air_destinations(zone, barred, rng), group)
    return out


def torpedo_actions(state: AAGState, side: str) -> list[Action]:
    """`torpedo SUB TARGET` on an enemy sea unit in the submarine's zone (AAG Torpedo Attack)."""
    out: list[Action] = []
    subs = [p for p in state.of_kind(side, ("submarine",)) if not p.fired]
    for sub in representatives(state, subs):
        targets = [
            p for p in state.here(sub.zone) if p.side != side and state.category(p) == "sea" and p.hit != "destroyed"
        ]
        for t in representatives(state, targets):
            out.append(act("torpedo", sub.id, t.id))
    return out


def unit_moves(state: AAGState, kind: str) -> list[Action]:
    """What the side to act may do with its units of type `kind` in their movement step."""
    side = state.mover
    out: list[Action] = []
    if kind in ("transport", "destroyer"):
        out += load_actions(state, side, (kind,), at_base=False)
    if kind in ("bomber", "fighter"):
        out += air_moves(state, side, kind)
    elif kind == "submarine":
        subs = [p for p in state.of_kind(side, ("submarine",)) if not p.moved]
        out += sea_moves(state, side, ("submarine",)) if subs else []
        out += torpedo_actions(state, side)
    elif kind == "destroyer":  # PT boats move with the destroyers (AAG Appendix 1 PT Boats)
        out += sea_moves(state, side, ("destroyer", "pt_boat"))
    else:
        out += sea_moves(state, side, (kind,))
    return out


def may_still_act(state: AAGState, kind: str) -> bool:
    """Whether the side to act has a unit of type `kind` (or a PT boat with the destroyers)
    that has not moved, or a submarine that has not fired: without one, `unit_moves` lists
    nothing, nor may an advantage be spent on the type (`advantages.in_movement` wants
    units that have not moved)."""
    kinds = ("destroyer", "pt_boat") if kind == "destroyer" else (kind,)
    units = state.of_kind(state.mover, kinds)
    for p in units:
        if not p.moved:
            return True
    return kind == "submarine" and any(not p.fired for p in units)


def play_move(state: AAGState, action: Action, events: list[Event]) -> None:
    dest = action.args[0]
    for uid in action.args[1].split(","):
        move_piece(state, state.pieces[uid], dest, events)


def move_piece(state: AAGState, p: Piece, dest: str, events: list[Event]) -> None:
    start = p.zone
    if state.category(p) == "air":  # an air unit carries nothing; a fighter leaves its carrier
        flown = state.data.board.air_distances(start, state.enemy_base_zones(p.side))[dest]
        p = state.update(p, flown=flown, aboard=None, zone=dest, moved=True)
    else:
        for c in state.cargo(p):  # AAG Move Aircraft Carriers: fighters move along; cargo too
            state.update(c, zone=dest)
        p = state.update(p, zone=dest, moved=True)
    note(events, "move", f"{p.id} ({p.type}) {start} -> {dest}", unit=p.id, start=start, dest=dest)


def play_torpedo(state: AAGState, action: Action, events: list[Event]) -> None:
    """AAG Move and Attack with Submarines: one die on the chosen target; removed at step end."""
    sub, target = state.pieces[action.args[0]], state.pieces[action.args[1]]
    sub = state.update(sub, fired=True, moved=True)
    value = state.roll(f"AAG Torpedo Attack by {sub.id} on {target.id}", events)
    if value not in state.data.neck.hit_values:
        note(events, "miss", f"{sub.id} misses {target.id}")
        return
    if target.type == "battleship" and not target.armor_used:
        state.update(target, armor_used=True)  # AAG Heavy Armor: ignored, and not again this turn
        note(events, "armor", f"{target.id} ignores the torpedo hit (heavy armour)")
        return
    resilient = state.data.units[target.type].resilient
    target = state.update(target, hit=effect(resilient, target.hit == "damaged", value))
    note(events, "hit", f"{sub.id} hits {target.id} ({target.type}): {target.hit}", unit=target.id)


def end_submarines(state: AAGState, side: str, events: list[Event]) -> None:
    """Casualties of a side's torpedo attacks are removed after all its submarines attack."""
    marked = [p for p in state.on_board() if p.hit and p.side != side]
    remove_casualties(state, marked, "torpedo attack", events)


def play_unit(state: AAGState, action: Action, events: list[Event]) -> None:
    """A load, a move or a torpedo attack of a movement step."""
    if action.verb == "load":
        play_load(state, action, events)
    elif action.verb == "move":
        play_move(state, action, events)
    else:
        play_torpedo(state, action, events)


class Movement(AagPhase):
    """AAG Movement steps 1–8: the side to act loads and moves its units of the step's type
    (and PT boats with the destroyers); submarines make their torpedo attacks, whose
    casualties are removed when the side's submarines are done (AAG Movement step 6)."""

    def actions(self, state: AAGState) -> list[Action]:  # type: ignore[override]
        kind = state.current_step.params["unit"]
        if not advantages.can_spend(state):  # no token to spend: the units' own list
            return unit_moves(state, kind)
        return [*advantages.in_movement(state, kind), *unit_moves(state, kind)]

    def has_choice(self, state: AAGState) -> bool | None:
        """No choice (the step ends by itself) when no unit of the step's type can act."""
        return None if may_still_act(state, state.current_step.params["unit"]) else False

    def do(self, state: AAGState, action: Action, events: list[Event]) -> None:  # type: ignore[override]
        if action.verb == "use":
            advantages.play(state, action, events)
        else:
            play_unit(state, action, events)

    def leave(self, state: AAGState, events: list[Event]) -> None:
        if state.current_step.params["unit"] == "submarine":
            end_submarines(state, state.mover, events)


class Deferred(AagPhase):
    """AAG Appendix 1 Coast Watchers: the unit types a side deferred move after all other
    units (both of a side's tokens may defer two types in one turn; they then move in this
    one step)."""

    def actions(self, state: AAGState) -> list[Action]:  # type: ignore[override]
        out: list[Action] = []
        for kind in state.deferred.get(state.mover, ()):
            out += [a for a in unit_moves(state, kind) if a not in out]
        return out

    def has_choice(self, state: AAGState) -> bool | None:
        """No choice (the step ends by itself) when no unit of a deferred type can act."""
        return None if any(may_still_act(state, k) for k in state.deferred.get(state.mover, ())) else False

    def do(self, state: AAGState, action: Action, events: list[Event]) -> None:  # type: ignore[override]
        play_unit(state, action, events)

    def leave(self, state: AAGState, events: list[Event]) -> None:
        if "submarine" in state.deferred.get(state.mover, ()):
            end_submarines(state, state.mover, events)


PHASE = Movement()
DEFERRED = Deferred()
