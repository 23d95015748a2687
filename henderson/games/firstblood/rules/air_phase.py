"""US air phase (FB 13.7, 12.0–12.5): aircraft back from CAP and Ground Attack land inverted;
reserve aircraft come onto the strips as capacity allows; face-up aircraft fly CAP (fighters)
or Ground Attack (bombers); unmoved aircraft may shift to an adjacent strip hex."""

from __future__ import annotations

from henderson.core.errors import IllegalAction
from henderson.core.events import Event
from henderson.core.game import Action
from henderson.games.firstblood import actions as A
from henderson.games.firstblood.rules import airfields, decisions
from henderson.games.firstblood.rules.phase import FBPhase
from henderson.games.firstblood.state import FBState, Land


def us_air(st: FBState) -> list[str]:
    return sorted(a for a in st.air if st.data.air[a].side == "us")


class AirPhase(FBPhase):
    """FB 13.7: the US air phase."""

    def enter(self, st: FBState, events: list[Event]) -> None:
        returning = sorted(a for a, where in st.air.items() if where in airfields.FLYING_BOXES)
        if returning:
            events.append(Event("air", f"back from CAP and Ground Attack: {', '.join(returning)} (FB 13.7)"))
            for a in returning:
                st.air[a] = "returning"
            st.pending.append(Land("us", units=returning, rule="FB 13.7"))
            decisions.settle(st, events)

    def actions(self, st: FBState) -> list[Action]:
        acts: list[Action] = []
        strips = st.board.airfield_hexes
        for a in us_air(st):
            where = st.air[a]
            if where == "usaf_reserve":
                if airfields.capacity_ok(st, extra=a):  # FB 12.2, 12.3
                    acts.extend(A.Fly(a, h) for h in airfields.landing_hexes(st, a))
            elif where in strips and a not in st.inverted:
                if airfields.is_fighter(st, a):
                    acts.append(A.Fly(a, "usaf_cap"))
                if airfields.is_bomber(st, a):
                    acts.append(A.Fly(a, "usaf_ground_attack"))
                if a not in st.air_moved:
                    acts.extend(A.Fly(a, h) for h in airfields.landing_hexes(st, a) if h in st.board.adj[where])
            elif where in strips and a not in st.air_moved:
                acts.extend(A.Fly(a, h) for h in airfields.landing_hexes(st, a) if h in st.board.adj[where])
        return acts

    def explain(self, st: FBState, action: Action) -> IllegalAction:
        if not isinstance(action, A.Fly):
            return super().explain(st, action)
        a = action.unit
        where = st.air.get(a)
        if a in st.data.air and st.data.air[a].side == "jp":
            return IllegalAction(
                "FB 12.4", f"{a} is Japanese: Japanese air units never land on or use the airfield hexes"
            )
        if a not in st.data.air or where is None:
            return IllegalAction("FB 13.7", f"{a} is not a US air unit in play")
        if where == "usaf_reserve":
            if not airfields.capacity_ok(st, extra=a):
                return IllegalAction(
                    "FB 12.3.1", "no capacity: 6 air units per operative airfield hex, strips and boxes together"
                )
            return IllegalAction(
                "FB 12.2",
                f"{action.to} is not an operative airstrip hex with room for {a} "
                "(FB 12.5: fighters only on the Fighter Strip)",
            )
        if action.to in airfields.FLYING_BOXES:
            if a in st.inverted:
                return IllegalAction("FB 13.7", f"{a} is inverted: only face-up aircraft fly CAP or Ground Attack")
            if where not in st.board.airfield_hexes:
                return IllegalAction("FB 13.7", f"{a} must be on an airstrip hex to fly a mission")
            role = "fighter" if action.to == "usaf_cap" else "bomber"
            return IllegalAction("FB 13.1", f"only a {role} flies in that box")
        if a in st.air_moved:
            return IllegalAction("FB 13.7", f"{a} has moved this turn and may not shift to another strip hex")
        return IllegalAction("FB 13.7", f"{action.to} is not an adjacent operative airstrip hex with room")

    def do(self, st: FBState, action: Action, events: list[Event]) -> None:
        assert isinstance(action, A.Fly)
        frm = st.air[action.unit]
        st.air[action.unit] = action.to
        st.air_moved |= {action.unit}
        events.append(
            Event(
                "air",
                f"{action.unit} {frm} → {action.to} (FB 13.7)",
                {"unit": action.unit, "from": frm, "to": action.to},
            )
        )

    def leave(self, st: FBState, events: list[Event]) -> None:
        """FB 12.3.1: anything over capacity goes back to the reserve."""
        while not airfields.capacity_ok(st):
            flying = [a for a in us_air(st) if st.air[a] in (*airfields.FLYING_BOXES, *st.board.airfield_hexes)]
            a = flying[-1]
            st.air[a] = "usaf_reserve"
            events.append(Event("air", f"{a} returned to the USAF Reserve box: over capacity (FB 12.3.1)"))


PHASE = AirPhase()
