"""The sequence of play (FB 3.2 and the back page) as data, and the loop that follows it.

Each phase is a module with `enter`, `actions`, `explain`, `do`, `end_blocker`
and `leave`. A phase in which nothing can be decided is passed automatically.
"""

from __future__ import annotations

from types import ModuleType

from henderson.core.errors import IllegalAction
from henderson.core.events import Event
from henderson.games.firstblood import actions as A
from henderson.games.firstblood.rules import (
    air_phase,
    combat,
    decisions,
    engineers,
    movement,
    reinforcement,
    setup,
    strategic,
    supply,
    victory,
)
from henderson.games.firstblood.state import FBState

SETUP_PHASES = ("us_setup", "jp_setup")  # FB 3.0, 3.1
TURN_PHASES = (
    "jp_reinforcement",  # Sequence of Play 1.0
    "jp_movement",  # 2.0
    "jp_combat",  # 3.0
    "jp_supply",  # 4.0
    "jp_strategic",  # 5.0
    "us_reinforcement",  # 6.0
    "us_movement",  # 7.0
    "us_combat",  # 8.0
    "us_engineer",  # 9.0
    "us_air",  # 10.0
)  # then 11.0 END PHASE: victory.end_of_turn

PHASE_NAMES = {
    "us_setup": "US set-up",
    "jp_setup": "Japanese set-up",
    "jp_reinforcement": "Japanese reinforcement phase",
    "jp_movement": "Japanese movement phase",
    "jp_combat": "Japanese combat phase",
    "jp_supply": "Japanese supply resolution phase",
    "jp_strategic": "Japanese strategic phase",
    "us_reinforcement": "US reinforcement phase",
    "us_movement": "US movement phase",
    "us_combat": "US combat phase",
    "us_engineer": "US engineer phase",
    "us_air": "US air phase",
}

MODULES: dict[str, ModuleType] = {
    "us_setup": setup,
    "jp_setup": setup,
    "jp_reinforcement": reinforcement,
    "jp_movement": movement,
    "jp_combat": combat,
    "jp_supply": supply,
    "jp_strategic": strategic,
    "us_reinforcement": reinforcement,
    "us_movement": movement,
    "us_combat": combat,
    "us_engineer": engineers,
    "us_air": air_phase,
}


def legal(st: FBState) -> list[A.FBAction]:
    """Every legal action now, in a fixed order."""
    if st.pending:
        return decisions.actions(st)
    module = MODULES[st.phase]
    acts: list[A.FBAction] = module.actions(st)
    if module.end_blocker(st) is None:
        acts.append(A.End())
    return acts


def play(st: FBState, action: A.FBAction, events: list[Event]) -> None:
    """Check and carry out one action, then pass every phase that needs no decision."""
    if st.pending:
        if not st.is_legal(action):
            raise decisions.explain(st, action)
        st.changed()
        decisions.do(st, action, events)
    else:
        module = MODULES[st.phase]
        if isinstance(action, A.End):
            blocker = module.end_blocker(st)
            if blocker is not None:
                raise blocker
            st.changed()
            next_phase(st, events)
        elif st.is_legal(action) or module.accepts(st, action):
            st.changed()
            module.do(st, action, events)
        else:
            raise module.explain(st, action)
    advance(st, events)


def advance(st: FBState, events: list[Event]) -> None:
    """Move on through phases where nothing is left to decide; cache the next legal actions
    (or leave them to be listed when asked, where a phase can tell cheaply that it has a
    choice: look-ahead clones that are only evaluated never pay for the list)."""
    st.changed()
    while st.winner_side is None:
        choice = getattr(MODULES[st.phase], "has_choice", None)
        if not st.pending and choice is not None and choice(st):
            return  # something to decide: the legal actions are listed when asked for
        acts = legal(st)
        if st.pending or not (len(acts) == 1 and isinstance(acts[0], A.End)):
            st.set_legal(acts)
            return
        next_phase(st, events)
    st.set_legal([])


def next_phase(st: FBState, events: list[Event]) -> None:
    """Leave the current phase and enter the next (or end the turn)."""
    MODULES[st.phase].leave(st, events)
    if st.winner_side is not None:
        return
    if st.phase == "us_setup":
        enter(st, "jp_setup", events)
        return
    if st.phase == "jp_setup":
        enter(st, TURN_PHASES[0], events)
        return
    i = TURN_PHASES.index(st.phase)
    if i + 1 < len(TURN_PHASES):
        enter(st, TURN_PHASES[i + 1], events)
        return
    victory.end_of_turn(st, events)  # FB 11.0 END PHASE, FB 2.0
    if st.winner_side is None:
        st.turn_index += 1
        enter(st, TURN_PHASES[0], events)


def enter(st: FBState, phase: str, events: list[Event]) -> None:
    st.phase = phase
    events.append(Event("phase", f"{st.turn_name}: {PHASE_NAMES[phase]}", {"turn": st.turn_name, "phase": phase}))
    MODULES[phase].enter(st, events)


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


def not_now(st: FBState, action: A.FBAction) -> IllegalAction:
    """The refusal of an action out of place: where in the sequence of play it belongs."""
    rule, why = WHEN.get(type(action), ("FB 3.2", "see the sequence of play"))
    return IllegalAction(rule, f"'{action}' is not an action of the {PHASE_NAMES[st.phase]}: {why}")
