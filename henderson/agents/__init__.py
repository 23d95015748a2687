"""Computer players, chosen by name everywhere (CLI, server, simulator).

An agent sees only the public game API: given a state, it returns one of
`state.legal_actions()`. Names may carry options after colons, e.g.
`mcts:iterations=200:c=0.7`; the options go to the factory as keyword arguments.

Levels shown to users: `easy` (heuristic with noise), `normal` (heuristic),
`hard` (MCTS). See docs/agents.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from henderson.core.errors import HendersonError
from henderson.core.game import Action, State


class Agent(Protocol):
    """A computer player: `choose(state)` returns a legal action for `state.current_player()`."""

    name: str

    def choose(self, state: State) -> Action: ...


@runtime_checkable
class Observing(Protocol):
    """An agent that wants to hear every action played (by anyone): drivers that see it call
    `observe(ply, action)` after each, so a search agent can keep its tree."""

    def observe(self, ply: int, action: str) -> None: ...


@runtime_checkable
class Finishing(Protocol):
    """An agent that holds something for the length of a game (another program, a
    connection): drivers call `finish(state)` once the game is over or abandoned."""

    def finish(self, state: State) -> None: ...


AgentFactory = Callable[..., Agent]

_FACTORIES: dict[str, AgentFactory] = {}


class AgentError(HendersonError):
    """An unknown agent name or a bad agent option."""


def register(name: str, factory: AgentFactory) -> None:
    """Make an agent available by name; the factory takes a seed (and keyword options)."""
    _FACTORIES[name] = factory


def names() -> list[str]:
    return sorted(_FACTORIES)


# What each level a user may choose plays like and how long it thinks, in words (shown in the
# browser's game creation and by `henderson agents`).
LEVELS: dict[str, str] = {
    "random": "Plays any legal action at random: a way to learn the controls, not an opponent.",
    "easy": "Follows the game's objectives with a loose hand: makes clear mistakes; answers at once.",
    "normal": "Plays each decision for its best immediate result under a hand-written judgement "
    "of the position; answers within a second.",
    "hard": "Searches ahead (Monte Carlo tree search over the rules and the dice) from the same "
    "judgement; thinks up to about two seconds a decision, at once when the choice is forced.",
}


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split `name:key=value:key=value` into the name and its options (numbers parsed)."""
    name, *parts = spec.strip().split(":")
    options: dict[str, Any] = {}
    for part in parts:
        key, sep, text = part.partition("=")
        if not sep or not key:
            raise AgentError(f"agent {spec!r}: option {part!r} is not key=value")
        options[key.strip().replace("-", "_")] = _option_value(text.strip())
    return name, options


def _option_value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def get(name: str, seed: int | None = None) -> Agent:
    """A fresh agent by name (e.g. "random", "hard", "mcts:iterations=300"), seeded;
    `cmd:COMMAND` is another program playing through the engine protocol (`external`)."""
    if name.strip().startswith("cmd:"):
        from henderson.agents.external import ExternalAgent

        return ExternalAgent(name.strip(), seed)
    base, options = parse_spec(name)
    factory = _FACTORIES.get(base)
    if factory is None:
        raise AgentError(f"unknown agent {base!r} (known: {', '.join(names())}, or cmd:COMMAND)")
    try:
        return factory(seed, **options) if options else factory(seed)
    except (TypeError, ValueError) as exc:  # an option the agent does not take or allow
        raise AgentError(f"agent {name!r}: {exc}") from None


def _register_builtins() -> None:
    from henderson.agents.heuristic import HeuristicAgent
    from henderson.agents.mcts import MCTSAgent
    from henderson.agents.random_agent import RandomAgent

    register("random", RandomAgent)
    register("heuristic", HeuristicAgent)
    register("mcts", MCTSAgent)
    # the levels users see
    register("easy", HeuristicAgent.easy)
    register("normal", HeuristicAgent.normal)
    register("hard", MCTSAgent.hard)


_register_builtins()
