"""Which rules module answers for the current step: legal actions, playing, and step hooks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from henderson.core.errors import IllegalAction
from henderson.games.aag.actions import END, Action
from henderson.games.aag.rules import advantages, combat, movement, regroup
from henderson.games.aag.rules.common import signature
from henderson.games.aag.sequence import COMBAT_CATEGORY, STEP_TYPE

if TYPE_CHECKING:
    from henderson.games.aag.state import AagState

STEP_RULES = {
    "move:transport": "AAG Movement step 1",
    "move:battleship": "AAG Movement step 2",
    "move:carrier": "AAG Movement step 3",
    "move:cruiser": "AAG Movement step 4",
    "move:destroyer": "AAG Movement step 5",
    "move:submarine": "AAG Movement step 6",
    "move:bomber": "AAG Movement step 7",
    "move:fighter": "AAG Movement step 8",
    "hidden:load": "AAG Hidden Movement step 1",
    "hidden:orders": "AAG Hidden Movement step 2",
    "hidden:torpedo": "AAG Hidden Movement step 3",
    "combat:air": "AAG Combat step 1",
    "combat:sea": "AAG Combat step 2",
    "unload": "AAG Combat step 3",
    "combat:land": "AAG Combat step 4",
    "regroup:land": "AAG Regroup step 2",
    "regroup:build": "AAG Regroup step 3",
    "regroup:buy": "AAG Regroup step 4 Reinforce",
    "regroup:repair": "AAG Regroup step 4 Repair",
    "regroup:deploy": "AAG Regroup step 4 Deploy",
    "move:deferred": "AAG Appendix 1 Coast Watchers",
    "move:end": "AAG Appendix 1 Quick Drop",
    "combat:begin": "AAG Appendix 1 Command Decision",
    "combat:before_sea": "AAG Appendix 1 Night Fighting / PT Boats",
    "combat:before_land": "AAG Appendix 1 Banzai Charge / Amphibious Assault",
}


def legal(state: AagState) -> list[Action]:
    """Every legal action now (read-only: the pieces are indexed by zone meanwhile)."""
    built = state.build_index()
    try:
        return _legal(state)
    finally:
        if built:
            state.drop_index()


def _legal(state: AagState) -> list[Action]:
    step = state.step
    if state.battle is not None:
        return combat.legal(state, state.battle["category"])
    if step in STEP_TYPE:
        return [*advantages.uses(state), *movement.legal(state, STEP_TYPE[step])]
    if step in COMBAT_CATEGORY:
        return combat.legal(state, COMBAT_CATEGORY[step])
    if step == "regroup:buy":
        return [*advantages.uses(state), *regroup.buy_legal(state)]
    table = {
        "move:deferred": advantages.deferred_legal,
        "move:end": advantages.window_legal,
        "combat:begin": advantages.window_legal,
        "combat:before_sea": advantages.window_legal,
        "combat:before_land": advantages.window_legal,
        "hidden:load": movement.hidden_load_legal,
        "hidden:orders": movement.hidden_orders_legal,
        "hidden:torpedo": movement.hidden_torpedo_legal,
        "unload": combat.unload_legal,
        "regroup:land": regroup.land_legal,
        "regroup:build": regroup.build_legal,
        "regroup:repair": regroup.repair_legal,
        "regroup:deploy": regroup.deploy_legal,
    }
    return table[step](state)


def is_legal(state: AagState, action: Action) -> bool:
    """Legal as listed, or the same as a listed action up to interchangeable units: the
    list offers one unit per group of identical units, and a group move is legal when the
    move of each of its units is."""
    listed = set(state._legal_now())
    if action in listed:
        return True
    choice = state.battle.get("choice") if state.battle else None
    if action.verb == "hit" and choice:  # any unit of the group the hit falls on
        return action.args[0] in choice["candidates"]
    if action.verb == "move":
        ids = action.args[1].split(",")
        if any(i not in state.pieces for i in ids):
            return False
        return all(_canonical(state, Action("move", (action.args[0], i))) in listed for i in ids)
    return _canonical(state, action) in listed


def _canonical(state: AagState, action: Action) -> Action:
    """The action with each unit id replaced by the lowest id of its group of identical units."""
    args = []
    for arg in action.args:
        p = state.pieces.get(arg)
        if p is None:
            args.append(arg)
            continue
        sig = signature(state, p)
        rep = next(
            (
                q.id
                for q in state.pieces.values()
                if (q.side, q.type, q.zone) == (p.side, p.type, p.zone)
                and signature(state, q) == sig
            ),
            arg,
        )
        args.append(rep)
    return Action(action.verb, tuple(args))


def play(state: AagState, action: Action) -> None:
    step = state.step
    if step in COMBAT_CATEGORY:
        combat.play(state, action, COMBAT_CATEGORY[step])
        return
    if state.battle is not None:  # an Amphibious Assault inside an advantage window
        combat.play(state, action, state.battle["category"])
        return
    if action == END:
        state.end_half()
        return
    verb = action.verb
    if verb == "load":
        movement.play_load(state, action)
    elif verb == "move":
        movement.play_move(state, action, hidden=step == "hidden:orders")
    elif verb == "torpedo":
        movement.play_torpedo(state, action)
    elif verb == "unload":
        combat.play_unload(state, action)
    elif verb == "land":
        regroup.play_land(state, action)
    elif verb == "build":
        regroup.play_build(state, action)
    elif verb == "buy":
        regroup.play_buy(state, action)
    elif verb == "repair":
        regroup.play_repair(state, action)
    elif verb == "deploy":
        regroup.play_deploy(state, action)
    elif verb == "use":
        advantages.play(state, action)
    else:  # pragma: no cover - legal() never offers anything else
        raise IllegalAction(STEP_RULES[step], f"{action} cannot be played in {step}")


def enter_step(state: AagState) -> None:
    """Work a new step does before anyone acts (AAG Regroup step 1 before landing)."""
    if state.step == "regroup:land":
        regroup.determine_control(state)
    enter_half(state)


def enter_half(state: AagState) -> None:
    if state.step == "regroup:land":
        regroup.prepare_landing(state)
    elif state.step == "regroup:buy":
        state.points[state.mover] = regroup.income(state, state.mover)
        state.emit("income", f"{state.mover} has {state.points[state.mover]} reinforcement points")


def leave_half(state: AagState) -> None:
    step = state.step
    if step in ("move:submarine", "hidden:torpedo") or (
        step == "move:deferred" and "submarine" in state.deferred.get(state.mover, ())
    ):
        movement.end_submarines(state, state.mover)
    elif step == "regroup:land":
        regroup.end_landing(state)
    elif step == "regroup:buy":
        state.points[state.mover] = 0  # AAG Reinforce: unspent points are lost
    elif step == "hidden:orders" and state.half == 1:
        movement.reveal_orders(state)


def explain(state: AagState, action: Action) -> None:
    """Raise IllegalAction naming the rule an illegal action breaks and why (`explain.py`)."""
    from henderson.games.aag.rules.explain import explain as why

    raise why(state, action)
