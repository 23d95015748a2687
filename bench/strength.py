"""How strong the computer players are, how often they shuffle, and how long `hard` thinks.

    python bench/strength.py [GAME ...] [--pairs random-normal,normal-hard] [-n N] [--seed S] [--start K]
                             [--seat both|first|second] [--full] [--learned] [--timing] [-o games.jsonl]

Ladder: for each game and each pairing a-b, N seeded games with a on the first side and
N with a on the second (game i of both seatings has the same seed: common random
numbers). For each seating it prints the wins of the second-named agent, the win rate
with its 95 % Wilson interval, and the pairing's score over both sides.

Shuffles: every game is replayed from its record, and a move (an action that names a
unit and a place it goes `to`) by an agent that takes a unit back to a hex, zone or box
it stood in earlier in the same phase (turn and step), other than where it stands,
counts as a shuffle. The table
gives shuffles per game and per 100 moves of each agent.

Air units lost for want of a landing place (AAG) are counted from the events, by the
side whose landing it was, and so are attacks made at odds that can only lose (FIRST BLOOD
below 1-2 or at a column where no roll costs the defender anything, DG below 1-6), by the
side that made them.

Timing (`--timing`): the CPU seconds (`time.process_time`) `hard` takes to choose at each
game's most crowded positions (the saved ones in bench/positions/<game>, else those of
a seeded random game, as bench/engine.py picks them) and at a decision of two actions.

The default scale is small (AAG and FIRST BLOOD, normal against random, 4 games a side);
`--full` plays every game and the ladder random-easy, easy-normal, random-normal and
normal-hard, 20 games a side (AAG 40). Figures from the default scale are for smoke
checks: their intervals are wide. `--learned` plays the pairing `LEARNED_PAIR` instead:
`normal` with the hand-written evaluation against `normal` with the learned one
(henderson/agents/learned.py), the learned one's score as b's.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from henderson import agents, games  # noqa: E402
from henderson.agents.repetition import moves_of, phase_of, unit_places  # noqa: E402
from henderson.sim.play import play_game  # noqa: E402
from henderson.sim.stats import wilson  # noqa: E402

SMALL_GAMES = ("aag", "firstblood")
SMALL_PAIRS = ("random-normal",)
SMALL_N = 4
FULL_GAMES = ("aag", "firstblood", "deluxe")
FULL_PAIRS = ("random-easy", "easy-normal", "random-normal", "normal-hard")
FULL_N = {"aag": 40, "firstblood": 20, "deluxe": 20}  # the ladder's scale: 40 games a side in AAG, 20 in the others
LEARNED_PAIR = "normal:eval=hand-normal:eval=learned"


def stranded(record: Sequence[dict[str, Any]]) -> dict[str, int]:
    """Air units destroyed for want of a landing place (AAG Regroup step 2), by the side
    whose landing it was."""
    out: dict[str, int] = {}
    for entry in record[1:]:
        for event in entry.get("events") or []:
            if "no place to land" in str(event.get("text", "")):
                side = str(entry.get("player"))
                out[side] = out.get(side, 0) + 1
    return out


# results that cost the defender something: FB 8.10 (a retreat, a step, the stack, an exchange)
DEFENDER_HURT = frozenset({"DR", "D1", "DE", "EX"})


def hopeless(record: Sequence[dict[str, Any]]) -> dict[str, int]:
    """Attacks made at odds that can only lose, by the side that made them: FIRST BLOOD below
    1-2 (FB 8.6: the attackers are eliminated before the roll) or at a column where no roll
    costs the defender anything (FB 8.10), DG below 1-6 (DG 8.2.1.3)."""
    out: dict[str, int] = {}
    for entry in record[1:]:
        for event in entry.get("events") or []:
            data = event.get("data") or {}
            kind = event.get("kind")
            if kind == "attack" and isinstance(data.get("odds"), dict):
                odds = data["odds"]
                chances = odds.get("probabilities") or {}
                lost = odds.get("column") is None or not any(
                    p > 0 for result, p in chances.items() if result in DEFENDER_HURT
                )
            elif kind == "assault":
                lost = data.get("ratio") == "below 1-6"
            else:
                continue
            if lost:
                side = str(entry.get("player"))
                out[side] = out.get(side, 0) + 1
    return out


def shuffles(game: Any, seed: int, record: Sequence[dict[str, Any]]) -> dict[str, tuple[int, int]]:
    """Replay a game record: for each side, (shuffles, moves) of its actions."""
    state = game.new_state(seed)
    counts: dict[str, list[int]] = {side: [0, 0] for side in game.sides}
    phase: tuple[int, str] | None = None
    stood: dict[str, set[str]] = {}
    for entry in record[1:]:
        text = entry.get("action") or entry.get("text")
        side = entry.get("player") or state.current_player()
        if not isinstance(text, str):
            continue
        if phase_of(state) != phase:
            phase, stood = phase_of(state), {}
        here = unit_places(state.view(None))
        for unit, place in here.items():
            stood.setdefault(unit, set()).add(place)
        action = game.parse_action(text)
        moved = moves_of(game, action)
        if moved and side in counts:
            counts[side][1] += 1
            counts[side][0] += any(place in stood.get(unit, ()) and place != here.get(unit) for unit, place in moved)
        state.apply(action)
    return {side: (c[0], c[1]) for side, c in counts.items()}


def pct(k: float, n: int) -> str:
    low, high = wilson(k, n)
    return f"{100 * k / n:5.1f} % ({100 * low:.1f}-{100 * high:.1f})" if n else "-"


def ladder(
    name: str, pairs: Iterable[str], n: int, seed: int, out: Any, seats: str = "both", start: int = 0
) -> None:
    """Play and print each pairing of `pairs` ("a-b") in the game `name`: both seatings, or
    only the one with b on the `first` or the `second` side; games `start` to `start + n - 1`
    of the seed (a longer run split in parts plays the same games as in one)."""
    game = games.get(name)
    first, second = game.sides
    games_of = f", games {start}-{start + n - 1}" if start else ""
    print(f"\n## {name}: {n} games a seating, seed {seed}{games_of}")
    print(
        "| pairing | seating (first v second) | second wins | rate (95 % Wilson) | shuffles/game "
        "| per 100 moves | air units lost landing | attacks that can only lose |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for pair in pairs:
        a, b = pair.split("-")
        score = 0.0
        seatings = [{first: a, second: b}, {first: b, second: a}]
        if seats != "both":
            seatings = [x for x in seatings if (x[first] == b) == (seats == "first")]
        for specs in seatings:
            wins = 0.0
            moved = shuffled = crashed = doomed = 0
            began = time.perf_counter()
            for i in range(start, start + n):
                result = play_game(game, specs, seed, i, keep_records=True)
                if result.get("error"):
                    print(f"  game {i}: {result['error']}", file=sys.stderr)
                b_side = first if specs[first] == b else second
                wins += 1.0 if result["winner"] == b_side else 0.5 if result["winner"] is None else 0.0
                counted = shuffles(game, result["seed"], result["record"])
                s, m = counted[b_side]
                shuffled, moved = shuffled + s, moved + m
                stranded_by_side = stranded(result["record"])
                crashed += stranded_by_side.get(b_side, 0)
                lost = hopeless(result["record"])
                doomed += lost.get(b_side, 0)
                if out is not None:
                    slim = {k: v for k, v in result.items() if k != "record"}
                    slim["shuffles"] = {side: list(v) for side, v in counted.items()}
                    slim["hopeless"] = lost
                    slim["stranded"] = stranded_by_side  # AAG air units lost for want of a landing place
                    out.write(json.dumps(slim) + "\n")
                    out.flush()
            score += wins
            seating = f"{specs[first]} ({first}) v {specs[second]} ({second})"
            per = 100 * shuffled / moved if moved else 0.0
            print(
                f"| {a}-{b} | {seating} | {wins:g}/{n} | {pct(wins, n)} | {shuffled / n:.1f} ({b}) | "
                f"{per:.1f} ({b}) | {crashed} ({b}) | {doomed} ({b}) |  {time.perf_counter() - began:.0f} s"
            )
        if seats == "both":
            print(f"| {a}-{b} | both sides | {score:g}/{2 * n} | {pct(score, 2 * n)} ({b}'s score) | | | | |")


def timing(name: str) -> None:
    """CPU seconds `hard` takes at the game's crowded positions and at a two-action decision."""
    from bench.engine import positions, random_game

    game = games.get(name)
    found = [(p.label, p.state) for p in positions(game, ROOT / "bench" / "positions")]
    _, steps = random_game(game, 1, keep=True)
    two = next((s for s, _ in steps if len(s.legal_actions()) == 2), None)
    if two is not None:
        found.append(("two actions", two))
    for label, state in found:
        agent = agents.get("hard", 1)
        start = time.process_time()
        agent.choose(state.clone())
        spent = time.process_time() - start
        walks = getattr(agent, "last_iterations", 0)
        print(f"{name:10} {label:12} {len(state.legal_actions()):5} actions  hard {spent:6.2f} s CPU  {walks} walks")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games (default aag firstblood; --full: all three)")
    parser.add_argument("--pairs", help="comma-separated pairings a-b (default random-normal)")
    parser.add_argument("-n", type=int, help="games per seating (default 4; --full 20, AAG 40)")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--start", type=int, default=0, help="index of the first game (default 0)")
    parser.add_argument("--full", action="store_true", help="the full ladder at full scale")
    parser.add_argument("--learned", action="store_true", help="play normal: hand-written v learned evaluation")
    parser.add_argument("--timing", action="store_true", help="time hard instead of playing")
    parser.add_argument(
        "-o", "--output", type=Path, help="one JSON line per game (with its shuffles, hopeless attacks, stranded air)"
    )
    parser.add_argument("--seat", choices=("both", "first", "second"), default="both", help="where b of a-b sits")
    args = parser.parse_args(argv)
    if args.start < 0:
        parser.error(f"--start {args.start}: the first game's index is 0 or more")
    names = args.games or list(FULL_GAMES if args.full else SMALL_GAMES)
    if args.timing:
        for name in names:
            timing(name)
        return
    pairs = args.pairs.split(",") if args.pairs else list(FULL_PAIRS if args.full else SMALL_PAIRS)
    if args.learned:
        pairs = [LEARNED_PAIR]
    out = args.output.open("a", encoding="utf-8") if args.output else None
    try:
        for name in names:
            n = args.n or (FULL_N.get(name, 20) if args.full else SMALL_N)
            ladder(name, pairs, n, args.seed, out, args.seat, args.start)
    finally:
        if out is not None:
            out.close()


if __name__ == "__main__":
    main()
