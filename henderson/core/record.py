"""Game records: JSON Lines, a header then one line per action with the events it caused
and every die it rolled.

Records are how games are saved, replayed, exchanged and stored by the server.
Replaying a record reproduces the same final position, bit for bit. A server's record
also carries the commitment to its secret dice (`SecretDice`), revealed when the game
ends, so that `verify` can check every die of it afterwards.
"""

from __future__ import annotations

import itertools
import json
import os
import tempfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from henderson.core import jsontext
from henderson.core.dice import (
    SEED_LIMIT,
    Contribution,
    Dice,
    RecordedDice,
    ScriptedDice,
    SecretDice,
    SeededDice,
    check_random_value,
    commitment,
    dice_from_json,
)
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
    # every die the action rolled, in order, announced in an event or not (None: not listed,
    # as in records written before dice were listed; then the roll events are the dice)
    dice: list[int] | None = None
    # how each side read the entry when it was written (`State.redact` on the position right
    # after it; "" for spectators): a game with hidden information redacts each entry once,
    # as of when it was played, and never again against a later position
    seen: dict[str, dict[str, Any]] | None = field(default=None, compare=False)

    def rolls(self) -> list[int]:
        return [int(e["data"]["value"]) for e in self.events if e.get("kind") == "roll"]

    def to_json(self) -> dict[str, Any]:
        """The entry as a player may be shown it (before redaction): without the list of dice,
        which may hold a die that was rolled out of a player's sight."""
        return {"ply": self.ply, "player": self.player, "action": self.action, "events": self.events}

    def line(self) -> dict[str, Any]:
        """The entry as its record line: with every die it rolled, when they are listed."""
        out = self.to_json()
        if self.dice is not None:
            out["dice"] = self.dice
        return out


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
class DiceCommitment:
    """The header's `dice`: a server's commitment to the secret its dice come from (the
    SHA-256 of the secret, published when the match is made), the players' contributions
    with the die each keys from, whether the set-up's dice came from it, the first entry
    whose dice it gives (the entries before it were uploaded: their dice are the
    uploader's), and the secret itself once the game is over (None before: while a game
    goes on the secret never leaves the server)."""

    commitment: str
    contributions: list[Contribution] = field(default_factory=list)
    from_entry: int = 0
    secret: str | None = None
    setup: bool = True  # the dice of the set-up came from the secret (a new game)

    def to_json(self) -> dict[str, Any]:
        return {
            "scheme": SCHEME,
            "commitment": self.commitment,
            "setup": self.setup,
            "from_entry": self.from_entry,
            "contributions": [c.to_json() for c in self.contributions],
            "secret": self.secret,
        }

    @classmethod
    def from_json(cls, obj: Any) -> DiceCommitment:
        """The header's `dice` object; ValueError names what is wrong."""
        if not isinstance(obj, dict):
            raise ValueError("'dice' must be an object")
        if obj.get("scheme") != SCHEME:
            raise ValueError(f"'dice.scheme' must be {SCHEME!r}")
        found = obj.get("commitment")
        if not isinstance(found, str) or len(found) != 64 or not set(found) <= set("0123456789abcdef"):
            raise ValueError("'dice.commitment' must be a SHA-256 in hex")
        start = obj.get("from_entry", 0)
        if not isinstance(start, int) or isinstance(start, bool) or start < 0:
            raise ValueError("'dice.from_entry' must be an entry number")
        given = obj.get("contributions", [])
        if not isinstance(given, list):
            raise ValueError("'dice.contributions' must be a list")
        contributions = [Contribution.from_json(c) for c in given]
        if any(b.roll < a.roll for a, b in itertools.pairwise(contributions)):
            raise ValueError("'dice.contributions' must be in the order of their dice")
        secret = obj.get("secret")
        if secret is not None:
            try:
                check_random_value(secret, "'dice.secret'")
            except HendersonError as exc:
                raise ValueError(str(exc)) from None
        setup = obj.get("setup", True)
        if not isinstance(setup, bool):
            raise ValueError("'dice.setup' must be true or false")
        return cls(found, contributions, start, secret, setup)


SCHEME = "henderson secret dice 1"  # SecretDice: SHA-256 of the secret and the contributions


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
    # every die rolled to set the game up (None: not listed; the seed or nothing made them)
    setup_dice: list[int] | None = None
    dice: DiceCommitment | None = None  # a server's secret dice (commit–reveal)

    def listed(self) -> bool:
        """Whether the record lists every die it rolled (set-up and each action's)."""
        return self.setup_dice is not None

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
        if self.setup_dice is not None:
            head["setup_dice"] = self.setup_dice
        if self.dice is not None:
            head["dice"] = self.dice.to_json()
        if self.meta:
            head["meta"] = self.meta
        return head

    def add(self, player: str, action: str, events: list[Event], dice: list[int] | None = None) -> RecordEntry:
        entry = RecordEntry(len(self.entries), player, action, [e.to_json() for e in events], dice)
        self.entries.append(entry)
        return entry

    def lines(self) -> Iterator[str]:
        yield json.dumps(self.header(), separators=(",", ":"))
        for entry in self.entries:
            yield json.dumps(entry.line(), separators=(",", ":"))

    def dumps(self) -> str:
        return "\n".join(self.lines()) + "\n"

    def write(self, path: str | Path) -> None:
        """Write atomically: a crash leaves either the old file or the new one."""
        write_atomic(Path(path), self.dumps())

    @classmethod
    def loads(cls, text: str, source: str = "record") -> GameRecord:
        """A record from its JSON Lines text, every field checked before any game code runs:
        known fields only, each of its type, numbers in range, nesting and length bounded.
        RecordError names the line and the field."""
        lines = [(i + 1, line) for i, line in enumerate(text.splitlines()) if line.strip()]
        if not lines:
            raise RecordError(f"{source}: empty file, expected a header line")
        if len(lines) > MAX_ENTRIES + 1:
            raise RecordError(f"{source}: more than {MAX_ENTRIES} actions")
        objs: list[tuple[int, dict[str, Any]]] = []
        for number, line in lines:
            obj = _parse_line(line, f"{source}: line {number}")
            if not isinstance(obj, dict):
                raise RecordError(f"{source}: line {number}: expected a JSON object")
            objs.append((number, obj))
        number, head = objs[0]
        where = f"{source}: line {number}"
        if head.get("format") != RECORD_FORMAT:
            raise RecordError(f"{where}: format must be {RECORD_FORMAT!r}")
        if head.get("version") != RECORD_VERSION or isinstance(head.get("version"), bool):
            raise RecordError(f"{where}: unsupported version {_show(head.get('version'))}")
        unknown = [k for k in head if k not in HEADER_FIELDS]
        if unknown:
            raise RecordError(f"{where}: unknown header field {_show(unknown[0])}")
        for key in ("game", "data_version"):
            value = head.get(key)
            if not isinstance(value, str) or not 0 < len(value) <= MAX_NAME:
                raise RecordError(f"{where}: header field {key!r} missing or not text of 1..{MAX_NAME} characters")
        seed = head.get("seed")
        if seed is not None and (not _is_int(seed) or not 0 <= seed < SEED_LIMIT):
            raise RecordError(f"{where}: header field 'seed' must be an integer 0..2**64-1, got {_show(seed)}")
        setup = head.get("setup_dice")
        if setup is not None and not _dice_list(setup):
            raise RecordError(f"{where}: header field 'setup_dice' must be a list of dice")
        for key in ("options", "players", "meta"):
            if head.get(key) is not None and not isinstance(head.get(key), dict):
                raise RecordError(f"{where}: header field {key!r} must be an object")
        for side, player in (head.get("players") or {}).items():
            if not isinstance(player, str) or not 0 < len(player) <= MAX_NAME or len(side) > MAX_NAME:
                raise RecordError(f"{where}: header field 'players.{side[:MAX_NAME]}' must be a player's name")
        start = head.get("start")
        if start is not None and not isinstance(start, dict):
            raise RecordError(f"{where}: header field 'start' must be a position (an object)")
        try:
            committed = None if head.get("dice") is None else DiceCommitment.from_json(head["dice"])
        except ValueError as exc:
            raise RecordError(f"{where}: {exc}") from None
        record = cls(
            game=head["game"],
            data_version=head["data_version"],
            seed=seed,
            options=dict(head.get("options") or {}),
            players=dict(head.get("players") or {}),
            start=start,
            meta=dict(head.get("meta") or {}),
            setup_dice=None if setup is None else list(setup),
            dice=committed,
        )
        for number, obj in objs[1:]:
            record.entries.append(_entry(obj, len(record.entries), f"{source}: line {number}"))
        return record

    @classmethod
    def read(cls, path: str | Path) -> GameRecord:
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"{path}: cannot read ({exc.strerror})") from None
        return cls.loads(text, str(path))


HEADER_FIELDS = frozenset(
    ("format", "version", "game", "data_version", "seed", "options", "players", "start", "setup_dice", "dice", "meta")
)
ENTRY_FIELDS = frozenset(("ply", "player", "action", "events", "dice"))
EVENT_FIELDS = frozenset(("kind", "text", "data"))
MAX_ENTRIES = 100_000  # actions in one record: no game of these comes near it
MAX_DICE = 10_000  # dice listed for one action or the set-up
MAX_DEPTH = jsontext.MAX_DEPTH  # nesting of JSON objects and lists in one line
MAX_NAME = 200  # a game, data version, side or player name
MAX_TEXT = 4000  # an action's notation or an event's text


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_die(value: Any) -> bool:
    return _is_int(value) and 1 <= value <= 1000


def _dice_list(value: Any) -> bool:
    return isinstance(value, list) and len(value) <= MAX_DICE and all(_is_die(v) for v in value)


def depth_of(value: Any, limit: int = MAX_DEPTH) -> int:
    """How deep JSON objects and lists nest in `value` (counted without recursion, stopping
    once past `limit`), so that a line nested too deep is refused before anything walks it."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            if deepest > limit:
                return deepest
            stack.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


def _parse_line(line: str, where: str) -> Any:
    """One JSON line, refused when it is not JSON or nests deeper than MAX_DEPTH."""
    try:
        obj = jsontext.loads(line)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{where}: not JSON ({exc.msg})") from None
    if depth_of(obj) > MAX_DEPTH:
        raise RecordError(f"{where}: JSON nested deeper than {MAX_DEPTH} levels")
    return obj


def _entry(obj: dict[str, Any], index: int, where: str) -> RecordEntry:
    """One action line of a record, checked field by field (RecordError names the field)."""
    unknown = [k for k in obj if k not in ENTRY_FIELDS]
    if unknown:
        raise RecordError(f"{where}: unknown field {_show(unknown[0])}")
    action, player = obj.get("action"), obj.get("player")
    if not isinstance(action, str) or not isinstance(player, str):
        raise RecordError(f"{where}: needs text fields 'action' and 'player'")
    if len(action) > MAX_TEXT or len(player) > MAX_NAME:
        raise RecordError(f"{where}: 'action' or 'player' is too long")
    ply = obj.get("ply", index)
    if not _is_int(ply) or ply != index:
        raise RecordError(f"{where}: 'ply' must be {index}, the entry's number, got {_show(ply)}")
    events = obj.get("events", [])
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        raise RecordError(f"{where}: 'events' must be a list of objects")
    for n, event in enumerate(events):
        bad = [k for k in event if k not in EVENT_FIELDS]
        if bad:
            raise RecordError(f"{where}: events[{n}]: unknown field {_show(bad[0])}")
        kind, text, data = event.get("kind"), event.get("text", ""), event.get("data", {})
        if not isinstance(kind, str) or not isinstance(text, str) or len(text) > MAX_TEXT:
            raise RecordError(f"{where}: events[{n}]: needs text fields 'kind' and 'text'")
        if not isinstance(data, dict):
            raise RecordError(f"{where}: events[{n}]: 'data' must be an object")
        if kind == "roll" and not _is_die(data.get("value")):
            raise RecordError(f"{where}: events[{n}]: a roll event needs a die 'value' 1..1000")
    dice = obj.get("dice")
    if dice is not None and not _dice_list(dice):
        raise RecordError(f"{where}: 'dice' must be a list of dice")
    return RecordEntry(index, player, action, events, dice)


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


def check_data(record: GameRecord, game: Game) -> None:
    """A record must be of this game and written for this installation's data."""
    if game.name != record.game:
        raise RecordError(f"record is a {record.game!r} game, not {game.name!r}")
    if record.data_version != game.data_version:
        raise RecordError(
            f"the record was written for game data {record.data_version!r}, but this installation has "
            f"{game.data_version!r} (replay it with the data it was written for)"
        )


def entry_dice(entry: RecordEntry) -> list[int]:
    """The dice an entry rolled: its list, or (a record that lists none) its roll events."""
    return entry.dice if entry.dice is not None else entry.rolls()


def own_dice(record: GameRecord, faces: int = 6) -> Dice | None:
    """The dice that reproduce a record's rolls as it was written: the dice it lists, else
    the start position's own dice (None: load them with the position), else the header's
    seed, else the rolls written in its events."""
    if record.listed():
        return ScriptedDice([*(record.setup_dice or []), *(v for e in record.entries for v in entry_dice(e))])
    if record.start is not None and record.start.get("dice"):
        try:
            return dice_from_json(record.start["dice"], faces)
        except ValueError as exc:
            raise RecordError(f"line 1: start: dice: {exc}") from None
    if record.seed is not None:
        return SeededDice(record.seed)
    return ScriptedDice([v for entry in record.entries for v in entry.rolls()])


def opening(record: GameRecord, game: Game, dice: Dice | None = None) -> tuple[State, list[int]]:
    """The state a record starts from, rolling with `dice` (else `own_dice`), and the dice
    rolled to reach it (a new game's set-up, or a start position's entry work). The dice of
    a record that lists them must be those listed (`setup_dice`)."""
    check_data(record, game)
    counted = RecordedDice(dice if dice is not None else own_dice(record, game.die_faces) or ScriptedDice([]))
    if record.start is not None:
        state = game.load_state(record.start, dice=counted)
    else:
        state = game.new_state(record.seed, options=record.options, dice=counted)
    made = counted.take()
    if dice is None and record.setup_dice is not None and made != record.setup_dice:
        raise RecordError(f"line 1: the set-up rolled {made}, the record lists {record.setup_dice}")
    state.dice = counted.inner
    return state, made


def start_state(record: GameRecord, game: Game) -> State:
    """The state a record starts from, with the dice that reproduce its rolls (`own_dice`)."""
    return opening(record, game)[0]


def replay(
    record: GameRecord,
    game: Game,
    *,
    upto: int | None = None,
    on_entry: Callable[[RecordEntry, State], None] | None = None,
) -> State:
    """Play the record's actions from its start; check each action's dice against the record
    (its roll events, and the list of its dice when the record lists them).

    Returns the state after `upto` actions (all when None). Raises RecordError naming the
    line whose action is illegal or whose dice differ. `on_entry(entry, state)` is called
    with each entry and the position right after it.
    """
    state = start_state(record, game)
    entries = record.entries if upto is None else record.entries[:upto]
    counted = RecordedDice(state.dice)
    state.dice = counted
    for entry in entries:
        play_entry(state, entry, counted)
        if on_entry is not None:
            on_entry(entry, state)
    state.dice = counted.inner
    return state


def play_entry(state: State, entry: RecordEntry, counted: RecordedDice, source: str = "was rolled") -> RecordEntry:
    """Play one entry on `state` (whose dice are `counted`), checking who played it and its
    dice; the entry as it was played (the action's notation, the events and every die it
    rolled). RecordError names the entry's line and the first die that differs (`source`
    says where the die that should have been came from)."""
    line = entry.ply + 2
    deciding = state.current_player()
    if deciding is not None and entry.player != deciding:
        raise RecordError(f"line {line}: {entry.action!r} is {entry.player}'s, but it was {deciding}'s decision")
    counted.take()
    try:
        action = state.game.parse_action(entry.action)
        events = state.apply(action)
    except HendersonError as exc:
        raise RecordError(f"line {line}: {entry.action!r}: {exc}") from None
    drawn = counted.take()
    rolls = [int(e.data["value"]) for e in events if e.kind == "roll"]
    for mine, theirs, what in ((drawn, entry.dice, "dice"), (rolls, entry.rolls(), "rolls")):
        if theirs is None or mine == theirs:
            continue
        for n, (a, b) in enumerate(zip(mine, theirs, strict=False), 1):
            if a != b:
                raise RecordError(f"line {line}: {entry.action!r}: die {n} is {b} in the record, but {a} {source}")
        raise RecordError(f"line {line}: {entry.action!r}: {what} {mine} differ from the record's {theirs}")
    return RecordEntry(entry.ply, entry.player, str(action), [e.to_json() for e in events], drawn)


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


# -- verification ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """What `verify` found: `ok` only when every die is proved to come from the committed
    secret and the contributions; `text` is the one line to print."""

    ok: bool
    text: str


def verify(record: GameRecord, game: Game) -> Verdict:
    """Check a server's finished record: the revealed secret matches the commitment, every die
    (set-up included) is the one the secret and the contributions give, each action is legal,
    and the roll events say what was rolled. A changed die is reported with its line."""
    check_data(record, game)
    committed = record.dice
    if committed is None:
        how = f"seed {record.seed}" if record.seed is not None else "no secret"
        return Verdict(
            False,
            f"not verifiable: the record's dice come from {how} that its writer knew in advance "
            "(only a record with a commitment to secret dice can be verified)",
        )
    if committed.secret is None:
        return Verdict(
            False,
            f"not verifiable yet: the secret behind commitment {committed.commitment[:16]}… "
            "is revealed when the game ends",
        )
    if commitment(committed.secret) != committed.commitment:
        return Verdict(False, "FAILED: line 1: the revealed secret does not match the commitment")
    if committed.from_entry > len(record.entries):
        return Verdict(False, "FAILED: line 1: 'dice.from_entry' is past the last entry")
    secret = SecretDice(committed.secret, committed.contributions)
    covered_setup = committed.setup
    if covered_setup and (record.start is not None or committed.from_entry):
        return Verdict(False, "FAILED: line 1: set-up dice from the secret, but the record resumes another")
    if covered_setup and record.setup_dice is None:
        return Verdict(False, "FAILED: line 1: the record does not list its set-up dice")
    try:
        source: Dice = secret if covered_setup else ScriptedDice(record.setup_dice or [])
        state, made = opening(record, game, source)
        if made != (record.setup_dice or []):
            return Verdict(False, f"FAILED: line 1: the set-up dice {record.setup_dice} are not the dice {made}")
        for index, entry in enumerate(record.entries):
            covered = index >= committed.from_entry
            if covered and entry.dice is None:
                return Verdict(False, f"FAILED: line {index + 2}: the entry does not list its dice")
            counted = RecordedDice(secret if covered else ScriptedDice(entry_dice(entry)))
            state.dice = counted
            play_entry(state, entry, counted, "comes from the committed dice" if covered else "was rolled")
    except RecordError as exc:
        return Verdict(False, f"FAILED: {exc}")
    except HendersonError as exc:
        return Verdict(False, f"FAILED: line 1: {exc}")
    rolled = secret.index
    given = len(committed.contributions)
    history = (
        f"; the first {committed.from_entry} actions were uploaded and their dice are the uploader's"
        if committed.from_entry
        else ""
    )
    if state.is_terminal():
        won = state.winner()
        end = f"{won} won" if won else "a draw"
        result = f"game over, {end} ({state.end_cause})"
    else:
        result = "the game is not over"
    return Verdict(
        True,
        f"verified: {len(record.entries)} actions and {rolled} dice from the committed secret "
        f"and {given} contribution{'s' if given != 1 else ''}{history}; {result}",
    )
