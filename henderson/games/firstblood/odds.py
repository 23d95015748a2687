"""Odds of an attack: factors, doublings, column, die modifiers and the exact chance of each result.

One place computes these, for resolving an attack and for previewing it (CLI
`odds`, the browser's attack builder). FB 8.4–8.8, 9.6, 10.4, 13.6, 7.5.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from henderson.core.odds import column, ratio
from henderson.games.firstblood.model import ODDS_COLUMNS, RESULT_CODES, CombatTable


@dataclass(frozen=True)
class Modifier:
    value: int
    rule: str
    text: str


@dataclass(frozen=True)
class Doubling:
    hex: str
    rule: str
    text: str


@dataclass
class Odds:
    """Everything about one attack before the die is rolled."""

    ground: int  # attack factors of ground units adjacent (or attacking from an entry point/box)
    artillery_offered: int  # bombarding artillery factors named
    artillery: int  # after the cap of FB 9.6
    attack: int
    defence_base: int
    defence: int
    doublings: list[Doubling]
    column: str | None  # None: below 1-2, attackers eliminated before the roll (FB 8.6)
    ratio_text: str  # e.g. "10-6 → 1-1"
    modifiers: list[Modifier] = field(default_factory=list)
    distribution: dict[str, Fraction] = field(default_factory=dict)
    table: str = ""

    @property
    def drm(self) -> int:
        return sum(m.value for m in self.modifiers)

    def text(self) -> str:
        """The odds as a person reads them."""
        return odds_report(self.to_json())

    def to_json(self) -> dict[str, Any]:
        return {
            "ground": self.ground,
            "artillery_offered": self.artillery_offered,
            "artillery": self.artillery,
            "attack": self.attack,
            "defence_base": self.defence_base,
            "defence": self.defence,
            "doublings": [{"hex": d.hex, "rule": d.rule, "text": d.text} for d in self.doublings],
            "column": self.column,
            "ratio": self.ratio_text,
            "modifiers": [{"value": m.value, "rule": m.rule, "text": m.text} for m in self.modifiers],
            "drm": self.drm,
            "table": self.table,
            "distribution": {k: str(v) for k, v in self.distribution.items()},
            "probabilities": {k: float(v) for k, v in self.distribution.items()},
        }


def odds_column(attack: int, defence: int) -> tuple[str | None, bool, str]:
    """(column, above 3-1, text): the kit's odds ratio, rounded in the defender's favour
    (FB 8.4, 8.6), and the column of the attack table it falls in (`core.odds`)."""
    found = ratio(attack, defence)
    index = column(found, ODDS_COLUMNS)
    if defence <= 0:
        return ODDS_COLUMNS[-1], True, f"{attack}-{defence} → 3-1 +1"
    if attack <= 0:
        return None, False, f"{attack}-{defence} → below 1-2"
    if index == len(ODDS_COLUMNS):  # FB 8.6: beyond 3-1, resolved on 3-1 with +1
        return ODDS_COLUMNS[-1], True, f"{attack}-{defence} → {found}, resolved on 3-1 with +1 (FB 8.6)"
    if index < 0:  # FB 8.6: below 1-2
        return None, False, f"{attack}-{defence} → {found}, below 1-2 (FB 8.6)"
    return ODDS_COLUMNS[index], False, f"{attack}-{defence} → {found}"


# Why a defending hex is doubled, each with its rule (FB 7.5, 7.5.1, 8.7.2, 8.7.3)
DOUBLINGS: dict[str, Doubling] = {
    "river": Doubling("", "FB 8.7.3", "every attacker is across a river"),
    "ridge": Doubling("", "FB 8.7.2", "defender on a ridge, no attacker on one"),
    "entry point": Doubling("", "FB 7.5", "attacked out of an entry point"),
    # FB 7.5.1: a box attack is made "as in 7.5 above", which doubles the defenders
    "box": Doubling("", "FB 7.5.1", "attacked out of an off-board box"),
}


def doubled(reason: str, hex_id: str) -> Doubling:
    """The doubling of `hex_id` for `reason` (a key of DOUBLINGS)."""
    return replace(DOUBLINGS[reason], hex=hex_id)


JUNGLE = Modifier(-1, "FB 8.7.1", "defender in a jungle hex")


def bomber_support(bombers: Sequence[str]) -> Modifier:
    """+1 for each US bomber on the defending hex (FB 13.6)."""
    return Modifier(len(bombers), "FB 13.6", f"US bombers ({', '.join(bombers)})")


def shore_bombardment(ships: Sequence[str]) -> Modifier:
    """+2 for each IJN ship bombarding (FB 10.4)."""
    return Modifier(2 * len(ships), "FB 10.4", f"shore bombardment ({', '.join(ships)})")


def attack_odds(
    table: CombatTable,
    ground: int,
    artillery_offered: int,
    defences: Sequence[tuple[int, Doubling | None]],
    modifiers: Sequence[Modifier],
) -> Odds:
    """The odds of an attack from its factors: ground factors, artillery named (capped, FB 9.6),
    each defending hex's factors with its doubling if any, and the die modifiers of the
    situation (FB 8.7.1, 10.4, 13.6); the column and the FB 8.6 modifier are found here.
    Both the odds of an attack on a position and the battle calculator come through here."""
    art = min(artillery_offered, 2 * ground)  # FB 9.6
    base = sum(factors for factors, _ in defences)
    defence = sum(factors * (2 if why is not None else 1) for factors, why in defences)
    attack = ground + art
    column, above, text = odds_column(attack, defence)
    mods = list(modifiers)
    if above:
        mods.append(Modifier(1, "FB 8.6", "odds above 3-1"))
    result = Odds(
        ground=ground,
        artillery_offered=artillery_offered,
        artillery=art,
        attack=attack,
        defence_base=base,
        defence=defence,
        doublings=[why for _, why in defences if why is not None],
        column=column,
        ratio_text=text,
        modifiers=mods,
        table=table.name,
    )
    if column is not None:
        result.distribution = distribution(table, column, result.drm)
    return result


def distribution(table: CombatTable, column: str, drm: int) -> dict[str, Fraction]:
    """Exact chance of each result: a fair die, modified, then clamped to 1–6 (FB 8.8)."""
    dist: dict[str, Fraction] = {}
    results = table.results[column]
    for die in range(1, 7):
        roll = min(6, max(1, die + drm))
        code = results[roll - 1]
        dist[code] = dist.get(code, Fraction(0)) + Fraction(1, 6)
    return dist


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
    for code in RESULT_CODES:
        if code in o["distribution"]:
            lines.append(f"  {code:3} {o['distribution'][code]:>5}  ({o['probabilities'][code]:.1%})")
    return "\n".join(lines)
