"""The AAG game: validated data plus the rules, behind the `Game` protocol of the core."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from henderson.core.dice import Dice, SeededDice, dice_from_json
from henderson.core.errors import PositionError
from henderson.games.aag import actions
from henderson.games.aag.model import SIDES, GameData
from henderson.games.aag.state import AagState

TITLE = "Axis & Allies: Guadalcanal"
OPTIONS = ("hidden_movement", "advantages")


class AagGame:
    """Axis & Allies: Guadalcanal: sides "us" (Allies) and "jp" (Axis)."""

    name = "aag"
    hidden_information = True  # the hidden-movement option keeps sea orders secret
    title = TITLE
    sides = SIDES

    def __init__(self, data: GameData) -> None:
        self.data = data
        self.data_version = data.data_version
        self.data_dir = data.data_dir

    def new_state(
        self,
        seed: int | None = None,
        *,
        options: Mapping[str, Any] | None = None,
        dice: Dice | None = None,
    ) -> AagState:
        """The set-up of AAG Game Setup, from `setup.toml`."""
        options = dict(options or {})
        unknown = set(options) - set(OPTIONS)
        if unknown:
            raise PositionError(
                "options", f"unknown option(s) {sorted(unknown)} (known: {OPTIONS})"
            )
        state = AagState(self, dice or SeededDice(seed or 0), seed)
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
        try:
            stored = dice_from_json(obj.get("dice"))
        except ValueError as exc:
            raise PositionError("dice", str(exc)) from None
        state = AagState(self, dice or stored or SeededDice(0), None)
        state.load_dict(dict(obj))
        return state

    def parse_action(self, text: str) -> actions.Action:
        return actions.parse(text)

    def odds(self, state: AagState | None, spec: str) -> Any:
        """Exact odds for an attack: a spec such as "10 sea: 2 destroyer, 1 cruiser"
        (see `odds.parse_spec`); with a state, "ZONE CATEGORY SIDE" uses its units.
        A spec that names no attack raises `OddsSpecError` (a `HendersonError`)."""
        from henderson.games.aag import odds

        return odds.from_spec(self.data, state, spec)

    def render_text(self, state: AagState) -> str:  # type: ignore[override]
        from henderson.games.aag.render import render

        return render(state)

    def client_data(self) -> dict[str, Any]:
        """Static board data for the browser client (islands, sea zones, bases, layout)."""
        from henderson.games.aag.clientdata import client_data

        return client_data(self)
