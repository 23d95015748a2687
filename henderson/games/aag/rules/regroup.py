"""Phase 3 Regroup (AAG Regroup Sequence 1–6): control and capture, landing air units,
building airfields, reinforcements, repairs, deployment, victory points, first player."""

from __future__ import annotations

from typing import TYPE_CHECKING

from henderson.games.aag.actions import END, Action
from henderson.games.aag.model import SIDES, SUPPLY, other
from henderson.games.aag.rules import movement
from henderson.games.aag.rules.common import destroy, is_cargo, representatives

if TYPE_CHECKING:
    from henderson.games.aag.state import AagState


# --- 1. Determine Control of Island Zones ------------------------------------------------


def land_power(state: AagState, side: str, island: str) -> int:
    """Land attack power of `side`'s land units on the island, plus its adjacent cruisers and
    battleships when it has at least one land unit there (AAG Regroup step 1)."""
    units = [
        p
        for p in state.in_zone(island, side)
        if p.type != SUPPLY and not is_cargo(p) and state.category(p) == "land"
    ]
    if not units:
        return 0
    power = sum(state.data.units[p.type].attack["land"] for p in units)
    for sea in state.data.board.islands[island].seas:
        power += sum(
            state.data.units[p.type].attack["land"]
            for p in state.in_zone(sea, side)
            if p.type in ("cruiser", "battleship")
        )
    return power


def has_land_units(state: AagState, side: str, island: str) -> bool:
    return any(
        p.type != SUPPLY and not is_cargo(p) and state.category(p) == "land"
        for p in state.in_zone(island, side)
    )


def determine_control(state: AagState) -> None:
    """Highest land power controls, ties keep the holder; capture airfields and supplies."""
    for island in sorted(state.data.board.islands):
        holder = state.control[island]
        powers = {s: land_power(state, s, island) for s in SIDES}
        challenger = other(holder)
        if powers[challenger] > powers[holder]:
            state.control[island] = challenger
            state.emit("control", f"{challenger} takes control of {island}", island=island)
        owner = state.control[island]
        if has_land_units(state, other(owner), island):
            continue  # AAG Capturing Airfields and Supplies: enemy land units remain
        for field in state.airfields:
            if field["island"] == island and field["side"] != owner:
                field["side"] = owner
                state.emit("capture", f"{owner} captures an airfield on {island}", island=island)
        for p in [
            q for q in state.in_zone(island, other(owner)) if q.type == SUPPLY and not q.aboard
        ]:
            state.remove(p)
            state.new_piece(owner, SUPPLY, island)
            state.emit("capture", f"{owner} captures a supply token on {island}", island=island)


# --- 2. Land Air Units -------------------------------------------------------------------


def prepare_landing(state: AagState) -> None:
    """Every air unit of the mover must land; those at the home base are landed already."""
    side = state.mover
    for p in list(state.on_board(side)):
        if state.category(p) != "air":
            continue
        p.landed = p.zone == state.base_land(side)
        if not p.landed:
            p.aboard = None


def landing_spots(state: AagState, p: object) -> list[str]:
    """Where the air unit may land: its base, an undamaged airfield it controls with room,
    or (fighters) a friendly carrier with room, within range (AAG Landing Capacities)."""
    piece = state.pieces[p.id]  # type: ignore[attr-defined]
    side = piece.side
    rng = state.air_range(piece)
    dist = state.data.board.air_distances(piece.zone, state.enemy_base_zones(side))
    out: list[str] = []
    rules = state.data.rules
    for zone, d in sorted(dist.items()):
        if d > rng:
            continue
        if zone == state.base_land(side):
            out.append(zone)
        elif state.data.board.is_island(zone):
            room = rules.airfield_air_capacity * len(state.airfields_of(side, zone, undamaged=True))
            used = sum(
                1 for q in state.in_zone(zone, side) if q.landed and state.category(q) == "air"
            )
            if used < room:
                out.append(zone)
        if piece.type == "fighter" and state.data.board.is_sea(zone):
            for ship in state.in_zone(zone, side):
                if (
                    ship.type == "carrier"
                    and len(state.fighters_aboard(ship)) < rules.carrier_capacity
                ):
                    out.append(ship.id)
    return out


def land_legal(state: AagState) -> list[Action]:
    side = state.mover
    waiting = [p for p in state.on_board(side) if state.category(p) == "air" and not p.landed]
    out: list[Action] = []
    for p in representatives(state, waiting):
        out += [Action("land", (p.id, spot)) for spot in landing_spots(state, p)]
    if not out:
        out.append(END)  # only when no waiting air unit can land anywhere
    return out


def play_land(state: AagState, action: Action) -> None:
    p = state.pieces[action.args[0]]
    spot = action.args[1]
    if spot in state.pieces:
        ship = state.pieces[spot]
        p.zone, p.aboard = ship.zone, ship.id
    else:
        p.zone = spot
    p.landed = True
    state.emit("land", f"{p.id} ({p.type}) lands on {spot}")


def end_landing(state: AagState) -> None:
    """Any air unit that can't land is destroyed."""
    for p in list(state.on_board(state.mover)):
        if state.category(p) == "air" and not p.landed:
            destroy(state, p, "no place to land")


# --- 3. Build Airfields ------------------------------------------------------------------


def build_legal(state: AagState) -> list[Action]:
    side = state.mover
    out = []
    for island, isl in sorted(state.data.board.islands.items()):
        if len([a for a in state.airfields if a["island"] == island]) >= isl.airfields:
            continue
        if len(state.supplies(side, island)) >= state.data.rules.build_cost:
            out.append(Action("build", (island,)))
    return [*out, END]


def play_build(state: AagState, action: Action) -> None:
    island = action.args[0]
    for p in state.supplies(state.mover, island)[: state.data.rules.build_cost]:
        state.remove(p)
    state.airfields.append({"island": island, "side": state.mover, "damaged": False})
    state.emit("build", f"{state.mover} builds an airfield on {island}", island=island)


# --- 4. Reinforce, Repair, and Deploy ----------------------------------------------------


def income(state: AagState, side: str) -> int:
    """10 reinforcement points plus 4 per island zone controlled."""
    rules = state.data.rules
    return rules.income_base + rules.income_per_island * sum(
        1 for s in state.control.values() if s == side
    )


def base_loads(state: AagState) -> list[Action]:
    return movement.load_actions(
        state, state.mover, ("transport", "destroyer", "carrier"), at_base=True
    )


def buy_legal(state: AagState) -> list[Action]:
    """What the side may buy with the points it has left (AAG Reinforce), and load at its base.

    Purchases are listed from the most expensive, so that a player who always takes the first
    action buys ships and not infantry alone: otherwise two such players' fleets never meet,
    each holds its airfields, and the tie at 15 victory points goes on for ever (AAG Score
    Victory Points: a tie continues until broken)."""
    side = state.mover
    costs = {k: ut.cost for k, ut in state.data.units.items() if "token" not in ut.abilities}
    costs[SUPPLY] = state.data.rules.supply_cost
    order = sorted(costs, key=lambda k: -costs[k])
    out = [Action("buy", (k,)) for k in order if costs[k] <= state.points[side]]
    return [*out, *base_loads(state), END]


def play_buy(state: AagState, action: Action) -> None:
    side, kind = state.mover, action.args[0]
    cost = state.data.rules.supply_cost if kind == SUPPLY else state.data.units[kind].cost
    state.points[side] -= cost
    sea = kind != SUPPLY and state.data.units[kind].category == "sea"
    p = state.new_piece(side, kind, state.base_sea(side) if sea else state.base_land(side))
    if state.category(p) == "air":
        p.landed = True
    state.emit("buy", f"{side} buys {kind} {p.id} for {cost}", unit=p.id)
    if kind in (SUPPLY, "artillery") and state.in_force("good_logistics", side):
        free = state.new_piece(side, kind, p.zone)  # AAG Appendix 1 Good Logistics
        state.emit("buy", f"{side} gets a second {kind} {free.id} free (Good Logistics)")


def repair_legal(state: AagState) -> list[Action]:
    side = state.mover
    out = []
    if len(state.supplies(side, state.base_land(side))) >= state.data.rules.sea_repair_cost:
        damaged = [p for p in state.pieces.values() if p.side == side and p.damaged]
        out += [Action("repair", (p.id,)) for p in representatives(state, damaged)]
    for island in sorted(state.data.board.islands):
        if any(a["damaged"] for a in state.airfields_of(side, island)) and (
            len(state.supplies(side, island)) >= state.data.rules.airfield_repair_cost
        ):
            out.append(Action("repair", (island,)))
    return [*out, *base_loads(state), END]


def play_repair(state: AagState, action: Action) -> None:
    side, what = state.mover, action.args[0]
    if what in state.pieces:
        spend(state, side, state.base_land(side), state.data.rules.sea_repair_cost)
        p = state.pieces[what]
        p.damaged = False
        p.zone = state.base_sea(side)
        state.emit("repair", f"{p.id} ({p.type}) repaired", unit=p.id)
    else:
        spend(state, side, what, state.data.rules.airfield_repair_cost)
        field = next(a for a in state.airfields_of(side, what) if a["damaged"])
        field["damaged"] = False
        state.emit("repair", f"{side} airfield on {what} repaired", island=what)


def spend(state: AagState, side: str, zone: str, count: int) -> None:
    for p in state.supplies(side, zone)[:count]:
        state.remove(p)


def deploy_legal(state: AagState) -> list[Action]:
    side = state.mover
    have = len(state.supplies(side, state.base_land(side)))
    out = []
    ships = [p for p in state.in_zone(state.base_sea(side), side) if not p.aboard]
    for ship in representatives(state, ships):
        for zone, sea in sorted(state.data.board.seas.items()):
            cost = sea.deployment.get(side)
            if cost is not None and cost <= have:
                out.append(Action("deploy", (ship.id, zone)))
    return [*out, *base_loads(state), END]


def play_deploy(state: AagState, action: Action) -> None:
    side = state.mover
    ship, zone = state.pieces[action.args[0]], action.args[1]
    cost = state.data.board.seas[zone].deployment[side]
    spend(state, side, state.base_land(side), cost)
    ship.zone = zone
    for c in state.cargo(ship):
        c.zone = zone
    state.emit(
        "deploy", f"{ship.id} ({ship.type}) deployed to {zone} for {cost} supplies", unit=ship.id
    )


# --- 5. Score Victory Points; 6. Pass the First-Player Marker ----------------------------


def score_and_pass(state: AagState) -> None:
    rules = state.data.rules
    for side in (state.first, state.second):
        gained = sum(1 for a in state.airfields if a["side"] == side and not a["damaged"])
        state.vp[side] += gained
        state.emit(
            "vp",
            f"{side} scores {gained} for airfields ({state.vp[side]})",
            side=side,
            gained=gained,
        )
    best = max(state.vp.values())
    if best >= rules.points_to_win:
        leaders = [s for s in SIDES if state.vp[s] == best]
        if len(leaders) == 1:  # a tie at 15 or more goes on until broken
            state.winner_side = leaders[0]
            state.emit("victory", f"{leaders[0]} wins with {best} victory points", side=leaders[0])
            return
    state.first = other(state.first)  # AAG Regroup step 6
    state.turn += 1
    state.step_index = 0
    state.half = 0
    for p in state.pieces.values():
        p.moved = p.armor_used = p.fired = p.landed = p.unloaded = False
        p.flown = 0
    state.active = []
    state.deferred = {}
    state.emit("turn", f"turn {state.turn}: {state.first} is the first player")
    from henderson.games.aag.rules import dispatch

    dispatch.enter_step(state)
