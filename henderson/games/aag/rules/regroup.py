"""Phase 3 Regroup, steps 1–3 (AAG Regroup Sequence): control and capture of island zones
when the Regroup begins, landing air units, building airfields. Reinforce, repair and deploy
are `reinforce.py`; scoring and the first-player marker `score.py`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from henderson.core.errors import IllegalAction
from henderson.core.events import Event
from henderson.games.aag.actions import Action, act, landings
from henderson.games.aag.model import SIDES, SUPPLY, other
from henderson.games.aag.pieces import Piece
from henderson.games.aag.rules.base import AagPhase
from henderson.games.aag.rules.common import destroy, is_cargo, note, representatives
from henderson.games.aag.state import Airfield

if TYPE_CHECKING:
    from henderson.games.aag.state import AAGState


# --- 1. Determine Control of Island Zones ------------------------------------------------


def land_power(state: AAGState, side: str, island: str) -> int:
    """Land attack power of `side`'s land units on the island, plus its adjacent cruisers and
    battleships when it has at least one land unit there (AAG Regroup step 1)."""
    units, land = state.data.units, state.data.category_kinds["land"]  # no supply token
    power, found = 0, False
    for p in state.here(island):
        if p.side == side and p.type in land and not is_cargo(p):
            power += units[p.type].attack["land"]
            found = True
    if not found:
        return 0
    for sea in state.data.board.islands[island].seas:
        for p in state.here(sea):
            if p.side == side and p.type in ("cruiser", "battleship"):
                power += units[p.type].attack["land"]
    return power


def has_land_units(state: AAGState, side: str, island: str) -> bool:
    land = state.data.category_kinds["land"]  # no supply token
    return any(p.side == side and p.type in land and not is_cargo(p) for p in state.here(island))


def determine_control(state: AAGState, events: list[Event]) -> None:
    """Highest land power controls, ties keep the holder; capture airfields and supplies."""
    state.build_index()  # the zones' pieces read from the index (kept up to date from here on)
    for island in sorted(state.data.board.islands):
        holder = state.control[island]
        powers = {s: land_power(state, s, island) for s in SIDES}
        challenger = other(holder)
        if powers[challenger] > powers[holder]:
            state.control[island] = challenger
            note(events, "control", f"{challenger} takes control of {island}", island=island)
        owner = state.control[island]
        if has_land_units(state, other(owner), island):
            continue  # AAG Capturing Airfields and Supplies: enemy land units remain
        for field in list(state.airfields):
            if field.island == island and field.side != owner:
                state.change_airfield(field, side=owner)
                note(events, "capture", f"{owner} captures an airfield on {island}", island=island)
        for p in [q for q in state.in_zone(island, other(owner)) if q.type == SUPPLY and not q.aboard]:
            state.remove(p)
            state.new_piece(owner, SUPPLY, island)
            note(events, "capture", f"{owner} captures a supply token on {island}", island=island)


# --- 2. Land Air Units -------------------------------------------------------------------


def prepare_landing(state: AAGState) -> None:
    """Every air unit of the mover must land; those at the home base are landed already."""
    side = state.mover
    for p in state.of_kind(side, state.data.air_kinds):  # its air units in play, in id order
        landed = p.zone == state.base_land(side)
        if p.landed != landed or (p.aboard is not None and not landed):
            state.update(p, landed=landed, aboard=p.aboard if landed else None)


@dataclass(frozen=True)
class LandingRoom:
    """Where a side's air units may land now, found once for all of them: its base and the
    islands where its undamaged airfields have room (AAG Landing Capacities), and by sea
    zone its carriers with room on deck (AAG Aircraft Carrier Flight Deck), in id order."""

    ground: frozenset[str]
    decks: dict[str, list[str]]


def landing_room(state: AAGState, side: str) -> LandingRoom:
    """Where `side`'s air units may land now (found once while the legal actions are listed)."""
    found = state.findings()
    if found is not None and side in found.room:
        return found.room[side]
    rules = state.data.rules
    room: dict[str, int] = {}  # by island, the air units its undamaged airfields hold
    hold = rules.airfield_air_capacity
    for a in state.airfields:
        if a.side == side and not a.damaged:
            room[a.island] = room.get(a.island, 0) + hold
    if room:
        for p in state.of_kind(side, state.data.air_kinds):
            if p.landed and p.zone in room:
                room[p.zone] -= 1
    ground = {state.base_land(side)}
    ground.update(island for island, left in room.items() if left > 0)
    decks: dict[str, list[str]] = {}
    deck = rules.carrier_capacity
    for ship in state.of_kind(side, ("carrier",)):
        if state.aboard_count(ship, fighters=True) < deck:
            decks.setdefault(ship.zone, []).append(ship.id)
    found_room = LandingRoom(frozenset(ground), decks)
    if found is not None:
        found.room[side] = found_room
    return found_room


def landing_spots(state: AAGState, piece: Piece) -> list[str]:
    """Where the air unit may land: its base, an undamaged airfield it controls with room,
    or (fighters) a friendly carrier with room, within range (AAG Landing Capacities), zone
    by zone. Found once per side, type and zone while the legal actions are listed (the
    list is then shared: do not change it)."""
    side = piece.side
    found = state.findings()
    if found is None:
        return _spots(state, piece, landing_room(state, side))
    key = (side, piece.type, piece.zone)
    kept = found.spots.get(key)
    if kept is None:
        room = found.room.get(side)
        kept = found.spots[key] = _spots(state, piece, landing_room(state, side) if room is None else room)
    return kept


def _spots(state: AAGState, piece: Piece, room: LandingRoom) -> list[str]:
    """`landing_spots` found from `room`, where the side's air units may land now."""
    within = state.data.board.air_within(piece.zone, state.enemy_base_zones(piece.side), state.air_range(piece))
    ground, decks = room.ground, room.decks
    if not (decks and piece.type == "fighter"):
        return [zone for zone in within if zone in ground]
    out: list[str] = []
    for zone in within:
        if zone in ground:
            out.append(zone)
        if zone in decks:
            out += decks[zone]
    return out


def must_land(state: AAGState) -> IllegalAction | None:
    """Why the landing may not end yet: an air unit of the side to act can still land."""
    for p in state.of_kind(state.mover, state.data.air_kinds):
        if not p.landed:
            spots = landing_spots(state, p)
            if spots:
                return IllegalAction(
                    "AAG Regroup step 2", f"fighters and bombers must land now: {p.id} can land on {', '.join(spots)}"
                )
    return None


def end_landing(state: AAGState, events: list[Event]) -> None:
    """Any air unit that can't land is destroyed."""
    for p in state.of_kind(state.mover, state.data.air_kinds):  # its air units in play, in id order
        if not p.landed:
            destroy(state, p, "no place to land", events)


class Landing(AagPhase):
    """AAG Regroup step 2: every air unit not at its base lands within its range, or is
    destroyed when it cannot. The Regroup begins by determining control (step 1)."""

    def enter(self, state: AAGState, events: list[Event]) -> None:
        if state.half == 0:
            determine_control(state, events)
        prepare_landing(state)

    def has_choice(self, state: AAGState) -> bool | None:
        """Nothing to do (the step ends by itself, nothing listed) when every air unit of
        the side to act has landed."""
        return None if any(not p.landed for p in state.of_kind(state.mover, state.data.air_kinds)) else False

    def actions(self, state: AAGState) -> list[Action]:  # type: ignore[override]
        waiting = [p for p in state.of_kind(state.mover, state.data.air_kinds) if not p.landed]
        out: list[Action] = []
        for p in representatives(state, waiting):
            out += landings(p.id, tuple(landing_spots(state, p)))
        return out

    def may_end(self, state: AAGState) -> bool:
        """`must_land` finds nothing, said without building the refusal (asked at every listing)."""
        waiting = state.of_kind(state.mover, state.data.air_kinds)
        return not any(not p.landed and landing_spots(state, p) for p in waiting)

    def end_blocker(self, state: AAGState) -> IllegalAction | None:
        return must_land(state)

    def do(self, state: AAGState, action: Action, events: list[Event]) -> None:  # type: ignore[override]
        p = state.pieces[action.args[0]]
        spot = action.args[1]
        if spot in state.pieces:
            ship = state.pieces[spot]
            state.update(p, zone=ship.zone, aboard=ship.id, landed=True)
        else:
            state.update(p, zone=spot, landed=True)
        note(events, "land", f"{p.id} ({p.type}) lands on {spot}")

    def leave(self, state: AAGState, events: list[Event]) -> None:
        end_landing(state, events)


# --- 3. Build Airfields ------------------------------------------------------------------


def buildable(state: AAGState) -> list[str]:
    """The islands where the side to act can build an airfield now (AAG Regroup step 3): room
    for one more, and enough of its supply tokens there."""
    side = state.mover
    out = []
    for island, isl in sorted(state.data.board.islands.items()):
        if len([a for a in state.airfields if a.island == island]) >= isl.airfields:
            continue
        if len(state.supplies(side, island)) >= state.data.rules.build_cost:
            out.append(island)
    return out


class Build(AagPhase):
    """AAG Regroup step 3: 3 supply tokens of yours on an island with room for an airfield
    build one there."""

    def actions(self, state: AAGState) -> list[Action]:  # type: ignore[override]
        return [act("build", island) for island in buildable(state)]

    def has_choice(self, state: AAGState) -> bool:
        """A choice exactly when an airfield can be built (else the step ends by itself,
        nothing listed)."""
        return bool(buildable(state))

    def do(self, state: AAGState, action: Action, events: list[Event]) -> None:  # type: ignore[override]
        island = action.args[0]
        for p in state.supplies(state.mover, island)[: state.data.rules.build_cost]:
            state.remove(p)
        state.airfields.append(Airfield(island=island, side=state.mover))
        note(events, "build", f"{state.mover} builds an airfield on {island}", island=island)


LAND = Landing()
BUILD = Build()
