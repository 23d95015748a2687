"""The game renderers read actions as structured values (the state message's `actions`, through
the shared `js/actions.js`), never by parsing notation: no splitting an action into words, no
matching a verb at the start of its text."""

from __future__ import annotations

import re
from pathlib import Path

import henderson

WEB = Path(henderson.__file__).parent / "web"
RENDERERS = sorted((WEB / "games").glob("*.js"))
# the ways to parse notation: split on blanks, a verb matched at the start of the text
PARSING = (
    re.compile(r"\.split\(\s*/\\s\+?/\s*\)"),
    re.compile(r"""\.split\(\s*["'] ["']\s*\)"""),
    re.compile(r"""\.startsWith\(\s*["`'][a-z_-]+ ["`']\s*\)"""),
    re.compile(r"""\.startsWith\(\s*["`'](?:move|lose|add|attack|buy|stack|with|guerrilla)["`']\s*\)"""),
)
# file -> lines allowed to read notation, each with its reason
ALLOWED = {
    # a log entry holds its action as notation only (the record), not as a structured value
    "deluxe.js": ['const choosing = next ? String(next.action).startsWith("lose ")'],
}


def parses(line: str) -> bool:
    return any(p.search(line) for p in PARSING)


def test_the_patterns_catch_notation_parsing() -> None:
    for line in (
        "const w = action.split(/\\s+/);",
        'a.startsWith("move ")',
        "a.split(' ')",
        'a.startsWith("guerrilla")',
    ):
        assert parses(line), line
    for line in ('String(view.step).startsWith("regroup")', "arg(a, 'to')", 'filter.split(",")'):
        assert not parses(line), line


def test_no_renderer_parses_notation() -> None:
    assert {p.name for p in RENDERERS} >= {"firstblood.js", "deluxe.js", "aag.js"}
    found = []
    for path in RENDERERS:
        allowed = ALLOWED.get(path.name, [])
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if parses(line) and not any(a in line for a in allowed):
                found.append(f"{path.name}:{number}: {line.strip()}")
    assert not found, "parse the structured action instead:\n" + "\n".join(found)


def test_every_allowed_line_is_still_there() -> None:
    for name, lines in ALLOWED.items():
        text = (WEB / "games" / name).read_text()
        assert all(line in text for line in lines), name


def test_the_board_renderers_share_one_action_helper() -> None:
    for name in ("firstblood.js", "deluxe.js", "aag.js"):
        assert 'from "../js/actions.js"' in (WEB / "games" / name).read_text(), name
