"""What every Deluxe Guadalcanal phase shares: the kit's protocol (`core.sequence.Phase`) and
refusals that name the rule and read only what the acting side can see (`explain.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from henderson.core.errors import IllegalAction
from henderson.core.game import Action
from henderson.core.sequence import Phase

if TYPE_CHECKING:
    from ..state import DGState


class DGPhase(Phase):
    """A step of the sequence of play (DG 4.0) or a kind of pending decision. `kind` is how
    refusals name it (explain.py: the verbs played in it, the checks of each)."""

    kind: ClassVar[str] = ""

    def explain(self, state: DGState, action: Action) -> IllegalAction:
        from .explain import why_not

        return why_not(state, action)  # type: ignore[arg-type]
