"""The AAG game: validated data plus the rules, on the kit's sequence engine
(`core.sequence`): the steps are `data/sequence.toml`, their phases `rules/`."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from henderson.core.actions import ActionInfo
from henderson.core.calculator import Calculation, CalculatorForm
from henderson.core.dice import Dice
from henderson.core.game import Capability, Option, State, needs_extra
from henderson.core.sequence import SequencedGame, Step
from henderson.games.aag import actions
from henderson.games.aag.model import SIDES, GameData
from henderson.games.aag.position import is_v1, migrate
from henderson.games.aag.state import AAGState

TITLE = "Axis & Allies: Guadalcanal"
OPTIONS: dict[str, Option] = {
    "hidden_movement": Option("hidden_movement", "AAG Appendix 1 Hidden Movement: sea orders written in secret"),
    "advantages": Option("advantages", "AAG Appendix 1 Advantages: eight advantage tokens for each player"),
}


class AAGGame(SequencedGame):
    """Axis & Allies: Guadalcanal: sides "us" (Allies) and "jp" (Axis). With the
    hidden-movement option, each side's sea orders are secret until both are written."""

    name = "aag"
    title = TITLE
    sides = SIDES
    rules_prefix = "AAG"
    rules_package = "henderson.games.aag.rules"
    capabilities = frozenset(
        {
            Capability.HIDDEN_INFORMATION,
            Capability.ODDS,
            Capability.EVALUATION,
            Capability.MAP_DRAWING,
            Capability.CALCULATOR,
        }
    )
    options = OPTIONS
    end_rule = "AAG How to Win"

    def __init__(self, data: GameData) -> None:
        self.data = data
        self.data_version = data.data_version
        self.data_dir = data.data_dir
        self.sequence()  # checked with the data (DataErrors names the entry)

    def hides_information(self, options: Mapping[str, Any]) -> bool:
        """Only the secret sea orders of the hidden-movement option are hidden (AAG Appendix 1);
        without it both sides see everything."""
        return bool(options.get("hidden_movement"))

    def step_by_id(self, step_id: str) -> Step | None:
        """A step of the sequence of play, whatever the options (for messages naming it)."""
        return next((e[0] for e in self.sequence().entries if e[0].id == step_id), None)

    def movement_step_of(self, unit: str) -> Step | None:
        """The movement step in which units of type `unit` move (PT boats: the destroyers')."""
        kind = "destroyer" if unit == "pt_boat" else unit  # AAG Appendix 1 PT Boats
        return next((e[0] for e in self.sequence().entries if e[0].params.get("unit") == kind), None)

    def _new_state(self, seed: int, options: dict[str, Any], dice: Dice) -> AAGState:
        """The set-up of AAG Game Setup (the set-up step of the sequence, `rules/setup.py`)."""
        chosen = {name: bool(options.get(name, False)) for name in OPTIONS}
        state = AAGState(self, dice, seed, chosen)
        state.begin([])
        return state

    def load_state(self, obj: Mapping[str, Any], *, dice: Dice | None = None) -> AAGState:
        """A state from a position (docs/aag.md); PositionError names what is wrong. A
        version-1 position is migrated first and taken as written (`position.py`)."""
        old = is_v1(obj)
        state = AAGState.load(self, dict(migrate(self, obj)), dice, move_on=not old)
        assert isinstance(state, AAGState)
        return state

    def parse_action(self, text: str) -> actions.Action:
        return actions.parse_action(text)

    def describe(self, action: Any) -> ActionInfo:
        return actions.describe(action)

    def odds(self, state: State | None, spec: str) -> Any:
        """Exact odds for an attack: a spec such as "10 sea: 2 destroyer, 1 cruiser"
        (see `odds.parse_spec`); with a state, "ZONE CATEGORY SIDE" uses its units.
        A spec that names no attack raises `OddsSpecError` (a `HendersonError`)."""
        from henderson.games.aag import odds

        assert state is None or isinstance(state, AAGState)
        return odds.from_spec(self.data, state, spec)

    def calculator_form(self) -> CalculatorForm:
        from henderson.games.aag import calculator

        return calculator.form(self.data)

    def calculate(self, inputs: Mapping[str, Any]) -> Calculation:
        """Both sides' fire in any battle, from units chosen freely (AAG Combat)."""
        from henderson.games.aag import calculator

        return calculator.calculate(self.data, inputs)

    def draw_map(self, path: Path, state: State | None = None) -> None:
        """The board (AAG Game Board) and, with `state`, what each side has in each zone, to an SVG or
        PNG file: the layout the browser draws."""
        try:
            from henderson.games.aag.mapdraw import draw_map
        except ModuleNotFoundError as exc:
            raise needs_extra(exc, "plot", "drawing a map") from None
        from henderson.games.aag.render import stack

        board = self.data.board
        names = {z: board.islands[z].name for z in board.islands}
        names.update({b.land: b.name for b in board.bases.values()})
        names.update({b.sea: f"{b.name} sea" for b in board.bases.values()})
        forces: dict[str, dict[str, str]] | None = None
        if state is not None:
            assert isinstance(state, AAGState)
            forces = {
                z: {str(s): stack(state, z, s) for s in self.sides if stack(state, z, s)} for z in board.zone_ids()
            }
        draw_map(self.client_data()["map"], names, path, forces)

    def render_text(self, state: State, viewer: str | None = None) -> str:
        from henderson.games.aag.render import render

        assert isinstance(state, AAGState)
        return render(state)

    def evaluate(self, state: State, side: str) -> float:
        from henderson.games.aag.evaluate import evaluate

        assert isinstance(state, AAGState)
        return evaluate(state, side)

    def client_data(self) -> dict[str, Any]:
        """Static board data for the browser client (islands, sea zones, bases, layout, and
        the steps of the sequence of play)."""
        from henderson.games.aag.clientdata import client_data

        return client_data(self)
