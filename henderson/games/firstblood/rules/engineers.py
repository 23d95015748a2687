"""US engineers build and repair airfields (FB 11.0–11.5; optional rule 11.2.1).

An engineer works on the airfield hex it stood in at the start of the turn; moving,
attacking, or any attack on its hex (bombardment included) undoes the work
(FB 11.4). Work is counted in the US engineer phase: a damaged hex is repaired in one
turn, a destroyed hex rebuilt or a Fighter Strip hex built in two (FB 11.2).
"""

from __future__ import annotations

from henderson.core.events import Event
from henderson.games.firstblood.rules.phase import FBPhase
from henderson.games.firstblood.state import FBState, Status

TURNS_NEEDED = {Status.DAMAGED: 1, Status.DESTROYED: 2, Status.UNBUILT: 2}  # FB 11.2
OPTION_PAIRS = "repair_by_any_two_units"  # FB 11.2.1


def note_workers(st: FBState) -> None:
    """At the start of the turn: US ground units standing on airfield hexes that need work."""
    st.workers = {}
    for h, status in st.airfield.items():
        if status == Status.OPERATIONAL:
            continue
        for u in st.at(h):
            g = st.data.ground[u]
            if g.side == "us":
                st.workers[u] = h


def working(st: FBState, unit: str, hex_id: str) -> bool:
    return (
        st.workers.get(unit) == hex_id
        and st.ground.get(unit) == hex_id
        and unit not in st.moved
        and unit not in st.combat.attacked
    )


class Engineers(FBPhase):
    """FB 11.2, 11.4: the work of the turn is counted; nothing to decide."""

    def enter(self, st: FBState, events: list[Event]) -> None:
        for h in sorted(st.airfield):
            status = st.airfield[h]
            if status == Status.OPERATIONAL:
                continue
            crew = [u for u in st.at(h) if working(st, u, h)]
            engineers = [u for u in crew if st.data.ground[u].is_engineer]
            pairs = (
                status == Status.DAMAGED
                and st.options.get(OPTION_PAIRS)
                and len([u for u in crew if st.data.ground[u].range is None]) >= 2
            )
            if h in st.disturbed or not (engineers or pairs):
                if st.work.pop(h, 0):
                    events.append(Event("engineer", f"work on {h} interrupted and lost (FB 11.4)", {"hex": h}))
                continue
            done = st.work.get(h, 0) + 1
            if done >= TURNS_NEEDED[status]:
                st.airfield[h] = Status.OPERATIONAL
                st.work.pop(h, None)
                verb = {Status.DAMAGED: "repaired", Status.DESTROYED: "rebuilt", Status.UNBUILT: "built"}[status]
                rule = "FB 11.2.1" if not engineers else "FB 11.2"
                events.append(
                    Event(
                        "airfield",
                        f"airfield hex {h} {verb}: operational ({rule})",
                        {"hex": h, "status": "operational"},
                    )
                )
            else:
                st.work[h] = done
                events.append(
                    Event(
                        "engineer",
                        f"engineers at {h}: {done} of {TURNS_NEEDED[status]} turns done (FB 11.2)",
                        {"hex": h},
                    )
                )


PHASE = Engineers()
