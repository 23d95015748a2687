"""OpenSpiel python games: `python_henderson_firstblood`, `python_henderson_deluxe` and
`python_henderson_aag` (registered when this module is imported).

    import pyspiel
    import henderson.research.openspiel_game  # registers the three games
    game = pyspiel.load_game("python_henderson_aag(max_plies=200)")

A move is one token of the side deciding (player 0 is the game's first side), so one
henderson action is a sequence of moves by the same player, ended by END (token 0). Dice
are explicit chance nodes (`explicit_chance=True`, the default): chance outcome k is the
face k + 1, every face equally likely. With `explicit_chance=False` the game is sampled
stochastic: the dice roll inside each action, seeded by `seed`.

Parameters: `max_plies` (cut the game short after that many henderson actions, a draw;
0: no cut), `max_moves` (the same in OpenSpiel moves, chance included; the bound of
`max_game_length`), `explicit_chance`, `seed`, and `options` (the game's optional rules,
comma-separated names, e.g. "advantages,hidden_movement").
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from henderson import games
from henderson.core.game import Capability, Game
from henderson.research.actions import ActionSpace, action_space
from henderson.research.match import CHANCE, Match
from henderson.research.observation import Observer
from henderson.research.vocabulary import VocabularyError

try:
    import pyspiel
except ModuleNotFoundError as exc:  # pragma: no cover - depends on the installation
    from henderson.core.game import needs_extra

    raise needs_extra(exc, "openspiel", "the OpenSpiel games") from None

GAMES = ("firstblood", "deluxe", "aag")
DEFAULT_MAX_MOVES = 1_000_000
PARAMETERS: dict[str, Any] = {
    "max_plies": 0,
    "max_moves": DEFAULT_MAX_MOVES,
    "explicit_chance": True,
    "seed": 0,
    "options": "",
}


def short_name(game: str) -> str:
    """The OpenSpiel name of a henderson game."""
    return f"python_henderson_{game}"


def max_die(game: Game) -> int:
    """The most faces any die of `game` has (OpenSpiel's `max_chance_outcomes`): six, and in
    Deluxe Guadalcanal one face per random event card (a card is drawn by a die)."""
    if game.name == "deluxe":
        data: Any = game.data  # type: ignore[attr-defined]
        return max(6, len(data.cards))
    return 6


def _game_type(game: Game, explicit_chance: bool = True) -> pyspiel.GameType:
    hidden = Capability.HIDDEN_INFORMATION in game.capabilities
    return pyspiel.GameType(
        short_name=short_name(game.name),
        long_name=f"henderson: {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if explicit_chance
            else pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
        ),
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if hidden
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=len(game.sides),
        min_num_players=len(game.sides),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=PARAMETERS,
    )


@dataclass(frozen=True)
class Settings:
    """A game's parameters read once: the henderson game, its options, and what every state
    of it shares (token space, observer)."""

    henderson: Game
    options: dict[str, Any]
    explicit_chance: bool
    max_plies: int | None
    max_moves: int
    seed: int
    space: ActionSpace
    observer: Observer
    start: list[Match] = field(default_factory=list, compare=False)  # the initial match, made once

    def initial(self) -> Match:
        """A new game at its start (a copy of one made once: set-up can be slow)."""
        if not self.start:
            self.start.append(
                Match(
                    self.henderson,
                    self.seed,
                    options=self.options,
                    explicit_chance=self.explicit_chance,
                    max_plies=self.max_plies,
                    space=self.space,
                )
            )
        return self.start[0].clone()


_SETTINGS: dict[tuple[str, str], Settings] = {}


def settings(name: str, params: dict[str, Any]) -> Settings:
    """The settings of henderson game `name` under OpenSpiel parameters `params` (cached:
    OpenSpiel makes a new game object each time it loads or unpickles one)."""
    merged = {**PARAMETERS, **params}
    key = (name, json.dumps(merged, sort_keys=True, default=str))
    found = _SETTINGS.get(key)
    if found is None:
        henderson = games.get(name)
        names = [n.strip() for n in str(merged["options"]).split(",") if n.strip()]
        space = action_space(henderson)
        found = _SETTINGS[key] = Settings(
            henderson=henderson,
            options=henderson.check_options(dict.fromkeys(names, True)),
            explicit_chance=bool(merged["explicit_chance"]),
            max_plies=int(merged["max_plies"]) or None,
            max_moves=int(merged["max_moves"]),
            seed=int(merged["seed"]),
            space=space,
            observer=Observer(henderson, space.size),
        )
    return found


class HendersonGame(pyspiel.Game):
    """A henderson game for OpenSpiel (one subclass per game: `henderson_name` names it)."""

    henderson_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**PARAMETERS, **(params or {})}
        found = settings(self.henderson_name, merged)
        info = pyspiel.GameInfo(
            num_distinct_actions=found.space.size,
            max_chance_outcomes=max_die(found.henderson) if found.explicit_chance else 0,
            num_players=len(found.henderson.sides),
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=found.max_moves,
        )
        super().__init__(_game_type(found.henderson, found.explicit_chance), info, merged)

    @property
    def settings(self) -> Settings:
        """This game's settings (from its parameters, which OpenSpiel keeps through pickling)."""
        return settings(self.henderson_name, dict(self.get_parameters()))

    def new_initial_state(self) -> HendersonState:
        return HendersonState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> HendersonObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return HendersonObserver(self.settings.observer, perfect_recall)


class HendersonState(pyspiel.State):
    """One position of a henderson game, token by token, for OpenSpiel.

    Its attributes are few and cheap to copy and pickle (OpenSpiel copies and pickles a
    python state's attributes): the match (whose copies share the game's data), the sides,
    and the move limit."""

    def __init__(self, game: HendersonGame, match: Match | None = None) -> None:
        super().__init__(game)
        found = game.settings
        self.sides = tuple(found.henderson.sides)
        self.max_moves = found.max_moves
        self.max_chance = max_die(found.henderson)
        self.match = match or found.initial()

    # -- the OpenSpiel API -------------------------------------------------------------------

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        player = self.match.current_player()
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return self.sides.index(str(player))

    def _legal_actions(self, player: int) -> list[int]:
        if self.is_terminal() or self.sides[player] != self.match.current_player():
            return []
        return self.match.legal_tokens()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes = self.match.chance_outcomes()
        if len(outcomes) > self.max_chance:
            raise VocabularyError(f"a d{len(outcomes)} is more than the game's {self.max_chance} chance outcomes")
        return [(face - 1, p) for face, p in outcomes]

    def _apply_action(self, action: int) -> None:
        if self.match.current_player() == CHANCE:
            self.match.step_chance(int(action) + 1)
        else:
            self.match.step(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            return f"die {action + 1}"
        return self.match.space.vocab.tokens[action]

    def is_terminal(self) -> bool:
        return self.match.is_over() or len(self.match.history) >= self.max_moves

    def returns(self) -> list[float]:
        if not self.match.is_over():
            return [0.0] * len(self.sides)
        values = self.match.returns()
        return [float(values[s]) for s in self.sides]

    def __str__(self) -> str:
        position = self.match.state.to_json()
        position.pop("dice", None)
        text = json.dumps(position, sort_keys=True, separators=(",", ":"))
        pending = self.match.pending
        if pending is not None:
            text += f"\nrolling for {pending.action}: {pending.rolled} then a d{pending.sides}"
        if self.match.prefix:
            text += f"\nchoosing: {self.match.space.text(self.match.prefix)}"
        return text


class HendersonObserver:
    """OpenSpiel's observer: a seat's observation tensor and string, or (perfect recall)
    its information-state string."""

    def __init__(self, observer: Observer, perfect_recall: bool) -> None:
        self.observer = observer
        self.perfect_recall = perfect_recall
        if perfect_recall:
            self.tensor = np.zeros(0, np.float32)
            self.dict: dict[str, np.ndarray] = {}
        else:
            self.tensor = np.zeros(observer.spec.size, np.float32)
            self.dict = observer.spec.unflatten(self.tensor)

    def set_from(self, state: HendersonState, player: int) -> None:
        if not self.perfect_recall:
            self.tensor[:] = self.observer.tensor(state.match, state.sides[player])

    def string_from(self, state: HendersonState, player: int) -> str:
        side = state.sides[player]
        if self.perfect_recall:
            return self.observer.information_state_string(state.match, side)
        return self.observer.observation_string(state.match, side)


class FirstBloodGame(HendersonGame):
    """FIRST BLOOD for OpenSpiel (perfect information)."""

    henderson_name = "firstblood"


class DeluxeGame(HendersonGame):
    """Deluxe Guadalcanal for OpenSpiel (imperfect information: fog of war)."""

    henderson_name = "deluxe"


class AagGame(HendersonGame):
    """Axis & Allies: Guadalcanal for OpenSpiel (imperfect information)."""

    henderson_name = "aag"


_CLASSES: dict[str, type[HendersonGame]] = {"firstblood": FirstBloodGame, "deluxe": DeluxeGame, "aag": AagGame}


def register() -> list[str]:
    """Register the three games with OpenSpiel (again: no harm); returns their names."""
    names = []
    for name, cls in _CLASSES.items():
        if short_name(name) not in pyspiel.registered_names():
            pyspiel.register_game(_game_type(games.get(name)), cls)
        names.append(short_name(name))
    return names


def load(game: str, **params: Any) -> HendersonGame:
    """A henderson game as an OpenSpiel game, e.g. `load("aag", max_plies=100)`."""
    register()
    return pyspiel.load_game(short_name(game), params)


register()

__all__ = [
    "GAMES",
    "AagGame",
    "DeluxeGame",
    "FirstBloodGame",
    "HendersonGame",
    "HendersonObserver",
    "HendersonState",
    "load",
    "max_die",
    "register",
]
