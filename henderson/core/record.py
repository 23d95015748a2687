"""Game records: JSON Lines, a header then one line per action with the events it caused.

Records are how games are saved, replayed, exchanged and stored by the server.
Replaying a record reproduces the same final position, bit for bit.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from henderson.core.dice import ScriptedDice, SeededDice
from henderson.core.errors import HendersonError, RecordError
from henderson.core.events import Event
from henderson.core.game import Game, Side, State

RECORD_FORMAT = "henderson-record"
RECORD_VERSION = 1


@dataclass
class RecordEntry:
    """One action: who played it, its notation, and the events it caused."""

    ply: int
    player: str
    action: str
    events: list[dict[str, Any]] = field(default_factory=list)
    # how each side read the entry when it was written (`State.redact` on the position right
    # after it; "" for spectators): a game with hidden information redacts each entry once,
    # as of when it was played, and never again against a later position
    seen: dict[str, dict[str, Any]] | None = field(default=None, compare=False)

    def rolls(self) -> list[int]:
        return [int(e["data"]["value"]) for e in self.events if e.get("kind") == "roll"]

    def to_json(self) -> dict[str, Any]:
        return {"ply": self.ply, "player": self.player, "action": self.action, "events": self.events}


def seen_by(state: State, entry: RecordEntry, side: Side | None) -> dict[str, Any]:
    """A record entry as `side` may read it, judged on `state`, the position right after the
    entry's action (`State.redact`): a game with hidden information hides the other side's
    actions and events that `side` may not see."""
    return state.redact(entry.to_json(), side)


def note_seen(state: State, entry: RecordEntry) -> None:
    """Redact `entry` for every side and for spectators now, on `state`, the position right
    after its action, and keep the result with the entry: what a side read of an action is
    fixed when it is played (a later position must not reveal more of it)."""
    if state.game.hidden_information:
        entry.seen = {side or "": seen_by(state, entry, side) for side in (*state.game.sides, None)}


def read_by(entry: RecordEntry, side: Side | None) -> dict[str, Any]:
    """The entry as `side` read it when it was played (`note_seen`); the entry itself in a
    game without hidden information."""
    if entry.seen is None:
        return entry.to_json()
    return entry.seen[side or ""]


@dataclass
class GameRecord:
    """A whole game: header fields plus the entries in order."""

    game: str
    data_version: str
    seed: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    players: dict[str, str] = field(default_factory=dict)
    start: dict[str, Any] | None = None  # a position when the game did not start from set-up
    meta: dict[str, Any] = field(default_factory=dict)
    entries: list[RecordEntry] = field(default_factory=list)

    def header(self) -> dict[str, Any]:
        head: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game,
            "data_version": self.data_version,
            "seed": self.seed,
            "options": self.options,
            "players": self.players,
        }
        if self.start is not None:
            head["start"] = self.start
        if self.meta:
            head["meta"] = self.meta
        return head

    def add(self, player: str, action: str, events: list[Event]) -> RecordEntry:
        entry = RecordEntry(len(self.entries), player, action, [e.to_json() for e in events])
        self.entries.append(entry)
        return entry

    def lines(self) -> Iterator[str]:
        yield json.dumps(self.header(), separators=(",", ":"))
        for entry in self.entries:
            yield json.dumps(entry.to_json(), separators=(",", ":"))

    def dumps(self) -> str:
        return "\n".join(self.lines()) + "\n"

    def write(self, path: str | Path) -> None:
        """Write atomically: a crash leaves either the old file or the new one."""
        write_atomic(Path(path), self.dumps())

    @classmethod
    def loads(cls, text: str, source: str = "record") -> GameRecord:
        lines = [(i + 1, line) for i, line in enumerate(text.splitlines()) if line.strip()]
        if not lines:
            raise RecordError(f"{source}: empty file, expected a header line")
        objs: list[tuple[int, dict[str, Any]]] = []
        for number, line in lines:
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise RecordError(f"{source}: line {number}: not JSON ({exc.msg})") from None
            if not isinstance(obj, dict):
                raise RecordError(f"{source}: line {number}: expected a JSON object")
            objs.append((number, obj))
        number, head = objs[0]
        if head.get("format") != RECORD_FORMAT:
            raise RecordError(f"{source}: line {number}: format must be {RECORD_FORMAT!r}")
        if head.get("version") != RECORD_VERSION:
            raise RecordError(f"{source}: line {number}: unsupported version {head.get('version')!r}")
        for key, kind in (("game", str), ("data_version", str)):
            if not isinstance(head.get(key), kind):
                raise RecordError(f"{source}: line {number}: header field {key!r} missing or not text")
        seed = head.get("seed")
        if seed is not None and not isinstance(seed, int):
            raise RecordError(f"{source}: line {number}: header field 'seed' must be an integer")
        record = cls(
            game=head["game"],
            data_version=head["data_version"],
            seed=seed,
            options=dict(head.get("options") or {}),
            players=dict(head.get("players") or {}),
            start=head.get("start"),
            meta=dict(head.get("meta") or {}),
        )
        for number, obj in objs[1:]:
            action, player = obj.get("action"), obj.get("player")
            if not isinstance(action, str) or not isinstance(player, str):
                raise RecordError(f"{source}: line {number}: needs text fields 'action' and 'player'")
            events = obj.get("events", [])
            if not isinstance(events, list):
                raise RecordError(f"{source}: line {number}: 'events' must be a list")
            record.entries.append(RecordEntry(len(record.entries), player, action, events))
        return record

    @classmethod
    def read(cls, path: str | Path) -> GameRecord:
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"{path}: cannot read ({exc.strerror})") from None
        return cls.loads(text, str(path))


def write_atomic(path: Path, text: str) -> None:
    """Replace `path` with `text` so that readers see the old or the new file, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def start_state(record: GameRecord, game: Game) -> State:
    """The state a record starts from, with the dice that reproduce its rolls: the start
    position's own dice, else the header's seed, else the rolls written in the record."""
    if record.data_version != game.data_version:
        raise RecordError(
            f"the record was written for game data {record.data_version!r}, but this installation has "
            f"{game.data_version!r} (replay it with the data it was written for)"
        )
    scripted = ScriptedDice([v for entry in record.entries for v in entry.rolls()])
    if record.start is not None:
        stored = record.start.get("dice") if isinstance(record.start, dict) else None
        return game.load_state(record.start, dice=None if stored else scripted)
    dice: Any = SeededDice(record.seed) if record.seed is not None else scripted
    return game.new_state(record.seed, options=record.options, dice=dice)


def replay(
    record: GameRecord,
    game: Game,
    *,
    upto: int | None = None,
    on_entry: Callable[[RecordEntry, State], None] | None = None,
) -> State:
    """Play the record's actions from its start; check each action's dice against the record.

    Returns the state after `upto` actions (all when None). Raises RecordError naming the
    line whose action is illegal or whose dice differ. `on_entry(entry, state)` is called
    with each entry and the position right after it.
    """
    if game.name != record.game:
        raise RecordError(f"record is a {record.game!r} game, not {game.name!r}")
    state = start_state(record, game)
    entries = record.entries if upto is None else record.entries[:upto]
    for entry in entries:
        line = entry.ply + 2
        try:
            events = state.apply(entry.action)
        except HendersonError as exc:
            raise RecordError(f"line {line}: {entry.action!r}: {exc}") from None
        rolls = [int(e.data["value"]) for e in events if e.kind == "roll"]
        if rolls != entry.rolls():
            raise RecordError(f"line {line}: {entry.action!r}: dice {rolls} differ from the record's {entry.rolls()}")
        if on_entry is not None:
            on_entry(entry, state)
    return state


def record_for(
    game: Game, state: State, players: Mapping[str, str] | None = None, *, from_position: bool = False
) -> GameRecord:
    """An empty record for a game starting at `state`: a new game is known by its seed and
    options; a game started from a position keeps that position in the header."""
    return GameRecord(
        game=game.name,
        data_version=game.data_version,
        seed=state.seed,
        options=dict(state.options),
        players=dict(players or {}),
        start=state.to_json() if from_position else None,
    )
