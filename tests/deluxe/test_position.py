"""Positions: version 2 is the kit's, from the fields `state.py` declares; version 1 (before the
kit: `open`, string-keyed `flags`, `result` as a list) is migrated to version 2 and loaded like
it (henderson/games/deluxe/position.py)."""

from __future__ import annotations

import json

import pytest

from henderson.core.dice import ScriptedDice
from henderson.core.errors import PositionError
from henderson.games.deluxe.decisions import Assault, RabaulPicks, Stage
from henderson.games.deluxe.position import VERSION_1_DATA, migrate

from .support import GAME, position


def load(obj, dice=()):
    return GAME.load_state(obj, dice=ScriptedDice(list(dice)))


def test_a_version_1_position_becomes_version_2():
    obj = position(
        12,
        "jp_move",
        {"124/2": "3708", "7/1": {"at": "3707", "strength": 3}},
        supply={"us": 2},
        flags={"sea": {"jp": 1}, "stuck": ["124/2"], "event": {"side": "us", "card": 4, "kind": "supply",
                                                             "target": "self", "amount": 5}},
        next_flags={"double_supply": True},
    )
    s = load(obj)
    v2 = s.to_json()
    assert v2["version"] == 2 and v2["entered"] is True and "open" not in v2 and "flags" not in v2
    assert s.this_turn.sea == {"jp": 1} and s.this_turn.stuck == ["124/2"] and s.this_turn.event.card == 4
    assert s.next_turn.double_supply and s.supply == {"us": 2, "jp": 0}
    assert s.units["7/1"].strength == 3 and s.units["124/2"].side == "jp"
    assert s.units["1/1"].at == "turn" and s.units["H1"].at == "rabaul"  # left out: where they start (DG 3.0)
    again = GAME.load_state(json.loads(json.dumps(v2)))
    assert again.to_json() == v2 and again.key() == s.key()


def test_a_version_1_step_written_as_waiting_waits_even_with_nothing_to_decide():
    # the guerrilla step with no supply: version 2 would pass it by; version 1 wrote it waiting
    s = load(position(15, "guerrilla", {}))
    assert s.step == "guerrilla" and [str(a) for a in s.legal_actions()] == ["pass"]
    s.apply("pass")
    assert s.step == "us_move"


def test_a_version_1_step_not_yet_open_runs_its_entry_work():  # DG 8.1.1 the supply step
    s = load(position(1, "us_supply", {}, open=False))
    assert s.supply["us"] == 10 and s.step != "us_supply"  # turn 1: ten US points, then on


def test_a_version_2_step_not_yet_entered_runs_its_entry_work():
    obj = load(position(1, "us_move", {})).to_json()
    s = GAME.load_state({**obj, "step": "us_supply", "entered": False})
    assert s.supply["us"] == 10 and s.step != "us_supply"
    entered = GAME.load_state({**obj, "step": "us_supply", "entered": True})
    assert entered.supply["us"] == 0 and entered.step != "us_supply"  # nothing to decide there: on


def test_a_version_1_result_and_pending_decisions():
    obj = position(26, "turn_end", {}, result=["jp", "DG 9.4 Japan holds Henderson Field at the end"])
    s = load(obj)
    assert s.is_terminal() and s.winner() == "jp" and s.end_cause == "Henderson Field held at the end"
    assert s.to_json()["result"] == {"winner": "jp", "cause": "Henderson Field held at the end"}
    draw = load(position(26, "turn_end", {}, result=["", "DG 9.0 even victory points at the end: a draw"]))
    assert draw.winner() is None and draw.end_cause == "even victory points at the end"
    assert GAME.load_state(draw.to_json()).to_json() == draw.to_json()  # a draw, and no seed, written as null
    picks = {"kind": "rabaul", "side": "jp", "count": 2, "strength": 99, "picked": []}
    s = load(position(12, "turn_end", {}, open=False, pending=[picks]))  # version 1 did not run the step
    assert isinstance(s.pending[-1], RabaulPicks) and s.pending[-1].count == 2
    assault = {"kind": "assault", "side": "us", "attacker": "us", "stage": "build", "targets": ["3708"], "units": [],
               "support": {}, "strain": 0, "ambush": False, "defend": 0, "banzai": False}
    s = load(position(15, "us_combat", {"147/1": "3808", "124/2": "3708"}, pending=[assault]))
    p = s.pending[-1]
    assert isinstance(p, Assault) and p.stage is Stage.BUILD and p.defenders is None
    assert [str(a) for a in s.legal_actions()] == ["with 147/1"]


def test_version_1_data_is_the_shipped_data():
    obj = position(5, "us_move", {}, data_version=VERSION_1_DATA)
    assert load(obj).to_json()["data_version"] == GAME.data_version
    with pytest.raises(PositionError, match="data_version: written for game data"):
        load(position(5, "us_move", {}, data_version="sha256:0000000000000000"))


def test_migration_leaves_other_positions_alone():
    v2 = GAME.new_state(1).to_json()
    assert migrate(GAME, v2) is v2
    for version in (3, True):
        obj = position(5, "us_move", {}, version=version)
        assert migrate(GAME, obj) is obj


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"flags": {"crossings": {"1LVT": 10}}}, "this_turn.crossings.1LVT"),
        ({"flags": {"lunch": True}}, "this_turn.lunch"),
        ({"next_flags": {"lunch": True}}, "next_flags.lunch"),
        ({"result": ["us"]}, "result"),
        ({"step": "setup"}, "step"),
        ({"units": {"7/1": {"strength": 2}}}, "units.7/1.at"),
        ({"pending": [{"kind": "artillery_loss", "side": "jp", "hex": "9999", "hits": 1}]}, "pending[0].hex"),
        ({"pending": [{"kind": "lunch", "side": "jp"}]}, "pending[0].kind"),
    ],
)
def test_a_bad_version_1_position_names_the_field(change, where):
    obj = position(5, "us_move", {})
    obj.update(change)
    with pytest.raises(PositionError) as info:
        load(obj)
    assert info.value.where == where


def test_an_assault_being_resolved_needs_its_results():
    obj = load(position(15, "us_combat", {"147/1": "3808", "124/2": "3708"})).to_json()
    assault = {"kind": "assault", "side": "jp", "attacker": "us", "stage": "lose_d", "targets": ["3708"],
               "units": ["147/1"], "support": {}, "strain": 0, "ambush": False, "defend": 0, "banzai": False}
    with pytest.raises(PositionError) as info:
        GAME.load_state({**obj, "pending": [assault]})
    assert info.value.where == "pending[0].defenders"
    with pytest.raises(PositionError) as info:
        GAME.load_state({**obj, "pending": [{**assault, "defenders": ["124/2"], "loss": {"us": 1}}]})
    assert info.value.where == "pending[0].loss"
