"""Golden playthroughs: seeded random games of each game, written down ply by ply (who
decides, a digest of the set of legal actions, the action played, the dice it rolled), and
played again by the tests. A change that alters what is legal anywhere in them, or which
dice an action rolls, shows up at the first ply it touches.

They pin behaviour while the engine's structure changes. When a rule is deliberately
changed, write them again and say why in the commit:

    python -m tests.golden write
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from henderson import games
from henderson.core.dice import SeededDice
from henderson.core.game import State

HERE = Path(__file__).parent
# (game, seed, most plies): long enough to cross several turns of every game
PLAYTHROUGHS = [
    ("firstblood", 11, 3000),
    ("firstblood", 12, 3000),
    ("deluxe", 21, 2500),
    ("deluxe", 22, 2500),
    ("aag", 31, 3000),
    ("aag", 32, 3000),
]


def path_of(name: str, seed: int) -> Path:
    return HERE / f"{name}-{seed}.jsonl.gz"


def digest(actions: Any) -> str:
    """A short digest of a set of legal actions (their order does not matter)."""
    text = "\n".join(sorted(str(a) for a in actions))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def rows(name: str, seed: int, plies: int) -> Iterator[dict[str, Any]]:
    """Play a seeded random game and describe each ply."""
    state = games.get(name).new_state(seed, dice=SeededDice(seed))
    rng = random.Random(seed)
    for ply in range(plies):
        if state.is_terminal():
            break
        legal = sorted(str(a) for a in state.legal_actions())
        action = legal[rng.randrange(len(legal))]
        player = state.current_player()
        events = state.apply(action)
        rolls = [e.data["value"] for e in events if e.kind == "roll"]
        yield {"ply": ply, "player": player, "legal": digest(legal), "n": len(legal), "action": action, "rolls": rolls}
    yield {"end": True, "winner": state.winner(), "terminal": state.is_terminal()}


def write() -> None:
    for name, seed, plies in PLAYTHROUGHS:
        text = "".join(json.dumps(row, separators=(",", ":")) + "\n" for row in rows(name, seed, plies))
        with gzip.GzipFile(path_of(name, seed), "wb", mtime=0) as fh:  # the same bytes every time
            fh.write(text.encode())
        print(f"wrote {path_of(name, seed).name}")


def read(name: str, seed: int) -> list[dict[str, Any]]:
    with gzip.open(path_of(name, seed), "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def replay(name: str, seed: int) -> State:
    """Play a golden playthrough again with its own dice; AssertionError at the first ply
    where the player, the legal actions or the dice differ."""
    written = read(name, seed)
    plays = [r for r in written if "action" in r]
    state = games.get(name).new_state(seed, dice=SeededDice(seed))
    for row in plays:
        where = f"{name} seed {seed} ply {row['ply']}"
        legal = state.legal_actions()
        who = state.current_player()
        assert who == row["player"], f"{where}: {who} decides, not {row['player']}"
        assert digest(legal) == row["legal"], f"{where}: the legal actions differ ({len(legal)} now, {row['n']} then)"
        events = state.apply(row["action"])
        got = [e.data["value"] for e in events if e.kind == "roll"]
        assert got == row["rolls"], f"{where}: {row['action']!r} rolled {got}, then {row['rolls']}"
    end = written[-1]
    assert state.winner() == end["winner"] and state.is_terminal() == end["terminal"], f"{name} seed {seed}: the end"
    return state

