"""The odds of a FIRST BLOOD attack as plain text, for the command line and the terminal game."""

from __future__ import annotations

from typing import Any

RESULT_ORDER = ("AE", "A2", "A1", "EX", "DR", "D1", "DE")


def odds_report(o: dict[str, Any]) -> str:
    """An attack's odds as a person reads them (the JSON of `Odds.to_json`)."""
    lines = [
        f"attack: {o['ground']} ground + {o['artillery']} artillery"
        + (
            f" (of {o['artillery_offered']} offered; at most twice the ground factors, FB 9.6)"
            if o["artillery"] < o["artillery_offered"]
            else ""
        )
        + f" = {o['attack']}",
        f"defence: {o['defence_base']}" + (f" → {o['defence']} doubled" if o["doublings"] else ""),
    ]
    for d in o["doublings"]:
        lines.append(f"  {d['hex']} doubled: {d['text']} ({d['rule']})")
    lines.append(f"odds: {o['ratio']}")
    if o["column"] is None:
        lines.append("below 1-2: the attackers are eliminated before any roll (FB 8.6)")
        return "\n".join(lines)
    lines.append(f"column {o['column']} of the {o['table']}")
    for m in o["modifiers"]:
        lines.append(f"  die {m['value']:+d}: {m['text']} ({m['rule']})")
    lines.append(f"total die modifier {o['drm']:+d} (the die stays within 1-6, FB 8.8)")
    lines.append("chance of each result:")
    for code in RESULT_ORDER:
        if code in o["distribution"]:
            lines.append(f"  {code:3} {o['distribution'][code]:>5}  ({o['probabilities'][code]:.1%})")
    return "\n".join(lines)
