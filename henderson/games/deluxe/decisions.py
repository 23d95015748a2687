"""The decisions a side owes before play goes on (`core.sequence.Decision`): an assault being
built and fought, detected units' stealth movement, the Rabaul picks and the steps lost to
artillery fire. Each names the rules that run it (`rules`, as a step names its phase); the
last one pending is decided first.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, ClassVar

from henderson.core.errors import PositionError
from henderson.core.fields import field
from henderson.core.sequence import Decision

MAX_COUNT = 99  # no count of units, steps or strength of a decision comes near it


def check_units(state: Any, units: Any, where: str) -> None:
    """Counters of the game's data (a declared field's check, `core.fields`)."""
    for uid in units:
        if uid not in state.data.units:
            raise PositionError(where, f"no unit {uid!r}")


def check_hexes(state: Any, hexes: Any, where: str) -> None:
    """Hexes of the map."""
    for h in hexes:
        if h not in state.data.map.hexes:
            raise PositionError(where, f"{h!r} is not a hex of the map")


def check_hex(state: Any, hex_id: str, where: str) -> None:
    """A hex of the map."""
    check_hexes(state, [hex_id], where)


def check_side(state: Any, side: str, where: str) -> None:
    """A side of the game."""
    if side not in state.game.sides:
        raise PositionError(where, "expected 'us' or 'jp'")


def check_sides(state: Any, counts: Any, where: str) -> None:
    """A side of the game for each key."""
    for side in counts:
        check_side(state, side, f"{where}.{side}")


@dataclass
class DGDecision(Decision):
    """A decision of Deluxe Guadalcanal, owed by `side` (the owner decides for his own units)."""


class Stage(enum.StrEnum):
    """Where an assault stands (DG 8.2.1.4): built by the attacker, then each owner's decisions
    in the order the rules give them."""

    BUILD = "build"  # units, artillery, defending hexes are added (DG 8.2.1-8.2.9)
    DEFEND = "defend"  # the defender spends supply on its artillery (DG 8.2.4)
    LOSE_D = "lose_d"  # the defender takes its step losses (DG 8.2.1.4 L)
    LOSE_A = "lose_a"  # then the attacker
    BANZAI = "banzai"  # the extra banzai losses are taken: attack again (DG 8.2.10)
    BANZAI_CHOICE = "banzai_choice"  # the Japanese attacker may attack again (DG 8.2.10)
    RETREAT_D = "retreat_d"  # the defender retreats (DG 8.2.1.4 R)
    RETREAT_A = "retreat_a"  # then the attacker
    HF = "hf"  # Henderson Field reduction after a successful assault (DG 8.2.8)
    ADVANCE = "advance"  # the attacker advances (DG 8.2.1.4 A)
    COUNTER_ADVANCE = "counter_advance"  # then the defender into hexes the attacker left


RESOLVED = frozenset(Stage) - {Stage.BUILD, Stage.DEFEND}  # the stages after the die is rolled


@dataclass
class Assault(DGDecision):
    """An assault (DG 8.2): built from small actions (`with`, `support`, `target`, `strain`,
    `ambush`, `go`), then resolved on the Attrition Table, each owner deciding its own losses,
    retreats and advances; `side` is whoever decides at this stage."""

    kind: ClassVar[str] = "assault"
    rules: ClassVar[str] = "assault:ASSAULT"
    attacker: str = field("", required=True, check=check_side)
    stage: Stage = field(Stage.BUILD, required=True)
    targets: list[str] = field(factory=list, required=True, check=check_hexes, doc="the defending hexes (DG 8.2.6)")
    units: list[str] = field(factory=list, required=True, check=check_units, doc="the attacking units")
    support: dict[str, int] = field(
        factory=dict, required=True, lo=1, hi=9, check=check_units, doc="artillery -> factors added (DG 8.2.4)"
    )
    strain: int = field(0, required=True, lo=0, hi=5, doc="points added by straining (DG 8.2.3)")
    ambush: bool = field(False, required=True, doc="declared an ambush (DG 8.2.9)")
    defend: int = field(0, required=True, lo=0, hi=MAX_COUNT, doc="supply the defender spends (DG 8.2.4)")
    banzai: bool = field(False, required=True, doc="the banzai attack is made (DG 8.2.10)")
    # set by `go`: the assault is committed (DG 8.2.11)
    defenders: list[str] | None = field(None, check=lambda s, v, w: check_units(s, v or [], w), doc="null until `go`")
    attacker_hexes: list[str] = field(factory=list, check=check_hexes)
    hf_defended: bool = field(False, doc="Henderson Field was among the defending hexes (DG 8.2.8)")
    # the resolution (DG 8.2.1.4, 8.2.3, 8.2.9, 8.2.10)
    ambush_rolled: bool = False
    ambush_hit: bool = False
    ambush_loss: bool = False
    strain_checked: bool = False
    loss_taken: dict[str, int] = field(factory=dict, lo=0, hi=MAX_COUNT, check=check_sides, doc="losses rolled")
    loss: dict[str, int] = field(factory=dict, lo=0, hi=MAX_COUNT, check=check_sides, doc="losses still to take")
    retreat: dict[str, int] = field(factory=dict, lo=0, hi=MAX_COUNT, check=check_sides)
    advance: dict[str, int] = field(factory=dict, lo=0, hi=MAX_COUNT, check=check_sides)
    banzai_go: bool = field(False, doc="the extra banzai losses are being taken: then attack again")
    retreated: list[str] = field(factory=list, check=check_units)
    advanced: list[str] = field(factory=list, check=check_units)

    def problem(self) -> tuple[str, str] | None:
        """(field, what) when the fields disagree with the stage: an assault being resolved was
        committed and rolled (DG 8.2.1.4)."""
        if self.stage is Stage.BUILD:
            return None
        if self.defenders is None:
            return "defenders", "missing for an assault being resolved"
        if self.stage in RESOLVED:
            for name in ("loss", "retreat", "advance"):
                if set(getattr(self, name)) != {"us", "jp"}:
                    return name, "missing for an assault being resolved (a number for us and for jp)"
        return None


@dataclass
class StealthMove(DGDecision):
    """Detected units complete their stealth movement (DG 7.7.5)."""

    kind: ClassVar[str] = "stealth_move"
    rules: ClassVar[str] = "stealth:DETECTED"
    units: list[str] = field(factory=list, required=True, check=check_units)


@dataclass
class RabaulPicks(DGDecision):
    """The Japanese pick Rabaul units for next turn: at most `count` units of at most
    `strength` in all (DG 10.2.1, 10.2.2)."""

    kind: ClassVar[str] = "rabaul"
    rules: ClassVar[str] = "rabaul:PICKS"
    count: int = field(0, required=True, lo=0, hi=MAX_COUNT)
    strength: int = field(0, required=True, lo=0, hi=MAX_COUNT)
    picked: list[str] = field(factory=list, required=True, check=check_units)


@dataclass
class ArtilleryLoss(DGDecision):
    """The owner of the units in `hex` takes `hits` more steps lost to artillery fire (DG 8.1.5)."""

    kind: ClassVar[str] = "artillery_loss"
    rules: ClassVar[str] = "artillery:LOSS"
    hex: str = field("", required=True, check=check_hex)
    hits: int = field(0, required=True, lo=0, hi=MAX_COUNT)
