"""AAG positions: version 2 is the kit's (declared fields, `entered`, `result`, the battle and its
decisions apart); version 1, the format before the kit, is migrated when it is read and taken as
written (docs/aag.md). `positions_v1.json` holds positions the engine wrote before the kit, with
what it offered there and how play went on from them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from henderson.core.errors import PositionError
from henderson.core.fields import Layout
from henderson.games.aag.state import AAGState, Airfield, Battle, Declare, HitChoice, InForce

from .helpers import acts, game, piece, position

WRITTEN_BEFORE = json.loads((Path(__file__).parent / "positions_v1.json").read_text())


@pytest.mark.parametrize("entry", WRITTEN_BEFORE, ids=[e["name"] for e in WRITTEN_BEFORE])
def test_a_version_1_file_plays_on_as_it_did(entry: dict[str, Any]) -> None:
    """The same side to act, the same legal actions, and the same play with the same dice."""
    state = game().load_state(entry["position"])
    assert state.current_player() == entry["player"]
    assert acts(state) == entry["legal"]
    for ply in entry["continuation"]:
        events = state.apply(ply["action"])
        assert [e.data["value"] for e in events if e.kind == "roll"] == ply["rolls"], ply["action"]
    assert state.winner() == entry["end"]["winner"] and state.ply == entry["end"]["ply"]
    again = game().load_state(json.loads(json.dumps(state.to_json())))
    assert again.to_json() == state.to_json()


def migrated(entry_name: str) -> AAGState:
    entry = next(e for e in WRITTEN_BEFORE if e["name"] == entry_name)
    return game().load_state(entry["position"])


def test_a_hit_to_choose_becomes_a_decision_of_the_battle() -> None:
    state = migrated("hit choice")
    assert isinstance(state.battle, Battle) and len(state.pending) == 1
    choice = state.pending[0]
    assert isinstance(choice, HitChoice) and choice.side == state.current_player()
    written = state.to_json()
    assert written["version"] == 2 and written["entered"] is True
    assert written["pending"][0]["kind"] == "hit" and "choice" not in written["battle"]


def test_an_attack_being_declared_waits_for_its_attacker() -> None:
    state = migrated("attack declared")
    assert state.pending == [Declare(state.battle.attacker)]  # type: ignore[union-attr]
    assert any(a.startswith("join ") for a in acts(state)) and acts(state)[-1] == "roll"


def test_advantages_in_force_and_the_winner() -> None:
    state = migrated("advantages in force")
    assert all(isinstance(a, InForce) for a in state.active) and state.deferred
    won = migrated("won")
    assert won.is_terminal() and won.end_cause and won.to_json()["result"]["winner"] == won.winner()


def test_a_version_1_position_needs_only_its_pieces() -> None:
    state = game().load_state({"pieces": [piece("us1", "cruiser", "J")]})
    data = state.to_json()
    assert data["first"] == "jp" and data["control"] == dict(game().data.setup.control)
    assert data["step"] == "move:transport" and data["version"] == 2
    assert state.next_id == {"us": 2, "jp": 1}


def test_version_1_fields_in_their_version_2_form() -> None:
    state = position(
        [piece("us1", "cruiser", "H"), piece("jp7", "destroyer", "H")],
        step="combat:sea",
        half=1,  # version 1 allowed a half in any step; a combat step has one
        first="us",
        options={"advantages": True},
        active=[{"id": "coast_watchers", "side": "us", "type": "cruiser"}, {"id": "night_fighting", "side": "jp"}],
        deferred={"us": "cruiser"},
        airfields=[{"island": "guadalcanal", "side": "us", "damaged": True}],
        winner=None,
    )
    assert state.half == 0 and state.current_player() == "us"
    assert state.active[0] == InForce(token="coast_watchers", side="us", unit="cruiser")  # type: ignore[arg-type]
    assert state.deferred == {"us": ("cruiser",)}
    assert state.airfields == [Airfield(island="guadalcanal", side="us", damaged=True)]
    assert state.next_id == {"us": 2, "jp": 8}


@pytest.mark.parametrize(
    ("fields", "where", "words"),
    [
        ({"colour": "red"}, "colour", "unknown field"),
        ({"step": "regroup:sleep"}, "step", "unknown step"),
        ({"game": "firstblood"}, "game", "not 'aag'"),
        ({"pieces": [piece("us1", "cruiser", "H"), piece("us1", "cruiser", "J")]}, "pieces[1] (us1)", "duplicate id"),
        ({"winner": "martians"}, "winner", "expected 'us' or 'jp'"),
        ({"battle": {"zone": "H", "category": "sea", "stage": 0, "attacker": "us", "dice": [1]}}, "battle.dice", ""),
    ],
)
def test_a_bad_version_1_position_is_refused_naming_the_field(fields: dict[str, Any], where: str, words: str) -> None:
    obj = {"pieces": [piece("us1", "cruiser", "H")], **fields}
    with pytest.raises(PositionError) as info:
        game().load_state(obj)
    assert info.value.where == where and words in info.value.message


def test_version_2_round_trips_and_refuses_what_it_cannot_hold() -> None:
    state = game().new_state(3)
    obj = state.to_json()
    assert obj["version"] == 2 and game().load_state(obj).to_json() == obj
    for change, where in [
        ({"first": "martians"}, "first"),
        ({"vp": {"us": 1}}, "vp"),
        ({"pieces": {"us1": {"id": "us2", "side": "us", "type": "cruiser", "zone": "H"}}}, "pieces.us1.id"),
        ({"pieces": {"us1": {"id": "us1", "side": "us", "type": "tank", "zone": "H"}}}, "pieces.us1.type"),
        ({"airfields": [{"island": "atlantis", "side": "us"}]}, "airfields[0].island"),
        ({"tokens": {"us": {"death_ray": 1}, "jp": {}}}, "tokens.us.death_ray"),
        ({"battle": {"zone": "H", "category": "sky", "attacker": "us"}}, "battle.category"),
        ({"pending": [{"kind": "retreat", "side": "us"}]}, "pending[0].kind"),
        ({"narnia": 1}, "narnia"),
    ]:
        with pytest.raises(PositionError) as info:
            game().load_state({**obj, **change})
        assert info.value.where == where, change
    obj.pop("first")
    with pytest.raises(PositionError, match="first: missing"):
        game().load_state(obj)


def version_2(**fields: Any) -> dict[str, Any]:
    """A hand-written version-2 position: the pieces and what is asked."""
    base = game().new_state(1).to_json()
    for name in ("dice", "seed", "ply", "entered", "pending", "battle", "result"):
        base.pop(name)
    base["pieces"] = {}
    base.update(fields)
    return base


def test_a_version_2_position_at_the_start_of_a_step_gets_its_entry_work_rule_aag_reinforce() -> None:
    """Written without `entered`, a position at Reinforce gives the side its income (10 + 4 per
    island controlled); with `entered` true, it keeps the points written."""
    ships = {"us1": {"id": "us1", "side": "us", "type": "transport", "zone": "new_caledonia_sea"}}
    fresh = game().load_state(version_2(step="regroup:buy", first="us", pieces=ships))
    assert fresh.points["us"] == 14 and fresh.current_player() == "us"
    points = {"us": 3, "jp": 0}
    kept = game().load_state(version_2(step="regroup:buy", first="us", pieces=ships, entered=True, points=points))
    assert kept.points["us"] == 3


def test_a_version_2_position_moves_on_to_the_first_real_decision() -> None:
    """Nothing to unload: the step passes by itself when the position is loaded (the kit's
    engine), where version 1 was taken as written and offered `end`."""
    pieces = [piece("us1", "cruiser", "H")]
    old = position(pieces, step="unload", first="us")
    assert acts(old) == ["end"] and old.step == "unload"
    new = game().load_state({**old.to_json(), "entered": False})
    assert new.step != "unload" and new.ply == old.ply


def test_the_position_schema_is_derived_from_the_declared_fields() -> None:
    schema = Layout.of(AAGState).schema()
    assert {"first", "pieces", "control", "battle", "pending", "airfields"} <= set(schema["properties"])
    assert {"first", "pieces", "control"} <= set(schema["required"])


def test_the_documented_position_loads() -> None:
    """docs/aag.md's version-2 example: a hit on a transport the defender assigns."""
    text = (Path(__file__).parents[2] / "docs" / "aag.md").read_text()
    block = text.split("## Position format (version 2)")[1].split("```json\n")[1].split("```")[0]
    state = game().load_state(json.loads(block))
    assert state.current_player() == "jp" and acts(state) == ["hit jp1", "hit jp4"]


def test_a_version_2_position_at_the_start_of_the_regroup_determines_control_rule_aag_regroup_step_1() -> None:
    """Regroup step 1 is the entry work of `regroup:land`: the island changes hands when the
    position is loaded, and the air units still to land wait for the first player."""
    pieces = {
        "us1": {"id": "us1", "side": "us", "type": "infantry", "zone": "new_georgia"},
        "us2": {"id": "us2", "side": "us", "type": "fighter", "zone": "H"},
    }
    state = game().load_state(version_2(step="regroup:land", first="us", pieces=pieces))
    assert state.control["new_georgia"] == "us"
    assert state.step == "regroup:land" and state.current_player() == "us"
    assert "land us2 guadalcanal" in acts(state)
