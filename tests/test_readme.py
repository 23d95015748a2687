"""The README's own Python example, run as written for each game: it must finish a game
(always taking the first legal action ends every game: no cycle of free actions)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


def example() -> str:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    found = [b for b in blocks if "legal_actions()[0]" in b]
    assert len(found) == 1, "the README has one Python example that plays the first legal action"
    return found[0]


@pytest.mark.parametrize("name", ["firstblood", "deluxe", "aag"])
def test_the_readme_example_finishes_a_game(name: str) -> None:
    code = example()
    assert '"firstblood"' in code
    run = subprocess.run(
        [sys.executable, "-c", code.replace('"firstblood"', f'"{name}"')],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() in ("us", "jp", "None"), run.stdout[-500:]
