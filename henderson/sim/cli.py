"""The `simulate` and `tournament` commands, added to the main command by `register(app)`.

Every error caused by input prints one line on stderr and exits with status 2;
Ctrl-C keeps the games already written and exits with status 130.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from henderson import games
from henderson.core.errors import HendersonError
from henderson.sim.play import DEFAULT_MAX_PLIES
from henderson.sim.report import length_table, plot_simulation, summary_table, tournament_tables
from henderson.sim.simulate import SimulationError, simulate
from henderson.sim.tournament import tournament

EXTRA_ARGS = {"allow_extra_args": True, "ignore_unknown_options": True}


def parse_side_args(args: Sequence[str], sides: Sequence[str]) -> dict[str, str]:
    """Agents by side from `--SIDE AGENT` or `--SIDE=AGENT` pairs (the game's own side names)."""
    chosen: dict[str, str] = {}
    items = list(args)
    i = 0
    while i < len(items):
        token = items[i]
        if not token.startswith("--") or len(token) <= 2:
            raise SimulationError(f"unexpected argument {token!r} (expected --SIDE AGENT)")
        name, eq, value = token[2:].partition("=")
        if not eq:
            if i + 1 >= len(items) or items[i + 1].startswith("--"):
                raise SimulationError(f"--{name} needs an agent name")
            value = items[i + 1]
            i += 1
        if name not in sides:
            raise SimulationError(f"unknown option or side --{name} (sides: {', '.join('--' + s for s in sides)})")
        chosen[name] = value
        i += 1
    return chosen


def register(app: typer.Typer) -> None:
    """Add the `simulate` and `tournament` commands to `app`."""
    out = Console(highlight=False)
    err = Console(stderr=True, highlight=False)

    def fail(exc: HendersonError) -> typer.Exit:
        for line in str(exc).splitlines() or ["error"]:
            err.print(f"henderson: {line}", markup=False, soft_wrap=True)
        return typer.Exit(2)

    @app.command("simulate", context_settings=EXTRA_ARGS)
    def simulate_command(
        ctx: typer.Context,
        game: Annotated[str, typer.Argument(help="the game, e.g. firstblood")],
        n: Annotated[int, typer.Option("-n", "--games", help="number of games")] = 100,
        workers: Annotated[int, typer.Option("--workers", "-w", help="worker processes")] = 1,
        seed: Annotated[int, typer.Option("--seed", help="seed of the whole run")] = 0,
        output: Annotated[Path | None, typer.Option("-o", "--output", help="results file (JSON Lines)")] = None,
        plot: Annotated[Path | None, typer.Option("--plot", help="save a plot (PNG, SVG, PDF)")] = None,
        records: Annotated[bool, typer.Option("--records", help="keep each game's record")] = False,
        max_plies: Annotated[int, typer.Option("--max-plies", help="stop a game after")] = (DEFAULT_MAX_PLIES),
        progress: Annotated[bool, typer.Option("--progress/--no-progress")] = True,
        backend: Annotated[str, typer.Option("--backend", help="where games run: local or ray")] = "local",
        address: Annotated[
            str | None, typer.Option("--address", help="Ray cluster: auto or HOST:PORT (default: a new local one)")
        ] = None,
    ) -> None:
        """Play N seeded games: --SIDE AGENT for each side (e.g. --us hard --jp random)."""
        try:
            loaded = games.get(game)
            chosen = parse_side_args(ctx.args, loaded.sides)
            result = simulate(
                loaded,
                n,
                chosen,
                workers=workers,
                seed=seed,
                out=output,
                keep_records=records,
                max_plies=max_plies,
                progress=progress,
                backend=backend,
                address=address,
            )
            out.print(summary_table(result))
            out.print(length_table(result.summary(), result.games_per_second))
            if plot is not None and result.results:
                out.print(f"plot: {plot_simulation(result, plot)}")
        except HendersonError as exc:
            raise fail(exc) from None
        if output is not None:
            out.print(f"results: {output} ({len(result.results)} games)")
        if result.interrupted:
            err.print(f"henderson: interrupted after {len(result.results)} of {n} games")
            raise typer.Exit(130)

    @app.command("tournament")
    def tournament_command(
        game: Annotated[str, typer.Argument(help="the game, e.g. firstblood")],
        agent_list: Annotated[str, typer.Option("--agents", help="comma-separated agents, e.g. random,heuristic,mcts")],
        n: Annotated[int, typer.Option("-n", "--games", help="games per pairing and side")] = 20,
        workers: Annotated[int, typer.Option("--workers", "-w", help="worker processes")] = 1,
        seed: Annotated[int, typer.Option("--seed", help="seed of the whole run")] = 0,
        output: Annotated[Path | None, typer.Option("-o", "--output", help="every game (JSON Lines)")] = None,
        mirror: Annotated[
            bool, typer.Option("--mirror/--no-mirror", help="also play each agent against itself")
        ] = True,
        max_plies: Annotated[int, typer.Option("--max-plies", help="stop a game after")] = (DEFAULT_MAX_PLIES),
        progress: Annotated[bool, typer.Option("--progress/--no-progress")] = True,
        resume: Annotated[
            bool, typer.Option("--resume", help="keep the finished games already in -o; play the rest")
        ] = False,
        backend: Annotated[str, typer.Option("--backend", help="where games run: local or ray")] = "local",
        address: Annotated[
            str | None, typer.Option("--address", help="Ray cluster: auto or HOST:PORT (default: a new local one)")
        ] = None,
    ) -> None:
        """Every pair of agents from both sides: win rates with 95% intervals and ratings."""
        try:
            result = tournament(
                game,
                agent_list.split(","),
                n,
                workers=workers,
                seed=seed,
                mirror=mirror,
                out=output,
                max_plies=max_plies,
                progress=progress,
                resume=resume,
                backend=backend,
                address=address,
            )
            for table in tournament_tables(result):
                out.print(table)
        except HendersonError as exc:
            raise fail(exc) from None
        played = sum(len(rows) for rows in result.games.values())
        out.print(f"{played} games in {result.elapsed:.1f} s")
        if result.interrupted:
            err.print(f"henderson: interrupted after {played} games")
            raise typer.Exit(130)
