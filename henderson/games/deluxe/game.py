"""The Deluxe Guadalcanal game object: validated data plus new positions, position loading,
action notation and a text rendering (the kit's `SequencedGame`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from henderson.core.actions import ActionInfo
from henderson.core.calculator import Calculation, CalculatorForm
from henderson.core.dice import Dice
from henderson.core.game import Action, Capability, Option, State, needs_extra
from henderson.core.hexgrid import Hex
from henderson.core.paths import Split
from henderson.core.sequence import SequencedGame, SequenceSpec

from .actions import DGAction, describe, make, parse
from .data import DEFAULT_DIR, load_data
from .model import SIDES, GameData
from .position import is_version_1, migrate
from .render import render
from .rules import artillery, movement
from .rules.common import occupancy
from .state import DGState
from .units import UnitState

TITLE = "Deluxe Guadalcanal – The Battle for Henderson Field"
OPTIONS: dict[str, Option] = {
    "us_stealth": Option("us_stealth", "DG 7.7.6: U.S. infantry may use stealth movement too"),
}


class DGGame(SequencedGame):
    """Rules plus data for DG; sides are "us" and "jp" (the US moves first, DG 4.0). Stealth
    and fog of war (DG 7.7, 7.8) hide units from the other side."""

    name = "deluxe"
    title = TITLE
    sides = SIDES
    rules_prefix = "DG"
    rules_package = "henderson.games.deluxe.rules"
    options = OPTIONS
    capabilities = frozenset(
        {
            Capability.HIDDEN_INFORMATION,
            Capability.ODDS,
            Capability.EVALUATION,
            Capability.MAP_DRAWING,
            Capability.CALCULATOR,
        }
    )
    end_rule = "DG 9.4"

    def __init__(self, data: GameData, data_dir: Path) -> None:
        self.data = data
        self.data_dir = data_dir
        self.data_version = data.version
        self.los_cache: dict[tuple[str, str], bool] = {}  # terrain never changes (DG 8.1.4)
        self.target_cache: dict[tuple[Any, ...], list[str]] = {}  # artillery.kept_targets
        # the last units by hex worked out and the records they were made from (`common.occupancy`)
        self.occupied: tuple[tuple[UnitState, ...], dict[str, list[UnitState]]] | None = None
        self.sight_openings = artillery.openings(data)  # the hexes a line of sight may leave (DG 8.1.4)
        # route searches by everything they read (rules/movement.py), shared by all states
        self.route_cache: dict[tuple[Any, ...], movement.RouteMap] = {}
        # the keys of the searches by all but the helpers' crossings (`movement._find_routes`)
        self.route_variants: dict[tuple[Any, ...], list[tuple[Any, ...]]] = {}
        self.coastal: tuple[str, ...] = tuple(sorted(h for h, info in data.map.hexes.items() if info.coastal))
        self.coastal_set = frozenset(self.coastal)
        # each side's unit ids in the order of the action lists (a counter's side never changes)
        self.ids_by_side: dict[str, tuple[str, ...]] = {
            side: tuple(uid for uid in sorted(data.units) if data.units[uid].side == side) for side in SIDES
        }
        # the river helpers' ids (LVT and engineer, DG 7.3.3), read by every route search's key
        self.helper_ids = frozenset(uid for uid, t in data.units.items() if t.type in movement.HELPER_TYPES)
        self.allowed_cache: dict[tuple[Any, ...], list[DGAction]] = {}  # movement.legal
        self.near_cache: dict[tuple[str, int], frozenset[str]] = {}  # stealth.near
        self.detect_cache: dict[tuple[Any, ...], list[DGAction]] = {}  # stealth.detect_legal
        self.zoc_cache: dict[frozenset[str], frozenset[str]] = {}  # movement.Context
        self.interned: dict[Any, Any] = {}  # movement.interned: one copy of each cache key part
        self.step_cache: dict[tuple[Any, ...], movement.StepTable] = {}  # movement.Context
        self.split_cache: dict[tuple[str, bool, int], Split[str]] = {}  # movement.StepTable
        self.hex_at: dict[Hex, str] = {info.hex: hid for hid, info in data.map.hexes.items()}
        # (verb, unit or stack) -> hex -> the shared action (movement lists, built often)
        self.unit_actions: dict[tuple[str, str], movement.ActionTable] = {}
        self.edges, self.stealth_edges = movement.edge_tables(data)  # fixed costs (DG 7.3)
        self.open_steps = movement.open_steps(self.edges)  # the steps where nothing hinders them
        self.open_stealth_steps = movement.open_steps(self.stealth_edges)
        # hex -> the hexes next to it across a river that may stop a unit (DG 7.3.3)
        self.river_crossings = {h: tuple(to for to, _, river in out if river) for h, out in self.edges.items()}
        self.river_crossings = {h: out for h, out in self.river_crossings.items() if out}
        self.river_steps = movement.river_steps(self.edges)  # their steps with no helper near
        # hex -> the river banks from which a crossing enters it (where its helpers serve)
        self.river_sources: dict[str, frozenset[str]] = {}
        for h, out in self.river_crossings.items():
            for to in out:
                self.river_sources[to] = self.river_sources.get(to, frozenset()) | {h}
        self.hindered_cache: dict[tuple[frozenset[str], frozenset[str]], frozenset[str]] = {}  # movement.Context
        self.sea_starts_cache: dict[frozenset[str], frozenset[str]] = {}  # movement.Context.sea_starts

    def sequence(self) -> SequenceSpec:
        """The sequence of play, read and checked with the rest of the data (data.py)."""
        return self.data.sequence

    @property
    def die_faces(self) -> int:
        """A d6, or a draw from the random event cards (DG 5.0), whichever has more faces."""
        return max(6, len(self.data.cards))

    def action(self, verb: str, *args: str) -> DGAction:
        """The shared action with this verb and arguments (`actions.make`)."""
        return make(verb, *args)

    def _new_state(self, seed: int, options: dict[str, Any], dice: Dice) -> DGState:
        """The start of the game: the preparation for play (DG 3.0), then on to the first
        decision."""
        state = DGState(self, dice, seed, options)
        state.begin([])
        return state

    def load_state(self, obj: Mapping[str, Any], *, dice: Dice | None = None) -> DGState:
        """A position from its JSON (docs/deluxe.md, version 2 or 1); PositionError names
        what is wrong."""
        position = migrate(self, obj)
        # a version-1 step written as waiting ("open") waits, as version 1 had it, even where
        # nobody has a choice left (position.py)
        as_written = is_version_1(self, obj) and bool(position.get("entered"))
        state = DGState.load(self, position, dice, move_on=not as_written)
        assert isinstance(state, DGState)
        return state

    def parse_action(self, text: str) -> DGAction:
        """The action written as `text` (docs/deluxe.md); NotationError otherwise."""
        return parse(text)

    def describe(self, action: Action) -> ActionInfo:
        """The action as a verb and typed arguments (units, hexes, numbers)."""
        assert isinstance(action, DGAction)
        return describe(action)

    def render_text(self, state: State, viewer: str | None = None) -> str:
        """The position as text for a terminal (as `viewer` may see it, when given)."""
        assert isinstance(state, DGState)
        return render(state, viewer)

    def draw_map(self, path: Path, state: State | None = None) -> None:
        """The map (DG 2.1) and, with `state`, every stack on it, to an SVG or PNG file."""
        try:
            from .mapdraw import draw_map
        except ModuleNotFoundError as exc:
            raise needs_extra(exc, "plot", "drawing a map") from None
        assert state is None or isinstance(state, DGState)
        stacks = None
        if state is not None:
            stacks = {h: [(u.id, u.side) for u in units] for h, units in occupancy(state).items()}
        draw_map(self.data, path, stacks)

    def odds(self, state: State, spec: str) -> Any:
        """The exact odds of an assault built from `spec` ("attack 3508; with 2/5; ..."), unrolled."""
        from .odds import assault_odds

        assert isinstance(state, DGState)
        return assault_odds(state, spec)

    def calculator_form(self) -> CalculatorForm:
        from .calculator import form

        return form(self.data)

    def calculate(self, inputs: Mapping[str, Any]) -> Calculation:
        """The exact results of any assault on one hex, from strengths chosen freely (DG 8.2)."""
        from .calculator import calculate

        return calculate(self.data, inputs)

    def evaluate(self, state: State, side: str) -> float:
        from .evaluate import evaluate

        assert isinstance(state, DGState)
        return evaluate(state, side)

    def client_data(self) -> dict[str, Any]:
        """Static board data for the browser client (the map, counters, turn track, steps)."""
        from .clientdata import client_data

        return client_data(self)


def load_game(data_dir: Path | None = None) -> DGGame:
    """The game with the shipped data, or with the data in `data_dir`."""
    base = Path(data_dir) if data_dir else DEFAULT_DIR
    return DGGame(load_data(base), base)
