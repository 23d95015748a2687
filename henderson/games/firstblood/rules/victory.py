"""Victory (FB 2.0, 12.6, 12.6.2): a Japanese ground unit on an airfield hex ends the game;
otherwise any Japanese ground unit on the map at the end of JAN III wins for Japan. The END
PHASE (Sequence of Play 11.0) is the last step of every turn."""

from __future__ import annotations

from henderson.core.events import Event
from henderson.games.firstblood.rules import airfields
from henderson.games.firstblood.rules.phase import FBPhase
from henderson.games.firstblood.state import FBState


def declare(st: FBState, side: str, cause: str, events: list[Event]) -> None:
    """The game is over: nothing owed is decided any more."""
    st.pending.clear()
    st.combat = st.combat.with_building(None)
    st.end_game(side, cause, events)


def check_airfields(st: FBState, rule: str, events: list[Event]) -> None:
    held = airfields.japanese_on_airfield(st)
    if held:
        declare(
            st, "jp", f"automatic victory, Japanese ground units on airfield hex {', '.join(held)} ({rule})", events
        )


class EndPhase(FBPhase):
    """FB 11.0 END PHASE: announce victory or begin the next turn."""

    def enter(self, st: FBState, events: list[Event]) -> None:
        check_airfields(st, "FB 2.0", events)
        if st.result is not None or st.turn < len(st.data.turns):
            return
        on_map = sorted(
            u for u, where in st.ground.items() if st.data.ground[u].side == "jp" and st.board.on_map(where)
        )
        if on_map:
            declare(st, "jp", f"Japanese ground units on the map at the end of {st.turn_label} (FB 2.0)", events)
        else:
            declare(st, "us", f"no Japanese ground unit on the map at the end of {st.turn_label} (FB 2.0)", events)


PHASE = EndPhase()
