"""Deluxe Guadalcanal actions and their text notation: a verb and its arguments, space-separated.

`parse(str(a)) == a` for every action. Hex arguments are printed hex numbers (`3707`),
unit arguments are counter ids (`7/1`, `124/2`, `20Mt`), numbers are plain integers.
The verbs and what they mean are listed in `VERBS` and documented in docs/deluxe.md.
"""

from __future__ import annotations

import re
from typing import Any

from henderson.core.actions import ActionInfo, Arg, ArgKind
from henderson.core.errors import NotationError

HEX = re.compile(r"^\d{4}$")
UNIT = re.compile(r"^[A-Za-z0-9/]+$")
NUM = re.compile(r"^\d{1,2}$")

# verb -> argument kinds: h = hex, u = unit, n = number, s = two or more units joined by
# "+" (a stack); kinds after "?" are optional
VERBS: dict[str, str] = {
    "pass": "",  # decline an optional step (naval bombardment, guerrillas, banzai, Rabaul picks)
    "end": "",  # end the current phase (movement, artillery fire, combat)
    "bombard": "",  # DG 8.1.7 naval bombardment of Henderson Field
    "land": "uh",  # DG 6.0 place an arriving unit on a coastal hex
    "guerrilla": "h",  # DG 11.0 roll to flip a Japanese-controlled village
    "move": "uh",  # DG 7.1 move one unit to a hex (its cheapest legal path)
    "stack": "sh",  # DG 7.5 move a stack together to a hex; each unit may then go on alone
    "sea": "uh",  # DG 7.6 move one unit by sea to another coastal hex
    "stealth": "u",  # DG 7.7.1 enter stealth in lieu of moving
    "unstealth": "u",  # DG 7.7.3 exit stealth and receive the stealth movement pool
    "detect": "uh?h",  # DG 7.7.5 detect stealth units in a hex (after a leg to the third hex)
    "withdraw": "u",  # DG 7.9 remove a unit from the map
    "consolidate": "uu",  # DG 7.10 merge the second reduced unit into the first
    "repair": "u",  # DG 7.11.2 repair Henderson Field (whole turn: 2, after half a move: 1)
    "wreck": "u",  # DG 7.11.1 reduce Henderson Field with an engineer or labour unit
    "fire": "uhn",  # DG 8.1 fire n artillery factors at a hex
    "counter": "uhn",  # DG 8.1.8 counter-battery fire of n factors (at most half) at a hex
    "attack": "h",  # DG 8.2.1 open an assault on a defending hex
    "target": "h",  # DG 8.2.6 add another defending hex to the assault
    "with": "u",  # DG 8.2.1 add an attacking unit
    "support": "un",  # DG 8.2.4 add artillery factors (supply spent)
    "strain": "",  # DG 8.2.3 strain to the next ratio
    "ambush": "",  # DG 8.2.9 attempt an ambush
    "go": "",  # resolve the assault
    "defend": "n",  # DG 8.2.4 the defender spends supply on its artillery
    "lose": "u",  # DG 8.2.1.4 the owner takes one step loss on this unit
    "retreat": "uh",  # DG 8.2.1.4 retreat a unit to a hex
    "advance": "uh",  # DG 8.2.1.4 advance a unit to a hex
    "stop": "",  # end advancing after combat
    "banzai": "",  # DG 8.2.10 attack the same hex again
    "rabaul": "u",  # DG 10.2 select a Rabaul unit for next turn's reinforcements
}
# verb -> the role of each argument, as clients read them (`describe`)
ROLES: dict[str, tuple[str, ...]] = {
    "land": ("unit", "to"),
    "guerrilla": ("target",),
    "move": ("unit", "to"),
    "stack": ("units", "to"),
    "sea": ("unit", "to"),
    "stealth": ("unit",),
    "unstealth": ("unit",),
    "detect": ("unit", "target", "via"),
    "withdraw": ("unit",),
    "consolidate": ("unit", "absorbed"),
    "repair": ("unit",),
    "wreck": ("unit",),
    "fire": ("unit", "target", "factors"),
    "counter": ("unit", "target", "factors"),
    "attack": ("target",),
    "target": ("target",),
    "with": ("with",),
    "support": ("with", "factors"),
    "defend": ("supply",),
    "lose": ("unit",),
    "retreat": ("unit", "to"),
    "advance": ("unit", "to"),
    "rabaul": ("unit",),
}
ARG_KINDS = {"h": ArgKind.HEX, "u": ArgKind.UNIT, "n": ArgKind.NUMBER, "s": ArgKind.UNITS}


class DGAction:
    """One decision: a verb and its arguments (hexes, unit ids, numbers as text), never changed
    once made. A plain slotted class rather than a frozen dataclass: listings make thousands
    of them, each for one unit and hex, and this one is made without a setter call per field.
    Its hash is worked out once: the engine finds an action played among thousands through a set."""

    __slots__ = ("_hash", "args", "verb")

    verb: str
    args: tuple[str, ...]
    _hash: int

    def __init__(self, verb: str, args: tuple[str, ...] = ()) -> None:
        _init(self, verb, args, hash((verb, args)))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a DGAction is never changed (its {name})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a DGAction is never changed (its {name})")

    def __eq__(self, other: object) -> bool:
        if other is self:
            return True
        if type(other) is not DGAction:
            return NotImplemented
        return self._hash == other._hash and self.verb == other.verb and self.args == other.args

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"DGAction(verb={self.verb!r}, args={self.args!r})"

    def __str__(self) -> str:
        return " ".join((self.verb, *self.args))

    def __reduce__(self) -> tuple[Any, ...]:
        """Copies and pickles give the shared action (`make`)."""
        return (make, (self.verb, *self.args))

    def hex(self, i: int = 0) -> str:
        """The i-th argument as a hex number."""
        return self.args[i]

    def number(self, i: int) -> int:
        """The i-th argument as an integer."""
        return int(self.args[i])


_SLOTS = vars(DGAction)  # the slots' own setters, which the class's refuse to stand in for
_SET_VERB = _SLOTS["verb"].__set__
_SET_ARGS = _SLOTS["args"].__set__
_SET_HASH = _SLOTS["_hash"].__set__


def _init(a: DGAction, verb: str, args: tuple[str, ...], hashed: int) -> None:
    """Fill in a new action's fields through their slots (its own setter refuses)."""
    _SET_VERB(a, verb)
    _SET_ARGS(a, args)
    _SET_HASH(a, hashed)


_new = object.__new__
# every action made, by verb, then by its arguments: the tuple of arguments a new action is
# kept under is the one it holds (one tuple an action, not another for a key)
_MADE: dict[str, dict[tuple[str, ...], DGAction]] = {verb: {} for verb in VERBS}
_MADE_LIMIT = 200_000  # actions of one verb kept before they are emptied


def make(verb: str, *args: str) -> DGAction:
    """The one shared action with this verb and these arguments. Legal-action lists are
    rebuilt after every move: their thousands of actions are made once."""
    kept = _MADE.get(verb)
    if kept is None:
        kept = _MADE[verb] = {}
    a = kept.get(args)
    if a is None:
        if len(kept) > _MADE_LIMIT:
            kept.clear()
        a = kept[args] = _new(DGAction)
        _init(a, verb, args, hash((verb, args)))
    return a


NUMBERS = tuple(str(n) for n in range(100))  # a number argument as text (`act` writes them so)


def act(verb: str, *args: object) -> DGAction:
    """Build an action from a verb and arguments of any printable type."""
    return make(verb, *(str(a) for a in args))


def parse(text: str) -> DGAction:
    """The action written as `text`; NotationError naming what is wrong when it is not one."""
    if not isinstance(text, str):
        raise NotationError(str(text), "an action is text")
    words = text.split()
    if not words:
        raise NotationError(text, "empty action")
    verb, args = words[0].lower(), words[1:]
    spec = VERBS.get(verb)
    if spec is None:
        raise NotationError(text, f"unknown verb {verb!r} (verbs: {', '.join(VERBS)})")
    needed, _, optional = spec.partition("?")
    if not len(needed) <= len(args) <= len(needed) + len(optional):
        shape = " ".join(SHAPES[k] for k in needed) + "".join(f" [{SHAPES[k]}]" for k in optional)
        count = f"{len(needed)}" + (f"-{len(needed) + len(optional)}" if optional else "")
        raise NotationError(text, f"{verb} takes {count} argument(s): {verb} {shape}".strip())
    kinds = (needed + optional)[: len(args)]
    for kind, arg in zip(kinds, args, strict=True):
        if kind == "h" and not HEX.match(arg):
            raise NotationError(text, f"{arg!r} is not a four-digit hex number")
        if kind == "u" and not UNIT.match(arg):
            raise NotationError(text, f"{arg!r} is not a unit id")
        if kind == "n" and not NUM.match(arg):
            raise NotationError(text, f"{arg!r} is not a number")
    out = list(args)
    for i, kind in enumerate(kinds):
        if kind == "n":
            out[i] = str(int(out[i]))
        elif kind == "s":
            out[i] = _stack(text, out[i])
    return make(verb, *out)


SHAPES = {"h": "<hex>", "u": "<unit>", "n": "<number>", "s": "<unit>+<unit>[+<unit>]"}


def _stack(text: str, arg: str) -> str:
    """Two or more distinct unit ids joined by "+", written in id order (DG 7.5)."""
    ids = arg.split("+")
    if len(ids) < 2 or not all(UNIT.match(i) for i in ids):
        raise NotationError(text, f"{arg!r} is not a stack: two or more unit ids joined by '+'")
    if len(set(ids)) != len(ids):
        raise NotationError(text, f"{arg!r} names a unit twice")
    return "+".join(sorted(ids))


def describe(a: DGAction) -> ActionInfo:
    """`a` as a structured value: its verb and each argument with what it names (a unit, the
    units of a stack, a hex, a number) and its role ("to", "target", "with", "factors")."""
    kinds = VERBS[a.verb].replace("?", "")
    args = []
    for kind, role, value in zip(kinds, ROLES.get(a.verb, ()), a.args, strict=False):
        typed: object = int(value) if kind == "n" else tuple(value.split("+")) if kind == "s" else value
        args.append(Arg(ARG_KINDS[kind], role, typed))
    return ActionInfo(str(a), a.verb, tuple(args))
