"""The readings of docs/rulings/aag.md not tested elsewhere, each named by its number
(ruling 7 is in test_airfields.py)."""

from __future__ import annotations

from henderson.games.aag.rules import battle
from henderson.games.aag.state import Airfield

from .helpers import acts, piece, position

ADV = {"advantages": True}


def finish_window(state, step: str) -> None:
    while state.step == step:
        state.apply("end")


def test_loading_at_the_base_in_movement_ruling_2():
    # the base land zone counts as an island zone next to the base sea zone: transports
    # and destroyers there load in Movement steps 1 and 5
    pieces = [
        piece("us1", "transport", "new_caledonia_sea"),
        piece("us2", "destroyer", "new_caledonia_sea"),
        piece("us3", "infantry", "new_caledonia"),
        piece("us4", "artillery", "new_caledonia"),
    ]
    state = position(pieces, step="move:transport", first="us")
    assert "load us1 us3" in acts(state) and "load us1 us4" in acts(state)
    state.apply("load us1 us3")
    state.apply("move J us1")
    assert state.step == "move:destroyer" and "load us2 us4" in acts(state)
    state.apply("load us2 us4")
    state.apply("move K us2")
    assert state.pieces["us3"].zone == "J" and state.pieces["us4"].zone == "K"


def test_reinforce_repair_deploy_each_by_both_players_in_turn_ruling_10():
    # Reinforce, then Repair, then Deploy, each by the first player and then the other;
    # loading at the base is offered in all three
    pieces = [
        piece("us1", "transport", "new_caledonia_sea"),
        piece("us2", "infantry", "new_caledonia"),
        piece("jp1", "transport", "rabaul_sea"),
        piece("jp2", "infantry", "rabaul"),
    ]
    state = position(pieces, step="regroup:buy", first="jp", points={"us": 0, "jp": 0})
    seen = []
    while state.turn == 1:
        loads = [a for a in acts(state) if a.startswith("load")]
        seen.append((state.step, state.current_player(), loads))
        state.apply("end")
    assert seen == [
        ("regroup:buy", "jp", ["load jp1 jp2"]),
        ("regroup:buy", "us", ["load us1 us2"]),
        ("regroup:repair", "jp", ["load jp1 jp2"]),
        ("regroup:repair", "us", ["load us1 us2"]),
        ("regroup:deploy", "jp", ["load jp1 jp2"]),
        ("regroup:deploy", "us", ["load us1 us2"]),
    ]


def night_fighting(token: bool):
    pieces = [
        piece("jp1", "cruiser", "E"),
        piece("us1", "destroyer", "E"),
        piece("us2", "destroyer", "E"),
        piece("us3", "infantry", "E", aboard="us2"),
    ]
    # jp (first) rolls 2 sea dice: a 2 in slot 1 (destroyer); the destroyers miss
    state = position(
        pieces,
        [2, 6, 6, 6],
        step="combat:before_sea",
        first="jp",
        options=ADV,
        tokens={"jp": {"night_fighting": 2}},
    )
    if token:
        state.apply("use night_fighting E")
    finish_window(state, "combat:before_sea")
    state.apply("fight E")
    return state


def test_night_fighting_2_lets_the_attacker_choose_ruling_16():
    # a 2 "just like rolling a 1": the attacker chooses, and the destroyer is destroyed
    state = night_fighting(token=True)
    assert state.current_player() == "jp" and acts(state) == ["hit us1", "hit us2"]
    state.apply("hit us2")
    assert "us2" not in state.pieces and "us3" not in state.pieces and "us1" in state.pieces
    plain = night_fighting(token=False)  # without the token the defender chooses
    assert plain.current_player() == "us" and acts(plain) == ["hit us1", "hit us2"]


def test_banzai_3_hits_by_its_slot_ruling_17():
    # a 3 hits the unit its slot names (slot 4: artillery), like any other hit
    pieces = [
        *(piece(f"jp{i}", "infantry", "malaita") for i in range(1, 5)),
        piece("us1", "infantry", "malaita"),
        piece("us2", "artillery", "malaita"),
        piece("us3", "aa_gun", "malaita"),
    ]
    state = position(
        pieces,
        [6, 6, 6, 3, 6, 6],
        step="combat:before_land",
        first="jp",
        options=ADV,
        tokens={"jp": {"banzai_charge": 1}},
    )
    state.apply("use banzai_charge malaita")
    finish_window(state, "combat:before_land")
    texts = [e.text for e in state.apply("fight malaita")]
    assert "slot 4: 3 hits us2 (artillery): destroyed" in texts
    assert "us2" not in state.pieces and {"us1", "us3"} <= set(state.pieces)


def test_banzai_3_the_defender_chooses_ruling_17(monkeypatch):
    # Land units of one type on one island never differ in what a hit costs (ruling 4),
    # so the choice is not asked in play; told apart by id, the units show who would
    # choose: on a 3 (not a 1) the defender, as on a 2.
    monkeypatch.setattr(battle, "casualty_signature", lambda state, p: (p.id,))
    pieces = [
        piece("jp1", "infantry", "malaita"),
        piece("jp2", "infantry", "malaita"),
        piece("us1", "infantry", "malaita"),
        piece("us2", "infantry", "malaita"),
    ]

    def first_choice(value: int) -> str | None:
        state = position(
            pieces,
            [value, 6, 6, 6],
            step="combat:before_land",
            first="jp",
            options=ADV,
            tokens={"jp": {"banzai_charge": 1}},
        )
        state.apply("use banzai_charge malaita")
        finish_window(state, "combat:before_land")
        state.apply("fight malaita")
        assert acts(state) == ["hit us1", "hit us2"]
        return state.current_player()

    assert first_choice(3) == "us"
    assert first_choice(1) == "jp"  # the contrast: a 1 lets the attacker choose


def quick_drop_then_assault(fields, dice, island="malaita"):
    pieces = [
        piece("us1", "transport", "H"),
        piece("us2", "infantry", "H", aboard="us1"),
        piece("us3", "aa_gun", "H", aboard="us1"),
        piece("us4", "destroyer", "H"),
        piece("us5", "artillery", "H", aboard="us4"),
        piece("us6", "infantry", island),  # ashore before this turn: not unloaded
        piece("us7", "bomber", island),
    ]
    pieces += [piece(f"jp{i}", "infantry", "malaita") for i in range(1, 4)]
    state = position(
        pieces,
        dice,
        step="move:end",
        first="us",
        options=ADV,
        airfields=fields,
        tokens={"us": {"quick_drop": 2, "amphibious_assault": 2}},
    )
    state.apply(f"use quick_drop H {island}")  # Quick Drop counts as unloading
    return state


def test_amphibious_assault_land_power_of_the_unloaded_units_only_ruling_20():
    # the unloaded infantry (1), AA gun (0) and artillery (1): 2 dice; the infantry and
    # bomber already on the island add none; no airfield is attacked, and nothing is
    # declared (the attack is rolled at once)
    fields = [{"island": "malaita", "side": "jp"}]
    state = quick_drop_then_assault(fields, [1, 1] + [6] * 10)
    assert state.step == "combat:before_land"  # no air or sea combat: straight to the window
    events = state.apply("use amphibious_assault malaita")
    assert sum(1 for e in events if e.kind == "roll") == 2
    assert not any(e.kind in ("aim", "airfield") for e in events)
    assert state.airfields == [Airfield(island="malaita", side="jp", damaged=False)]
    assert sorted(p.id for p in state.in_zone("malaita", "jp")) == ["jp3"]
    assert state.step == "combat:land" and acts(state) == ["fight malaita"]


def test_amphibious_assault_needs_enemy_land_units_ruling_20():
    # an island with an enemy airfield and no enemy land unit: nothing to assault
    fields = [{"island": "santa_isabel", "side": "jp"}]
    state = quick_drop_then_assault(fields, [6] * 12, island="santa_isabel")
    assert state.pieces["us2"].zone == "santa_isabel" and state.pieces["us2"].unloaded
    # the window passed by itself, nothing to spend; the bomber may still hit the airfield
    assert state.step == "combat:land" and acts(state) == ["fight santa_isabel"]


def test_submarines_may_target_the_pt_boat_ruling_21():
    # the PT boat stays in play until hit; a submarine may torpedo it like any sea unit
    pieces = [
        piece("us1", "pt_boat", "H"),
        piece("us2", "infantry", "guadalcanal"),
        piece("jp1", "submarine", "H"),
    ]
    state = position(pieces, [2], step="move:submarine", first="jp", options=ADV)
    assert "torpedo jp1 us1" in acts(state)
    texts = [e.text for e in state.apply("torpedo jp1 us1")]
    assert "jp1 hits us1 (pt_boat): destroyed" in texts  # no resilience
    assert "us1" not in state.pieces


def test_pt_boat_moves_with_the_destroyers_and_carries_nothing_ruling_21():
    pieces = [piece("us1", "pt_boat", "H"), piece("us2", "infantry", "guadalcanal")]
    state = position(pieces, step="move:cruiser", first="us", options=ADV)
    assert acts(state) == ["end"]  # not a cruiser
    state = position(pieces, step="move:destroyer", first="us", options=ADV)
    assert acts(state) == ["move G us1", "move J us1", "move K us1", "end"]  # no load


def test_superior_fighters_only_before_the_first_fighter_move_ruling_23():
    pieces = [piece("us1", "fighter", "guadalcanal"), piece("us2", "fighter", "new_caledonia")]
    tokens = {"us": {"superior_fighters": 2}}
    bombers = position(pieces, step="move:bomber", first="us", options=ADV, tokens=tokens)
    assert "use superior_fighters" not in acts(bombers)  # "before you move your fighters"
    state = position(pieces, step="move:fighter", first="us", options=ADV, tokens=tokens)
    assert acts(state)[0] == "use superior_fighters"
    state.apply("move H us1")
    assert "use superior_fighters" not in acts(state)


def test_good_logistics_only_before_the_first_purchase_ruling_23():
    tokens = {"us": {"good_logistics": 1}}
    # Guadalcanal only: 14 points, all unspent
    state = position([], step="regroup:buy", first="us", options=ADV, points={"us": 14}, tokens=tokens)
    assert "use good_logistics" in acts(state)
    state.apply("buy infantry")
    assert "use good_logistics" not in acts(state)
