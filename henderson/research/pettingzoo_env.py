"""PettingZoo AEC environments: each side of a henderson game is an agent that chooses one
token of its next action per step (docs/research.md).

    from henderson.research.pettingzoo_env import env
    e = env("firstblood")
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        token = None if terminated or truncated else pick(obs["observation"], obs["action_mask"])
        e.step(token)

Agents are the game's sides ("us", "jp"). The action space is `Discrete(len(tokens))`; an
observation is `{"observation": float32 vector, "action_mask": int8 vector}` (the mask is
zero for the side not choosing). Rewards come at the end: +1 the winner, -1 the loser, 0
each after a draw or when `max_plies` cuts the game short (truncation).
"""

from __future__ import annotations

from typing import Any, ClassVar

from henderson.core.game import Game
from henderson.research.match import Match
from henderson.research.spaces import ResetSeeds, Seat, resolve

try:
    from pettingzoo import AECEnv
except ModuleNotFoundError as exc:  # pragma: no cover - depends on the installation
    from henderson.core.game import needs_extra

    raise needs_extra(exc, "rl", "the PettingZoo environments") from None


class HendersonAEC(AECEnv):
    """One henderson game as a PettingZoo AEC environment (token by token).

    `options`: the game's optional rules; `max_plies`: cut a game short after that many
    actions (None: play to the end); `auto_forced`: choose a token without asking when it is
    the only legal one; `render_mode`: "ansi" (text) or "human" (printed)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "henderson_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: Game | str = "firstblood",
        *,
        options: dict[str, Any] | None = None,
        max_plies: int | None = None,
        auto_forced: bool = False,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.game = resolve(game)
        self.game.check_options(options)
        self.seat = Seat(self.game)
        self.game_options = dict(options or {})
        self.max_plies = max_plies
        self.auto_forced = auto_forced
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = list(self.game.sides)
        self.action_spaces = {a: self.seat.action_space for a in self.possible_agents}
        self.observation_spaces = {a: self.seat.observation_space for a in self.possible_agents}
        self._seeds = ResetSeeds()
        self.match: Match | None = None

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    # -- the AEC API ---------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. `seed` is the game's seed (later resets without one draw theirs from
        it); `options` may hold "position": a position to start from (as `to_json` writes)."""
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
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._observed: dict[str, Any] = {}
        self._finish_if_over()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, Any]:
        match = self._live()
        found = self._observed.get(agent)
        if found is None:
            found = self._observed[agent] = self.seat.observe(match, agent, agent == match.current_player())
        return found

    def step(self, action: Any) -> None:
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        match = self._live()
        match.step(int(action))
        self._observed = {}
        self._finish_if_over()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        match = self._live()
        text = self.game.render_text(match.state, None)
        prefix = match.space.text(match.prefix)
        if prefix:
            text += f"\n{match.current_player()} is choosing: {prefix}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.match = None

    # -- inside --------------------------------------------------------------------------------

    def _live(self) -> Match:
        if self.match is None:
            raise RuntimeError("call reset() first")
        return self.match

    def _finish_if_over(self) -> None:
        match = self._live()
        if match.is_over():
            returns = match.returns()
            for a in self.agents:
                self.rewards[a] = float(returns[a])
                if match.truncated:
                    self.truncations[a] = True
                else:
                    self.terminations[a] = True
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = str(match.current_player())


def env(game: Game | str = "firstblood", **kwargs: Any) -> HendersonAEC:
    """A PettingZoo AEC environment of `game` (see `HendersonAEC` for the keyword options)."""
    return HendersonAEC(game, **kwargs)


raw_env = env

__all__ = ["HendersonAEC", "env", "raw_env"]
