"""Engine benchmarks: printed numbers, medians over repeats, with python-chess as the yardstick.

    python bench/engine.py [GAME ...] [--repeats R] [--positions DIR] [--mcts-iterations N] [--clock cpu]

For each game (default: firstblood when it is available, else the toy test game):
- random playouts on one core: decisions per second and complete games per second;
- `legal_actions()` latency and the number of legal actions at three fixed
  positions: the opening, the most crowded position of a seeded random game
  (the ply with the most legal actions) and a late one (80 % of that game), or
  the positions saved as JSON in `DIR/<game>/*.json` (sorted by name);
- `clone()` cost at the crowded position;
- MCTS iterations per second and the time `hard` takes to choose a move there.
In the same run, python-chess random self-play (legal moves + push) per ply and
`Board.copy(stack=False)` give the baseline (the decision ratio is the median
of paired repeats, a chess run then a game run, so load on a shared machine
slows both sides of each ratio alike), and the ratios the targets are stated
in (`TARGETS`): an FB or AAG decision <= 1.0x a chess ply (DG <= 3x), a clone <= 3x a
chess copy, >= 20 random games per second per core (DG >= 5), `legal_actions()` rebuilt at
the crowded position within 150 µs (AAG 50 µs), `hard` answers within 2 s.
Nothing here is asserted by the tests: timings depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the toy game lives in tests/support

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from henderson import agents, games  # noqa: E402
from henderson.agents.evaluation import find_evaluator  # noqa: E402
from henderson.agents.mcts import MCTSAgent  # noqa: E402


@dataclass(frozen=True)
class Targets:
    """What a game's engine should reach, as ratios to python-chess in the same run (the
    engine-speed targets: FB and AAG as fast as a chess ply, DG within three)."""

    decision_ratio: float = 1.0  # one decision (legal_actions + apply) / a chess ply
    clone_ratio: float = 3.0  # clone() / Board.copy(stack=False)
    games_per_second: float = 20.0  # complete random games on one core
    hard_seconds: float = 2.0  # the `hard` agent's answer at the crowded position
    crowded_legal_seconds: float | None = 150e-6  # legal_actions() rebuilt at the crowded position


TARGETS = {
    "deluxe": Targets(decision_ratio=3.0, games_per_second=5.0),
    "aag": Targets(crowded_legal_seconds=50e-6),
}


# what the timings read: wall time, or with --clock cpu this process's CPU time (steadier
# on a machine other work shares; the MCTS rate is the agent's own wall-time figure)
CLOCK: list[Callable[[], float]] = [time.perf_counter]

console = Console(highlight=False, width=110)


def median_rate(run: Callable[[], int], repeats: int, min_seconds: float = 0.2) -> float:
    """Median over repeats of (units done / seconds); each repeat runs for at least min_seconds."""
    rates = []
    for _ in range(repeats):
        units = 0
        start = CLOCK[0]()
        elapsed = 0.0
        while elapsed < min_seconds:
            units += run()
            elapsed = CLOCK[0]() - start
        rates.append(units / elapsed)
    return statistics.median(rates)


def median_seconds(run: Callable[[], Any], repeats: int, min_seconds: float = 0.1) -> float:
    """Median over repeats of the seconds one call of `run` takes (batched to min_seconds)."""
    return 1.0 / median_rate(lambda: (run(), 1)[1], repeats, min_seconds)


# ---- the game under test ---------------------------------------------------------------


def load(name: str) -> Any:
    if name == "toy":
        from tests.agents.toy_eval import install

        install()
    return games.get(name)


def random_game(game: Any, seed: int, keep: bool = False) -> tuple[int, list[tuple[Any, Any]]]:
    """Play one random game; the number of decisions and, when `keep`, each (state, action)."""
    rng = random.Random(seed)
    state = game.new_state(seed)
    kept = []
    decisions = 0
    while not state.is_terminal():
        actions = state.legal_actions()
        action = actions[rng.randrange(len(actions))]
        if keep:
            kept.append((state.clone(), action))
        state.apply(action)
        decisions += 1
    return decisions, kept


@dataclass
class Position:
    """A named position, and a way to build it afresh (with nothing cached in it)."""

    label: str
    state: Any
    fresh: Callable[[], Any]


# where a game's "crowded" position is taken from: a turn-name prefix (FB: an October turn)
CROWDED_TURN = {"firstblood": "OCT"}


def positions(game: Any, saved: Path | None) -> list[Position]:
    """Three named positions: saved ones (DIR/<game>/*.json), or from a seeded random game.

    From a random game: the opening; the crowded position (most legal actions, in a
    turn named with the game's CROWDED_TURN prefix when it has one, else in the
    middle third of the game); the late position (most legal actions in the last
    fifth of the game).
    """
    folder = saved / game.name if saved else None
    if folder is not None and folder.is_dir():
        found = []
        for f in sorted(folder.glob("*.json")):
            obj = json.loads(f.read_text(encoding="utf-8"))
            found.append(Position(f.stem, game.load_state(obj), lambda o=obj: game.load_state(o)))
        return found
    _, steps = random_game(game, 0, keep=True)
    n = len(steps)

    def after(i: int) -> Any:  # the position at ply i + 1, rebuilt by playing its action
        state, action = steps[i]
        copy = state.clone()
        copy.apply(action)
        return copy

    def most_crowded(indexes: list[int]) -> int:
        return max(indexes, key=lambda i: len(after(i).legal_actions()))

    prefix = CROWDED_TURN.get(game.name)
    chosen = [i for i in range(n - 1) if prefix and turn_name(after(i)).startswith(prefix)]
    crowded = most_crowded(chosen or list(range(n // 3, max(n // 3 + 1, 2 * n // 3))))
    late = most_crowded(list(range(min(n - 2, 4 * n // 5), n - 1)))
    opening = Position("opening", game.new_state(0), lambda: game.new_state(0))
    return [
        opening,
        Position("crowded", after(crowded), lambda: after(crowded)),
        Position("late", after(late), lambda: after(late)),
    ]


def turn_name(state: Any) -> str:
    for attr in ("turn_name", "turn"):
        found = getattr(state, attr, None)
        if isinstance(found, str):
            return found
    return ""


def legal_seconds(position: Position, repeats: int, calls: int = 100) -> float:
    """Median seconds of `legal_actions()` on a freshly built position.

    Engines may compute the legal actions while applying an action; a state's
    `changed()` method, when it has one, is called first so the list is built anew.
    """
    times = []
    for _ in range(repeats):
        fresh = [position.fresh() for _ in range(calls)]
        for s in fresh:
            forget = getattr(s, "changed", None)  # an engine's cache-invalidation hook, if any
            if callable(forget):
                forget()
        start = CLOCK[0]()
        for s in fresh:
            s.legal_actions()
        times.append((CLOCK[0]() - start) / calls)
    return statistics.median(times)


def describe(position: Position) -> str:
    name = turn_name(position.state)
    phase = getattr(position.state, "phase", None)
    where = " ".join(str(x) for x in (name, phase if isinstance(phase, str) else "") if x)
    return f"{position.label} (ply {position.state.ply}{', ' + where if where else ''})"


# ---- python-chess baseline -------------------------------------------------------------

CHESS_PLIES: list[Callable[[], int]] = []  # the chess self-play runner, for paired measures


def chess_baseline(repeats: int) -> dict[str, float]:
    import chess

    rng = random.Random(0)
    board = chess.Board()

    def plies() -> int:
        nonlocal board
        done = 0
        for _ in range(100):
            moves = list(board.legal_moves)
            if not moves or board.ply() >= 200:
                board = chess.Board()
                continue
            board.push(moves[rng.randrange(len(moves))])
            done += 1
        return done

    CHESS_PLIES.append(plies)
    per_ply = 1.0 / median_rate(plies, repeats)
    mid = chess.Board()
    while mid.ply() < 40:  # a middle-game board (a random game may end early: start again)
        moves = list(mid.legal_moves)
        if not moves:
            mid = chess.Board()
            continue
        mid.push(moves[rng.randrange(len(moves))])
    copy = median_seconds(lambda: mid.copy(stack=False), repeats)
    return {"ply": per_ply, "copy": copy}


# ---- one game --------------------------------------------------------------------------


def bench_game(name: str, args: argparse.Namespace, chess_times: dict[str, float]) -> None:
    game = load(name)
    target = TARGETS.get(name, Targets())
    repeats = args.repeats
    seeds = iter(range(1, 10**9))
    counts: list[int] = []

    def one_game() -> int:
        decisions, _ = random_game(game, next(seeds))
        counts.append(decisions)
        return 1

    # paired repeats: a chess run, then an FB run, so a busy machine slows both alike
    game_rates, ratios = [], []
    for _ in range(repeats):
        ply_seconds = 1.0 / median_rate(CHESS_PLIES[0], 1, 0.3)
        start = len(counts)
        rate = median_rate(one_game, 1, 0.5)
        game_rates.append(rate)
        ratios.append(1.0 / (rate * statistics.mean(counts[start:])) / ply_seconds)
    games_per_second = statistics.median(game_rates)
    decision_seconds = 1.0 / (games_per_second * statistics.mean(counts))

    table = Table(title=f"{name}: {game.title} (medians of {repeats} repeats)")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_column("vs python-chess / target", justify="right")
    ratio = statistics.median(ratios)  # of the paired repeats
    table.add_row(
        "random games/s (one core)",
        f"{games_per_second:.1f}",
        mark(games_per_second >= target.games_per_second, f">= {target.games_per_second:g}"),
    )
    table.add_row("decisions per random game (mean)", f"{statistics.mean(counts):.0f}", "")
    table.add_row("random decisions/s", f"{1 / decision_seconds:,.0f}", "")
    table.add_row(
        "one decision (legal_actions + apply)",
        us(decision_seconds),
        mark(ratio <= target.decision_ratio, f"{ratio:.2f}x chess ply"),
    )

    named = positions(game, args.positions)
    where = named[1] if len(named) > 1 else named[0]
    for position in named:
        seconds = legal_seconds(position, repeats)
        count = f"{len(position.state.legal_actions())} actions"
        limit = target.crowded_legal_seconds
        if position is where and limit is not None:
            count = mark(seconds <= limit, f"{count}, <= {us(limit)}")
        table.add_row(f"legal_actions() at {describe(position)}", us(seconds), count)
    crowded, crowded_label = where.state, where.label
    clone_seconds = median_seconds(crowded.clone, repeats)
    clone_ratio = clone_seconds / chess_times["copy"]
    table.add_row(
        f"clone() at {crowded_label}",
        us(clone_seconds),
        mark(clone_ratio <= target.clone_ratio, f"{clone_ratio:.2f}x chess copy"),
    )

    evaluate = find_evaluator(game)
    table.add_row(
        "evaluation used by the agents",
        f"{evaluate.__module__}.{evaluate.__name__}" if evaluate else "none (random playouts)",
        "",
    )
    search = MCTSAgent(1, iterations=args.mcts_iterations, work=args.mcts_work, reuse=False)
    rates = []
    for _ in range(max(1, repeats // 2)):
        search.choose(crowded)
        rates.append(search.last_iterations / search.last_seconds)
    table.add_row(f"mcts iterations/s at {crowded_label}", f"{statistics.median(rates):,.0f}", "")
    hard_times = []
    for r in range(max(1, repeats // 2)):
        agent = agents.get("hard", r)
        start = CLOCK[0]()
        agent.choose(crowded)
        hard_times.append(CLOCK[0]() - start)
    hard = statistics.median(hard_times)
    table.add_row(
        f"hard chooses a move at {crowded_label}",
        f"{hard:.3f} s",
        mark(hard <= target.hard_seconds, f"<= {target.hard_seconds:g} s"),
    )
    console.print(table)


def us(seconds: float) -> str:
    return f"{seconds * 1e6:,.2f} µs"


def mark(ok: bool, text: str) -> str:
    return f"{text} {'ok' if ok else 'MISSED'}"


def playable(name: str) -> bool:
    """Whether the game can be loaded (its engine may not exist yet)."""
    try:
        games.get(name)
    except Exception:
        return False
    return True


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games to measure (default firstblood, else toy)")
    parser.add_argument("--repeats", type=int, default=5, help="repeats per measure (median)")
    parser.add_argument(
        "--positions",
        type=Path,
        default=ROOT / "bench" / "positions",
        help="folder of saved positions: DIR/<game>/*.json",
    )
    parser.add_argument(
        "--mcts-iterations",
        type=int,
        default=300,
        help="iterations per search when measuring MCTS speed",
    )
    parser.add_argument("--mcts-work", type=int, default=4000, help="actions played per search at most (as hard)")
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="time read: wall time, or this process's CPU time (steadier on a shared machine)",
    )
    args = parser.parse_args(argv)
    CLOCK[0] = time.process_time if args.clock == "cpu" else time.perf_counter
    names = args.games or (["firstblood"] if playable("firstblood") else ["toy"])
    chess_times = chess_baseline(args.repeats)
    baseline = Table(title="python-chess baseline (same run)")
    baseline.add_column("measure")
    baseline.add_column("value", justify="right")
    baseline.add_row("random self-play ply (legal moves + push)", us(chess_times["ply"]))
    baseline.add_row("Board.copy(stack=False)", us(chess_times["copy"]))
    console.print(baseline)
    for name in names:
        bench_game(name, args, chess_times)


if __name__ == "__main__":
    main()
