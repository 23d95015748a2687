"""Why an action is refused: the rule that forbids it, in a plain sentence.

`explain` is called only for an action that is not legal now. It looks for the first
reason in the order a player would: the step (is this verb played now?), the pieces and
zones named (do they exist, are they yours, is a unit damaged?), and then the rule of the
verb itself (adjacency, range, room aboard, points, supplies...). Under the hidden-movement
option nothing the other side has written in secret is ever named: a unit of the other
side is refused as "not yours" before any of its flags are read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from henderson.core.errors import IllegalAction
from henderson.games.aag.actions import TOKEN_ARGS, Action
from henderson.games.aag.model import CATEGORIES, SUPPLY, Advantage, Token, other
from henderson.games.aag.pieces import Piece
from henderson.games.aag.state import HitChoice

if TYPE_CHECKING:
    from henderson.games.aag.state import AAGState

DAMAGED = "AAG Damaging and Destroying Units"
# when each verb is played, for the refusal of a verb out of its step
VERB_WHEN = {
    "load": (
        "AAG Movement step 1",
        "in Movement steps 1 and 5, before the transport or destroyer moves, and at your base in "
        "Reinforce, Repair and Deploy",
    ),
    "move": ("AAG Movement Sequence", "in the Movement phase, each unit type in its own step"),
    "torpedo": ("AAG Movement step 6", "in Movement step 6 (Hidden Movement step 3 with hidden movement)"),
    "fight": ("AAG Combat Sequence", "by the first player in Combat steps 1, 2 and 4, one zone at a time"),
    "join": ("AAG Determine Total Attack Power", "while an attack is declared in a Combat step"),
    "aim": ("AAG Combat step 4", "while an attack on an island is declared in Combat step 4"),
    "roll": ("AAG How to Attack", "once an attack is declared in a Combat step"),
    "hit": ("AAG Loss of Cargo", "when a hit falls on one of several units that differ"),
    "unload": ("AAG Combat step 3", "in Combat step 3 (Unload Transports and Destroyers)"),
    "land": ("AAG Regroup step 2", "in Regroup step 2 (Land Air Units)"),
    "build": ("AAG Regroup step 3", "in Regroup step 3 (Build Airfields)"),
    "buy": ("AAG Reinforce", "in Regroup step 4, Reinforce"),
    "repair": ("AAG Repair", "in Regroup step 4, Repair"),
    "deploy": ("AAG Deploy", "in Regroup step 4, Deploy"),
}


def explain(state: AAGState, action: Action) -> IllegalAction:
    """The refusal of `action` (not legal now), naming the rule that forbids it."""
    try:
        _explain(state, action)
    except IllegalAction as exc:
        return exc
    verbs = sorted({a.verb for a in state.legal_actions()})
    return IllegalAction(
        rule_of_step(state),
        f"{action} is not legal now ({now(state)}); {state.current_player()} may: {', '.join(verbs)}",
    )


def rule_of_step(state: AAGState) -> str:
    return state.current_step.rule


def now(state: AAGState) -> str:
    return f"now: {step_name(state, state.step)}, {state.current_player()} to act"


def step_name(state: AAGState, step: str) -> str:
    """The step as the rulebook names it (with hidden movement, bombers and fighters move in
    Hidden Movement steps 4 and 5: the step's `params.hidden_name`)."""
    found = state.game.step_by_id(step)
    if found is None:
        return step
    if state.options.get("hidden_movement") and "hidden_name" in found.params:
        return str(found.params["hidden_name"])
    return found.name


def step_unit(state: AAGState) -> str | None:
    """The unit type the current movement step moves, if it is one."""
    unit = state.current_step.params.get("unit")
    return None if unit is None else str(unit)


def step_category(state: AAGState) -> str | None:
    """The category the current combat step attacks, if it is one."""
    cat = state.current_step.params.get("category")
    return None if cat is None else str(cat)


def hit_choice(state: AAGState) -> HitChoice | None:
    """The hit a player must assign now, if any."""
    decision = state.pending[-1] if state.pending else None
    return decision if isinstance(decision, HitChoice) else None


def _explain(state: AAGState, action: Action) -> None:
    verb = action.verb
    choice = hit_choice(state)
    if choice is not None and verb != "hit":
        raise IllegalAction(
            "AAG Loss of Cargo",
            f"first {choice.side} chooses which {choice.type} takes the hit of the "
            f"{choice.value} (hit UNIT: {', '.join(choice.candidates)})",
        )
    for arg in action.args:
        for uid in arg.split(","):
            if uid[:2] in ("us", "jp") and uid[2:].isdigit() and uid not in state.pieces:
                raise IllegalAction(rule_of_step(state), f"there is no unit {uid}")
    handler = HANDLERS.get(verb)
    if handler is not None:
        handler(state, action)


# --- shared checks ---------------------------------------------------------------------


def not_now(state: AAGState, verb: str) -> IllegalAction:
    rule, when = VERB_WHEN[verb]
    return IllegalAction(rule, f"'{verb}' is played {when}; {now(state)}")


def own(state: AAGState, uid: str, rule: str) -> Piece:
    """The piece `uid` of the side to act, sound (not in its base's damaged area)."""
    p = state.pieces[uid]
    side = state.current_player()
    if p.side != side:
        raise IllegalAction(rule, f"{uid} is not yours: it is {p.side}'s ({side} acts now)")
    if p.damaged:
        raise IllegalAction(
            DAMAGED,
            f"{uid} is damaged: it stays in the damaged area of its base until you spend 1 supply "
            "token to repair it in Regroup",
        )
    return p


def zone_named(state: AAGState, zone: str, rule: str) -> None:
    if zone not in state.data.board.zone_ids():
        raise IllegalAction(rule, f"there is no zone {zone!r}")


def enemy_base(state: AAGState, zone: str) -> None:
    if zone in state.enemy_base_zones(state.current_player() or ""):
        raise IllegalAction("AAG Base Cards", f"{zone} is on the enemy's base card: no unit enters it (ruling 1)")


def land_or_supply(state: AAGState, p: Piece) -> bool:
    return p.type == SUPPLY or state.data.units[p.type].category == "land"


def an(kind: str) -> str:
    """The unit type with its article: "an infantry", "a cruiser"."""
    return f"{'an' if kind[:1] in 'aeiou' else 'a'} {kind}"


def listing(zones: Sequence[str]) -> str:
    return ", ".join(zones) if zones else "no island zone"


def supplies_text(n: int) -> str:
    return "none" if n == 0 else f"{n}"


# --- Movement ------------------------------------------------------------------------


def moving_types(state: AAGState) -> tuple[str, ...]:
    """The unit types the side to act moves in this step."""
    step, side = state.step, state.current_player() or ""
    kind = step_unit(state)
    if kind is not None:
        return (kind, "pt_boat") if kind == "destroyer" else (kind,)
    if step == "move:deferred":
        kinds = tuple(state.deferred.get(side, ()))
        return (*kinds, "pt_boat") if "destroyer" in kinds else kinds
    if step == "hidden:orders":
        return tuple(k for k, u in state.data.units.items() if u.category == "sea")
    return ()


def check_type_moves_now(state: AAGState, p: Piece, verb: str) -> None:
    """The unit's type moves in this step (AAG Movement Sequence; Coast Watchers; hidden)."""
    side = state.current_player() or ""
    if p.type in moving_types(state):
        return
    if step_unit(state) is not None and p.type in state.deferred.get(side, ()):
        raise IllegalAction(
            "AAG Appendix 1 Coast Watchers",
            f"your {p.type}s move after all other units this turn (Coast Watchers)",
        )
    hidden = bool(state.options.get("hidden_movement"))
    if hidden and state.category(p) == "sea":
        where = "Hidden Movement step 2 (Hidden Sea Movement), by written order"
    elif hidden and p.type == "bomber":
        where = "Hidden Movement step 4 (Move Bombers)"
    elif hidden and p.type == "fighter":
        where = "Hidden Movement step 5 (Move Fighters)"
    else:
        found = state.game.movement_step_of(p.type)
        where = "no step" if found is None else found.name
    raise IllegalAction("AAG Movement Sequence", f"{p.type}s {verb} in {where}; {now(state)}")


def explain_move(state: AAGState, action: Action) -> None:
    step = state.step
    if (step_unit(state) is None and step not in ("move:deferred", "hidden:orders")) or state.battle is not None:
        raise not_now(state, "move")
    dest = action.args[0]
    zone_named(state, dest, "AAG Phase 1 Movement")
    board = state.data.board
    for uid in action.args[1].split(","):
        p = own(state, uid, "AAG Phase 1 Movement")
        cat = state.category(p)
        if p.aboard is not None and cat == "land":
            raise IllegalAction("AAG Land unit", f"{uid} is aboard {p.aboard}: it moves only with its ship")
        if cat == "land":
            raise IllegalAction(
                "AAG Land unit", f"{uid} is {an(p.type)}: land units move only by transport or destroyer"
            )
        check_type_moves_now(state, p, "move")
        if p.fired and p.type == "submarine":
            raise IllegalAction(
                "AAG Movement step 6", f"{uid} has made its torpedo attack: its move came first (ruling 9)"
            )
        if p.moved:
            what = "has an order already" if step == "hidden:orders" else "has already moved this turn"
            raise IllegalAction("AAG Phase 1 Movement", f"{uid} {what}")
        enemy_base(state, dest)
        if dest == p.zone:
            raise IllegalAction("AAG Phase 1 Movement", f"{uid} is in {dest} already: to stay, do not move it")
        if cat == "sea":
            if not board.is_sea(dest):
                raise IllegalAction("AAG Sea Units", f"{dest} is not a sea zone: sea units never enter island zones")
            if dest not in board.sea_graph.get(p.zone, ()):
                raise IllegalAction(
                    "AAG Examples of Sea Movement",
                    f"{dest} is not one sea move from {p.zone} (a sea unit moves 1 sea zone, never across an island)",
                )
        if cat == "air":
            rng = state.air_range(p)
            d = board.air_distances(p.zone, state.enemy_base_zones(p.side)).get(dest)
            if d is None or d > rng:
                far = "out of reach" if d is None else f"{d} zones away"
                raise IllegalAction(
                    f"AAG Units {p.type.capitalize()}",
                    f"{dest} is {far} from {p.zone}, beyond {uid}'s range of {rng}",
                )


def explain_load(state: AAGState, action: Action) -> None:
    step, side = state.step, state.current_player() or ""
    at_base = state.current_step.phase.startswith("reinforce:")  # Reinforce, Repair, Deploy
    kinds = ("transport", "destroyer") if step == "hidden:load" else moving_types(state)
    moving = step_unit(state) is not None or step in ("hidden:load", "move:deferred")
    loading = at_base or (moving and state.battle is None)
    if not loading:
        raise not_now(state, "load")
    rule = "AAG Reinforce" if at_base else "AAG Movement step 1"
    ship = own(state, action.args[0], rule)
    cargo = state.pieces[action.args[1]]
    ut = state.data.units.get(ship.type)
    if ut is None or (ut.cargo == 0 and "flight_deck" not in ut.abilities):
        raise IllegalAction(
            "AAG Transport",
            f"{ship.id} is {an(ship.type)}: transports (2) and destroyers (1) carry land units and "
            "supplies, aircraft carriers fighters",
        )
    if ship.type == "carrier" and not at_base:
        raise IllegalAction(
            "AAG Reinforce",
            "fighters board a carrier at your base in Reinforce, Repair and Deploy, or land on it in Regroup step 2",
        )
    if not at_base and ship.type not in kinds:
        step_of = "Movement step 1" if ship.type == "transport" else "Movement step 5"
        raise IllegalAction(rule, f"{ship.type}s load in {step_of}; {now(state)}")
    if cargo.side != side:
        raise IllegalAction(rule, f"{cargo.id} is not yours: it is {cargo.side}'s")
    if ship.type == "carrier":
        if cargo.type != "fighter":
            raise IllegalAction("AAG Aircraft Carrier", f"a carrier takes fighters only, not {an(cargo.type)}")
    elif not land_or_supply(state, cargo):
        raise IllegalAction("AAG Transport", f"{ship.type}s carry land units and supplies, not {an(cargo.type)}")
    if cargo.aboard is not None:
        raise IllegalAction(rule, f"{cargo.id} is already aboard {cargo.aboard}")
    if at_base:
        base_sea, base_land = state.base_sea(side), state.base_land(side)
        if ship.zone != base_sea:
            raise IllegalAction(
                rule,
                f"{ship.id} is in {ship.zone}: in Regroup ships load only in {base_sea}, on your base card",
            )
        if cargo.zone != base_land:
            raise IllegalAction(rule, f"{cargo.id} is in {cargo.zone}: in Regroup ships load units from {base_land}")
    else:
        if ship.moved:
            raise IllegalAction(
                "AAG Movement step 1" if ship.type == "transport" else "AAG Movement step 5",
                f"{ship.id} has moved: transports and destroyers may not load after moving",
            )
        near = state.data.board.land_zones_by_sea(ship.zone)
        if cargo.zone not in near:
            raise IllegalAction(
                rule,
                f"{cargo.id} is in {cargo.zone}, not in an island zone next to {ship.zone}: "
                f"{ship.id} loads from {listing(near)}",
            )
    if ship.type == "carrier":
        room = state.data.rules.carrier_capacity - len(state.fighters_aboard(ship))
        if room <= 0:
            raise IllegalAction(
                "AAG Aircraft Carrier", f"{ship.id} carries {state.data.rules.carrier_capacity} fighters already"
            )
    elif len(state.land_cargo(ship)) >= ut.cargo:
        raise IllegalAction(f"AAG {ship.type.capitalize()}", f"{ship.id} has {ut.cargo} space(s), all taken")


def explain_torpedo(state: AAGState, action: Action) -> None:
    step, side = state.step, state.current_player() or ""
    deferred_subs = step == "move:deferred" and "submarine" in state.deferred.get(side, ())
    if step not in ("move:submarine", "hidden:torpedo") and not deferred_subs:
        raise not_now(state, "torpedo")
    rule = "AAG Movement step 6"
    sub = own(state, action.args[0], rule)
    if sub.type != "submarine":
        raise IllegalAction(rule, f"{sub.id} is {an(sub.type)}: only submarines make torpedo attacks")
    if step == "move:submarine" and "submarine" in state.deferred.get(side, ()):
        raise IllegalAction(
            "AAG Appendix 1 Coast Watchers", "your submarines move and attack after all other units this turn"
        )
    if sub.fired:
        raise IllegalAction(rule, f"{sub.id} has made its torpedo attack this turn")
    target = state.pieces[action.args[1]]
    if target.side == side:
        raise IllegalAction(rule, f"{target.id} is your own unit")
    if target.damaged:
        raise IllegalAction(DAMAGED, f"{target.id} is in the damaged area of its base, off the board")
    if state.category(target) != "sea" or target.aboard is not None:
        raise IllegalAction(rule, f"{target.id} is {an(target.type)}: a torpedo attack is made on a sea unit")
    if target.zone != sub.zone:
        raise IllegalAction(rule, f"{target.id} is in {target.zone}, not in {sub.zone} with the submarine")
    if target.hit == "destroyed":
        raise IllegalAction(rule, f"{target.id} is destroyed already (removed when your submarines are done)")


# --- Combat ----------------------------------------------------------------------------


def explain_fight(state: AAGState, action: Action) -> None:
    cat = step_category(state)
    if cat is None:
        raise not_now(state, "fight")
    if state.battle is not None:
        raise IllegalAction(
            "AAG Combat Sequence", f"the attack in {state.battle.zone} is being declared: roll it first"
        )
    zone = action.args[0]
    rule = state.current_step.rule
    zone_named(state, zone, rule)
    board = state.data.board
    if zone not in board.seas and zone not in board.islands:
        raise IllegalAction(rule, f"{zone} is on a base card: combat happens in the zones of the game board")
    if cat == "sea" and zone not in board.seas:
        raise IllegalAction(rule, f"{zone} is an island: sea units are attacked in sea zones")
    if cat == "land" and zone not in board.islands:
        raise IllegalAction(rule, f"{zone} is a sea zone: land units and airfields are attacked on islands")
    if zone in state.resolved:
        raise IllegalAction(rule, f"{cat} combat in {zone} is over for this step")
    from henderson.games.aag.rules import combat

    if zone in combat.zones_to_fight(state, cat):
        raise IllegalAction(
            "AAG Combat Sequence",
            f"{state.first} has nothing to fire with in {zone}: only {state.second} attacks there, "
            f"and that is fought by itself once the zones where {state.first} can fire are done",
        )
    raise IllegalAction(rule, f"no side can fire on {cat} units{' or airfields' if cat == 'land' else ''} in {zone}")


def explain_join(state: AAGState, action: Action) -> None:
    from henderson.games.aag.rules import combat

    battle = state.battle
    if battle is None:
        raise not_now(state, "join")
    zone, cat = battle.zone, battle.category
    rule = "AAG Determine Total Attack Power"
    p = own(state, action.args[0], rule)
    if combat.assault(state, zone):
        raise IllegalAction(
            "AAG Appendix 1 Amphibious Assault", "only the units unloaded on the island this turn make this attack"
        )
    ranged = {"sea": ("artillery",), "land": ("cruiser", "battleship")}.get(cat, ())
    if p.type not in ranged:
        only = {
            "sea": "only artillery fires into an adjacent sea zone",
            "land": "only cruisers and battleships fire into an adjacent island zone",
            "air": "no unit fires at air units in another zone",
        }[cat]
        raise IllegalAction(rule, f"{an(p.type)} adds its dice only in its own zone: {only} (Ranged Fire)")
    unit_rule = "AAG Artillery" if p.type == "artillery" else f"AAG {p.type.capitalize()}"
    if p.aboard is not None:
        raise IllegalAction(unit_rule, f"{p.id} is aboard {p.aboard}: artillery fires from an island zone")
    board = state.data.board
    near = (
        board.islands[p.zone].seas
        if board.is_island(p.zone)
        else [i for i, isl in board.islands.items() if p.zone in isl.seas]
    )
    if zone not in near:
        raise IllegalAction(unit_rule, f"{p.id} in {p.zone} is not next to {zone}")
    if p.joined:
        raise IllegalAction(unit_rule, f"{p.id} has joined this attack already")
    if p.fired:
        raise IllegalAction(unit_rule, f"{p.id} has fired into another zone this turn: 1 adjacent zone each turn")


def explain_aim(state: AAGState, action: Action) -> None:
    from henderson.games.aag.rules import combat

    battle = state.battle
    if battle is None or battle.category != "land":
        raise not_now(state, "aim")
    zone = battle.zone
    rule = "AAG Combat step 4"
    p = own(state, action.args[0], rule)
    if combat.assault(state, zone):
        raise IllegalAction(
            "AAG Appendix 1 Amphibious Assault", "an Amphibious Assault attacks land units only (ruling 20)"
        )
    if not any(not a.damaged for a in combat.enemy_airfields(state, p.side, zone)):
        raise IllegalAction(rule, f"{zone} has no undamaged enemy airfield to attack")
    cat = state.category(p)
    if cat == "land":
        raise IllegalAction(rule, f"{p.id} is {an(p.type)}: land units attack land units; air and sea units choose")
    if cat == "air" and p.zone != zone:
        raise IllegalAction(rule, f"{p.id} is in {p.zone}, not on {zone}")
    if cat == "sea" and p.type not in ("cruiser", "battleship"):
        raise IllegalAction(rule, f"{an(p.type)} has no land attack to aim")
    if cat == "sea" and not p.joined:
        raise IllegalAction(rule, f"{p.id} must join the attack on {zone} first (join {p.id})")
    if p.aimed:
        raise IllegalAction(rule, f"{p.id} attacks the airfields already")


def explain_roll(state: AAGState, action: Action) -> None:
    if state.battle is None:
        raise not_now(state, "roll")


def explain_hit(state: AAGState, action: Action) -> None:
    choice = hit_choice(state)
    if choice is None:
        raise not_now(state, "hit")
    raise IllegalAction(
        "AAG Loss of Cargo", f"the hit falls on {an(choice.type)}: choose one of {', '.join(choice.candidates)}"
    )


def explain_unload(state: AAGState, action: Action) -> None:
    if state.step != "unload" or state.battle is not None:
        raise not_now(state, "unload")
    rule = "AAG Combat step 3"
    p = own(state, action.args[0], rule)
    dest = action.args[1]
    if p.aboard is None:
        raise IllegalAction(rule, f"{p.id} is not aboard a ship")
    if p.type == "fighter":
        raise IllegalAction(rule, f"{p.id} is a fighter on a carrier: it flies off, it is not unloaded")
    zone_named(state, dest, rule)
    enemy_base(state, dest)
    near = state.data.board.land_zones_by_sea(p.zone)
    if dest not in near:
        raise IllegalAction(rule, f"{dest} is not an island zone next to {p.zone} (next to it: {listing(near)})")


# --- Regroup ---------------------------------------------------------------------------


def explain_land(state: AAGState, action: Action) -> None:
    from henderson.games.aag.rules import regroup

    if state.step != "regroup:land":
        raise not_now(state, "land")
    rule = "AAG Regroup step 2"
    p = own(state, action.args[0], rule)
    if state.category(p) != "air":
        raise IllegalAction(rule, f"{p.id} is {an(p.type)}: only fighters and bombers land")
    if p.landed:
        raise IllegalAction(rule, f"{p.id} has landed already")
    spot = action.args[1]
    side = p.side
    rng = state.air_range(p)
    dist = state.data.board.air_distances(p.zone, state.enemy_base_zones(side))
    rules = state.data.rules
    if spot in state.pieces:
        ship = state.pieces[spot]
        if p.type != "fighter":
            raise IllegalAction("AAG Landing Capacities", "a carrier takes fighters only, no bombers")
        if ship.side != side:
            raise IllegalAction(rule, f"{ship.id} is not yours: fighters land on friendly carriers")
        if ship.damaged:
            raise IllegalAction(DAMAGED, f"{ship.id} is damaged: it waits at its base for repair and takes no fighter")
        if ship.type != "carrier":
            raise IllegalAction(rule, f"{ship.id} is {an(ship.type)}: fighters land on aircraft carriers")
        d = dist.get(ship.zone)
        if d is None or d > rng:
            raise IllegalAction(rule, f"{ship.id} in {ship.zone} is beyond {p.id}'s range of {rng}")
        if len(state.fighters_aboard(ship)) >= rules.carrier_capacity:
            raise IllegalAction(
                "AAG Landing Capacities", f"{ship.id} carries {rules.carrier_capacity} fighters already"
            )
        return
    zone_named(state, spot, rule)
    enemy_base(state, spot)
    board = state.data.board
    if board.is_sea(spot):
        raise IllegalAction(
            rule,
            f"{spot} is a sea zone: land on your base, a controlled airfield or (fighters) a carrier, named by its id",
        )
    d = dist.get(spot)
    if d is None or d > rng:
        far = "out of reach" if d is None else f"{d} zones away"
        raise IllegalAction(rule, f"{spot} is {far} from {p.zone}, beyond {p.id}'s range of {rng}")
    if spot == state.base_land(side):
        return
    mine = state.airfields_of(side, spot)
    if not mine:
        theirs = state.airfields_of(other(side), spot)
        if theirs:
            raise IllegalAction(
                rule, f"the airfield on {spot} is the enemy's: no landing on an enemy-controlled airfield"
            )
        raise IllegalAction(rule, f"{spot} has no airfield of yours")
    if not state.airfields_of(side, spot, undamaged=True):
        raise IllegalAction(rule, f"your airfield on {spot} is damaged: no landing on a damaged airfield")
    room = rules.airfield_air_capacity * len(state.airfields_of(side, spot, undamaged=True))
    if spot not in regroup.landing_spots(state, p):
        raise IllegalAction(
            "AAG Landing Capacities", f"your undamaged airfields on {spot} hold {room} air units and are full"
        )


def explain_build(state: AAGState, action: Action) -> None:
    if state.step != "regroup:build":
        raise not_now(state, "build")
    rule = "AAG Build Airfields"
    island = action.args[0]
    zone_named(state, island, rule)
    board = state.data.board
    if not board.is_island(island):
        raise IllegalAction(rule, f"{island} is not an island zone of the game board: airfields are built on islands")
    cap = board.islands[island].airfields
    if len([a for a in state.airfields if a.island == island]) >= cap:
        raise IllegalAction(rule, f"{island} can have no more than {cap} airfield(s), and has them")
    side = state.current_player() or ""
    have = len(state.supplies(side, island))
    need = state.data.rules.build_cost
    if have < need:
        raise IllegalAction(
            rule, f"an airfield costs {need} supply tokens of yours on {island}; you have {supplies_text(have)} there"
        )


def explain_buy(state: AAGState, action: Action) -> None:
    if state.step != "regroup:buy" or state.battle is not None:
        raise not_now(state, "buy")
    rule = "AAG Reinforce"
    kind = action.args[0]
    units = state.data.units
    if kind != SUPPLY and kind not in units:
        raise IllegalAction(rule, f"there is no unit type {kind!r} (known: {', '.join([*units, SUPPLY])})")
    if kind != SUPPLY and "token" in units[kind].abilities:
        raise IllegalAction("AAG Appendix 1 PT Boats", "a PT boat comes only from a PT Boats advantage token")
    cost = state.data.rules.supply_cost if kind == SUPPLY else units[kind].cost
    left = state.points[state.current_player() or ""]
    if cost > left:
        raise IllegalAction(rule, f"{an(kind)} costs {cost} reinforcement points; you have {left} left")


def explain_repair(state: AAGState, action: Action) -> None:
    if state.step != "regroup:repair":
        raise not_now(state, "repair")
    side = state.current_player() or ""
    what = action.args[0]
    rules = state.data.rules
    if what in state.pieces:
        rule = "AAG Repair"
        p = state.pieces[what]
        if p.side != side:
            raise IllegalAction(rule, f"{what} is not yours: it is {p.side}'s")
        if not p.damaged:
            raise IllegalAction(rule, f"{what} is not damaged: only a damaged sea unit at your base is repaired")
        have = len(state.supplies(side, state.base_land(side)))
        if have < rules.sea_repair_cost:
            raise IllegalAction(
                rule,
                f"repairing {what} costs {rules.sea_repair_cost} supply token at your home base "
                f"({state.base_land(side)}); you have none there",
            )
        return
    rule = "AAG Repair"
    zone_named(state, what, rule)
    if not state.data.board.is_island(what):
        raise IllegalAction(rule, f"{what} is not an island: repair names a damaged ship or an island's airfield")
    if not any(a.damaged for a in state.airfields_of(side, what)):
        raise IllegalAction(rule, f"you control no damaged airfield on {what}")
    have = len(state.supplies(side, what))
    if have < rules.airfield_repair_cost:
        raise IllegalAction(
            rule,
            f"repairing the airfield costs {rules.airfield_repair_cost} supply token on {what}; you have none there",
        )


def explain_deploy(state: AAGState, action: Action) -> None:
    if state.step != "regroup:deploy":
        raise not_now(state, "deploy")
    rule = "AAG Deploy"
    ship = own(state, action.args[0], rule)
    side = ship.side
    zone = action.args[1]
    if state.category(ship) != "sea":
        raise IllegalAction(
            rule, f"{ship.id} is {an(ship.type)}: only sea units deploy (land units and fighters ride them)"
        )
    if ship.aboard is not None:
        raise IllegalAction(rule, f"{ship.id} is aboard {ship.aboard}")
    base = state.base_sea(side)
    if ship.zone != base:
        raise IllegalAction(
            rule, f"{ship.id} is in {ship.zone}: sea units deploy from {base}, the sea zone of your base card"
        )
    zone_named(state, zone, rule)
    sea = state.data.board.seas.get(zone)
    cost = None if sea is None else sea.deployment.get(side)
    if cost is None:
        numbered = sorted(z for z, s in state.data.board.seas.items() if side in s.deployment)
        raise IllegalAction(
            rule, f"{zone} has no deployment number on your side of the board (yours: {', '.join(numbered)})"
        )
    have = len(state.supplies(side, state.base_land(side)))
    if have < cost:
        raise IllegalAction(
            rule, f"deploying to {zone} costs {cost} supply token(s) at your home base; you have {supplies_text(have)}"
        )


# --- end and advantage tokens --------------------------------------------------------------


def explain_end(state: AAGState, action: Action) -> None:
    from henderson.games.aag.rules import combat, regroup

    battle = state.battle
    if battle is not None:
        raise IllegalAction(
            "AAG How to Attack", f"the attack on {battle.category} units in {battle.zone} is declared: roll it"
        )
    cat = step_category(state)
    blocker = combat.must_fight(state, cat) if cat is not None else None
    if state.step == "regroup:land":
        blocker = regroup.must_land(state)
    if blocker is not None:
        raise blocker


def explain_use(state: AAGState, action: Action) -> None:
    from henderson.games.aag.rules import advantages

    rule = advantages.RULE
    if not state.options.get("advantages"):
        raise IllegalAction(rule, "this game is played without advantage tokens")
    token, args = action.args[0], action.args[1:]
    side = state.current_player() or ""
    known: dict[str, Token] = {t.id: t for t in state.data.advantages if t.side == side}
    if token not in {t.id for t in state.data.advantages}:
        raise IllegalAction(rule, f"there is no advantage token {token!r}")
    if token not in known:
        raise IllegalAction(rule, f"{token} is not one of {side}'s advantages")
    if not state.has_token(side, Advantage(token)):
        raise IllegalAction(rule, f"you have no {token} token left: once expended, it can't be used again")
    tok_rule = f"AAG Appendix 1 {token.replace('_', ' ').title()}"
    window = known[token].window
    in_window = step_unit(state) is not None if window == "move:any" else state.step == window
    if not in_window or state.battle is not None:
        anytime = "before moving a unit type, in a Movement step"
        when = anytime if window == "move:any" else f"in {step_name(state, window)}"
        raise IllegalAction(tok_rule, f"{token} is spent {when}; {now(state)}")
    arity = len(TOKEN_ARGS.get(token, ()))
    if len(args) != arity:
        raise IllegalAction(tok_rule, f"'use {token}' takes {arity} argument(s), got {len(args)}")
    board = state.data.board
    if token == "superior_fighters":
        if state.in_force("superior_fighters", side):
            raise IllegalAction(tok_rule, "Superior Fighters is in force already this turn")
        raise IllegalAction(tok_rule, "it is spent before you move your fighters (ruling 23), and you need a fighter")
    if token == "good_logistics":
        if state.in_force("good_logistics", side):
            raise IllegalAction(tok_rule, "Good Logistics is in force already this turn")
        raise IllegalAction(tok_rule, "it is spent before you buy reinforcements (ruling 23)")
    if token == "coast_watchers":
        kind = args[0]
        found = state.game.movement_step_of(kind)
        if found is None:
            raise IllegalAction(tok_rule, f"{kind!r} is not a unit type that moves in a Movement step")
        if kind != step_unit(state):
            raise IllegalAction(tok_rule, f"it is spent before moving {kind}s, in {found.name}")
        if kind in state.deferred.get(side, ()):
            raise IllegalAction(tok_rule, f"your {kind}s already move last this turn")
        raise IllegalAction(tok_rule, f"it is spent before you move any {kind}, and you need one to move")
    zone = args[0]
    zone_named(state, zone, tok_rule)
    if token in ("quick_drop", "night_fighting", "pt_boats") and zone not in board.seas:
        raise IllegalAction(tok_rule, f"{zone} is not a sea zone of the board: {token} names a sea zone")
    if token in ("banzai_charge", "amphibious_assault") and zone not in board.islands:
        raise IllegalAction(tok_rule, f"{zone} is not an island zone: {token} names an island")
    if token == "quick_drop":
        island = args[1]
        if island not in board.land_zones_by_sea(zone) or island not in board.islands:
            raise IllegalAction(tok_rule, f"{island} is not an island zone next to {zone}")
        raise IllegalAction(tok_rule, f"you have no loaded transport or destroyer in {zone}")
    if token == "command_decision":
        cat = args[1]
        if cat not in CATEGORIES:
            raise IllegalAction(tok_rule, f"{cat!r} is not air, sea or land")
        if state.in_force("command_decision", side, zone=zone, category=cat):
            raise IllegalAction(tok_rule, f"Command Decision is in force for {cat} in {zone} already")
        raise IllegalAction(tok_rule, f"no {cat} combat can happen in {zone} this turn")
    if token == "night_fighting":
        if state.in_force("night_fighting", side, zone=zone):
            raise IllegalAction(tok_rule, f"Night Fighting is in force in {zone} already")
        raise IllegalAction(tok_rule, f"you have no attack on sea units in {zone}")
    if token == "pt_boats":
        raise IllegalAction(
            tok_rule, f"the PT boat is placed in a sea zone where you have at least one unit, not {zone}"
        )
    if token == "banzai_charge":
        if state.in_force("banzai_charge", side, zone=zone):
            raise IllegalAction(tok_rule, f"Banzai Charge is in force on {zone} already")
        raise IllegalAction(tok_rule, f"you have no attack on land units on {zone}")
    if token == "amphibious_assault":
        if state.in_force("amphibious_assault", side, zone=zone):
            raise IllegalAction(tok_rule, f"an Amphibious Assault has been made on {zone} this turn")
        raise IllegalAction(
            tok_rule,
            f"it attacks enemy land units on {zone} with land units you unloaded there this turn; there are none",
        )


HANDLERS = {
    "end": explain_end,
    "load": explain_load,
    "move": explain_move,
    "torpedo": explain_torpedo,
    "fight": explain_fight,
    "join": explain_join,
    "aim": explain_aim,
    "roll": explain_roll,
    "hit": explain_hit,
    "unload": explain_unload,
    "land": explain_land,
    "build": explain_build,
    "buy": explain_buy,
    "repair": explain_repair,
    "deploy": explain_deploy,
    "use": explain_use,
}
