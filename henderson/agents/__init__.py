"""Computer players, chosen by name everywhere (CLI, server, simulator).

An agent sees only the public game API: given a state, it returns one of
`state.legal_actions()`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from henderson.core.errors import HendersonError


class Agent(Protocol):
    """A computer player: `choose(state)` returns a legal action for `state.current_player()`."""

    name: str

    def choose(self, state: Any) -> Any: ...


AgentFactory = Callable[[int | None], Agent]

_FACTORIES: dict[str, AgentFactory] = {}


def register(name: str, factory: AgentFactory) -> None:
    """Make an agent available by name; the factory takes a seed."""
    _FACTORIES[name] = factory


def names() -> list[str]:
    return sorted(_FACTORIES)


def get(name: str, seed: int | None = None) -> Agent:
    """A fresh agent by name (e.g. "random"), seeded for reproducible play."""
    factory = _FACTORIES.get(name)
    if factory is None:
        raise HendersonError(f"unknown agent {name!r} (known: {', '.join(names())})")
    return factory(seed)


def _register_builtins() -> None:
    from henderson.agents.random_agent import RandomAgent

    register("random", RandomAgent)


_register_builtins()
