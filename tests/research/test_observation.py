"""Observation tensors per seat from that seat's view only, with the documented sections, and
perfect-recall information-state strings."""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from henderson import games
from henderson.research.match import Match
from henderson.research.observation import PREFIX_LENGTH_CAP, Observer
from tests.research.conftest import GAMES, random_positions

DOCS = Path(__file__).resolve().parents[2] / "docs" / "research.md"


def _observer(name: str) -> tuple[Any, Observer]:
    game = games.get(name)
    match = Match(game, 1)
    return game, Observer(game, match.space.size)


@pytest.mark.parametrize("name", GAMES)
def test_the_tensor_has_the_documented_sections(name: str) -> None:
    game, observer = _observer(name)
    match = Match(game, 1)
    vector = observer.tensor(match, game.sides[0])
    assert vector.dtype == np.float32 and vector.shape == (observer.spec.size,)
    parts = observer.spec.unflatten(vector)
    assert [s.name for s in observer.spec.sections] == list(parts)
    assert sum(s.size for s in observer.spec.sections) == observer.spec.size
    # docs/research.md lists every section with its shape, as the code makes it
    text = DOCS.read_text(encoding="utf-8")
    for section in observer.spec.sections:
        shape = "(" + ", ".join(str(n) for n in section.shape) + ("," if len(section.shape) == 1 else "") + ")"
        pattern = rf"\| *`{re.escape(section.name)}` *\| *`{re.escape(shape)}`"
        if section.name.startswith("prefix_") or section.name in ("seat", "to_act"):
            continue  # the shared sections are listed once, in words
        assert re.search(pattern, text), f"docs/research.md does not list {name} {section.name} {shape}"


@pytest.mark.parametrize("name", GAMES)
def test_every_unit_in_view_is_counted_and_no_value_falls_outside_the_data(name: str) -> None:
    game, observer = _observer(name)
    for state in random_positions(name, 300)[::10]:
        match = Match(game, state=state)
        for side in game.sides:
            view = state.view(side)
            parts = observer.spec.unflatten(observer.tensor(match, side))
            assert np.isfinite(parts[next(iter(parts))]).all()
            assert (observer.tensor(match, side) >= 0).all()
            assert _counted(name, observer, parts) == _units_in_view(name, game, view, observer)
    assert observer.board.other_hits() == 0, "a step, kind or place the data does not list"


def _units_in_view(name: str, game: Any, view: dict[str, Any], observer: Observer) -> int:
    if name == "firstblood":
        cells = observer.board.cell  # type: ignore[attr-defined]
        return sum(1 for at in view["ground"].values() if at in cells)
    if name == "deluxe":
        cells = observer.board.cell  # type: ignore[attr-defined]
        return sum(1 for u in view["units"].values() if u.get("at") in cells)
    return len(view["pieces"])


def _counted(name: str, observer: Observer, parts: dict[str, np.ndarray]) -> int:
    board = observer.board
    if name == "aag":
        wanted = [
            i
            for i, f in enumerate(board.area_features)
            if f.split()[1:2]
            and f.split()[0] in ("us", "jp")
            and f.split()[1] not in ("damaged", "aboard", "moved", "airfields")
        ]  # type: ignore[attr-defined]
        return round(parts["areas"][:, wanted].sum())
    kinds = board.kinds if name == "firstblood" else board.types  # type: ignore[attr-defined]
    channels = [f"{s} {k}" for s in ("us", "jp") for k in [*kinds.names, "other"]]
    index = [board.hex_channels.index(c) for c in channels]  # type: ignore[attr-defined]
    return round(parts["hexes"][index].sum())


@pytest.mark.parametrize("name", ["deluxe", "aag"])
def test_the_tensor_reads_only_what_the_seat_sees(name: str) -> None:
    game, observer = _observer(name)
    rng = random.Random(5)
    for state in random_positions(name, 400)[::40]:
        for side in game.sides:
            guess = state.sample_unseen(side, rng)
            assert guess.view(side) == state.view(side)
            a = observer.tensor(Match(game, state=state), side)
            b = observer.tensor(Match(game, state=guess), side)
            assert np.array_equal(a, b)


def test_the_tensor_asks_the_position_for_nothing_but_the_view() -> None:
    game, observer = _observer("aag")
    real = Match(game, 2)

    class OnlyView:
        def view(self, side: str) -> dict[str, Any]:
            return real.state.view(side)

        def __getattr__(self, name: str) -> Any:
            raise AssertionError(f"the observation read state.{name}")

    class Stub:
        state = OnlyView()
        prefix = ()
        space = real.space

        def current_player(self) -> str:
            return "jp"

    assert np.array_equal(observer.tensor(Stub(), "us"), observer.tensor(real, "us"))  # type: ignore[arg-type]


def test_the_action_being_chosen_is_seen_by_its_chooser_only_where_information_is_hidden() -> None:
    for name in ("aag", "firstblood"):
        game, observer = _observer(name)
        match = Match(game, 3)
        chooser = str(match.current_player())
        other = next(s for s in game.sides if s != chooser)
        token = match.legal_tokens()[-1]
        before_other = observer.information_state_string(match, other)
        match.step(token)
        mine = observer.spec.unflatten(observer.tensor(match, chooser))
        assert mine["prefix_bag"][token] == 1 and mine["prefix_last"][token] == 1
        assert mine["prefix_length"][1] == 1 and mine["prefix_length"].sum() == 1
        theirs = observer.spec.unflatten(observer.tensor(match, other))
        hidden = game.hidden_information
        assert (theirs["prefix_bag"].sum() == 0) == hidden
        assert (observer.information_state_string(match, other) == before_other) == hidden
    assert PREFIX_LENGTH_CAP >= 8


def test_information_state_strings_have_perfect_recall() -> None:
    game, observer = _observer("deluxe")
    match = Match(game, 4)
    rng = random.Random(6)
    seen: dict[str, list[tuple[str, int]]] = {s: [] for s in game.sides}
    for _ in range(300):
        for side in game.sides:
            seen[side].append((observer.information_state_string(match, side), len(match.record.entries)))
        match.step(rng.choice(match.legal_tokens()))
    assert len(match.record.entries) > 20
    for side in game.sides:
        strings = seen[side]
        lines = strings[-1][0].splitlines()
        assert lines[0].startswith(f"henderson deluxe {game.data_version} seat {side}")
        # the record as this seat read it, entry by entry, then its view
        count = strings[-1][1]
        assert lines[1 : 1 + count] == match.log_lines(side)[:count]
        # what a seat knew is never forgotten: each string's record begins the next one's
        for (earlier, n), (later, _) in itertools.pairwise(strings):
            assert later.splitlines()[1 : 1 + n] == earlier.splitlines()[1 : 1 + n]
    us, jp = (observer.information_state_string(match, s) for s in game.sides)
    assert us != jp


# fields of version-1 positions an encoder still reads when a version-2 view lacks them
OLD_FIELDS = {"firstblood": {"movement", "phase"}, "deluxe": {"flags"}, "aag": set()}


class _Recorder(dict):  # type: ignore[type-arg]
    """A view that notes every field asked for, and those it did not have."""

    def __init__(self, data: dict[str, Any], asked: set[str], missing: set[str]) -> None:
        super().__init__(data)
        self.asked, self.missing = asked, missing

    def get(self, key: Any, default: Any = None) -> Any:
        self.asked.add(key)
        if key not in self:
            self.missing.add(key)
        return super().get(key, default)

    def __getitem__(self, key: Any) -> Any:
        self.asked.add(key)
        return super().__getitem__(key)


class _Watched:
    """A match whose position hands out recording views."""

    def __init__(self, real: Match, asked: set[str], missing: set[str]) -> None:
        self.real, self.prefix, self.space = real, real.prefix, real.space
        self.asked, self.missing = asked, missing
        self.state = self

    def view(self, side: str) -> dict[str, Any]:
        return _Recorder(self.real.state.view(side), self.asked, self.missing)

    def current_player(self) -> str | None:
        return self.real.current_player()


@pytest.mark.parametrize("name", GAMES)
def test_the_encoders_read_fields_the_views_have(name: str) -> None:
    """A field renamed in a game's view would leave its planes at zero: every field an encoder
    asks for is in the views of random play (or is a version-1 field read as a fallback)."""
    game, observer = _observer(name)
    asked: set[str] = set()
    missing: set[str] = set()
    for state in random_positions(name, 300)[::10]:
        watched = _Watched(Match(game, state=state), asked, missing)
        for side in game.sides:
            observer.tensor(watched, side)  # type: ignore[arg-type]
    assert missing <= OLD_FIELDS[name], f"fields not in {name} views: {missing - OLD_FIELDS[name]}"
    assert len(asked) >= 8
