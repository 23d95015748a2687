"""Air units, airfields, engineers, supply and victory: FB 2.0, 9.5.3, 10.3, 11.x, 12.x, 13.x, 14.x."""

from __future__ import annotations

import pytest

from henderson.core.errors import IllegalAction
from henderson.games.firstblood import actions as A


def test_fb_13_3_3_air_combat_example(pos):
    """FB 13.3.3 example: one US fighter on CAP, two bombers in Ground Attack, a fighter on each Henderson hex;
    two Japanese fighters and a bomber. Fighter 1 kills the CAP fighter (both removed); fighter 2 then kills a
    bomber in Ground Attack; the bomber kills a fighter on an airstrip hex; every Japanese plane is gone."""
    st = pos(
        "jp_combat",
        air={
            "F4F-1": "usaf_cap",
            "SBD-1": "usaf_ground_attack",
            "SBD-2": "usaf_ground_attack",
            "F4F-2": "0708",
            "F4F-3": "0709",
            "Zero-1": "ijaf_reserve",
            "Zero-2": "ijaf_reserve",
            "Betty-1": "ijaf_reserve",
        },
        ground={"Kuma": "0015"},
        dice=[1],
    )
    with pytest.raises(IllegalAction) as err:
        st.apply("air Zero-2 ga")  # CAP still flies
    assert err.value.rule == "FB 13.3.1"
    with pytest.raises(IllegalAction) as err:
        st.apply("air Betty-1 0708")
    assert err.value.rule == "FB 13.3.2"
    st.apply("air Zero-1 cap")
    assert "F4F-1" not in st.air and "Zero-1" not in st.air
    st.apply("air Zero-2 ga")
    assert "Zero-2" not in st.air and sorted(a for a, w in st.air.items() if w == "usaf_ground_attack") == ["SBD-2"]
    st.apply("air Betty-1 0708")
    assert "F4F-2" not in st.air and "Betty-1" not in st.air and st.airfield["0708"] == "operational"


def test_fb_13_3_3_bomber_may_choose_a_plane_or_the_open_strip(pos):
    """FB 13.3.3 example, end: with both fighters on one hex the bomber may kill one or destroy the empty hex."""
    st = pos(
        "jp_combat",
        air={"F4F-2": "0708", "F4F-3": "0708", "Betty-1": "ijaf_attack"},
        ground={"Kuma": "0015"},
        dice=[1],
    )
    assert {A.AirMission(("Betty-1",), "0708"), A.AirMission(("Betty-1",), "0709")} <= set(st.legal_actions())
    st.apply("air Betty-1 0709")
    assert st.airfield["0709"] == "destroyed" and st.air["F4F-2"] == st.air["F4F-3"] == "0708"


def test_fb_13_3_3_two_bombers_kill_a_cap_fighter(pos):
    """FB 13.3.3: a CAP fighter may be eliminated by two Japanese bombers."""
    st = pos(
        "jp_combat",
        air={"F4F-1": "usaf_cap", "Betty-1": "ijaf_attack", "Val-1": "ijaf_reserve"},
        ground={"Kuma": "0015"},
        dice=[1],
    )
    st.apply("air Betty-1+Val-1 cap")
    assert not any(w == "usaf_cap" for w in st.air.values())
    with pytest.raises(IllegalAction):
        pos("jp_combat", air={"F4F-1": "usaf_cap", "Betty-1": "ijaf_attack"}).apply("air Betty-1 cap")


def test_fb_9_5_3_artillery_damages_an_empty_airfield_hex(pos):
    """FB 9.5.3: each artillery unit bombarding kills one US air unit, else damages (not destroys) the hex."""
    st = pos("jp_combat", ground={"SUY": "0701", "Kuma": "0015"}, air={"SBD-1": "0708"}, dice=[1])
    st.apply("bombard 0708 with SUY")
    assert "SBD-1" not in st.air and st.airfield["0708"] == "operational"
    st = pos("jp_combat", ground={"SUY": "0701", "Kuma": "0015"}, air={"Betty-1": "ijaf_reserve"})
    st.apply("bombard 0708 with SUY")
    assert st.airfield["0708"] == "damaged"
    with pytest.raises(IllegalAction) as err:
        st.apply("bombard 0708 with SUY")  # FB 9.4: one attack per turn
    assert err.value.rule == "FB 9.4"


def test_fb_10_3_ships_destroy_an_empty_airfield_hex(pos):
    """FB 10.3, 10.5: a bombarding ship kills one plane, else destroys the hex; then it is removed."""
    st = pos("jp_combat", ships={"BB-1": "ijn_reserve"}, ground={"Kuma": "0015"}, dice=[1])
    st.apply("bombard 0709 with BB-1")
    assert st.airfield["0709"] == "destroyed" and "BB-1" not in st.ships


def test_fb_12_3_capacity_example(pos):
    """FB 12.3 example: strips holding 5 and 3 air units: at most 4 more may come from the reserve; FB 12.2: the
    others stay in the USAF Reserve box."""
    air = {f"F4F-{i}": "0708" for i in range(1, 6)}
    air.update({f"SBD-{i}": "0709" for i in range(1, 4)})
    air.update({f"TBF-{i}": "usaf_reserve" for i in range(1, 6)})
    st = pos("us_air", air=air, inverted=sorted(air)[:8], air_moved=sorted(air)[:8])
    placed = 0
    while True:
        flights = [a for a in st.legal_actions() if isinstance(a, A.Fly) and st.air[a.unit] == "usaf_reserve"]
        if not flights:
            break
        st.apply(flights[0])
        placed += 1
    assert placed == 4


def test_fb_12_5_fighter_strip_only_for_fighters(pos):
    """FB 12.5: a constructed Fighter Strip takes only fighters, on the strip and in the box capacity."""
    st = pos(
        "us_air",
        airfields={"0604": "operational"},
        air={"SBD-1": "usaf_reserve", "F4F-1": "usaf_reserve"},
        ground={"1/1": "0906"},
    )
    flights = {(a.unit, a.to) for a in st.legal_actions() if isinstance(a, A.Fly)}
    assert ("F4F-1", "0604") in flights and ("SBD-1", "0604") not in flights


def test_fb_13_7_returning_units_land_inverted(pos):
    """FB 13.7: units back from CAP and Ground Attack land on the strips inverted and cannot fly again this phase."""
    st = pos("us_combat", air={"F4F-1": "usaf_cap", "SBD-1": "usaf_ground_attack"}, ground={"1/1": "0906"}, dice=[])
    st.apply("end")  # combat, engineer, then the air phase: both must land
    assert st.step == "us_air" and st.current_player() == "us"
    while st.pending:
        st.apply(st.legal_actions()[0])
    assert st.air["F4F-1"] in ("0708", "0709") and st.inverted >= {"F4F-1", "SBD-1"}
    assert not any(
        isinstance(a, A.Fly) and a.unit in ("F4F-1", "SBD-1") and a.to == "usaf_cap" for a in st.legal_actions()
    )


def test_fb_12_6_occupying_the_airfield(pos):
    """FB 12.6: a Japanese unit entering an airfield hex destroys the air units on it and the hex; still there at
    the end of the US combat phase, it wins the game (FB 12.6.2)."""
    st = pos("jp_movement", turn="SEP III", ground={"Kuma": "0808", "1/1": "0906"}, air={"F4F-1": "0708"}, dice=[1])
    st.apply("move Kuma 0708")
    assert "F4F-1" not in st.air and st.airfield["0708"] == "destroyed"
    st.apply("end")  # no combat, supply roll 1, nothing to place: on to the US movement phase
    assert st.step == "us_movement"
    st.apply("end")  # no US attack possible: the US combat phase ends at once
    assert st.is_terminal() and st.winner() == "jp" and "12.6.2" in st.end_cause


def test_fb_2_0_end_of_jan_iii(pos):
    """FB 2.0: Japanese ground units on the map at the end of JAN III win; none, and the US wins."""
    st = pos("us_air", turn="JAN III", ground={"Kuma": "0015"})
    st.apply("end")
    assert st.winner() == "jp"
    st = pos("us_air", turn="JAN III", ground={"Kuma": "A", "1/1": "0906"})
    st.apply("end")
    assert st.winner() == "us"


def test_fb_14_supply(pos):
    """FB 14.1: on 4-6 the Japanese remove a ground unit (map or box) or, FB 14.2, a ship; 1-3 no effect."""
    st = pos("jp_combat", ground={"Kuma": "0015", "1/124": "A"}, ships={"DD-1": "ijn_reserve"}, dice=[5])
    st.apply("end")
    assert st.current_player() == "jp"
    assert set(st.legal_actions()) == {A.Lose("Kuma"), A.Lose("1/124"), A.Lose("DD-1")}
    st.apply("lose DD-1")
    assert "DD-1" not in st.ships and "Kuma" in st.ground
    st = pos("jp_combat", ground={"Kuma": "0015"}, dice=[3])
    st.apply("end")
    assert "Kuma" in st.ground


def test_fb_13_4_and_10_1_strategic_phase(pos):
    """FB 13.4, 10.1: in the strategic phase the Attack boxes empty, then the Reserve boxes move up."""
    st = pos(
        "jp_combat",
        ground={"Kuma": "0015"},
        air={"Zero-1": "ijaf_attack", "Zero-2": "ijaf_reserve"},
        ships={"DD-1": "ijn_attack", "DD-2": "ijn_reserve"},
        dice=[1],
    )
    st.apply("end")
    japanese = {a: w for a, w in st.air.items() if a.startswith("Zero")}
    assert japanese == {"Zero-2": "ijaf_attack"} and st.ships == {"DD-2": "ijn_attack"}


def test_fb_11_2_engineers_repair_in_one_turn_and_build_in_two(pos):
    """FB 11.2, 11.4: engineers repair a damaged hex in one turn and build a Fighter Strip hex in two, if they stood
    in the hex from the start of the turn and were not disturbed; FB 11.3: the work is done in the US engineer
    phase, after the US combat phase."""
    st = pos(
        "us_combat",
        ground={"1Eng": "0708", "6NCB": "0604"},
        airfields={"0708": "damaged"},
        workers={"1Eng": "0708", "6NCB": "0604"},
    )
    st.apply("end")
    assert st.airfield["0708"] == "operational"
    assert st.airfield["0604"] == "unbuilt" and st.work["0604"] == 1


def test_fb_11_4_disturbed_work_is_lost(pos):
    """FB 11.4: if the hex is attacked in any way the work is not done and must start again."""
    st = pos(
        "us_combat",
        ground={"1Eng": "0708"},
        airfields={"0708": "damaged"},
        workers={"1Eng": "0708"},
        disturbed=["0708"],
    )
    st.apply("end")
    assert st.airfield["0708"] == "damaged"


def test_fb_11_4_a_unit_attacking_beside_the_engineer_does_not_stop_its_work(pos):
    """FB 11.4: the engineer may not move, attack or be attacked; another unit in its hex that attacks does not undo
    the engineer's work. (Kuma came next to the hex during this phase, so nobody there had to attack it, FB 8.1.)"""
    st = pos(
        "us_combat",
        turn="SEP III",
        ground={"1Eng": "0708", "1/1": "0708", "Kuma": "0808"},
        airfields={"0708": "damaged"},
        workers={"1Eng": "0708", "1/1": "0708"},
        combat={"must_attack": [], "must_defend": []},
        dice=[6],  # 4 against 3: 1-1, die 6: DE
    )
    st.apply("attack 0808 with 1/1")
    st.apply("stop")
    assert st.step != "us_combat" and st.airfield["0708"] == "operational"


def test_fb_11_2_1_optional_any_two_units_repair(pos):
    """FB 11.2.1 (optional): any two non-artillery US units repair like one engineer."""
    fields = {
        "ground": {"1/1": "0708", "2/1": "0708"},
        "airfields": {"0708": "damaged"},
        "workers": {"1/1": "0708", "2/1": "0708"},
    }
    st = pos("us_combat", **fields)
    st.apply("end")
    assert st.airfield["0708"] == "damaged"
    st = pos("us_combat", options={"repair_by_any_two_units": True}, **fields)
    st.apply("end")
    assert st.airfield["0708"] == "operational"


def test_fb_6_4_1_units_left_on_entry_points_are_eliminated(pos):
    """FB 6.4.1: no ground unit may remain on an entry point at the end of a combat phase."""
    st = pos("us_combat", ground={"1/7": "EP9", "1/1": "0906"})
    st.apply("end")
    assert "1/7" not in st.ground and "1/7" in st.eliminated


def test_fb_11_4_bombers_stop_the_rebuilding_of_a_destroyed_hex(pos):
    """FB 11.4 with 13.3.3: an engineer rebuilding a destroyed airfield hex may not be bombarded by artillery, air
    or navy units; if it is, the work is lost. Japanese bombers may attack that hex as ships and artillery may."""
    fields = {
        "ground": {"1Eng": "0708", "Kuma": "0015"},
        "airfields": {"0708": "destroyed"},
        "workers": {"1Eng": "0708"},
        "engineer_work": {"0708": 1},
        "air": {"Betty-1": "ijaf_attack"},
    }
    st = pos("jp_combat", turn="SEP III", dice=[1], **fields)
    assert A.AirMission(("Betty-1",), "0708") in st.legal_actions()
    st.apply("air Betty-1 0708")
    assert "Betty-1" not in st.air and "0708" in st.disturbed
    while st.step != "us_air":
        st.apply("end")
    assert st.airfield["0708"] == "destroyed" and "0708" not in st.work  # FB 11.4: to be started all over
    undisturbed = pos("jp_combat", turn="SEP III", dice=[1], **fields)
    while undisturbed.step != "us_air":
        undisturbed.apply("end")
    assert undisturbed.airfield["0708"] == "operational"  # FB 11.2: rebuilt in its second turn


def test_fb_12_6_1_an_unbuilt_fighter_strip_hex_is_no_target(pos):
    """FB 12.6.1, 13.3.3: Japanese bombers attack airfield hexes; a Fighter Strip hex is one only once built."""
    st = pos("jp_combat", ground={"Kuma": "0015"}, air={"Betty-1": "ijaf_attack"})
    assert not any(isinstance(a, A.AirMission) and a.target == "0604" for a in st.legal_actions())
    with pytest.raises(IllegalAction) as err:
        st.apply("air Betty-1 0604")
    assert err.value.rule == "FB 12.6.1"


def test_fb_13_3_any_of_identical_air_units_may_fly(pos):
    """FB 13.3, 13.3.3: any Japanese fighter may take on the CAP fighter, not only the one the list names; any two
    bombers may; the named units are the ones removed."""
    st = pos(
        "jp_combat",
        ground={"Kuma": "0015"},
        air={"F4F-1": "usaf_cap", "F4F-2": "usaf_cap", "Zero-1": "ijaf_reserve", "Zero-2": "ijaf_reserve"},
        dice=[1],
    )
    assert A.AirMission(("Zero-2",), "usaf_cap") not in st.legal_actions()  # one of each kind is listed
    st.apply("air Zero-2 cap")
    assert "Zero-2" not in st.air and st.air["Zero-1"] == "ijaf_reserve"
    air = {"F4F-1": "usaf_cap", "Betty-1": "ijaf_attack", "Betty-2": "ijaf_attack", "Betty-3": "ijaf_attack"}
    st = pos("jp_movement", ground={"Kuma": "0015"}, air=air)
    st.apply("air Betty-3+Betty-2 cap")
    assert st.air.get("Betty-1") == "ijaf_attack" and "Betty-2" not in st.air and "Betty-3" not in st.air
    with pytest.raises(IllegalAction) as err:
        pos("jp_combat", ground={"Kuma": "0015"}, air=air).apply("air Betty-2+Betty-2 cap")
    assert err.value.rule == "FB 13.3.3" and "twice" in err.value.message


def test_fb_10_3_any_of_identical_ships_may_bombard(pos):
    """FB 10.3, 10.5: each ship unit attacking kills a plane or destroys the hex; any ship of a kind may fire, and
    a refusal never claims a ship in an IJN box is not there."""
    ships = {"DD-1": "ijn_attack", "DD-2": "ijn_attack", "DD-3": "ijn_reserve"}
    st = pos("jp_combat", ground={"Kuma": "0015"}, ships=ships, dice=[1])
    assert A.Bombard("0709", "DD-2") not in st.legal_actions()
    st.apply("bombard 0709 with DD-2")
    assert st.airfield["0709"] == "destroyed" and set(st.ships) == {"DD-1", "DD-3"}
    with pytest.raises(IllegalAction) as err:
        st.apply("bombard 0709 with DD-2")  # removed after its attack (FB 10.5)
    assert err.value.rule == "FB 10.1" and "not in play" in err.value.message
    st.apply("bombard 0708 with DD-3")  # FB 10.1.2: from the Reserve box too
    assert st.airfield["0708"] == "destroyed"


def test_fb_8_10_1_the_defender_chooses_what_a_bombardment_destroys(pos):
    """FB 8.10.1, 9.5.3: artillery bombarding an airfield hex destroys one US air unit, the US player choosing."""
    st = pos("jp_combat", ground={"SUY": "0701", "Kuma": "0015"}, air={"F4F-1": "0708", "SBD-1": "0708"})
    st.apply("bombard 0708 with SUY")
    assert st.current_player() == "us" and st.pending[-1].rule == "FB 9.5.3"
    assert {str(a) for a in st.legal_actions()} == {"lose F4F-1", "lose SBD-1"}


def test_fb_9_5_2_ground_units_on_a_bombarded_airfield_are_untouched(pos):
    """FB 9.5.2: artillery bombarding an airfield affects only air units and the hex, not US ground units there."""
    st = pos("jp_combat", turn="SEP III", ground={"SUY": "0701", "1/1": "0708", "Kuma": "0015"}, dice=[1])
    st.apply("bombard 0708 with SUY")  # SUY's one fire this turn: the phase then ends by itself
    assert st.ground["1/1"] == "0708" and "1/1" not in st.eliminated and st.airfield["0708"] == "damaged"


def test_fb_9_5_3_more_artillery_does_not_destroy_a_damaged_hex(pos):
    """FB 9.5.3: further artillery fire on a damaged hex does no more damage; a naval attack may then destroy it
    (FB 10.3)."""
    ground = {"SUY": "0701", "4H": "0702", "Kuma": "0015"}
    st = pos("jp_combat", ground=ground, airfields={"0708": "damaged"}, ships={"DD-1": "ijn_reserve"})
    st.apply("bombard 0708 with 4H")
    assert st.airfield["0708"] == "damaged"
    st.apply("bombard 0708 with DD-1")
    assert st.airfield["0708"] == "destroyed"


def test_fb_11_5_two_engineers_work_no_faster(pos):
    """FB 11.5, 11.2: more than one engineer in a hex does not shorten the two turns a destroyed hex takes."""
    st = pos(
        "us_combat",
        turn="SEP III",
        ground={"1Eng": "0708", "6NCB": "0708"},
        airfields={"0708": "destroyed"},
        workers={"1Eng": "0708", "6NCB": "0708"},
    )
    st.apply("end")
    assert st.airfield["0708"] == "destroyed" and st.work["0708"] == 1


def test_fb_12_1_six_air_units_a_strip_hex(pos):
    """FB 12.1, 5.2: an airstrip hex holds 6 air units: a unit back from CAP lands on the other hex when one is
    full (a single choice is made without asking)."""
    air = {f"F4F-{i}": "0708" for i in range(1, 7)} | {"F4F-7": "usaf_cap"}
    st = pos("us_combat", ground={"1/1": "0906"}, air=air)
    st.apply("end")
    assert st.air["F4F-7"] == "0709"


def test_fb_12_4_japanese_air_units_never_use_the_airfields(pos):
    """FB 12.4: Japanese air units may not land on or use the airfield hexes."""
    st = pos("us_air", ground={"1/1": "0906"}, air={"Zero-1": "ijaf_reserve", "F4F-1": "usaf_reserve"})
    assert not any(isinstance(a, A.Fly) and a.unit == "Zero-1" for a in st.legal_actions())
    with pytest.raises(IllegalAction) as err:
        st.apply("fly Zero-1 0708")
    assert err.value.rule == "FB 12.4"


def test_fb_13_1_the_f4f_is_fighter_and_bomber(pos):
    """FB 13.1: fighters fly CAP, bombers Ground Attack; the F4F may be considered either."""
    st = pos("us_air", ground={"1/1": "0906"}, air={"F4F-1": "0708", "SBD-1": "0708"})
    flights = {(a.unit, a.to) for a in st.legal_actions() if isinstance(a, A.Fly)}
    assert {("F4F-1", "usaf_cap"), ("F4F-1", "usaf_ground_attack"), ("SBD-1", "usaf_ground_attack")} <= flights
    assert ("SBD-1", "usaf_cap") not in flights


def test_fb_13_2_no_bombing_units_in_the_boxes(pos):
    """FB 13.2, 6.0: US bombers may not attack Japanese units in the off-board boxes, only stacks on the map."""
    st = pos("us_movement", ground={"1/1": "0906", "Kuma": "A", "1/124": "0015"}, air={"SBD-1": "usaf_ground_attack"})
    assert {a.hex for a in st.legal_actions() if isinstance(a, A.Bomb)} == {"0015"}


def test_fb_13_5_us_air_reinforcements_go_to_the_reserve(game, pos):
    """FB 13.5, 7.1: US air units arriving on the Turn Record Chart are placed in the USAF Reserve box in the US
    reinforcement phase (SEP III: one SBD)."""
    st = pos("jp_combat", turn="SEP III", ground={"1/1": "0906", "Kuma": "0015"}, dice=[1])
    new = [a for a, x in game.data.air.items() if x.arrives == "SEP III" and x.side == "us"]
    assert new and not any(a in st.air for a in new)
    st.apply("end")
    assert all(st.air[a] == "usaf_reserve" for a in new)


def test_fb_13_6_inverted_air_units_turn_face_up_after_us_combat(pos):
    """FB 13.6: inverted US air units on the airstrips are turned face up at the end of the US combat phase, and
    not before (the US movement phase leaves them inverted)."""
    st = pos("us_movement", ground={"1/1": "0906"}, air={"F4F-1": "0708"}, inverted=["F4F-1"])
    st.apply("end")
    assert "F4F-1" not in st.inverted and st.step in ("us_engineer", "us_air")


def test_fb_9_5_1_artillery_bombards_the_fighter_strip_once_built(game, pos):
    """FB 9.5.1: Japanese artillery may bombard Henderson Field or the Fighter Strip, if constructed (FB 12.6.1)."""
    strip = game.board.fighter_strip[0]
    spot = next(h for h in sorted(game.board.terrain) if game.board.in_range(h, strip, 8) and h[:2] == "00")
    st = pos("jp_combat", ground={"SUY": spot, "Kuma": "0015"}, airfields={strip: "operational"})
    assert A.Bombard(strip, "SUY") in st.legal_actions()
    st = pos("jp_combat", ground={"SUY": spot, "Kuma": "0015"})
    assert A.Bombard(strip, "SUY") not in st.legal_actions()
    with pytest.raises(IllegalAction) as err:
        st.apply(f"bombard {strip} with SUY")
    assert err.value.rule == "FB 9.5.1"
