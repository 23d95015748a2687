"""The statistics of simulation reports: Wilson intervals, summaries, Elo-style ratings."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Z95 = 1.959963984540054  # two-sided 95 % normal quantile


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95 % by default); (0, 1) when n is 0.

    `successes` may be fractional (a draw counted as half a win).
    """
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    low = 0.0 if successes <= 0 else max(0.0, centre - half)  # exact at the ends
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return (low, high)


@dataclass
class Rate:
    """A proportion with its 95 % Wilson interval."""

    successes: float
    n: int

    @property
    def p(self) -> float:
        return self.successes / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.successes, self.n)

    def text(self) -> str:
        lo, hi = self.interval
        return f"{100 * self.p:.1f}% ({100 * lo:.1f}–{100 * hi:.1f})"

    def to_json(self) -> dict[str, float]:
        lo, hi = self.interval
        return {"rate": self.p, "low": lo, "high": hi, "successes": self.successes, "games": self.n}


@dataclass
class Summary:
    """What a batch of games says: who won how often, how long games lasted, how they ended."""

    sides: tuple[str, ...]
    games: int
    wins: dict[str, int]
    draws: int  # finished without a winner
    unfinished: int  # stopped by the ply limit or an error
    errors: int
    mean_plies: float
    mean_turns: float | None
    causes: dict[str, int] = field(default_factory=dict)

    def rate(self, side: str) -> Rate:
        return Rate(self.wins.get(side, 0), self.games)

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "wins": dict(self.wins),
            "win_rate": {s: self.rate(s).to_json() for s in self.sides},
            "draws": self.draws,
            "unfinished": self.unfinished,
            "errors": self.errors,
            "mean_plies": self.mean_plies,
            "mean_turns": self.mean_turns,
            "causes": dict(self.causes),
        }


def summarise(results: Iterable[Mapping[str, Any]], sides: Sequence[str]) -> Summary:
    """A `Summary` of result lines (as written by `simulate`)."""
    rows = list(results)
    wins = {s: 0 for s in sides}
    draws = unfinished = errors = 0
    causes: Counter[str] = Counter()
    turns = [r["turns"] for r in rows if isinstance(r.get("turns"), int)]
    for r in rows:
        winner = r.get("winner")
        if "error" in r:
            errors += 1
        if winner in wins:
            wins[winner] += 1
        elif r.get("returns") is not None:
            draws += 1
        else:
            unfinished += 1
        causes[str(r.get("cause") or ("error" if "error" in r else "not given"))] += 1
    n = len(rows)
    return Summary(
        sides=tuple(sides),
        games=n,
        wins=wins,
        draws=draws,
        unfinished=unfinished,
        errors=errors,
        mean_plies=sum(r.get("plies", 0) for r in rows) / n if n else 0.0,
        mean_turns=sum(turns) / len(turns) if turns else None,
        causes=dict(causes.most_common()),
    )


def elo_ratings(
    scores: Mapping[tuple[str, str], tuple[float, int]],
    players: Sequence[str],
    *,
    prior_games: float = 1.0,
    iterations: int = 10_000,
    tolerance: float = 1e-10,
) -> dict[str, float]:
    """Elo-style ratings fitted by maximum likelihood to a Bradley–Terry model.

    `scores[(a, b)] = (points of a against b, games)`, a draw being half a point.
    The model says a beats b with probability 1 / (1 + 10 ** ((R_b - R_a) / 400)).
    The fit is Hunter's MM iteration, gamma_i <- W_i / sum_j n_ij / (gamma_i + gamma_j),
    run to convergence. `prior_games` adds that many drawn games to every pair
    that met (a light prior, so an unbeaten agent gets a finite rating); ratings
    are shifted so their mean is 0.
    """
    index = {p: i for i, p in enumerate(players)}
    k = len(players)
    wins = [[0.0] * k for _ in range(k)]
    games = [[0.0] * k for _ in range(k)]
    for (a, b), (points, n) in scores.items():
        if a == b or n <= 0:
            continue
        i, j = index[a], index[b]
        wins[i][j] += points
        wins[j][i] += n - points
        games[i][j] += n
        games[j][i] += n
    for i in range(k):
        for j in range(k):
            if i != j and games[i][j] > 0 and prior_games > 0:
                wins[i][j] += prior_games / 2  # half of each virtual game's point to each
                games[i][j] += prior_games
    gamma = [1.0] * k
    total = [sum(row) for row in wins]
    for _ in range(iterations):
        new = []
        for i in range(k):
            denom = sum(games[i][j] / (gamma[i] + gamma[j]) for j in range(k) if j != i)
            if denom <= 0:
                new.append(gamma[i])  # met nobody: stays where it is
            else:
                new.append(max(total[i], 1e-12) / denom)  # never won: as low as it can go
        mean_log = sum(math.log(g) for g in new) / k
        new = [g / math.exp(mean_log) for g in new]
        change = max(abs(math.log(a) - math.log(b)) for a, b in zip(new, gamma, strict=True))
        gamma = new
        if change < tolerance:
            break
    ratings = [400.0 * math.log10(g) for g in gamma]
    mean = sum(ratings) / k if k else 0.0
    return {p: ratings[index[p]] - mean for p in players}
