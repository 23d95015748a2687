"""Where counters may be placed: at set-up (FB 3.0, 3.1) and as reinforcements (FB 7.1–7.2,
10.1, 13.4, 13.5). Shared by the set-up and reinforcement phases."""

from __future__ import annotations

from henderson.core.errors import IllegalAction
from henderson.core.events import Event
from henderson.games.firstblood.state import FBState, ShipBox

AIRSTRIP_STACK = 6  # FB 5.2, 12.1
HEX_STACK = 3  # FB 5.0
ENTRY_POINT_LIMIT = 4  # FB 7.1 (circled US points), 7.2 (every Japanese point)


def kind_of(st: FBState, unit: str) -> str:
    if unit in st.data.ground:
        return "ground"
    if unit in st.data.air:
        return "air"
    if unit in st.data.ships:
        return "ship"
    return "unknown"


def ground_places(st: FBState, unit: str, setup: bool) -> list[str]:
    """Places a ground unit may be put now."""
    side = st.data.ground[unit].side
    board = st.board
    if setup:
        if side == "us":  # FB 3.0: the US set-up area, stacking limits of 5.0
            occ = st.occ
            return [h for h in board.setup_hexes if len(occ.get(h, ())) < HEX_STACK]
        return list(board.reinforcement_boxes)  # FB 3.1: Box A and/or Box D
    places: list[str] = []
    enemy = st.hexes_of("us") if side == "jp" else set()  # asked of Japanese entry points only
    for ep, ep_side in board.ep_side.items():
        if ep_side != side:
            continue
        here = len(st.at(ep))
        if side == "us":
            if board.ep_circled[ep] and here >= ENTRY_POINT_LIMIT:  # FB 7.1
                continue
        else:
            if here >= ENTRY_POINT_LIMIT:  # FB 7.2
                continue
            if all(h in enemy for h in board.ep_arrows[ep]):  # FB 7.5.1: blocked points are not used
                continue
        places.append(ep)
    if side == "jp":
        places.extend(board.reinforcement_boxes)  # FB 7.2: boxes A and D, no stacking limit
    return places


def air_setup_places(st: FBState, unit: str) -> list[str]:
    """FB 3.0: US air units on either Henderson Field hex, the CAP box or the Ground Attack box."""
    t = st.data.air_types[st.data.air[unit].type]
    places = [h for h in st.board.henderson if sum(1 for a in st.air.values() if a == h) < AIRSTRIP_STACK]
    capacity = AIRSTRIP_STACK * len(st.board.henderson)
    used = sum(1 for a in st.air.values() if a in (*st.board.henderson, "usaf_cap", "usaf_ground_attack"))
    if used < capacity:  # FB 12.3.1
        if t.is_fighter:
            places.append("usaf_cap")
        if t.is_bomber:
            places.append("usaf_ground_attack")
    return places


def places_for(st: FBState, unit: str, setup: bool) -> list[str]:
    kind = kind_of(st, unit)
    if kind == "ground":
        return ground_places(st, unit, setup)
    if kind == "ship":
        return ["ijn_reserve", "ijn_attack"]  # FB 7.2, 10.1
    if kind == "air" and setup and st.data.air[unit].side == "us":
        return air_setup_places(st, unit)
    return []


def may_place(st: FBState, unit: str, place: str, setup: bool) -> bool:
    """Whether `place` is one of `places_for(st, unit, setup)`, without listing them all for a
    ground unit set up (the default set-up checks every counter left at every step)."""
    if setup and kind_of(st, unit) == "ground":
        if st.data.ground[unit].side == "us":  # FB 3.0, 5.0: as `ground_places`
            return place in st.board.setup_area and len(st.occ.get(place, ())) < HEX_STACK
        return place in st.board.reinforcement_boxes  # FB 3.1
    return place in places_for(st, unit, setup)


def check_place(st: FBState, unit: str, place: str, setup: bool) -> None:
    """Raise IllegalAction unless `unit` may be placed at `place` now."""
    rule = ("FB 3.0" if st.phasing == "us" else "FB 3.1") if setup else "FB 7.0"
    if unit not in st.to_place:
        raise IllegalAction(rule, f"{unit} is not waiting to be placed now")
    if not may_place(st, unit, place, setup):
        kind = kind_of(st, unit)
        if kind == "ground" and setup and st.phasing == "us":
            raise IllegalAction("FB 3.0", f"{unit} must be set up in rows 02-12, columns 02-15, at most 3 a hex")
        if kind == "ground" and setup:
            raise IllegalAction("FB 3.1", f"{unit} must be set up in Box A or Box D")
        if kind == "ground" and st.phasing == "us":
            raise IllegalAction("FB 7.1", f"{unit} must enter on US entry points 4-14 (at most 4 on a circled one)")
        if kind == "ground":
            raise IllegalAction(
                "FB 7.2", f"{unit} must enter on entry points 1-3 or 15-17 (at most 4 each, not blocked) or Box A/D"
            )
        if kind == "ship":
            raise IllegalAction("FB 10.1", f"{unit} goes to the IJN Reserve or IJN Attack box")
        raise IllegalAction("FB 3.0", f"{unit} may be set up on a Henderson Field hex, the CAP or Ground Attack box")


def place(st: FBState, unit: str, where: str, events: list[Event]) -> None:
    """Put a waiting counter in play (the check has been made)."""
    st.to_place.remove(unit)
    kind = kind_of(st, unit)
    if kind == "ground":
        st.put(unit, where)
        st.moved |= {unit}
        if where in st.board.box_arrows:
            st.visited[unit] = where  # FB 6.3 box counter
            if not st.current_step.setup:
                st.held |= {unit}  # FB 7.2: no move from Box A or D on the turn of arrival
    elif kind == "ship":
        st.ships[unit] = ShipBox(where)
    else:
        st.air[unit] = where
    events.append(Event("place", f"{unit} placed at {where}", {"unit": unit, "at": where}))


def accepts(st: FBState, action: object, setup: bool) -> bool:
    """Any waiting counter may be placed, not only the next one listed: checked here."""
    from henderson.games.firstblood import actions as A

    if isinstance(action, A.Place) and action.unit in st.to_place:
        check_place(st, action.unit, action.at, setup)
        return True
    return False


def refusal(st: FBState, action: object, setup: bool) -> IllegalAction | None:
    """Why a placement is refused, or None when `action` is not a placement."""
    from henderson.games.firstblood import actions as A

    if not isinstance(action, A.Place):
        return None
    try:
        check_place(st, action.unit, action.at, setup)
    except IllegalAction as exc:
        return exc
    return None
