"""What a phase without decisions answers (strategic, supply, engineer): nothing to do but end.

Such a phase module does its work in `enter` and takes these for the rest.
"""

from __future__ import annotations

from henderson.core.errors import IllegalAction
from henderson.core.events import Event
from henderson.games.firstblood import actions as A
from henderson.games.firstblood.state import FBState


def actions(st: FBState) -> list[A.FBAction]:
    return []


def accepts(st: FBState, action: A.FBAction) -> bool:
    return False


def explain(st: FBState, action: A.FBAction) -> IllegalAction:
    from henderson.games.firstblood.rules.sequence import not_now

    return not_now(st, action)


def do(st: FBState, action: A.FBAction, events: list[Event]) -> None:
    raise AssertionError(f"{st.phase} takes no actions")


def end_blocker(st: FBState) -> IllegalAction | None:
    return None


def leave(st: FBState, events: list[Event]) -> None:
    return None


__all__ = ["accepts", "actions", "do", "end_blocker", "explain", "leave"]
