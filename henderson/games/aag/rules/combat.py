"""Phase 2 Combat, steps 1, 2 and 4 (AAG Combat Sequence, How to Attack, Ranged Fire): who
can fire at what in a zone, and the step in which the first player picks the zones one at a
time (`fight ZONE`). The battle fought in each zone is `battle.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from henderson.core.errors import IllegalAction
from henderson.core.events import Event
from henderson.games.aag.actions import ROLL, Action, act
from henderson.games.aag.model import SUPPLY, Advantage, other
from henderson.games.aag.pieces import Piece
from henderson.games.aag.rules import battle
from henderson.games.aag.rules.base import AagPhase
from henderson.games.aag.rules.common import is_cargo

if TYPE_CHECKING:
    from henderson.games.aag.state import AAGState, Airfield


def targets(state: AAGState, side: str, zone: str, cat: str) -> list[Piece]:
    """Enemy units of category `cat` in `zone` that can be fired upon."""
    if cat == "land" and not state.data.board.is_island(zone):
        return []
    kinds = state.data.category_kinds.get(cat, frozenset())  # units of the category, no supply token
    # `is_cargo` read inline: a fighter aboard a carrier is fired upon, cargo is not
    enemy = other(side)
    return [
        p for p in state.here(zone) if p.side == enemy and p.type in kinds and (p.aboard is None or p.type == "fighter")
    ]


def enemy_airfields(state: AAGState, side: str, zone: str) -> list[Airfield]:
    return [a for a in state.airfields if a.island == zone and a.side != side]


def own_attackers(state: AAGState, side: str, zone: str, cat: str) -> list[Piece]:
    """Units in the zone adding dice against `cat` (land units only attack on an island)."""
    out = []
    only_unloaded = assault(state, zone)
    for p in state.here(zone):
        if p.side != side or p.type == SUPPLY or is_cargo(p) or (only_unloaded and not p.unloaded):
            continue
        if state.data.units[p.type].attack[cat] > 0:
            out.append(p)
    return out


def assault(state: AAGState, zone: str) -> bool:
    """True during an Amphibious Assault on `zone`: only units unloaded there this turn
    attack, against land units only, with no return fire (AAG Appendix 1)."""
    fought = state.battle
    return fought is not None and fought.assault and fought.zone == zone


def ranged_candidates(state: AAGState, side: str, zone: str, cat: str) -> list[Piece]:
    """Ranged fire into 1 adjacent zone per turn: artillery into a sea zone (AAG Artillery),
    cruisers and battleships into an island zone (AAG Cruiser, Battleship)."""
    board = state.data.board
    out: list[Piece] = []
    if assault(state, zone):
        return out
    if cat == "sea" and zone in board.seas:
        for island in board.land_zones_by_sea(zone):
            out += [
                p
                for p in state.here(island)
                if p.side == side and p.type == "artillery" and not is_cargo(p) and (not p.fired or p.joined)
            ]
    if cat == "land" and board.is_island(zone):
        for sea in board.islands[zone].seas:
            out += [
                p
                for p in state.here(sea)
                if p.side == side and p.type in ("cruiser", "battleship") and (not p.fired or p.joined)
            ]
    return sorted(out, key=lambda p: (p.side, int(p.id[2:])))


def can_attack(state: AAGState, side: str, zone: str, cat: str, has_targets: bool | None = None) -> bool:
    """True when `side` has something to fire at in `zone` and dice to fire with (the targets
    looked for first: most zones hold none, and then the attackers need no listing).
    `has_targets`: whether `targets` finds any, when already known. Only air units and
    ranged ships may attack airfields (AAG Combat step 4). The units are looked for, never
    listed: the first that may fire answers (`own_attackers`, `ranged_candidates`)."""
    if targets(state, side, zone, cat) if has_targets is None else has_targets:
        return _any_attacker(state, side, zone, cat, land_too=True) or _any_ranged(state, side, zone, cat)
    if cat == "land" and not assault(state, zone) and any(not a.damaged for a in enemy_airfields(state, side, zone)):
        # the ranged candidates against an island are ships: each may attack airfields
        return _any_attacker(state, side, zone, cat, land_too=False) or _any_ranged(state, side, zone, cat)
    return False


def _any_attacker(state: AAGState, side: str, zone: str, cat: str, *, land_too: bool) -> bool:
    """Whether `own_attackers` finds any (with `land_too` false: any but a land unit); the
    types that add dice read from a table (`GameData.attackers`), `is_cargo` inline."""
    only_unloaded = assault(state, zone)
    able = state.data.attackers[cat][0 if land_too else 1]
    for p in state.here(zone):
        cargo = p.aboard is not None and p.type != "fighter"
        if p.side == side and p.type in able and not cargo and (p.unloaded or not only_unloaded):
            return True
    return False


def _any_ranged(state: AAGState, side: str, zone: str, cat: str) -> bool:
    """Whether `ranged_candidates` finds any."""
    if assault(state, zone):
        return False
    board = state.data.board
    if cat == "sea" and zone in board.seas:
        for island in board.land_zones_by_sea(zone):
            for p in state.here(island):
                if p.side == side and p.type == "artillery" and not is_cargo(p) and (not p.fired or p.joined):
                    return True
    if cat == "land" and board.is_island(zone):
        for sea in board.islands[zone].seas:
            for p in state.here(sea):
                if p.side == side and p.type in ("cruiser", "battleship") and (not p.fired or p.joined):
                    return True
    return False


def zones_to_fight(state: AAGState, cat: str) -> list[str]:
    """Zones where either side can fire on `cat` units, not yet resolved in this step."""
    return list(fights(state, cat)[0])


def fights(state: AAGState, cat: str) -> tuple[list[str], list[str]]:
    """The zones to fight (`zones_to_fight`) and among them those where the first player
    can fire (`zones_to_choose`), found once while the legal actions are listed."""
    found = state.findings()
    if found is not None and cat in found.fights:
        return found.fights[cat]
    state.build_index()  # kept up to date as pieces change
    one, two = state.first, state.second
    exposed = zones_exposed(state, cat)
    mine, theirs = exposed.get(one, set()), exposed.get(two, set())
    fields = {a.island for a in state.airfields if not a.damaged} if cat == "land" else set()
    to_fight: list[str] = []
    chosen: list[str] = []
    resolved = state.resolved
    for z in state.data.board.combat_zones[cat]:
        if z in resolved:
            continue
        one_exposed, two_exposed = z in mine, z in theirs
        if not (one_exposed or two_exposed or z in fields):
            continue
        first = can_attack(state, one, z, cat, two_exposed)
        if first or can_attack(state, two, z, cat, one_exposed):
            to_fight.append(z)
            if first:
                chosen.append(z)
    if found is not None:
        found.fights[cat] = (to_fight, chosen)
    return to_fight, chosen


def zones_exposed(state: AAGState, cat: str) -> dict[str, set[str]]:
    """By side, the zones where it has a unit of category `cat` that can be fired upon: the
    other side finds `targets` in such a zone exactly when it is in the side's set (islands
    aside for land units, whose targets are only on islands)."""
    state.build_index()
    assert state.index is not None
    by_kind = state.index.by_kind
    found: dict[str, set[str]] = {}
    for kind in state.data.kinds_by_category.get(cat, ()):
        for p in by_kind.get(kind, ()):
            if p.aboard is None or p.type == "fighter":  # `is_cargo` inline
                found.setdefault(p.side, set()).add(p.zone)
    return found


def zones_to_choose(state: AAGState, cat: str) -> list[str]:
    """The zones the first player picks (`fight ZONE`): those where the first player can fire.

    AAG Combat Sequence: "the first player chooses the order in which zones are resolved".
    A zone where only the other side can fire (the first player has nothing there, or
    nothing able to fire) is no choice of the first player's: it is fought by itself once
    the first player's zones are done (`automatic_zone`), so nobody is asked to `fight`
    where they have nothing to fight with."""
    return list(fights(state, cat)[1])


def automatic_zone(state: AAGState, cat: str) -> str | None:
    """The zone fought by itself now: the first of those where only the other side can
    fire, once no zone is left for the first player to pick."""
    if state.battle is not None or state.pending:
        return None
    legal = state.listed()  # listed once, kept for the caller
    if any(a.verb == "fight" for a in legal) or state.end_action in legal:  # a choice, or no zone left
        return None
    return next(iter(zones_to_fight(state, cat)), None)


def must_fight(state: AAGState, cat: str) -> IllegalAction | None:
    """Why a combat step may not end yet: a zone where either side can fire is left."""
    zones = zones_to_fight(state, cat)
    if not zones:
        return None
    return IllegalAction(
        state.current_step.rule,
        f"combat is resolved in each zone with opposing units: {', '.join(zones)} still to fight (fight ZONE)",
    )


def attack_power(state: AAGState, side: str, zone: str, cat: str) -> tuple[int, int]:
    """(dice against units, dice against airfields) for `side`'s attack as declared now.

    AAG Determine Total Attack Power: the units in the zone, plus the ranged units that
    have joined this attack (a ranged unit that has not joined adds nothing); an air unit or
    ship aimed at the airfields adds its dice to the airfield attack only (AAG Combat step 4:
    "It can't attack both"). Joins and aims belong to the attack being declared, so they
    count only in that zone and category."""
    fought = state.battle
    declared = fought is not None and fought.zone == zone and fought.category == cat
    units = own_attackers(state, side, zone, cat)
    if declared:
        units += [p for p in ranged_candidates(state, side, zone, cat) if p.joined]
    vs_units = sum(state.data.units[p.type].attack[cat] for p in units if not (declared and p.aimed))
    vs_fields = sum(state.data.units[p.type].attack[cat] for p in units if declared and p.aimed)
    return vs_units, vs_fields


def dice_against_units(state: AAGState, side: str, zone: str, cat: str) -> int:
    """The dice `side`'s roll will use against `cat` units in `zone`: none when there is no
    enemy unit of that category to fire upon (an attack on airfields alone)."""
    if not targets(state, side, zone, cat):
        return 0
    return attack_power(state, side, zone, cat)[0]


def modifiers(state: AAGState, side: str, zone: str, cat: str) -> tuple[bool, bool]:
    """(Night Fighting, Banzai Charge) in force for `side`'s attack on `cat` in `zone`
    (AAG Appendix 1: a 2 against sea units destroys like a 1; a 3 against land units hits)."""
    night = cat == "sea" and state.in_force(Advantage.NIGHT_FIGHTING, side, zone=zone) is not None
    banzai = cat == "land" and state.in_force(Advantage.BANZAI_CHARGE, side, zone=zone) is not None
    return night, banzai


def step_category(state: AAGState) -> str:
    """The category of units the current combat step attacks (`params` in sequence.toml)."""
    return str(state.current_step.params["category"])


class CombatStep(AagPhase):
    """AAG Combat steps 1, 2 and 4: the first player picks the zones where either side can
    fire on units of the step's category, one at a time; both sides attack in each, and the
    casualties are removed after both (`battle.py`). The step ends when none is left."""

    def actions(self, state: AAGState) -> list[Action]:  # type: ignore[override]
        return [act("fight", z) for z in zones_to_choose(state, step_category(state))]

    def forced(self, state: AAGState) -> Action | None:
        zone = automatic_zone(state, step_category(state))
        return act("fight", zone) if zone is not None else battle.forced_roll(state)

    def do(self, state: AAGState, action: Action, events: list[Event]) -> None:  # type: ignore[override]
        if action == ROLL:
            battle.roll_attack(state, events)
        else:
            battle.open_battle(state, action.args[0], step_category(state), events)

    def may_end(self, state: AAGState) -> bool:
        """`must_fight` finds nothing, said without building the refusal (asked at every listing)."""
        return not fights(state, step_category(state))[0]

    def end_blocker(self, state: AAGState) -> IllegalAction | None:
        return must_fight(state, step_category(state))

    def leave(self, state: AAGState, events: list[Event]) -> None:
        state.resolved = []


PHASE = CombatStep()
