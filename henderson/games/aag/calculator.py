"""The AAG battle calculator: the units of each side in one battle, chosen freely, and the exact
casualties each side's dice cause, both sides firing as in a battle (AAG Combat), through the
same battle-box odds as a battle on the board (`odds.odds`, `odds.airfield_odds`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from henderson.core.calculator import Calculation, CalculatorField, CalculatorForm, Note, Outcome, choice, flag, number
from henderson.core.errors import HendersonError
from henderson.games.aag.model import CATEGORIES, GameData
from henderson.games.aag.odds import AirfieldOdds, Odds, airfield_odds, odds

MAX_UNITS = 20  # of one type on one side in one battle: more than the pieces a side has
MAX_DICE = 60  # dice added by hand: beyond what any exact odds can be worked out for
ROLES = ("attacker", "defender")
AIRFIELDS = "airfields"


def form(data: GameData) -> CalculatorForm:
    """The category attacked, each side's units by type, dice the attacker adds by hand (units
    firing from elsewhere, or a known number of dice), the defender's airfields and the
    attacker's advantages (AAG Appendix 1)."""
    fields: list[CalculatorField] = [
        choice("category", "Units attacked", (*CATEGORIES, AIRFIELDS), rule="AAG Combat", group="battle", default="sea")
    ]
    for role in ROLES:
        fields += [
            number(f"{role}_{kind}", unit.name, MAX_UNITS, rule="AAG Units", group=role)
            for kind, unit in data.units.items()
        ]
    fields += [
        number(
            "attacker_dice", "More attack dice (ranged units joining)", MAX_DICE,
            rule="AAG Determine Total Attack Power", group="attacker",
        ),
        number(
            AIRFIELDS, "Defender's undamaged airfields", len(data.board.islands), rule="AAG Combat", group="defender"
        ),
        flag("night_fighting", "Attacker has Night Fighting", rule="AAG Appendix 1", group="attacker"),
        flag("banzai_charge", "Attacker has Banzai Charge", rule="AAG Appendix 1", group="attacker"),
    ]
    return CalculatorForm(tuple(fields))


@dataclass(frozen=True)
class BattleOdds:
    """Each side's fire in one battle: (who fires on whom, its exact odds)."""

    fire: tuple[tuple[str, Odds | AirfieldOdds], ...]

    def text(self) -> str:
        return "\n".join(f"{who}:\n{o.text()}" for who, o in self.fire) or "no dice are rolled"

    def to_json(self) -> dict[str, Any]:
        return {"fire": [{"who": who, "odds": o.to_json()} for who, o in self.fire]}


def calculate(data: GameData, inputs: Mapping[str, Any]) -> Calculation:
    """Both sides' fire on the other's units of the category (on airfields, the attacker's only):
    the dice are the units' attack dice against it (AAG Determine Total Attack Power)."""
    v = form(data).read(inputs)
    category = str(v["category"])
    forces = {role: {k: int(v[f"{role}_{k}"]) for k in data.units if v[f"{role}_{k}"]} for role in ROLES}
    notes: list[Note] = []
    if category == AIRFIELDS:
        for kind in forces["attacker"]:
            if data.units[kind].category == "land":
                raise HendersonError(f"attacker_{kind}: only air units and ships attack airfields (AAG Combat step 4)")
        dice = sum(n * data.units[k].attack["land"] for k, n in forces["attacker"].items()) + int(v["attacker_dice"])
        fields = int(v[AIRFIELDS])
        who = f"attacker's {dice} {'die' if dice == 1 else 'dice'} on {fields} airfield(s)"
        fire: list[tuple[str, Odds | AirfieldOdds]] = [(who, AirfieldOdds(dice, fields, airfield_odds(dice, fields)))]
        notes.append(Note("AAG Combat", "one airfield damaged for every two hits"))
    else:
        night, banzai = bool(v["night_fighting"]), bool(v["banzai_charge"])
        if night and category != "sea":
            raise HendersonError("night_fighting: Night Fighting is for attacks on sea units (AAG Appendix 1)")
        if banzai and category != "land":
            raise HendersonError("banzai_charge: Banzai Charge is for attacks on land units (AAG Appendix 1)")
        fire = []
        for shooter, target in (ROLES, ROLES[::-1]):
            targets = {k: n for k, n in forces[target].items() if data.units[k].category == category}
            dice = sum(n * data.units[k].attack[category] for k, n in forces[shooter].items())
            if shooter == "attacker":
                dice += int(v["attacker_dice"])
            if not targets or not dice:
                continue
            mine = shooter == "attacker"
            o = odds(data, category, dice, targets, night=night and mine, banzai=banzai and mine)
            fire.append((f"{shooter}'s {dice} {'die' if dice == 1 else 'dice'} on the {target}'s {category} units", o))
        if night:
            notes.append(Note("AAG Appendix 1", "Night Fighting: the attacker's 2s destroy like 1s"))
        if banzai:
            notes.append(Note("AAG Appendix 1", "Banzai Charge: the attacker's 3s hit too"))
    return Calculation(summary(fire), tuple(notes), tuple(outcomes(fire)), BattleOdds(tuple(fire)))


def summary(fire: list[tuple[str, Odds | AirfieldOdds]]) -> str:
    if not fire:
        return "no dice are rolled: no side has dice against the other's units"
    return "; ".join(who for who, _ in fire)


def outcomes(fire: list[tuple[str, Odds | AirfieldOdds]]) -> list[Outcome]:
    """Each side's fire: for each unit type hit, the chance of each number destroyed and damaged."""
    out: list[Outcome] = []
    for who, o in fire:
        if isinstance(o, AirfieldOdds):
            out += [Outcome(f"{n} airfield(s) damaged", p, who) for n, p in o.distribution.items()]
            continue
        for kind, dist in o.by_type().items():
            for (destroyed, damaged), p in dist.items():
                label = f"{kind}: {destroyed} destroyed" + (f", {damaged} damaged" if damaged else "")
                out.append(Outcome(label, p, who))
    return out
