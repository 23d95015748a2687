"""The odds of a Deluxe Guadalcanal assault for the `odds` command and the server: the assault is
built on a copy of the position from the steps given (`attack HEX; with UNIT; ...`), nothing is
rolled, and the exact distribution comes from `assault.odds` (DG 8.2.1.4)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from henderson.core.errors import HendersonError
from henderson.core.game import trial

from .state import DGState


@dataclass
class AssaultOdds:
    """An assault's strengths, ratio column and each die face's results, exactly."""

    data: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return self.data

    def text(self) -> str:
        d = self.data
        lines = [f"attack {d['attack']} against defence {d['defense']}: column {d['ratio']}"]
        if d.get("unseen_counters"):
            lines.append(
                f"  not counted: {d['unseen_counters']} counter(s) below the top of the defending "
                "stack(s), which the attacker cannot see (DG 7.8)"
            )
        if d["strain_loss_chance"] != "0":
            lines.append(f"straining: the attacker loses a step with chance {d['strain_loss_chance']} (DG 8.2.3)")
        for r in d["results"]:
            a, df = r["attacker"], r["defender"]
            lines.append(
                f"  die {r['die']} ({r['chance']}): attacker L{a['loss']} R{a['retreat']} A{a['advance']}, "
                f"defender L{df['loss']} R{df['retreat']} A{df['advance']}"
            )
        if not d["results"]:
            lines.append("  outside the Attrition Table's columns")
        return "\n".join(lines)


def assault_odds(state: Any, spec: str) -> AssaultOdds:
    """Build the assault described by `spec` (steps separated by ';') on a copy and read its odds;
    with an empty spec, the assault already being built."""
    steps = [s.strip() for s in spec.split(";") if s.strip()]
    built = trial(state, state.current_player(), steps)  # nothing rolled, nothing revealed
    assert isinstance(built, DGState)
    found = built.odds()
    if found is None:
        raise HendersonError("no assault is being built: start one with 'attack HEX; with UNIT; ...'")
    return AssaultOdds(found)
