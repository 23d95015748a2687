"""The action and observation specs of every game, as Markdown tables (docs/research.md is
written from them): `python -m henderson.research.describe`."""

from __future__ import annotations

import sys

from henderson import games
from henderson.research.actions import action_space
from henderson.research.observation import Observer

GAMES = ("firstblood", "deluxe", "aag")


def tables(name: str) -> str:
    """The token space and the observation sections of game `name`, in Markdown."""
    game = games.get(name)
    space = action_space(game)
    observer = Observer(game, space.size)
    lines = [
        f"### {game.title} (`{name}`)",
        "",
        f"Tokens: **{space.size}** (`{space.version}`, data `{game.data_version}`).",
        "",
        "| kind | token ids | count |",
        "| --- | --- | --- |",
    ]
    for kind, (start, end) in space.vocab.kind_ranges().items():
        lines.append(f"| {kind} | {start}–{end - 1} | {end - start} |")
    lines += [
        "",
        f"Observation: **{observer.spec.size}** floats.",
        "",
        "| section | shape | holds |",
        "| --- | --- | --- |",
    ]
    for section in observer.spec.sections:
        if section.name.startswith("prefix_") or section.name in ("seat", "to_act"):
            continue
        shape = "(" + ", ".join(str(n) for n in section.shape) + ("," if len(section.shape) == 1 else "") + ")"
        lines.append(f"| `{section.name}` | `{shape}` | {section.doc} |")
    for note in space.vocab.notes:
        lines += ["", f"Note: {note}."]
    return "\n".join(lines) + "\n"


def main() -> None:
    names = sys.argv[1:] or list(GAMES)
    print("\n".join(tables(n) for n in names))


if __name__ == "__main__":
    main()
