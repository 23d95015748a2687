"""What every FIRST BLOOD phase shares: the kit's protocol (`core.sequence.Phase`), forms of
an action that are legal without being listed, and the refusal of an action out of place."""

from __future__ import annotations

from typing import Any

from henderson.core.errors import IllegalAction
from henderson.core.game import Action
from henderson.core.sequence import Phase
from henderson.games.firstblood import actions as A

# where each kind of action belongs in the sequence of play, for refusals out of place
WHEN: dict[type, tuple[str, str]] = {
    A.Place: ("FB 7.0", "counters are placed at set-up and in their side's reinforcement phase"),
    A.SetupDefault: ("FB 3.0", "the default set-up is made at set-up, before the first turn"),
    A.CommitSpecials: ("FB 10.1", "the special IJN box is committed in a Japanese reinforcement phase"),
    A.Move: ("FB 4.0", "ground units move in their side's movement phase"),
    A.Bomb: ("FB 13.6", "US bombers are placed on Japanese stacks in the US movement phase"),
    A.Attack: ("FB 8.0", "attacks are made in the attacker's combat phase"),
    A.Add: ("FB 8.0", "units join an attack being built in the combat phase"),
    A.Resolve: ("FB 8.0", "attacks are rolled in the combat phase"),
    A.Cancel: ("FB 8.0", "only an attack being built in the combat phase can be cancelled"),
    A.AirMission: ("FB 13.3", "Japanese air missions are flown in the Japanese movement or combat phase"),
    A.Bombard: ("FB 10.2", "artillery and ships fire on the airfields in the Japanese combat phase"),
    A.Lose: ("FB 8.10", "no unit is to be lost now"),
    A.Retreat: ("FB 8.10", "no unit is to retreat now"),
    A.Advance: ("FB 8.10", "no attacker may advance now (only after a DE result)"),
    A.Stop: ("FB 8.10", "no advance after combat is being made now"),
    A.Land: ("FB 13.7", "aircraft back from CAP or Ground Attack land at the start of the US air phase"),
    A.Fly: ("FB 13.7", "US air units fly in the US air phase"),
}


def not_now(st: Any, action: Action) -> IllegalAction:
    """The refusal of an action out of place: where in the sequence of play it belongs."""
    rule, why = WHEN.get(type(action), ("FB 3.2", "see the sequence of play"))
    return IllegalAction(rule, f"'{action}' is not an action of the {st.current_step.name}: {why}")


class FBPhase(Phase):
    """A FIRST BLOOD step or decision. Besides the listed actions it may accept other forms
    of a legal action that the list leaves out (a whole attack, a path given with `via`, any
    of identical counters), checked by `accepts`, which raises IllegalAction naming the rule
    when the form is wrong."""

    def accepts(self, st: Any, action: Action) -> bool:
        """Whether `action`, not among the listed actions, is legal all the same."""
        return False

    def is_legal(self, st: Any, action: Action) -> bool:
        return st.is_listed(action) or self.accepts(st, action)

    def explain(self, st: Any, action: Action) -> IllegalAction:
        return not_now(st, action)
