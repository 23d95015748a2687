"""Japanese supply resolution (FB 14.0–14.2): one die; on 4–6 one ground unit (on the map or
in a box) or one ship leaves play, the Japanese player choosing."""

from __future__ import annotations

from henderson.core.events import Event, roll
from henderson.games.firstblood.rules import decisions
from henderson.games.firstblood.rules.phase import FBPhase
from henderson.games.firstblood.state import FBState, Lose


class Supply(FBPhase):
    """FB 14.1, 14.2: the Japanese supply roll."""

    def enter(self, st: FBState, events: list[Event]) -> None:
        die = roll(st.dice, "FB 14.1 Japanese supply roll", events)
        if die <= 3:
            events.append(Event("supply", f"supply roll {die}: no effect (FB 14.1)"))
            return
        if st.supply_credit > 0:  # FB 7.5.4
            st.supply_credit -= 1
            events.append(Event("supply", f"supply roll {die}: met by an earlier overstacking loss (FB 7.5.4)"))
            return
        candidates = sorted(u for u in st.ground if st.data.ground[u].side == "jp") + sorted(st.ships)  # FB 14.1, 14.2
        events.append(Event("supply", f"supply roll {die}: one Japanese ground or naval unit must go (FB 14.1)"))
        if candidates:
            st.pending.append(Lose("jp", units=candidates, count=1, rule="FB 14.1"))
            decisions.settle(st, events)


PHASE = Supply()
