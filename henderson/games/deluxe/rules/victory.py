"""Victory (DG 9.0-9.4): zero-sum victory points for villages, Henderson Field, artillery in
range of the field, the 1st Marine Division's withdrawal, and the automatic victories."""

from __future__ import annotations

from typing import TYPE_CHECKING

from henderson.core.events import Event

from .common import award_vp, hf_operational
from .phase import DGPhase

if TYPE_CHECKING:
    from ..state import DGState


def score_villages(state: DGState, side: str, events: list[Event]) -> None:
    """DG 9.1, 9.2: one point for each village held "at the beginning of a player's turn
    (after arrival of reinforcements)": counted once the reinforcement step (4 / 14) is over,
    so a village taken by a landing scores at once (docs/rulings/deluxe.md)."""
    held = sum(1 for owner in state.villages.values() if owner == side)
    award_vp(state, side, held, events, f"DG 9.{1 if side == 'jp' else 2} villages held")


def score_phase(state: DGState, side: str, events: list[Event]) -> None:
    """Steps 2 and 12: for Japan two points when one of its artillery units is in range of a
    US-held Henderson Field (DG 9.1). Villages score after the reinforcements
    (`score_villages`), Henderson Field at the turn end (`score_turn_end`)."""
    if side == "jp" and state.airfield.control == "us":
        hf = state.data.map.henderson_field
        for u in state.units.values():
            t = state.data.units[u.id]
            if (
                u.side == "jp"
                and u.on_map
                and t.artillery
                and state.data.map.distance(u.at, hf) <= t.range
            ):
                award_vp(state, "jp", 2, events, "DG 9.1 artillery in range of Henderson Field")
                break


def score_turn_end(state: DGState, events: list[Event]) -> None:
    """Step 20 / DG 12.0: points for an operational Henderson Field (7 Japan, 3 US); at the
    end of turn 19 one point per 1st Marine Division unit not withdrawn (DG 9.1)."""
    if hf_operational(state):
        if state.airfield.control == "jp":
            award_vp(state, "jp", 7, events, "DG 9.1 operational Henderson Field")
        else:
            award_vp(state, "us", 3, events, "DG 9.2 operational Henderson Field")
    if state.turn == state.data.constants.withdrawal_turn:
        left = sum(
            1
            for u in state.units.values()
            if state.data.units[u.id].first_marine
            and u.at not in ("withdrawn", "eliminated", "absorbed")
        )
        award_vp(state, "jp", left, events, "DG 9.1 1st Marine Division units not withdrawn")


# why a game ended (DG 9.4, 9.0): the reason, citing the rule (the game-over event, and the
# result of a version-1 position), and the cause of victory in a few fixed words (the
# result's `cause`, counted by simulation reports)
SIXTY = "DG 9.4 more than sixty victory points"
HELD = "DG 9.4 Japan holds Henderson Field at the end"
AHEAD = "DG 9.0 more victory points at the end"
EVEN = "DG 9.0 even victory points at the end: a draw"
CAUSES = {
    SIXTY: "61+ victory points",
    HELD: "Henderson Field held at the end",
    AHEAD: "more victory points at the end",
    EVEN: "even victory points at the end",
}


def cause(reason: str) -> str:
    """The short cause of victory of a reason (a version-1 result kept the reason)."""
    return CAUSES.get(reason, reason)


def check_end(state: DGState, events: list[Event]) -> None:
    """DG 9.4: more than sixty points wins at the end of a turn; after the last turn Japanese
    control of Henderson Field wins, otherwise the side ahead on points (even: a draw)."""
    if abs(state.vp) >= state.data.constants.vp_to_win:
        winner: str | None = "us" if state.vp > 0 else "jp"
        reason = SIXTY
    elif state.turn >= state.data.constants.turns:
        if state.airfield.control == "jp":
            winner, reason = "jp", HELD
        elif state.vp != 0:
            winner, reason = ("us" if state.vp > 0 else "jp"), AHEAD
        else:
            winner, reason = None, EVEN
    else:
        return
    state.end_game(winner, cause(reason), events)
    events.append(
        Event("game_over", f"game over: {winner or 'draw'} ({reason})", {"winner": winner, "reason": reason})
    )


class Score(DGPhase):
    """Steps 2 and 12: the side's victory points for threatening the field (`score_phase`)."""

    kind = "vp"

    def enter(self, state: DGState, events: list[Event]) -> None:
        score_phase(state, state.side_of(state.current_step), events)


PHASE = Score()
