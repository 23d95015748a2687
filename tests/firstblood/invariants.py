"""Invariants every FIRST BLOOD position must keep, checked after every action of random games."""

from __future__ import annotations

from typing import Any

from henderson.games.firstblood.rules import airfields


def check(st: Any) -> None:
    data = st.data
    board = st.board
    # every unit in exactly one place, and the occupancy index agrees
    seen: dict[str, str] = {}
    for place, units in st.occ.items():
        assert units, f"empty list kept for {place}"
        for u in units:
            assert u not in seen, f"{u} in two places"
            seen[u] = place
    assert seen == st.ground
    for place, units in st.occ.items():
        if board.on_map(place):
            sides = {data.ground[u].side for u in units}
            assert len(sides) == 1, f"US and Japanese units share {place} (FB 5.1)"
            # FB 5.0: the limit holds at the end of the movement phase; the moving side may pass it meanwhile
            moving = st.phase.endswith("_movement") and data.ground[units[0]].side == st.phasing
            assert len(units) <= 3 or moving, f"{len(units)} units in {place} (FB 5.0)"
        elif place in board.box_arrows:
            assert all(data.ground[u].side == "jp" for u in units), "a US unit in an off-board box (FB 6.0)"
        else:
            assert place in board.ep_arrows, f"{place} is not a place"
    out = set(st.eliminated)
    assert not out & set(st.ground) and not out & set(st.air) and not out & set(st.ships)
    for h in board.airfield_hexes:
        on = [a for a, w in st.air.items() if w == h]
        assert len(on) <= 6, f"{len(on)} air units on {h} (FB 5.2)"
        if on:
            assert st.airfield[h] == "operational", f"air units on a {st.airfield[h]} hex {h}"
        if h in board.fighter_strip:
            assert all(airfields.is_fighter(st, a) for a in on), "a bomber on the Fighter Strip (FB 12.5)"
    for a, w in st.air.items():
        side = data.air[a].side
        assert (
            (w in board.airfield_hexes or w.startswith("usaf") or w == "returning")
            if side == "us"
            else w.startswith("ijaf")
        )
    if st.phase == "jp_reinforcement" and not st.pending:
        assert airfields.capacity_ok(st), "over capacity after the US air phase (FB 12.3.1)"
    if not st.is_terminal():
        assert st.legal_actions(), f"no legal action in {st.phase}"
        assert st.current_player() in ("us", "jp")
    else:
        assert st.winner() in ("us", "jp") and not st.legal_actions()
