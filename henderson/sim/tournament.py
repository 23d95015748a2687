"""`tournament`: every pair of agents from both sides, win rates with 95 % intervals, ratings.

For two-sided games. Each ordered pairing (a on the first side, b on the second)
plays `n` games, so each pair of agents meets 2n times, n from each side. With
`mirror` each agent also plays itself n times: those games measure the balance
between the sides and take no part in the ratings. Game i of every pairing uses
the same game seed (common random numbers), which makes comparisons sharper.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from henderson.core.game import Game
from henderson.sim.play import DEFAULT_MAX_PLIES
from henderson.sim.runner import Job, run_jobs
from henderson.sim.seeds import derive_seed
from henderson.sim.simulate import (
    SimulationError,
    check_agents,
    check_backend,
    open_output,
    read_results,
    resolve_game,
    run_config,
    write_line,
)
from henderson.sim.stats import Rate, elo_ratings


@dataclass
class TournamentResult:
    """All games of a tournament, grouped by pairing (agent on the first side, on the second)."""

    game: str
    sides: tuple[str, str]
    agents: list[str]
    n: int
    seed: int
    games: dict[tuple[str, str], list[dict[str, Any]]]
    interrupted: bool
    elapsed: float

    def points(self, a: str, b: str) -> tuple[float, int]:
        """Points of `a` against `b` over both seatings (win 1, draw 1/2), and games played."""
        points, n = 0.0, 0
        for (first, second), rows in self.games.items():
            if {first, second} != {a, b} or first == second:
                continue
            seat = self.sides[0] if first == a else self.sides[1]
            for r in rows:
                if r.get("returns") is None:
                    continue  # unfinished or broken: no result
                n += 1
                if r.get("winner") == seat:
                    points += 1.0
                elif r.get("winner") is None:
                    points += 0.5
        return points, n

    def score(self, a: str, b: str) -> Rate:
        """How often `a` beats `b` (draws half), with its 95 % Wilson interval."""
        points, n = self.points(a, b)
        return Rate(points, n)

    def seat_score(self, agent: str, side: str) -> Rate:
        """How often `agent` wins when it holds `side` against the other agents."""
        wins, n = 0.0, 0
        for (first, second), rows in self.games.items():
            if first == second:
                continue
            if (side == self.sides[0] and first != agent) or (side == self.sides[1] and second != agent):
                continue
            for r in rows:
                if r.get("returns") is None:
                    continue
                n += 1
                wins += 1.0 if r.get("winner") == side else 0.5 if r.get("winner") is None else 0.0
        return Rate(wins, n)

    def balance(self, agent: str) -> Rate:
        """How often the first side wins when `agent` plays both sides (mirror games)."""
        rows = [r for r in self.games.get((agent, agent), []) if r.get("returns") is not None]
        wins = sum(1.0 if r["winner"] == self.sides[0] else 0.0 for r in rows)
        draws = sum(0.5 for r in rows if r.get("winner") is None)
        return Rate(wins + draws, len(rows))

    def ratings(self, prior_games: float = 1.0) -> dict[str, float]:
        """Elo-style ratings (mean 0) fitted to the games between different agents."""
        scores = {}
        for i, a in enumerate(self.agents):
            for b in self.agents[i + 1 :]:
                scores[(a, b)] = self.points(a, b)
        return elo_ratings(scores, self.agents, prior_games=prior_games)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "agents": self.agents,
            "n": self.n,
            "seed": self.seed,
            "interrupted": self.interrupted,
            "ratings": self.ratings(),
            "scores": {f"{a} v {b}": self.score(a, b).to_json() for a in self.agents for b in self.agents if a != b},
            "balance": {a: self.balance(a).to_json() for a in self.agents if (a, a) in self.games},
        }


def tournament(
    game: Game | str,
    agents: Sequence[str],
    n: int,
    workers: int = 1,
    seed: int = 0,
    *,
    mirror: bool = True,
    out: str | Path | None = None,
    max_plies: int = DEFAULT_MAX_PLIES,
    progress: bool = False,
    resume: bool = False,
    backend: str = "local",
    address: str | None = None,
) -> TournamentResult:
    """Play every ordered pairing of `agents` `n` times (see the module docstring).

    `resume`: the finished games already in `out` that this run would play (same agents,
    index and game seed) are kept instead of played again, so that an interrupted run goes
    on, or a run with a larger `n` and the same seed adds games to a smaller one's."""
    game = resolve_game(game)
    if len(game.sides) != 2:
        raise SimulationError(f"a tournament needs a two-sided game; {game.name} has {len(game.sides)} sides")
    names = list(dict.fromkeys(a.strip() for a in agents if a.strip()))
    if len(names) < 2:
        raise SimulationError("a tournament needs at least two different agents")
    if n < 1:
        raise SimulationError(f"the number of games per pairing must be at least 1, not {n}")
    if workers < 1:
        raise SimulationError(f"workers must be at least 1, not {workers}")
    check_backend(backend, address)
    first, second = game.sides
    check_agents(game, {first: names[0], second: names[0]})
    for name in names:
        check_agents(game, {first: name})
    pairings = [(a, b) for a in names for b in names if a != b or mirror]
    # game by game, every pairing in turn: a run stopped early has as many games of each
    # seating, each index played on the same game seed by both seatings (paired)
    jobs = [Job(i, {first: a, second: b}, seed) for i in range(n) for a, b in pairings]
    kept: list[dict[str, Any]] = []
    if resume:
        if out is None:
            raise SimulationError("--resume needs the results file (-o) of the run to go on with")
        kept = finished_games(Path(out), jobs, (first, second)) if Path(out).exists() else []
        done = {(r["agents"][first], r["agents"][second], r["index"]) for r in kept}
        jobs = [j for j in jobs if (j.specs[first], j.specs[second], j.index) not in done]
    handle = open_output(out)
    if handle is not None:
        for row in kept:
            write_line(handle, row)
    try:
        outcome = run_jobs(
            run_config(game, False, max_plies),
            jobs,
            workers=workers,
            game=game,
            on_result=(lambda r: write_line(handle, r)) if handle else None,
            progress=progress,
            description=f"{game.name} tournament",
            backend=backend,
            address=address,
        )
    finally:
        if handle is not None:
            handle.close()
    grouped: dict[tuple[str, str], list[dict[str, Any]]] = {p: [] for p in pairings}
    for r in [*kept, *outcome.results]:
        grouped[(r["agents"][first], r["agents"][second])].append(r)
    return TournamentResult(
        game=game.name,
        sides=(first, second),
        agents=names,
        n=n,
        seed=seed,
        games=grouped,
        interrupted=outcome.interrupted,
        elapsed=outcome.elapsed,
    )


def finished_games(path: Path, jobs: Sequence[Job], sides: tuple[str, str]) -> list[dict[str, Any]]:
    """The games in results file `path` that finished without error and are among `jobs`
    (same agents by side, index, and the game seed the job's run seed gives)."""
    wanted = {(j.specs[sides[0]], j.specs[sides[1]], j.index): derive_seed(j.seed, j.index) for j in jobs}
    kept: dict[tuple[str, str, int], dict[str, Any]] = {}
    for row in read_results(path):
        try:
            key = (row["agents"][sides[0]], row["agents"][sides[1]], row["index"])
            fits = wanted.get(key) == row["seed"] and row.get("returns") is not None and "error" not in row
        except (KeyError, TypeError):
            raise SimulationError(
                f"{path}: not a results file of this game (a line without agents by side, index or seed)"
            ) from None
        if fits:
            kept[key] = row
    return list(kept.values())
