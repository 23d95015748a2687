"""One game played token by token: the state machine under the PettingZoo, Gymnasium and
OpenSpiel environments.

A `Match` holds a henderson position, the tokens chosen so far towards the next action (the
prefix), and, with explicit chance, the action waiting for its dice. Each step is one token
of the side to decide, or one die's outcome; when a prefix spells a whole legal action the
action is played. The record of the game is kept as each side read it (`State.redact` right
after each action), for information-state strings.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from henderson.core.errors import HendersonError
from henderson.core.events import Event
from henderson.core.game import Action, Game, Side, State
from henderson.core.record import GameRecord, note_seen, read_by, record_for
from henderson.research.actions import END_ID, ActionSpace, LegalTokens, action_space, numpy
from henderson.research.chance import ChosenDice, PendingRoll, try_with_dice

if TYPE_CHECKING:
    import numpy as np

CHANCE = "chance"  # `Match.current_player()` while a die is to be rolled (explicit chance)


class MatchError(HendersonError):
    """A token or an outcome that is not legal where it was given."""


class Match:
    """A game in progress for token-level play.

    `explicit_chance`: dice are chance nodes (`CHANCE` decides, `chance_outcomes` lists the
    faces); otherwise the game's seeded dice roll inside each action, as in normal play.
    `max_plies`: the game is cut short (truncated, no winner) after that many actions.
    `auto_forced`: a token that is the only legal one is chosen without asking.
    """

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        *,
        options: Mapping[str, Any] | None = None,
        explicit_chance: bool = False,
        max_plies: int | None = None,
        auto_forced: bool = False,
        state: State | None = None,
        space: ActionSpace | None = None,
    ) -> None:
        self.game = game
        self.space = space or action_space(game)
        self.explicit_chance = explicit_chance
        self.max_plies = max_plies
        self.auto_forced = auto_forced
        if state is None:
            dice = ChosenDice() if explicit_chance else None
            state = game.new_state(seed, options=options, dice=dice)
            self.record: GameRecord = record_for(game, state)
        else:
            state = state.clone()
            if explicit_chance:
                state.dice = ChosenDice()
            self.record = record_for(game, state, from_position=True)
        self.state = state
        self.prefix: list[int] = []
        self.pending: PendingRoll | None = None
        self.plies = 0
        self.truncated = False
        self.history: list[int] = []  # every token and outcome (face - 1) in order, as OpenSpiel counts moves
        self._legal: LegalTokens | None = None
        self._lines: dict[Side | None, list[str]] = {}
        self._forced()

    # -- whose turn ------------------------------------------------------------------------

    def current_player(self) -> str | None:
        """The side choosing a token, `CHANCE` while a die is to be rolled, None when over."""
        if self.is_over():
            return None
        if self.pending is not None:
            return CHANCE
        return self.state.current_player()

    def is_over(self) -> bool:
        return self.truncated or self.state.is_terminal()

    def returns(self) -> dict[Side, float]:
        """+1/-1 for the winner and the loser; 0 each while playing, after a draw or a cut."""
        if self.truncated:
            return {s: 0.0 for s in self.game.sides}
        return self.state.returns()

    # -- tokens ------------------------------------------------------------------------------

    def legal(self) -> LegalTokens:
        """The legal actions of the decision in progress as token sequences."""
        if self._legal is None:
            actions = [] if self.is_over() or self.pending is not None else self.state.legal_actions()
            self._legal = LegalTokens(self.space, actions)
        return self._legal

    def legal_tokens(self) -> list[int]:
        """The tokens the side to decide may choose now, ascending (empty at chance or the end)."""
        if self.pending is not None or self.is_over():
            return []
        return self.legal().next_tokens(self.prefix)

    def legal_action_mask(self) -> np.ndarray:
        """`legal_tokens` as a 0/1 int8 array over the whole token space."""
        mask = numpy().zeros(self.space.size, dtype="int8")
        mask[self.legal_tokens()] = 1
        return mask

    def step(self, token: int) -> list[Event] | None:
        """Choose one token; when it completes an action, the action is played (its events are
        returned; None while the action is incomplete or waits for dice)."""
        token = int(token)
        if token not in self.legal_tokens():
            raise MatchError(self._refusal(token))
        self.prefix.append(token)
        self.history.append(token)
        events: list[Event] | None = None
        if token == END_ID:
            action = self.legal().complete(self.prefix)
            if action is None:  # cannot happen: END is only legal after a whole action
                raise MatchError(f"{self.space.text(self.prefix)!r} is not a legal action")
            events = self._play(action, [])
        self._forced()
        return events

    def play(self, action: Action | str) -> list[Event] | None:
        """Choose every token of `action` in turn (it must be legal now)."""
        events: list[Event] | None = None
        for token in self.space.tokens(action)[len(self.prefix) :]:
            if self.current_player() in (None, CHANCE):
                break
            events = self.step(token)
        return events

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The faces of the die to roll now with their probabilities (explicit chance only)."""
        if self.pending is None:
            raise MatchError("no die is to be rolled now")
        return self.pending.outcomes()

    def step_chance(self, face: int) -> list[Event] | None:
        """Give the die to roll now the outcome `face` (1..sides)."""
        if self.pending is None:
            raise MatchError("no die is to be rolled now")
        if not 1 <= int(face) <= self.pending.sides:
            raise MatchError(f"{face} is not a face of a d{self.pending.sides} ({self.pending.purpose})")
        pending, self.pending = self.pending, None
        self.history.append(int(face) - 1)
        events = self._play(pending.action, [*pending.rolled, int(face)])
        self._forced()
        return events

    # -- copies --------------------------------------------------------------------------------

    def clone(self) -> Match:
        """An independent copy (the position is cloned; the record's entries are shared,
        never changed once written)."""
        other = copy.copy(self)
        other.state = self.state.clone()
        other.prefix = list(self.prefix)
        other.pending = copy.deepcopy(self.pending)
        other.history = list(self.history)
        other.record = copy.copy(self.record)
        other.record.entries = list(self.record.entries)
        other._legal = None
        other._lines = {k: list(v) for k, v in self._lines.items()}
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Match:
        return self.clone()

    def __getstate__(self) -> dict[str, Any]:
        # the game and its token space are named, not copied (they are shared, read-only)
        data = dict(self.__dict__)
        data["game"] = (self.game.name, str(self.game.data_dir))
        del data["space"]
        data["_legal"] = None
        return data

    def __setstate__(self, data: dict[str, Any]) -> None:
        from henderson import games

        name, data_dir = data["game"]
        game = games.get(name)
        if str(game.data_dir) != data_dir:
            game = games.get(name, data_dir)
        data["game"] = game
        data["space"] = action_space(game)
        self.__dict__.update(data)
        if self.explicit_chance:
            self.state.dice = ChosenDice()

    # -- what each side read -------------------------------------------------------------------

    def log_for(self, side: Side | None) -> list[dict[str, Any]]:
        """The record's entries as `side` read each one when it was played."""
        return [read_by(e, side) for e in self.record.entries]

    def log_lines(self, side: Side | None) -> list[str]:
        """`log_for(side)`, one compact JSON line per entry (kept as the game goes on)."""
        lines = self._lines.setdefault(side, [])
        for entry in self.record.entries[len(lines) :]:
            lines.append(json.dumps(read_by(entry, side), sort_keys=True, separators=(",", ":")))
        return lines

    # -- inside ----------------------------------------------------------------------------------

    def _play(self, action: Action, rolled: list[int]) -> list[Event] | None:
        side = str(self.state.current_player())
        if self.explicit_chance:
            outcome = try_with_dice(self.state, action, rolled)
            if isinstance(outcome, PendingRoll):
                self.pending = outcome
                self._legal = None
                return None
            events = outcome
        else:
            events = self.state.apply(action)
        entry = self.record.add(side, str(action), events)
        note_seen(self.state, entry)
        self.prefix = []
        self._legal = None
        self.plies += 1
        if self.max_plies is not None and self.plies >= self.max_plies and not self.state.is_terminal():
            self.truncated = True
        return events

    def _forced(self) -> None:
        while self.auto_forced and self.pending is None and not self.is_over():
            tokens = self.legal_tokens()
            if len(tokens) != 1:
                return
            self.prefix.append(tokens[0])
            self.history.append(tokens[0])
            if tokens[0] == END_ID:
                action = self.legal().complete(self.prefix)
                assert action is not None
                self._play(action, [])

    def _refusal(self, token: int) -> str:
        if self.is_over():
            return "the game is over"
        if self.pending is not None:
            return f"a die is to be rolled now ({self.pending.purpose}), not a token"
        name = self.space.vocab.tokens[token] if 0 <= token < self.space.size else str(token)
        so_far = self.space.text(self.prefix) or "(nothing yet)"
        return f"token {token} ({name!r}) does not extend {so_far!r} towards a legal action"
