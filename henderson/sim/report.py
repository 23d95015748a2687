"""Reports of simulations and tournaments: Rich tables for the terminal and a matplotlib plot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.table import Table

from henderson.core.errors import HendersonError
from henderson.core.game import needs_extra
from henderson.sim.simulate import SimResult
from henderson.sim.stats import Summary
from henderson.sim.tournament import TournamentResult


def summary_table(result: SimResult) -> Table:
    """Win rate per side with its 95 % interval, mean length and causes of victory."""
    summary = result.summary()
    title = f"{result.game}: {len(result.results)} games" + (
        f" of {result.requested} (interrupted)" if result.interrupted else ""
    )
    table = Table(title=title)
    table.add_column("side")
    table.add_column("agent")
    table.add_column("wins", justify="right")
    table.add_column("win rate (95% CI)", justify="right")
    for side in summary.sides:
        table.add_row(side, result.agents[side], str(summary.wins[side]), summary.rate(side).text())
    if summary.draws:
        table.add_row("draws", "", str(summary.draws), "")
    if summary.unfinished:
        table.add_row("unfinished", "", str(summary.unfinished), f"{summary.errors} errors")
    return table


def length_table(summary: Summary, games_per_second: float) -> Table:
    """Mean game length and how games ended."""
    table = Table(title="length and causes")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("mean plies", f"{summary.mean_plies:.1f}")
    if summary.mean_turns is not None:
        table.add_row("mean turns", f"{summary.mean_turns:.2f}")
    table.add_row("games/s", f"{games_per_second:.1f}")
    for cause, count in summary.causes.items():
        share = 100 * count / summary.games if summary.games else 0.0
        table.add_row(f"cause: {cause}", f"{count} ({share:.1f}%)")
    return table


def tournament_tables(result: TournamentResult) -> list[Table]:
    """The cross table (row agent's score against column agent), ratings and side balance."""
    cross = Table(title=f"{result.game}: score of row against column, both sides (95% CI)")
    cross.add_column("agent")
    for b in result.agents:
        cross.add_column(b, justify="right")
    for a in result.agents:
        cells = []
        for b in result.agents:
            cells.append("—" if a == b else result.score(a, b).text())
        cross.add_row(a, *cells)
    ratings = result.ratings()
    first, second = result.sides
    rated = Table(title="Elo-style ratings (maximum likelihood, mean 0)")
    for column in ("agent", "rating", f"as {first}", f"as {second}"):
        rated.add_column(column, justify="left" if column == "agent" else "right")
    for a in sorted(result.agents, key=lambda x: -ratings[x]):
        rated.add_row(
            a,
            f"{ratings[a]:+.0f}",
            result.seat_score(a, first).text(),
            result.seat_score(a, second).text(),
        )
    tables = [cross, rated]
    mirrors = [a for a in result.agents if (a, a) in result.games]
    if mirrors:
        balance = Table(title=f"side balance between equal agents: {first} wins (95% CI)")
        balance.add_column("agent on both sides")
        balance.add_column("games", justify="right")
        balance.add_column(f"{first} wins", justify="right")
        for a in mirrors:
            rate = result.balance(a)
            balance.add_row(a, str(rate.n), rate.text())
        tables.append(balance)
    return tables


def plot_simulation(result: SimResult, path: str | Path) -> Path:
    """Save a figure: win rate per side with 95 % intervals, and the distribution of lengths."""
    try:
        from matplotlib.figure import Figure
    except ModuleNotFoundError as exc:
        raise needs_extra(exc, "plot", "a plot") from None

    summary = result.summary()
    figure = Figure(figsize=(10, 4.2), layout="constrained")
    left, right = figure.subplots(1, 2, width_ratios=(1, 2))
    sides = list(summary.sides)
    rates = [summary.rate(s) for s in sides]
    heights = [r.p for r in rates]
    errors = [
        [r.p - r.interval[0] for r in rates],
        [r.interval[1] - r.p for r in rates],
    ]
    labels = [f"{s}\n{result.agents[s]}" for s in sides]
    colours = ["#4472c4", "#c0504d", "#9bbb59"][: len(sides)]
    left.bar(labels, heights, yerr=errors, capsize=6, color=colours)
    left.set_ylim(0, 1)
    left.axhline(1 / len(sides), color="grey", linewidth=0.8, linestyle="--")
    left.set_ylabel("win rate (95% Wilson interval)")
    left.set_title(f"{len(result.results)} games")
    use_turns = summary.mean_turns is not None
    unit = "turns" if use_turns else "plies"
    series = []
    names = []
    for s in [*sides, None]:
        lengths = [x for r in result.results if r.get("winner") == s and isinstance(x := r.get(unit), int)]
        if lengths:
            series.append(lengths)
            names.append(f"{s} wins" if s else "no winner")
    if series:
        low = min(min(xs) for xs in series)
        high = max(max(xs) for xs in series)
        # whole-number lengths: one bar per length when they fit, else 40 bars
        bins: Any = [x - 0.5 for x in range(low, high + 2)] if high - low <= 60 else 40
        right.hist(series, bins=bins, stacked=True, label=names)
        right.legend()
    right.set_xlabel(f"game length ({unit})")
    right.set_ylabel("games")
    right.set_title(f"{result.game}: " + " v ".join(result.agents[s] for s in sides))
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        figure.savefig(target, dpi=110)
    except (OSError, ValueError) as exc:
        raise HendersonError(f"{target}: cannot save the plot ({exc})") from None
    return target
