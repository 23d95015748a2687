"""Legal-action counts at fixed positions, like perft in chess: they pin move generation so that a change
to it is seen. If a count changes on purpose, check the new one by hand and update it here."""

from __future__ import annotations

from henderson.games.firstblood import actions as A

# 1/1 (MF 6) in 0906 with a Japanese unit in 0904: 48 destinations, checked by hand against the map
# (the clear plain north of the field costs 1 a hex, jungle and ridge hexsides 2, the Lunga 3-4; 0905 and
# the hexes around 0904 are enemy ZOC and may be entered but not crossed from ZOC to ZOC).
PERFT_0906 = 48


def test_counts_at_the_opening(game):
    st = game.new_state(1)
    assert st.step == "us_setup"
    assert len(st.legal_actions()) == 1 + len(game.board.setup_area)  # setup default + the first unit's hexes
    st.apply("setup default")
    assert st.step == "jp_setup"
    assert [str(a) for a in st.legal_actions()] == ["setup default", "place 1/124 A", "place 1/124 D"]
    st.apply("setup default")
    assert st.step == "jp_reinforcement"


def test_counts_in_a_fixed_movement_position(game, pos):
    st = pos("us_movement", ground={"1/1": "0906", "Kuma": "0904"})
    moves = [a for a in st.legal_actions() if isinstance(a, A.Move)]
    assert len(moves) == len(set(moves)) == PERFT_0906
    assert A.End() in st.legal_actions()


def test_counts_in_a_fixed_combat_position(pos):
    st = pos(
        "us_combat",
        ground={"2/124": "0604", "1/124": "0605", "3/124": "0606", "1/1": "0705", "2/1": "0706", "3/1": "0707"},
    )
    assert [str(a) for a in st.legal_actions()] == [
        "attack 0604",
        "attack 0605",
        "attack 0606",
        "attack 0604+0605",
        "attack 0605+0606",
    ]
    st.apply("attack 0604+0605")
    assert [str(a) for a in st.legal_actions()] == ["add 1/1", "cancel"]
    st.apply("add 1/1")
    assert [str(a) for a in st.legal_actions()] == ["resolve", "cancel"]
