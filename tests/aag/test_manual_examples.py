"""Manual examples and rules not covered elsewhere, each named after its place in the
Operations Manual (AAG)."""

from __future__ import annotations

from henderson.games.aag.render import render

from .helpers import acts, piece, position


def rolls(events, words: str) -> int:
    return sum(1 for e in events if e.kind == "roll" and words in e.text)


def test_battleship_attack_power_example_rule_aag_determine_total_attack_power():
    # AAG How to Attack step 1: a battleship adds 1 die against air units and 3 against sea
    # units in its zone, and may add 2 against land units in an adjacent island zone
    pieces = [
        piece("us1", "battleship", "G"),
        piece("jp1", "fighter", "G"),
        piece("jp2", "transport", "G"),
        piece("jp3", "infantry", "new_georgia"),
    ]
    state = position(pieces, [6] * 20, step="combat:air", first="us")
    events = state.apply("fight G")
    assert rolls(events, "us attack on air units in G") == 1
    events = state.apply("fight G")  # Combat step 2
    assert rolls(events, "us attack on sea units in G") == 3
    events = state.apply("fight new_georgia")  # Combat step 4: it must join to fire
    assert acts(state) == ["join us1", "roll"]
    events = state.apply("join us1")
    assert rolls(events, "us attack on land units in new_georgia") == 2


def test_twelve_dice_transport_hit_goes_to_a_destroyer_rule_aag_hitting_units_the_enemy_doesnt_have():
    pieces = [piece(f"us{i}", "battleship", "H") for i in range(1, 5)]  # 12 sea dice
    pieces += [
        piece("jp1", "destroyer", "H"),
        piece("jp2", "destroyer", "H"),
        piece("jp3", "cruiser", "H"),
        piece("jp4", "battleship", "H"),
    ]
    dice = [6, 6, 6, 6, 1, 6, 6, 6, 6, 6, 6, 6]  # one hit, in slot 5: transport
    state = position(pieces, dice + [6] * 7, step="combat:sea", first="us")
    events = state.apply("fight H")
    assert any("slot 5: 1 hits jp1 (destroyer): destroyed" in e.text for e in events)
    assert "jp1" not in state.pieces and {"jp2", "jp3", "jp4"} <= set(state.pieces)


def test_hit_choice_only_when_the_units_differ_rule_aag_loss_of_cargo():
    # two empty transports, one moved this turn: interchangeable casualties, no choice asked
    pieces = [
        piece("us1", "battleship", "H"),
        piece("us2", "cruiser", "H"),
        piece("jp1", "transport", "H", moved=True),
        piece("jp2", "transport", "H"),
    ]
    state = position(pieces, [6, 6, 6, 6, 2], step="combat:sea", first="us")
    state.apply("fight H")  # a 2 in slot 5 (transport)
    assert state.battle is None and "jp1" not in state.pieces and "jp2" in state.pieces
    pieces.append(piece("jp3", "infantry", "H", aboard="jp2"))  # now the cargo differs
    state = position(pieces, [6, 6, 6, 6, 1], step="combat:sea", first="us")
    state.apply("fight H")  # a 1 in slot 5: the attacker picks the transport
    assert state.current_player() == "us" and acts(state) == ["hit jp1", "hit jp2"]
    state.apply("hit jp2")
    assert "jp2" not in state.pieces and "jp3" not in state.pieces and "jp1" in state.pieces


def test_air_units_are_in_the_air_even_if_they_dont_move_rule_aag_air_unit():
    # a fighter left on its airfield is fired on by the antiaircraft gun landed beside it
    pieces = [piece("us1", "fighter", "guadalcanal"), piece("jp1", "aa_gun", "guadalcanal")]
    state = position(pieces, [6, 6, 1, 6, 6], step="move:fighter", first="us")
    # the fighter stays; it cannot fire at a gun, so the gun's attack is fought by itself
    events = state.apply("end")
    assert rolls(events, "jp attack on air units in guadalcanal") == 3
    assert "us1" not in state.pieces


def test_capital_ship_points_wait_for_the_scoring_step_rule_aag_score_victory_points():
    pieces = [
        piece("us1", "battleship", "H"),
        piece("us2", "battleship", "H"),
        piece("jp1", "carrier", "H"),
    ]
    # a 1 in slot 1 (destroyer, absent) goes up the neck to the carrier: sunk, 15 points
    state = position(
        pieces, [1] + [6] * 5, step="combat:sea", first="us", vp={"us": 14, "jp": 0}, airfields=[]
    )
    state.apply("fight H")
    assert state.vp["us"] == 15 and state.winner() is None  # not before step 5
    while not state.is_terminal():
        assert state.turn == 1
        state.apply("end")
    assert state.winner() == "us"


def test_plastic_chips_example_counts_units_of_a_type_rule_aag_plastic_chips():
    # "An infantry with 1 grey and 1 red chip under it counts as 7 infantry": the text board
    # shows the count of each type in a zone
    pieces = [piece(f"us{i}", "infantry", "guadalcanal") for i in range(1, 8)]
    pieces += [piece("us8", "destroyer", "H"), piece("us9", "destroyer", "H")]
    text = render(position(pieces))
    assert "us: 7 inf" in text and "us: 2 dd" in text


def test_no_limit_on_units_bought_rule_aag_plastic_chips():
    # chips stand in "if you run out of a particular unit type or supply tokens": the 7
    # bombers in the box are no limit
    pieces = [piece(f"us{i}", "bomber", "new_caledonia") for i in range(1, 8)]
    state = position(pieces, step="regroup:buy", first="us", points={"us": 5})
    assert "buy bomber" in acts(state)
    state.apply("buy bomber")
    assert sum(1 for p in state.pieces.values() if p.type == "bomber") == 8
