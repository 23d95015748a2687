"""Reinforcement phases (FB 7.0–7.7, 10.1, 13.4, 13.5).

Air units go to their reserve box by themselves; ground units and ships wait to be
placed by their owner; the Japanese may commit the special IJN box from its turn on.
"""

from __future__ import annotations

from henderson.core.errors import IllegalAction
from henderson.core.events import Event
from henderson.games.firstblood import actions as A
from henderson.games.firstblood.rules import placement
from henderson.games.firstblood.state import FBState


def enter(st: FBState, events: list[Event]) -> None:
    side = st.phasing
    if side == "jp":
        start_of_turn(st, events)
    st.to_place = []
    arrivals = st.data.arrivals(st.turn_name, side)
    reserve = "usaf_reserve" if side == "us" else "ijaf_reserve"  # FB 13.5, 13.4
    for unit in sorted(st.data.air):
        a = st.data.air[unit]
        if a.side == side and a.arrives == st.turn_name:
            st.air[unit] = reserve
            events.append(Event("place", f"{unit} arrives in the {reserve} box", {"unit": unit, "at": reserve}))
    if arrivals is not None:
        st.to_place.extend(arrivals.units)
    if side == "jp":
        st.to_place.extend(s for s in sorted(st.data.ships) if st.data.ships[s].arrives == st.turn_name)
        specials = st.data.special_ships
        if st.specials == "unavailable" and st.turn_index >= st.data.turns.index(specials.earliest):
            st.specials = "available"  # FB 10.1
    eliminate_unplaceable(st, events)


def start_of_turn(st: FBState, events: list[Event]) -> None:
    """Clear what lasts a turn; note engineers standing on airfield hexes (FB 11.4)."""
    from henderson.games.firstblood.rules import engineers

    st.moved.clear()
    st.held.clear()
    st.disturbed.clear()
    st.air_moved.clear()
    engineers.note_workers(st)


def eliminate_unplaceable(st: FBState, events: list[Event]) -> None:
    """FB 7.7: reinforcements that cannot enter play are eliminated."""
    for unit in list(st.to_place):
        if not placement.places_for(st, unit, setup=False):
            st.to_place.remove(unit)
            st.eliminate(unit, "FB 7.7", "no place to enter play", events)


def actions(st: FBState) -> list[A.FBAction]:
    acts: list[A.FBAction] = []
    if st.to_place:
        unit = st.to_place[0]
        acts.extend(A.Place(unit, p) for p in placement.places_for(st, unit, setup=False))
    if st.phasing == "jp" and st.specials == "available":
        acts.append(A.CommitSpecials())
    return acts


def accepts(st: FBState, action: A.FBAction) -> bool:
    return placement.accepts(st, action, setup=False)


def explain(st: FBState, action: A.FBAction) -> IllegalAction:
    refused = placement.refusal(st, action, setup=False)
    if refused is not None:
        return refused
    if isinstance(action, A.CommitSpecials):
        if st.phasing != "jp":
            return IllegalAction("FB 10.1", "only the Japanese player has the special IJN box")
        if st.specials == "committed":
            return IllegalAction("FB 10.1", "the two special destroyers have already been committed")
        return IllegalAction(
            "FB 10.1", f"the special IJN box may be committed from {st.data.special_ships.earliest} on"
        )
    from henderson.games.firstblood.rules.sequence import not_now

    return not_now(st, action)


def do(st: FBState, action: A.FBAction, events: list[Event]) -> None:
    if isinstance(action, A.CommitSpecials):
        st.specials = "committed"
        st.to_place.extend(st.data.special_ships.ships)
        events.append(Event("specials", "the special IJN box's two destroyers are committed (FB 10.1)"))
    elif isinstance(action, A.Place):
        placement.place(st, action.unit, action.at, events)


def end_blocker(st: FBState) -> IllegalAction | None:
    if st.to_place:
        return IllegalAction("FB 7.7", f"all reinforcements must enter this turn ({st.to_place[0]} next)")
    return None


def leave(st: FBState, events: list[Event]) -> None:
    return None
