"""JSON Schemas of what henderson reads from outside: each game's position and the two kinds
of line of a record (its header, an action). They are made from the same declarations the
readers check against (`core.fields`, the sequence kit's fields, the record's limits), so
that a tool can check a file before sending it; the readers stay the authority (they also
check what a schema cannot say: a unit's hex exists, a side is where it may be).

`python -m henderson.core.schemas DIR` writes them as `DIR/*.schema.json` (the published
copies are in docs/schemas; a test keeps them current).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from henderson import games
from henderson.core import record as rec
from henderson.core import sealed
from henderson.core.dice import MAX_SCRIPTED, SEED_LIMIT
from henderson.core.fields import Layout
from henderson.core.position import FORMAT

DRAFT = "https://json-schema.org/draft/2020-12/schema"
SEQUENCED_GAMES = ("firstblood", "deluxe", "aag")


def dice_schema(faces: int) -> dict[str, Any]:
    """A position's stored dice: seeded (seed and state 0..2**64-1) or scripted (dice 1..faces)."""
    return {
        "oneOf": [
            {"type": "null"},
            {
                "type": "object",
                "properties": {
                    "kind": {"const": "seeded"},
                    "seed": {"type": "integer", "minimum": 0, "maximum": SEED_LIMIT - 1},
                    "state": {"type": ["integer", "null"], "minimum": 0, "maximum": SEED_LIMIT - 1},
                },
                "required": ["kind", "seed"],
                "additionalProperties": False,
            },
            {
                "type": "object",
                "properties": {
                    "kind": {"const": "scripted"},
                    "values": {
                        "type": "array",
                        "maxItems": MAX_SCRIPTED,
                        "items": {"type": "integer", "minimum": 1, "maximum": faces},
                    },
                },
                "required": ["kind", "values"],
                "additionalProperties": False,
            },
        ]
    }


def position_schema(name: str) -> dict[str, Any]:
    """The schema of a position of game `name`: the shared header and the sequence kit's
    fields (`core.sequence`), then the game's declared fields (`core.fields`)."""
    game = games.get(name)
    cls: Any = type(game.new_state(1))
    plan = game.sequence()
    declared = Layout.of(cls).schema()
    kit: dict[str, Any] = {
        "format": {"const": FORMAT},
        "game": {"const": game.name},
        "version": {"const": cls.VERSION},
        "data_version": {"type": "string", "description": "the content hash of the data it was written for"},
        "turn": {"type": "integer", "minimum": 1, "maximum": 10_000},
        "step": {"enum": sorted({entry[0].id for entry in plan.entries})},
        "half": {"type": "integer", "minimum": 0, "maximum": 1},
        "entered": {"type": "boolean", "description": "the step's entry work is done"},
        "ply": {"type": "integer", "minimum": 0, "maximum": 10**9},
        "seed": {"type": ["integer", "null"], "minimum": 0, "maximum": 2**63 - 1},
        "options": {
            "type": "object",
            "properties": {option: {"type": "boolean"} for option in game.options},
            "additionalProperties": False,
        },
        "result": {
            "oneOf": [
                {"type": "null"},
                {
                    "type": "object",
                    "properties": {"winner": {"enum": [*game.sides, None]}, "cause": {"type": "string"}},
                    "additionalProperties": False,
                },
            ]
        },
        "dice": dice_schema(game.die_faces),
    }
    return {
        "$schema": DRAFT,
        "$id": f"position-{name}.schema.json",
        "title": f"{game.title}: a position (version {cls.VERSION})",
        "type": "object",
        "properties": {**kit, **declared["properties"]},
        "required": ["format", "game", "version"],
        "additionalProperties": False,
    }


def _die() -> dict[str, Any]:
    return {"type": "integer", "minimum": 1, "maximum": 1000}


def record_header_schema() -> dict[str, Any]:
    """The first line of a record (`GameRecord.loads`)."""
    name = {"type": "string", "minLength": 1, "maxLength": rec.MAX_NAME}
    dice_list = {"type": "array", "maxItems": rec.MAX_DICE, "items": _die()}
    return {
        "$schema": DRAFT,
        "$id": "record-header.schema.json",
        "title": "a henderson record's first line: the header",
        "type": "object",
        "properties": {
            "format": {"const": rec.RECORD_FORMAT},
            "version": {"const": rec.RECORD_VERSION},
            "game": name,
            "data_version": name,
            "seed": {"type": ["integer", "null"], "minimum": 0, "maximum": SEED_LIMIT - 1},
            "options": {"type": ["object", "null"]},
            "players": {"type": ["object", "null"], "additionalProperties": name},
            "start": {"type": ["object", "null"], "description": "a position of the game (position-GAME.schema.json)"},
            "setup_dice": {**dice_list, "type": ["array", "null"]},
            "dice": {
                "type": ["object", "null"],
                "description": "a server's commitment to its secret dice (docs/server.md)",
                "properties": {
                    "scheme": {"const": rec.SCHEME},
                    "commitment": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
                    "setup": {"type": "boolean"},
                    "from_entry": {"type": "integer", "minimum": 0},
                    "contributions": {"type": "array"},
                    "secret": {"type": ["string", "null"], "pattern": "^[0-9a-f]{32,128}$"},
                },
                "required": ["scheme", "commitment"],
            },
            "meta": {
                "type": ["object", "null"],
                "description": "free-form notes; a server's seat copy marks itself in seat_copy",
                "properties": {"seat_copy": _seat_copy()},
            },
        },
        "required": ["format", "version", "game", "data_version"],
        "additionalProperties": False,
    }


def _seat_copy() -> dict[str, Any]:
    """`meta.seat_copy` of a server's seat copy (docs/server.md): the seat, a note, and for a
    side's seat its share of the key and the whole record sealed (henderson/core/sealed.py)."""
    hexa = {"type": "string", "pattern": "^[0-9a-f]+$"}
    return {
        "type": "object",
        "properties": {
            "side": {"type": "string"},
            "note": {"type": "string"},
            "share": {**hexa, "minLength": 2 * sealed.KEY_BYTES, "maxLength": 2 * sealed.KEY_BYTES},
            "sealed": {
                "type": "object",
                "properties": {
                    "scheme": {"const": sealed.SCHEME},
                    "match": {"type": "string"},
                    "entries": {"type": "integer", "minimum": 0},
                    "nonce": {**hexa, "minLength": 2 * sealed.NONCE_BYTES, "maxLength": 2 * sealed.NONCE_BYTES},
                    "mac": {**hexa, "minLength": 64, "maxLength": 64},
                    "ciphertext": {"type": "string", "contentEncoding": "base64"},
                },
                "required": ["scheme", "match", "entries", "nonce", "mac", "ciphertext"],
            },
        },
        "required": ["side", "note"],
    }


def record_entry_schema() -> dict[str, Any]:
    """Each line after the first of a record: one action (`GameRecord.loads`)."""
    event = {
        "type": "object",
        "properties": {
            "kind": {"type": "string"},
            "text": {"type": "string", "maxLength": rec.MAX_TEXT},
            "data": {"type": "object"},
        },
        "required": ["kind"],
        "additionalProperties": False,
    }
    return {
        "$schema": DRAFT,
        "$id": "record-entry.schema.json",
        "title": "a henderson record's action line",
        "type": "object",
        "properties": {
            "ply": {"type": "integer", "minimum": 0, "description": "the entry's number, from 0"},
            "player": {"type": "string", "maxLength": rec.MAX_NAME},
            "action": {"type": "string", "maxLength": rec.MAX_TEXT},
            "events": {"type": "array", "items": event},
            "dice": {"type": "array", "maxItems": rec.MAX_DICE, "items": _die()},
        },
        "required": ["player", "action"],
        "additionalProperties": False,
    }


def published() -> dict[str, dict[str, Any]]:
    """Every published schema by file name."""
    out = {f"position-{name}.schema.json": position_schema(name) for name in SEQUENCED_GAMES}
    out["record-header.schema.json"] = record_header_schema()
    out["record-entry.schema.json"] = record_entry_schema()
    return out


def text_of(schema: dict[str, Any]) -> str:
    """A schema as its published file's text."""
    return json.dumps(schema, indent=1, sort_keys=True) + "\n"


def write(directory: Path) -> list[Path]:
    """Write every published schema into `directory`; the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for file, schema in published().items():
        path = directory / file
        path.write_text(text_of(schema), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/schemas")):
        print(f"wrote {path}")
