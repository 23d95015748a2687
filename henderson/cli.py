"""The `henderson` command: play, inspect and check the games from a terminal.

Every error caused by input prints one line and exits with status 2.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from henderson import games
from henderson.core import jsontext
from henderson.core.data import load_toml
from henderson.core.dice import SeededDice
from henderson.core.errors import HendersonError
from henderson.core.game import Game, State
from henderson.core.record import GameRecord, replay, verify, write_atomic

app = typer.Typer(
    help="Guadalcanal board wargames with every rule enforced.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
data_app = typer.Typer(help="Check game data files.", no_args_is_help=True)
app.add_typer(data_app, name="data")
pbem_app = typer.Typer(
    help="Play by e-mail without trust: one exchange file sent back and forth, every die from both players.",
    no_args_is_help=True,
)
app.add_typer(pbem_app, name="pbem")


def _register_command_groups() -> None:
    """Commands that live with their subsystem: the server's and the simulator's."""
    from henderson.server import cli as server_cli
    from henderson.sim import cli as sim_cli

    server_cli.register(app)
    sim_cli.register(app)

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


class UsageError(HendersonError):
    """Bad command-line input (a file, an option)."""


@app.command("games")
def games_command() -> None:
    """List the games this installation plays."""
    for name in games.names():
        out.print(f"{name:12} {games.title(name)}")


def game_for_data(target: str) -> tuple[str, Path | None]:
    """A game name and data directory from `GAME` or `DIR` (a directory with a game.toml)."""
    if target in games.REGISTRY:
        return target, None
    path = Path(target)
    if not path.is_dir():
        raise UsageError(f"{target}: neither a game ({', '.join(games.REGISTRY)}) nor a data directory")
    manifest = load_toml(path / "game.toml")
    name = manifest.get("game")
    if not isinstance(name, str):
        raise UsageError(f"{path / 'game.toml'}: field 'game' missing or not text")
    return name, path


@data_app.command("check")
def data_check(
    target: Annotated[str, typer.Argument(help="a game name or a data directory")] = "firstblood",
) -> None:
    """Validate a game's data: every record, field, cross-reference and constraint."""
    name, path = game_for_data(target)
    module = games._module(name)
    game = module.load_game(path)
    game.client_data()  # what the browser board is drawn from (AAG: board_layout.toml) is checked too
    out.print(f"{name}: data {game.data_version} in {game.data_dir} is valid")


def parse_options(values: list[str] | None) -> dict[str, Any]:
    """`--option name=true` pairs into a dict of booleans, ints or texts."""
    options: dict[str, Any] = {}
    for item in values or []:
        if "=" not in item:
            raise UsageError(f"--option {item!r}: expected NAME=VALUE")
        key, raw = item.split("=", 1)
        value: Any = raw
        if raw.lower() in ("true", "yes", "on"):
            value = True
        elif raw.lower() in ("false", "no", "off"):
            value = False
        elif raw.lstrip("-").isdigit():
            value = int(raw)
        options[key] = value
    return options


def read_position(path: Path) -> tuple[Game, State]:
    """(game, state) from a position file; one-line errors for every way it can be wrong."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"{path}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    try:
        obj = jsontext.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}: not JSON (line {exc.lineno}: {exc.msg})") from None
    if not isinstance(obj, dict) or not isinstance(obj.get("game"), str):
        raise UsageError(f"{path}: a position is a JSON object with a 'game' field")
    game = games.get(obj["game"])
    return game, game.load_state(obj)


def write_position(path: Path, state: State) -> None:
    write_atomic(path, json.dumps(state.to_json(), indent=1) + "\n")


def print_events(events: list[Any]) -> None:
    for e in events:
        out.print(f"  {e.text}", markup=False)


@app.command("new")
def new_command(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    seed: Annotated[int | None, typer.Option(help="seed for the dice")] = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="write the position here (JSON)")] = None,
    option: Annotated[list[str] | None, typer.Option(help="optional rule, NAME=true")] = None,
) -> None:
    """Start a new game and show (or save) its first position."""
    game = games.get(game_name)
    state = game.new_state(seed, options=parse_options(option))
    if output:
        write_position(output, state)
        out.print(f"wrote {output}")
    else:
        out.print(game.render_text(state), markup=False)


@app.command("legal")
def legal_command(
    position: Annotated[Path, typer.Argument(metavar="POS")],
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """List the legal actions at a position, in notation."""
    _, state = read_position(position)
    acts = [str(a) for a in state.legal_actions()]
    if as_json:
        out.print_json(json.dumps({"to_act": state.current_player(), "actions": acts}))
        return
    out.print(f"to act: {state.current_player() or 'nobody (game over)'}; {len(acts)} legal actions")
    for a in acts:
        out.print(f"  {a}", markup=False)


@app.command("apply")
def apply_command(
    position: Annotated[Path, typer.Argument(metavar="POS")],
    actions: Annotated[list[str], typer.Argument(metavar="ACTION...", help="actions in notation, in order")],
    seed: Annotated[
        int | None, typer.Option(min=0, max=2**64 - 1, help="roll with these dice instead of the position's")
    ] = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="write the resulting position here")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print events and position as JSON")] = False,
) -> None:
    """Apply actions to a position and print what happened; nothing is written on an error.

    A solo tool: a position file holds its dice, so whoever holds it can foresee and retry
    every roll. To play someone by files, use `henderson pbem`."""
    _game, state = read_position(position)
    if seed is not None:
        state.dice = SeededDice(seed)
    log: list[dict[str, Any]] = []
    for text in actions:
        try:
            events = state.apply(text)
        except HendersonError as exc:
            raise UsageError(f"{text!r}: {exc}") from None
        log.append({"action": text, "events": [e.to_json() for e in events]})
        if not as_json:
            out.print(f"{text}", markup=False)
            print_events(events)
    if output:
        write_position(output, state)
    if as_json:
        out.print_json(json.dumps({"applied": log, "to_act": state.current_player(), "position": state.to_json()}))
        return
    out.print(whose_decision(state), markup=False)
    if output:
        out.print(f"wrote {output}")


def whose_decision(state: State) -> str:
    """Who decides now, and where in the sequence of play (forced decisions pass by
    themselves, so the actions applied may have ended the other side's step too)."""
    if state.is_terminal():
        won = state.winner()
        return f"game over: {won or 'nobody'} won ({state.end_cause})"
    return f"now: {state.current_player()} to decide ({state.turn_label}, step {state.step})"


@app.command("odds")
def odds_command(
    position: Annotated[Path, typer.Argument(metavar="POS")],
    attack: Annotated[str, typer.Argument(metavar="ATTACK", help="e.g. 'attack 0605 with 1/5,2/5 art 1/11'")],
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """Show an attack's factors, doublings, odds column, die modifiers and exact result chances."""
    game, state = read_position(position)
    odds = game.odds(state, attack)
    if as_json:
        out.print_json(json.dumps(odds.to_json()))
        return
    out.print(odds.text(), markup=False)


@app.command("calc")
def calc_command(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    inputs: Annotated[list[str] | None, typer.Argument(metavar="KEY=VALUE...", help="e.g. ground=7 defence=3")] = None,
    show_form: Annotated[bool, typer.Option("--form", help="list the inputs and what each takes")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """Battle calculator: the exact odds of any attack, inputs chosen freely (no position)."""
    game = games.get(game_name)
    if show_form:
        form = game.calculator_form()
        if as_json:
            out.print_json(json.dumps(form.to_json()))
        else:
            out.print(form.text(), markup=False)
        return
    values: dict[str, str] = {}
    for item in inputs or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"{item!r}: expected KEY=VALUE (henderson calc {game_name} --form lists the keys)")
        values[key] = value
    result = game.calculate(values)
    if as_json:
        out.print_json(json.dumps(result.to_json()))
        return
    out.print(result.text(), markup=False)


@app.command("replay")
def replay_command(
    record: Annotated[Path, typer.Argument(metavar="RECORD")],
    upto: Annotated[int | None, typer.Option("--to", help="stop after this many actions")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="only the final position")] = False,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="write the final position here")] = None,
) -> None:
    """Replay a game record, checking every action and die, and show how it went."""
    rec = GameRecord.read(record)
    game = games.get(rec.game)
    entries = rec.entries if upto is None else rec.entries[:upto]
    if not quiet:
        for e in entries:
            out.print(f"{e.ply + 1:4d} {e.player:>6}: {e.action}", markup=False)
            for ev in e.events:
                out.print(f"        {ev.get('text', '')}", markup=False)
    state = replay(rec, game, upto=upto)
    out.print(game.render_text(state), markup=False)
    if output:
        write_position(output, state)


@app.command("map")
def map_command(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    output: Annotated[Path, typer.Option("-o", "--output", help="map.svg or map.png")] = Path("map.svg"),
    position: Annotated[Path | None, typer.Option("--position", help="draw the units of this position")] = None,
) -> None:
    """Draw a game's map from its data (SVG or PNG)."""
    game = games.get(game_name)
    state = None
    if position is not None:
        pgame, state = read_position(position)
        if pgame.name != game.name:
            raise UsageError(f"{position} is a {pgame.name} position")
    game.draw_map(output, state)
    out.print(f"wrote {output}")


def read_resumed(path: Path, others: list[Path]) -> GameRecord:
    """The record `--resume` goes on with: the file itself, or when it is one seat's copy
    from a server, the whole record sealed in it and the other seats' copies (`--with-copy`;
    henderson/core/sealed.py)."""
    from henderson.core.sealed import SealError, is_seat_copy, read_copy, unseal

    texts = []
    for p in [path, *others]:
        try:
            texts.append(p.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"{p}: cannot read it ({exc.__class__.__name__})") from None
    if not is_seat_copy(texts[0]):
        if others:
            raise UsageError(f"--with-copy goes with a seat's copy, and {path} is a whole record")
        return GameRecord.read(path)
    try:
        whole = unseal(texts, games.get(read_copy(texts[0]).game).sides)
    except SealError as exc:
        raise UsageError(f"{path}: {exc.message}") from None
    return GameRecord.loads(whole, str(path))


@app.command(
    "play",
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
)
def play_command(
    ctx: typer.Context,
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    seed: Annotated[int | None, typer.Option(help="seed for the dice and the computer players")] = None,
    record: Annotated[Path | None, typer.Option(help="where to save the game record (JSON Lines)")] = None,
    position: Annotated[Path | None, typer.Option("--from", help="start from this position instead")] = None,
    resume: Annotated[
        Path | None, typer.Option("--resume", help="go on with a game saved in this record (saved back into it)")
    ] = None,
    with_copy: Annotated[
        list[Path] | None,
        typer.Option(
            "--with-copy",
            help="when --resume is one seat's copy from a server: the other seat's copy (the record sealed in them)",
        ),
    ] = None,
) -> None:
    """Play in the terminal: `--SIDE human|AGENT` for each side (e.g. --us human --jp random)."""
    from henderson.play import play_terminal, seats_from_args

    game = games.get(game_name)
    seats = seats_from_args(game, list(ctx.args))
    start = None
    if position is not None and resume is not None:
        raise UsageError("--from and --resume: give one (a position to start from, or a record to go on with)")
    if position is not None:
        pgame, start = read_position(position)
        if pgame.name != game.name:
            raise UsageError(f"{position} is a {pgame.name} position")
    saved = None
    if with_copy and resume is None:
        raise UsageError("--with-copy goes with --resume SEAT_COPY: the copies of every seat, resumed together")
    if resume is not None:
        saved = read_resumed(resume, with_copy or [])
        if with_copy:
            record = record or resume.with_name(f"{resume.name.removesuffix('.jsonl')}-resumed.jsonl")
        if saved.game != game.name:
            raise UsageError(f"{resume} is a record of {saved.game}")
        record = record or resume
        if not ctx.args and set(saved.players) == set(game.sides):
            seats = seats_from_args(game, [w for s, p in saved.players.items() for w in (f"--{s}", p)])
    play_terminal(game, seats, seed=seed, record_path=record, start=start, resume=saved, console=out)


@app.command("verify")
def verify_command(
    path: Annotated[Path, typer.Argument(metavar="FILE", help="a server's record or a play-by-e-mail exchange")],
) -> None:
    """Check every die of a finished game: a server's record against its revealed secret and
    the players' contributions, an exchange file against both players' reveals; each action
    replayed. One line: the verdict (exit 0 when verified, 1 when not)."""
    from henderson import pbem

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"{path}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    first = next((line for line in text.splitlines() if line.strip()), "")
    try:
        kind = jsontext.loads(first).get("format") if first else None
    except (json.JSONDecodeError, AttributeError):
        kind = None
    if kind == pbem.FORMAT:
        ok, verdict = pbem.verify_exchange(text, str(path))
    else:
        rec = GameRecord.loads(text, str(path))
        found = verify(rec, games.get(rec.game))
        ok, verdict = found.ok, found.text
    out.print(f"{path}: {verdict}", markup=False)
    if not ok:
        raise typer.Exit(1)


SecretsOption = Annotated[
    Path, typer.Option("--secrets", help="your own secrets file: keep it, never send it", show_default=False)
]


@pbem_app.command("new")
def pbem_new(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    file: Annotated[Path, typer.Argument(metavar="FILE", help="the exchange file to make and send")],
    side: Annotated[str, typer.Option("--side", help="the side you play", show_default=False)],
    secrets: SecretsOption,
    option: Annotated[list[str] | None, typer.Option(help="optional rule, NAME=true")] = None,
) -> None:
    """Start an exchange: send FILE to the other player, who joins with `pbem answer`."""
    from henderson import pbem

    game = games.get(game_name)
    ex = pbem.new_exchange(game, side, parse_options(option), file, secrets)
    out.print(f"wrote {file} (a {game.name} exchange) and your secrets in {secrets}: keep them, never send them")
    if game.hidden_information:
        out.print(
            "note: the exchange file holds every action in clear; what the game hides is hidden only from a player "
            "who does not read the file (docs/threat-model.md)",
            markup=False,
        )
    out.print(f"send {file} to {ex.joiner}'s player, who joins with: henderson pbem answer {file} --secrets FILE")


@pbem_app.command("answer")
def pbem_answer(
    file: Annotated[Path, typer.Argument(metavar="FILE")],
    secrets: SecretsOption,
) -> None:
    """Do what the exchange waits for from you without playing: join it (a new secrets file
    is made), or reveal your value for the dice of the other player's action."""
    from henderson import pbem

    before = _log_length(file)
    done, said = pbem.take_turn(file, secrets, [], join=not secrets.exists())
    _report(done, pbem.Secrets.read(secrets).side, said, before, file)


@pbem_app.command("play")
def pbem_play(
    file: Annotated[Path, typer.Argument(metavar="FILE")],
    actions: Annotated[list[str], typer.Argument(metavar="ACTION...", help="your actions, in order")],
    secrets: SecretsOption,
) -> None:
    """Play your actions (after revealing what waits on you). An action that rolls must be
    your last: its dice need the other player's answer. Nothing is written on an error."""
    from henderson import pbem

    before = _log_length(file)
    done, said = pbem.take_turn(file, secrets, actions)
    _report(done, pbem.Secrets.read(secrets).side, said, before, file)


@pbem_app.command("show")
def pbem_show(
    file: Annotated[Path, typer.Argument(metavar="FILE")],
    secrets: SecretsOption,
    last: Annotated[int, typer.Option("--last", help="how many log entries to show")] = 12,
) -> None:
    """The game as your side sees it: the log, the position, whose move it is and, when it is
    yours, your legal actions (after the dice your answer will roll, when one is due)."""
    from henderson import pbem

    ex, mine = pbem.open_exchange(file, secrets)
    side = mine.side
    seen = ex.peek(side, mine.values)
    for entry, read in seen.log[-last:] if last > 0 else []:
        shown = read[side]
        out.print(f"{entry.ply + 1:4d} {entry.player:>6}: {shown['action']}", markup=False)
        for ev in shown["events"]:
            out.print(f"        {ev.get('text', '')}", markup=False)
    if seen.state is not None:
        out.print(seen.game.render_text(seen.state, side), markup=False)
    if seen is not ex and ex.pending is not None:
        out.print(f"(with the dice of {ex.pending.what()}, which your answer rolls)", markup=False)
    out.print(f"you play {side}; {seen.status()}", markup=False)
    if seen.state is not None and seen.waiting_for() == side and seen.pending is None and seen.joined:
        acts = [str(a) for a in seen.state.legal_actions()]
        out.print(f"{len(acts)} legal actions:", markup=False)
        for a in acts:
            out.print(f"  {a}", markup=False)


def _log_length(file: Path) -> int:
    try:
        from henderson import pbem

        return len(pbem.Exchange.load(pbem.read_text(file)).log)
    except HendersonError:
        return 0


def _report(done: Any, side: str, said: list[str], before: int, file: Path) -> None:
    """What a turn at the exchange did, what the dice did, and whom to send the file to."""
    for line in said:
        out.print(line, markup=False)
    for _entry, read in done.log[before:]:
        shown = read[side]
        out.print(f"  {shown['player']}: {shown['action']}", markup=False)
        for ev in shown["events"]:
            out.print(f"     {ev.get('text', '')}", markup=False)
    waiting = done.waiting_for()
    out.print(done.status(), markup=False)
    if waiting is None:
        out.print(f"wrote {file}: send it to the other player (henderson verify {file} checks every die)")
    elif waiting == side:
        out.print(f"wrote {file}: it is still yours to play (henderson pbem show {file} --secrets …)")
    else:
        out.print(f"wrote {file}: send it to {waiting}'s player")


_register_command_groups()


def main() -> None:
    """Entry point: run the app; input errors become one line on stderr and exit 2."""
    try:
        code = app(standalone_mode=False)
        if isinstance(code, int) and code:  # a command's typer.Exit(code), e.g. a record that fails to verify
            sys.exit(code)
    except HendersonError as exc:
        for line in str(exc).splitlines() or ["error"]:
            err.print(f"henderson: {line}", markup=False)
        sys.exit(2)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        err.print("henderson: aborted")
        sys.exit(130)
    except KeyboardInterrupt:
        err.print("henderson: interrupted")
        sys.exit(130)
    except Exception as exc:  # a usage error from the command parser, or a bug: never a traceback by default
        if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):
            err.print(f"henderson: {exc.format_message()} (see henderson --help)", markup=False)
            sys.exit(2)
        if os.environ.get("HENDERSON_DEBUG"):
            raise
        err.print(f"henderson: internal error: {exc!r} (set HENDERSON_DEBUG=1 for details)", markup=False)
        sys.exit(1)


if __name__ == "__main__":
    main()
