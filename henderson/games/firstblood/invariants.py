"""What every FIRST BLOOD position must keep (checked after every action of the random-play
soaks): one place per counter, the occupancy index in step, stacking (FB 5.0, 5.1, 5.2,
12.5), air units where they may be, a decision for whoever is to act."""

from __future__ import annotations

from typing import TYPE_CHECKING

from henderson.games.firstblood.rules import airfields

if TYPE_CHECKING:
    from henderson.games.firstblood.state import FBState


def errors(st: FBState) -> list[str]:
    """Everything that must hold and does not, one sentence each."""
    data, board = st.data, st.board
    found: list[str] = []
    seen: dict[str, str] = {}
    for place, units in st.occ.items():
        if not units:
            found.append(f"empty list kept for {place}")
        for u in units:
            if u in seen:
                found.append(f"{u} in two places")
            seen[u] = place
    if seen != st.ground:
        found.append("the occupancy index and the ground units disagree")
    for place, units in st.occ.items():
        if not units:
            continue
        if board.on_map(place):
            if len({data.ground[u].side for u in units}) != 1:
                found.append(f"US and Japanese units share {place} (FB 5.1)")
            # FB 5.0: the limit holds at the end of the movement phase; the moving side may pass it meanwhile
            moving = st.step.endswith("_movement") and data.ground[units[0]].side == st.phasing
            if len(units) > 3 and not moving:
                found.append(f"{len(units)} units in {place} (FB 5.0)")
        elif place in board.box_arrows:
            if any(data.ground[u].side != "jp" for u in units):
                found.append(f"a US unit in off-board box {place} (FB 6.0)")
        elif place not in board.ep_arrows:
            found.append(f"{place} is not a place")
    out = set(st.eliminated)
    if out & set(st.ground) or out & set(st.air) or out & set(st.ships):
        found.append("an eliminated counter is in play")
    for h in board.airfield_hexes:
        on = [a for a, w in st.air.items() if w == h]
        if len(on) > 6:
            found.append(f"{len(on)} air units on {h} (FB 5.2)")
        if on and st.airfield[h] != "operational":
            found.append(f"air units on a {st.airfield[h]} hex {h}")
        if h in board.fighter_strip and not all(airfields.is_fighter(st, a) for a in on):
            found.append(f"a bomber on the Fighter Strip hex {h} (FB 12.5)")
    for a, w in st.air.items():
        us = data.air[a].side == "us"
        if not (
            (w in board.airfield_hexes or w.startswith("usaf") or w == "returning") if us else w.startswith("ijaf")
        ):
            found.append(f"{a} is in {w}, not a place for it")
    if st.step == "jp_reinforcement" and not st.pending and not airfields.capacity_ok(st):
        found.append("over capacity after the US air phase (FB 12.3.1)")
    if not st.is_terminal():
        if not st.legal_actions():
            found.append(f"no legal action in {st.step}")
        if st.current_player() not in ("us", "jp"):
            found.append(f"{st.current_player()!r} is to act")
    elif st.winner() not in ("us", "jp") or st.legal_actions():
        found.append("a finished game without a winner, or with actions left")
    return found
