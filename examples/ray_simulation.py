"""Simulate on a Ray cluster, and check that it gives exactly what the local backend gives.

    ray start --head                      # on one machine; `ray start --address HEAD:6379` on the others
    python examples/ray_simulation.py --game aag -n 200 --address auto

Without `--address` a local Ray instance is started for the run. The same from the command
line: `henderson simulate aag -n 200 --us random --jp normal --backend ray --address auto`.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from henderson.sim import simulate


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="aag")
    parser.add_argument("-n", type=int, default=20, help="games")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--address", default=None, help="auto, HOST:PORT, or none for a local instance")
    parser.add_argument("--agents", default="random,normal", help="the first side's agent, the second's")
    parser.add_argument("--check", action="store_true", help="replay locally and compare every game")
    args = parser.parse_args(argv)

    first, second = args.agents.split(",")
    from henderson import games

    sides = games.get(args.game).sides
    chosen = {sides[0]: first, sides[1]: second}
    clock = time.perf_counter()
    on_ray = simulate(args.game, args.n, chosen, seed=args.seed, backend="ray", address=args.address)
    print(f"{args.n} games on Ray in {time.perf_counter() - clock:.1f} s")
    summary = on_ray.summary()
    for side in sides:
        print(f"  {side} ({chosen[side]}) won {summary.wins.get(side, 0)}")
    same = None
    if args.check:
        local = simulate(args.game, args.n, chosen, seed=args.seed)
        same = [json.dumps(r, sort_keys=True) for r in local.results] == [
            json.dumps(r, sort_keys=True) for r in on_ray.results
        ]
        print("the local backend gives the same games" if same else "the backends differ!")
    return {"results": on_ray.results, "same": same}


if __name__ == "__main__":
    main()
