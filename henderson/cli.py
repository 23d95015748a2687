"""The `henderson` command: play, inspect and check the games from a terminal.

Every error caused by input prints one line and exits with status 2.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from henderson import games
from henderson.core.data import load_toml
from henderson.core.errors import HendersonError

app = typer.Typer(
    help="Guadalcanal board wargames with every rule enforced.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
data_app = typer.Typer(help="Check game data files.", no_args_is_help=True)
app.add_typer(data_app, name="data")

out = Console(highlight=False)
err = Console(stderr=True, highlight=False)


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
    out.print(f"{name}: data {game.data_version} in {game.data_dir} is valid")


def main() -> None:
    """Entry point: run the app; input errors become one line on stderr and exit 2."""
    try:
        app(standalone_mode=False)
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
    except Exception as exc:  # a click usage error or a bug: never a traceback by default
        import click

        if isinstance(exc, click.ClickException):
            exc.show()
            sys.exit(2)
        if os.environ.get("HENDERSON_DEBUG"):
            raise
        err.print(f"henderson: internal error: {exc!r} (set HENDERSON_DEBUG=1 for details)", markup=False)
        sys.exit(1)


if __name__ == "__main__":
    main()
