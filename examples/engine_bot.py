"""A reference client of the engine protocol: a bot that plays any henderson game over
standard input and output, using nothing but the Python standard library.

    henderson tournament aag --agents 'cmd:python examples/engine_bot.py',random -n 4

It reads one JSON object per line and answers `hello` with `ready` and each `decide` with
one of the legal actions: an attack or a roll when there is one (a bot with a taste for
battle), else a seeded random choice. Write yours in any language the same way.
"""

from __future__ import annotations

import json
import random
import sys

EAGER = ("attack", "resolve", "roll", "go", "fight", "fire", "bombard", "buy", "land", "move")


def choose(legal: list[str], rng: random.Random) -> str:
    """Prefer the verbs in EAGER, in order; pick among the actions with the first one found."""
    for verb in EAGER:
        mine = [a for a in legal if a.split()[0] == verb]
        if mine:
            return rng.choice(mine)
    return rng.choice(legal)


def main() -> None:
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            rng = random.Random(message.get("seed") or 0)
            reply = {"type": "ready", "name": "eager example bot"}
        elif kind == "decide":
            reply = {"type": "action", "action": choose(message["legal"], rng)}
        elif kind == "error":
            print(f"engine says: {message['message']}", file=sys.stderr)
            continue
        else:  # "end": the game is over
            break
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
