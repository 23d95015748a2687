"""The rules reference served to the browser: each section of a game's rulebook.toml (titles
and summaries in the project's own words, henderson.rules_reference), so that a citation in
the log or in a refusal opens a short explanation."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from henderson.rules_reference import GAMES, rulebook
from henderson.server.matches import game_named

router = APIRouter()

PREFIXES = {name: prefix for prefix, name in GAMES.items()}
"""A game's name and the prefix its citations carry (firstblood: FB)."""


@router.get("/api/games/{name}/rules", tags=["games"])
async def rules(name: str) -> dict[str, Any]:
    """The game's rules reference: its citation prefix and every section (id, title, summary,
    other names the code cites it by); none for a game without one."""
    game_named(name)  # an unknown game is a 404
    prefix = PREFIXES.get(name)
    if prefix is None:  # a game without a rules reference (the test games)
        return {"prefix": None, "rules": []}
    return {
        "prefix": prefix,
        "rules": [{"id": r.id, "title": r.title, "text": r.text, "aliases": list(r.aliases)} for r in rulebook(prefix)],
    }
