"""Combat phases: declaring attacks (FB 7.5, 8.1–8.7, 9.x, 10.x, 13.6) and the Japanese
air, artillery and naval fire on the airfields (FB 9.5.1, 10.3, 13.3).

An attack is opened on one or more enemy hexes (`attack 0605`), built with `add`,
and rolled with `resolve`; a whole `attack ... with ...` does the three at once.
Mandatory combat (FB 8.1, 8.2) is kept by refusing any attack after which the
remaining duties could no longer all be met, and by refusing `end` while any remain.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from henderson.core.errors import IllegalAction
from henderson.core.events import Event
from henderson.core.game import Action
from henderson.games.firstblood import actions as A
from henderson.games.firstblood.odds import (
    JUNGLE,
    Doubling,
    Modifier,
    Odds,
    attack_odds,
    bomber_support,
    doubled,
    shore_bombardment,
)
from henderson.games.firstblood.rules import artillery, japanese_air, results, victory
from henderson.games.firstblood.rules.phase import FBPhase
from henderson.games.firstblood.state import Building, Combat, FBState, enemy_of

# --- who may take part ------------------------------------------------------------


def entry_attack_allowed(st: FBState, place: str, enemy: set[str] | None = None) -> bool:
    """FB 7.5, 7.5.1: attacks out of an entry point or a box, only when every way in is blocked
    (`enemy`: the enemy's hexes, when the caller has them)."""
    board = st.board
    side = st.phasing
    if enemy is None:
        enemy = st.hexes_of(enemy_of(side))
    if side == "us" and place in board.ep_arrows:
        us_points = [ep for ep, s in board.ep_side.items() if s == "us"]
        return all(h in enemy for ep in us_points for h in board.ep_arrows[ep])  # FB 7.5
    if side == "jp" and place in board.box_arrows:
        return all(h in enemy for h in board.box_arrows[place])  # FB 7.5.1
    return False


def off_board_attackers(st: FBState, place: str) -> list[str]:
    units = [u for u in st.at(place) if u not in st.combat.attacked]
    if st.phasing == "jp" and place in st.board.box_arrows:
        # FB 7.5.1: only units that cannot go on to a box they have not been in
        nxt = st.board.box_next[place]
        units = [u for u in units if all(b in st.visited.get(u, place) for b in nxt)]
    return units


def eligible_attacker(st: FBState, unit: str, defenders: tuple[str, ...]) -> bool:
    """A ground unit of the phasing side, not yet used, next to every defending hex (FB 8.2)
    or, under FB 7.5, in an entry point or box whose arrows point to every defending hex."""
    g = st.data.ground.get(unit)
    if g is None or g.side != st.phasing or unit in st.combat.attacked:
        return False
    here = st.ground.get(unit)
    if here is None:
        return False
    board = st.board
    if board.on_map(here):
        adj = board.adj[here]
        return all(d in adj for d in defenders)
    arrows = board.ep_arrows.get(here) or board.box_arrows.get(here) or ()
    if not all(d in arrows for d in defenders) or not entry_attack_allowed(st, here):
        return False
    return unit in off_board_attackers(st, here)


def from_off_board(st: FBState, attackers: list[str] | tuple[str, ...]) -> bool:
    return any(not st.board.on_map(st.ground[u]) for u in attackers)


def eligible_ship(st: FBState, ship: str) -> bool:
    return st.phasing == "jp" and st.ships.get(ship) == "ijn_attack"  # FB 10.1.3, 10.4


def defender_sets(st: FBState) -> list[tuple[str, ...]]:
    """Every set of enemy hexes that some unused unit could attack together (FB 8.2)."""
    side = st.phasing
    board = st.board
    ground = st.data.ground
    attacked = st.combat.attacked
    enemy = st.hexes_of(enemy_of(side))
    open_enemy = enemy - st.combat.attacked_hexes
    sets: set[tuple[str, ...]] = set()
    occ, adj = st.occ, board.adj

    def ready(units: tuple[str, ...]) -> bool:
        """Units of the side in combat, not all of them used (FB 9.4)."""
        return ground[units[0]].side == side and not attacked.issuperset(units)

    def add(targets: list[str]) -> None:
        for size in range(1, len(targets) + 1):  # a unit may attack every hex next to it at once
            sets.update(combinations(targets, size))

    near: set[str] = set()  # the map hexes next to an enemy hex not yet attacked
    for h in open_enemy:
        near.update(adj[h])
    for place in near:
        units = occ.get(place)
        if units and ready(units):
            add(sorted(n for n in adj[place] if n in open_enemy))
    for arrows in (board.ep_arrows, board.box_arrows):  # FB 7.5, 7.5.1: out of an entry point or box
        for place, to in arrows.items():
            units = occ.get(place)
            if units and ready(units) and entry_attack_allowed(st, place, enemy) and off_board_attackers(st, place):
                add(sorted(h for h in to if h in open_enemy))
    return sorted(sets, key=lambda s: (len(s), s))


# --- mandatory combat -----------------------------------------------------------------


class Duties:
    """The duties of mandatory combat still open at one position (FB 8.1, 8.2): the units that
    must still attack and the hexes that must still be attacked, each in sorted order. Found
    once for the many questions one listing of the combat phase asks of them."""

    __slots__ = ("hexes", "units")

    def __init__(self, st: FBState) -> None:
        enemy = enemy_of(st.phasing)
        board = st.board
        attacked_hexes = st.combat.attacked_hexes
        self.hexes = sorted(h for h in st.combat.must_defend if st.owner_of_hex(h) == enemy and h not in attacked_hexes)
        self.units: list[str] = []
        for u in sorted(st.combat.must_attack):
            here = st.ground.get(u)
            if here is None or not board.on_map(here) or u in st.combat.attacked:
                continue
            if any(st.owner_of_hex(n) == enemy for n in board.adj[here]):
                self.units.append(u)

    def left(self, used_units: set[str], used_hexes: set[str]) -> tuple[list[str], list[str]]:
        """The duties still open after an attack using these units and hexes."""
        return [u for u in self.units if u not in used_units], [h for h in self.hexes if h not in used_hexes]


def duties_of(st: FBState) -> Duties:
    """The duties of this position (FB 8.1, 8.2), kept in `combat_duties` while the combat
    phase's actions change nothing but the attack being built (see `CombatPhase.do`)."""
    found = st.combat_duties
    if found is None:
        found = st.combat_duties = Duties(st)
    return found


def duties_problem(st: FBState, used_units: set[str], used_hexes: set[str], duties: Duties | None = None) -> str | None:
    """Why the remaining duties could not all be met after an attack using these units and
    hexes, or None (see `unmet_duty`)."""
    unmet = unmet_duty(st, used_units, used_hexes, duties)
    if unmet is None:
        return None
    unit, hex_id = unmet
    if unit is not None:
        return f"{unit} must attack this phase and would have no enemy hex left to attack"
    return f"the units in {hex_id} must be attacked this phase and no unit left could attack them"


def unmet_duty(
    st: FBState, used_units: set[str], used_hexes: set[str], duties: Duties | None = None
) -> tuple[str | None, str | None] | None:
    """The first duty that could no longer be met after an attack using these units and hexes
    (a unit, or else a hex), or None (FB 8.2). Every unit must keep an unattacked enemy hex
    next to it and every hex a free unit next to it; then single-unit or single-hex attacks
    can cover them all."""
    units, hexes = (duties or Duties(st)).left(used_units, used_hexes)
    adj, ground = st.board.adj, st.ground
    open_hexes = set(hexes)
    for u in units:
        if open_hexes.isdisjoint(adj[ground[u]]):
            return u, None
    free_hexes = {ground[u] for u in units}
    for h in hexes:
        if free_hexes.isdisjoint(adj[h]):
            return None, h
    return None


# --- the odds -------------------------------------------------------------------------


def compute_odds(st: FBState, spec: A.Attack) -> Odds:
    """Attack and defence factors, doublings, column, modifiers and distribution (FB 8.4–8.8)."""
    board = st.board
    side = st.phasing
    off_board = from_off_board(st, spec.attackers)
    ground = 0
    for u in spec.attackers:
        g = st.data.ground[u]
        if off_board and g.range is not None and side == "us":
            continue  # FB 7.5: artillery in an entry point adds nothing (but may absorb losses)
        ground += g.cf
    offered = sum(st.cf(u) for u in spec.artillery)
    defences = [(sum(st.cf(u) for u in st.at(h)), doubling(st, h, spec.attackers, off_board)) for h in spec.defenders]
    mods: list[Modifier] = []
    if any(board.terrain[h] == "jungle" for h in spec.defenders):
        mods.append(JUNGLE)
    bombers = sorted(b for b, h in st.bombing.items() if h in spec.defenders) + list(spec.air)
    if bombers:
        mods.append(bomber_support(bombers))
    if spec.ships:
        mods.append(shore_bombardment(spec.ships))
    return attack_odds(st.data.tables[side], ground, offered, defences, mods)


def doubling(st: FBState, hex_id: str, attackers: tuple[str, ...] | list[str], off_board: bool) -> Doubling | None:
    """Why the defenders of `hex_id` are doubled, or None (FB 7.5, 7.5.1, 8.7.2–8.7.5, 9.4.1)."""
    board = st.board
    if off_board:
        return doubled("entry point" if st.phasing == "us" else "box", hex_id)  # FB 7.5, 7.5.1
    sides = [board.side[(st.ground[u], hex_id)] for u in attackers]
    if not sides:
        return None
    if all(s in ("river", "ford") for s in sides):  # FB 8.7.3, 8.7.4; the ford counts as river (FB 4.4)
        return doubled("river", hex_id)
    if (
        board.terrain[hex_id] == "ridge"
        and all(board.terrain[st.ground[u]] != "ridge" for u in attackers)  # FB 8.7.2
        and all(s in ("ridge", "river", "ford") for s in sides)  # FB 8.7.5
    ):
        return doubled("ridge", hex_id)
    return None


# --- checking an attack -------------------------------------------------------------------


def check_defenders(st: FBState, defenders: tuple[str, ...]) -> None:
    enemy = enemy_of(st.phasing)
    if len(set(defenders)) != len(defenders):
        raise IllegalAction("FB 8.4", "a hex is named twice")
    for h in defenders:
        if h not in st.board.terrain:
            raise IllegalAction("FB 8.0", f"{h} is not a hex of the map")
        if st.owner_of_hex(h) != enemy:
            raise IllegalAction("FB 8.0", f"{h} holds no enemy ground units")
        if h in st.combat.attacked_hexes:
            raise IllegalAction("FB 8.4", f"{h} has already been attacked this phase")


def classify(st: FBState, b: Building, unit: str) -> str:
    """Which part of the attack `unit` may join: attacker, artillery, ship, air; IllegalAction if none."""
    if unit in b.attackers or unit in b.artillery or unit in b.ships or unit in b.air:
        raise IllegalAction("FB 9.4", f"{unit} is already in this attack")
    if unit in st.data.ground:
        if eligible_attacker(st, unit, b.defenders):
            return "attacker"
        if artillery.can_bombard(st, unit, b.defenders):
            return "artillery"
        g = st.data.ground[unit]
        if g.side != st.phasing:
            raise IllegalAction("FB 8.0", f"{unit} is not yours")
        if unit in st.combat.attacked:
            raise IllegalAction("FB 9.4", f"{unit} has already taken part in an attack this turn")
        here = st.ground.get(unit)
        if here is None:
            raise IllegalAction("FB 8.0", f"{unit} is not in play")
        board = st.board
        if not board.on_map(here):
            arrows = board.ep_arrows.get(here) or board.box_arrows.get(here) or ()
            if not all(d in arrows for d in b.defenders):
                if g.range is not None:
                    raise IllegalAction(
                        "FB 9.4.2", f"{unit} may not fire out of {here} but in an attack out of it (FB 7.5, 7.5.1)"
                    )
                raise IllegalAction(
                    "FB 7.5.2", f"attacks out of {here} may only be made on the hexes its arrows point to"
                )
            rule = "FB 7.5" if st.phasing == "us" else "FB 7.5.1"
            if not entry_attack_allowed(st, here):
                raise IllegalAction(rule, f"units attack out of {here} only when every hex its arrows point to is held")
            raise IllegalAction(
                rule, f"{unit} could still move on to a box it has not been in: it may not attack out of {here}"
            )
        if g.range is not None and artillery.adjacent_to_enemy(st, unit):
            raise IllegalAction(
                "FB 9.4", f"{unit} is next to enemy units: it attacks them, it cannot bombard elsewhere"
            )
        if g.range is not None:
            raise IllegalAction(
                "FB 9.3", f"every defending hex must be in {unit}'s range of {g.range} (counted inclusively, FB 9.2)"
            )
        raise IllegalAction(
            "FB 8.2", f"{unit} is not next to every defending hex (only artillery fires from afar, FB 9.1)"
        )
    if unit in st.data.ships:
        if eligible_ship(st, unit):
            return "ship"
        raise IllegalAction("FB 10.1.3", f"{unit} is not in the IJN Attack box: only those ships bombard the shore")
    if unit in st.data.air:
        if (
            st.phasing == "us"
            and from_off_board(st, b.attackers)
            and st.air.get(unit) == "usaf_ground_attack"
            and unit not in st.bombing
        ):
            return "air"  # FB 7.5
        raise IllegalAction(
            "FB 13.6", f"{unit} joins attacks by being placed on the Japanese stack in the movement phase"
        )
    raise IllegalAction("FB 8.0", f"no unit {unit!r}")


def check_complete(st: FBState, b: Building, duties: Duties | None = None) -> None:
    """Checks made when an attack is rolled (`duties`: the position's, when already found)."""
    if not b.attackers:
        raise IllegalAction("FB 9.5", "an attack needs at least one ground unit next to the defenders")
    if from_off_board(st, b.attackers):
        places = {st.ground[u] for u in b.attackers}
        if len(places) > 1 or any(st.board.on_map(p) for p in places):
            raise IllegalAction("FB 7.5.2", "an attack out of an entry point or box comes from that one place only")
    if b.air and not from_off_board(st, b.attackers):
        raise IllegalAction("FB 13.6", "bombers join attacks from the map by being placed in the movement phase")
    problem = duties_problem(st, set(b.attackers), set(b.defenders), duties)
    if problem:
        raise IllegalAction("FB 8.2", problem)


def building_from(st: FBState, spec: A.Attack) -> Building:
    """A complete attack checked part by part."""
    check_defenders(st, spec.defenders)
    b = Building(spec.defenders)
    for group, name in (
        (spec.attackers, "attacker"),
        (spec.artillery, "artillery"),
        (spec.ships, "ship"),
        (spec.air, "air"),
    ):
        for unit in group:
            kind = classify(st, b, unit)
            if kind != name:
                raise IllegalAction("FB 8.0", f"{unit} would join as {kind}, not as {name}")
            b = b.joined(kind, unit)
    check_complete(st, b)
    return b


# --- building an attack ---------------------------------------------------------------


def complete(st: FBState, b: Building, duties: Duties | None = None) -> bool:
    """Whether the attack being built may be rolled now: `check_complete` finds nothing, told
    without building its refusal (asked of many attacks at every listing)."""
    attackers = b.attackers
    if not attackers:
        return False  # FB 9.5
    if from_off_board(st, attackers):
        ground, on_map = st.ground, st.board.on_map
        places = {ground[u] for u in attackers}
        if len(places) > 1 or any(on_map(p) for p in places):
            return False  # FB 7.5.2
    elif b.air:
        return False  # FB 13.6
    return unmet_duty(st, set(attackers), set(b.defenders), duties) is None  # FB 8.2


def completion(st: FBState, b: Building, duties: Duties | None = None) -> list[str] | None:
    """The fewest ground units to add so that the attack can be rolled, or None if no addition
    would do. Units that would have no enemy hex left to attack must join it (FB 8.2); adding
    more only takes units from the hexes still to be attacked, so those are the answer, or,
    when there are none and no attacker yet, any one unit that keeps the other duties open."""
    defenders = b.defenders
    duties = duties or Duties(st)
    units, hexes = duties.left(set(b.attackers), set(defenders))
    open_hexes = set(hexes)
    adj, ground = st.board.adj, st.ground
    needed = [u for u in units if open_hexes.isdisjoint(adj[ground[u]])]
    if needed and not all(eligible_attacker(st, u, defenders) for u in needed):
        return None
    if b.attackers or needed:
        trials = [needed]
    else:
        trials = [[u] for u in joinable(st, defenders) if eligible_attacker(st, u, defenders)]
    for extra in trials:
        if complete(st, Building(defenders, (*b.attackers, *extra), b.artillery, b.ships, b.air), duties):
            return extra
    return None


def joinable(st: FBState, defenders: tuple[str, ...]) -> tuple[str, ...]:
    """The ground units of the phasing side that may join an attack on `defenders` as attackers
    or artillery (FB 8.2, 7.5, 9.2-9.4): they do not depend on the attack being built, so they
    are kept for each set of defenders until an action changes the position (see `do`)."""
    kept = st.joinable
    if kept is None:
        kept = st.joinable = {}
    found = kept.get(defenders)
    if found is not None:
        return found
    side = st.phasing
    found = kept[defenders] = tuple(
        unit
        for unit in sorted(_maybe_joining(st, defenders[0]))
        if st.data.ground[unit].side == side
        and (eligible_attacker(st, unit, defenders) or artillery.can_bombard(st, unit, defenders))
    )
    return found


def add_candidates(st: FBState, b: Building) -> list[str]:
    side = st.phasing
    found = [unit for unit in joinable(st, b.defenders) if unit not in b.attackers and unit not in b.artillery]
    if side == "jp":
        found.extend(s for s in sorted(st.ships) if s not in b.ships and eligible_ship(st, s))
    elif b.attackers and from_off_board(st, b.attackers):
        found.extend(
            a for a in sorted(st.air) if st.air[a] == "usaf_ground_attack" and a not in st.bombing and a not in b.air
        )
    return found


def _maybe_joining(st: FBState, target: str) -> set[str]:
    """Every ground unit that might join an attack on `target`: those next to it (FB 8.2),
    in an entry point or box with an arrow to it (FB 7.5) and every artillery unit (FB 9.2).
    The full checks follow; this only spares them the units far away."""
    board = st.board
    pool: set[str] = set()
    for n in board.adj.get(target, ()):
        pool.update(st.at(n))
    into = ("arrows into", target)
    sources = board.memo.get(into)
    if sources is None:
        sources = board.memo[into] = tuple(
            place for arrows in (board.ep_arrows, board.box_arrows) for place, to in arrows.items() if target in to
        )
    for place in sources:
        pool.update(st.at(place))
    pool.update(u for u in artillery.guns(st) if u in st.ground)
    return pool


# --- the phase ------------------------------------------------------------------------


class CombatPhase(FBPhase):
    """A combat phase: attacks declared, built and rolled (FB 8.0-10.5, 13.3, 13.6)."""

    lists_afresh = True  # `actions` builds a new list, or copies the one kept

    def enter(self, st: FBState, events: list[Event]) -> None:
        side = st.phasing
        enemy_hexes = st.hexes_of(enemy_of(side))
        st.combat_listing = st.joinable = st.combat_duties = None  # what the last combat phase kept
        must_attack: set[str] = set()
        must_defend: set[str] = set()
        for h in st.hexes_of(side):  # FB 8.1: opposing units adjacent at the start of the phase
            foes = [n for n in st.board.adj[h] if n in enemy_hexes]
            if foes:
                must_attack.update(st.at(h))
                must_defend.update(foes)
        st.combat = Combat(must_attack=frozenset(must_attack), must_defend=frozenset(must_defend))

    def actions(self, st: FBState) -> list[Action]:
        """The legal actions, in an order in which always taking the first finishes the phase: an
        attack that can be resolved first, and while building one, `resolve` when it is allowed,
        else the next unit it needs, with `cancel` last."""
        b = st.combat.building
        if b is None and st.combat_listing is not None:
            return list(st.combat_listing)  # the same position: no combat action since
        duties = duties_of(st)  # asked of every attack weighed here
        if b is not None:
            acts: list[Action] = []
            candidates = add_candidates(st, b)
            if complete(st, b, duties):
                acts.append(A.Resolve())
            else:
                extra = completion(st, b, duties)
                if extra and extra[0] in candidates:
                    candidates.remove(extra[0])
                    candidates.insert(0, extra[0])
            acts.extend(A.Add(unit) for unit in candidates)
            acts.append(A.Cancel())
            return acts
        sets = defender_sets(st)
        first = next((i for i, d in enumerate(sets) if completion(st, Building(d), duties) is not None), 0)
        if first:
            sets.insert(0, sets.pop(first))  # an attack that can be rolled comes first
        acts = [A.Attack(d) for d in sets]
        if st.phasing == "jp":
            acts.extend(japanese_air.missions(st))
            acts.extend(japanese_air.bombardments(st))
        st.combat_listing = tuple(acts)
        return acts

    def accepts(self, st: FBState, action: Action) -> bool:
        """A whole attack, checked part by part; an air mission or bombardment naming any of
        identical counters (FB 10.3, 13.3)."""
        if isinstance(action, A.Attack) and action.attackers and st.combat.building is None:
            building_from(st, action)
            return True
        return japanese_air.accepts(st, action)

    def explain(self, st: FBState, action: Action) -> IllegalAction:
        try:
            if isinstance(action, A.Attack):
                if st.combat.building is not None:
                    return IllegalAction("FB 8.10", "finish the attack being built first (resolve or cancel)")
                check_defenders(st, action.defenders)
                return IllegalAction(
                    "FB 8.2", f"no unit of yours that has not attacked is next to all of {'+'.join(action.defenders)}"
                )
            if isinstance(action, A.Add):
                if st.combat.building is None:
                    return IllegalAction("FB 8.0", "open an attack first ('attack HEX')")
                classify(st, st.combat.building, action.unit)
            if isinstance(action, A.Resolve):
                if st.combat.building is None:
                    return IllegalAction("FB 8.0", "no attack is being built")
                check_complete(st, st.combat.building)
            if isinstance(action, A.Cancel) and st.combat.building is None:
                return IllegalAction("FB 8.0", "no attack is being built")
            if isinstance(action, A.AirMission | A.Bombard):
                if st.combat.building is not None:
                    return IllegalAction("FB 8.10", "finish the attack being built first (resolve or cancel)")
                return japanese_air.explain(st, action)
        except IllegalAction as exc:
            return exc
        return super().explain(st, action)

    def do(self, st: FBState, action: Action, events: list[Event]) -> None:
        # Any action of the phase may change the position, so the listing kept for it is
        # dropped; only opening an attack, adding to it and cancelling it change nothing but
        # the attack being built, so the listing of the position from before it is kept, and
        # with it the duties and the units found able to join attacks.
        kept, st.combat_listing = st.combat_listing, None
        units, st.joinable = st.joinable, None
        duties, st.combat_duties = st.combat_duties, None
        if isinstance(action, A.Attack):
            if action.attackers:
                b = building_from(st, action)
                results.resolve(st, b, compute_odds(st, b.spec()), events)
            else:
                st.combat_listing, st.joinable, st.combat_duties = kept, units, duties
                st.combat = st.combat.with_building(Building(action.defenders))
                events.append(
                    Event(
                        "attack",
                        f"attack on {'+'.join(action.defenders)} opened",
                        {"defenders": list(action.defenders)},
                    )
                )
        elif isinstance(action, A.Add):
            st.combat_listing, st.joinable, st.combat_duties = kept, units, duties
            building = st.combat.building
            assert building is not None
            kind = classify(st, building, action.unit)
            st.combat = st.combat.with_building(building.joined(kind, action.unit))
        elif isinstance(action, A.Resolve):
            built = st.combat.building
            assert built is not None
            st.combat = st.combat.with_building(None)
            results.resolve(st, built, compute_odds(st, built.spec()), events)
        elif isinstance(action, A.Cancel):
            st.combat = st.combat.with_building(None)
            # the position before the attack was opened
            st.combat_listing, st.joinable, st.combat_duties = kept, units, duties
            events.append(Event("attack", "attack cancelled"))
        elif isinstance(action, A.AirMission):
            japanese_air.fly(st, action, events)
        elif isinstance(action, A.Bombard):
            japanese_air.bombard(st, action, events)

    def may_end(self, st: FBState) -> bool:
        """`end_blocker` finds nothing (FB 8.10, 8.2), told without building the refusal."""
        if st.combat.building is not None:
            return False
        duties = duties_of(st)
        return not duties.units and not duties.hexes

    def end_blocker(self, st: FBState) -> IllegalAction | None:
        if st.combat.building is not None:
            return IllegalAction("FB 8.10", "finish the attack being built first (resolve or cancel)")
        units, hexes = duties_of(st).left(set(), set())
        if units:
            return IllegalAction("FB 8.2", f"all units in an enemy zone of control must attack ({', '.join(units)})")
        if hexes:
            return IllegalAction(
                "FB 8.2", f"all enemy units in your zone of control must be attacked ({', '.join(hexes)})"
            )
        return None

    def leave(self, st: FBState, events: list[Event]) -> None:
        """End of a combat phase: FB 6.4.1, and for the US FB 13.6 and 12.6.2."""
        side = st.phasing
        for unit, where in sorted(st.ground.items()):
            if where in st.board.ep_arrows and st.data.ground[unit].side == side:
                st.eliminate(unit, "FB 6.4.1", f"unable to enter the map from entry point {where}", events)
        if side == "us":
            st.bombing.clear()  # FB 13.6: bombers back to the Ground Attack box
            if st.inverted:
                events.append(Event("air", f"US air units turned face up: {', '.join(sorted(st.inverted))} (FB 13.6)"))
            st.inverted = frozenset()
            victory.check_airfields(st, "FB 12.6.2", events)
        st.combat = replace(st.combat, must_attack=frozenset(), must_defend=frozenset())


PHASE = CombatPhase()
