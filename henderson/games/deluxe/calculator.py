"""The Deluxe Guadalcanal battle calculator: any assault on one hex, from strengths chosen
freely, added up and read on the Attrition Table by the same code as an assault on the map
(`assault.combined_attack`, `assault.attrition_odds`; DG 8.2)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from henderson.core.calculator import Calculation, CalculatorField, CalculatorForm, Note, Outcome, choice, flag, number
from henderson.core.errors import HendersonError

from .model import SIDES, GameData
from .odds import AssaultOdds
from .rules.assault import attrition_column, attrition_odds, combined_attack, shifted_up, terrain_multiplier

MAX_POINTS = 99  # strength points on one side of one assault: far more than any stack holds
MAX_STRAIN = 5  # DG 8.2.3: at most five strain points
MAX_UNITS = 20  # Japanese units on one side of one assault: more than any stack holds
NO_TERRAIN = "none"
UPHILL = "uphill"  # a defender's condition set by the hexes' levels, not by its terrain


def attacker_conditions(data: GameData) -> list[str]:
    """Hex conditions that change an attacking unit's strength (the Terrain Effects table)."""
    return sorted({e.condition for e in data.combat_effects if e.side == "attacker"})


def defender_conditions(data: GameData) -> list[str]:
    """Hex conditions that change the defence, uphill apart (a flag of its own)."""
    return sorted({e.condition for e in data.combat_effects if e.side == "defender"} - {UPHILL})


def form(data: GameData) -> CalculatorForm:
    """The attacking side and the Japanese air bonus; the attack by the hexes it comes from,
    artillery support, ambush and strain; the defence of one hex, its artillery, terrain and
    height; a combat event."""
    fields: list[CalculatorField] = [
        choice("attacker", "Attacking side", SIDES, rule="DG 8.2", group="battle"),
        number("air_bonus", "Japanese units with the air bonus", MAX_UNITS, rule="DG 10.2.3", group="battle"),
        number("attack", "Attacking units' strength", MAX_POINTS, rule="DG 8.2.1.1", group="attacker", default=6),
    ]
    fields += [
        number(f"attack_{c}", f"Strength attacking from a {c} hex", MAX_POINTS, rule="DG 8.2.1.1", group="attacker")
        for c in attacker_conditions(data)
    ]
    fields += [
        number("support", "Artillery support points", MAX_POINTS, rule="DG 8.2.4", group="attacker"),
        number("strain", "Strain points", MAX_STRAIN, rule="DG 8.2.3", group="attacker"),
        flag("ambush", "Ambush succeeded", rule="DG 8.2.9", group="attacker"),
        number("defence", "Defending units' strength", MAX_POINTS, rule="DG 8.2.1.2", group="defender", default=3),
        number("defence_artillery", "Defending artillery points", MAX_POINTS, rule="DG 8.2.4", group="defender"),
        choice(
            "terrain", "Defender's hex", (NO_TERRAIN, *defender_conditions(data)), rule="DG 8.2.1.2", group="defender"
        ),
        flag(UPHILL, "Every attacker below the defender", rule="DG 8.2.1.2", group="defender"),
        flag("combat_event", "Combat event for the attacker", rule="DG 5.0", group="battle"),
    ]
    return CalculatorForm(tuple(fields))


def calculate(data: GameData, inputs: Mapping[str, Any]) -> Calculation:
    """The exact results of the assault `inputs` describe, die face by die face."""
    v = form(data).read(inputs)
    units = [(int(v["attack"]), Fraction(1))]
    notes: list[Note] = []
    for c in attacker_conditions(data):
        m = terrain_multiplier(data, "attacker", {c})
        units.append((int(v[f"attack_{c}"]), m))
        if v[f"attack_{c}"]:
            notes.append(Note("DG 8.2.1.1", f"strength attacking from a {c} hex", f"×{m}"))
    units = [(n, m) for n, m in units if n]
    strain = int(v["strain"])
    if strain and sum(n for n, _ in units) < 2:  # DG 8.2.3
        raise HendersonError("strain: straining needs at least two attacking strength points (DG 8.2.3)")
    if v["ambush"] and v["attacker"] != "jp":
        raise HendersonError("ambush: only Japanese units ambush (DG 8.2.9)")
    bonus = int(v["air_bonus"])  # DG 10.2.3: one more factor for each Japanese non-artillery unit
    if bonus:
        notes.append(Note("DG 10.2.3", f"Japanese air bonus: {bonus} unit(s) one factor stronger", f"+{bonus}"))
    if bonus and v["attacker"] == "jp":
        units.append((bonus, Fraction(1)))
    if v["ambush"]:
        notes.append(Note("DG 8.2.9", "ambush: the attacking units' strength doubled", "×2"))
    if strain:
        notes.append(Note("DG 8.2.3", f"{strain} strain point(s); a step lost on a check of {strain} or less"))
    attack = combined_attack(units, [(int(v["support"]), Fraction(1))], bool(v["ambush"]), strain)
    conditions = set() if v["terrain"] == NO_TERRAIN else {str(v["terrain"])}
    if v[UPHILL]:
        conditions.add(UPHILL)
    for c in sorted(conditions):
        notes.append(Note("DG 8.2.1.2", f"defender: {c}", f"×{terrain_multiplier(data, 'defender', {c})}"))
    defending = int(v["defence"]) + int(v["defence_artillery"]) + (bonus if v["attacker"] == "us" else 0)
    defense = defending * terrain_multiplier(data, "defender", conditions)
    idx = attrition_column(data, attack, defense)
    if v["combat_event"]:
        idx = shifted_up(idx)
        notes.append(Note("DG 5.0", "combat event: one column to the right", "+1 column"))
    odds = AssaultOdds(attrition_odds(data, attack, defense, idx, strain))
    return Calculation(summary(odds), tuple(notes), tuple(outcomes(odds)), odds)


def summary(odds: AssaultOdds) -> str:
    d = odds.data
    text = f"attack {d['attack']} against defence {d['defense']}: column {d['ratio']}"
    if d["ratio"] == "below 1-6":
        return text + ": the attackers are eliminated (DG 8.2.1.3)"
    if d["ratio"] == "above 6-1":
        return text + ": the defenders are eliminated, the attackers advance two (DG 8.2.1.3)"
    return text


def outcomes(odds: AssaultOdds) -> list[Outcome]:
    """Each distinct result of the Attrition Table (DG 8.2.1.4) with the chance of the die faces
    giving it; outside the table, its certain result (DG 8.2.1.3)."""
    d = odds.data
    if not d["results"]:
        label = "attackers eliminated" if d["ratio"] == "below 1-6" else "defenders eliminated, attacker advances 2"
        return [Outcome(label, Fraction(1))]
    found: dict[str, Fraction] = {}
    for r in d["results"]:
        a, df = r["attacker"], r["defender"]
        label = (
            f"attacker L{a['loss']} R{a['retreat']} A{a['advance']} / "
            f"defender L{df['loss']} R{df['retreat']} A{df['advance']}"
        )
        found[label] = found.get(label, Fraction(0)) + Fraction(r["chance"])
    return [Outcome(label, p) for label, p in found.items()]
