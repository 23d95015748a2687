"""The drawn board (data/board_layout.toml) agrees with the board the rules use: each island
covers exactly the sea zones it touches, sea zones share a visible border exactly when a sea
unit may move between them (or across a strait drawn as blocked), and bad layout data is
reported by file, record and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from henderson.core.errors import DataErrors
from henderson.games.aag.data import load_data
from henderson.games.aag.layout import DEFAULT, inside, load_layout, shared_edges

DATA = load_data()
BOARD = DATA.board
LAYOUT = load_layout(BOARD)


def islands_at(point: tuple[float, float]) -> list[str]:
    return [i for i, m in LAYOUT["islands"].items() if inside(point, m["outline"])]


def seas_at(point: tuple[float, float]) -> list[str]:
    return [s for s, m in LAYOUT["seas"].items() if inside(point, m["points"])]


def test_every_zone_is_drawn() -> None:
    assert set(LAYOUT["seas"]) == set(BOARD.seas)
    assert set(LAYOUT["islands"]) == set(BOARD.islands)
    assert {b["side"] for b in LAYOUT["bases"].values()} == {"us", "jp"}


def test_sea_zones_tile_the_map_outside_the_base_cards() -> None:
    cards = [r for b in LAYOUT["bases"].values() for r in (b["land"], b["sea"])]
    for x in range(5, LAYOUT["width"], 20):
        for y in range(5, LAYOUT["height"], 20):
            on_card = any(r[0] <= x <= r[0] + r[2] and r[1] <= y <= r[1] + r[3] for r in cards)
            assert len(seas_at((x, y))) == (0 if on_card else 1), (x, y)


@pytest.mark.parametrize("island", sorted(BOARD.islands))
def test_each_island_covers_exactly_its_sea_zones_rule_aag_island_zone(island: str) -> None:
    coast = LAYOUT["islands"][island]["outline"]
    xs = [p[0] for p in coast]
    ys = [p[1] for p in coast]
    touched: set[str] = set()
    for x in range(int(min(xs)), int(max(xs)) + 1, 2):
        for y in range(int(min(ys)), int(max(ys)) + 1, 2):
            if inside((x, y), coast):
                touched.update(seas_at((x, y)))
    assert touched == set(BOARD.islands[island].seas)


def visible_borders() -> set[frozenset[str]]:
    """Pairs of sea zones whose shared border shows somewhere outside the islands."""
    out: set[frozenset[str]] = set()
    seas = LAYOUT["seas"]
    names = sorted(seas)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            for edge in shared_edges(seas[a]["outline"], seas[b]["outline"]):
                p, q = (dict(zip(seas[a]["outline"], seas[a]["points"], strict=True))[v] for v in edge)
                steps = [(p[0] + (q[0] - p[0]) * t / 50, p[1] + (q[1] - p[1]) * t / 50) for t in range(51)]
                if any(not islands_at(s) for s in steps):
                    out.add(frozenset((a, b)))
    return out


def test_visible_borders_are_the_sea_moves_and_the_straits_rule_aag_examples_of_sea_movement() -> None:
    moves = {frozenset((a, b)) for a in BOARD.seas for b in BOARD.seas[a].adjacent}
    straits = {frozenset(s["seas"]) for s in LAYOUT["straits"]}
    assert visible_borders() == moves | straits
    assert straits == {frozenset("FH"), frozenset("GI")}
    blocked = {frozenset(b.seas) for b in BOARD.blocks}
    assert straits <= blocked  # a strait is a move the rules forbid


def test_route_to_base_zones_are_marked_and_touch_their_card_rule_aag_route_to_base() -> None:
    marked = {s for s, m in LAYOUT["seas"].items() if "route" in m}
    assert marked == {s for s, sea in BOARD.seas.items() if sea.route_to_base}
    for side, base in BOARD.bases.items():
        card = next(b for b in LAYOUT["bases"].values() if b["side"] == side)
        x, y, w, h = card["sea"]
        for s in base.routes:
            points = LAYOUT["seas"][s]["points"]
            assert any(x - 1 <= px <= x + w + 1 and y - 1 <= py <= y + h + 1 for px, py in points), s


def test_labels_and_stacks_lie_in_their_zone() -> None:
    for s, m in LAYOUT["seas"].items():
        assert seas_at(tuple(m["label"])) == [s]
        assert seas_at(tuple(m["stacks"][:2])) == [s]
    for i, m in LAYOUT["islands"].items():
        x, y = m["airfields"]
        assert islands_at((x + 14, y + 6)) == [i]  # the middle of the first airfield marker


def test_bad_layout_is_reported_by_field(tmp_path: Path) -> None:
    text = DEFAULT.read_text()
    outline = 'outline = ["rabaul_bl", "rabaul_br", "bougainville", "ad_w"]'
    text = text.replace(outline, 'outline = ["rabaul_bl", "nowhere"]')
    text = text.replace("label = [26, 182]", 'label = "west"')
    bad = tmp_path / "board_layout.toml"
    bad.write_text(text)
    with pytest.raises(DataErrors) as info:
        load_layout(BOARD, bad)
    message = str(info.value)
    assert "board_layout.toml: A: outline: unknown vertex 'nowhere'" in message
    assert "board_layout.toml: A: label: expected [x, y]" in message
