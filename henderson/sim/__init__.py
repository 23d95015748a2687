"""Batch play: seeded games across processes, results files, summaries, tournaments, plots.

`simulate` and `tournament` are the entry points; `henderson.sim.cli.register`
adds the matching commands to the `henderson` command line.
"""

from __future__ import annotations

from henderson.sim.seeds import derive_seed
from henderson.sim.simulate import SimResult, SimulationError, read_results, simulate
from henderson.sim.stats import Rate, Summary, elo_ratings, summarise, wilson
from henderson.sim.tournament import TournamentResult, tournament

__all__ = [
    "Rate",
    "SimResult",
    "SimulationError",
    "Summary",
    "TournamentResult",
    "derive_seed",
    "elo_ratings",
    "read_results",
    "simulate",
    "summarise",
    "tournament",
    "wilson",
]
