"""Going round in circles: positions an agent has already decided in, and actions that lead back.

Some rules let a player undo a choice for free (re-place an air unit, add then
cancel an attacker). An evaluation that does not care which of two such
positions it is in would let a one-step agent swap between them for ever, so
agents remember the positions they decided in and pass over a sure action (one
that rolls no dice) leading back to one of them, unless every action does.

A position need not repeat for a unit to go round in circles: a movement point
spent makes the position after Kuma 0005 -> 0006 -> 0005 new. So agents also
remember, for the phase they are deciding in (turn and step), every place each
unit stood at one of their decisions, and pass over an action that moves a unit
back to a place it stood in this phase (a *shuffle*), unless every action
considered does. Actions are read through the game's `describe` (a unit or units,
and a hex, zone, box or place they go `to`), positions through the public
`view(side)`.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

from henderson.agents.chance import sample_after
from henderson.core.actions import ArgKind
from henderson.core.game import Game, Side, State

PLACE_KINDS = (ArgKind.HEX, ArgKind.ZONE, ArgKind.BOX, ArgKind.PLACE)


def unit_places(view: Mapping[str, Any]) -> dict[str, str]:
    """Where each unit a position's view shows stands: the games' views list units as
    `ground` / `air` (unit -> hex or box, FB), `units` (unit -> {"at": …}, DG) or
    `pieces` (unit -> {"zone": …}, AAG)."""
    places: dict[str, str] = {}
    for key in ("ground", "air"):
        part = view.get(key)
        if isinstance(part, dict):
            places.update((u, p) for u, p in part.items() if isinstance(p, str))
    for key, field in (("units", "at"), ("pieces", "zone")):
        part = view.get(key)
        if isinstance(part, dict):
            for unit, entry in part.items():
                if isinstance(entry, dict) and isinstance(entry.get(field), str):
                    places[unit] = entry[field]
    return places


def moves_of(game: Game, action: Any) -> list[tuple[str, str]]:
    """The (unit, destination) pairs an action moves, read from `game.describe`: every unit
    it names (not a target) and the hex, zone, box or place it names as `to`."""
    info = game.describe(action)
    to = next((a.value for a in info.args if a.role == "to" and a.kind in PLACE_KINDS), None)
    if not isinstance(to, str):
        return []
    units: list[str] = []
    for arg in info.args:
        if arg.role in ("to", "target"):
            continue
        if arg.kind is ArgKind.UNIT and isinstance(arg.value, str):
            units.append(arg.value)
        elif arg.kind is ArgKind.UNITS:
            units.extend(str(u) for u in arg.value)
    return [(u, to) for u in units]


def phase_of(state: State) -> tuple[int, str]:
    """The phase a decision belongs to: its turn and step."""
    return (state.turn, state.step)


class PhaseMemory:
    """The places each unit stood at an agent's decisions in the phase going on."""

    def __init__(self) -> None:
        self.phase: tuple[int, str] | None = None
        self.stood: dict[str, set[str]] = {}
        self.here: dict[str, str] = {}  # where each unit stood at the last decision

    def note(self, state: State, side: Side) -> None:
        """Remember where every unit stands now (a new phase forgets the old one)."""
        phase = phase_of(state)
        if phase != self.phase:
            self.phase = phase
            self.stood = {}
        self.here = unit_places(state.view(side))
        for unit, place in self.here.items():
            self.stood.setdefault(unit, set()).add(place)

    def shuffles(self, state: State, action: Any) -> bool:
        """Whether `action` moves a unit back to a place it stood in this phase (staying where
        it is, as an AAG air unit landing where it flew, is no shuffle)."""
        if phase_of(state) != self.phase or not self.stood:
            return False
        stood, here = self.stood, self.here
        return any(
            place in stood.get(unit, ()) and place != here.get(unit) for unit, place in moves_of(state.game, action)
        )

    def clear(self) -> None:
        self.phase = None
        self.stood = {}
        self.here = {}


class History:
    """The positions one agent has decided in during one game, as the agent knew them
    (`state.key(side)`: what that side cannot see is not part of it)."""

    def __init__(self) -> None:
        self.seen: set[Hashable] = set()
        self.phase = PhaseMemory()

    def note(self, state: State) -> None:
        """Remember the position decided in, and where the units stand in this phase."""
        side = state.current_player()
        self.seen.add(state.key(side))
        if side is not None:
            self.phase.note(state, side)

    def leads_back(self, state: State, action: Any, rng: random.Random, side: Side | None = None) -> bool:
        """Whether `action` surely (no dice) returns to a position already decided in."""
        side = state.current_player() if side is None else side
        after, chance = sample_after(state, action, rng, side)
        return not chance and after.key(side) in self.seen

    def first_new(self, state: State, ranked: list[Any], rng: random.Random, spare: Iterable[Any] = ()) -> Any:
        """The first of `ranked` (best first) that neither moves a unit back to a place it
        stood in this phase nor leads back to a position; else the first of `spare` (the
        actions not ranked, best first, and the one-word ones: `end`, `pass`) that does
        neither; else the first of `ranked` that does not lead back; the best when all do."""
        side = state.current_player()
        shuffling = [action for action in ranked if self.phase.shuffles(state, action)]
        for action in ranked:
            if action not in shuffling and not self.leads_back(state, action, rng, side):
                return action
        if shuffling:  # nothing ranked but a shuffle: something further down, or quieter?
            for action in spare:
                if not self.phase.shuffles(state, action) and not self.leads_back(state, action, rng, side):
                    return action
        for action in shuffling:
            if not self.leads_back(state, action, rng, side):
                return action
        return ranked[0]

    def clear(self) -> None:
        self.seen.clear()
        self.phase.clear()


def one_word(actions: Sequence[Any]) -> list[Any]:
    """The actions whose notation is one word (`end`, `pass`, `stop`): a quiet way out."""
    return [a for a in actions if " " not in str(a).strip()]
