"""Reinforcement phases (FB 7.0–7.7, 10.1, 13.4, 13.5).

Air units go to their reserve box by themselves; ground units and ships wait to be
placed by their owner; the Japanese may commit the special IJN box from its turn on.
"""

from __future__ import annotations

from henderson.core.errors import IllegalAction
from henderson.core.events import Event
from henderson.core.game import Action
from henderson.games.firstblood import actions as A
from henderson.games.firstblood.rules import engineers, placement
from henderson.games.firstblood.rules.phase import FBPhase
from henderson.games.firstblood.state import FBState, Specials


def start_of_turn(st: FBState) -> None:
    """Clear what lasts a turn; note engineers standing on airfield hexes (FB 11.4)."""
    st.moved = frozenset()
    st.held = frozenset()
    st.disturbed = frozenset()
    st.air_moved = frozenset()
    engineers.note_workers(st)


def eliminate_unplaceable(st: FBState, events: list[Event]) -> None:
    """FB 7.7: reinforcements that cannot enter play are eliminated."""
    for unit in list(st.to_place):
        if not placement.places_for(st, unit, setup=False):
            st.to_place.remove(unit)
            st.eliminate(unit, "FB 7.7", "no place to enter play", events)


class Reinforcement(FBPhase):
    """FB 7.0–7.7: a side's reinforcements of the turn enter play."""

    def enter(self, st: FBState, events: list[Event]) -> None:
        side = st.phasing
        if side == "jp":  # the Japanese reinforcement phase begins the turn
            start_of_turn(st)
        st.to_place = []
        turn = st.turn_label
        arrivals = st.data.arrivals(turn, side)
        reserve = "usaf_reserve" if side == "us" else "ijaf_reserve"  # FB 13.5, 13.4
        for unit in sorted(st.data.air):
            a = st.data.air[unit]
            if a.side == side and a.arrives == turn:
                st.air[unit] = reserve
                events.append(Event("place", f"{unit} arrives in the {reserve} box", {"unit": unit, "at": reserve}))
        if arrivals is not None:
            st.to_place.extend(arrivals.units)
        if side == "jp":
            st.to_place.extend(s for s in sorted(st.data.ships) if st.data.ships[s].arrives == turn)
            specials = st.data.special_ships
            if st.specials == Specials.UNAVAILABLE and st.turn > st.data.turns.index(specials.earliest):
                st.specials = Specials.AVAILABLE  # FB 10.1
        eliminate_unplaceable(st, events)

    def actions(self, st: FBState) -> list[Action]:
        acts: list[Action] = []
        if st.to_place:
            unit = st.to_place[0]
            acts.extend(A.Place(unit, p) for p in placement.places_for(st, unit, setup=False))
        if st.phasing == "jp" and st.specials == Specials.AVAILABLE:
            acts.append(A.CommitSpecials())
        return acts

    def accepts(self, st: FBState, action: Action) -> bool:
        return placement.accepts(st, action, setup=False)

    def explain(self, st: FBState, action: Action) -> IllegalAction:
        refused = placement.refusal(st, action, setup=False)
        if refused is not None:
            return refused
        if isinstance(action, A.CommitSpecials):
            if st.phasing != "jp":
                return IllegalAction("FB 10.1", "only the Japanese player has the special IJN box")
            if st.specials == Specials.COMMITTED:
                return IllegalAction("FB 10.1", "the two special destroyers have already been committed")
            return IllegalAction(
                "FB 10.1", f"the special IJN box may be committed from {st.data.special_ships.earliest} on"
            )
        return super().explain(st, action)

    def do(self, st: FBState, action: Action, events: list[Event]) -> None:
        if isinstance(action, A.CommitSpecials):
            st.specials = Specials.COMMITTED
            st.to_place.extend(st.data.special_ships.ships)
            events.append(Event("specials", "the special IJN box's two destroyers are committed (FB 10.1)"))
        elif isinstance(action, A.Place):
            placement.place(st, action.unit, action.at, events)

    def may_end(self, st: FBState) -> bool:
        """Nothing is left to place (`end_blocker`)."""
        return not st.to_place

    def end_blocker(self, st: FBState) -> IllegalAction | None:
        if st.to_place:
            return IllegalAction("FB 7.7", f"all reinforcements must enter this turn ({st.to_place[0]} next)")
        return None


PHASE = Reinforcement()
