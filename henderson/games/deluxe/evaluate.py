"""A static evaluation of a Deluxe Guadalcanal position for the computer players.

`evaluate(state, side)` is the per-game hook the agents look up as
`henderson.games.deluxe.evaluate`: a number in [-1, 1], +1 a won game for `side`, -1 a lost
one, and `evaluate(s, "us") == -evaluate(s, "jp")` (the game is zero-sum, DG 9.0).

It weighs what decides the game (DG 9): the victory points and where they are heading
(villages, Henderson Field and Japanese artillery in range of it, DG 9.1-9.2), who holds
the field and who threatens it as the last turn nears (DG 9.4), the strength in steps of
each side on the island, artillery supply (DG 8.1.1) and the turns left. It reads the whole
position, hidden units included: an agent that must not look under the enemy's counters
evaluates a position built from its own view. Everything fixed (distances to the field,
printed values) is computed once per game object, so a call costs one pass over the units.
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .decisions import Assault
from .rules.assault import force
from .rules.common import STEP_VP

if TYPE_CHECKING:
    from .game import DGGame
    from .state import DGState

# how much each part counts; the sum goes through tanh (docs/deluxe.md, "Evaluation")
W_VP = 1.0  # victory points now plus the expected income over the turns left
W_FIELD = 0.8  # holding Henderson Field, more as the end nears (DG 9.4)
W_THREAT = 0.35  # strength near the field: who can take it next
W_STRENGTH = 0.5  # steps on the island by side
W_SUPPLY = 0.15  # artillery supply points
VP_SCALE = 40.0  # points at which the VP part counts one
HORIZON = 2.0  # turns of the present VP income counted ahead (positions change)
NEAR = 2  # hexes from Henderson Field that threaten or guard it
CAP = 0.999  # a position not yet won is never worth a win


@dataclass(frozen=True)
class Tables:
    """Values fixed for a game: per unit its side, printed strength, range and artillery
    flag; per hex its distance to Henderson Field; the game's length."""

    hf: str
    to_hf: dict[str, int]
    full: dict[str, int]
    artillery_range: dict[str, int]  # unit id -> range, artillery only
    turns: int
    steps_per_turn: int
    supply_cap: int
    vp_to_win: int
    hf_operational: int


_TABLES: weakref.WeakKeyDictionary[DGGame, Tables] = weakref.WeakKeyDictionary()


def tables(game: DGGame) -> Tables:
    """The fixed tables of `game`, built on first use and kept with the game object."""
    found = _TABLES.get(game)
    if found is None:
        d = game.data
        m = d.map
        hf = m.henderson_field
        found = Tables(
            hf=hf,
            to_hf={h: m.distance(h, hf) for h in m.hexes},
            full={uid: t.strength for uid, t in d.units.items()},
            artillery_range={uid: t.range for uid, t in d.units.items() if t.artillery},
            turns=d.constants.turns,
            steps_per_turn=sum(1 for step, *_ in d.sequence.entries if not step.setup),
            supply_cap=d.constants.supply_cap,
            vp_to_win=d.constants.vp_to_win,
            hf_operational=d.constants.hf_operational,
        )
        _TABLES[game] = found
    return found


def evaluate(state: DGState, side: str) -> float:
    """The position's worth to `side` ("us" or "jp"; the old "japan" is accepted): exactly
    +1 / -1 once the game is won / lost (0 for a draw), otherwise strictly between."""
    side = "jp" if side == "japan" else side
    if side not in ("us", "jp"):
        raise ValueError(f"unknown side {side!r}: expected 'us' or 'jp'")
    value = us_value(state)
    return value if side == "us" else -value


def us_value(state: DGState) -> float:
    """The evaluation from the US side (Japan's is its negation)."""
    if state.is_terminal():
        winner = state.winner()
        return 0.0 if winner is None else (1.0 if winner == "us" else -1.0)
    p = us_parts(state)
    x = W_VP * p.vp + W_FIELD * p.field + W_THREAT * p.threat + W_STRENGTH * p.strength + W_SUPPLY * p.supply
    return max(-CAP, min(CAP, math.tanh(x)))


@dataclass(frozen=True)
class Parts:
    """The evaluation's parts from the US side, before they are weighed (docs/deluxe.md): the
    projected victory points, Henderson Field's holder, the strength near it, the steps on
    the island, artillery supply, and the clock (`late`, 0 at the start and 1 at the end)."""

    vp: float
    field: float
    threat: float
    strength: float
    supply: float
    late: float


def us_parts(state: DGState) -> Parts:
    """The parts of the evaluation of a position not yet over, from the US side."""
    t = tables(state.game)
    # the clock: turns still to score, counting what is left of this one
    left = max(0.0, t.turns - state.turn + 1 - max(0, state.step_number - 1) / t.steps_per_turn)
    late = 1.0 - left / t.turns  # 0 at the start, 1 at the end

    steps = {"us": 0, "jp": 0}
    near = {"us": 0, "jp": 0}
    jp_guns_in_range = False
    to_hf = t.to_hf
    for u in state.units.values():
        at = u.at
        d = to_hf.get(at)
        if d is None:  # off the map
            continue
        steps[u.side] += u.strength
        if d <= NEAR:
            near[u.side] += u.strength
        if u.side == "jp" and not jp_guns_in_range:
            rng = t.artillery_range.get(u.id)
            if rng is not None and d <= rng:
                jp_guns_in_range = True

    # step losses an assault has rolled and its owners have still to take (DG 8.2.1.4, and the
    # doubled ones of a banzai, DG 8.2.10) are as good as taken: each scores for the enemy
    owed = owed_losses(state)
    for side, n in owed.items():
        steps[side] -= n

    # DG 9.1-9.2: the points each side scores a turn if nothing changes
    villages_us = sum(1 for owner in state.villages.values() if owner == "us")
    villages_jp = len(state.villages) - villages_us
    operational = state.airfield.status >= t.hf_operational
    income = villages_us - villages_jp
    if operational:
        income += 3 if state.airfield.control == "us" else -7
    if state.airfield.control == "us" and jp_guns_in_range:
        income -= 2
    projected = state.vp + STEP_VP["jp"] * owed["jp"] - STEP_VP["us"] * owed["us"] + income * min(left, HORIZON)
    vp_part = max(-2.5, min(2.5, projected / VP_SCALE))
    if abs(state.vp) >= t.vp_to_win:  # DG 9.4: wins at the end of this turn
        vp_part = 2.5 if state.vp > 0 else -2.5

    # DG 9.4: Japan wins by holding the field at the end, so control counts more late
    holder = 1.0 if state.airfield.control == "us" else -1.0
    field_part = holder * (0.25 + 0.75 * late) * (1.0 if operational else 0.6)
    guard = near["us"] - near["jp"]
    threat_part = guard / (near["us"] + near["jp"] + 4)

    total = steps["us"] + steps["jp"]
    strength_part = (steps["us"] - steps["jp"]) / total if total else 0.0

    supply_us = t.supply_cap if _unlimited(state) else state.supply["us"]
    supply_part = (supply_us - state.supply["jp"]) / t.supply_cap
    return Parts(vp_part, field_part, threat_part, strength_part, supply_part, late)


def owed_losses(state: DGState) -> dict[str, int]:
    """Steps each side must still lose in the assaults being resolved (DG 8.2.1.4: the losses
    rolled, which each owner takes one step at a time; DG 8.2.10: the doubled losses a banzai
    takes instead of retreating), at most the steps of its units in each assault."""
    owed = {"us": 0, "jp": 0}
    for p in state.pending:
        if not isinstance(p, Assault) or not p.loss:
            continue
        for side, n in p.loss.items():
            if n > 0:
                owed[side] += min(n, sum(u.strength for u in force(state, p, side)))
    return owed


def _unlimited(state: DGState) -> bool:
    """DG 8.1.1: an "Unl." box this turn: US artillery fires without spending supply."""
    return state.data.turn(state.turn).supply["us"] == "unl"
