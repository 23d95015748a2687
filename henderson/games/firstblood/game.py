"""The FIRST BLOOD game object: rules plus validated data, and the way to start a game."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from henderson.core.actions import ActionInfo
from henderson.core.calculator import Calculation, CalculatorForm
from henderson.core.dice import Dice
from henderson.core.errors import HendersonError
from henderson.core.game import Action, Capability, Option, State, needs_extra
from henderson.core.sequence import SequencedGame
from henderson.games.firstblood import actions as A
from henderson.games.firstblood.board import Board
from henderson.games.firstblood.model import FBData
from henderson.games.firstblood.odds import Odds
from henderson.games.firstblood.state import FBState, Status

TITLE = "FIRST BLOOD – The Guadalcanal Campaign"

# Optional rules, off unless asked for.
OPTIONS: dict[str, Option] = {
    "repair_by_any_two_units": Option(
        "repair_by_any_two_units", "FB 11.2.1: any two non-artillery US ground units repair like an engineer"
    ),
}


class FBGame(SequencedGame):
    """FIRST BLOOD: `new_state`, `load_state`, `parse_action`, plus previews and drawing.
    It hides nothing but the dice."""

    name = "firstblood"
    title = TITLE
    sides = ("us", "jp")
    rules_prefix = "FB"
    rules_package = "henderson.games.firstblood.rules"
    capabilities = frozenset(
        {Capability.ODDS, Capability.MAP_DRAWING, Capability.EVALUATION, Capability.CALCULATOR}
    )
    options = OPTIONS
    end_rule = "FB 2.0"

    def __init__(self, data: FBData) -> None:
        self.data = data
        self.board = Board(data)
        self.data_version = data.data_version
        self.data_dir: Path = data.directory
        self.sequence()  # checked with the data, not at the first move

    def _new_state(self, seed: int, options: dict[str, Any], dice: Dice) -> FBState:
        """A new game at the US set-up (FB 3.0), the airfields as printed."""
        st = FBState(self, dice, seed, options)
        st.airfield = {
            h: (Status.OPERATIONAL if af.built else Status.UNBUILT)
            for af in self.data.map.airfields.values()
            for h in af.hexes
        }
        st.begin([])
        return st

    def load_state(self, obj: Mapping[str, Any], *, dice: Dice | None = None) -> FBState:
        """A state from a position of version 2, or of version 1 migrated first (position.py)."""
        from henderson.games.firstblood.position import migrate

        position = migrate(self, obj)
        # a version-1 position is kept where it was written; version 2 moves on to a decision
        st = FBState.load(self, position, dice, move_on=position is obj)
        assert isinstance(st, FBState)
        return st

    def parse_action(self, text: str) -> A.FBAction:
        return A.parse_action(text)

    def describe(self, action: Action) -> ActionInfo:
        assert isinstance(action, A.FBAction)
        return A.describe(action)

    def placements(self, state: State, unit: str) -> list[Action]:
        """Any waiting counter may be placed, not only the next one listed (FB 3.0, 3.1, 7.0):
        its places at set-up or as a reinforcement, as the engine checks them."""
        from henderson.games.firstblood.rules import placement

        assert isinstance(state, FBState)
        if state.is_terminal() or not state.legal_actions() or unit not in state.to_place:
            return []
        places = placement.places_for(state, unit, setup=state.current_step.setup)
        return [A.Place(unit, p) for p in places]

    def odds(self, state: State, attack: A.Attack | str) -> Odds:
        """The odds of a whole attack that is legal now (FB 8.4–8.8), without rolling."""
        from henderson.games.firstblood.rules import combat

        assert isinstance(state, FBState)
        if isinstance(attack, str):
            parsed = self.parse_action(attack)
            if not isinstance(parsed, A.Attack):
                raise HendersonError(f"'{attack}' is not an attack")
            attack = parsed
        if not state.step.endswith("_combat") or state.pending or state.is_terminal():
            raise HendersonError(f"odds are for attacks in a combat phase (now: {state.step})")
        b = combat.building_from(state, attack)
        return combat.compute_odds(state, b.spec())

    def calculator_form(self) -> CalculatorForm:
        from henderson.games.firstblood import calculator

        return calculator.form(self.data)

    def calculate(self, inputs: Mapping[str, Any]) -> Calculation:
        """The odds of any attack on one hex, from factors chosen freely (FB 8.4–8.8)."""
        from henderson.games.firstblood import calculator

        return calculator.calculate(self.data, inputs)

    def render_text(self, state: State, viewer: str | None = None) -> str:
        from henderson.games.firstblood.render import render

        assert isinstance(state, FBState)
        return render(state)

    def draw_map(self, path: Path, state: State | None = None) -> None:
        try:
            from henderson.games.firstblood.mapdraw import draw_map
        except ModuleNotFoundError as exc:
            raise needs_extra(exc, "plot", "drawing a map") from None

        assert state is None or isinstance(state, FBState)
        units = None if state is None else {u: h for u, h in state.ground.items() if self.board.on_map(h)}
        draw_map(self.data, path, units)

    def evaluate(self, state: State, side: str) -> float:
        from henderson.games.firstblood.evaluate import evaluate

        assert isinstance(state, FBState)
        return evaluate(state, side)

    def client_data(self) -> dict[str, Any]:
        """Static board data for the browser client."""
        from henderson.games.firstblood.clientdata import client_data

        return client_data(self)
