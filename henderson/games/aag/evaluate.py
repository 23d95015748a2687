"""How good an AAG position is for one side: a number in [-1, 1] for the computer players.

The agents look for `evaluate(state, side)` under `henderson.games.<game>.evaluate`. The
estimate is a race to 15 victory points (AAG How to Win), counted in victory points:

- points already scored, plus the undamaged airfields held (1 point a turn each, AAG
  Regroup step 5) over the turns the race has left, the horizon (from the leader's points
  at two a turn);
- islands held (4 reinforcement points a turn each, AAG Reinforce), weighted by how
  securely each is held: land power ashore against the land units the enemy has aboard
  ships next to it, its cruisers and battleships in range and its air units near (what a
  sea zone holds can join at one island only, so it is split among the islands next to it);
- supply tokens on or aboard next to an island with a free airfield slot (an airfield to
  come, AAG Build Airfields);
- material: every unit, supply token and unspent reinforcement point at its cost (AAG
  Reinforcement Costs), damaged ships less the supply that repairs them, casualties
  already marked in a battle at nothing; a battleship or carrier on the board less the
  chance that it is sunk, which scores the enemy a victory point (AAG Capital Ship), so
  a capital ship is bought and risked only where it earns that back;
- a small bonus for moving second while the Movement phase lasts (the first-player marker);
- the race itself: at each turn's scoring both sides add their undamaged airfields; if
  the airfields stayed as they are, who would pass 15 first, and after how many scorings
  (the higher total when both pass at once, AAG Regroup step 5). The value is drawn toward
  that side's win, the harder the sooner: material and islands are worth victory points
  only by the airfields they take in time, which a one-move look cannot see;
- air units that cannot land: until the landing (AAG Regroup step 2), an air unit with no
  landing place in range of where it is (its base, an undamaged airfield of its side, a
  carrier of its side for a fighter) is destroyed then, so it counts at nothing
  ("Any air unit that can't land is destroyed"): a flight that strands it must win more
  than the unit is worth.

Terminal positions are exactly 1 (won) or -1 (lost); otherwise the value is the tanh of
the difference, so `evaluate(s, "us") == -evaluate(s, "jp")`. Static tables are built once
per game data, never per position.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from henderson.games.aag.model import SUPPLY, GameData

if TYPE_CHECKING:
    from henderson.games.aag.state import AAGState

POINTS_PER_VP = 10.0  # reinforcement points worth one victory point (income 10 + 4 per island)
CARGO_WEIGHT = 0.7  # land power aboard next to an island: it can land this turn
SHIP_WEIGHT = 0.5  # cruisers and battleships next to an island (ranged fire, control)
AIR_WEIGHT = 0.3  # air units on or next to an island
HOLDER_EDGE = 0.5  # a tie keeps control (AAG Regroup step 1)
DAMAGED_FIELD = 0.6  # a damaged airfield scores nothing until a supply repairs it
SECOND_MOVER = 0.2  # moving second in each Movement step: answer the other side's moves
SCALE = 5.0  # victory points of advantage that make the value tanh(1) = 0.76
MAX_HORIZON = 5.0
PACE = 2.0  # victory points a side scores a turn at the usual pace: two airfields (AAG Regroup step 5)
FIELD_TO_COME = 0.6  # an airfield that supplies near an island could build
CAPITAL_RISK = 0.3  # victory points a capital ship at sea may yet give the enemy (sunk)
NEAR_WIN = 0.95  # the value of a side certain to reach 15 first at this turn's scoring
RACE_WEIGHT = 0.6  # how far the race's projected winner pulls the value when it ends at the next scoring
RACE_DECAY = 0.6  # ... and per scoring further off (more time for airfields to change hands)
RACE_SCORINGS = 8  # scorings a projection looks ahead; a race decided later counts as open


@dataclass(frozen=True)
class Tables:
    """What evaluation reads from the game data, computed once per game."""

    island_seas: dict[str, tuple[str, ...]]
    capacity: dict[str, int]  # airfield slots per island
    sea_islands: dict[str, tuple[str, ...]]  # islands next to each sea zone
    build: float  # supply tokens an airfield costs
    repair: float  # cost of the supply that repairs a damaged ship
    to_win: int
    kinds: dict[str, tuple[float, int, int]]  # type -> (reinforcement cost, land power, role)
    capital: frozenset[str]  # battleships and carriers: sinking one scores a victory point
    base_seas: frozenset[str]  # the sea zones of the base cards, which the enemy cannot enter


_TABLES: dict[int, tuple[GameData, Tables]] = {}

# how a piece counts toward holding islands, besides its cost (`Tables.kinds`)
SUPPLY_ROLE, LAND_ROLE, RANGED_ROLE, AIR_ROLE, SEA_ROLE = range(5)


def tables(data: GameData) -> Tables:
    """The static tables for this game data (built on first use, then shared)."""
    hit = _TABLES.get(id(data))
    if hit is not None and hit[0] is data:
        return hit[1]
    cost = {k: float(u.cost) for k, u in data.units.items()}
    cost[SUPPLY] = float(data.rules.supply_cost)

    def role(kind: str) -> int:
        if kind == SUPPLY:
            return SUPPLY_ROLE
        unit = data.units[kind]
        if unit.category in ("land", "air"):
            return LAND_ROLE if unit.category == "land" else AIR_ROLE
        return RANGED_ROLE if unit.attack["land"] > 0 else SEA_ROLE  # cruisers, battleships

    def power(kind: str) -> int:
        return 0 if kind == SUPPLY else data.units[kind].attack["land"]

    built = Tables(
        island_seas={i: isl.seas for i, isl in data.board.islands.items()},
        capacity={i: isl.airfields for i, isl in data.board.islands.items()},
        sea_islands={
            z: tuple(i for i, isl in data.board.islands.items() if z in isl.seas)
            for z in data.board.seas
        },
        build=float(data.rules.build_cost),
        repair=float(data.rules.supply_cost * data.rules.sea_repair_cost),
        to_win=data.rules.points_to_win,
        kinds={k: (cost[k], power(k), role(k)) for k in cost},
        capital=frozenset(k for k, u in data.units.items() if u.capital),
        base_seas=frozenset(b.sea for b in data.board.bases.values()),
    )
    _TABLES[id(data)] = (data, built)
    return built


def _mine(share: dict[str, float], island: str, side: str) -> float:
    return share[island] if side == "us" else 1.0 - share[island]


def evaluate(state: AAGState, side: str) -> float:
    """The value of `state` for `side` in [-1, 1]: 1 won, -1 lost (AAG How to Win)."""
    winner = state.winner()
    if winner is not None:
        return 1.0 if winner == side else -1.0
    value = _value_for_us(state)
    return value if side == "us" else -value


def _strength(
    state: AAGState, t: Tables, ashore: dict[str, dict[str, float]], near: dict[str, dict[str, float]]
) -> dict[str, dict[str, float]]:
    """Each side's land power for holding each island: its units ashore, its air units there,
    the edge of the side holding it, and the power that can join from the sea zones next to
    it. That power (cargo that can land, cruisers and battleships that can fire, air units)
    can go to one island only (AAG Combat step 3, Ranged Fire: one adjacent zone), so a sea zone's
    power is split evenly among the islands next to it instead of counted at each."""
    out: dict[str, dict[str, float]] = {}
    for island, seas in t.island_seas.items():
        strength = {}
        for s in ("us", "jp"):
            mine = near[s]
            power = ashore[s].get(island, 0.0) + mine.get(island, 0.0)
            power += sum(mine.get(sea, 0.0) / len(t.sea_islands[sea]) for sea in seas)
            if state.control.get(island) == s:
                power += HOLDER_EDGE
            strength[s] = power
        out[island] = strength
    return out


def island_strength(state: AAGState) -> dict[str, dict[str, float]]:
    """Each side's land power for holding each island, as the evaluation weighs it."""
    t = tables(state.data)
    _, ashore, _, _, near = _tally(state, t)
    return _strength(state, t, ashore, near)


def _before_landing(state: AAGState) -> bool:
    """Whether this turn's air units have yet to land (AAG Regroup step 2)."""
    return not state.step.startswith("regroup:") or state.step == "regroup:land"


def _tally(
    state: AAGState, t: Tables, gone: set[str] | frozenset[str] = frozenset()
) -> tuple[dict, dict, dict, dict, dict]:
    """One pass over the pieces: material by side, land power ashore by island, supplies by
    zone, islands with a land unit, and power that can join from each zone. The pieces in
    `gone` (air units that will find nowhere to land) count at nothing."""
    material = {"us": float(state.points["us"]), "jp": float(state.points["jp"])}
    ashore: dict[str, dict[str, float]] = {"us": {}, "jp": {}}  # island -> land power
    stock: dict[str, dict[str, float]] = {"us": {}, "jp": {}}  # zone -> supplies there
    landed: dict[str, set[str]] = {"us": set(), "jp": set()}  # islands with a land unit
    near: dict[str, dict[str, float]] = {"us": {}, "jp": {}}  # zone -> power that can join
    pieces = state.pieces
    lost = {p.id for p in pieces.values() if p.hit}  # ships marked hit lose their cargo
    kinds, repair, capital, base_seas = t.kinds, t.repair, t.capital, t.base_seas
    for p in pieces.values():
        hit, aboard = p.hit, p.aboard
        if hit == "destroyed" or (aboard is not None and aboard in lost and p.type != "fighter") or p.id in gone:
            continue  # a marked casualty (or the cargo of a ship marked hit) is gone
        worth, power, role = kinds[p.type]
        s = p.side
        if p.damaged or hit == "damaged":
            material[s] += worth - repair
            continue
        material[s] += worth
        zone = p.zone
        if p.type in capital and zone not in base_seas:
            material[s] -= CAPITAL_RISK * POINTS_PER_VP  # AAG Capital Ship: a point the enemy may score
        if role == SUPPLY_ROLE:
            into = stock[s]
            into[zone] = into.get(zone, 0.0) + (1.0 if aboard is None else CARGO_WEIGHT)
        elif role == LAND_ROLE:
            if aboard is None:
                landed[s].add(zone)
                ashore[s][zone] = ashore[s].get(zone, 0.0) + power
            elif power:
                near[s][zone] = near[s].get(zone, 0.0) + CARGO_WEIGHT * power
        elif role == RANGED_ROLE:
            near[s][zone] = near[s].get(zone, 0.0) + SHIP_WEIGHT * power
        elif role == AIR_ROLE:
            near[s][zone] = near[s].get(zone, 0.0) + AIR_WEIGHT * power
    return material, ashore, stock, landed, near


def stranded(state: AAGState, t: Tables) -> dict[str, float]:
    """The worth, by side, of the air units that will find no landing place (`doomed`)."""
    out = {"us": 0.0, "jp": 0.0}
    for pid in doomed(state, t):
        p = state.pieces[pid]
        out[p.side] += t.kinds[p.type][0]
    return out


def doomed(state: AAGState, t: Tables) -> set[str]:
    """The air units (not landed yet) that will find no landing place
    in range (AAG Regroup step 2, Landing Capacities): the side's base (any number), an
    island with undamaged airfields of its side (two a field), a carrier of its side (two
    fighters). Places are given out greedily, the air units with the fewest choices first,
    each to the choice with the most room left."""
    out: set[str] = set()
    landing = state.step == "regroup:land"
    room: dict[str, int] = {}
    capacity = state.data.rules.airfield_air_capacity
    for field in state.airfields:
        if not field.damaged:
            key = f"{field.side}:{field.island}"
            room[key] = room.get(key, 0) + capacity
    carriers: dict[str, list[tuple[str, str]]] = {"us": [], "jp": []}  # side -> (zone, ship)
    air = []
    for p in state.pieces.values():
        if p.hit == "destroyed":
            continue
        if p.type == "carrier" and not p.damaged and p.hit is None:
            carriers[p.side].append((p.zone, p.id))
            room[p.id] = state.data.rules.carrier_capacity
        elif t.kinds[p.type][2] == AIR_ROLE:
            air.append(p)
    if not air:
        return out
    board = state.data.board
    waiting: list[tuple[int, str, list[str]]] = []
    for p in air:
        side = p.side
        home = state.base_land(side)
        if p.zone == home:
            continue
        if landing and p.landed:  # it holds its place
            spot = p.aboard if p.aboard is not None else f"{side}:{p.zone}"
            room[spot] = room.get(spot, 0) - 1
            continue
        reach = state.air_range(p)
        dist = board.air_distances(p.zone, state.enemy_base_zones(side))
        if dist.get(home, reach + 1) <= reach:
            continue
        options = [f"{side}:{z}" for z, d in dist.items() if d <= reach and f"{side}:{z}" in room]
        if p.type == "fighter":
            options += [ship for zone, ship in carriers[side] if dist.get(zone, reach + 1) <= reach]
        waiting.append((len(options), p.id, options))
    waiting.sort()
    for _, pid, options in waiting:
        best = max(options, key=lambda o: room[o], default=None)
        if best is None or room[best] <= 0:
            out.add(pid)
        else:
            room[best] -= 1
    return out


TERMS = ("vp", "material", "islands", "airfields", "fields_to_come", "second_mover")


def terms(state: AAGState) -> dict[str, float]:
    """The evaluation's terms for a non-terminal position, each as the United States' score
    less Japan's, in victory points (the module docstring says what each counts); the
    evaluation is the tanh of their sum. A learned evaluation weighs them afresh."""
    by_term, _ = _scores(state)
    return {term: by_side["us"] - by_side["jp"] for term, by_side in by_term.items()}


def _scores(state: AAGState) -> tuple[dict[str, dict[str, float]], dict[str, float]]:
    """Each side's score by term (`TERMS`), and its total (summed in the order the terms
    are counted, so the evaluation is the same to the last bit whichever is read)."""
    t = tables(state.data)
    sides = ("us", "jp")
    material, ashore, stock, landed, near = _tally(state, t, doomed(state, t) if _before_landing(state) else set())
    score = {term: {s: 0.0 for s in sides} for term in TERMS}
    total = {s: 0.0 for s in sides}

    def add(term: str, side: str, amount: float) -> None:
        score[term][side] += amount
        total[side] += amount

    # the turns left, from the leader's victory points at the usual pace; not from the sides'
    # airfields, or building one would shorten the horizon and so cheapen the builder's islands
    vp = state.vp
    horizon = (t.to_win - max(vp.values())) / PACE
    horizon = max(1.0, min(MAX_HORIZON, horizon))

    # how securely each side holds each island: its share of the local land power
    share: dict[str, float] = {}
    for island, strength in _strength(state, t, ashore, near).items():
        both = strength["us"] + strength["jp"]
        share[island] = strength["us"] / both if both else 0.5

    for s in sides:
        score["vp"][s], score["material"][s] = float(vp[s]), material[s] / POINTS_PER_VP
        total[s] = float(vp[s]) + material[s] / POINTS_PER_VP
    income_vp = state.data.rules.income_per_island / POINTS_PER_VP
    for us_share in share.values():
        add("islands", "us", us_share * income_vp * horizon)
        add("islands", "jp", (1.0 - us_share) * income_vp * horizon)
    for field in state.airfields:
        s = field.side
        mine = share[field.island] if s == "us" else 1.0 - share[field.island]
        # an airfield is lost only when no land unit of its owner is left on the island
        secure = 1.0 if field.island in landed[s] else 0.5 + 0.5 * mine
        worth = 1.0 if not field.damaged else DAMAGED_FIELD
        add("airfields", s, horizon * worth * secure)

    # supplies on (or aboard next to) an island with a free airfield slot: an airfield to come
    # (AAG Build Airfields: 3 supply tokens)
    later = max(horizon - 1.0, 0.0) * FIELD_TO_COME
    slots = dict(t.capacity)
    for field in state.airfields:
        slots[field.island] -= 1
    for s in sides:
        have = {i: stock[s].get(i, 0.0) for i, free in slots.items() if free > 0}
        for zone, count in stock[s].items():
            if zone in t.sea_islands:  # supplies aboard: toward the best island next to them
                spots = [i for i in t.sea_islands[zone] if i in have]
                if spots:
                    best = max(spots, key=lambda i: _mine(share, i, s))
                    have[best] += count
        for island, count in have.items():
            if count:
                usable = min(count, t.build * slots[island]) / t.build
                add("fields_to_come", s, usable * later * _mine(share, island, s))

    if state.step.startswith(("move:", "hidden:")):  # the Movement phase (data/sequence.toml)
        add("second_mover", state.second, SECOND_MOVER)
    return score, total


def settled(state: AAGState) -> float | None:
    """+1 or -1 (for the United States) when this turn's scoring settles the race: one side
    alone is sure to pass 15 victory points at it (AAG Regroup step 5); else None."""
    if not state.step.startswith("regroup:") or state.step == "regroup:land":
        return None
    rate = {"us": 0.0, "jp": 0.0}
    for field in state.airfields:
        if not field.damaged:
            rate[field.side] += 1
    final = {s: state.vp[s] + rate[s] for s in ("us", "jp")}
    if max(final.values()) >= tables(state.data).to_win and final["us"] != final["jp"]:
        return 1.0 if final["us"] > final["jp"] else -1.0
    return None


def race(state: AAGState) -> tuple[float, int] | None:
    """The race to 15 if every side kept its undamaged airfields: +1 or -1 (for the United
    States) and the number of scorings (this turn's first) until one side alone passes 15 or
    both pass with different totals (AAG How to Win, Regroup step 5); None when that takes
    more than `RACE_SCORINGS` scorings or never happens (equal totals and rates)."""
    to_win = tables(state.data).to_win
    rate = {"us": 0, "jp": 0}
    for field in state.airfields:
        if not field.damaged:
            rate[field.side] += 1
    us, jp = state.vp["us"], state.vp["jp"]
    for scorings in range(1, RACE_SCORINGS + 1):
        us, jp = us + rate["us"], jp + rate["jp"]
        if max(us, jp) >= to_win and us != jp:  # a tie at 15 or more plays on
            return (1.0 if us > jp else -1.0), scorings
    return None


def race_pull(scorings: int) -> float:
    """How far the race's projected winner pulls the value (0..1) when the race ends at the
    given scoring (1: this turn's)."""
    return RACE_WEIGHT * RACE_DECAY ** (scorings - 1)


def _value_for_us(state: AAGState) -> float:
    _, score = _scores(state)
    value = math.tanh((score["us"] - score["jp"]) / SCALE) * NEAR_WIN
    # the race's projected winner: a pull toward its win, weaker the further off the finish
    projected = race(state)
    if projected is not None:
        winner, scorings = projected
        pull = race_pull(scorings)
        value = (1.0 - pull) * value + pull * winner * NEAR_WIN
    # this turn's scoring settles the race: the side sure to pass 15 alone is close to won
    lead = settled(state)
    if lead is not None:
        value = lead * max(lead * value, 0.9)
    return max(-NEAR_WIN, min(NEAR_WIN, value))
