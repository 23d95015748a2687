"""The API reference is generated from the docstrings, and the researchers' page lists what
the code makes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from henderson.research.describe import GAMES, tables

ROOT = Path(__file__).resolve().parents[2]


def test_the_api_reference_builds_from_the_docstrings(tmp_path: Path) -> None:
    pytest.importorskip("mkdocstrings")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    page = (tmp_path / "site" / "api" / "research" / "index.html").read_text(encoding="utf-8")
    for name in ("ActionSpace", "action_to_index", "legal_action_mask", "ChosenDice", "information_state_string"):
        assert name in page
    assert "ExternalAgent" in (tmp_path / "site" / "api" / "protocol" / "index.html").read_text(encoding="utf-8")


def test_the_researchers_page_holds_the_specs_the_code_prints() -> None:
    text = (ROOT / "docs" / "research.md").read_text(encoding="utf-8")
    for name in GAMES:
        assert tables(name) in text, (
            f"docs/research.md: regenerate the {name} tables (python -m henderson.research.describe)"
        )
