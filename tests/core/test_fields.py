"""Declared position fields (`core.fields`): what is declared once round-trips through JSON,
clones independently, keys equal exactly when the positions are equal, and every bad value
is refused with the field's path."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from henderson.core.data import Collector, check_source, read_records
from henderson.core.errors import PositionError
from henderson.core.fields import Layout, field, kept, replaced


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass
class Unit:
    at: str
    strength: int = field(1, lo=0, hi=4)
    tags: set[str] = field(factory=set)


@dataclass
class Note:
    kind: ClassVar[str] = ""
    side: str


@dataclass
class Loss(Note):
    kind: ClassVar[str] = "loss"
    count: int = field(0, lo=0, hi=9)


@dataclass
class Retreat(Note):
    kind: ClassVar[str] = "retreat"
    units: list[str] = field(factory=list)


def _known_hex(context: Any, value: str | None, where: str) -> None:
    if value is not None and not value.isdigit():
        raise PositionError(where, f"{value!r} is not a hex")


@dataclass(eq=False)
class Sample:
    count: int = field(0, lo=0, hi=100)
    name: str = "x"
    flag: bool = False
    colour: Colour = Colour.RED
    mode: Literal["a", "b"] = "a"
    target: str | None = field(None, check=_known_hex)
    units: dict[str, Unit] = field(factory=dict)
    seen: frozenset[str] = frozenset()
    order: list[int] = field(factory=list, lo=0, hi=50)
    notes: list[Note] = field(factory=list)
    memo: dict[str, int] = field(factory=dict, cache="reset")
    label: str = field("", json="label_text")


units = st.builds(
    Unit,
    at=st.sampled_from(["0101", "0202", "A"]),
    strength=st.integers(0, 4),
    tags=st.sets(st.sampled_from(["x", "y", "z"])),
)
notes = st.one_of(
    st.builds(Loss, side=st.sampled_from(["us", "jp"]), count=st.integers(0, 9)),
    st.builds(Retreat, side=st.sampled_from(["us", "jp"]), units=st.lists(st.text("ab/1", max_size=4), max_size=3)),
)
samples = st.builds(
    Sample,
    count=st.integers(0, 100),
    name=st.text(max_size=10),
    flag=st.booleans(),
    colour=st.sampled_from(Colour),
    mode=st.sampled_from(["a", "b"]),
    target=st.one_of(st.none(), st.sampled_from(["0101", "0909"])),
    units=st.dictionaries(st.sampled_from(["1/1", "2/1", "3/1"]), units, max_size=3),
    seen=st.frozensets(st.sampled_from(["p", "q"])),
    order=st.lists(st.integers(0, 50), max_size=5),
    notes=st.lists(notes, max_size=3),
    memo=st.just({}),
    label=st.text(max_size=5),
)
LAYOUT = Layout.of(Sample)


def dumped(obj: Sample) -> dict[str, Any]:
    return json.loads(json.dumps(LAYOUT.dump(obj)))


@given(samples)
@settings(max_examples=200, deadline=None)
def test_a_position_round_trips_through_json(obj: Sample) -> None:
    again = LAYOUT.load(dumped(obj), object())
    assert LAYOUT.dump(again) == LAYOUT.dump(obj)
    assert LAYOUT.key(again) == LAYOUT.key(obj)


@given(samples, samples)
@settings(max_examples=200, deadline=None)
def test_keys_are_equal_exactly_when_the_positions_are(a: Sample, b: Sample) -> None:
    assert (LAYOUT.key(a) == LAYOUT.key(b)) == (dumped(a) == dumped(b))
    hash(LAYOUT.key(a))


@given(samples)
@settings(max_examples=100, deadline=None)
def test_a_clone_is_independent(obj: Sample) -> None:
    obj.memo["cached"] = 1
    before = dumped(obj)
    copy = LAYOUT.clone(obj)
    assert dumped(copy) == before and copy.memo == {}  # a cache starts afresh
    assert copy.notes is not obj.notes and copy.units is not obj.units  # empty ones too
    assert type(copy.notes) is list and type(copy.units) is dict
    copy.count = (copy.count + 1) % 100
    copy.units["9/9"] = Unit("0303")
    for unit in copy.units.values():
        unit.tags.add("changed")
    copy.order.append(1)
    copy.notes.append(Loss("us", 1))
    for note in copy.notes:
        note.side = "zz"
    assert dumped(obj) == before


def test_sets_are_written_sorted_and_names_as_declared() -> None:
    obj = Sample(seen=frozenset({"q", "p"}), label="L")
    out = LAYOUT.dump(obj)
    assert out["seen"] == ["p", "q"] and out["label_text"] == "L" and "memo" not in out
    assert out["colour"] == "red"


@pytest.mark.parametrize(
    ("change", "where", "says"),
    [
        ({"count": 101}, "count", "0..100"),
        ({"count": True}, "count", "integer"),
        ({"count": "3"}, "count", "integer"),
        ({"name": 7}, "name", "text"),
        ({"flag": "yes"}, "flag", "true or false"),
        ({"colour": "green"}, "colour", "not one of"),
        ({"mode": "c"}, "mode", "not one of"),
        ({"target": "narnia"}, "target", "not a hex"),
        ({"units": {"1/1": {"at": "0101", "strength": 5}}}, "units.1/1.strength", "0..4"),
        ({"units": {"1/1": {"strength": 1}}}, "units.1/1.at", "missing"),
        ({"units": {"1/1": {"at": "0101", "colour": "x"}}}, "units.1/1.colour", "unknown field"),
        ({"units": []}, "units", "object"),
        ({"seen": ["p", "p"]}, "seen", "twice"),
        ({"order": [1, 51]}, "order[1]", "0..50"),
        ({"notes": [{"kind": "rout", "side": "us"}]}, "notes[0].kind", "expected one of loss, retreat"),
        ({"notes": [{"kind": "loss", "side": "us", "count": -1}]}, "notes[0].count", "0..9"),
        ({"notes": [{"kind": "loss"}]}, "notes[0].side", "missing"),
    ],
)
def test_a_bad_value_is_refused_naming_its_field(change: dict[str, Any], where: str, says: str) -> None:
    obj = {**dumped(Sample()), **change}
    with pytest.raises(PositionError) as info:
        LAYOUT.load(obj, object())
    assert info.value.where == where and says in info.value.message


def test_unknown_fields_are_found() -> None:
    assert LAYOUT.unknown({"count": 1, "narnia": 2}) == "narnia"
    assert LAYOUT.unknown({"count": 1}) is None


def test_missing_fields_take_their_defaults() -> None:
    obj = LAYOUT.load({}, object())
    assert LAYOUT.dump(obj) == LAYOUT.dump(Sample())


def test_the_schema_describes_the_declared_fields() -> None:
    schema = LAYOUT.schema()
    assert schema["additionalProperties"] is False
    props = schema["properties"]
    assert props["count"] == {"type": "integer", "minimum": 0, "maximum": 100}
    assert props["colour"] == {"enum": ["red", "blue"]}
    assert props["seen"]["uniqueItems"] is True
    kinds = {o["properties"]["kind"]["const"] for o in props["notes"]["items"]["oneOf"]}
    assert kinds == {"loss", "retreat"}
    assert "memo" not in props and "label_text" in props


@dataclass(frozen=True, kw_only=True)
class Counter:
    id: str
    strength: int = field(lo=1, hi=9)
    kind: Literal["infantry", "artillery"] = "infantry"
    source: str = field(check=check_source)


def test_data_records_are_read_by_their_declared_fields_and_every_problem_reported() -> None:
    col = Collector()
    items = [
        {"id": "1/1", "strength": 3, "source": "rule DG 2.2"},
        {"id": "2/1", "strength": 12, "source": "rule DG 2.2"},
        {"id": "3/1", "strength": 2, "kind": "tank", "source": "design: x"},
        {"id": "4/1", "strength": 2, "source": "a guess"},
        {"id": "5/1", "strength": 2, "source": "rule DG 1", "colour": "red"},
    ]
    found = read_records(col, "units.toml", items, Counter)
    assert [c.id for c in found] == ["1/1"]
    assert [str(e) for e in col.errors] == [
        "units.toml: 2/1: strength: expected an integer 1..9, got 12",
        "units.toml: 3/1: kind: 'tank' is not one of 'infantry', 'artillery'",
        "units.toml: 4/1: source: 'a guess' is not 'rule FB|DG|AAG <n>', 'history: <note>' or 'design: <reason>'",
        "units.toml: 5/1: colour: unknown field",
    ]


def test_a_kept_value_is_found_once_per_object_and_dropped_by_a_changed_copy() -> None:
    """`kept` reads like `functools.cached_property`: found on the first read from the object
    alone, then read from the object's attributes, also on a frozen record; a copy made by
    `replaced` that drops it finds it again from its own fields."""
    calls: list[int] = []

    @dataclass(frozen=True)
    class Point:
        x: int

        @kept
        def double(self) -> int:
            calls.append(self.x)
            return 2 * self.x

    p = Point(3)
    assert (p.double, p.double, calls) == (6, 6, [3])
    assert isinstance(Point.double, kept) and "double" in p.__dict__
    q = replaced(p, x=5)
    q.__dict__.pop("double")
    assert (q.double, calls) == (10, [3, 5])
