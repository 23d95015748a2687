"""Japanese strategic phase (FB 10.1, 13.4): units still in the Attack boxes leave play, then
the Reserve boxes move up to the Attack boxes. Nothing to decide."""

from __future__ import annotations

from henderson.core.events import Event
from henderson.games.firstblood.rules.phase import FBPhase
from henderson.games.firstblood.state import FBState, ShipBox


class Strategic(FBPhase):
    """FB 10.1, 13.4: the Attack boxes are emptied, the Reserve boxes move up."""

    def enter(self, st: FBState, events: list[Event]) -> None:
        for a, where in sorted(st.air.items()):
            if where == "ijaf_attack":
                st.eliminate(a, "FB 13.4", "withdrawn from the IJAF Attack box", events)
        for s, where in sorted(st.ships.items()):
            if where == "ijn_attack":
                st.eliminate(s, "FB 10.1", "withdrawn from the IJN Attack box", events)
        moved = [a for a, where in st.air.items() if where == "ijaf_reserve"]
        for a in moved:
            st.air[a] = "ijaf_attack"
        ships = [s for s, where in st.ships.items() if where == "ijn_reserve"]
        for s in ships:
            st.ships[s] = ShipBox.ATTACK
        if moved or ships:
            names = ", ".join(sorted(moved + ships))
            events.append(Event("strategic", f"to the Attack boxes: {names} (FB 10.1, 13.4)"))


PHASE = Strategic()
