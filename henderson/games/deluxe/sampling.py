"""What a side cannot see, guessed: `sample_unseen` gives a copy of a position in which the
enemy units hidden from `side` (DG 7.7 stealth, DG 7.8 below the top of a stack, DG 10.2
Rabaul picks) are redrawn from what its view allows, so computer players look ahead
without reading the other side's secrets (docs/rulings/deluxe.md, ruling 14b).

The guess depends only on the side's view and the random generator: the units hidden on
the map are shuffled among the hidden places (a stealth marker takes only an infantry
unit, DG 7.7.1; each hex keeps its number of counters, DG 7.5), and the Rabaul picks are drawn again from the
units available in the period they land in, within the public limits of the bonus
(DG 10.1, 10.2.1-2).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from .decisions import ArtilleryLoss, Assault, RabaulPicks, StealthMove
from .rules.common import occupancy
from .rules.rabaul import in_period, landing_turn

if TYPE_CHECKING:
    from .state import DGState
    from .units import UnitState

# what belongs to the place a counter fills rather than to the counter: its hex and stack
# order, the stealth marker over it and what was done there this turn
PLACE_FIELDS = (
    "at",
    "order",
    "stealth",
    "pool",
    "pool_start",
    "self_exit",
    "spent",
    "moved",
    "leg",
    "attacked",
    "start",
)
TRIES = 20  # random arrangements tried before keeping the one found


def sample_unseen(state: DGState, side: str | None, rng: random.Random) -> DGState:
    """A copy of `state` whose parts hidden from `side` are a guess consistent with
    `state.view(side)`; its dice are those of the copy (callers reseed them)."""
    out = state.clone()
    mapping = _shuffle_hidden(out, side, rng)
    _redraw_picks(out, side, rng)
    if mapping:
        _rename_in_notes(out, mapping)
    out.changed()
    return out


def _fixed_hexes(state: DGState) -> set[str]:
    """Hexes a pending decision names (an assault's targets, its units' hexes, a hex under
    fire): their counters are being revealed (DG 8.2.11), so they stay as they are."""
    fixed: set[str] = set()
    for p in state.pending:
        names: list[str] = []
        if isinstance(p, Assault):
            fixed.update(p.targets)
            names = [*p.units, *(p.defenders or []), *p.support]
        elif isinstance(p, ArtilleryLoss):
            fixed.add(p.hex)
        elif isinstance(p, StealthMove):
            names = p.units
        for uid in names:
            u = state.units.get(uid)
            if u is not None and u.on_map:
                fixed.add(u.at)
    return fixed


def _shuffle_hidden(state: DGState, side: str | None, rng: random.Random) -> dict[str, str]:
    """Deal each other side's units hidden on the map at random among that side's hidden
    places (a spectator sees neither side's: each is dealt apart, since a stealth marker
    and a stack show whose they are); returns the old occupant -> new occupant of each."""
    fixed = _fixed_hexes(state)
    mapping: dict[str, str] = {}
    for owner in state.game.sides:
        if owner == side:
            continue
        places: list[UnitState] = []  # the counters now filling hidden places, by hex and order
        for hid, units in sorted(occupancy(state).items()):
            if units[0].side != owner or hid in fixed:
                continue
            shown = [u for u in units if not u.stealth]
            top = shown[-1] if shown else None
            places.extend(u for u in units if u is not top)
        mapping.update(_deal(state, places, rng))
    return mapping


def _deal(state: DGState, places: list[UnitState], rng: random.Random) -> dict[str, str]:
    """Deal the units filling `places` at random among those places, as far as the rules
    allow; returns the old occupant -> new occupant of each place."""
    if len(places) < 2:
        return {}
    slots = [{f: getattr(u, f) for f in PLACE_FIELDS} for u in places]
    names = sorted(u.id for u in places)  # the view tells which units are hidden, not where
    data = state.data

    turn = state.turn
    first = [u.id for u in places]

    def two(uid: str, slot: dict[str, Any]) -> bool:
        """A Heavy counts two in its landing hex on its landing turn (DG 10.2.3 note)."""
        return data.units[uid].heavy and state.units[uid].landed == turn and slot["at"] == slot["start"]

    def fits(order: list[str]) -> bool:
        """A stealth marker covers infantry only (DG 7.7.1). Stacking (DG 7.5) holds as each
        hex keeps its number of counters, and each place counts as many stacking places as
        before (a Heavy counts two in its landing hex on its landing turn, DG 10.2.3)."""
        return all(
            (not slot["stealth"] or data.units[uid].infantry) and two(uid, slot) == two(was, slot)
            for slot, uid, was in zip(slots, order, first, strict=True)
        )

    for _ in range(TRIES):
        rng.shuffle(names)
        if fits(names):
            break
    else:  # no deal found: the places keep their counters
        return {}
    for slot, uid in zip(slots, names, strict=True):
        state.update(state.units[uid], **slot)
    return dict(zip(first, names, strict=True))


def _rename_in_notes(state: DGState, mapping: dict[str, str]) -> None:
    """The turn's notes about a place (river crossings used, field work, a stuck landing, an
    advance) follow the counter now dealt to that place."""
    notes = state.this_turn
    notes.stuck = [mapping.get(x, x) for x in notes.stuck]
    notes.hf_work = [mapping.get(x, x) for x in notes.hf_work]
    notes.advanced = [mapping.get(x, x) for x in notes.advanced]
    notes.crossings = {mapping.get(k, k): v for k, v in notes.crossings.items()}


def _redraw_picks(state: DGState, side: str | None, rng: random.Random) -> None:
    """DG 10.2: the enemy knows how many units sail from Rabaul and within which limits,
    not which: draw that many again among the units available in the period they land in."""
    picked = [u for u in state.units.values() if u.side != side and u.at == "next"]
    if not picked:
        return
    terms = state.next_turn.rabaul_bonus or state.this_turn.rabaul_bonus
    for u in picked:
        state.update(u, at=state.home(u.id))
    period = terms.period if terms is not None else state.data.period_of(landing_turn(state))
    limit = terms.strength if terms is not None else 99
    owner = picked[0].side
    pool = sorted(
        uid
        for uid, t in state.data.units.items()
        if t.side == owner and state.units[uid].at in ("rabaul", "turn") and in_period(state, uid, period)
    )
    strength = {uid: state.data.units[uid].strength for uid in pool}
    chosen: list[str] = []
    for _ in range(TRIES):
        rng.shuffle(pool)
        chosen, total = [], 0
        for uid in pool:
            if len(chosen) < len(picked) and total + strength[uid] <= limit:
                chosen.append(uid)
                total += strength[uid]
        if len(chosen) == len(picked):
            break
    else:  # no random draw fits: the weakest units, a guess the view allows
        chosen = sorted(pool, key=lambda uid: (strength[uid], uid))[: len(picked)]
    for uid in chosen:
        state.update(state.units[uid], at="next")
    for p in state.pending:
        if isinstance(p, RabaulPicks) and p.side == owner:
            p.picked = list(chosen)
