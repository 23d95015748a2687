"""Agents that misbehave on purpose, registered by name for simulation tests."""

from __future__ import annotations

from typing import Any

from henderson import agents

CALLS = {"n": 0}


class Interrupter:
    """Plays `roll`/`hold` like a cautious player, then acts as if Ctrl-C was pressed."""

    name = "interrupter"

    def __init__(self, seed: int | None = None, after: int = 40) -> None:
        self.after = after

    def choose(self, state: Any) -> Any:
        CALLS["n"] += 1
        if CALLS["n"] > self.after:
            raise KeyboardInterrupt
        return state.legal_actions()[1 if state.turn_total >= 6 else 0]


class Breaker:
    """Raises an ordinary error on its first move: a bug in an agent."""

    name = "breaker"

    def __init__(self, seed: int | None = None) -> None:
        pass

    def choose(self, state: Any) -> Any:
        raise RuntimeError("broken on purpose")


def install() -> None:
    CALLS["n"] = 0
    agents.register("interrupter", Interrupter)
    agents.register("breaker", Breaker)
