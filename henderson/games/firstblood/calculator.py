"""The FIRST BLOOD battle calculator: any attack on one hex, from factors chosen freely, read
through the same `attack_odds` as the odds of an attack on the board (FB 8.4–8.8)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from henderson.core.calculator import Calculation, CalculatorForm, Note, Outcome, choice, number
from henderson.core.errors import HendersonError
from henderson.games.firstblood.model import MAX_FACTOR, RESULT_CODES, FBData
from henderson.games.firstblood.odds import JUNGLE, Odds, attack_odds, bomber_support, doubled, shore_bombardment

NO_DOUBLING = "none"
DEFENDER_HEX = "defender"  # the hex named in the doublings' text


def form(data: FBData) -> CalculatorForm:
    """The inputs: the attacking side, its factors and support, the defence, the defender's
    terrain and why it is doubled; the ranges of support come from the counters in the data."""
    terrains = tuple(sorted({h.terrain for h in data.map.hexes.values()}))
    bombers = sum(1 for a in data.air.values() if a.side == "us" and data.air_types[a.type].is_bomber)
    return CalculatorForm(
        (
            choice("attacker", "Attacking side", ("us", "jp"), rule="FB 8.9", group="battle"),
            number("ground", "Ground attack factors", MAX_FACTOR, rule="FB 8.4", group="attacker", default=4),
            number("artillery", "Artillery factors bombarding", MAX_FACTOR, rule="FB 9.6", group="attacker"),
            number("bombers", "US bombers supporting", bombers, rule="FB 13.6", group="attacker"),
            number("ships", "IJN ships bombarding", len(data.ships), rule="FB 10.4", group="attacker"),
            number("defence", "Defence factors", MAX_FACTOR, rule="FB 8.4", group="defender", default=2),
            choice("terrain", "Defender's terrain", terrains, rule="FB 8.7.1", group="defender"),
            choice(
                "doubling", "Defence doubled", (NO_DOUBLING, "river", "ridge", "entry point", "box"),
                rule="FB 8.7", group="defender",
            ),
        )
    )


def calculate(data: FBData, inputs: Mapping[str, Any]) -> Calculation:
    """The odds of the attack `inputs` describe; combinations the rules exclude are refused
    naming the field (bombers only support US attacks, ships only Japanese ones, a ridge
    doubling needs a ridge, an entry point is American and a box Japanese)."""
    v = form(data).read(inputs)
    side = str(v["attacker"])
    why = str(v["doubling"])
    if v["bombers"] and side != "us":
        raise HendersonError("bombers: only US bombers support attacks, and only US attacks (FB 13.6)")
    if v["ships"] and side != "jp":
        raise HendersonError("ships: only IJN ships bombard, in Japanese attacks (FB 10.4)")
    if why == "ridge" and v["terrain"] != "ridge":
        raise HendersonError("doubling: a ridge doubles only a defender on a ridge (FB 8.7.2)")
    if why == "entry point" and side != "us":
        raise HendersonError("doubling: attacks out of an entry point are American (FB 7.5)")
    if why == "box" and side != "jp":
        raise HendersonError("doubling: attacks out of an off-board box are Japanese (FB 7.5.1)")
    mods = []
    if v["terrain"] == "jungle":
        mods.append(JUNGLE)
    if v["bombers"]:
        mods.append(bomber_support([f"bomber {i + 1}" for i in range(int(v["bombers"]))]))
    if v["ships"]:
        mods.append(shore_bombardment([f"ship {i + 1}" for i in range(int(v["ships"]))]))
    odds = attack_odds(
        data.tables[side],
        int(v["ground"]),
        int(v["artillery"]),
        [(int(v["defence"]), None if why == NO_DOUBLING else doubled(why, DEFENDER_HEX))],
        mods,
    )
    return calculation(odds)


def calculation(odds: Odds) -> Calculation:
    """The odds in the calculator's common shape: every doubling, cap and die modifier with its
    rule, and each result of the table in the order of FB 8.10."""
    notes = [Note(d.rule, d.text, "×2") for d in odds.doublings]
    if odds.artillery < odds.artillery_offered:
        notes.append(Note("FB 9.6", f"artillery capped at twice the ground factors ({odds.artillery})"))
    notes += [Note(m.rule, m.text, f"{m.value:+d}") for m in odds.modifiers]
    if odds.column is None:
        summary = f"{odds.ratio_text}: the attackers are eliminated before any roll (FB 8.6)"
    else:
        summary = f"{odds.attack} against {odds.defence}: {odds.ratio_text}, column {odds.column} of the {odds.table}"
    outcomes = [Outcome(code, odds.distribution[code]) for code in RESULT_CODES if code in odds.distribution]
    if odds.column is None:
        outcomes = [Outcome("AE", Fraction(1))]
    return Calculation(summary, tuple(notes), tuple(outcomes), odds)
