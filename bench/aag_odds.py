"""How long an exact AAG odds preview takes for the largest battles of the opening forces.

    python bench/aag_odds.py [--repeats R]

For each combat category and each side, the preview is of that side's whole starting force
of the category under every attack die the other side's whole starting force has against
it (all the units of the set-up in one zone), the largest battle the opening pieces make.
Each line gives the median seconds of a preview (`odds.odds` and the chances by unit type it
shows, `Odds.by_type`) against the 5 ms target, and of listing every joint outcome as well
(`Odds.outcomes`, which no preview needs), with their number. Nothing here is asserted by
the tests: timings depend on the machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from henderson import games
from henderson.games.aag.model import CATEGORIES, SIDES, other
from henderson.games.aag.odds import odds

TARGET_SECONDS = 5e-3


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    game = games.get("aag")
    data = game.data
    state = game.new_state(1)
    units = [p for p in state.pieces.values() if p.type in data.units]
    for category in CATEGORIES:
        for side in SIDES:
            force = Counter(p.type for p in units if p.side == side and data.units[p.type].category == category)
            dice = sum(data.units[p.type].attack[category] for p in units if p.side == other(side))
            times, joint_times = [], []
            for _ in range(args.repeats):
                start = time.perf_counter()
                found = odds(data, category, dice, dict(force))
                found.by_type()
                times.append(time.perf_counter() - start)
                start = time.perf_counter()
                outcomes = odds(data, category, dice, dict(force)).outcomes
                joint_times.append(time.perf_counter() - start)
            seconds = statistics.median(times)
            verdict = "ok" if seconds <= TARGET_SECONDS else "MISSED"
            described = ", ".join(f"{n} {k}" for k, n in sorted(force.items()))
            print(
                f"{category:4} {dice:2} dice vs {side} ({described}): preview {seconds * 1e3:6.2f} ms "
                f"<= {TARGET_SECONDS * 1e3:.0f} ms {verdict}; {len(outcomes)} outcomes listed in "
                f"{statistics.median(joint_times) * 1e3:.2f} ms"
            )


if __name__ == "__main__":
    main()
