"""Legal-action counts at fixed positions, like perft in chess: they pin move generation so that a change
to it is seen. If a count changes on purpose, check the new one by hand and update it here."""

from __future__ import annotations

from collections import Counter

import pytest

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


def kinds(st) -> dict[str, int]:
    """How many legal actions of each verb."""
    return dict(Counter(str(a).split()[0] for a in st.legal_actions()))


# Counts at hand-built positions, each checked against the engine before the game kit (the same counts):
# any change to move generation, refusals of the whole, or the sequence engine shows here.
PERFT = [
    (
        # OCT III: Japanese units in boxes A-C (B and C with box counters), on entry points 16 and 1, a US CAP:
        # every box and entry move, and one fighter mission (FB 6.0-6.3, 7.3, 13.3.1); no `end`, FB 6.3 and 6.4
        "jp_movement",
        "OCT III",
        {
            "ground": {"1/124": "A", "2/124": "B", "3/124": "C", "Kuma": "EP16", "228/1": "EP1"}
            | {"1/1": "0906", "2/1": "0015", "3/1": "0708"},
            "boxes_visited": {"2/124": "AB", "3/124": "C"},
            "air": {"Zero-1": "ijaf_attack", "Betty-1": "ijaf_reserve", "F4F-1": "usaf_cap"},
        },
        {"move": 81, "air": 1},
    ),
    (
        # OCT II: SUY in range of Henderson Field, two Japanese units next to three US ones, air and ships:
        # attacks on each set of hexes, missions on the Ground Attack box and the field, bombardments
        # (FB 8.2, 9.5.1, 10.3, 13.3)
        "jp_combat",
        "OCT II",
        {
            "ground": {"SUY": "0701", "Kuma": "0705", "2/4": "0706", "1/1": "0805", "2/1": "0806", "3/1": "0707"},
            "air": {"Zero-1": "ijaf_attack", "Zero-2": "ijaf_attack", "Betty-1": "ijaf_reserve"}
            | {"Betty-2": "ijaf_attack", "Val-1": "ijaf_reserve", "SBD-1": "usaf_ground_attack", "F4F-1": "0708"},
            "ships": {"DD-1": "ijn_attack", "DD-2": "ijn_attack", "BB-1": "ijn_reserve"},
        },
        {"attack": 7, "air": 7, "bombard": 5},
    ),
    (
        # NOV I, the Fighter Strip built: reserve aircraft onto the strips (bombers not on the Fighter Strip,
        # FB 12.5), face-up ones to CAP or Ground Attack, unmoved ones to an adjacent strip (FB 13.7)
        "us_air",
        "NOV I",
        {
            "air": {"F4F-1": "0708", "F4F-2": "0709", "SBD-1": "0708", "SBD-2": "usaf_reserve"}
            | {"TBF-1": "usaf_reserve", "F4F-3": "usaf_reserve", "P-400-1": "0709"},
            "inverted": ["F4F-2"],
            "air_moved": ["P-400-1"],
            "airfields": {"0604": "operational", "0605": "operational"},
        },
        {"fly": 15, "end": 1},
    ),
    (
        # a DR owed by the Japanese: each unit's retreat hexes, past none in an enemy ZOC (FB 8.10-8.12, 8.2.2)
        "us_combat",
        "SEP II",
        {
            "ground": {"Kuma": "0906", "1/124": "0905", "1/1": "0907", "2/1": "1007"},
            "pending": [{"kind": "retreat", "side": "jp", "units": ["Kuma", "1/124"], "rule": "FB 8.10"}],
            "combat": {"attacked": ["1/1"], "attacked_hexes": ["0906"], "must_attack": [], "must_defend": []},
        },
        {"retreat": 8},
    ),
    (
        # OCT II: the first of three US reinforcements onto the US entry points (FB 7.1)
        "us_reinforcement",
        "OCT II",
        {"to_place": ["1/164", "2/164", "3/164"], "ground": {"Kuma": "1007"}},
        {"place": 11},
    ),
    (
        # OCT III: 228/1 onto a Japanese entry point or box A/D, entry point 1 blocked (FB 7.2, 7.5.1),
        # and the special IJN box may be committed (FB 10.1)
        "jp_reinforcement",
        "OCT III",
        {"to_place": ["228/1", "228/3"], "ground": {"1/1": "0220"}, "ships": {"DD-1": "ijn_reserve"}},
        {"place": 8, "commit": 1},
    ),
]


@pytest.mark.parametrize(("phase", "turn", "fields", "counts"), PERFT, ids=[p[0] for p in PERFT])
def test_counts_at_hand_built_positions(pos, phase, turn, fields, counts):
    st = pos(phase, turn=turn, **fields)
    assert kinds(st) == counts
    acts = st.legal_actions()
    assert len(set(acts)) == len(acts) == sum(counts.values())
