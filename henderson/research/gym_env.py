"""A Gymnasium environment for one side of a henderson game against a built-in agent.

    from henderson.research.gym_env import HendersonEnv
    env = HendersonEnv("aag", side="us", opponent="normal")
    obs, info = env.reset(seed=1)
    while True:
        token = pick(obs["observation"], obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(token)
        if terminated or truncated:
            break

Each step chooses one token of the learner's next action (the same space as the PettingZoo
environment); between the learner's decisions the opponent (`henderson.agents.get(name)`)
plays whole actions. The reward is +1 for a win, -1 for a loss, 0 otherwise, at the end.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from henderson import agents
from henderson.agents import Agent, Observing
from henderson.core.errors import HendersonError
from henderson.core.game import Game, other_side
from henderson.research.match import Match
from henderson.research.spaces import ResetSeeds, Seat, resolve
from henderson.sim.seeds import derive_seed

try:
    import gymnasium
except ModuleNotFoundError as exc:  # pragma: no cover - depends on the installation
    from henderson.core.game import needs_extra

    raise needs_extra(exc, "rl", "the Gymnasium environment") from None


class HendersonEnv(gymnasium.Env):
    """`side` of `game` against `opponent` (an agent name, with options: "mcts:iterations=50").

    `max_plies` cuts a game short (truncated); `auto_forced` chooses a token without asking
    when it is the only legal one. `on_illegal` says what a token outside the mask does:
    "raise" (MatchError), "lose" (the game ends, reward -1) or "random" (a legal token is
    chosen instead, seeded by the game's seed)."""

    metadata = {"render_modes": ["ansi", "human"]}  # noqa: RUF012 - gymnasium's own attribute

    def __init__(
        self,
        game: Game | str = "firstblood",
        *,
        side: str | None = None,
        opponent: str = "random",
        options: dict[str, Any] | None = None,
        max_plies: int | None = None,
        auto_forced: bool = False,
        on_illegal: str = "raise",
        render_mode: str | None = None,
    ) -> None:
        if on_illegal not in ("raise", "lose", "random"):
            raise HendersonError(f"on_illegal is raise, lose or random, not {on_illegal!r}")
        self.on_illegal = on_illegal
        self.game = resolve(game)
        self.game.check_options(options)
        self.side = side or self.game.sides[0]
        if self.side not in self.game.sides:
            raise HendersonError(f"{self.game.name} has no side {self.side!r} (sides: {', '.join(self.game.sides)})")
        self.opponent_spec = opponent
        agents.get(opponent, 0)  # an unknown agent fails here, in one line
        self.seat = Seat(self.game)
        self.action_space = self.seat.action_space
        self.observation_space = self.seat.observation_space
        self.game_options = dict(options or {})
        self.max_plies = max_plies
        self.auto_forced = auto_forced
        self.render_mode = render_mode
        self._seeds = ResetSeeds()
        self.match: Match | None = None
        self.opponent: Agent | None = None
        self._start_ply = self._told = 0
        self._forfeited = False
        self._illegal_rng = random.Random(0)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """A new game; `seed` is the game's seed (the opponent's is derived from it)."""
        super().reset(seed=seed)
        number = self._seeds.next(seed)
        position = (options or {}).get("position")
        state = self.game.load_state(position) if position is not None else None
        self.match = Match(
            self.game,
            number,
            options=self.game_options,
            max_plies=self.max_plies,
            auto_forced=self.auto_forced,
            state=state,
        )
        self.opponent = agents.get(self.opponent_spec, derive_seed(number, other_side(self.game.sides, self.side)))
        self._start_ply, self._told = self.match.state.ply, 0
        self._forfeited = False
        self._illegal_rng = random.Random(number)
        self._opponent_moves()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        match = self._live()
        if match.is_over() or self._forfeited:
            raise HendersonError("the game is over: call reset()")
        token = int(action)
        legal = match.legal_tokens()
        if token not in legal and self.on_illegal == "lose":
            self._forfeited = True
            return self._observe(), -1.0, True, False, {**self._info(), "illegal": token}
        if token not in legal and self.on_illegal == "random":
            token = legal[self._illegal_rng.randrange(len(legal))]
        match.step(token)
        self._notify()
        self._opponent_moves()
        reward = float(match.returns()[self.side]) if match.is_over() else 0.0
        terminated = match.is_over() and not match.truncated
        return self._observe(), reward, terminated, match.truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal tokens now, as booleans (the name sb3-contrib's maskable agents call)."""
        return self._live().legal_action_mask().astype(bool)

    def render(self) -> str | None:
        match = self._live()
        text = self.game.render_text(match.state, self.side)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # -- inside --------------------------------------------------------------------------------

    def _live(self) -> Match:
        if self.match is None:
            raise HendersonError("call reset() first")
        return self.match

    def _opponent_moves(self) -> None:
        match = self._live()
        assert self.opponent is not None
        while not match.is_over() and match.current_player() != self.side:
            match.play(self.opponent.choose(match.state))
            self._notify()

    def _notify(self) -> None:
        """Tell an opponent that follows the game (`Observing`) every action played since."""
        entries = self._live().record.entries
        if isinstance(self.opponent, Observing):
            for entry in entries[self._told :]:
                self.opponent.observe(self._start_ply + entry.ply, entry.action)
        self._told = len(entries)

    def _observe(self) -> dict[str, Any]:
        match = self._live()
        return self.seat.observe(match, self.side, match.current_player() == self.side)

    def _info(self) -> dict[str, Any]:
        match = self._live()
        return {"ply": match.state.ply, "choosing": match.space.text(match.prefix)}
