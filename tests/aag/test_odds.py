"""Exact battle-box odds: they sum to one, match hand calculations, and match the engine
itself over every roll of the dice."""

from __future__ import annotations

import itertools
import json
import sys
from collections import Counter
from fractions import Fraction

import pytest

from henderson import cli
from henderson.core.errors import HendersonError, NotationError
from henderson.games.aag.odds import airfield_odds, odds

from .helpers import game, piece, position


def test_one_die_against_one_infantry():
    o = odds(game().data, "land", 1, {"infantry": 1})
    assert o.by_type() == {"infantry": {(0, 0): Fraction(2, 3), (1, 0): Fraction(1, 3)}}


def test_probabilities_sum_to_one_and_heavy_armor_absorbs_first_hit():
    o = odds(
        game().data, "sea", 10, {"destroyer": 2, "cruiser": 1, "battleship": 1, "transport": 2}
    )
    assert sum(o.outcomes.values()) == 1
    bb = odds(game().data, "sea", 1, {"battleship": 1})
    assert bb.by_type()["battleship"] == {(0, 0): Fraction(1)}  # AAG Heavy Armor


def test_airfield_odds_one_damage_per_two_hits():
    dist = airfield_odds(2, 1)
    assert dist == {0: Fraction(8, 9), 1: Fraction(1, 9)}


def test_odds_match_the_engine_over_every_roll():
    """3 sea dice against a destroyer, a battleship and a transport: all 216 rolls."""
    force = {"destroyer": 1, "battleship": 1, "transport": 1}
    expected = odds(game().data, "sea", 3, force).outcomes
    seen: Counter = Counter()
    for roll in itertools.product(range(1, 7), repeat=3):
        pieces = [
            piece("us1", "battleship", "H"),
            piece("jp1", "destroyer", "H"),
            piece("jp2", "battleship", "H"),
            piece("jp3", "transport", "H"),
        ]
        state = position(pieces, [*roll, 6, 6, 6, 6], step="combat:sea", first="us", airfields=[])
        state.apply("fight H")
        outcome = []
        for pid, kind in (("jp2", "battleship"), ("jp1", "destroyer"), ("jp3", "transport")):
            p = state.pieces.get(pid)
            outcome.append((kind, int(p is None), int(p is not None and p.damaged)))
        seen[tuple(outcome)] += 1
    got = {k: Fraction(v, 216) for k, v in seen.items()}
    assert got == {k: v for k, v in expected.items() if v}


def test_odds_spec_parsing():
    g = game()
    o = g.odds(None, "10 sea: 2 destroyers, 1 cruiser, 1 battleship, 2 transport")
    assert o.force == {"battleship": 1, "cruiser": 1, "destroyer": 2, "transport": 2}
    assert (
        g.odds(None, "6 airfields: 2").distribution[0]
        == Fraction(2, 3) ** 6 + 6 * Fraction(1, 3) * Fraction(2, 3) ** 5
    )
    with pytest.raises(NotationError):
        g.odds(None, "10 sea: 2 infantry")
    with pytest.raises(NotationError):
        g.odds(None, "sea 10")


def test_state_odds_for_a_zone():
    state = position(
        [piece("us1", "cruiser", "H"), piece("jp1", "transport", "H")],
        step="combat:sea",
        first="us",
    )
    o = state.odds("H", "sea", "us")
    assert o.dice == 2 and o.by_type()["transport"][(1, 0)] == Fraction(5, 9)


# --- the preview counts exactly the dice the roll uses (AAG Determine Total Attack Power) ---


def preview_and_roll(state, zone: str, side: str) -> tuple[int, int, int, int]:
    """(preview dice against land units, dice the roll uses against land units,
    preview dice against airfields, dice the roll uses against airfields), the roll made
    on a copy of the position (its zone fought first if no attack is being declared)."""
    units = state.odds(zone, "land", side).dice
    fields = state.odds(zone, "airfields", side).dice
    trial = state.clone()
    if trial.battle is None:
        trial.apply(f"fight {zone}")
    events = trial.apply("roll")
    purposes = [e.data["purpose"] for e in events if e.kind == "roll" and f" {side} attack" in e.data["purpose"]]
    return (
        units,
        sum("attack on land units" in p for p in purposes),
        fields,
        sum("attack on airfields" in p for p in purposes),
    )


def test_preview_counts_joined_units_only_and_not_those_aimed_at_airfields_rule_aag_combat_step_4():
    """AAG Determine Total Attack Power: a cruiser adds its land dice only once declared part
    of the attack (AAG Cruiser Ranged Fire); a unit aimed at the airfields adds its dice to the
    airfield attack, not against units ("It can't attack both", AAG Combat step 4)."""
    pieces = [
        piece("us1", "cruiser", "G"),
        piece("us2", "fighter", "new_georgia"),
        piece("us3", "bomber", "new_georgia"),
        piece("jp1", "infantry", "new_georgia"),
        piece("jp2", "infantry", "guadalcanal"),
    ]
    airfields = [{"island": "new_georgia", "side": "jp"}]
    state = position(pieces, [6] * 40, step="combat:land", first="us", airfields=airfields)
    assert preview_and_roll(state, "new_georgia", "us") == (3, 3, 0, 0)  # cruiser not joined
    assert state.odds("guadalcanal", "land", "us").dice == 0  # nor counted next door
    state.apply("fight new_georgia")
    assert preview_and_roll(state, "new_georgia", "us") == (3, 3, 0, 0)
    state.apply("join us1")
    assert preview_and_roll(state, "new_georgia", "us") == (4, 4, 0, 0)
    assert state.odds("guadalcanal", "land", "us").dice == 0  # joined here, not there
    state.apply("aim us3")
    assert preview_and_roll(state, "new_georgia", "us") == (2, 2, 2, 2)
    state.apply("aim us1")
    assert preview_and_roll(state, "new_georgia", "us") == (1, 1, 3, 3)


def test_preview_of_an_artillery_into_the_sea_counts_it_once_joined_rule_aag_artillery():
    """AAG Artillery Ranged Fire: the artillery adds its sea die only to an attack it joins."""
    pieces = [
        piece("us1", "artillery", "guadalcanal"),
        piece("us2", "artillery", "guadalcanal"),
        piece("us3", "destroyer", "H"),
        piece("jp1", "transport", "H"),
    ]
    state = position(pieces, [6] * 10, step="combat:sea", first="us")
    assert state.odds("H", "sea", "us").dice == 1
    state.apply("fight H")
    assert state.odds("H", "sea", "us").dice == 1
    state.apply("join us1")
    assert state.odds("H", "sea", "us").dice == 2
    events = state.apply("roll")
    assert sum(e.kind == "roll" for e in events) == 2


def test_preview_with_no_unit_to_fire_upon_is_no_dice_rule_aag_combat_step_4():
    """An attack on an island holding only an enemy airfield rolls no dice against units."""
    pieces = [piece("us1", "bomber", "new_georgia"), piece("us2", "fighter", "new_georgia")]
    airfields = [{"island": "new_georgia", "side": "jp"}]
    state = position(pieces, [6] * 10, step="combat:land", first="us", airfields=airfields)
    assert state.odds("new_georgia", "land", "us").dice == 0
    state.apply("fight new_georgia")
    state.apply("aim us1")
    assert state.odds("new_georgia", "airfields", "us").dice == 2
    assert state.odds("new_georgia", "land", "us").dice == 0
    events = state.apply("roll")
    assert sum(e.kind == "roll" for e in events) == 2


def test_night_fighting_and_banzai_in_the_odds_rule_aag_appendix_1():
    """Night Fighting: a 2 destroys like a 1; Banzai Charge: a 3 hits too."""
    plain = odds(game().data, "sea", 1, {"destroyer": 1}).by_type()["destroyer"]
    night = odds(game().data, "sea", 1, {"destroyer": 1}, night=True).by_type()["destroyer"]
    assert plain == {(0, 0): Fraction(2, 3), (0, 1): Fraction(1, 6), (1, 0): Fraction(1, 6)}
    assert night == {(0, 0): Fraction(2, 3), (1, 0): Fraction(1, 3)}
    banzai = odds(game().data, "land", 1, {"infantry": 1}, banzai=True).by_type()["infantry"]
    assert banzai == {(0, 0): Fraction(1, 2), (1, 0): Fraction(1, 2)}
    pieces = [piece("jp1", "destroyer", "H"), piece("us1", "destroyer", "H")]
    state = position(
        pieces, step="combat:sea", first="jp",
        options={"advantages": True}, active=[{"id": "night_fighting", "side": "jp", "zone": "H"}],
    )
    assert state.odds("H", "sea", "jp").by_type()["destroyer"] == night


# --- odds requests that name no attack are input errors (one line, exit status 2) ---


def run_cli(monkeypatch, capsys, *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["henderson", *args])
    code = 0
    try:
        cli.main()
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def pos_file(tmp_path):
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(game().new_state(1).to_json()))
    return str(path)


def test_cli_airfield_odds_spec_as_documented(monkeypatch, capsys, pos_file):
    """docs/aag.md documents "6 airfields: 2": it prints the chances, as text and as JSON."""
    code, out, err = run_cli(monkeypatch, capsys, "odds", pos_file, "6 airfields: 2")
    assert code == 0 and "6 dice against 2 airfield(s)" in out and "0 damaged: 0.3512" in out, err
    code, out, _ = run_cli(monkeypatch, capsys, "odds", pos_file, "6 airfields: 2", "--json")
    assert code == 0 and json.loads(out)["damaged"][0]["p"] == "256/729"


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("Z sea us", "unknown zone 'Z'"),
        ("H sea xx", "unknown side 'xx'"),
        ("H naval us", "unknown category 'naval'"),
        ("H land us", "H is a sea zone"),
        ("guadalcanal sea us", "guadalcanal is an island"),
        ("rabaul_sea sea us", "base card"),
        ("10 sea: 2 tank", "unknown unit type 'tank'"),
        ("sea 10", "expected"),
    ],
)
def test_cli_odds_spec_naming_no_attack_is_one_line_and_exit_2(monkeypatch, capsys, pos_file, spec, words):
    code, out, err = run_cli(monkeypatch, capsys, "odds", pos_file, spec)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and words in err and "internal error" not in err


def test_api_odds_spec_naming_no_attack_raises_an_input_error():
    state = game().new_state(1)
    for spec in ("Z sea us", "H sea xx", "guadalcanal air nobody"):
        with pytest.raises(HendersonError, match="unknown"):
            game().odds(state, spec)
    with pytest.raises(HendersonError, match="unknown zone"):
        state.odds("Z", "sea", "us")
    with pytest.raises(HendersonError, match="needs a position"):
        game().odds(None, "H sea us")


def test_a_battle_too_large_to_work_out_exactly_is_refused_in_one_line():
    """A preview never runs for minutes: past a bound on the partial outcomes the exact odds
    are refused with one line (280 dice against 20 ships of every type), and so is a list of
    every joint outcome past its own bound (the chances for each type are still given)."""
    from henderson.core.errors import HendersonError

    force = dict.fromkeys(("battleship", "cruiser", "destroyer", "carrier", "transport", "submarine", "pt_boat"), 20)
    with pytest.raises(HendersonError, match="too long to work out"):
        odds(game().data, "sea", 280, force)
    many = odds(game().data, "sea", 32, {"battleship": 3, "cruiser": 4, "destroyer": 5, "transport": 4, "carrier": 2})
    assert sum(sum(dist.values()) for dist in many.by_type().values()) == 5
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("henderson.games.aag.odds.MAX_OUTCOMES", 1000)
        with pytest.raises(HendersonError, match="too many to list"):
            many.outcomes  # noqa: B018


def roll_by_roll(category, dice, force, *, armor_used=0, night=False, banzai=False):
    """The odds counted over every roll, each played out die by die in slot order (AAG
    Declare Your Hits, Hitting Units the Enemy Doesn't Have, Heavy Armor, Damaging and
    Destroying Units, Appendix 1 PT Boats, Night Fighting and Banzai Charge)."""
    from henderson.games.aag.rules.battlebox import effect, target_type

    data = game().data
    neck = data.neck
    seen: Counter = Counter()
    for roll in itertools.product(range(1, 7), repeat=dice):
        sound = dict(force)
        damaged = dict.fromkeys(force, 0)
        destroyed = dict.fromkeys(force, 0)
        armor = max(0, force.get("battleship", 0) - armor_used)
        for i, value in enumerate(roll):
            value = 1 if night and value == 2 else value
            if value not in (1, 2) and not (banzai and value == 3):
                continue
            slot = neck.slot_of(i)
            present = [k for k in force if sound[k] + damaged[k] > 0]
            kind = target_type(neck, category, slot, present)
            if "pt_boat" in present and neck.type_at(category, slot) not in present:
                kind = "pt_boat"
            if kind is None:
                continue
            if kind == "battleship" and armor:
                armor -= 1
            elif sound[kind]:
                sound[kind] -= 1
                if effect(data.units[kind].resilient, False, value) == "damaged":
                    damaged[kind] += 1
                else:
                    destroyed[kind] += 1
            else:
                damaged[kind] -= 1
                destroyed[kind] += 1
        seen[tuple((k, destroyed[k], damaged[k]) for k in sorted(force))] += 1
    return {k: Fraction(v, 6**dice) for k, v in seen.items()}


@pytest.mark.parametrize(
    ("category", "dice", "force", "extra"),
    [
        ("sea", 4, {"battleship": 2, "carrier": 1, "transport": 1}, {"armor_used": 1}),
        ("sea", 4, {"destroyer": 1, "pt_boat": 1, "cruiser": 1}, {"night": True}),
        ("sea", 5, {"submarine": 1, "carrier": 2}, {}),
        ("land", 4, {"infantry": 2, "artillery": 1}, {"banzai": True}),
        ("air", 5, {"fighter": 1, "bomber": 1}, {}),
    ],
)
def test_odds_are_those_counted_roll_by_roll(category, dice, force, extra):
    """The dynamic programme over the dice (each hit's effect worked out once) gives the odds
    of every roll played out on its own, units wiped out part-way and hits read up the neck
    included."""
    assert odds(game().data, category, dice, force, **extra).outcomes == roll_by_roll(category, dice, force, **extra)


def die_by_die(category, dice, force, *, armor_used=0, damaged=None, night=False, banzai=False):
    """The odds counted die by die over every type's units together (each partial outcome of
    the whole force kept, no type kept apart): the plain dynamic programme, slow but simple."""
    from henderson.games.aag.rules.battlebox import effect, target_type

    data = game().data
    neck = data.neck
    kinds = sorted(k for k, n in force.items() if n)
    marked = damaged or {}
    hits = [(1, 2)] if night else [(1, 1), (2, 1)]
    if banzai:
        hits.append((3, 1))
    misses = 6 - sum(n for _, n in hits)
    armor = max(0, force.get("battleship", 0) - armor_used)
    start = (tuple((force[k] - marked.get(k, 0), marked.get(k, 0), 0) for k in kinds), armor)
    ways = {start: 1}
    for i in range(dice):
        slot = neck.slot_of(i)
        nxt: Counter = Counter()
        for (units, armor_left), n in ways.items():
            nxt[(units, armor_left)] += n * misses
            present = [k for k, u in zip(kinds, units, strict=True) if u[0] + u[1]]
            kind = target_type(neck, category, slot, present)
            if "pt_boat" in present and neck.type_at(category, slot) not in present:
                kind = "pt_boat"
            for value, faces in hits:
                if kind is None:
                    nxt[(units, armor_left)] += n * faces
                    continue
                j = kinds.index(kind)
                sound, hurt, lost = units[j]
                left = armor_left
                if kind == "battleship" and left:
                    left -= 1
                elif sound and effect(data.units[kind].resilient, False, value) == "damaged":
                    sound, hurt = sound - 1, hurt + 1
                elif sound:
                    sound, lost = sound - 1, lost + 1
                else:
                    hurt, lost = hurt - 1, lost + 1
                nxt[((*units[:j], (sound, hurt, lost), *units[j + 1 :]), left)] += n * faces
        ways = nxt
    seen: Counter = Counter()
    for (units, _), n in ways.items():
        seen[tuple((k, u[2], u[1]) for k, u in zip(kinds, units, strict=True))] += n
    return {k: Fraction(v, 6**dice) for k, v in seen.items()}


def marginals(outcomes):
    """For each type, {(destroyed, damaged): chance} summed from the joint outcomes."""
    found: dict = {}
    for outcome, p in outcomes.items():
        for kind, destroyed, damaged in outcome:
            cell = found.setdefault(kind, {})
            cell[(destroyed, damaged)] = cell.get((destroyed, damaged), 0) + p
    return {k: dict(sorted(v.items())) for k, v in found.items()}


def test_odds_are_those_of_the_whole_force_counted_die_by_die_on_many_random_battles():
    """Keeping apart the types hit by their own slots only changes no chance: on random forces
    of every category (PT boats, spent heavy armour, units already damaged, Night Fighting and
    Banzai Charge included) the joint outcomes and each type's chances are exactly those of
    the whole force counted die by die."""
    import random

    data = game().data
    rng = random.Random(7)
    for _ in range(60):
        category = rng.choice(("sea", "sea", "land", "air"))
        kinds = [k for k, u in data.units.items() if u.category == category]
        force = {k: rng.randint(1, 3) for k in rng.sample(kinds, rng.randint(1, len(kinds)))}
        damaged = {k: rng.randint(0, n) for k, n in force.items() if data.units[k].resilient and rng.random() < 0.3}
        extra = {
            "armor_used": rng.randint(0, force.get("battleship", 0)),
            "damaged": damaged,
            "night": category == "sea" and rng.random() < 0.3,
            "banzai": category == "land" and rng.random() < 0.3,
        }
        dice = rng.randint(0, 14)
        got = odds(data, category, dice, force, **extra)
        expected = die_by_die(category, dice, force, **extra)
        assert got.outcomes == expected, (category, dice, force, extra)
        assert got.by_type() == marginals(expected), (category, dice, force, extra)


def test_the_largest_opening_battles_match_the_whole_force_counted_die_by_die():
    """Each side's whole opening fleet under every sea die of the other's: the largest battle
    the set-up makes (about 3,000 outcomes), exact."""
    state = game().new_state(1)
    data = state.data
    units = [p for p in state.pieces.values() if p.type in data.units]
    for side, enemy in (("us", "jp"), ("jp", "us")):
        force = Counter(p.type for p in units if p.side == side and data.units[p.type].category == "sea")
        dice = sum(data.units[p.type].attack["sea"] for p in units if p.side == enemy)
        got = odds(data, "sea", dice, dict(force))
        expected = die_by_die("sea", dice, dict(force))
        assert got.outcomes == expected
        assert got.by_type() == marginals(expected)
