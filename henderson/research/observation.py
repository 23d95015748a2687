"""Observation tensors per seat, built from that seat's `view(side)` only, and the
information-state strings built from the record as that seat read it.

An observation is one float32 vector made of named sections (`ObservationSpec.sections`,
each with its shape; `spec.unflatten(vector)` gives them back by name):

- the game's board: planes over its hexes (FIRST BLOOD, Deluxe Guadalcanal) or features per
  area (Axis & Allies: Guadalcanal), then its off-map places and its global features (turn,
  step, scores); see each encoder's `sections` and docs/research.md;
- `seat` (which side observes) and `to_act` (who decides; the last slot: nobody or chance);
- the action being chosen: `prefix_bag` (the tokens chosen so far), `prefix_last` (the last
  one) and `prefix_length` (how many, capped), all zero for the side not choosing.

Every list a plane or a one-hot reads (terrain, unit kinds, steps, turns) comes from the
game's data; a value the data does not list counts in an `other` slot.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from henderson.core.game import Game, Side, needs_extra

try:
    import numpy as np
except ModuleNotFoundError as exc:  # pragma: no cover - depends on the installation
    raise needs_extra(exc, "rl", "observation tensors") from None

from henderson.core.sequence import SequencedGame
from henderson.research.vocabulary import VocabularyError, advantage_tokens

if TYPE_CHECKING:
    from henderson.research.match import Match

PREFIX_LENGTH_CAP = 16  # prefix_length is one-hot over 0..15 (15: fifteen tokens or more)


@dataclass(frozen=True)
class Section:
    """One named part of an observation vector: its shape and what it holds."""

    name: str
    shape: tuple[int, ...]
    doc: str

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


class ObservationSpec:
    """The layout of an observation vector: named sections one after another."""

    def __init__(self, game: str, sections: Sequence[Section]) -> None:
        self.game = game
        self.sections = tuple(sections)
        self.offsets: dict[str, tuple[int, int]] = {}
        start = 0
        for s in self.sections:
            self.offsets[s.name] = (start, start + s.size)
            start += s.size
        self.size = start

    def unflatten(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """The sections of `vector` by name, in their shapes (views, not copies)."""
        return {s.name: vector[slice(*self.offsets[s.name])].reshape(s.shape) for s in self.sections}

    def zeros(self) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """A zero vector and its sections."""
        vector = np.zeros(self.size, dtype=np.float32)
        return vector, self.unflatten(vector)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "size": self.size,
            "sections": [{"name": s.name, "shape": list(s.shape), "doc": s.doc} for s in self.sections],
        }


class Slots:
    """A fixed list of names with an `other` slot at the end: one-hot positions."""

    def __init__(self, names: Iterable[str], other: bool = True) -> None:
        self.names = list(dict.fromkeys(names))
        self.index = {n: i for i, n in enumerate(self.names)}
        self.other = other

    def __len__(self) -> int:
        return len(self.names) + (1 if self.other else 0)

    def __getitem__(self, name: Any) -> int:
        found = self.index.get(name)
        if found is None:
            if not self.other:
                raise KeyError(name)
            return len(self.names)
        return found


def step_ids(game: Game, fallback: Iterable[str] = ()) -> list[str]:
    """Every step id of the game's sequence of play (its sequence data when the game runs on
    the kit's sequence engine, else `fallback`)."""
    if isinstance(game, SequencedGame):
        spec = game.sequence()
        return list(dict.fromkeys(entry[0].id for entry in spec.entries))
    return list(fallback)


class BoardEncoder(ABC):
    """A game's board and global features from one side's view."""

    sections: tuple[Section, ...]

    @abstractmethod
    def fill(self, view: Mapping[str, Any], side: Side, out: dict[str, np.ndarray]) -> None:
        """Write the features of `view` (as `side` sees it) into the zeroed `out` sections."""

    def other_hits(self) -> int:
        """How many values fell into an `other` slot since the encoder was made (tests read it:
        zero means the data listed every value the views showed)."""
        return self._other

    _other = 0

    def _slot(self, slots: Slots, name: Any) -> int:
        i = slots[name]
        if i == len(slots.names):
            self._other += 1
        return i


def _scaled(value: Any, scale: float) -> float:
    try:
        return float(value) / scale
    except (TypeError, ValueError):
        return 0.0


# -- FIRST BLOOD ------------------------------------------------------------------------------


class FirstBloodEncoder(BoardEncoder):
    """FIRST BLOOD: planes over the 14 x 23 grid of hex rows and columns, features of the
    off-map places (boxes A-D, entry points, holding boxes) and global features."""

    def __init__(self, game: Game) -> None:
        data = game.client_data()
        self.sides = tuple(game.sides)
        hexes = data["hexes"]
        self.rows = max(h["row"] for h in hexes) + 1
        self.cols = max(h["col"] for h in hexes) + 1
        self.cell = {h["id"]: (h["row"], h["col"]) for h in hexes}
        self.terrain = Slots(sorted({h["terrain"] for h in hexes}))
        self.hex_terrain = {h["id"]: h["terrain"] for h in hexes}
        self.ground = data["ground"]
        self.kinds = Slots(sorted({u["kind"] for u in self.ground.values()}))
        self.air_side = {k: v["side"] for k, v in data["air"].items()}
        self.places = Slots(
            [b["id"] for b in data["boxes"]]
            + [e["id"] for e in data["entry_points"]]
            + [b["id"] for b in data["holding_boxes"]]
        )
        self.turns = Slots(data["turns"])
        self.phases = Slots(step_ids(game))
        self.airfield = Slots(["operational", "damaged", "destroyed", "unbuilt"])
        self.specials = Slots(["unavailable", "available", "committed"])
        self.decisions = Slots(["lose", "retreat", "advance", "land", "entry"])
        n = 2 * len(self.sides)
        self.hex_channels = [
            *(f"terrain:{t}" for t in [*self.terrain.names, "other"]),
            "on map",
            *(f"{s} {k}" for s in self.sides for k in [*self.kinds.names, "other"]),
            *(f"{s} combat factors/10" for s in self.sides),
            *(f"{s} movement left/10" for s in self.sides),
            *(f"{s} units moved" for s in self.sides),
            *(f"{s} air units" for s in self.sides),
            *(f"airfield:{a}" for a in [*self.airfield.names, "other"]),
            "engineers at work",
            "attacked this phase",
            "attack being built: defenders",
            "attack being built: attackers",
            "decision pending here",
        ]
        self.place_features = [
            *(f"{s} ground units" for s in self.sides),
            *(f"{s} combat factors/10" for s in self.sides),
            *(f"{s} air units" for s in self.sides),
            "ships",
        ]
        self.sections = (
            Section("hexes", (len(self.hex_channels), self.rows, self.cols), "; ".join(self.hex_channels)),
            Section("places", (len(self.places), len(self.place_features)), "; ".join(self.place_features)),
            Section(
                "global",
                (len(self.turns) + len(self.phases) + len(self.specials) + len(self.decisions) + 3 + n // 2,),
                "turn one-hot; phase one-hot; specials one-hot; pending decision one-hot; "
                "attack being built; supply credit/10; units to place/10; eliminated/10 by side",
            ),
        )
        self._channel = {name: i for i, name in enumerate(self.hex_channels)}
        self._static = np.zeros((len(self.hex_channels), self.rows, self.cols), dtype=np.float32)
        for hid, (r, c) in self.cell.items():
            self._static[self._channel[f"terrain:{self.hex_terrain[hid]}"], r, c] = 1
            self._static[self._channel["on map"], r, c] = 1

    def fill(self, view: Mapping[str, Any], side: Side, out: dict[str, np.ndarray]) -> None:
        planes, places, glob = out["hexes"], out["places"], out["global"]
        planes[:] = self._static
        ch = self._channel
        moved = set(view.get("moved", ()))
        # movement left in MF: version 2 counts half MF (`half_mf`), version 1 gave MF
        half_mf = view.get("half_mf")
        movement = {u: v / 2 for u, v in half_mf.items()} if half_mf is not None else view.get("movement", {})
        for unit, at in view.get("ground", {}).items():
            info = self.ground.get(unit)
            if info is None:
                continue
            s = info["side"]
            kind = [*self.kinds.names, "other"][self._slot(self.kinds, info["kind"])]
            if at in self.cell:
                r, c = self.cell[at]
                planes[ch[f"{s} {kind}"], r, c] += 1
                planes[ch[f"{s} combat factors/10"], r, c] += _scaled(info.get("cf"), 10)
                planes[ch[f"{s} movement left/10"], r, c] += _scaled(movement.get(unit, 0), 10)
                planes[ch[f"{s} units moved"], r, c] += unit in moved
            else:
                p = self._slot(self.places, at)
                si = self.sides.index(s)
                places[p, si] += 1
                places[p, 2 + si] += _scaled(info.get("cf"), 10)
        for unit, at in view.get("air", {}).items():
            s = self.air_side.get(unit, self.sides[0])
            si = self.sides.index(s)
            if at in self.cell:
                r, c = self.cell[at]
                planes[ch[f"{s} air units"], r, c] += 1
            elif at != "returning":
                places[self._slot(self.places, at), 4 + si] += 1
        for _unit, at in view.get("ships", {}).items():
            places[self._slot(self.places, at), 6] += 1
        for hid, status in view.get("airfields", {}).items():
            if hid in self.cell:
                r, c = self.cell[hid]
                name = status if status in self.airfield.index else "other"
                self._slot(self.airfield, status)
                planes[ch[f"airfield:{name}"], r, c] = 1
        for _unit, hid in view.get("workers", {}).items():
            if hid in self.cell:
                planes[ch["engineers at work"], *self.cell[hid]] += 1
        combat = view.get("combat", {}) or {}
        for hid in combat.get("attacked_hexes", ()):
            if hid in self.cell:
                planes[ch["attacked this phase"], *self.cell[hid]] = 1
        ground = view.get("ground", {})
        building = combat.get("building")
        if building:
            for hid in building.get("defenders", ()):
                if hid in self.cell:
                    planes[ch["attack being built: defenders"], *self.cell[hid]] = 1
            for unit in building.get("attackers", ()):
                if ground.get(unit) in self.cell:
                    planes[ch["attack being built: attackers"], *self.cell[ground[unit]]] += 1
        pending = view.get("pending", [])
        if pending:
            for hid in pending[-1].get("hexes", ()) or ():
                if hid in self.cell:
                    planes[ch["decision pending here"], *self.cell[hid]] = 1
        # global
        i = 0
        turn = view.get("turn")  # version 2: counted from 1; version 1: as the track prints it
        if isinstance(turn, int) and 1 <= turn <= len(self.turns.names):
            turn = self.turns.names[turn - 1]
        glob[i + self._slot(self.turns, turn)] = 1
        i += len(self.turns)
        glob[i + self._slot(self.phases, view.get("step", view.get("phase")))] = 1
        i += len(self.phases)
        glob[i + self._slot(self.specials, view.get("specials"))] = 1
        i += len(self.specials)
        if pending:
            glob[i + self._slot(self.decisions, pending[-1].get("kind"))] = 1
        i += len(self.decisions)
        glob[i] = 1.0 if building else 0.0
        glob[i + 1] = _scaled(view.get("supply_credit", 0), 10)
        i += 2
        glob[i] = len(view.get("to_place", ())) / 10
        i += 1
        for unit in view.get("eliminated", ()):
            owner = self._side_of(unit)
            if owner in self.sides:
                glob[i + self.sides.index(owner)] += 0.1

    def _side_of(self, unit: str) -> str | None:
        info = self.ground.get(unit)
        if info is not None:
            return str(info["side"])
        return self.air_side.get(unit)


# -- Deluxe Guadalcanal ------------------------------------------------------------------------


class DeluxeEncoder(BoardEncoder):
    """Deluxe Guadalcanal: planes over the grid of hex columns and rows (hex CCRR at column
    CC, row RR), features of the off-map holding places and global features."""

    OFFMAP = ("turn", "next", "rabaul", "eliminated")

    def __init__(self, game: Game) -> None:
        data = game.client_data()
        self.sides = tuple(game.sides)
        hexes = data["hexes"]
        cols = [int(h["id"][:2]) for h in hexes]
        rows = [int(h["id"][2:]) for h in hexes]
        self.col0, self.row0 = min(cols), min(rows)
        self.width, self.height = max(cols) - self.col0 + 1, max(rows) - self.row0 + 1
        self.cell = {h["id"]: (int(h["id"][2:]) - self.row0, int(h["id"][:2]) - self.col0) for h in hexes}
        self.terrain = Slots(sorted({h["terrain"] for h in hexes}))
        self.units = data["units"]
        self.types = Slots(sorted({u["type"] for u in self.units.values()}))
        self.turns = Slots([t["turn"] for t in data["turns"]])
        self.steps = Slots(step_ids(game, [s["id"] for s in data["sequence"]]))
        self.max_level = max(1, max(int(h.get("level") or 0) for h in hexes))
        self.hex_channels = [
            *(f"terrain:{t}" for t in [*self.terrain.names, "other"]),
            "on map",
            "level",
            "coastal",
            "river",
            "road",
            "village",
            "Henderson Field",
            *(f"{s} {t}" for s in self.sides for t in [*self.types.names, "other"]),
            *(f"{s} strength/10" for s in self.sides),
            *(f"{s} units moved" for s in self.sides),
            *(f"{s} stealth markers" for s in self.sides),
            *(f"{s} stacks seen (counters)" for s in self.sides),
            *(f"village held by {s}" for s in self.sides),
            "attacked this turn",
            "assault targets",
        ]
        self.offmap_features = [*(f"{s} units" for s in self.sides), *(f"{s} strength/10" for s in self.sides)]
        self.sections = (
            Section("hexes", (len(self.hex_channels), self.height, self.width), "; ".join(self.hex_channels)),
            Section(
                "offmap",
                (len(self.OFFMAP), len(self.offmap_features)),
                f"{', '.join(self.OFFMAP)} by " + "; ".join(self.offmap_features),
            ),
            Section(
                "global",
                (len(self.turns) + len(self.steps) + 2 * len(self.sides) + 5,),
                "turn one-hot; step one-hot; supply/20 by side; victory points above 0/61, below 0/61; "
                "Henderson Field status/20; Henderson Field control one-hot (sides, none); decisions pending",
            ),
        )
        self._channel = {name: i for i, name in enumerate(self.hex_channels)}
        static = np.zeros((len(self.hex_channels), self.height, self.width), dtype=np.float32)
        ch = self._channel
        for h in hexes:
            r, c = self.cell[h["id"]]
            static[ch[f"terrain:{h['terrain']}"], r, c] = 1
            static[ch["on map"], r, c] = 1
            static[ch["level"], r, c] = int(h.get("level") or 0) / self.max_level
            static[ch["coastal"], r, c] = bool(h.get("coastal"))
            static[ch["river"], r, c] = bool(h.get("river"))
            static[ch["road"], r, c] = bool(h.get("road"))
            static[ch["village"], r, c] = bool(h.get("village"))
        hf = data.get("henderson_field")
        if hf in self.cell:
            static[ch["Henderson Field"], *self.cell[hf]] = 1
        self._static = static

    def fill(self, view: Mapping[str, Any], side: Side, out: dict[str, np.ndarray]) -> None:
        planes, offmap, glob = out["hexes"], out["offmap"], out["global"]
        planes[:] = self._static
        ch = self._channel
        for uid, u in view.get("units", {}).items():
            s = u.get("side")
            if s not in self.sides:
                continue
            at = u.get("at")
            info = self.units.get(uid, {})
            if at in self.cell:
                r, c = self.cell[at]
                t = info.get("type")
                name = t if t in self.types.index else "other"
                self._slot(self.types, t)
                planes[ch[f"{s} {name}"], r, c] += 1
                planes[ch[f"{s} strength/10"], r, c] += _scaled(u.get("strength", 0), 10)
                planes[ch[f"{s} units moved"], r, c] += bool(u.get("moved"))
            elif at in self.OFFMAP:
                o = self.OFFMAP.index(at)
                si = self.sides.index(s)
                offmap[o, si] += 1
                offmap[o, len(self.sides) + si] += _scaled(u.get("strength", 0), 10)
        for m in view.get("stealth_markers", ()):
            if m.get("hex") in self.cell and m.get("side") in self.sides:
                planes[ch[f"{m['side']} stealth markers"], *self.cell[m["hex"]]] += 1
        for st in view.get("enemy_stacks", ()):
            if st.get("hex") in self.cell and st.get("side") in self.sides:
                planes[ch[f"{st['side']} stacks seen (counters)"], *self.cell[st["hex"]]] += st.get("counters", 1)
        for hid, owner in view.get("villages", {}).items():
            if hid in self.cell and owner in self.sides:
                planes[ch[f"village held by {owner}"], *self.cell[hid]] = 1
        flags = view.get("this_turn", view.get("flags", {})) or {}  # version 2: this_turn; 1: flags
        for hid in flags.get("attacked_hexes", ()) or ():
            if hid in self.cell:
                planes[ch["attacked this turn"], *self.cell[hid]] = 1
        pending = view.get("pending", [])
        for p in pending:
            for hid in p.get("targets", ()) or ():
                if hid in self.cell:
                    planes[ch["assault targets"], *self.cell[hid]] = 1
        i = 0
        glob[i + self._slot(self.turns, view.get("turn"))] = 1
        i += len(self.turns)
        glob[i + self._slot(self.steps, view.get("step"))] = 1
        i += len(self.steps)
        supply = view.get("supply", {})
        for s_i, s in enumerate(self.sides):
            glob[i + s_i] = _scaled(supply.get(s, 0), 20)
        i += len(self.sides)
        vp = _scaled(view.get("vp", 0), 61)
        glob[i], glob[i + 1] = max(vp, 0.0), max(-vp, 0.0)
        hf = view.get("henderson_field", {}) or {}
        glob[i + 2] = _scaled(hf.get("status", 0), 20)
        i += 3
        control = hf.get("control")
        glob[i + (self.sides.index(control) if control in self.sides else len(self.sides))] = 1
        i += len(self.sides) + 1
        glob[i] = float(len(pending))


# -- Axis & Allies: Guadalcanal ------------------------------------------------------------------


class AagEncoder(BoardEncoder):
    """Axis & Allies: Guadalcanal: features per area (islands, sea zones, bases) and global
    features."""

    MAX_TURN = 20

    def __init__(self, game: Game) -> None:
        data = game.client_data()
        self.sides = tuple(game.sides)
        self.areas = Slots([a["id"] for a in data["areas"]])
        self.area_kind = {a["id"]: a["kind"] for a in data["areas"]}
        self.kinds = Slots(sorted({a["kind"] for a in data["areas"]}), other=False)
        self.types = Slots([*data["units"], "supply"])
        tokens = advantage_tokens(game)
        self.tokens = Slots(tokens, other=False)
        self.steps = Slots(step_ids(game))
        self.categories = Slots(["air", "sea", "land"])
        n_s = len(self.sides)
        self.area_features = [
            *(f"{s} {t}" for s in self.sides for t in [*self.types.names, "other"]),
            *(f"{s} damaged" for s in self.sides),
            *(f"{s} aboard a ship" for s in self.sides),
            *(f"{s} moved" for s in self.sides),
            *(f"controlled by {s}" for s in self.sides),
            *(f"{s} airfields" for s in self.sides),
            *(f"{s} damaged airfields" for s in self.sides),
            *(f"kind:{k}" for k in self.kinds.names),
            "battle here",
        ]
        self.sections = (
            Section("areas", (len(self.areas), len(self.area_features)), "; ".join(self.area_features)),
            Section(
                "global",
                (
                    self.MAX_TURN
                    + 1
                    + len(self.steps)
                    + 1
                    + n_s
                    + 3 * n_s
                    + len(self.categories)
                    + 1
                    + n_s * len(self.tokens),
                ),
                f"turn one-hot (1..{self.MAX_TURN}, later); step one-hot; half; first player one-hot; "
                "victory points/15, ship points/15 and money/50 by side; battle category one-hot; "
                "battle stage; advantage tokens left by side",
            ),
        )
        self._feature = {name: i for i, name in enumerate(self.area_features)}

    def fill(self, view: Mapping[str, Any], side: Side, out: dict[str, np.ndarray]) -> None:
        areas, glob = out["areas"], out["global"]
        f = self._feature
        for a, kind in self.area_kind.items():
            if kind in self.kinds.index:
                areas[self.areas[a], f[f"kind:{kind}"]] = 1
        pieces = view.get("pieces", ())
        for p in pieces.values() if isinstance(pieces, Mapping) else pieces:  # version 2: by id
            s = p.get("side")
            if s not in self.sides:
                continue
            a = self._slot(self.areas, p.get("zone"))
            t = p.get("type")
            self._slot(self.types, t)
            areas[a, f[f"{s} {t if t in self.types.index else 'other'}"]] += 1
            areas[a, f[f"{s} damaged"]] += bool(p.get("damaged"))
            areas[a, f[f"{s} aboard a ship"]] += bool(p.get("aboard"))
            areas[a, f[f"{s} moved"]] += bool(p.get("moved"))
        for island, owner in (view.get("control", {}) or {}).items():
            if owner in self.sides:
                areas[self._slot(self.areas, island), f[f"controlled by {owner}"]] = 1
        for af in view.get("airfields", ()):
            if af.get("side") in self.sides:
                a = self._slot(self.areas, af.get("island"))
                areas[a, f[f"{af['side']} airfields"]] += 1
                areas[a, f[f"{af['side']} damaged airfields"]] += bool(af.get("damaged"))
        battle = view.get("battle")
        if battle:
            areas[self._slot(self.areas, battle.get("zone")), f["battle here"]] = 1
        i = 0
        turn = int(view.get("turn", 1) or 1)
        glob[i + min(max(turn, 1), self.MAX_TURN + 1) - 1] = 1
        i += self.MAX_TURN + 1
        glob[i + self._slot(self.steps, view.get("step"))] = 1
        i += len(self.steps)
        glob[i] = float(view.get("half", 0) or 0)
        i += 1
        first = view.get("first")
        if first in self.sides:
            glob[i + self.sides.index(first)] = 1
        i += len(self.sides)
        for key, scale in (("vp", 15), ("vp_ships", 15), ("points", 50)):
            values = view.get(key, {}) or {}
            for s_i, s in enumerate(self.sides):
                glob[i + s_i] = _scaled(values.get(s, 0), scale)
            i += len(self.sides)
        if battle:
            glob[i + self._slot(self.categories, battle.get("category"))] = 1
        i += len(self.categories)
        glob[i] = _scaled(battle.get("stage", 0), 1) if battle else 0.0
        i += 1
        held = view.get("tokens", {}) or {}
        for s_i, s in enumerate(self.sides):
            for tok, count in (held.get(s, {}) or {}).items():
                if tok in self.tokens.index:
                    glob[i + s_i * len(self.tokens) + self.tokens[tok]] = float(count)


# -- the whole observation ------------------------------------------------------------------------

_ENCODERS: dict[str, Callable[[Game], BoardEncoder]] = {
    "firstblood": FirstBloodEncoder,
    "deluxe": DeluxeEncoder,
    "aag": AagEncoder,
}


def register_encoder(name: str, factory: Callable[[Game], BoardEncoder]) -> None:
    """Teach `Observer` a game it does not know (a plug-in game, a test game)."""
    _ENCODERS[name] = factory


class Observer:
    """Observation tensors and strings of one game, for every seat."""

    def __init__(self, game: Game, space_size: int) -> None:
        factory = _ENCODERS.get(game.name)
        if factory is None:
            raise VocabularyError(
                f"no observation encoder for game {game.name!r} (known: {', '.join(sorted(_ENCODERS))})"
            )
        self.game = game
        self.board = factory(game)
        self.sides = tuple(game.sides)
        self.space_size = space_size
        self.spec = ObservationSpec(
            game.name,
            [
                *self.board.sections,
                Section("seat", (len(self.sides),), "the observing side, one-hot"),
                Section("to_act", (len(self.sides) + 1,), "the side deciding, one-hot (last: nobody or chance)"),
                Section("prefix_bag", (space_size,), "tokens chosen so far towards this action (the chooser only)"),
                Section("prefix_last", (space_size,), "the last token chosen, one-hot (the chooser only)"),
                Section("prefix_length", (PREFIX_LENGTH_CAP,), "how many tokens chosen so far, one-hot (capped)"),
            ],
        )

    def tensor(self, match: Match, side: Side) -> np.ndarray:
        """The observation vector of `side` (a fresh float32 array of `spec.size`)."""
        vector, out = self.spec.zeros()
        self.board.fill(match.state.view(side), side, out)
        out["seat"][self.sides.index(side)] = 1
        actor = match.current_player()
        out["to_act"][self.sides.index(actor) if actor in self.sides else len(self.sides)] = 1
        prefix = self.visible_prefix(match, side)
        if prefix:
            out["prefix_bag"][list(prefix)] = 1
            out["prefix_last"][prefix[-1]] = 1
        out["prefix_length"][min(len(prefix), PREFIX_LENGTH_CAP - 1)] = 1
        return vector

    def visible_prefix(self, match: Match, side: Side) -> list[int]:
        """The tokens chosen so far, as `side` may know them: all of them for the side
        choosing or in a game without hidden information, none for the other side."""
        if match.current_player() == side or not self.game.hidden_information:
            return list(match.prefix)
        return []

    def observation_string(self, match: Match, side: Side) -> str:
        """The position as `side` sees it now, and the action being chosen (if it may see it)."""
        text = json.dumps(match.state.view(side), sort_keys=True, separators=(",", ":"))
        prefix = self.visible_prefix(match, side)
        return f"{text}\nchoosing: {match.space.text(prefix)}" if prefix else text

    def information_state_string(self, match: Match, side: Side) -> str:
        """Everything `side` has seen, in order: the record of the game as it read each entry
        when it was played, the dice it saw, its view now and its own choices in progress
        (perfect recall: two histories give equal strings only if `side` cannot tell them
        apart)."""
        lines = [f"henderson {self.game.name} {self.game.data_version} seat {side}"]
        lines.extend(match.log_lines(side))
        if match.pending is not None and (match.pending.player == side or not self.game.hidden_information):
            lines.append(f"rolling for {match.pending.action}: {match.pending.rolled}")
        lines.append(self.observation_string(match, side))
        return "\n".join(lines)
