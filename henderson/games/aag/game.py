"""The AAG game: validated data plus the rules, behind the `Game` protocol of the core."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from henderson.core.dice import Dice
from henderson.core.errors import PositionError
from henderson.core.game import Capability, Game, Option, State
from henderson.core.position import read_dice
from henderson.games.aag import actions
from henderson.games.aag.model import SIDES, GameData
from henderson.games.aag.state import AagState

TITLE = "Axis & Allies: Guadalcanal"
OPTIONS: dict[str, Option] = {
    "hidden_movement": Option("hidden_movement", "AAG Appendix 1 Hidden Movement: sea orders written in secret"),
    "advantages": Option("advantages", "AAG Appendix 1 Advantages: eight advantage tokens for each player"),
}


class AagGame(Game):
    """Axis & Allies: Guadalcanal: sides "us" (Allies) and "jp" (Axis). With the
    hidden-movement option, each side's sea orders are secret until both are written."""

    name = "aag"
    title = TITLE
    sides = SIDES
    rules_prefix = "AAG"
    capabilities = frozenset({Capability.HIDDEN_INFORMATION, Capability.ODDS, Capability.EVALUATION})
    options = OPTIONS
    end_rule = "AAG How to Win"

    def __init__(self, data: GameData) -> None:
        self.data = data
        self.data_version = data.data_version
        self.data_dir = data.data_dir

    def _new_state(self, seed: int, options: dict[str, Any], dice: Dice) -> AagState:
        """The set-up of AAG Game Setup, from `setup.toml`."""
        state = AagState(self, dice, seed)
        state.options = {
            "hidden_movement": bool(options.get("hidden_movement", False)),
            "advantages": bool(options.get("advantages", False)),
        }
        if state.options["advantages"]:  # AAG Appendix 1: 8 tokens per player
            for token in self.data.advantages:
                state.tokens[token.side][token.id] = token.count
        setup = self.data.setup
        state.control = dict(setup.control)
        state.airfields = [
            {"island": i, "side": s, "damaged": False} for i, s, _ in setup.airfields
        ]
        for place in setup.places:
            for kind, count in place.units.items():
                for _ in range(count):
                    state.new_piece(place.side, kind, place.zone)
        for ship in setup.ships:
            p = state.new_piece(ship.side, ship.type, ship.zone)
            for kind, count in ship.cargo.items():
                for _ in range(count):
                    state.new_piece(ship.side, kind, ship.zone, aboard=p.id)
        from henderson.games.aag.rules import dispatch

        dispatch.enter_step(state)
        state._auto()
        state._events = []
        return state

    def load_state(self, obj: Mapping[str, Any], *, dice: Dice | None = None) -> AagState:
        """A state from a position (docs/aag.md); PositionError names what is wrong."""
        if not isinstance(obj, Mapping):
            raise PositionError("", "a position is a JSON object")
        state = AagState(self, read_dice(obj, dice), None)
        state.load_dict(dict(obj))
        return state

    def parse_action(self, text: str) -> actions.Action:
        return actions.parse(text)

    def odds(self, state: State | None, spec: str) -> Any:  # type: ignore[override]
        """Exact odds for an attack: a spec such as "10 sea: 2 destroyer, 1 cruiser"
        (see `odds.parse_spec`); with a state, "ZONE CATEGORY SIDE" uses its units.
        A spec that names no attack raises `OddsSpecError` (a `HendersonError`)."""
        from henderson.games.aag import odds

        assert state is None or isinstance(state, AagState)
        return odds.from_spec(self.data, state, spec)

    def render_text(self, state: State, viewer: str | None = None) -> str:
        from henderson.games.aag.render import render

        assert isinstance(state, AagState)
        return render(state)

    def evaluate(self, state: State, side: str) -> float:
        from henderson.games.aag.evaluate import evaluate

        assert isinstance(state, AagState)
        return evaluate(state, side)

    def client_data(self) -> dict[str, Any]:
        """Static board data for the browser client (islands, sea zones, bases, layout)."""
        from henderson.games.aag.clientdata import client_data

        return client_data(self)
