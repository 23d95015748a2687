"""The duty to attack over random positions (DG 8.2, 8.2.1, 8.2.2, 8.2.6, 8.2.7; ruling 21):
every combat phase can end, whatever the attacker chooses, and it can end with no unit outside
an enemy zone of control ever attacking, so a unit in jungle is never compelled. Zones of
control are worked out here from the rules' words (DG 7.4, 7.4.2, 7.7), not with the engine's
helpers."""

from __future__ import annotations

import random

import pytest

from henderson.core.dice import SeededDice

from .support import GAME, position

PHASE_PLIES = 400  # far more decisions than a combat phase of twenty units can take
CENTRES = ("3707", "3510", "3909", "4011", "3312")


def random_position(seed: int):
    """Up to ten units a side, in stacks of one to three, on the land hexes within three hexes
    of a centre; some Japanese infantry in jungle under stealth; the US or Japan to attack.
    Half the positions are part-way through the phase: some of the attacker's units have
    attacked, some enemy hexes have been attacked (the enemy may since have come next to
    units that attacked already)."""
    rng = random.Random(seed)
    m = GAME.data.map
    centre = rng.choice(CENTRES)
    hexes = sorted(h for h in m.hexes if m.hexes[h].land and m.distance(h, centre) <= 3)
    rng.shuffle(hexes)
    units: dict[str, dict] = {}
    for side in ("us", "jp"):
        ids = sorted(u for u, t in GAME.data.units.items() if t.side == side)
        rng.shuffle(ids)
        ids = ids[: rng.randint(3, 10)]
        while ids:
            where = hexes.pop()
            for _ in range(rng.randint(1, 3)):
                if not ids:
                    break
                uid = ids.pop()
                t = GAME.data.units[uid]
                if t.heavy:
                    continue  # a Heavy counts two in its landing hex only; keep stacks simple
                fields = {"at": where, "strength": rng.randint(1, t.strength)}
                if side == "jp" and t.infantry and m.hexes[where].jungle and rng.random() < 0.3:
                    fields["stealth"] = rng.randint(1, 3)
                units[uid] = fields
    step = rng.choice(("us_combat", "jp_combat"))
    flags: dict = {}
    if rng.random() < 0.5:
        side = step[:2]
        for uid, fields in units.items():
            if GAME.data.units[uid].side == side and rng.random() < 0.3:
                fields["attacked"] = True
        enemy = sorted({f["at"] for uid, f in units.items() if GAME.data.units[uid].side != side})
        flags["attacked_hexes"] = [h for h in enemy if rng.random() < 0.3]
    supply = {"us": rng.randint(0, 6), "jp": rng.randint(0, 6)}
    obj = position(15, step, units, supply=supply, flags=flags)
    return GAME.load_state(obj, dice=SeededDice(seed)), step


def in_zone(s, u) -> bool:
    """DG 7.4: next to a hex holding an enemy unit not under stealth (units under stealth
    are hidden, ruling 11); DG 7.4.2: never in jungle."""
    m = s.data.map
    if m.hexes[u.at].jungle:
        return False
    return any(v.on_map and v.side != u.side and v.at in m.adjacent[u.at] and not v.stealth for v in s.units.values())


def phase_over(s, step: str) -> bool:
    return s.is_terminal() or (s.step != step and not s.pending)


def bound(s, side: str, attacked_hexes: set[str] = frozenset()) -> set[str]:
    """The units of `side` that must attack (DG 8.2): combat units in an enemy zone of
    control that have not attacked yet (once a phase, DG 8.2.2) and have an enemy hex next to
    them not attacked yet (each hex once, DG 8.2); artillery never initiates an assault (DG
    8.2.4)."""
    m = s.data.map
    enemy = {v.at for v in s.units.values() if v.on_map and v.side != side and not v.stealth}
    return {
        u.id
        for u in s.units.values()
        if u.side == side
        and u.on_map
        and not u.stealth
        and not u.attacked
        and not s.data.units[u.id].artillery
        and in_zone(s, u)
        and any(h in enemy and h not in attacked_hexes for h in m.adjacent[u.at])
    }


def check_duties_met(s, side: str, targets: set[str], attackers: set[str], at_start: set[str]) -> None:
    """When the phase ends: every unit bound to attack when the phase began has attacked (DG
    8.2 "must attack"; the enemy next to it moves only when attacked, so the duty cannot
    disappear); and no unit is left in an enemy zone of control, not having attacked, next to
    an enemy hex not attacked (DG 8.2 "all enemy units to which they are adjacent"; a hex is
    attacked once, so by another unit it may be)."""
    assert at_start <= attackers, at_start - attackers
    assert not bound(s, side, targets)


def play_phase(s, step: str, seed: int, pick) -> set[str]:
    """Play the combat phase with `pick(s, acts)` choosing each action; the attacking units."""
    side = s.current_player()
    rng = random.Random(seed)
    targets: set[str] = set(s.this_turn.attacked_hexes)
    attackers: set[str] = set()
    at_start = bound(s, side, targets)
    for _ in range(PHASE_PLIES):
        if phase_over(s, step):
            return attackers
        acts = s.legal_actions()
        assert acts, (seed, s.summary(), s.pending)
        choice = pick(s, side, acts)
        assert choice, (seed, [str(a) for a in acts], s.pending)
        action = rng.choice(choice)
        if action.verb == "go":
            p = s.pending[-1]
            for uid in (*p.units, *p.support):  # DG 8.2.5, 8.2.6: next to every target
                assert set(p.targets) <= set(s.data.map.adjacent[s.units[uid].at]), (uid, p.targets)
            targets.update(p.targets)
            attackers.update(p.units)
        if action.verb == "end":
            check_duties_met(s, side, targets, attackers, at_start)
        s.apply(action)
    raise AssertionError(f"seed {seed}: the combat phase did not end")


@pytest.mark.parametrize("seed", range(100))
def test_dg_8_2_random_choices_always_end_the_combat_phase(seed):
    s, step = random_position(seed)
    play_phase(s, step, seed, lambda s, side, acts: acts)


def only_units_in_a_zone(s, side, acts):
    """An attacker that commits only units in an enemy zone of control, never one in jungle
    or out of contact (DG 8.2.7), and opens assaults only next to them."""
    p = s.pending[-1] if s.pending else None
    if p is None:
        if any(a.verb == "end" for a in acts):
            return [a for a in acts if a.verb == "end"]
        bound = [u for u in s.units.values() if u.side == side and u.on_map and not u.attacked and in_zone(s, u)]
        near = {n for u in bound for n in s.data.map.adjacent[u.at]}
        return [a for a in acts if a.verb == "attack" and a.args[0] in near]
    if p.kind == "assault" and p.stage == "build":
        return [
            a
            for a in acts
            if a.verb in ("target", "go", "strain") or (a.verb == "with" and in_zone(s, s.units[a.args[0]]))
        ]
    return acts


@pytest.mark.parametrize("seed", range(100))
def test_dg_8_2_7_the_phase_ends_with_only_units_in_a_zone_of_control_attacking(seed):
    # such an attacker always finds a legal way through the phase: a unit in jungle is never
    # compelled to attack
    s, step = random_position(seed)
    play_phase(s, step, seed, only_units_in_a_zone)


def test_dg_8_2_the_random_positions_hold_duties_and_options():
    # the positions above are worth testing on: many hold units that must attack, and units
    # in jungle next to the enemy that need not
    duties = options = 0
    for seed in range(40):
        s, _ = random_position(seed)
        side = s.current_player()
        m = s.data.map
        enemy = {v.at for v in s.units.values() if v.on_map and v.side != side and not v.stealth}
        duties += len(bound(s, side))
        options += sum(
            1
            for u in s.units.values()
            if u.side == side and u.on_map and m.hexes[u.at].jungle and enemy & set(m.adjacent[u.at])
        )
    assert duties >= 40 and options >= 5


def test_dg_8_2_4_artillery_supporting_first_leaves_room_for_an_attacking_unit():
    """Artillery only supports (DG 8.2.4): with no attacking unit in the assault yet, support
    is offered only where a unit can still join. Here 20Mt (3707) can reach 3806 but not 3905,
    which 41/1 (3805) must also attack; supporting first would have left Japan stuck with no
    legal action (found by the random-play soak)."""
    units = {"41/1": "3805", "20Mt": "3707", "7/2": "3806", "182/2": "3905"}
    start = GAME.load_state(position(16, "jp_combat", units, supply={"jp": 27, "us": 0}), dice=SeededDice(1))
    start.apply("attack 3806")
    frontier = [start]
    seen = 0
    while frontier:
        s = frontier.pop()
        acts = s.legal_actions()
        assert acts, f"no legal action at {s.step} with the assault {s.pending}"
        for a in acts:
            if a.verb in ("with", "support", "target", "strain"):
                nxt = s.clone()
                nxt.apply(a)
                frontier.append(nxt)
                seen += 1
    assert seen > 0


def test_dg_8_2_a_listings_shared_duty_gives_each_checks_own_answer():
    # `build_legal` works out the side's duty once for all its checks: each check given it
    # answers as it does working the duty out itself, for every unit and hex it may add
    from henderson.games.deluxe.rules import assault
    from henderson.games.deluxe.rules.common import occupancy

    checked = 0
    for seed in range(30):
        s, step = random_position(seed)
        rng = random.Random(seed)
        for _ in range(PHASE_PLIES):
            if phase_over(s, step):
                break
            p = s.pending[-1] if s.pending else None
            if p is not None and p.kind == "assault" and p.stage == "build":
                occ = occupancy(s)
                side = p.attacker
                due = assault.duty(s, side, occ)
                assert due == (assault.bound_units(s, side, occ), assault.owed(s, side, occ))
                assert assault.shirked(s, p, occ, due) == assault.shirked(s, p, occ)
                for u in s.units.values():
                    if u.side == side and u.on_map:
                        assert assault.blocked(s, p, occ, unit=u.id, due=due) == assault.blocked(s, p, occ, unit=u.id)
                        assert assault.joinable_after(s, p, occ, u.id, due) == assault.joinable_after(s, p, occ, u.id)
                        checked += 1
                for h in sorted(occ):
                    assert assault.blocked(s, p, occ, target=h, due=due) == assault.blocked(s, p, occ, target=h)
            s.apply(rng.choice(s.legal_actions()))
    assert checked > 100


def test_each_sides_ids_are_its_units_in_id_order():
    # the listings that read a side's units from the game's ids (assault building, the guns,
    # the movers) give them in the order of sorting all units by id and keeping the side's
    for side in ("us", "jp"):
        plain = [u.id for u in sorted(GAME.new_state(1).units.values(), key=lambda x: x.id) if u.side == side]
        assert list(GAME.ids_by_side[side]) == plain
