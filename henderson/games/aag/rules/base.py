"""What every AAG phase shares: an action on any of a group of identical units is the listed
action on its first unit, and a refusal names the rule it breaks (`explain.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from henderson.core.errors import IllegalAction
from henderson.core.sequence import Phase
from henderson.games.aag.actions import Action
from henderson.games.aag.rules.common import signature

if TYPE_CHECKING:
    from henderson.games.aag.state import AAGState


class AagPhase(Phase):
    """An AAG step or decision. `legal_actions()` offers one unit per group of identical
    units (docs/aag.md); any unit of the group is accepted in its place. Every AAG phase
    makes a new list at each call of `actions`, which the engine keeps without a copy."""

    lists_afresh = True

    def is_legal(self, state: AAGState, action: Action) -> bool:  # type: ignore[override]
        """Legal as listed, or the same as a listed action up to interchangeable units: a
        group move is legal when the move of each of its units is."""
        if state.is_listed(action):
            return True
        if action.verb == "move":
            ids = action.args[1].split(",")
            if any(i not in state.pieces for i in ids):
                return False
            return all(state.is_listed(canonical(state, Action("move", (action.args[0], i)))) for i in ids)
        return state.is_listed(canonical(state, action))

    def may_end(self, state: AAGState) -> bool:
        """True: `end_blocker` never refuses `end` here (asked at every listing). A phase that
        refuses it in some positions says when with a `may_end` of its own."""
        return True

    def explain(self, state: AAGState, action: Action) -> IllegalAction:  # type: ignore[override]
        from henderson.games.aag.rules.explain import explain

        return explain(state, action)


def canonical(state: AAGState, action: Action) -> Action:
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
                if (q.side, q.type, q.zone) == (p.side, p.type, p.zone) and signature(state, q) == sig
            ),
            arg,
        )
        args.append(rep)
    return Action(action.verb, tuple(args))
