"""Resolving an attack: the die, the table, and the losses, retreats and advances it calls
for (FB 7.5.3, 8.6, 8.8–8.12, 10.5, 11.4, 13.6). The owners' choices become decisions."""

from __future__ import annotations

from dataclasses import replace

from henderson.core.events import Event, roll
from henderson.games.firstblood.odds import Odds
from henderson.games.firstblood.rules import decisions
from henderson.games.firstblood.state import Advance, Building, Entry, FBDecision, FBState, Lose, Retreat, enemy_of


def resolve(st: FBState, b: Building, odds: Odds, events: list[Event]) -> None:
    side = st.phasing
    enemy = enemy_of(side)
    attackers = list(b.attackers)
    defenders = [u for h in b.defenders for u in st.at(h)]
    st.combat = replace(
        st.combat,
        attacked=st.combat.attacked.union(attackers, b.artillery),  # FB 9.4: one attack per turn
        attacked_hexes=st.combat.attacked_hexes.union(b.defenders),
    )
    # FB 11.4: engineers attacked stop work; one that attacks stops its own (it is in `attacked`),
    # not that of an engineer beside it that did not
    st.disturbed |= set(b.defenders)
    summary = f"{side.upper()} attack on {'+'.join(b.defenders)}: {odds.ratio_text}"
    if odds.doublings:
        summary += "; " + "; ".join(f"{d.hex} doubled ({d.rule})" for d in odds.doublings)
    events.append(Event("attack", summary, {"defenders": list(b.defenders), "odds": odds.to_json()}))
    for s in b.ships:
        st.eliminate(s, "FB 10.5", "removed after its shore bombardment", events)
    for a in b.air:
        st.bombing[a] = b.defenders[0]  # FB 7.5: joins this combat, back to its box afterwards
    off_board = not st.board.on_map(st.ground[attackers[0]])
    if odds.column is None:  # FB 8.6: below 1-2
        for u in attackers:
            st.eliminate(u, "FB 8.6", "attacked at odds below 1-2", events)
        _after(st, b)
        return
    table = st.data.tables[side]
    die = roll(st.dice, f"FB 8.9 combat roll on the {table.name}", events)
    modified = min(6, max(1, die + odds.drm))  # FB 8.8
    code = table.results[odds.column][modified - 1]
    mods = ", ".join(f"{m.value:+d} {m.rule}" for m in odds.modifiers) or "no modifiers"
    events.append(
        Event(
            "result",
            f"die {die} ({mods}) → {modified} on {odds.column}: {code}",
            {"die": die, "modified": modified, "column": odds.column, "result": code, "defenders": list(b.defenders)},
        )
    )
    queue: list[FBDecision] = []  # in the order they are decided
    if code == "AE":  # FB 8.10
        for u in attackers:
            st.eliminate(u, "FB 8.10", "AE: all attacking units eliminated", events)
    elif code in ("A1", "A2"):
        n = 2 if code == "A2" else 1
        if off_board:
            for u in attackers:  # FB 7.5.3: defenders not removed, attackers eliminated
                st.eliminate(u, "FB 7.5.3", f"{code} on an attack out of {st.ground[u]}", events)
        else:
            queue.append(Lose(side, units=list(attackers), count=n, rule="FB 8.10", retreat=list(attackers)))
    elif code == "EX":
        queue.append(Lose(side, units=list(attackers), count=1, rule="FB 8.10"))
        queue.append(Lose(enemy, units=list(defenders), count=1, rule="FB 8.10", retreat=list(defenders)))
    elif code == "DR":
        queue.append(Retreat(enemy, units=list(defenders), rule="FB 8.10"))
    elif code == "D1":
        queue.append(Lose(enemy, units=list(defenders), count=1, rule="FB 8.10", retreat=list(defenders)))
    elif code == "DE":
        for u in defenders:
            st.eliminate(u, "FB 8.10", "DE: all defending units eliminated", events)
    if code != "AE" and not (off_board and code in ("A1", "A2")):
        if off_board:
            queue.append(Entry(side, units=list(attackers), hexes=list(b.defenders), rule="FB 7.5.3"))
        elif code in ("DE",):
            queue.append(Advance(side, units=list(attackers), hexes=list(b.defenders), rule="FB 8.10"))
    st.pending[:0] = reversed(queue)  # the last pending decision is decided first
    _after(st, b)
    decisions.settle(st, events)


def _after(st: FBState, b: Building) -> None:
    """FB 13.6: bombers go back to the Ground Attack box after the combat."""
    for bomber, h in list(st.bombing.items()):
        if h in b.defenders:
            del st.bombing[bomber]
