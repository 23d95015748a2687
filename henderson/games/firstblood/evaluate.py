"""How good a FIRST BLOOD position is for one side: the evaluation the computer players search with.

`evaluate(state, side)` is in [-1, 1]: exactly 1 / -1 when the game is won / lost, strictly
inside otherwise (at most LIMIT), and the two sides' values are negations of each other.
From the US side the value is LIMIT times a weighted sum of parts, each in [-1, 1]:

- core (W_CORE): 1 - 2 P(Japan wins), with P(Japan wins) = 1 - (1 - P_capture)(1 - P_survivor).
  P_capture (FB 2.0, 12.6.2): for each airfield hex in play (Henderson Field, built Fighter
  Strip hexes), the chance the Japanese take it at their next combat: an empty hex that a
  Japanese unit can step into is lost with EMPTY_AIRFIELD_RISK; a guarded hex falls with the
  DE chance (plus a quarter of the other vacating results) of the odds that the Japanese units
  able to get next to it can reach, with artillery in range (FB 9.6 cap) and shore bombardment
  (FB 10.4); a hex the Japanese hold is kept unless the US units in reach clear it (any
  defender result). Threats the US can answer before they strike count SLOW of themselves.
  P_survivor (FB 2.0 at the end of JAN III): 1 - exp(-1.2 E), E the Japanese units expected
  on the map at the end: the ones on the map less the US kills expected next combat, then
  each US combat phase left kills a share growing with the US/Japanese strength ratio, from
  the phase the nearest US stack can first get next to the stack on (a straggler no US unit
  can reach before the last US combat phase survives whole); units in boxes and on entry
  points are hunted from the US combat phase after the US stacks can get next to wherever
  they may stop once on the map with half their MF left (FB 6.2, 7.3), and so are arrivals
  in the last LANDING_HORIZON turns, over every way in they may take (FB 7.2); earlier
  arrivals are hunted for the turns after they land; the expected
  supply losses (FB 14.1, a half unit for each turn that brings no ship to give up, 14.2) come off.
- airfield (W_AIRFIELD): 1 - 2 P_capture again, so that the fields keep their pull when the
  core is near its ends.
- survivors (W_SURVIVORS): 1 - 2 E / (E + SURVIVORS_HALF), E the survivors above. P_survivor
  is all but 1 once three or more are expected, so without this part a US side that is
  behind in the hunt sees no gain in killing one more unit and stops hunting (the US
  heuristic lost five games in six to random Japanese play that spread over the map).
- material (W_MATERIAL): the share of the US combat factors still in play less the Japanese
  share; units still to arrive count ARRIVAL_DISCOUNT per turn away; units in boxes count in
  full; half the factors expected lost next combat (US kills, Japanese attacks on US stacks
  already in contact, with no retreat for stacks hemmed in by zones of control) come off, and
  so do, whole, the stacks that must attack in their own coming combat phase and can only do it
  below 1-2 (FB 8.1, 8.2, 8.6); a Japanese stack so doomed is no survivor either.
- position (W_POSITION): early, US guards on and around the fields against the Japanese
  strength closing on them (weighted by moves needed); late, the US pressure on each
  Japanese stack on the map (strength in reach, and further off by moves needed, against its
  defence). The clock (0 at SEP I, 1 at the end of JAN III) shifts the weight from one to the other.
- air (W_AIR): US air units the operative strips can hold (FB 12.3.1), a CAP (FB 13.3.2),
  against Japanese air and naval units in play.

Movement is measured in half MF with the map's costs (FB 4.2) by reverse shortest paths from
each target hex, ignoring units and zones of control; entering from a box or entry point costs
half the unit's MF for the Japanese (FB 6.2, 7.3) and nothing for the US (FB 7.1). These and
the other static tables live in `evaltables` and are built once per game.
"""

from __future__ import annotations

import math
from typing import Any

from henderson.core.errors import HendersonError
from henderson.games.firstblood.evaltables import (
    ARRIVAL_DISCOUNT,
    SUPPLY_LOSS,
    UNREACHABLE,
    EvalTables,
    Outcome,
    Steps,
    tables_for,
)
from henderson.games.firstblood.odds import odds_column
from henderson.games.firstblood.rules.combat import doubling

# How much each part weighs in the value (they add up to 1; the value is scaled by LIMIT).
W_CORE = 0.4  # 1 - 2 P(Japan wins), from the airfield danger and the end-of-game survivors
W_AIRFIELD = 0.2  # the airfield danger again, so that it keeps its pull when the core is near -1 or 1
W_SURVIVORS = 0.15  # the survivors expected at the end again, without the saturation of P(Japan wins)
W_MATERIAL = 0.1
W_POSITION = 0.1  # guarding the airfields early, hunting the Japanese late
W_AIR = 0.05
SURVIVORS_HALF = 3.0  # design: expected survivors at which the survivors part is 0
LIMIT = 0.98  # design: no position short of the end is as good as a win
FAR = 0.5  # design: a unit t turns beyond one movement phase away counts FAR**t of one in reach
EMPTY_AIRFIELD_RISK = 0.85  # design: a Japanese unit that can step onto an empty airfield hex usually does
SLOW = 0.6  # design: how much of a threat counts when the other side moves before it can strike
AIR_CAPACITY = 6  # FB 12.1, 12.3.1
NEVER = 10**6  # movement phases to a hex no US stack can reach
LANDING_HORIZON = 3  # design: arrivals with at most this many US combat phases left are weighed by where they may land
FAR_Q = tuple(FAR ** (0.5 + q / 4) for q in range(16))  # by quarters of a move beyond reach; none past 4 moves


def evaluate(state: Any, side: str) -> float:
    """How good `state` is for `side`, in [-1, 1] (1: won, -1: lost); the opposite side gets the negation."""
    if side not in ("us", "jp"):
        raise HendersonError(f"evaluate: unknown side {side!r} (us or jp)")
    if state.result is not None:
        return 1.0 if state.result.winner == side else -1.0
    value = _parts(state)[0]
    return value if side == "us" else -value


def breakdown(state: Any) -> dict[str, float]:
    """The parts of the evaluation, from the US point of view (for tuning and the debugger)."""
    if state.result is not None:
        v = 1.0 if state.result.winner == "us" else -1.0
        return {"value": v}
    names = (
        "value",
        "p_capture",
        "p_survivor",
        "material",
        "guard",
        "hunt",
        "air",
        "jp_survivors",
        "us_kills_next",
        "supply_losses",
    )
    return dict(zip(names, _parts(state), strict=True))


# --- the parts ---------------------------------------------------------------------


def _stage(steps: Steps, pos: int, side: str) -> str:
    """Where `side` stands in the turn: "moving", "fighting", "before" (its movement still to come
    this turn) or "next" (its next movement is in the next turn)."""
    if pos == steps.movement(side):
        return "moving"
    if pos == steps.combat(side):
        return "fighting"
    return "before" if pos <= steps.reinforcement(side) else "next"


def _budget(st: Any, unit: str, mf: int, stage: str) -> int:
    """Half-MF a unit can still spend before its side's next combat phase."""
    if stage == "moving":
        return st.mf.get(unit, 0)
    if stage == "fighting":
        return 0
    if stage == "before" and unit in st.held:  # FB 7.2: placed in box A or D this turn, free next turn
        return 0
    return 2 * mf


def _cost(tab: EvalTables, place: str, table: dict[str, int], entry: int, on_map: bool) -> int:
    if on_map:
        return table.get(place, UNREACHABLE)
    return entry + tab.arrow_cost(place, table)


def _weight(cost: int, budget: int, mf: int) -> float:
    """1 within this movement budget, then FAR per further full movement phase."""
    if cost <= budget:
        return 1.0
    if cost >= UNREACHABLE or mf <= 0:
        return 0.0
    return FAR ** ((cost - budget) / (2 * mf) + 0.5)


def clock(st: Any) -> float:
    """How far the game has run: 0 at SEP I, 1 at the end of JAN III (FB 2.0)."""
    tab = tables_for(st.board, st.plan)
    steps = tab.steps
    turn = st.turn - 1  # the Turn Record Chart's index
    pos = steps.pos[st.step]
    return min(1.0, max(0.0, (turn + (pos + steps.setup) / steps.end) / tab.turns))


def _parts(st: Any) -> tuple[float, ...]:
    board = st.board
    tab = tables_for(board, st.plan)
    steps = tab.steps
    terrain = board.terrain
    adj = board.adj
    ground = st.data.ground
    turn = st.turn - 1  # the Turn Record Chart's index
    pos = steps.pos[st.step]
    nturns = tab.turns
    late = clock(st)  # 0 at the start, 1 at the end

    # --- where everything is ---------------------------------------------------------
    us_map: list[tuple[str, list[str], int]] = []  # (hex, units, cf)
    us_off: list[tuple[str, list[str]]] = []
    jp_map: list[tuple[str, list[str], int]] = []
    jp_off: list[tuple[str, list[str]]] = []
    cf_in = {"us": 0, "jp": 0}
    for place, units in st.occ.items():
        side = ground[units[0]].side
        cf = 0
        for u in units:
            cf += ground[u].cf
        cf_in[side] += cf
        if place in terrain:
            (us_map if side == "us" else jp_map).append((place, units, cf))
        else:
            (us_off if side == "us" else jp_off).append((place, units))

    # units still to come: placed this phase (to_place), or arriving on a later turn (discounted)
    future_cf = {"us": 0.0, "jp": 0.0}
    future_units: list[tuple[int, int]] = []  # Japanese (turn index, count) still to arrive
    n_waiting_jp = 0
    for u in st.to_place:
        g = ground.get(u)
        if g is not None:
            future_cf[g.side] += g.cf
            if g.side == "jp":
                n_waiting_jp += 1
    for side in ("us", "jp"):
        arrived_now = pos >= steps.reinforcement(side)
        for t_arr, cf in tab.arrive_cf[side].items():
            if t_arr < 0:
                if pos < 0:  # set-up: at-start units neither placed nor waiting in to_place
                    placed = sum(1 for u in st.ground if ground[u].side == side)
                    waiting = sum(1 for u in st.to_place if u in ground and ground[u].side == side)
                    missing = tab.arrive_n[side][t_arr] - placed - waiting
                    if missing > 0:
                        future_cf[side] += cf * missing / tab.arrive_n[side][t_arr]
                        if side == "jp":
                            n_waiting_jp += missing
                continue
            ahead = t_arr - turn
            if ahead > 0 or (ahead == 0 and not arrived_now):
                k = ahead if ahead > 0 else 0.5
                future_cf[side] += cf * ARRIVAL_DISCOUNT**k
                if side == "jp":
                    future_units.append((t_arr, tab.arrive_n[side][t_arr]))

    us_stage = _stage(steps, pos, "us")
    jp_stage = _stage(steps, pos, "jp")
    us_hexes = {h for h, _, _ in us_map}
    jp_hexes = {h for h, _, _ in jp_map}
    us_zoc = board.zoc(us_hexes)  # FB 8.2
    jp_zoc = board.zoc(jp_hexes)

    us_stacks = _us_stacks(st, us_map, us_off, us_stage)
    free_bomber = any(where == "usaf_ground_attack" and a not in st.bombing for a, where in st.air.items())

    # --- the airfields (FB 2.0, 12.6.2) -------------------------------------------------
    airfield = st.airfield
    active = [h for h in board.airfield_hexes if airfield.get(h, "unbuilt") != "unbuilt"]
    jp_ships_attack = sum(1 for s in st.ships.values() if s == "ijn_attack")
    jp_movers: list[tuple[str, str, int, int, int, bool]] = []  # (unit, place, cf, mf, budget, on map)
    spent = st.combat.attacked if jp_stage == "fighting" else ()  # FB 9.4: one attack per unit a phase
    for place, units, _ in jp_map:
        for u in units:
            if u in spent:
                continue
            g = ground[u]
            jp_movers.append((u, place, g.cf, g.mf, _budget(st, u, g.mf, jp_stage), True))
    for place, units in jp_off:
        for u in units:
            g = ground[u]
            jp_movers.append((u, place, g.cf, g.mf, _budget(st, u, g.mf, jp_stage), False))
    jp_soon = jp_stage in ("before", "moving", "fighting")
    safe_p = 1.0
    threat_far = 0.0
    guard = 0.0
    for h in active:
        into = tab.cost_into(h)
        nxt = tab.cost_next_to(h)
        here = st.occ.get(h)
        if here and ground[here[0]].side == "jp":
            # Japanese troops on the field: the US must clear them by the end of its combat phase
            p = 1.0 - _us_clear(st, tab, h, here, us_stacks, free_bomber)
            safe_p *= 1.0 - p
            continue
        attack = 0
        near = 0.0
        step_in = False
        if jp_stage == "fighting" and h in st.combat.attacked_hexes:
            continue  # FB 8.4 (rulings): attacked once this phase; the next threat comes after the US moves
        for _u, place, cf, mf, budget, on_map in jp_movers:
            if here is None:
                c = _cost(tab, place, into, mf, on_map)
                if c <= budget:
                    step_in = True
            c = _cost(tab, place, nxt, mf, on_map)
            if c <= budget:
                attack += cf
                near += cf
            else:
                near += cf * _weight(c, budget, mf)
        threat_far += near
        if here is None:
            p = EMPTY_AIRFIELD_RISK if step_in else 0.0
            defence = 0
        else:
            defence = 0
            for u in here:
                defence += ground[u].cf
            guard += defence
            p = 0.0
            if attack > 0:
                art = 0
                for place, units, _ in jp_map:
                    for u in units:
                        g = ground[u]
                        if g.range is not None and h in tab.in_range(place, g.range):  # FB 9.2, 9.5.1
                            art += g.cf
                attack += min(art, 2 * attack)  # FB 9.6
                ships = jp_ships_attack if jp_soon else (0 if tab.shipless[min(turn + 1, nturns - 1)] else 1)
                o = tab.outcome("jp", attack, defence, 2 * min(ships, 2))  # FB 10.4
                p = o.de + 0.25 * (o.dr + o.d1 + o.ex)  # only DE lets the attacker in at once (FB 8.10)
        if not jp_soon:
            p *= SLOW  # the US moves before the Japanese can strike
        safe_p *= 1.0 - min(p, 1.0)
    p_capture = 1.0 - safe_p
    # US strength within one move of the fields, against the Japanese strength closing on them
    guard_term = 0.0
    if active:
        ring: set[str] = set()
        for h in active:
            ring.update(adj[h])
        g_us = guard + 0.5 * sum(cf for h, _, cf in us_map if h in ring and h not in active)
        guard_term = (g_us - threat_far) / (g_us + threat_far + 4.0)

    # --- the hunt: US pressure on the Japanese units on the map --------------------------
    kills, kill_cf, pressure, left = _us_kills(st, tab, jp_map, us_stacks, us_hexes, us_zoc, free_bomber)
    us_soon = steps.supply <= pos <= steps.combat("us")  # the Japanese cannot move before the next US combat phase
    slow = 1.0 if us_soon else SLOW
    kills *= slow
    kill_cf *= slow
    risk_cf = _jp_risk(st, tab, us_map, jp_map, jp_zoc, jp_stage)
    _, us_doomed_cf = _doomed(st, tab, us_map, jp_map, us_stage)
    jp_doomed, jp_doomed_cf = _doomed(st, tab, jp_map, us_map, jp_stage)

    # --- material -------------------------------------------------------------------------
    us_eff = cf_in["us"] + future_cf["us"] - 0.5 * risk_cf - us_doomed_cf
    jp_eff = cf_in["jp"] + future_cf["jp"] - 0.5 * kill_cf - jp_doomed_cf
    material = us_eff / tab.total_cf["us"] - jp_eff / tab.total_cf["jp"]
    if st.combat.building is not None:
        material += _building_gain(st, tab)

    # --- the clock: Japanese survivors at the end of JAN III (FB 2.0, 14.1) -----------------
    us_combats_left = nturns - turn - (1 if pos > steps.combat("us") else 0)
    n_map = sum(len(units) for _, units, _ in jp_map)
    supply = 0.0
    if pos < steps.supply:  # this turn's supply roll is still to come (ships arriving this turn can meet it)
        supply += SUPPLY_LOSS * (0 if st.ships or (pos <= steps.reinforcement("jp") and not tab.shipless[turn]) else 1)
    for t in range(turn + 1, nturns):
        supply += SUPPLY_LOSS * tab.shipless[t]
    supply = max(0.0, supply - st.supply_credit)
    if us_combats_left <= 0:
        survivors = float(n_map)
        supply = 0.0
    else:
        ratio = max(us_eff, 1.0) / max(jp_eff, 1.0)
        q = min(0.4, max(0.02, 0.05 * ratio))  # design: a Japanese unit's chance of dying in a later turn
        keep = 1.0 - q
        later = us_combats_left - 1
        # FB 2.0: a stack the US cannot get next to before the last US combat phase survives it; one
        # `moves` movement phases away is hunted from the combat phase after those moves on
        # FB 6.2, 6.3, 7.2, 7.3: a stack off the map comes onto it through its place's arrows at the
        # Japanese movement phase (this turn's if still to come, else the next turn's), with half
        # its MF left to run on; it is hunted from the US combat phase after the US stacks can get
        # next to wherever it may stop
        entry = turn if jp_stage in ("before", "moving") else turn + 1
        survivors = n_waiting_jp * keep ** max(later - 1, 0)
        for place, units in jp_off:
            run = max(ground[u].mf for u in units)
            m = _landing_moves(st, tab, place, us_stacks, run)
            survivors += len(units) * keep ** _hunts_after_entry(turn, entry, nturns, m)
        for (place, _, _), (n, lost, moves) in zip(jp_map, left, strict=True):
            if place in jp_doomed:
                continue  # FB 8.6: its own attack eliminates it first
            survivors += max(0.0, n - slow * lost) * keep ** max(0, later - max(0, moves - 1))
        for t_arr, n in future_units:
            if nturns - t_arr > LANDING_HORIZON:
                survivors += n * keep ** max(nturns - t_arr - 1, 0)
                continue
            # FB 7.2: a late arrival may come in at any Japanese entry point, or in box A or D, from
            # which it moves on only the next turn; the places count alike
            run = tab.arrive_mf["jp"][t_arr]
            share = 0.0
            for way_in in tab.jp_entries:
                comes_on = t_arr + (1 if way_in in st.board.box_arrows else 0)
                m = _landing_moves(st, tab, way_in, us_stacks, run)
                share += keep ** _hunts_after_entry(turn, comes_on, nturns, m)
            survivors += n * share / len(tab.jp_entries)
        survivors = max(0.0, survivors - supply)
    p_survivor = 1.0 - math.exp(-1.2 * survivors)
    p_jp = 1.0 - (1.0 - p_capture) * (1.0 - p_survivor)

    # --- air (FB 12.3, 13.x) ----------------------------------------------------------------
    operative = sum(1 for h in active if airfield[h] == "operational")
    us_air = 0
    for a in st.air:
        if a in st.data.air and st.data.air[a].side == "us":
            us_air += 1
    us_air = min(us_air, AIR_CAPACITY * operative) + (1 if "usaf_cap" in st.air.values() else 0)  # FB 13.3.2
    jp_air = sum(1 for a, where in st.air.items() if where.startswith("ijaf")) + len(st.ships)
    air = (us_air - jp_air) / (us_air + jp_air + 2.0)

    hunt = pressure
    position = (1.0 - late) * guard_term + late * hunt
    value = (
        W_CORE * (1.0 - 2.0 * p_jp)
        + W_AIRFIELD * (1.0 - 2.0 * p_capture)
        + W_SURVIVORS * (1.0 - 2.0 * survivors / (survivors + SURVIVORS_HALF))
        + W_MATERIAL * max(-1.0, min(1.0, material))
        + W_POSITION * position
        + W_AIR * air
    )
    value = LIMIT * max(-1.0, min(1.0, value))
    return (value, p_capture, p_survivor, material, guard_term, hunt, air, survivors, kills, supply)


# A stack as the US hunt sees it: (place, on the map, [(unit, cf, budget, range or 0)], largest budget,
# factors, largest MF in half-MF, artillery [(cf, range)])
Stack = tuple[str, bool, list[tuple[str, int, int, int]], int, int, int, list[tuple[int, int]]]


def _us_stacks(
    st: Any,
    us_map: list[tuple[str, list[str], int]],
    us_off: list[tuple[str, list[str]]],
    stage: str,
) -> list[Stack]:
    """The US units that could attack in the next US combat phase, with their movement budgets."""
    ground = st.data.ground
    attacked = st.combat.attacked if stage == "fighting" else ()
    out: list[Stack] = []
    for place, units in [(p, u) for p, u, _ in us_map] + ([] if stage == "fighting" else us_off):
        on_map = place in st.board.terrain
        rows = []
        arts = []
        top = -1
        cf_all = 0
        mf2 = 1
        for u in units:
            if u in attacked:
                continue
            g = ground[u]
            rng = g.range or 0
            if rng and not on_map:
                continue  # FB 7.5: artillery adds nothing from an entry point
            b = _budget(st, u, g.mf, stage)
            rows.append((u, g.cf, b, rng))
            if rng:
                arts.append((g.cf, rng))
            top = max(top, b)
            cf_all += g.cf
            mf2 = max(mf2, 2 * g.mf)
        if rows:
            out.append((place, on_map, rows, top, cf_all, mf2, arts))
    return out


def _reach(
    tab: EvalTables, target: str, stacks: list[Stack], found: list[tuple[str, int]] | None = None
) -> tuple[int, int, float, int]:
    """US ground factors that can get next to `target` before the next US combat, artillery factors
    that can bombard it, the factors further away weighted by how many moves they need, and the
    fewest further movement phases any US stack needs to get next to it (0: one gets there before
    the next US combat; NEVER: none can)."""
    table = tab.cost_next_to(target)
    get = table.get
    in_range = tab.in_range
    far_q = FAR_Q
    n_far = len(far_q)
    attack = 0
    art = 0
    far = 0.0
    moves = NEVER
    for place, on_map, rows, top, cf_all, mf2, arts in stacks:
        c = get(place, UNREACHABLE) if on_map else tab.arrow_cost(place, table)  # FB 7.1: free entry
        if c > top:
            if c < UNREACHABLE:
                quarters = 4 * (c - top) // mf2  # quarters of a full move still to go
                if quarters < n_far:
                    far += cf_all * far_q[quarters]
                need = -(-(c - top) // mf2)  # whole movement phases still to go
                if need < moves:
                    moves = need
            if arts:
                for cf, rng in arts:
                    if target in in_range(place, rng):  # FB 9.2, 9.5
                        art += cf
            continue
        moves = 0
        for u, cf, b, rng in rows:
            if c <= b:
                attack += cf
                if found is not None:
                    found.append((u, cf))
            elif rng and on_map and target in in_range(place, rng):
                art += cf
    return attack, art, far, moves


def _hunts_after_entry(turn: int, entry: int, nturns: int, moves: int) -> int:
    """US combat phases left to hunt a stack that comes onto the map in turn `entry` (before
    that turn's US movement, FB 3.2), when the US stacks need `moves` movement phases from now
    to get next to wherever it may stop: one for each turn from its entry on, less those the
    US still spends getting there after the turns it has before the entry."""
    return max(0, nturns - entry - max(0, moves - (entry - turn)))


def _landing_moves(st: Any, tab: EvalTables, place: str, stacks: list[Stack], run: int) -> int:
    """Movement phases the US needs to get next to every hex a Japanese stack entering the map
    from `place` may stop in (`_reach`'s fourth value): the hexes its arrows point to (FB 6.2,
    7.3) and up to `run` half MF beyond them, the half of its MF the entry leaves it. Arrow
    hexes a US unit holds are closed (FB 7.4); with all closed the stack must fight its way in
    (FB 7.5.1), which counts as covered."""
    board = st.board
    arrows = board.ep_arrows.get(place) or board.box_arrows.get(place) or ()
    worst = 0
    for a in arrows:
        here = st.occ.get(a)
        if here and st.data.ground[here[0]].side == "us":
            continue
        table = tab.cost_next_to(a)
        best = NEVER
        for at, on_map, _, top, _, mf2, _ in stacks:
            c = table.get(at, UNREACHABLE) if on_map else tab.arrow_cost(at, table)  # FB 7.1: free entry
            if c >= UNREACHABLE:
                continue
            c += run  # it may run on that far before the US moves (at most that much further away)
            need = 0 if c <= top else -(-(c - top) // mf2)
            if need < best:
                best = need
        if best > worst:
            worst = best
    return worst


def _bombers(st: Any, target: str, free: bool) -> int:
    """US bombers that could join an attack on `target` (FB 13.6): those placed on it, else one free one."""
    on = 0
    if st.bombing:
        on = sum(1 for h in st.bombing.values() if h == target)
    return on + (1 if free else 0)


def _defence(st: Any, target: str, units: list[str]) -> tuple[int, int]:
    """Defence factors and die modifier of a stack (FB 8.7.1, 8.7.2: ridge doubles, jungle -1)."""
    ground = st.data.ground
    d = 0
    for u in units:
        d += ground[u].cf
    terrain = st.board.terrain[target]
    if terrain == "ridge":
        d *= 2
    return d, (-1 if terrain == "jungle" else 0)


def _us_clear(st: Any, tab: EvalTables, target: str, units: list[str], stacks: list[Stack], free: bool) -> float:
    """Chance that US attacks empty a Japanese-held hex this turn (any defender result, FB 8.10)."""
    if st.phasing == "us" and target in st.combat.attacked_hexes:
        return 0.0
    attack, art, _, _ = _reach(tab, target, stacks)
    if attack <= 0:
        return 0.0
    d, drm = _defence(st, target, units)
    return tab.outcome("us", attack + min(art, 2 * attack), d, drm + _bombers(st, target, free)).vacate  # FB 9.6


def _building_gain(st: Any, tab: EvalTables) -> float:
    """What the attack being built is expected to change in `material`, from the US side: the
    defenders' share expected lost less the attackers' (FB 8.4-8.10). Before any unit is added,
    every unit that could join counts, so opening an attack already shows what it promises."""
    b = st.combat.building
    side = st.phasing
    enemy = "jp" if side == "us" else "us"
    ground = st.data.ground
    board = st.board
    attackers = list(b.attackers)
    if not attackers:
        adj = board.adj
        for u, place in st.ground.items():
            g = ground[u]
            if (
                g.side == side
                and u not in st.combat.attacked
                and place in adj
                and all(d in adj[place] for d in b.defenders)
            ):
                attackers.append(u)
    if not attackers:
        return 0.0
    attack = sum(ground[u].cf for u in attackers)
    attack += min(sum(ground[u].cf for u in b.artillery), 2 * attack)  # FB 9.6
    defence = 0
    base = 0
    n = 0
    drm = 0
    for h in b.defenders:
        units = st.occ.get(h, [])
        d, m = _defence(st, h, units)
        defence += d
        base += sum(ground[u].cf for u in units)
        n += len(units)
        drm = min(drm, m)  # FB 8.7.1 once for the attack
    if n == 0:
        return 0.0
    drm += len(b.air) + sum(1 for h in st.bombing.values() if h in b.defenders) + 2 * len(b.ships)  # FB 13.6, 10.4
    o = tab.outcome(side, attack, defence, drm)
    lost_def = (o.de * n + o.d1 + o.ex) * (base / n) / tab.total_cf[enemy]
    lost_att = min(o.attacker_loss, len(attackers)) * (sum(ground[u].cf for u in attackers) / len(attackers))
    lost_att /= tab.total_cf[side]
    gain = lost_def - lost_att
    return gain if side == "us" else -gain


def _can_retreat(st: Any, hex_id: str, enemy_hexes: set[str], enemy_zoc: set[str]) -> bool:
    """Whether a stack attacked in `hex_id` has a hex to retreat to (FB 8.11, 8.2.2; the ford is allowed, 4.4)."""
    board = st.board
    for n in board.adj[hex_id]:
        if n in enemy_hexes or n in enemy_zoc or board.side[(hex_id, n)] == "river":
            continue
        return True
    return False


def _kill_expectation(o: Outcome, n: int, retreat: bool) -> float:
    """Expected defending units lost (FB 8.10, 8.11: a stack that must retreat and cannot is lost)."""
    lost = o.de * n + o.d1 + o.ex
    if not retreat:
        lost += o.dr * n + (o.d1 + o.ex) * (n - 1)
    return lost


def _us_kills(
    st: Any,
    tab: EvalTables,
    jp_map: list[tuple[str, list[str], int]],
    stacks: list[Stack],
    us_hexes: set[str],
    us_zoc: set[str],
    free: bool,
) -> tuple[float, float, float, list[tuple[int, float, int]]]:
    """Japanese units (and factors) the US can expect to destroy in its next combat phase, the
    US pressure on the Japanese stacks (0..1, strength near them against their defence), and for
    each stack its units, the units expected lost in that combat and the movement phases the
    nearest US stack still needs to get next to it (`_reach`).

    Each US unit that can reach several Japanese stacks is shared among them."""
    if not jp_map:
        return 0.0, 0.0, 1.0, []
    fighting = st.step == "us_combat"
    share: dict[str, int] = {}
    seen: list[tuple[list[tuple[str, int]], int, float, int]] = []
    for target, _, _ in jp_map:
        found: list[tuple[str, int]] = []
        if fighting and target in st.combat.attacked_hexes:
            seen.append((found, 0, 0.0, 1))  # FB 8.4 (rulings): hunted again from the next US turn
            continue
        _, art, far, moves = _reach(tab, target, stacks, found)
        for u, _ in found:
            share[u] = share.get(u, 0) + 1
        seen.append((found, art, far, moves))
    kills = 0.0
    kill_cf = 0.0
    pressure = 0.0
    left: list[tuple[int, float, int]] = []
    for (target, units, cf), (found, art, far, moves) in zip(jp_map, seen, strict=True):
        d, drm = _defence(st, target, units)
        n = len(units)
        near = sum(c / share[u] for u, c in found)
        pressure += 1.0 - math.exp(-(near + 0.5 * far) / (2.0 * max(d, 1)))
        attack = int(near)
        lost = 0.0
        if found and attack > 0:
            attack += min(art, 2 * attack)  # FB 9.6
            o = tab.outcome("us", attack, d, drm + _bombers(st, target, free))
            lost = _kill_expectation(o, n, _can_retreat(st, target, us_hexes, us_zoc))
            kills += lost
            kill_cf += lost * cf / n
        left.append((n, lost, moves))
    return kills, kill_cf, pressure / len(jp_map), left


def _doomed(
    st: Any,
    tab: EvalTables,
    mine: list[tuple[str, list[str], int]],
    theirs: list[tuple[str, list[str], int]],
    stage: str,
) -> tuple[set[str], int]:
    """The stacks of the side in `mine` that must attack in its coming combat phase and can only
    do it below 1-2, and their factors. A stack next to the enemy must attack, and every enemy
    stack next to it must be attacked (FB 8.1, 8.2); a unit attacks once (FB 9.4), so the enemy
    stacks no other stack of the side is next to are its own to attack, together in one attack
    (FB 8.2); below 1-2 its attackers are eliminated (FB 8.6). With none of its own, it is doomed
    only when no enemy stack next to it can be attacked at 1-2 by every unit of the side next to
    that stack. Artillery in range adds up to twice the attack (FB 9.2, 9.6). Judged while the
    side moves or fights (before its movement it may still walk away, FB 8.2); units that have
    attacked, or are in the attack being built, neither need to attack nor help."""
    if stage not in ("moving", "fighting") or not mine or not theirs:
        return set(), 0
    adj = st.board.adj
    enemy_at = {h: units for h, units, _ in theirs}
    done: set[str] = set()
    attacked: set[str] = set()
    if stage == "fighting":
        done = set(st.combat.attacked)
        attacked = set(st.combat.attacked_hexes)  # FB 8.4 (rulings): attacked once a phase
        if st.combat.building is not None:
            done.update(st.combat.building.attackers)
            attacked.update(st.combat.building.defenders)
    mine_at: dict[str, list[str]] = {}  # the units still to attack, by hex
    for h, units, _ in mine:
        left = [u for u in units if u not in done] if done else units
        if left:
            mine_at[h] = left
    doomed: set[str] = set()
    lost = 0
    ground = st.data.ground
    for place, units in mine_at.items():
        targets = [n for n in adj[place] if n in enemy_at and n not in attacked]
        if not targets:
            continue
        own = [t for t in targets if not any(n != place and n in mine_at for n in adj[t])]
        if own:
            hopeless = _below_1_2(st, tab, mine, own, units, enemy_at)
        else:
            hopeless = all(
                _below_1_2(st, tab, mine, [t], [u for n in adj[t] for u in mine_at.get(n, ())], enemy_at)
                for t in targets
            )
        if hopeless:
            doomed.add(place)
            lost += sum(ground[u].cf for u in units)
    return doomed, lost


def _below_1_2(
    st: Any,
    tab: EvalTables,
    mine: list[tuple[str, list[str], int]],
    targets: list[str],
    attackers: list[str],
    enemy_at: dict[str, list[str]],
) -> bool:
    """Whether `attackers`, with the side's artillery in range of every target (FB 9.2, 9.6
    cap), fall below 1-2 against the targets' defence together (FB 8.6), each target doubled
    as the engine doubles it for these attackers: river, ford or ridge (FB 8.7.2-8.7.5)."""
    ground = st.data.ground
    art = 0
    for h, stack, _ in mine:
        for u in stack:
            g = ground[u]
            if g.range is not None and all(t in tab.in_range(h, g.range) for t in targets):
                art += g.cf
    attack = sum(ground[u].cf for u in attackers)
    defence = 0
    for t in targets:
        d = sum(ground[u].cf for u in enemy_at[t])
        defence += 2 * d if doubling(st, t, attackers, False) is not None else d
    return odds_column(attack + min(art, 2 * attack), defence)[0] is None


def _jp_risk(
    st: Any,
    tab: EvalTables,
    us_map: list[tuple[str, list[str], int]],
    jp_map: list[tuple[str, list[str], int]],
    jp_zoc: set[str],
    stage: str,
) -> float:
    """US factors expected lost to Japanese attacks by the units already next to them (FB 8.1)."""
    if not jp_map:
        return 0.0
    adj = st.board.adj
    jp_at = {h: cf for h, _, cf in jp_map}
    us_hexes = {h for h, _, _ in us_map}
    jp_hexes = set(jp_at)
    risk = 0.0
    for h, units, cf in us_map:
        if h not in jp_zoc:
            continue
        if stage == "fighting" and h in st.combat.attacked_hexes:
            continue
        attack = 0
        for n in adj[h]:
            a = jp_at.get(n)
            if a is not None:
                # a Japanese stack next to several US stacks cannot throw all of itself at each
                facing = sum(1 for m in adj[n] if m in us_hexes)
                attack += a // 2 if facing > 1 else a
        if attack <= 0:
            continue
        d, drm = _defence(st, h, units)
        o = tab.outcome("jp", attack, d, drm)
        lost = _kill_expectation(o, len(units), _can_retreat(st, h, jp_hexes, jp_zoc))
        risk += lost * cf / len(units)
    return risk
