"""Run many seeded games, in this process or across worker processes, with a progress bar.

Results come back in job order whatever the number of workers, so a results file
is the same byte for byte. Ctrl-C stops the run and keeps every result already
handed over (workers ignore the interrupt; the parent stops them).
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from henderson import games
from henderson.core.game import Game
from henderson.sim.play import DEFAULT_MAX_PLIES, play_game


@dataclass(frozen=True)
class Job:
    """One game to play: its index in the run, the agents by side, the run's seed."""

    index: int
    specs: Mapping[str, str]
    seed: int


@dataclass(frozen=True)
class RunConfig:
    """What every job of a run shares."""

    game: str
    data_dir: str | None = None
    keep_records: bool = False
    max_plies: int = DEFAULT_MAX_PLIES
    registry: Mapping[str, str] = field(default_factory=dict)


@dataclass
class RunOutcome:
    """How a run ended: results handed over (in job order) and whether Ctrl-C stopped it."""

    results: list[dict[str, Any]]
    interrupted: bool
    elapsed: float


_WORKER: dict[str, Any] = {}


class WorkerInterrupted(Exception):
    """A KeyboardInterrupt raised inside a worker, carried to the parent (a pool would hang)."""


def _init_worker(config: RunConfig, game: Game | None, ignore_interrupt: bool) -> None:
    if ignore_interrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    for name, module in config.registry.items():
        games.REGISTRY.setdefault(name, module)
    _WORKER["config"] = config
    _WORKER["game"] = game


def _run_job(job: Job) -> dict[str, Any]:
    config: RunConfig = _WORKER["config"]
    game = _WORKER.get("game")
    if game is None:
        game = _WORKER["game"] = games.get(config.game, config.data_dir)
    try:
        return play_game(
            game,
            job.specs,
            job.seed,
            job.index,
            keep_records=config.keep_records,
            max_plies=config.max_plies,
        )
    except KeyboardInterrupt:
        raise WorkerInterrupted(f"game {job.index} interrupted") from None


class RateColumn(ProgressColumn):
    """Games per second, as the progress bar measures it."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        text = "– games/s" if speed is None else f"{speed:.1f} games/s"
        return Text(text, style="progress.data.speed")


def _progress(enabled: bool) -> Progress:
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=not enabled,
        transient=False,
    )


def run_jobs(
    config: RunConfig,
    jobs: Sequence[Job],
    *,
    workers: int = 1,
    game: Game | None = None,
    on_result: Callable[[dict[str, Any]], None] | None = None,
    progress: bool = False,
    description: str = "games",
    backend: str = "local",
    address: str | None = None,
) -> RunOutcome:
    """Play `jobs`, calling `on_result` for each result in job order as soon as it is known.

    `game` (optional) is the loaded game object; worker processes started by
    fork share it, others load `config.game` by name. `backend` "ray" plays the games as
    Ray tasks (`ray_backend`, on the cluster at `address`) with the same results.
    """
    import time

    if backend == "ray":
        from henderson.sim.ray_backend import run_jobs_ray

        return run_jobs_ray(
            config,
            jobs,
            address=address,
            workers=workers,
            game=game,
            on_result=on_result,
            progress=progress,
            description=description,
        )
    if backend != "local":
        raise ValueError(f"unknown backend {backend!r} (local, ray)")

    results: list[dict[str, Any]] = []
    interrupted = False
    start = time.perf_counter()

    def deliver(result: dict[str, Any]) -> None:
        results.append(result)
        if on_result is not None:
            on_result(result)

    pool = None
    if workers > 1 and len(jobs) > 1:
        # started before the progress bar's refresh thread, so no thread is forked
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        shared = game if context.get_start_method() == "fork" else None
        pool = context.Pool(min(workers, len(jobs)), _init_worker, (config, shared, True))
    with _progress(progress) as bar:
        task = bar.add_task(description, total=len(jobs))
        if pool is None:
            _init_worker(config, game, ignore_interrupt=False)
            try:
                for job in jobs:
                    deliver(_run_job(job))
                    bar.advance(task)
            except (KeyboardInterrupt, WorkerInterrupted):
                interrupted = True
            finally:
                _WORKER.clear()
        else:
            try:
                for result in pool.imap(_run_job, jobs, chunksize=1):
                    deliver(result)
                    bar.advance(task)
                pool.close()
            except (KeyboardInterrupt, WorkerInterrupted):
                interrupted = True
                pool.terminate()
            except BaseException:
                pool.terminate()
                raise
            finally:
                pool.join()
    return RunOutcome(results, interrupted, time.perf_counter() - start)
