"""FIRST BLOOD actions and their text notation (documented in docs/firstblood.md).

Every action is a frozen value; `str(action)` is its notation and
`parse_action(str(a)) == a`; `describe(action)` is the same action as a verb and
typed arguments, for clients that pick actions without reading notation. Unit ids are as printed on the counters ("1/5",
"228/1", "SUY", "F4F-3", "DD-S1"); places are hex numbers ("0708"), boxes "A"–"D",
entry points "EP11", and holding boxes by their short names (`BOX_NAMES`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from henderson.core.actions import ActionInfo, Arg, ArgKind
from henderson.core.errors import NotationError

# holding box ids (model.HoldingBox.id) and the short names used in the notation
BOX_NAMES: dict[str, str] = {
    "reserve": "usaf_reserve",
    "cap": "usaf_cap",
    "ga": "usaf_ground_attack",
    "ijaf-reserve": "ijaf_reserve",
    "ijaf-attack": "ijaf_attack",
    "ijn-reserve": "ijn_reserve",
    "ijn-attack": "ijn_attack",
}
BOX_SHORT: dict[str, str] = {v: k for k, v in BOX_NAMES.items()}


def place_token(loc: str) -> str:
    """The notation of a location (hex, box, entry point, holding box)."""
    return BOX_SHORT.get(loc, loc)


@dataclass(frozen=True)
class Place:
    """Set-up or reinforcement: put `unit` at `at` (FB 3.0, 3.1, 7.1, 7.2, 10.1)."""

    unit: str
    at: str

    def __str__(self) -> str:
        return f"place {self.unit} {place_token(self.at)}"


@dataclass(frozen=True)
class SetupDefault:
    """Place every remaining at-start unit of the side where the default set-up puts it."""

    def __str__(self) -> str:
        return "setup default"


@dataclass(frozen=True)
class CommitSpecials:
    """Bring the special IJN box's two destroyers into play (FB 10.1)."""

    def __str__(self) -> str:
        return "commit specials"


@dataclass(frozen=True)
class Move:
    """Move a ground unit to a hex or box, optionally along a given path (FB 4.0–7.3)."""

    unit: str
    to: str
    via: tuple[str, ...] = ()

    def __str__(self) -> str:
        text = f"move {self.unit} {self.to}"
        return f"{text} via {','.join(self.via)}" if self.via else text


@dataclass(frozen=True)
class Bomb:
    """US movement: put a bomber from the Ground Attack box on a Japanese stack (FB 13.6)."""

    unit: str
    hex: str

    def __str__(self) -> str:
        return f"bomb {self.unit} {self.hex}"


@dataclass(frozen=True)
class Attack:
    """Declare an attack on one or more adjacent hexes (FB 8.2, 8.4).

    With no attackers it opens an attack to be built with `add`; with attackers
    it is the whole attack, declared and resolved at once.
    """

    defenders: tuple[str, ...]
    attackers: tuple[str, ...] = ()
    artillery: tuple[str, ...] = ()
    ships: tuple[str, ...] = ()
    air: tuple[str, ...] = ()  # US bombers joining an attack from an entry point (FB 7.5)

    def __str__(self) -> str:
        text = f"attack {'+'.join(self.defenders)}"
        if self.attackers:
            text += f" with {','.join(self.attackers)}"
        if self.artillery:
            text += f" art {','.join(self.artillery)}"
        if self.ships:
            text += f" ships {','.join(self.ships)}"
        if self.air:
            text += f" air {','.join(self.air)}"
        return text


@dataclass(frozen=True)
class Add:
    """Add a ground unit, an artillery unit or a ship to the attack being built."""

    unit: str

    def __str__(self) -> str:
        return f"add {self.unit}"


@dataclass(frozen=True)
class Resolve:
    """Roll for the attack being built."""

    def __str__(self) -> str:
        return "resolve"


@dataclass(frozen=True)
class Cancel:
    """Abandon the attack being built (nothing has been rolled)."""

    def __str__(self) -> str:
        return "cancel"


@dataclass(frozen=True)
class AirMission:
    """A Japanese air mission (FB 13.3): fighters or two bombers on the CAP box,
    a fighter on the Ground Attack box, a bomber on an airfield hex."""

    units: tuple[str, ...]
    target: str  # "usaf_cap", "usaf_ground_attack" or a hex

    def __str__(self) -> str:
        return f"air {'+'.join(self.units)} {place_token(self.target)}"


@dataclass(frozen=True)
class Bombard:
    """Japanese artillery (FB 9.5.1) or a ship (FB 10.3) bombards an airfield hex."""

    hex: str
    unit: str

    def __str__(self) -> str:
        return f"bombard {self.hex} with {self.unit}"


@dataclass(frozen=True)
class Lose:
    """The owner picks a unit to lose (combat FB 8.10, supply FB 14.1–14.2, FB 7.5.4, air FB 13.3.3)."""

    unit: str

    def __str__(self) -> str:
        return f"lose {self.unit}"


@dataclass(frozen=True)
class Retreat:
    """The owner retreats a unit to a hex (FB 8.10–8.12, 8.2.3)."""

    unit: str
    to: str

    def __str__(self) -> str:
        return f"retreat {self.unit} {self.to}"


@dataclass(frozen=True)
class Advance:
    """After a DE result the attacker moves a unit into a vacated hex (FB 8.10)."""

    unit: str
    to: str

    def __str__(self) -> str:
        return f"advance {self.unit} {self.to}"


@dataclass(frozen=True)
class Stop:
    """Stop advancing after combat."""

    def __str__(self) -> str:
        return "stop"


@dataclass(frozen=True)
class Land:
    """US air phase, first step: a unit back from CAP or Ground Attack lands on an airstrip hex (FB 13.7)."""

    unit: str
    hex: str

    def __str__(self) -> str:
        return f"land {self.unit} {self.hex}"


@dataclass(frozen=True)
class Fly:
    """US air phase: reserve to airstrip, airstrip to CAP or Ground Attack, or to an adjacent airstrip (FB 13.7)."""

    unit: str
    to: str

    def __str__(self) -> str:
        return f"fly {self.unit} {place_token(self.to)}"


@dataclass(frozen=True)
class End:
    """End the current phase (or step)."""

    def __str__(self) -> str:
        return "end"


FBAction = (
    Place
    | SetupDefault
    | CommitSpecials
    | Move
    | Bomb
    | Attack
    | Add
    | Resolve
    | Cancel
    | AirMission
    | Bombard
    | Lose
    | Retreat
    | Advance
    | Stop
    | Land
    | Fly
    | End
)

_HEX = re.compile(r"^\d{4}$")
_TOKEN = re.compile(r"^[A-Za-z0-9/\-_.]+$")


def _loc(token: str, text: str) -> str:
    """A location token: hex, box letter, entry point or holding box short name."""
    low = token.lower()
    if low in BOX_NAMES:
        return BOX_NAMES[low]
    if token in BOX_SHORT:  # a full holding box id
        return token
    if _HEX.match(token):
        return token
    if re.fullmatch(r"[A-Da-d]", token):
        return token.upper()
    m = re.fullmatch(r"(?i)ep(\d{1,2})", token)
    if m:
        return f"EP{int(m.group(1))}"
    raise NotationError(text, f"{token!r} is not a hex, box (A-D), entry point (EP1-EP17) or holding box")


def _hex(token: str, text: str) -> str:
    if not _HEX.match(token):
        raise NotationError(text, f"{token!r} is not a hex number (four digits, e.g. 0708)")
    return token


def _ids(token: str, text: str, sep: str = ",") -> tuple[str, ...]:
    parts = tuple(p for p in token.split(sep))
    if not parts or any(not p or not _TOKEN.match(p) for p in parts):
        raise NotationError(text, f"{token!r} is not a {sep!r}-separated list of unit ids")
    return parts


def _unit(token: str, text: str) -> str:
    if not _TOKEN.match(token):
        raise NotationError(text, f"{token!r} is not a unit id")
    return token


def parse_action(text: str) -> FBAction:
    """Read one action in FB notation; NotationError says what is wrong."""
    words = text.split()
    if not words:
        raise NotationError(text, "empty action")
    verb, args = words[0].lower(), words[1:]

    def need(n: int, usage: str) -> None:
        if len(args) != n:
            raise NotationError(text, f"expected '{usage}'")

    if verb == "place":
        need(2, "place UNIT PLACE")
        return Place(_unit(args[0], text), _loc(args[1], text))
    if verb == "setup":
        if [a.lower() for a in args] != ["default"]:
            raise NotationError(text, "expected 'setup default'")
        return SetupDefault()
    if verb == "commit":
        if [a.lower() for a in args] != ["specials"]:
            raise NotationError(text, "expected 'commit specials'")
        return CommitSpecials()
    if verb == "move":
        if len(args) == 2:
            return Move(_unit(args[0], text), _loc(args[1], text))
        if len(args) == 4 and args[2].lower() == "via":
            via = tuple(_loc(t, text) for t in args[3].split(","))
            return Move(_unit(args[0], text), _loc(args[1], text), via)
        raise NotationError(text, "expected 'move UNIT PLACE' or 'move UNIT PLACE via P1,P2,...'")
    if verb == "bomb":
        need(2, "bomb BOMBER HEX")
        return Bomb(_unit(args[0], text), _hex(args[1], text))
    if verb == "attack":
        if not args:
            raise NotationError(text, "expected 'attack HEX[+HEX...] [with U,...] [art A,...] [ships S,...]'")
        defenders = tuple(_hex(h, text) for h in args[0].split("+"))
        parts: dict[str, tuple[str, ...]] = {}
        rest = args[1:]
        if len(rest) % 2:
            raise NotationError(text, "each of 'with', 'art', 'ships' must be followed by a list")
        for key, value in zip(rest[::2], rest[1::2], strict=True):
            key = key.lower()
            if key not in ("with", "art", "ships", "air") or key in parts:
                raise NotationError(text, f"unexpected {key!r} (expected with, art, ships, air once each)")
            parts[key] = _ids(value, text)
        if parts and "with" not in parts:
            raise NotationError(text, "a whole attack names its ground attackers with 'with'")
        return Attack(
            defenders, parts.get("with", ()), parts.get("art", ()), parts.get("ships", ()), parts.get("air", ())
        )
    if verb == "add":
        need(1, "add UNIT")
        return Add(_unit(args[0], text))
    if verb in ("resolve", "cancel", "end", "stop"):
        need(0, verb)
        bare: dict[str, FBAction] = {"resolve": Resolve(), "cancel": Cancel(), "end": End(), "stop": Stop()}
        return bare[verb]
    if verb == "air":
        need(2, "air UNIT[+UNIT] TARGET")
        return AirMission(_ids(args[0], text, "+"), _loc(args[1], text))
    if verb == "bombard":
        if len(args) != 3 or args[1].lower() != "with":
            raise NotationError(text, "expected 'bombard HEX with UNIT'")
        return Bombard(_hex(args[0], text), _unit(args[2], text))
    if verb == "lose":
        need(1, "lose UNIT")
        return Lose(_unit(args[0], text))
    if verb == "retreat":
        need(2, "retreat UNIT HEX")
        return Retreat(_unit(args[0], text), _hex(args[1], text))
    if verb == "advance":
        need(2, "advance UNIT HEX")
        return Advance(_unit(args[0], text), _hex(args[1], text))
    if verb == "land":
        need(2, "land UNIT HEX")
        return Land(_unit(args[0], text), _hex(args[1], text))
    if verb == "fly":
        need(2, "fly UNIT PLACE")
        return Fly(_unit(args[0], text), _loc(args[1], text))
    raise NotationError(
        text,
        f"unknown verb {verb!r} (place, setup, commit, move, bomb, attack, add, resolve, cancel, "
        "air, bombard, lose, retreat, advance, stop, land, fly, end)",
    )


# --- actions as structured values (Game.describe) -------------------------------------------


def _where(role: str, place: str) -> Arg:
    """A place of the notation as an argument: a hex, or a box (A-D, an entry point, a holding box)."""
    return Arg(ArgKind.HEX if _HEX.match(place) else ArgKind.BOX, role, place)


def describe(action: FBAction) -> ActionInfo:
    """`action` as a verb and typed arguments (units, hexes, boxes), its notation as the text."""
    text = str(action)
    verb = text.split()[0]
    args: list[Arg] = []
    match action:
        case Place(unit, at):
            args = [Arg(ArgKind.UNIT, "unit", unit), _where("to", at)]
        case SetupDefault():
            args = [Arg(ArgKind.WORD, "plan", "default")]
        case CommitSpecials():
            args = [Arg(ArgKind.WORD, "box", "specials")]
        case Move(unit, to, via):
            args = [Arg(ArgKind.UNIT, "unit", unit), _where("to", to), *(_where("via", p) for p in via)]
        case Bomb(unit, hex_id):
            args = [Arg(ArgKind.UNIT, "unit", unit), Arg(ArgKind.HEX, "target", hex_id)]
        case Attack(defenders, attackers, artillery, ships, air):
            args = [Arg(ArgKind.HEX, "target", h) for h in defenders]
            for role, units in (("with", attackers), ("artillery", artillery), ("ships", ships), ("air", air)):
                if units:
                    args.append(Arg(ArgKind.UNITS, role, units))
        case Add(unit) | Lose(unit):
            args = [Arg(ArgKind.UNIT, "unit", unit)]
        case AirMission(units, target):
            args = [Arg(ArgKind.UNITS, "with", units), _where("target", target)]
        case Bombard(hex_id, unit):
            args = [Arg(ArgKind.HEX, "target", hex_id), Arg(ArgKind.UNIT, "with", unit)]
        case Retreat(unit, to) | Advance(unit, to) | Land(unit, to) | Fly(unit, to):
            args = [Arg(ArgKind.UNIT, "unit", unit), _where("to", to)]
    return ActionInfo(text, verb, tuple(args))
