"""The HTTP API against its own OpenAPI document (schemathesis): every operation, with
generated valid and invalid requests, answers only documented status codes and content
types, never a server error, names every method a path takes in `Allow` on a 405, and
accepts what its schema says is valid.

Two allowances: an uploaded record is a string whose content (JSON Lines of a game) no JSON
Schema can express, so a schema-valid string that is not a record is refused with 422 on
`POST /api/records` (the "valid data accepted" check is left out there). Likewise a battle
calculator's inputs are named by the game in the path, which one schema for every game cannot
say, so a schema-valid input a game does not have is refused with 422 on
`POST /api/games/{name}/calculator`.

HENDERSON_API_EXAMPLES sets the examples per operation (20 under the test command)."""

from __future__ import annotations

import os
import tempfile

import pytest

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.checks import positive_data_acceptance  # noqa: E402

from henderson.server import create_app  # noqa: E402

EXAMPLES = int(os.environ.get("HENDERSON_API_EXAMPLES", "20"))
APP = create_app(f"sqlite:///{tempfile.mkdtemp()}/conformance.sqlite")
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_api_answers_as_its_openapi_document_says(case) -> None:
    lenient = ("/api/records", "/api/games/{name}/calculator")
    excluded = [positive_data_acceptance] if case.path in lenient and case.method.upper() == "POST" else []
    case.call_and_validate(excluded_checks=excluded)
