"""The shared path search, zones of control and odds columns (core.paths, core.odds)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from henderson.core.odds import column, ratio
from henderson.core.paths import cheapest, cheapest_costs, cost_steps, zone_of_control

FB_COLUMNS = ("1-2", "1-1", "2-1", "3-1")
DG_COLUMNS = ("1-6", "1-5", "1-4", "1-3", "1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1")


@pytest.mark.parametrize(
    ("attack", "defence", "text", "fb"),
    [
        (7, 3, "2-1", 2),  # fractions dropped against the attacker (FB 8.4)
        (3, 7, "1-3", -1),  # 1-2.33 is 1-3: below the American table (FB 8.6)
        (5, 10, "1-2", 0),
        (9, 2, "4-1", 4),  # above 3-1: FB resolves it on 3-1 with +1
        (6, 6, "1-1", 1),
        (4, 0, "1-0", 4),
        (0, 4, "0-1", -1),
    ],
)
def test_ratios_round_for_the_defender_fb_8_4_and_8_6(attack: int, defence: int, text: str, fb: int) -> None:
    found = ratio(attack, defence)
    assert str(found) == text and column(found, FB_COLUMNS) == fb


def test_dg_columns_run_from_1_6_to_6_1_dg_8_2_1_3() -> None:
    assert column(ratio(1, 6), DG_COLUMNS) == 0
    assert column(ratio(1, 7), DG_COLUMNS) == -1
    assert column(ratio(Fraction(13, 2), 1), DG_COLUMNS) == 10
    assert column(ratio(7, 1), DG_COLUMNS) == 11
    assert column(ratio(Fraction(5, 2), 2), DG_COLUMNS) == DG_COLUMNS.index("1-1")


@given(st.integers(1, 60), st.integers(1, 60))
def test_the_column_never_favours_the_attacker(attack: int, defence: int) -> None:
    i = column(ratio(attack, defence), DG_COLUMNS)
    if 0 <= i < len(DG_COLUMNS):
        a, d = (int(x) for x in DG_COLUMNS[i].split("-"))
        assert Fraction(a, d) <= Fraction(attack, defence)


GRID = {(r, c) for r in range(6) for c in range(6)}


def neighbours(p: tuple[int, int]) -> list[tuple[int, int]]:
    r, c = p
    return [q for q in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)) if q in GRID]


def brute(start: tuple[int, int], cost: dict, budget: int) -> dict:
    """Bellman-Ford on the same graph: the reference for the bucket search."""
    best = {start: 0}
    for _ in range(len(GRID)):
        for p, c in list(best.items()):
            for q in neighbours(p):
                t = c + cost[q]
                if t <= budget and t < best.get(q, budget + 1):
                    best[q] = t
    return best


@given(st.integers(0, 10_000), st.integers(0, 12))
@settings(max_examples=60, deadline=None)
def test_the_bucket_search_finds_the_cheapest_costs(seed: int, budget: int) -> None:
    rng = random.Random(seed)
    cost = {p: rng.randint(0, 3) for p in GRID}
    found = cheapest({(0, 0): 0}, lambda p, c: [(q, cost[q], False, None) for q in neighbours(p)], budget)
    assert found.cost == brute((0, 0), cost, budget)
    unbounded = cheapest({(0, 0): 0}, lambda p, c: [(q, cost[q], False, None) for q in neighbours(p)])
    assert {p: c for p, c in unbounded.cost.items() if c <= budget} == found.cost
    for p in found.cost:
        route = found.route(p)
        assert route[0] == (0, 0) and route[-1] == p
        assert sum(cost[q] for q in route[1:]) == found.cost[p]


@given(st.integers(0, 10_000), st.integers(-1, 12), st.integers(0, 2))
@settings(max_examples=60, deadline=None)
def test_the_search_over_a_table_gives_the_same_paths(seed: int, budget: int, extra: int) -> None:
    # stops, tags and the start's own steps included: the same places, costs, parents and
    # tags, in the same order, as the search that asks for the steps place by place
    from henderson.core.paths import cheapest_from, split_steps

    rng = random.Random(seed)
    cost = {p: rng.randint(0, 3) for p in GRID}
    stop = {p: rng.random() < 0.2 for p in GRID}

    def out(p: tuple[int, int]) -> list[tuple[tuple[int, int], int, bool, bool]]:
        return [(q, cost[q], stop[q], q[0] > p[0]) for q in neighbours(p)]

    start = (0, 0)
    first = [(q, c + extra, s, t) for q, c, s, t in out(start)]
    asked = cheapest({start: 0}, lambda p, c: first if p == start else out(p), budget)
    table = {p: split_steps(out(p)) for p in GRID}
    found = cheapest_from(start, table, budget, split_steps(first))
    for name in ("cost", "stops", "parent", "stop_parent", "tag", "stop_tag"):
        assert list(getattr(found, name).items()) == list(getattr(asked, name).items()), name


@given(st.integers(0, 10_000), st.integers(0, 12))
@settings(max_examples=60, deadline=None)
def test_the_cost_only_search_gives_the_same_costs_in_the_same_order(seed: int, budget: int) -> None:
    rng = random.Random(seed)
    cost = {p: rng.randint(0, 3) for p in GRID}
    table = {p: [(q, cost[q], False, None) for q in neighbours(p)] for p in GRID}
    starts = {(0, 0): 0, (5, 5): rng.randint(0, 4)}
    found = cheapest_costs(starts, {p: cost_steps(steps) for p, steps in table.items()}, budget)
    full = cheapest(starts, lambda p, c: table[p], budget).cost
    assert list(found.items()) == list(full.items())


def test_the_cost_only_search_refuses_a_step_that_stops_the_mover_or_costs_less_than_nothing() -> None:
    with pytest.raises(ValueError):
        cost_steps([(1, 1, True, None)])
    with pytest.raises(ValueError):
        cost_steps([(1, -1, False, None)])
    assert cost_steps([(1, 2, False, "note"), (3, 0, False, None)]) == ((1, 2), (3, 0))


def test_a_place_that_stops_the_mover_is_reached_but_never_left() -> None:
    line = {i: [i + 1] for i in range(5)}
    line[5] = []
    zoc = {2}
    found = cheapest({0: 0}, lambda p, c: [(q, 1, q in zoc, None) for q in line[p]], 10)
    assert found.stops == {2: 2} and set(found.cost) == {0, 1}
    assert found.ends() == {0: 0, 1: 1, 2: 2} and found.route(2) == [0, 1, 2]


@pytest.mark.parametrize("budget", [None, 5])
def test_the_search_refuses_a_step_that_costs_less_than_nothing(budget: int | None) -> None:
    with pytest.raises(ValueError, match="costs -1"):
        cheapest({0: 0}, lambda p, c: [(p + 1, -1 if p == 2 else 1, False, None)], budget)


def test_the_steps_are_asked_for_at_the_cost_spent_there() -> None:  # a place left once, at its cheapest
    asked: list[tuple[int, int]] = []

    def steps(p: int, c: int) -> list[tuple[int, int, bool, None]]:
        asked.append((p, c))
        return [(q, 1 + q % 2, False, None) for q in (p + 1, p + 2) if q <= 4]

    cheapest({0: 0}, steps, 4)
    assert asked == [(0, 0), (2, 1), (1, 2), (4, 2), (3, 3)]


def test_a_zone_of_control_follows_the_games_predicates() -> None:
    adjacent = {"a": ["b", "c"], "b": ["a"], "c": ["a", "d"], "d": ["c"]}
    assert zone_of_control(["a"], adjacent) == {"b", "c"}
    assert zone_of_control(["a", "d"], adjacent, exerts=lambda p: p != "d", into=lambda p: p != "c") == {"b"}


def test_split_steps_keep_each_kind_in_order() -> None:
    from henderson.core.paths import split_steps

    steps = [("a", 1, False, None), ("b", 2, True, "x"), ("c", 3, False, "y"), ("d", 0, True, None)]
    assert split_steps(steps) == ((("a", 1, None), ("c", 3, "y")), (("b", 2, "x"), ("d", 0, None)))


def test_a_search_with_settled_costs_goes_on_only_from_its_starts():
    steps = {"a": [("b", 1)], "b": [("c", 1)], "c": []}
    # b's cost is known: it is in the answer first, and searched from only when started from
    assert cheapest_costs({}, steps, 5, settled={"b": 1}) == {"b": 1}
    assert list(cheapest_costs({"b": 1}, steps, 5, settled={"b": 1}).items()) == [("b", 1), ("c", 2)]
    # a settled place is final: a step reaching it at its cost does not search on from it
    assert cheapest_costs({"a": 0}, steps, 5, settled={"b": 1}) == {"b": 1, "a": 0}
    # ... so with the true costs settled and the places at their edge started from, the
    # answer is the whole search's
    whole = cheapest_costs({"a": 0}, steps, 5)
    assert cheapest_costs({"a": 0, "b": 1}, steps, 5, settled={"a": 0, "b": 1}) == whole
