"""AAG actions and their text notation: a verb and its arguments, separated by spaces.

    end                       finish your part of the current step
    load SHIP PIECE           put a land unit, supply or fighter aboard a ship
    move ZONE ID[,ID...]      move units (one unit group) to a zone
    torpedo SUB TARGET        a submarine's 1-die attack
    fight ZONE                choose the next zone to resolve in a combat step
    join UNIT                 add a ranged unit to the attack being declared
    aim UNIT                  send an air or sea unit against airfields instead of land units
    roll                      roll the attack being declared
    hit UNIT                  choose the unit that takes the current hit
    unload PIECE ZONE         put cargo ashore
    land UNIT DEST            land an air unit on an island, a base or a carrier (DEST = its id)
    build ISLAND              build an airfield with 3 supplies
    buy TYPE                  buy one unit (or `supply`)
    repair UNIT|ISLAND        repair a damaged sea unit at base or a damaged airfield
    deploy SHIP ZONE          deploy a sea unit from the base sea zone
    use TOKEN [ARG [ARG]]     spend an advantage token (optional rule), e.g. `use night_fighting E`

Unit ids look like `us12`, sea zones are letters A–M, islands and base zones their ids.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from henderson.core.actions import ActionInfo, Arg, ArgKind
from henderson.core.errors import NotationError

UNIT_ID = re.compile(r"^(us|jp)[0-9]+$")
WORD = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


# the arguments of each verb as structured values: (kind, role) in notation order
ARGS: dict[str, tuple[tuple[ArgKind, str], ...]] = {
    "end": (),
    "roll": (),
    "load": ((ArgKind.UNIT, "ship"), (ArgKind.UNIT, "cargo")),
    "move": ((ArgKind.ZONE, "to"), (ArgKind.UNITS, "units")),
    "torpedo": ((ArgKind.UNIT, "with"), (ArgKind.UNIT, "target")),
    "fight": ((ArgKind.ZONE, "zone"),),
    "join": ((ArgKind.UNIT, "unit"),),
    "aim": ((ArgKind.UNIT, "unit"),),
    "hit": ((ArgKind.UNIT, "target"),),
    "unload": ((ArgKind.UNIT, "unit"), (ArgKind.ZONE, "to")),
    "land": ((ArgKind.UNIT, "unit"), (ArgKind.ZONE, "to")),  # or a carrier: UNIT "to"
    "build": ((ArgKind.ZONE, "at"),),
    "buy": ((ArgKind.KIND, "type"),),
    "repair": ((ArgKind.ZONE, "at"),),  # or a ship: UNIT "unit"
    "deploy": ((ArgKind.UNIT, "unit"), (ArgKind.ZONE, "to")),
}
# what follows the token's name in `use TOKEN ...` (AAG Appendix 1)
TOKEN_ARGS: dict[str, tuple[tuple[ArgKind, str], ...]] = {
    "coast_watchers": ((ArgKind.KIND, "type"),),
    "quick_drop": ((ArgKind.ZONE, "from"), (ArgKind.ZONE, "to")),
    "command_decision": ((ArgKind.ZONE, "zone"), (ArgKind.KIND, "category")),
    "night_fighting": ((ArgKind.ZONE, "zone"),),
    "pt_boats": ((ArgKind.ZONE, "zone"),),
    "banzai_charge": ((ArgKind.ZONE, "zone"),),
    "amphibious_assault": ((ArgKind.ZONE, "zone"),),
}
# how many arguments each verb takes (`use`: a token and up to 2 arguments)
ARITY: dict[str, int] = {verb: len(args) for verb, args in ARGS.items()} | {"use": -1}


@dataclass(frozen=True)
class Action:
    """One decision: `verb` plus arguments; `str` gives the notation that `parse_action` reads back."""

    verb: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join((self.verb, *self.args))

    def __eq__(self, other: object) -> bool:
        """The same verb and arguments (what the dataclass compares), read without making a
        tuple of each side: the engine compares every action played with `end`."""
        if other.__class__ is not Action:
            return NotImplemented
        return self is other or (self.verb == other.verb and self.args == other.args)


END = Action("end")
ROLL = Action("roll")


def move(zone: str, ids: list[str] | tuple[str, ...]) -> Action:
    """A group move of units `ids` to `zone` (ids in a canonical sorted order)."""
    if len(ids) == 1:
        return move_one(zone, ids[0])
    return Action("move", (zone, ",".join(sort_ids(ids))))


@lru_cache(maxsize=1 << 16)  # the same moves are listed again at nearly every action
def move_one(zone: str, uid: str) -> Action:
    """The move of the one unit `uid` to `zone` (actions are frozen: one is shared by lists)."""
    return Action("move", (zone, uid))


@lru_cache(maxsize=1 << 16)  # the same actions are listed again at nearly every action
def act(verb: str, *args: str) -> Action:
    """The action `verb ARGS...`, one object for all the lists that hold it (actions are
    frozen): a listing builds none it has built before."""
    return Action(verb, args)


def load_one(ship: str, piece: str) -> Action:
    """`load SHIP PIECE` (`act`)."""
    return act("load", ship, piece)


@lru_cache(maxsize=1 << 14)  # an air unit's landings are listed again at nearly every action
def landings(uid: str, spots: tuple[str, ...]) -> tuple[Action, ...]:
    """`land UNIT SPOT` for each of `spots` in order (`act`'s actions)."""
    return tuple(act("land", uid, spot) for spot in spots)


@lru_cache(maxsize=1 << 14)  # a unit's moves are listed again at nearly every action
def moves_to(dests: tuple[str, ...], ids: str) -> tuple[Action, ...]:
    """The moves of units `ids` (one id, or a group as `move` writes it) to each of `dests`,
    in order; a single unit's are `move_one`'s, the actions its notation reads back as."""
    if "," in ids:
        return tuple(Action("move", (dest, ids)) for dest in dests)
    return tuple(move_one(dest, ids) for dest in dests)


def sort_ids(ids: list[str] | tuple[str, ...]) -> list[str]:
    return sorted(ids, key=id_key)


@lru_cache(maxsize=4096)  # pieces are sorted by id at nearly every action
def id_key(uid: str) -> tuple[str, int]:
    """The order of unit ids: by side, then by number (us2 before us10)."""
    return (uid[:2], int(uid[2:]) if uid[2:].isdigit() else 0)


def parse_action(text: str) -> Action:
    """Read one action; NotationError names what is wrong."""
    words = text.split()
    if not words:
        raise NotationError(text, "empty action")
    verb = words[0].lower()
    if verb not in ARITY:
        raise NotationError(text, f"unknown verb {verb!r} (known: {', '.join(ARITY)})")
    args = words[1:]
    if verb == "use" and not 1 <= len(args) <= 3:
        raise NotationError(text, "'use' takes a token and up to 2 arguments")
    if verb != "use" and len(args) != ARITY[verb]:
        raise NotationError(text, f"{verb!r} takes {ARITY[verb]} argument(s), got {len(args)}")
    for a in args:
        if not all(WORD.match(p) for p in a.split(",")):
            raise NotationError(text, f"bad argument {a!r}")
    if verb == "move":
        ids = args[1].split(",")
        if not all(UNIT_ID.match(i) for i in ids) or len(set(ids)) != len(ids):
            raise NotationError(text, "move ZONE ID[,ID...] needs distinct unit ids like us12")
        return move(args[0], ids)
    if verb in ("load", "torpedo", "join", "aim", "hit", "unload", "land", "deploy"):
        first = args[0]
        if not UNIT_ID.match(first):
            raise NotationError(text, f"{first!r} is not a unit id like us12")
    if verb in ("load", "torpedo") and not UNIT_ID.match(args[1]):
        raise NotationError(text, f"{args[1]!r} is not a unit id like us12")
    if "," in "".join(args):
        raise NotationError(text, "only 'move' takes a list of ids")
    return Action(verb, tuple(args))


def describe(action: Action) -> ActionInfo:
    """`action` as a verb and typed arguments: unit ids as UNIT (a group move's as UNITS),
    zones (islands, sea zones, base zones) as ZONE, unit types as KIND, a token as WORD."""
    if action.verb == "use":
        token, *rest = action.args
        kinds = TOKEN_ARGS.get(token, ())
        args = [Arg(ArgKind.WORD, "token", token)]
        args += [Arg(kind, role, value) for (kind, role), value in zip(kinds, rest, strict=False)]
        return ActionInfo(str(action), action.verb, tuple(args))
    out = []
    for (kind, role), value in zip(ARGS[action.verb], action.args, strict=True):
        if kind is ArgKind.UNITS:
            out.append(Arg(kind, role, tuple(value.split(","))))
        elif UNIT_ID.match(value) and kind is ArgKind.ZONE:  # a carrier landed on, a ship repaired
            out.append(Arg(ArgKind.UNIT, role if action.verb == "land" else "unit", value))
        else:
            out.append(Arg(kind, role, value))
    return ActionInfo(str(action), action.verb, tuple(out))
