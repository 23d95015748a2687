"""Set-up: the US player places his at-start forces, then the Japanese (FB 3.0, 3.1).

`legal_actions` lists the placements of the next counter in order (and `setup
default`); `apply` also accepts the placement of any waiting counter.
"""

from __future__ import annotations

from henderson.core.errors import IllegalAction
from henderson.core.events import Event
from henderson.core.game import Action
from henderson.games.firstblood import actions as A
from henderson.games.firstblood.rules import placement
from henderson.games.firstblood.rules.phase import FBPhase
from henderson.games.firstblood.state import FBState


def default_plan(st: FBState) -> list[tuple[str, str]] | None:
    """The data's default set-up for what is still to place, if it covers all of it legally
    (checked once per set-up phase: placements only ever use the plan's own places)."""
    plan = {p.unit: p.at for p in st.data.setup}
    if not st.to_place or any(u not in plan for u in st.to_place):
        return None
    key = ("setup", st.step, tuple(sorted(st.ground.items())), tuple(sorted(st.air.items())))
    if key not in st.reach_cache:
        trial = st.clone()
        trial.reach_cache = {}
        ok = True
        for unit in list(trial.to_place):
            try:
                placement.check_place(trial, unit, plan[unit], setup=True)
            except IllegalAction:
                ok = False
                break
            placement.place(trial, unit, plan[unit], [])
        st.reach_cache[key] = [A.SetupDefault()] if ok else []
    if not st.reach_cache[key]:
        return None
    return [(u, plan[u]) for u in st.to_place]


class Setup(FBPhase):
    """FB 3.0, 3.1: each side places its at-start forces, the US first."""

    def enter(self, st: FBState, events: list[Event]) -> None:
        side = st.phasing
        start = st.data.arrivals("start", side)
        st.to_place = []
        if start is None:
            return
        st.to_place.extend(u for u in start.units if u not in st.ground)
        for unit in sorted(st.data.air):
            a = st.data.air[unit]
            if a.side == side and a.arrives == "start" and unit not in st.air:
                if side == "us":
                    st.to_place.append(unit)  # FB 3.0: the US player places his air units
                else:
                    st.air[unit] = "ijaf_reserve"  # FB 13.4
        for unit in sorted(st.data.ships):
            if side == "jp" and st.data.ships[unit].arrives == "start" and unit not in st.ships:
                st.to_place.append(unit)

    def actions(self, st: FBState) -> list[Action]:
        if not st.to_place:
            return []
        unit = st.to_place[0]
        acts: list[Action] = [A.Place(unit, p) for p in placement.places_for(st, unit, setup=True)]
        if default_plan(st) is not None:
            acts.insert(0, A.SetupDefault())
        return acts

    def accepts(self, st: FBState, action: Action) -> bool:
        return placement.accepts(st, action, setup=True)

    def explain(self, st: FBState, action: Action) -> IllegalAction:
        refused = placement.refusal(st, action, setup=True)
        if refused is not None:
            return refused
        if isinstance(action, A.SetupDefault):
            return IllegalAction("FB 3.0", "the default set-up does not fit what is left to place")
        return super().explain(st, action)

    def do(self, st: FBState, action: Action, events: list[Event]) -> None:
        if isinstance(action, A.SetupDefault):
            plan = default_plan(st)
            assert plan is not None
            for unit, where in plan:
                placement.place(st, unit, where, events)
        elif isinstance(action, A.Place):
            placement.place(st, action.unit, action.at, events)

    def may_end(self, st: FBState) -> bool:
        """Nothing is left to place (`end_blocker`)."""
        return not st.to_place

    def end_blocker(self, st: FBState) -> IllegalAction | None:
        if st.to_place:
            rule = "FB 3.0" if st.phasing == "us" else "FB 3.1"
            return IllegalAction(
                rule, f"all at-start forces must be placed ({len(st.to_place)} left: {st.to_place[0]} next)"
            )
        return None

    def leave(self, st: FBState, events: list[Event]) -> None:
        st.moved = frozenset()


PHASE = Setup()
