"""The golden playthroughs play again exactly (tests/golden): every ply the same player
decides among the same legal actions and every action rolls the same dice."""

from __future__ import annotations

import pytest

from tests import golden


@pytest.mark.parametrize(("name", "seed", "plies"), golden.PLAYTHROUGHS)
def test_a_golden_playthrough_plays_again_exactly(name: str, seed: int, plies: int) -> None:
    if not golden.path_of(name, seed).exists():
        pytest.fail(f"missing {golden.path_of(name, seed).name}: python -m tests.golden write")
    golden.replay(name, seed)
