"""One AAG position: pieces, airfields, control, victory points and where the turn stands.

`apply` checks an action against the rules modules (`rules/`), plays it, and then plays
on by itself while the only legal action is a forced one (an `end` with nothing else to
do, a `roll` with nothing to declare), so every decision left is a real one.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from henderson.core.dice import Dice
from henderson.core.errors import IllegalAction
from henderson.core.events import Event, roll_event
from henderson.core.game import State
from henderson.games.aag import sequence
from henderson.games.aag.actions import END, ROLL, Action, id_key
from henderson.games.aag.model import SIDES, SUPPLY, GameData, other
from henderson.games.aag.pieces import Piece

if TYPE_CHECKING:
    from henderson.games.aag.game import AagGame

POSITION_VERSION = 1


class AagState(State):
    """A position plus the dice that will decide what happens next."""

    turn: int = 1  # the game turn, counted from 1

    def __init__(self, game: AagGame, dice: Dice, seed: int | None) -> None:
        self._game = game
        self.data: GameData = game.data
        self.dice = dice
        self.seed = seed
        self.options: dict[str, Any] = {"hidden_movement": False, "advantages": False}
        self.turn = 1
        self.first = self.data.rules.first_player
        self.step_index = 0
        self.half = 0  # 0: the first player acts in this step, 1: the other player
        self.vp = {s: 0 for s in SIDES}
        self.vp_ships = {s: 0 for s in SIDES}  # points from sinking capital ships
        self.control: dict[str, str] = {}
        self.airfields: list[dict[str, Any]] = []  # {"island", "side", "damaged", "hit"}
        self.pieces: dict[str, Piece] = {}
        self.next_id = {s: 1 for s in SIDES}
        self.points = {s: 0 for s in SIDES}  # reinforcement points left this Regroup
        self.resolved: list[str] = []  # zones resolved in the current combat step
        self.battle: dict[str, Any] | None = None
        self.orders: dict[str, dict[str, str]] = {s: {} for s in SIDES}  # hidden sea orders
        self.tokens: dict[str, dict[str, int]] = {s: {} for s in SIDES}  # advantages left
        self.active: list[dict[str, Any]] = []  # advantages in force this turn
        self.deferred: dict[str, list[str]] = {}  # side -> unit types moved last (Coast Watchers)
        self.winner_side: str | None = None
        self._ply = 0
        self._events: list[Event] = []
        # speed: the legal actions of this position (kept until the next change), and
        # while legal actions are listed, the pieces by zone and by carrying ship
        self._legal: list[Action] | None = None
        self._index: tuple[dict[str, list[Piece]], dict[str, list[Piece]]] | None = None

    # --- protocol -----------------------------------------------------------------

    @property
    def game(self) -> AagGame:
        return self._game

    @property
    def ply(self) -> int:
        return self._ply

    @property
    def steps(self) -> tuple[str, ...]:
        return sequence.steps(
            bool(self.options.get("hidden_movement")), bool(self.options.get("advantages"))
        )

    @property
    def step(self) -> str:
        return self.steps[self.step_index]

    @property
    def second(self) -> str:
        return other(self.first)

    @property
    def mover(self) -> str:
        """The side acting in an alternating step (first player, then the other)."""
        return self.first if self.half == 0 else self.second

    def current_player(self) -> str | None:
        if self.is_terminal():
            return None
        if self.battle is not None:
            if self.battle.get("choice"):
                return str(self.battle["choice"]["chooser"])
            return str(self.battle["attacker"])
        if self.step in sequence.COMBAT_CATEGORY:
            return self.first  # AAG Combat: the first player chooses the order of zones
        return self.mover

    def legal_actions(self) -> list[Action]:
        if self.is_terminal():
            return []
        return list(self._legal_now())

    def _legal_now(self) -> list[Action]:
        """The legal actions, computed once per position (a state changes only by `apply`)."""
        if self._legal is None:
            from henderson.games.aag.rules import dispatch

            self._legal = dispatch.legal(self)
        return self._legal

    def _apply(self, action: Action) -> list[Event]:  # type: ignore[override]
        from henderson.games.aag.rules import dispatch

        if not dispatch.is_legal(self, action):
            dispatch.explain(self, action)  # raises IllegalAction naming the rule
            raise IllegalAction("AAG Sequence of Play", f"{action} is not legal now ({self.step})")
        self._events = []
        self._legal = None
        dispatch.play(self, action)
        self._ply += 1
        self._auto()
        events, self._events = self._events, []
        return events

    def _auto(self) -> None:
        """Play forced actions (an empty step's `end`, a `roll` with nothing to declare)."""
        from henderson.games.aag.rules import dispatch

        self._legal = None
        while not self.is_terminal():
            legal = self._legal_now()
            if len(legal) == 1 and legal[0] in (END, ROLL):
                self._legal = None
                dispatch.play(self, legal[0])
            else:
                return

    def clone(self) -> AagState:
        """An independent copy with cloned dice (a field-by-field copy: agents clone often)."""
        c = AagState(self._game, self.dice.clone(), self.seed)
        c.options = dict(self.options)
        c.turn, c.first, c.step_index, c.half = self.turn, self.first, self.step_index, self.half
        c.vp, c.vp_ships = dict(self.vp), dict(self.vp_ships)
        c.control = dict(self.control)
        c.airfields = [dict(a) for a in self.airfields]
        c.pieces = {pid: p.copy() for pid, p in self.pieces.items()}
        c.next_id, c.points = dict(self.next_id), dict(self.points)
        c.resolved = list(self.resolved)
        c.battle = _copy(self.battle)
        c.orders = {s: dict(o) for s, o in self.orders.items()}
        c.tokens = {s: dict(t) for s, t in self.tokens.items()}
        c.active = _copy(self.active)
        c.deferred = {side: list(kinds) for side, kinds in self.deferred.items()}
        c.winner_side = self.winner_side
        c._ply = self._ply
        c._legal = self._legal  # never changed in place, only replaced
        return c

    def is_terminal(self) -> bool:
        return self.winner_side is not None

    def winner(self) -> str | None:
        return self.winner_side

    @property
    def end_cause(self) -> str | None:
        """Why the game was won (AAG Regroup step 5), one of a few fixed phrases so that a
        simulation can count them: the winner reached the points to win and the other did
        not, or both had passed them and the winner had more (a tie went on, AAG Score
        Victory Points). None while the game goes on."""
        if self.winner_side is None:
            return None
        target = self.data.rules.points_to_win
        if self.vp.get(other(self.winner_side), 0) >= target:
            return f"{target} victory points, both past them: the higher total"
        return f"{target} victory points"


    # --- helpers used by the rules ------------------------------------------------

    def emit(self, kind: str, text: str, **data: Any) -> None:
        self._events.append(Event(kind, text, data))

    def roll(self, purpose: str) -> int:
        """One die through the injected dice source, recorded as an event naming the rule."""
        value = self.dice.roll(purpose, 6)
        self._events.append(roll_event(purpose, 6, value))
        return value

    def unit_type(self, piece: Piece) -> Any:
        return self.data.units.get(piece.type)

    def category(self, piece: Piece) -> str:
        return "land" if piece.type == SUPPLY else self.data.units[piece.type].category

    def on_board(self, side: str | None = None) -> Iterable[Piece]:
        """Pieces in play (not in a damaged area), optionally of one side, in id order."""
        for p in self.pieces.values():
            if not p.damaged and (side is None or p.side == side):
                yield p

    def in_zone(self, zone: str, side: str | None = None) -> list[Piece]:
        if self._index is not None:
            here = self._index[0].get(zone, [])
            return list(here) if side is None else [p for p in here if p.side == side]
        return [p for p in self.on_board(side) if p.zone == zone]

    def cargo(self, ship: Piece) -> list[Piece]:
        if self._index is not None:
            return list(self._index[1].get(ship.id, ()))
        return [p for p in self.pieces.values() if p.aboard == ship.id]

    def build_index(self) -> bool:
        """Index the pieces by zone and by ship while nothing moves (listing legal actions);
        False when an index is already in place. `drop_index` ends it."""
        if self._index is not None:
            return False
        by_zone: dict[str, list[Piece]] = {}
        by_ship: dict[str, list[Piece]] = {}
        for p in self.pieces.values():
            if not p.damaged:
                here = by_zone.get(p.zone)
                if here is None:
                    by_zone[p.zone] = [p]
                else:
                    here.append(p)
            ship = p.aboard
            if ship is not None:
                if ship in by_ship:
                    by_ship[ship].append(p)
                else:
                    by_ship[ship] = [p]
        self._index = (by_zone, by_ship)
        return True

    def drop_index(self) -> None:
        self._index = None

    def land_cargo(self, ship: Piece) -> list[Piece]:
        return [p for p in self.cargo(ship) if p.type != "fighter"]

    def fighters_aboard(self, ship: Piece) -> list[Piece]:
        return [p for p in self.cargo(ship) if p.type == "fighter"]

    def supplies(self, side: str, zone: str) -> list[Piece]:
        return [p for p in self.in_zone(zone, side) if p.type == SUPPLY and p.aboard is None]

    def new_piece(self, side: str, kind: str, zone: str, aboard: str | None = None) -> Piece:
        pid = f"{side}{self.next_id[side]}"
        self.next_id[side] += 1
        piece = Piece(pid, side, kind, zone, aboard)
        self.pieces[pid] = piece
        # pieces stay in id order, so a position and its reloaded copy list actions alike
        self.pieces = dict(sorted(self.pieces.items(), key=lambda kv: id_key(kv[0])))
        return piece

    def remove(self, piece: Piece) -> None:
        self.pieces.pop(piece.id, None)

    def base_land(self, side: str) -> str:
        return self.data.board.bases[side].land

    def base_sea(self, side: str) -> str:
        return self.data.board.bases[side].sea

    def enemy_base_zones(self, side: str) -> frozenset[str]:
        base = self.data.board.bases[other(side)]
        return frozenset((base.land, base.sea))

    def in_force(self, token: str, side: str, **match: Any) -> dict[str, Any] | None:
        """The advantage `token` that `side` has in force this turn, matching `match`."""
        for a in self.active:
            if (
                a["id"] == token
                and a["side"] == side
                and all(a.get(k) == v for k, v in match.items())
            ):
                return a
        return None

    def air_range(self, p: Piece) -> int:
        """Zones an air unit may fly per phase (Superior Fighters: fighters fly 3)."""
        rng = int(self.data.units[p.type].range)
        if p.type == "fighter" and self.in_force("superior_fighters", p.side):
            rng = 3
        return rng

    def airfields_of(self, side: str, island: str, undamaged: bool = False) -> list[dict[str, Any]]:
        return [
            a
            for a in self.airfields
            if a["side"] == side and a["island"] == island and not (undamaged and a["damaged"])
        ]

    def next_step(self) -> None:
        """Advance to the next step of the turn; after the last, score and pass the marker."""
        from henderson.games.aag.rules import regroup

        self.half = 0
        self.resolved = []
        self.battle = None
        if self.step_index + 1 < len(self.steps):
            self.step_index += 1
            from henderson.games.aag.rules import dispatch

            dispatch.enter_step(self)
            return
        regroup.score_and_pass(self)

    def end_half(self) -> None:
        """The acting side has finished this step: the other side acts, or the step ends."""
        from henderson.games.aag.rules import dispatch

        dispatch.leave_half(self)
        if self.half == 0:
            self.half = 1
            dispatch.enter_half(self)
        else:
            self.next_step()

    # --- positions ---------------------------------------------------------------

    def to_json(self, include_dice: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": "henderson-position",
            "game": "aag",
            "version": POSITION_VERSION,
            "data_version": self.data.data_version,
            "options": dict(self.options),
            "turn": self.turn,
            "first": self.first,
            "step": self.step,
            "half": self.half,
            "vp": dict(self.vp),
            "vp_ships": dict(self.vp_ships),
            "control": dict(sorted(self.control.items())),
            "airfields": [dict(a) for a in self.airfields],
            "pieces": [
                p.to_json() for p in sorted(self.pieces.values(), key=lambda p: id_key(p.id))
            ],
            "next_id": dict(self.next_id),
            "points": dict(self.points),
            "resolved": list(self.resolved),
            "battle": None if self.battle is None else {"dice": [], **_copy(self.battle)},
            "orders": {s: dict(o) for s, o in self.orders.items()},
            "tokens": {s: dict(t) for s, t in self.tokens.items()},
            "active": _copy(self.active),
            "deferred": {side: list(kinds) for side, kinds in self.deferred.items()},
            "winner": self.winner_side,
            "ply": self._ply,
        }
        if include_dice:
            out["dice"] = self.dice.to_json()
        return out

    def load_dict(self, obj: dict[str, Any]) -> None:
        from henderson.games.aag.position import load_into

        self._legal = None
        self._index = None
        load_into(self, obj)

    def view(self, side: str | None) -> dict[str, Any]:
        """The position without the dice and without the other side's secret sea orders."""
        data = self.to_json(include_dice=False)
        data["orders"] = {s: (o if s == side else {}) for s, o in data["orders"].items()}
        if self.step == "hidden:orders":
            hidden = {uid for s, o in self.orders.items() if s != side for uid in o}
            for p in data["pieces"]:
                if p["id"] in hidden:
                    p.pop("moved", None)  # that a unit has an order is itself secret
        return data

    def redact(self, entry: Mapping[str, Any], side: str | None) -> dict[str, Any]:
        """How another side's action and its events read to `side` (another side or a
        spectator): a secret sea order (AAG Appendix 1 Hidden Movement) shows only that an
        order was written; its units and destination come out when both sides' orders are
        revealed and carried out (public `move` events). Every other action is public."""
        player = str(entry.get("player"))
        events = list(entry.get("events", []))
        if player == side or not any(e.get("kind") == "order" for e in events):
            return dict(entry)
        note = {"kind": "order", "text": f"{player} writes a secret sea order", "data": {"side": player}}
        return {**entry, "action": "move (secret sea order)", "events": [note]}

    def secret_orders_of(self, side: str) -> bool:
        """Whether `side` cannot see all of the other side's sea orders now: in the hidden
        orders step, unless `side` writes first and the other has not yet begun."""
        if self.step != "hidden:orders":
            return False
        return not (self.half == 0 and self.first == side)

    def sample_unseen(self, side: str | None, rng: random.Random) -> AagState:
        """A clone in which what `side` cannot see is a guess consistent with its view, for
        look-ahead that must not read secrets. The other side's sea orders not yet revealed
        (AAG Appendix 1) are drawn again: each of its sea units that `side` sees unmoved
        stays or takes one legal sea move, uniformly at random, as it could have written.
        The future dice are drawn from `rng` as well. The result depends only on
        `view(side)` and `rng`."""
        from henderson.core.dice import SeededDice

        c = self.clone()
        c.dice = SeededDice(rng.getrandbits(63))
        for opp in SIDES if side is None else (other(side),):  # a spectator sees no order
            if not c.secret_orders_of(other(opp)):
                continue
            for uid in c.orders[opp]:
                if uid in c.pieces:
                    c.pieces[uid].moved = False  # as view(side) shows it
            c.orders[opp] = {}
            barred = c.enemy_base_zones(opp)
            graph = c.data.board.sea_graph
            for p in sorted(c.on_board(opp), key=lambda p: id_key(p.id)):
                if p.moved or p.aboard is not None or c.category(p) != "sea":
                    continue
                choices: list[str | None] = [None, *sorted(graph[p.zone] - barred)]
                dest = rng.choice(choices)
                if dest is not None:
                    c.orders[opp][p.id] = dest
                    p.moved = True
        c._legal = None
        c._index = None
        return c

    def odds(self, zone: str, category: str, side: str) -> Any:
        """The exact distribution of hits for `side`'s attack on `category` units in `zone`."""
        from henderson.games.aag.odds import zone_odds

        return zone_odds(self, zone, category, side)

    def __repr__(self) -> str:
        return f"AagState(turn={self.turn}, step={self.step}, ply={self._ply})"


def _copy(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _copy(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_copy(v) for v in obj]
    return obj
