"""A test client of the engine protocol that behaves as told: `bot.py MODE [LOG]`.

MODE: first (the first legal action), index (the last one, by index), retry (one line that
is not JSON, then a good answer after the engine's error), garbage (only wrong answers),
slow (never answers a decision), quit (leaves at the first decision). LOG: a file that gets
every message received, one JSON line each."""

from __future__ import annotations

import json
import sys
import time


def main() -> None:
    mode = sys.argv[1]
    log = open(sys.argv[2], "a", encoding="utf-8") if len(sys.argv) > 2 else None  # noqa: SIM115
    wrong = ["this is not JSON", json.dumps(["not", "an", "object"]), json.dumps({"type": "action", "action": "fly"})]
    for line in sys.stdin:
        message = json.loads(line)
        if log is not None:
            log.write(json.dumps(message) + "\n")
            log.flush()
        kind = message["type"]
        if kind == "hello":
            print(json.dumps({"type": "ready", "name": f"test bot ({mode})"}), flush=True)
        elif kind == "decide":
            legal = message["legal"]
            if mode == "slow":
                time.sleep(60)
            elif mode == "quit":
                print("giving up", file=sys.stderr, flush=True)
                return
            elif mode == "garbage" or mode == "retry":
                print(wrong[0], flush=True)
            elif mode == "index":
                print(json.dumps({"type": "action", "index": len(legal) - 1}), flush=True)
            else:
                print(json.dumps({"type": "action", "action": legal[0]}), flush=True)
        elif kind == "error":
            if message.get("fatal"):
                return
            if mode == "garbage":
                wrong.append(wrong.pop(0))
                print(wrong[0], flush=True)
            elif mode == "retry":
                print(json.dumps({"type": "action", "index": 0}), flush=True)
        elif kind == "end":
            return


if __name__ == "__main__":
    main()
