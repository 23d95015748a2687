"""The game API every game implements and every interface (CLI, server, agents) uses.

Modelled on OpenSpiel's state interface and python-chess's value types: a `Game`
holds rules plus validated data; a `State` is one position that knows whose
decision it is, what that side may do, and how to apply it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from henderson.core.dice import Dice
from henderson.core.events import Event


@runtime_checkable
class Action(Protocol):
    """A decision. `str(action)` is its notation and `game.parse_action(str(a)) == a`."""

    def __str__(self) -> str: ...


class State(Protocol):
    """One position of one game."""

    @property
    def game(self) -> Game: ...

    @property
    def ply(self) -> int:
        """How many actions have been applied since the start: a state id for stale checks."""
        ...

    def current_player(self) -> str | None:
        """The side that must decide now; None when the game is over."""
        ...

    def legal_actions(self) -> Sequence[Action]:
        """Every legal action, in a deterministic order; empty when the game is over."""
        ...

    def apply(self, action: Action | str) -> list[Event]:
        """Check and play `action` (or its notation); raise IllegalAction naming the rule."""
        ...

    def clone(self) -> State: ...

    def is_terminal(self) -> bool: ...

    def winner(self) -> str | None: ...

    def returns(self) -> dict[str, float]:
        """+1 for the winner, -1 for the loser, 0 each while the game goes on."""
        ...

    def view(self, side: str | None) -> dict[str, Any]:
        """What `side` may see (None: a spectator); hidden information is removed here."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The documented, versioned, hand-editable position."""
        ...

    # A game with hidden information also gives its states
    #   redact(player, action, events, side) -> (action_text, events_json)
    # saying how another side's action and its events (JSON, as in records) read to `side`;
    # the server sends the log through it. Without it, every action is public.


class Game(Protocol):
    """Rules plus validated data for one game."""

    name: str
    title: str
    sides: tuple[str, ...]
    data_version: str
    data_dir: Path
    hidden_information: bool  # whether `view` ever hides something (fog of war, secret orders)

    def new_state(
        self,
        seed: int | None = None,
        *,
        options: Mapping[str, Any] | None = None,
        dice: Dice | None = None,
    ) -> State: ...

    def load_state(self, obj: Mapping[str, Any], *, dice: Dice | None = None) -> State:
        """A state from a position (see `State.to_json`); PositionError when it is wrong."""
        ...

    def parse_action(self, text: str) -> Action:
        """An action from its notation; NotationError when the text is not one."""
        ...

    def render_text(self, state: State) -> str:
        """The position as text for a terminal."""
        ...
