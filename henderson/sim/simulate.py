"""`simulate`: many seeded games between given agents, one JSON line per game, and a summary."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from henderson import agents, games
from henderson.core.errors import HendersonError
from henderson.core.game import Game
from henderson.sim.play import DEFAULT_MAX_PLIES
from henderson.sim.runner import Job, RunConfig, run_jobs
from henderson.sim.stats import Summary, summarise


class SimulationError(HendersonError):
    """Bad simulation input: a side, an agent, a count or an output file."""


@dataclass
class SimResult:
    """The games a simulation played (in index order) and how the run ended."""

    game: str
    sides: tuple[str, ...]
    agents: dict[str, str]
    seed: int
    requested: int
    results: list[dict[str, Any]]
    interrupted: bool
    elapsed: float

    def summary(self) -> Summary:
        return summarise(self.results, self.sides)

    @property
    def games_per_second(self) -> float:
        return len(self.results) / self.elapsed if self.elapsed > 0 else 0.0


def resolve_game(game: Game | str) -> Game:
    """A game object from a game or its name."""
    return games.get(game) if isinstance(game, str) else game


def check_agents(game: Game, agents_by_side: Mapping[str, str]) -> dict[str, str]:
    """The agent for each of the game's sides ("random" where none is given), all known."""
    unknown = [s for s in agents_by_side if s not in game.sides]
    if unknown:
        raise SimulationError(f"{game.name} has no side {unknown[0]!r} (sides: {', '.join(game.sides)})")
    specs = {side: str(agents_by_side.get(side, "random")) for side in game.sides}
    for spec in set(specs.values()):
        agents.get(spec, 0)  # fails now, with one line, on an unknown agent or option
    return specs


BACKENDS = ("local", "ray")


def check_backend(backend: str, address: str | None) -> None:
    """A known backend; an address only for Ray."""
    if backend not in BACKENDS:
        raise SimulationError(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
    if address is not None and backend != "ray":
        raise SimulationError("--address is for --backend ray")


def open_output(out: str | Path | None) -> IO[str] | None:
    """The results file opened for writing, or None."""
    if out is None:
        return None
    path = Path(out)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return path.open("w", encoding="utf-8")
    except OSError as exc:
        raise SimulationError(f"{path}: cannot write ({exc.strerror})") from None


def run_config(game: Game, keep_records: bool, max_plies: int) -> RunConfig:
    """The shared settings of a run, including how workers find the game by name."""
    registry = {game.name: games.REGISTRY[game.name]} if game.name in games.REGISTRY else {}
    data_dir = getattr(game, "data_dir", None)
    return RunConfig(
        game=game.name,
        data_dir=str(data_dir) if data_dir else None,
        keep_records=keep_records,
        max_plies=max_plies,
        registry=registry,
    )


def simulate(
    game: Game | str,
    n: int,
    agents_by_side: Mapping[str, str],
    workers: int = 1,
    seed: int = 0,
    out: str | Path | None = None,
    keep_records: bool = False,
    *,
    max_plies: int = DEFAULT_MAX_PLIES,
    progress: bool = False,
    backend: str = "local",
    address: str | None = None,
) -> SimResult:
    """Play `n` seeded games of `game` (a game or its name) between the given agents.

    Game i is seeded from (seed, i) alone, so results do not depend on `workers`.
    With `out`, one JSON line per game is written (and flushed) as soon as it is
    known, in index order: index, seed, agents, winner, returns, plies, turns
    (and turn name), cause, error (if any) and, with `keep_records`, the record
    (kept in the returned results too when there is no file, else only in the file).
    Ctrl-C stops the run; the games already written are kept and the result says
    `interrupted`. `backend` "ray" plays the games on a Ray cluster (`address`: "auto",
    HOST:PORT, or None for a new local instance) with the same results.
    """
    game = resolve_game(game)
    if n < 0:
        raise SimulationError(f"the number of games must be at least 0, not {n}")
    if workers < 1:
        raise SimulationError(f"workers must be at least 1, not {workers}")
    check_backend(backend, address)
    specs = check_agents(game, agents_by_side)
    jobs = [Job(i, specs, seed) for i in range(n)]
    handle = open_output(out)
    try:
        outcome = run_jobs(
            run_config(game, keep_records, max_plies),
            jobs,
            workers=workers,
            game=game,
            on_result=(lambda r: write_and_slim(handle, r)) if handle else None,
            progress=progress,
            description=f"{game.name} " + " v ".join(specs.values()),
            backend=backend,
            address=address,
        )
    finally:
        if handle is not None:
            handle.close()
    return SimResult(
        game=game.name,
        sides=tuple(game.sides),
        agents=specs,
        seed=seed,
        requested=n,
        results=outcome.results,
        interrupted=outcome.interrupted,
        elapsed=outcome.elapsed,
    )


def write_and_slim(handle: IO[str], result: dict[str, Any]) -> None:
    """Write a result line, then drop its record from memory: records live in the file."""
    write_line(handle, result)
    result.pop("record", None)


def write_line(handle: IO[str], result: Mapping[str, Any]) -> None:
    """One result as one JSON line, flushed so that an interrupted run keeps it."""
    handle.write(json.dumps(result, separators=(",", ":")) + "\n")
    handle.flush()


def read_results(path: str | Path) -> list[dict[str, Any]]:
    """The result lines of a results file."""
    path = Path(path)
    rows: list[dict[str, Any]] = []
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SimulationError(f"{path}: cannot read ({exc.strerror})") from None
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise SimulationError(f"{path}: line {number}: not JSON ({exc.msg})") from None
    return rows
