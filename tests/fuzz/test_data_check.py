"""`henderson data check` on broken data directories: absurd counts refused before anything is
built, unknown tables and keys refused, a file cut short refused with one line naming it."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from henderson import games
from tests.fuzz.support import cli_run


def data_copy(tmp_path: Path, name: str) -> Path:
    target = tmp_path / name
    shutil.copytree(games.get(name).data_dir, target)
    return target


def check(monkeypatch: Any, capsys: Any, directory: Path) -> tuple[int, str]:
    code, _, err = cli_run(monkeypatch, capsys, "data", "check", str(directory))
    assert "Traceback" not in err and "internal error" not in err, err
    return code, err


@pytest.mark.parametrize(
    ("name", "file", "old", "new", "named"),
    [
        ("firstblood", "turns.toml", "F4F = 3", "F4F = 100000000", "air.F4F"),
        ("deluxe", "units.toml", "arrival = 10\n", "arrival = 100000000\n", "arrival"),
        ("aag", "advantages.toml", "count = 2", "count = 100000000", "count"),
    ],
)
def test_absurd_counts_are_refused(
    name: str, file: str, old: str, new: str, named: str, monkeypatch: Any, capsys: Any, tmp_path: Path
) -> None:
    directory = data_copy(tmp_path, name)
    path = directory / file
    assert old in path.read_text()
    path.write_text(path.read_text().replace(old, new, 1))
    code, err = check(monkeypatch, capsys, directory)
    assert code == 2 and f"{file}:" in err and named in err and "100000000" in err


@pytest.mark.parametrize(
    ("name", "file", "extra"),
    [
        ("firstblood", "map.toml", "\n[narnia]\nx = 1\n"),
        ("firstblood", "counters.toml", "\nnarnia = 1\n"),
        ("deluxe", "map.toml", "\n[narnia]\nx = 1\n"),
        ("deluxe", "turns.toml", "\nnarnia = 1\n"),
        ("deluxe", "terrain.toml", "\nnarnia = 3\n"),
        ("deluxe", "game.toml", "\nnarnia = 3\n"),
        ("aag", "units.toml", "\nnarnia = 3\n"),
        ("aag", "board.toml", "\n[narnia]\nx = 1\n"),
    ],
)
def test_unknown_tables_and_keys_are_refused(
    name: str, file: str, extra: str, monkeypatch: Any, capsys: Any, tmp_path: Path
) -> None:
    directory = data_copy(tmp_path, name)
    path = directory / file
    path.write_text(path.read_text() + extra)
    code, err = check(monkeypatch, capsys, directory)
    assert code == 2 and f"{file}:" in err and "narnia" in err, err


@pytest.mark.parametrize(
    ("name", "file"), [("deluxe", "terrain.toml"), ("firstblood", "map.toml"), ("aag", "board.toml")]
)
def test_a_file_cut_in_half_is_refused_in_one_line(
    name: str, file: str, monkeypatch: Any, capsys: Any, tmp_path: Path
) -> None:
    directory = data_copy(tmp_path, name)
    path = directory / file
    data = path.read_bytes()
    cut = data[: len(data) // 2]
    if cut.endswith(b"\n"):
        cut = cut[:-1]
    path.write_bytes(cut)
    code, err = check(monkeypatch, capsys, directory)
    assert code == 2 and file in err, err
    assert len(err.strip().splitlines()) == 1, err


def test_the_shipped_data_is_valid(monkeypatch: Any, capsys: Any) -> None:
    for name in ("firstblood", "deluxe", "aag"):
        code, out, err = cli_run(monkeypatch, capsys, "data", "check", name)
        assert code == 0 and "valid" in out, err
