"""Phase 3 Regroup, steps 5 and 6: Score Victory Points and Pass the First-Player Marker,
the end of every turn (AAG Regroup step 5, 6; How to Win)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from henderson.core.events import Event
from henderson.games.aag.model import SIDES, other
from henderson.games.aag.rules.base import AagPhase
from henderson.games.aag.rules.common import note

if TYPE_CHECKING:
    from henderson.games.aag.state import AAGState


def victory_cause(points_to_win: int, loser_points: int) -> str:
    """Why a side won (AAG Regroup step 5), one of a few fixed phrases so that a simulation
    can count them: it reached the points to win and the other did not, or both had passed
    them and it had more (a tie goes on, AAG Regroup step 5)."""
    if loser_points >= points_to_win:
        return f"{points_to_win} victory points, both past them: the higher total"
    return f"{points_to_win} victory points"


# the marks a piece carries for one turn, cleared as the turn ends (AAG Regroup step 6)
TURN_MARKS_CLEARED = {
    "moved": False,
    "armor_used": False,
    "fired": False,
    "landed": False,
    "unloaded": False,
    "flown": 0,
}


class Score(AagPhase):
    """Each undamaged airfield scores 1 victory point; a side with 15 or more and more than
    the other wins (a tie goes on until broken). Otherwise the first-player marker passes
    and the turn's marks (moved, fired, landed, advantages in force) are cleared."""

    def has_choice(self, state: AAGState) -> bool:
        """Nobody decides anything here: the step ends by itself, nothing listed."""
        return False

    def enter(self, state: AAGState, events: list[Event]) -> None:
        for side in (state.first, state.second):
            gained = sum(1 for a in state.airfields if a.side == side and not a.damaged)
            state.vp[side] += gained
            note(events, "vp", f"{side} scores {gained} for airfields ({state.vp[side]})", side=side, gained=gained)
        best = max(state.vp.values())
        leaders = [s for s in SIDES if state.vp[s] == best]
        target = state.data.rules.points_to_win
        if best >= target and len(leaders) == 1:  # a tie at 15 or more goes on
            winner = leaders[0]
            state.end_game(winner, victory_cause(target, state.vp[other(winner)]), events)
            return
        state.first = other(state.first)  # AAG Regroup step 6
        state.drop_index()  # most pieces change here: the index is built afresh when next needed
        pieces = state.pieces  # with no index, a piece changes in the dict alone (`update`)
        for pid, p in pieces.items():
            if p.moved or p.armor_used or p.fired or p.landed or p.unloaded or p.flown:
                pieces[pid] = p.copy_with(TURN_MARKS_CLEARED)
        state.active = []
        state.deferred = {}
        note(events, "turn", f"turn {state.turn + 1}: {state.first} is the first player")


PHASE = Score()
