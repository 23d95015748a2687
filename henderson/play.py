"""Playing a game in the terminal: people type actions, computer players move by themselves,
and the record is saved so the game can be replayed or resumed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console

from henderson import agents
from henderson.core.errors import HendersonError
from henderson.core.game import Game, State
from henderson.core.record import GameRecord, record_for, replay, seen_by

HELP = """commands:
  NUMBER or ACTION   play a listed action, or type one in notation (e.g. 'move 1/5 0707')
  list [WORD]        list the legal actions (only those containing WORD)
  board              show the position again
  save [FILE]        save the game record now
  help               this text
  quit               save and leave"""

MAX_LISTED = 40


def seats_from_args(game: Game, args: list[str]) -> dict[str, str]:
    """`--us human --jp random` into {"us": "human", "jp": "random"}; unnamed sides play human."""
    seats = {side: "human" for side in game.sides}
    i = 0
    while i < len(args):
        flag = args[i]
        side = flag[2:] if flag.startswith("--") else None
        if side not in seats or i + 1 >= len(args):
            raise HendersonError(
                f"unexpected {flag!r}: name each side's player as {' '.join(f'--{s} human|AGENT' for s in game.sides)}"
            )
        who = args[i + 1]
        if who != "human":
            agents.get(who)  # fails early on an unknown agent
        seats[side] = who
        i += 2
    return seats


def play_terminal(
    game: Game,
    seats: dict[str, str],
    *,
    seed: int | None,
    record_path: Path | None,
    start: Any = None,
    resume: GameRecord | None = None,
    console: Console,
) -> Any:
    """Run a game to its end (or until the people quit); returns the final state. `resume`
    continues a saved record where it stopped (its actions replayed, its dice rolling on),
    and the game is saved back into it."""
    if resume is not None:
        state = replay(resume, game)
        record = resume
        record.players = dict(seats)
    else:
        state = start if start is not None else game.new_state(seed)
        record = record_for(game, state, seats, from_position=start is not None)
    path = record_path or Path(f"{game.name}-{state.seed if state.seed is not None else 'game'}.jsonl")
    bots = {
        s: agents.get(w, None if seed is None else seed + i)
        for i, (s, w) in enumerate(sorted(seats.items()))
        if w != "human"
    }
    # with hidden information and one person at the keyboard, show only what that side may see
    humans = [s for s, w in seats.items() if w == "human"]
    viewer = humans[0] if game.hidden_information and len(humans) == 1 else None
    console.print(f"[bold]{game.title}[/bold] — " + ", ".join(f"{s.upper()}: {w}" for s, w in seats.items()))
    console.print("type 'help' for commands", style="dim")
    shown_ply = -1
    while not state.is_terminal():
        side = state.current_player()
        if side in bots:
            action = bots[side].choose(state)
            events = state.apply(action)
            record.add(side, str(action), events)
            entry = record.entries[-1]
            shown = seen_by(state, entry, viewer) if viewer is not None else entry.to_json()  # DG 7.8
            console.print(f"{side.upper()}: {shown['action']}", markup=False, highlight=False)
            for e in shown["events"]:
                console.print(f"   {e.get('text', '')}", markup=False, highlight=False)
            continue
        if shown_ply != state.ply:
            console.print(board_text(game, state, viewer), markup=False, highlight=False)
            show_actions(console, state, "")
            shown_ply = state.ply
        try:
            line = console.input(f"[bold]{(side or '').upper()}>[/bold] ").strip()
        except (EOFError, KeyboardInterrupt):
            console.print()
            break
        if not line:
            continue
        word, _, rest = line.partition(" ")
        if word in ("quit", "q", "exit"):
            break
        if word in ("help", "?"):
            console.print(HELP + "\n" + keys_text(game, state), markup=False)
            continue
        if word in ("board", "b"):
            console.print(board_text(game, state, viewer), markup=False, highlight=False)
            continue
        if word in ("list", "l"):
            show_actions(console, state, rest.strip(), limit=None)
            continue
        if word == "save":
            target = Path(rest.strip()) if rest.strip() else path
            record.write(target)
            console.print(f"saved {target}")
            continue
        legal = state.legal_actions()
        if line.isdigit() and 1 <= int(line) <= len(legal):
            action = legal[int(line) - 1]
        else:
            action = line
        try:
            events = state.apply(action)
        except HendersonError as exc:
            console.print(f"[red]{exc}[/red]", highlight=False)
            continue
        record.add(side or "", str(action), events)
        for e in events:
            console.print(f"   {e.text}", markup=False, highlight=False)
    record.write(path)
    if state.is_terminal():
        won = state.winner()
        result = f"{won.upper()} wins" if won else "a draw"
        console.print(f"[bold]Game over: {result}[/bold] ({state.end_cause})")
    console.print(f"record saved to {path} (replay with: henderson replay {path})")
    if not state.is_terminal():
        sides = " ".join(f"--{s} {w}" for s, w in seats.items())
        console.print(f"resume with: henderson play {game.name} --resume {path} {sides}", markup=False, soft_wrap=True)
    return state


def keys_text(game: Game, state: State) -> str:
    """The game's words that can be typed now: each verb legal at this step with an example
    of its notation and what its arguments name (the game's own description of its actions)."""
    examples: dict[str, Any] = {}
    for action in state.legal_actions():
        info = game.describe(action)
        examples.setdefault(info.verb, info)
    lines = [f"{game.title}, {state.turn_label}, step {state.step}: the actions now"]
    for verb, info in examples.items():
        names = " ".join(f"{a.role}:{a.kind.value}" for a in info.args)
        lines.append(f"  {verb:10} e.g. '{info.text}'" + (f"   ({names})" if names else ""))
    lines.append("'board' shows the map and its key; see docs/ for the game's notation")
    return "\n".join(lines)


def board_text(game: Game, state: State, viewer: str | None) -> str:
    """The board as text, as `viewer` may see it (None: everything)."""
    return game.render_text(state, viewer)


def show_actions(console: Console, state: State, word: str, limit: int | None = MAX_LISTED) -> None:
    """The legal actions, numbered; a long list is summarised by verb and unit first."""
    legal = state.legal_actions()
    listed = [(i, a) for i, a in enumerate(legal, 1) if word in str(a)]
    console.print(f"{len(legal)} legal actions" + (f", {len(listed)} with '{word}'" if word else ""), style="dim")
    if limit and len(listed) > limit:
        groups: dict[str, list[int]] = {}
        for i, a in listed:
            words = str(a).split()
            groups.setdefault(" ".join(words[:2]), []).append(i)
        for key, numbers in groups.items():
            if len(numbers) == 1:
                console.print(f"  {numbers[0]:4d}  {legal[numbers[0] - 1]}", markup=False, highlight=False)
            else:
                console.print(f"        {key} … ({len(numbers)} choices: 'list {key}')", markup=False, highlight=False)
        return
    for i, a in listed:
        console.print(f"  {i:4d}  {a}", markup=False, highlight=False)


__all__ = ["GameRecord", "play_terminal", "seats_from_args"]
