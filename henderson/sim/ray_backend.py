"""Simulation past one machine: the games of a run as Ray tasks (`--backend ray`).

Each game is one task that plays `play_game` exactly as a local worker does, seeded from the
run's seed and the game's index alone, so the results are the same, bit for bit, as the
local backend's for the same seeds. Results are handed over in job order.

On a cluster every node needs the same henderson (`pip install 'henderson[ray]'`); a node
whose game data differs is refused (its data version is checked). See docs/research.md.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from henderson import games
from henderson.core.errors import HendersonError
from henderson.core.game import Game
from henderson.sim.runner import Job, RunConfig, RunOutcome, WorkerInterrupted, _init_worker, _progress, _run_job


class RayBackendError(HendersonError):
    """Ray is missing, cannot be reached, or a node cannot play the run's game."""


def _ray() -> Any:
    try:
        import ray
    except ModuleNotFoundError as exc:
        raise RayBackendError(
            f"--backend ray needs {exc.name}: pip install 'henderson[ray]' (make install installs it)"
        ) from None
    return ray


def _play_remote(config: RunConfig, data_version: str, jobs: Sequence[Job]) -> list[dict[str, Any]]:
    """A task: play `jobs` on a Ray worker with the run's game (its data checked first)."""
    _init_worker(config, None, ignore_interrupt=False)
    from henderson.sim import runner

    game = runner._WORKER.get("game") or games.get(config.game, config.data_dir)
    runner._WORKER["game"] = game
    if game.data_version != data_version:
        raise RayBackendError(
            f"a Ray node has other {config.game} data ({game.data_version}; this run: {data_version})"
        )
    return [_run_job(job) for job in jobs]


def connect(address: str | None) -> bool:
    """Join the Ray cluster at `address` ("auto": the one this machine belongs to; None: a
    new local instance), unless this process has already joined one. Returns whether this
    call joined (so the caller leaves again)."""
    ray = _ray()
    if ray.is_initialized():
        return False
    try:
        ray.init(address=address, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        where = address or "a new local instance"
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise RayBackendError(f"cannot start or reach Ray at {where}: {first}") from None
    return True


def run_jobs_ray(
    config: RunConfig,
    jobs: Sequence[Job],
    *,
    address: str | None = None,
    workers: int = 1,
    game: Game | None = None,
    on_result: Callable[[dict[str, Any]], None] | None = None,
    progress: bool = False,
    description: str = "games",
) -> RunOutcome:
    """Play `jobs` as Ray tasks, calling `on_result` for each result in job order.

    `workers` above 1 caps the games in flight; otherwise twice the cluster's CPUs are."""
    ray = _ray()
    start = time.perf_counter()
    joined = connect(address)
    loaded = game if game is not None else games.get(config.game, config.data_dir)
    default = games.get(config.game)
    # nodes read their own copy of the default data; a run on other data names its directory
    remote_config = replace(config, data_dir=None) if loaded.data_dir == default.data_dir else config
    task = ray.remote(num_cpus=1, max_retries=0)(_play_remote)
    if workers > 1:
        window = workers
    else:
        window = max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))
    results: list[dict[str, Any]] = []
    interrupted = False
    pending: dict[Any, int] = {}
    done: dict[int, dict[str, Any]] = {}
    submitted = 0
    try:
        with _progress(progress) as bar:
            progress_task = bar.add_task(description, total=len(jobs))
            while len(results) < len(jobs):
                while submitted < len(jobs) and len(pending) < window:
                    ref = task.remote(remote_config, loaded.data_version, [jobs[submitted]])
                    pending[ref] = submitted
                    submitted += 1
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    index = pending.pop(ref)
                    try:
                        (done[index],) = ray.get(ref)
                    except ray.exceptions.RayTaskError as exc:
                        cause = exc.cause if isinstance(exc.cause, BaseException) else exc
                        if isinstance(cause, (KeyboardInterrupt, WorkerInterrupted)):
                            raise KeyboardInterrupt from None
                        raise RayBackendError(f"game {jobs[index].index} failed on Ray: {cause}") from None
                while len(results) in done:
                    result = done.pop(len(results))
                    results.append(result)
                    if on_result is not None:
                        on_result(result)
                    bar.advance(progress_task)
    except KeyboardInterrupt:
        interrupted = True
        for ref in pending:
            ray.cancel(ref, force=True)
    finally:
        if joined:
            ray.shutdown()
    return RunOutcome(results, interrupted, time.perf_counter() - start)
