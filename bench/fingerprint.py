"""Digests of complete seeded random games, to show an engine change kept play the same.

    python bench/fingerprint.py [GAME ...] [--games N] [--first SEED]

For each game and seed, a random game is played (the actions drawn with
`random.Random(seed)`) and one line is printed: the seed, the number of decisions and a
digest of every legal action list in order, every event, and the final position. Run it
before and after a change that should not alter play, and compare the outputs (`diff`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from henderson import games


def fingerprint(name: str, seed: int) -> tuple[int, str]:
    """The number of decisions of one seeded random game and a digest of all it showed."""
    game = games.get(name)
    rng = random.Random(seed)
    state = game.new_state(seed)
    digest = hashlib.blake2b(digest_size=12)
    decisions = 0
    while not state.is_terminal():
        actions = state.legal_actions()
        digest.update("|".join(map(str, actions)).encode())
        events = state.apply(actions[rng.randrange(len(actions))])
        digest.update(json.dumps([(e.kind, e.text, e.data) for e in events], default=str).encode())
        decisions += 1
    digest.update(json.dumps(state.to_json(), sort_keys=True, default=str).encode())
    return decisions, digest.hexdigest()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=["firstblood", "deluxe", "aag"], metavar="GAME")
    parser.add_argument("--games", dest="count", type=int, default=5, help="seeded games per game")
    parser.add_argument("--first", type=int, default=1, help="the first seed")
    args = parser.parse_args(argv)
    for name in args.names:
        for seed in range(args.first, args.first + args.count):
            decisions, digest = fingerprint(name, seed)
            print(f"{name} seed {seed}: {decisions} decisions {digest}", flush=True)


if __name__ == "__main__":
    main()
