"""Refusals that say why (docs/deluxe.md, action notation): every verb of the DG notation,
refused for each reason its rule gives, names that rule and the reason in its message; and a
refused action changes nothing. Each case is a hand-built position (tests/deluxe/support.py)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from henderson.core.errors import IllegalAction
from henderson.games.deluxe.actions import VERBS, act

from .support import GAME, state

HF = {"status": 20, "control": "us"}
# every Japanese unit of the turn track due by turn 15, out of the way of a Rabaul landing
LANDED_JP = {u: "eliminated" for u, t in GAME.data.units.items() if t.side == "jp" and 0 < t.arrival <= 15}
EV_NO_FIRE = {"side": "jp", "card": 9, "kind": "no_fire", "target": "enemy", "amount": 1}
EV_NO_NAVAL = {"side": "us", "card": 8, "kind": "no_naval", "target": "enemy", "amount": 0}


ASSAULT = {"147/1": "3808", "147/2": "3808", "124/2": "3708", "28/1": "3708", "124/1": "4012"}
ATTACK = ("attack 3708", "with 147/1", "with 147/2", "go")


def case(rule: str, says: str, turn: int, step: str, units: dict, action: str, *setup: str, **extra: Any):
    """One refusal: the position, the actions that lead to it, the action, what it must say."""
    return pytest.param(turn, step, units, extra, setup, action, rule, says, id=f"{rule} {action}")


CASES = [
    # -- whose decision, which step, which units (DG 4.0) -------------------------------------
    case("DG 4.0", "belongs to steps 7, 16", 15, "us_combat", {"7/1": "3808"}, "move 7/1 3909"),
    case("DG 7.1", "124/2 is not a unit of us", 15, "us_move", {"124/2": "4012"}, "move 124/2 4011"),
    case("DG 2.2.1", "there is no unit 'XX'", 15, "us_move", {}, "move XX 3707"),
    case("DG 2.1", "9999 is not a hex of the map", 15, "us_move", {"7/1": "3808"}, "move 7/1 9999"),
    case("DG 8.2.1", "belongs to an assault, and none is in progress", 15, "us_move", {}, "go"),
    case("DG 4.0", "declined or ended with `pass`", 15, "guerrilla", {}, "end"),
    case("DG 8.2.1.4", "belongs to an assault", 15, "us_move", {}, "stop"),
    case(
        "DG 8.2.10",
        "jp must first settle the assault (build)",
        15,
        "jp_combat",
        {"124/2": "3708", "147/1": "3808"},
        "banzai",
        "attack 3808",
    ),
    case("DG 10.2", "picked only at the turn end", 15, "us_move", {}, "rabaul H1"),
    case(
        "DG 4.0",
        "us must first settle the assault (build)",
        15,
        "us_combat",
        {"147/1": "3808", "124/2": "3708"},
        "end",
        "attack 3708",
    ),
    # -- DG 8.1.7 naval bombardment ----------------------------------------------------------
    case("DG 8.1.7", "begins with turn 2", 1, "us_naval", {}, "bombard"),
    case("DG 8.1.7", "only the side that does not control", 5, "us_naval", {}, "bombard", henderson_field=HF),
    case("DG 8.1.7", "not in consecutive turns", 5, "us_naval", {}, "bombard", naval_last={"us": 4}),
    case("DG 5.0", "card 8", 9, "jp_naval", {}, "bombard", flags={"event": EV_NO_NAVAL}, henderson_field=HF),
    # -- DG 6.0 reinforcements ---------------------------------------------------------------
    case("DG 6.0", "1/1 first", 1, "us_reinforce", {}, "land 1/2 3507"),
    case("DG 6.0", "arrives on turn 2", 1, "us_reinforce", {}, "land 1Rdr 3507"),
    case("DG 10.2", "waits at Rabaul", 14, "jp_reinforce", {}, "land H1 3508"),
    case("DG 6.0", "already on the map", 1, "us_reinforce", {"5/1": "3707"}, "land 5/1 3507", "land 1/1 3507"),
    case("DG 6.0", "3407 is a sea hex", 1, "us_reinforce", {}, "land 1/1 3407"),
    case("DG 6.0", "3607 is not a coastal hex", 1, "us_reinforce", {}, "land 1/1 3607"),
    case("DG 7.3.8", "3508 holds enemy units", 1, "us_reinforce", {"84G": "3508"}, "land 1/1 3508"),
    case(
        "DG 7.5",
        "no room for 1/1",
        1,
        "us_reinforce",
        {"7/1": "3508", "7/2": "3508", "7/3": "3508"},
        "land 1/1 3508",
    ),
    case(
        "DG 7.5",
        "Heavy battalion counts two",
        15,
        "jp_reinforce",
        {"H1": "next", "H2": {"at": "3508", "landed": 15, "start": "3508"}, "124/1": "3508", **LANDED_JP},
        "land H1 3508",
    ),
    case("DG 4.0 step 4", "jungle hex", 1, "us_reinforce", {}, "land 1/1 3108"),
    case("DG 4.0 step 4", "enemy zone of control", 1, "us_reinforce", {"84G": "3509"}, "land 1/1 3508"),
    case("DG 6.0", "arriving units must land", 1, "us_reinforce", {}, "pass"),
    # -- DG 11.0 guerrillas ------------------------------------------------------------------
    case("DG 11.0", "3607 is not a village", 3, "guerrilla", {}, "guerrilla 3607", supply={"us": 3}),
    case(
        "DG 11.0",
        "Kukum is not under Japanese control",
        3,
        "guerrilla",
        {},
        "guerrilla 3507",
        supply={"us": 3},
        villages={"3507": "us"},
    ),
    case("DG 11.0", "not free of Japanese units", 3, "guerrilla", {"84G": "3507"}, "guerrilla 3507", supply={"us": 3}),
    case("DG 11.0", "Japanese zone of control", 3, "guerrilla", {"84G": "3508"}, "guerrilla 3507", supply={"us": 3}),
    case(
        "DG 11.0", "once a turn", 3, "guerrilla", {}, "guerrilla 3507", supply={"us": 3}, flags={"guerrilla": ["3507"]}
    ),
    case("DG 11.0", "none is left", 3, "guerrilla", {}, "guerrilla 3507", supply={"us": 0}),
    # -- DG 7.1-7.5 movement -------------------------------------------------------------------
    case("DG 7.1", "finished its move", 15, "us_move", {"7/1": "3808"}, "move 7/1 3806", "move 7/1 3807"),
    case(
        "DG 7.7.4", "under a stealth marker", 15, "jp_move", {"124/2": {"at": "4012", "stealth": 2}}, "move 124/2 4011"
    ),
    case(
        "DG 7.7.1", "entered stealth this phase", 15, "jp_move", {"124/2": "4012"}, "move 124/2 4011", "stealth 124/2"
    ),
    case(
        "DG 2.2.2.6",
        "no landing hex was free",
        15,
        "us_move",
        {"7/1": {"at": "3508", "landed": 15}},
        "move 7/1 3608",
        flags={"stuck": ["7/1"]},
    ),
    case(
        "DG 7.4.1",
        "entered an enemy zone of control in 3808",
        15,
        "us_move",
        {"7/1": "3806", "7/2": "3806", "124/2": "3708"},
        "move 7/1 3907",
        "stack 7/1+7/2 3808",
    ),
    case(
        "DG 7.11",
        "worked on Henderson Field",
        15,
        "us_move",
        {"1Eng": "3707"},
        "move 1Eng 3806",
        "repair 1Eng",
        henderson_field={"status": 15, "control": "us"},
    ),
    case("DG 7.1", "3808 already", 15, "us_move", {"7/1": "3808"}, "move 7/1 3808"),
    case("DG 7.3.8", "3708 holds enemy units", 15, "us_move", {"7/1": "3808", "124/2": "3708"}, "move 7/1 3708"),
    case(
        "DG 7.3.8",
        "4012 holds enemy units",
        15,
        "us_move",
        {"7/1": "3912", "124/2": {"at": "4012", "stealth": 1}},
        "move 7/1 4012",
    ),
    case(
        "DG 7.5",
        "3807 has room for 0 more units",
        15,
        "us_move",
        {"7/1": "3808", "1/1": "3807", "1/2": "3807", "1/3": "3807"},
        "move 7/1 3807",
    ),
    case(
        "DG 7.1",
        "the cheapest path costs",
        15,
        "us_move",
        {"7/1": {"at": "3808", "spent": 7}},
        "move 7/1 3606",
    ),
    case(
        "DG 7.1",
        "two points to leave its landing hex",
        15,
        "us_move",
        {"7/1": {"at": "3706", "landed": 15, "spent": 6}},  # six points spent on detection
        "move 7/1 3806",
    ),
    case(
        "DG 7.1",
        "the one-hex minimum move, DG 7.2, is for a unit that has spent nothing",
        15,
        "us_move",
        {"7/1": {"at": "3808", "spent": 7}},
        "move 7/1 3908",
    ),
    case(
        "DG 7.4.1",
        "every path enters an enemy zone of control",
        15,
        "us_move",
        {"7/1": "3706", "124/2": "3708", "124/1": "3806"},
        "move 7/1 3807",
    ),
    case(
        "DG 7.3.3",
        "every path enters a river hex",
        15,
        "us_move",
        {"7/1": "4010"},
        "move 7/1 4210",
    ),
    case(
        "DG 7.7.4",
        "not a jungle hex",
        15,
        "jp_move",
        {"124/2": {"at": "4012", "stealth": 3}},
        "move 124/2 3909",
        "unstealth 124/2",
    ),
    # -- DG 7.5 stack moves --------------------------------------------------------------------
    case("DG 7.5", "are not in one hex", 15, "us_move", {"7/1": "3808", "7/2": "3807"}, "stack 7/1+7/2 3806"),
    case(
        "DG 7.5",
        "has room for 1 more unit",
        15,
        "us_move",
        {"7/1": "3808", "7/2": "3808", "1/1": "3806", "1/2": "3806"},
        "stack 7/1+7/2 3806",
    ),
    case(
        "DG 7.1",
        "at the rate of its slowest unit",
        15,
        "us_move",
        {"7/1": "3808", "11/1": "3808"},
        "stack 11/1+7/1 1507",
    ),
    # -- DG 7.6 sea movement -------------------------------------------------------------------
    case(
        "DG 7.6",
        "begun its movement on land",
        15,
        "us_move",
        {"7/1": {"at": "3706", "spent": 1, "leg": "go"}},
        "sea 7/1 5005",
    ),
    case("DG 7.6", "is not in a coastal hex", 15, "us_move", {"7/1": "3808"}, "sea 7/1 5005"),
    case("DG 7.6", "next to enemy units", 15, "us_move", {"7/1": "3706", "124/2": "3806"}, "sea 7/1 5005"),
    case(
        "DG 7.6", "up to three units a turn", 15, "us_move", {"7/1": "3706"}, "sea 7/1 5005", flags={"sea": {"us": 3}}
    ),
    case("DG 7.6", "3808 is not a coastal hex", 15, "us_move", {"7/1": "3706"}, "sea 7/1 3808"),
    case("DG 7.3.8", "5005 holds enemy units", 15, "us_move", {"7/1": "3706", "124/2": "5005"}, "sea 7/1 5005"),
    # -- DG 7.7 stealth ------------------------------------------------------------------------
    case("DG 7.7.6", "only Japanese units use stealth", 15, "us_move", {"7/1": "4012"}, "stealth 7/1"),
    case("DG 7.7.1", "is not an infantry unit", 15, "jp_move", {"38Eng": "4012"}, "stealth 38Eng"),
    case("DG 7.7.1", "is not in a jungle hex", 15, "jp_move", {"124/2": "3808"}, "stealth 124/2"),
    case("DG 7.7", "next to an enemy unit", 15, "jp_move", {"124/2": "4012", "7/1": "4011"}, "stealth 124/2"),
    case(
        "DG 7.7.1",
        "in lieu of moving",
        15,
        "jp_move",
        {"124/2": {"at": "4012", "spent": 2, "leg": "go"}},
        "stealth 124/2",
    ),
    case("DG 7.7.2", "under stealth already", 15, "jp_move", {"124/2": {"at": "4012", "stealth": 1}}, "stealth 124/2"),
    case("DG 7.7.3", "is not under a stealth marker", 15, "jp_move", {"124/2": "4012"}, "unstealth 124/2"),
    case(
        "DG 7.7.1", "entered stealth this phase", 15, "jp_move", {"124/2": "4012"}, "unstealth 124/2", "stealth 124/2"
    ),
    # -- DG 7.7.5 detection --------------------------------------------------------------------
    case(
        "DG 7.7.5",
        "4012 holds no enemy stealth marker",
        15,
        "us_move",
        {"7/1": "3912", "124/2": "4012"},
        "detect 7/1 4012",
    ),
    case(
        "DG 7.7.5",
        "beyond the marker's value of 1",
        15,
        "us_move",
        {"7/1": "3808", "124/2": {"at": "4012", "stealth": 1}},
        "detect 7/1 4012",
    ),
    case(
        "DG 7.7.5",
        "no movement point left",
        15,
        "us_move",
        {"7/1": {"at": "3912", "spent": 8, "leg": "go"}, "124/2": {"at": "4012", "stealth": 1}},
        "detect 7/1 4012",
    ),
    case(
        "DG 7.7.5",
        "leaving none for detection",
        15,
        "us_move",
        {"7/1": {"at": "3808", "spent": 4}, "124/2": {"at": "4012", "stealth": 3}},
        "detect 7/1 4012 3911",
    ),
    case(
        "DG 7.7.5",
        "3808 is 5 hexes from 4012",
        15,
        "us_move",
        {"7/1": "3807", "124/2": {"at": "4012", "stealth": 2}},
        "detect 7/1 4012 3808",
    ),
    # -- DG 7.9 withdrawal, DG 7.10 consolidation ---------------------------------------------
    case("DG 7.9.1", "from the 19th turn on", 15, "jp_move", {"124/2": "3209"}, "withdraw 124/2"),
    case("DG 7.9.1", "the most", 20, "jp_move", {"124/2": "3209"}, "withdraw 124/2", flags={"jp_withdrawn": 10}),
    case("DG 7.9.2", "not of the 1st Marine Division", 15, "us_move", {"147/1": "3507"}, "withdraw 147/1"),
    case(
        "DG 7.9",
        "did not begin its turn in 3507",
        15,
        "us_move",
        {"1/1": {"at": "3507", "start": "3508"}},
        "withdraw 1/1",
    ),
    case("DG 7.9", "is not in a village hex", 15, "us_move", {"1/1": "3508"}, "withdraw 1/1"),
    case("DG 7.9", "in an enemy zone of control", 15, "us_move", {"1/1": "3507", "124/2": "3606"}, "withdraw 1/1"),
    case(
        "DG 7.10",
        "not of the same type",
        15,
        "us_move",
        {"1/1": {"at": "3808", "strength": 2}, "1Eng": {"at": "3808", "strength": 1}},
        "consolidate 1/1 1Eng",
    ),
    case(
        "DG 7.10",
        "are not in the same hex",
        15,
        "us_move",
        {"1/1": {"at": "3808", "strength": 2}, "1/2": {"at": "3807", "strength": 2}},
        "consolidate 1/1 1/2",
    ),
    case(
        "DG 7.10",
        "did not begin the turn stacked",
        15,
        "us_move",
        {"1/1": {"at": "3808", "strength": 2}, "1/2": {"at": "3808", "strength": 2, "start": "3807"}},
        "consolidate 1/1 1/2",
    ),
    case(
        "DG 7.10",
        "is at full strength",
        15,
        "us_move",
        {"1/1": {"at": "3808", "strength": 5}, "1/2": {"at": "3808", "strength": 2}},
        "consolidate 1/1 1/2",
    ),
    case(
        "DG 7.10",
        "larger than either at full strength",
        15,
        "us_move",
        {"1/1": {"at": "3808", "strength": 3}, "1/2": {"at": "3808", "strength": 3}},
        "consolidate 1/1 1/2",
    ),
    # -- DG 7.11 Henderson Field ---------------------------------------------------------------
    case("DG 7.11.2", "not an engineer, labour or infantry unit", 15, "us_move", {"11/1": "3707"}, "repair 11/1"),
    case("DG 7.11.2", "not on Henderson Field", 15, "us_move", {"1Eng": "3808"}, "repair 1Eng", henderson_field=HF),
    case("DG 7.11.2", "does not control Henderson Field", 15, "us_move", {"1Eng": "3707"}, "repair 1Eng"),
    case("DG 7.11.2", "undamaged", 15, "us_move", {"1Eng": "3707"}, "repair 1Eng", henderson_field=HF),
    case(
        "DG 7.11.2",
        "more than half",
        15,
        "us_move",
        {"1Eng": {"at": "3707", "spent": 4, "moved": True}},
        "repair 1Eng",
        henderson_field={"status": 15, "control": "us"},
    ),
    case(
        "DG 7.11.1", "not an engineer or labour unit", 15, "us_move", {"7/1": "3707"}, "wreck 7/1", henderson_field=HF
    ),
    case("DG 7.11.1", "status is 0", 15, "jp_move", {"38Eng": "3707"}, "wreck 38Eng", henderson_field={"status": 0}),
    # -- DG 8.1 artillery fire -----------------------------------------------------------------
    case("DG 8.1", "not an artillery unit", 15, "us_fire_1", {"7/1": "3808", "124/2": "3909"}, "fire 7/1 3909 1"),
    case(
        "DG 8.1",
        "fired already",
        15,
        "us_fire_1",
        {"11/1": {"at": "3806", "fired": True}, "7/1": "3808", "124/2": "3909"},
        "fire 11/1 3909 1",
        supply={"us": 5},
    ),
    case(
        "DG 8.1.8",
        "suppressed",
        15,
        "us_fire_1",
        {"11/1": {"at": "3806", "suppressed": True}, "7/1": "3808", "124/2": "3909"},
        "fire 11/1 3909 1",
        supply={"us": 5},
    ),
    case(
        "DG 8.1",
        "fires only as part of an assault",
        15,
        "us_fire_1",
        {"11/1": "3807", "124/2": "3708"},
        "fire 11/1 3708 1",
        supply={"us": 5},
    ),
    case(
        "DG 5.0",
        "stops us's artillery fire",
        15,
        "us_fire_2",
        {"11/1": "3806", "7/1": "3808", "124/2": "3909"},
        "fire 11/1 3909 1",
        supply={"us": 5},
        flags={"event": EV_NO_FIRE},
    ),
    case(
        "DG 8.1.1",
        "no artillery supply left",
        15,
        "us_fire_1",
        {"11/1": "3806", "7/1": "3808", "124/2": "3909"},
        "fire 11/1 3909 1",
    ),
    case(
        "DG 8.1.3",
        "beyond its range",
        15,
        "us_fire_1",
        {"11/1": "3806", "124/2": "4514"},
        "fire 11/1 4514 1",
        supply={"us": 5},
    ),
    case(
        "DG 8.1",
        "holds no enemy units your side can see",
        15,
        "us_fire_1",
        {"11/1": "3810", "7/1": "3912", "124/2": {"at": "4012", "stealth": 2}},
        "fire 11/1 4012 1",
        supply={"us": 5},
    ),
    case(
        "DG 8.1.4",
        "can see 3910",
        15,
        "us_fire_1",
        {"11/5": "3806", "124/2": "3910"},
        "fire 11/5 3910 1",
        supply={"us": 5},
    ),
    case(
        "DG 8.1.2",
        "has 3 factors",
        15,
        "us_fire_1",
        {"11/1": "3806", "7/1": "3808", "124/2": "3909"},
        "fire 11/1 3909 4",
        supply={"us": 9},
    ),
    case(
        "DG 8.1.2",
        "us has 2 supply points",
        15,
        "us_fire_1",
        {"11/1": "3806", "7/1": "3808", "124/2": "3909"},
        "fire 11/1 3909 3",
        supply={"us": 2},
    ),
    case(
        "DG 8.1.8",
        "at most half",
        15,
        "us_fire_1",
        {"11/1": "3806", "7/1": "3808", "124/2": "3909"},
        "counter 11/1 3909 3",
        supply={"us": 9},
    ),
    case(
        "DG 8.1.8",
        "aims at the enemy's artillery",
        15,
        "jp_fire_1",
        {"20Mt": "3909", "124/2": "3808"},
        "counter 20Mt 3707 1",
        supply={"jp": 9},
        henderson_field=HF,
    ),
    # -- DG 8.2 assault ------------------------------------------------------------------------
    case("DG 8.2", "holds no enemy unit", 15, "us_combat", {"7/1": "3808", "124/2": "3708"}, "attack 3807"),
    case(
        "DG 8.2.11",
        "only units under a stealth marker",
        15,
        "us_combat",
        {"7/1": "3912", "124/2": {"at": "4012", "stealth": 1}, "124/1": "3811"},
        "attack 4012",
    ),
    case(
        "DG 8.2.2",
        "no unit of us next to 3708 may still attack",
        15,
        "us_combat",
        {"11/1": "3808", "124/2": "3708"},
        "attack 3708",
    ),
    case(
        "DG 8.2",
        "147/1 must still attack 3708",
        15,
        "us_combat",
        {"147/1": "3808", "124/2": "3708"},
        "end",
    ),
    case(
        "DG 8.2.5",
        "7/1 is not next to 3708",
        15,
        "us_combat",
        {"147/1": "3808", "7/1": "3806", "124/2": "3708", "124/1": "3906"},
        "with 7/1",
        "attack 3708",
    ),
    case(
        "DG 8.2.4",
        "is artillery",
        15,
        "us_combat",
        {"147/1": "3808", "11/1": "3808", "124/2": "3708"},
        "with 11/1",
        "attack 3708",
    ),
    case(
        "DG 8.2.4",
        "is not artillery",
        15,
        "us_combat",
        {"147/1": "3808", "124/2": "3708"},
        "support 147/1 1",
        "attack 3708",
    ),
    case(
        "DG 8.2.1",
        "in this assault already",
        15,
        "us_combat",
        {"147/1": "3808", "124/2": "3708"},
        "with 147/1",
        "attack 3708",
        "with 147/1",
    ),
    case(
        "DG 8.2.2",
        "has attacked already",
        15,
        "us_combat",
        {"147/1": {"at": "3808", "attacked": True}, "147/2": "3807", "124/2": "3708"},
        "with 147/1",
        "attack 3708",
    ),
    case(
        "DG 8.1",
        "fired at range in this player's turn",
        15,
        "us_combat",
        {"147/1": "3908", "11/1": {"at": "3908", "fired": True}, "124/2": "3909"},
        "support 11/1 1",
        "attack 3909",
        supply={"us": 5},
    ),
    case(
        "DG 8.1.2",
        "us has 1 supply point left",
        15,
        "us_combat",
        {"147/1": "3808", "11/1": "3808", "124/2": "3708"},
        "support 11/1 2",
        "attack 3708",
        supply={"us": 1},
    ),
    case(
        "DG 8.2.6",
        "add an attacking unit first",
        15,
        "us_combat",
        {"147/1": "3808", "124/2": "3708", "124/1": "3909"},
        "target 3909",
        "attack 3708",
    ),
    case(
        "DG 8.2.6",
        "3905 is not next to the attacking units in 3808",
        15,
        "us_combat",
        {"147/1": "3808", "7/1": "3906", "124/2": "3708", "124/1": "3905"},
        "target 3905",
        "attack 3708",
        "with 147/1",
    ),
    case(
        "DG 8.2.3",
        "at least two non-artillery strength points",
        15,
        "us_combat",
        {"1LVT": {"at": "3808", "strength": 1}, "124/2": "3708"},
        "strain",
        "attack 3708",
        "with 1LVT",
    ),
    case(
        "DG 8.2.3",
        "at 6-1 already",
        15,
        "us_combat",
        {"147/1": "3808", "147/2": {"at": "3808", "strength": 2}, "124/2": {"at": "3708", "strength": 1}},
        "strain",
        "attack 3708",
        "with 147/1",
        "with 147/2",
    ),
    case(
        "DG 8.2.3",
        "more points than straining may add",
        15,
        "us_combat",
        {
            "147/1": "3808",
            "147/2": {"at": "3808", "strength": 2},
            "124/2": "3708",
            "124/1": {"at": "3807", "strength": 2},
        },
        "strain",
        "attack 3708",
        "with 147/1",
        "with 147/2",
        "target 3807",
    ),
    case(
        "DG 8.2.9",
        "only Japanese units ambush",
        15,
        "us_combat",
        {"147/1": "3808", "124/2": "3708"},
        "ambush",
        "attack 3708",
        "with 147/1",
    ),
    case(
        "DG 8.2.9",
        "did not come out of stealth on its own",
        15,
        "jp_combat",
        {"124/2": "3708", "147/1": "3808"},
        "ambush",
        "attack 3808",
        "with 124/2",
    ),
    case("DG 8.2.1", "no attacking unit yet", 15, "us_combat", {"147/1": "3808", "124/2": "3708"}, "go", "attack 3708"),
    case(
        "DG 8.2.4",
        "at most 3 supply points here",
        15,
        "us_combat",
        {"147/1": "3808", "124/2": "3708", "20Mt": "3708"},
        "defend 4",
        "attack 3708",
        "with 147/1",
        "go",
        supply={"jp": 5},
    ),
    case(
        "DG 8.1.1",
        "jp has 1 supply point",
        15,
        "us_combat",
        {"147/1": "3808", "124/2": "3708", "20Mt": "3708"},
        "defend 2",
        "attack 3708",
        "with 147/1",
        "go",
        supply={"jp": 1},
    ),
    case(
        "DG 7.7",
        "124/2 is under a stealth marker",
        15,
        "jp_combat",
        {"124/1": "4011", "124/2": {"at": "4012", "stealth": 1}, "7/1": "3912"},
        "with 124/2",
        "attack 3912",
    ),
    case(
        "DG 8.2",
        "with 147/1 this assault could never be committed: 147/2 would then have to join",
        15,
        "us_combat",
        {"147/1": "3808", "147/2": "3807", "124/2": "3708", "124/1": "3909"},
        "with 147/1",
        "attack 3708",
    ),
    case(
        "DG 8.2.6",
        "3708 is a defending hex of this assault already",
        15,
        "us_combat",
        {"147/1": "3808", "124/2": "3708"},
        "target 3708",
        "attack 3708",
        "with 147/1",
    ),
    # -- resolving an assault (DG 8.2.1.4): 8 to 4 is 2-1; a 1 costs the defender two steps and
    # a one-hex retreat, the attacker advances one hex
    case(
        "DG 8.2.1.4",
        "124/1 is not one of the units of this assault",
        15,
        "us_combat",
        ASSAULT,
        "lose 124/1",
        *ATTACK,
        dice=[1],
    ),
    case(
        "DG 8.2.1.4", "must retreat exactly 1 hex", 15, "us_combat", ASSAULT, "retreat 124/2 3606", *ATTACK, "lose 28/1"
    ),
    case(
        "DG 8.2.1.4",
        "3804 is coastal waters",
        15,
        "us_combat",
        {**ASSAULT, "124/2": "3805", "28/1": "3805", "147/1": "3906", "147/2": "3906"},
        "retreat 124/2 3804",
        "attack 3805",
        "with 147/1",
        "with 147/2",
        "go",
        "lose 28/1",
    ),
    case(
        "DG 8.2.1.4",
        "3807 is in an enemy zone of control",
        15,
        "us_combat",
        ASSAULT,
        "retreat 124/2 3807",
        *ATTACK,
        "lose 28/1",
    ),
    case("DG 7.3.8", "3808 holds enemy units", 15, "us_combat", ASSAULT, "retreat 124/2 3808", *ATTACK, "lose 28/1"),
    case(
        "DG 8.2.1.4",
        "allows an advance of 1 hex",
        15,
        "us_combat",
        ASSAULT,
        "advance 147/1 3607",
        *ATTACK,
        "lose 28/1",
        "retreat 124/2 3707",
        "retreat 28/1 3707",
    ),
    case(
        "DG 8.2.1.4",
        "7/1 did not take part in this assault",
        15,
        "us_combat",
        {**ASSAULT, "7/1": "3806"},
        "advance 7/1 3708",
        "attack 3708",
        "with 147/1",
        "with 147/2",
        "go",
        "lose 28/1",
        "retreat 124/2 3607",
        "retreat 28/1 3607",
    ),
    # -- the owner's choices after artillery fire (DG 8.1.5) and after detection (DG 7.7.5)
    case(
        "DG 8.1.5",
        "5Yk has its final step",
        15,
        "us_fire_1",
        {"11/1": "3806", "147/1": "3808", "124/2": "3708", "28/1": "3708", "5Yk": {"at": "3708", "strength": 1}},
        "lose 5Yk",
        "fire 11/1 3708 1",
        supply={"us": 3},
    ),
    case(
        "DG 7.7.4",
        "3909 is not a jungle hex",
        15,
        "us_move",
        {"7/1": "3912", "124/2": {"at": "4012", "stealth": 1, "strength": 4}, "124/1": {"at": "4011"}},
        "move 124/2 3909",
        "detect 7/1 4012",
    ),
    case(
        "DG 7.7.5",
        "124/2 must move",
        15,
        "us_move",
        {"7/1": "3912", "124/2": {"at": "4012", "stealth": 1}},
        "pass",
        "detect 7/1 4012",
    ),
    case(
        "DG 7.7.5",
        "124/1 was not detected",
        15,
        "us_move",
        {"7/1": "3912", "124/2": {"at": "4012", "stealth": 1}, "124/1": "4113"},
        "move 124/1 4112",
        "detect 7/1 4012",
    ),
    # -- DG 10.1-10.2 Rabaul picks -------------------------------------------------------------
    case(
        "DG 10.1",
        "available in periods 4-4",
        14,
        "turn_end",
        {"124/2": "3707"},
        "rabaul 21Br",
        open=False,
        henderson_field={"status": 20, "control": "jp"},
        flags={"jp_captured": True, "capture_bonus_given": True},
    ),
    case(
        "DG 10.1",
        "3Kr is available in periods 1-2",
        14,
        "turn_end",
        {"124/2": "3707"},
        "rabaul 3Kr",
        open=False,
        henderson_field={"status": 20, "control": "jp"},
        flags={"jp_captured": True, "capture_bonus_given": True},
    ),
    case(
        "DG 10.1",
        "is not a Rabaul reinforcement",
        14,
        "turn_end",
        {"124/2": "3707"},
        "rabaul 4/1",
        open=False,
        henderson_field={"status": 20, "control": "jp"},
        flags={"jp_captured": True, "capture_bonus_given": True},
    ),
]


def refusal(s, action: str) -> IllegalAction:
    """Apply an action that must be refused; the position must not change."""
    assert action not in {str(a) for a in s.legal_actions()}
    before = s.to_json()
    with pytest.raises(IllegalAction) as info:
        s.apply(action)
    assert s.to_json() == before
    return info.value


@pytest.mark.parametrize(("turn", "step", "units", "extra", "setup", "action", "rule", "says"), CASES)
def test_refusals_say_why(turn, step, units, extra, setup, action, rule, says):
    dice = extra.pop("dice", None) or [1] * 12
    s = state(turn, step, units, dice=dice, **extra)
    for a in setup:
        s.apply(a)
    err = refusal(s, action)
    assert err.rule == rule, str(err)
    assert says in err.message, str(err)
    assert "is not legal now" not in err.message


# -- no refusal is left without its reason ----------------------------------------------------
HEXES = sorted(GAME.data.map.hexes)
UNITS = sorted(GAME.data.units)


def candidates(s, rng: random.Random) -> list:
    """Actions near the legal ones (another unit, a hex next door or anywhere, one more
    factor), every verb with random arguments, and the acting side's units with every verb."""
    legal = s.legal_actions()
    out = []
    for a in rng.sample(legal, min(len(legal), 5)):
        spec = VERBS[a.verb].replace("?", "")
        for i, kind in enumerate(spec[: len(a.args)]):
            args = list(a.args)
            if kind == "h":
                args[i] = rng.choice([*GAME.data.map.adjacent[args[i]], rng.choice(HEXES)])
            elif kind == "u":
                args[i] = rng.choice(UNITS)
            elif kind == "n":
                args[i] = str(int(args[i]) + rng.choice((1, 3)))
            else:
                args[i] = "+".join(sorted(rng.sample(UNITS, 2)))
            out.append(act(a.verb, *args))
    pick = {"h": lambda: rng.choice(HEXES), "u": lambda: rng.choice(UNITS), "n": lambda: str(rng.randint(0, 5))}
    pick["s"] = lambda: "+".join(sorted(rng.sample(UNITS, 2)))
    for verb, spec in VERBS.items():
        out.append(act(verb, *(pick[k]() for k in spec.replace("?", ""))))
    own = [u for u in s.units.values() if u.side == s.current_player() and u.on_map]
    for u in rng.sample(own, min(3, len(own))):
        for verb, spec in VERBS.items():
            if spec[:1] == "u":
                near = [*GAME.data.map.adjacent[u.at], rng.choice(HEXES)]
                more = {"h": lambda near=near: rng.choice(near), "u": lambda: rng.choice(own).id, "n": lambda: "2"}
                out.append(act(verb, u.id, *(more[k]() for k in spec[1:].replace("?", ""))))
    known = set(legal)
    return [a for a in out if a not in known]


@pytest.mark.parametrize("seed", range(3))
def test_every_refusal_over_random_play_names_its_reason(seed):
    s = GAME.new_state(seed)
    rng = random.Random(seed)
    while not s.is_terminal() and s.ply < 700:
        if rng.random() < 0.15:
            for a in candidates(s, rng):
                err = refusal(s, str(a))
                assert err.rule.startswith("DG "), str(err)
                assert "is not legal now" not in err.message, (s.summary(), s.pending[-1:], str(err))
        acts = s.legal_actions()
        ends = [a for a in acts if a.verb in ("end", "pass", "stop", "go")]
        s.apply(rng.choice(ends) if ends and rng.random() < 0.3 else rng.choice(acts))
