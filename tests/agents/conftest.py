"""Agent tests run on the toy pig race with its evaluation function installed."""

from __future__ import annotations

import pytest

from tests.agents.toy_eval import install


@pytest.fixture(autouse=True, scope="session")
def toy_game() -> None:
    install()
