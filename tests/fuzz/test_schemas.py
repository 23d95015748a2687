"""The published JSON Schemas (docs/schemas) are current, accept what the engine writes and
refuse what the readers refuse among the concrete malformed cases."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from henderson.core import schemas
from tests.fuzz.support import GAMES, header_and_entries, positions, record_text, replaced
from tests.fuzz.test_cases import POSITION_CASES

jsonschema = pytest.importorskip("jsonschema")
PUBLISHED = Path(__file__).resolve().parents[2] / "docs" / "schemas"


def test_the_published_schemas_are_current() -> None:
    found = {path.name for path in PUBLISHED.glob("*.schema.json")}
    made = schemas.published()
    assert found == set(made), "run: python -m henderson.core.schemas docs/schemas"
    for file, schema in made.items():
        assert (PUBLISHED / file).read_text() == schemas.text_of(schema), (
            f"docs/schemas/{file} is out of date: run python -m henderson.core.schemas docs/schemas"
        )


def validator(file: str) -> Any:
    schema = json.loads((PUBLISHED / file).read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize("name", GAMES)
def test_positions_the_engine_writes_conform(name: str) -> None:
    check = validator(f"position-{name}.schema.json")
    for position in positions(name):
        errors = list(check.iter_errors(position))
        assert not errors, errors[0].message


@pytest.mark.parametrize("name", GAMES)
def test_malformed_positions_are_refused_by_the_schema_too(name: str) -> None:
    check = validator(f"position-{name}.schema.json")
    for where, value, _ in POSITION_CASES:
        assert not check.is_valid(replaced(positions(name)[-1], where, value)), (where, value)


@pytest.mark.parametrize("name", GAMES)
def test_records_the_engine_writes_conform(name: str) -> None:
    head, entry = validator("record-header.schema.json"), validator("record-entry.schema.json")
    for from_position in (False, True):
        lines = header_and_entries(record_text(name, from_position))
        assert head.is_valid(lines[0])
        assert all(entry.is_valid(line) for line in lines[1:])
        assert not head.is_valid(replaced(lines[0], ("seed",), 10**80))
        assert not entry.is_valid(replaced(lines[1], ("narnia",), 1))
