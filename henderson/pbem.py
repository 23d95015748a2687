"""Play by e-mail without trust: two players exchange one file, and neither can learn a die
before committing the action that rolls it, retry an action, or choose a die.

The exchange file (JSON Lines) is a header and then the players' messages, in order. It
holds no position and no dice state: the game is rebuilt by replaying it. Every die comes
from a commit–reveal between the two players: each player always has one commitment
outstanding (the SHA-256 of a random value it keeps in its own secrets file, never sent).
An action that rolls is sent with a fresh random value of the mover's in clear and ends
the mover's message; the other player's next message reveals the value behind its
commitment, and the action's dice are derived from both (`KeyedDice`), so the mover
could not know them when it committed, and the other player committed before it saw the
mover's value. The reveal is the one extra exchange, and it happens exactly where an
action rolls. A player who does not reveal, or whose reveal does not match its
commitment, forfeits; `henderson verify` says so.

Each player's secrets file keeps its values and how far it has read the exchange, so a
file whose earlier lines were changed, or that holds messages in its name that it did
not write, is refused. What this does not protect: the file holds every action in clear,
so a game with hidden information is only hidden from a player who does not read it
(docs/threat-model.md).
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from henderson import games
from henderson.core import jsontext
from henderson.core.dice import KeyedDice, RecordedDice, commitment, stream_key
from henderson.core.errors import HendersonError
from henderson.core.game import DiceNeeded, Game, NoDice, Side, State, other_side
from henderson.core.record import RecordEntry, seen_by, write_atomic

FORMAT = "henderson-pbem"
VERSION = 1
SECRETS_FORMAT = "henderson-pbem-secrets"
DOMAIN = "henderson pbem dice 1"
HEADER_FIELDS = frozenset({"format", "version", "game", "data_version", "options", "exchange", "creator"})
MESSAGE_FIELDS = frozenset({"n", "from", "reveal", "value", "dice", "actions", "commit"})
ACTION_FIELDS = frozenset({"action", "value"})
MAX_LINES = 1_000_000  # more lines than any exchange holds


class ExchangeError(HendersonError):
    """An exchange file that cannot go on: the line and what is wrong with it."""

    def __init__(self, line: int, message: str, forfeit: Side | None = None, needs_value: bool = False) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.reason = message
        self.forfeit = forfeit  # the player who forfeits by it (a reveal that does not match)
        self.needs_value = needs_value  # an action that rolls, sent without the mover's value


def fresh_value() -> str:
    """A player's random value for the dice: 256 bits in hex."""
    return secrets.token_hex(32)


def _hex(value: Any, digits: int | None = None) -> bool:
    return (
        isinstance(value, str)
        and (len(value) == digits if digits else 32 <= len(value) <= 128)
        and set(value) <= set("0123456789abcdef")
    )


def digest(lines: Sequence[str]) -> str:
    """The SHA-256 of an exchange's first lines, as a player last saw them."""
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


@dataclass
class Pending:
    """Dice waiting for a player's reveal: a new game's set-up or an action that rolls."""

    line: int  # the line of the message with the clear value
    by: Side  # whose clear value
    waits_on: Side  # who must reveal
    value: str
    action: str | None  # None: the set-up

    def what(self) -> str:
        return "the set-up" if self.action is None else repr(self.action)


@dataclass
class Exchange:
    """An exchange file replayed and checked: the game, its state and who must do what."""

    game: Game
    header: dict[str, Any]
    lines: list[str]
    state: State | None = None
    joined: bool = False
    commitments: dict[Side, str | None] = field(default_factory=dict)
    pending: Pending | None = None
    setup_rolls: bool = False
    log: list[tuple[RecordEntry, dict[Side, dict[str, Any]]]] = field(default_factory=list)
    dice: int = 0  # dice rolled so far
    messages: int = 0

    @property
    def id(self) -> str:
        return str(self.header["exchange"])

    @property
    def creator(self) -> Side:
        return str(self.header["creator"])

    @property
    def joiner(self) -> Side:
        return other_side(self.game.sides, self.creator)

    def waiting_for(self) -> Side | None:
        """Who must send the next message: the player who must join or reveal, else the side
        that decides; None when the game is over."""
        if not self.joined:
            return self.joiner
        if self.pending is not None:
            return self.pending.waits_on
        assert self.state is not None
        return self.state.current_player()

    def status(self) -> str:
        """One line: where the exchange stands."""
        if not self.joined:
            return f"waiting for {self.joiner} to join"
        if self.pending is not None:
            return f"waiting for {self.pending.waits_on} to answer the dice of {self.pending.what()}"
        assert self.state is not None
        if self.state.is_terminal():
            won = self.state.winner()
            return f"game over: {f'{won} won' if won else 'a draw'} ({self.state.end_cause})"
        return f"{self.state.current_player()} to decide ({self.state.turn_label}, step {self.state.step})"

    # -- reading -------------------------------------------------------------------------------

    @classmethod
    def load(cls, text: str, source: str = "exchange") -> Exchange:
        """Read and replay an exchange, checking every message; ExchangeError names the line."""
        lines = [line for line in text.splitlines() if line.strip()]
        if not lines:
            raise HendersonError(f"{source}: empty file, expected an exchange header")
        head = _json(lines[0], 1)
        if head.get("format") != FORMAT:
            raise HendersonError(f"{source}: line 1: format must be {FORMAT!r}")
        if head.get("version") != VERSION:
            raise HendersonError(f"{source}: line 1: unsupported version {head.get('version')!r}")
        unknown = sorted(set(head) - HEADER_FIELDS)
        if unknown:
            raise HendersonError(f"{source}: line 1: unknown header field {unknown[0]!r}")
        name = head.get("game")
        if not isinstance(name, str):
            raise HendersonError(f"{source}: line 1: header field 'game' missing or not text")
        game = games.get(name)
        if head.get("data_version") != game.data_version:
            raise HendersonError(
                f"{source}: line 1: written for game data {head.get('data_version')!r}, this installation has "
                f"{game.data_version!r}"
            )
        if not _hex(head.get("exchange"), 32) or head.get("creator") not in game.sides:
            raise HendersonError(f"{source}: line 1: needs an 'exchange' id and the 'creator' side")
        options = game.check_options(head.get("options") or {})
        ex = cls(game, head, lines, commitments=dict.fromkeys(game.sides))
        try:
            ex.state = game.new_state(None, options=options, dice=NoDice())
        except DiceNeeded:
            ex.setup_rolls = True  # its dice come from both players once the other has joined
        for number, line in enumerate(lines[1:], 2):
            ex._message(number, _json(line, number))
        return ex

    def extended(self, msg: dict[str, Any]) -> Exchange:
        """A copy of the exchange with one more message, checked (this one is unchanged)."""
        line = json.dumps(msg, separators=(",", ":"))
        other = Exchange(
            self.game,
            self.header,
            [*self.lines, line],
            None if self.state is None else self.state.clone(),
            self.joined,
            dict(self.commitments),
            self.pending,
            self.setup_rolls,
            list(self.log),
            self.dice,
            self.messages,
        )
        other._message(len(other.lines), json.loads(line))
        return other

    def _message(self, line: int, msg: dict[str, Any]) -> None:
        """Check and play one message (a player's turn at the file)."""
        unknown = sorted(set(msg) - MESSAGE_FIELDS)
        if unknown:
            raise ExchangeError(line, f"unknown field {unknown[0]!r}")
        sender = msg.get("from")
        if sender not in self.game.sides:
            raise ExchangeError(line, f"'from' must be a side ({', '.join(self.game.sides)})")
        self.messages += 1
        number = msg.get("n")
        if isinstance(number, bool) or number != self.messages:
            raise ExchangeError(line, f"'n' must be the message's number, {self.messages}")
        if self.messages == 1:
            if sender != self.creator or set(msg) - {"n", "from", "commit"}:
                raise ExchangeError(line, f"the first message is {self.creator}'s commitment only")
        elif not self.joined:
            if sender != self.joiner:
                raise ExchangeError(line, f"waiting for {self.joiner} to join")
            self.joined = True
            if self.setup_rolls:
                value = msg.get("value")
                if not _hex(value):
                    raise ExchangeError(line, f"{sender} joins with a random 'value' for the set-up's dice")
                self.pending = Pending(line, sender, self.creator, str(value), None)
        elif "value" in msg:
            raise ExchangeError(line, "a message carries a 'value' only to join")
        self._reveal(line, sender, msg)
        actions = msg.get("actions", [])
        if not isinstance(actions, list):
            raise ExchangeError(line, "'actions' must be a list")
        for item in actions:
            self._action(line, sender, item)
        if "commit" in msg:
            if not _hex(msg["commit"], 64):
                raise ExchangeError(line, "'commit' must be a SHA-256 in hex")
            if self.commitments[sender] is not None:
                raise ExchangeError(line, f"{sender} has a commitment not yet revealed")
            self.commitments[sender] = str(msg["commit"])
        over = self.state is not None and self.state.is_terminal()
        if self.commitments[sender] is None and not over:
            raise ExchangeError(line, f"{sender} must commit to its next value ('commit')")

    def _reveal(self, line: int, sender: Side, msg: dict[str, Any]) -> None:
        """A reveal: the pending dice, derived from both players' values, and what they do."""
        pending = self.pending
        if pending is None or pending.waits_on != sender:
            if "reveal" in msg or "dice" in msg:
                raise ExchangeError(line, f"no dice wait on {sender}'s reveal")
            return
        value = msg.get("reveal")
        if value is None:
            raise ExchangeError(line, f"{sender} must first reveal its value for the dice of {pending.what()}")
        promised = self.commitments[sender]
        if not _hex(value) or promised is None or commitment(str(value)) != promised:
            raise ExchangeError(
                line, f"{sender}'s reveal does not match its commitment: {sender} forfeits", forfeit=sender
            )
        self.commitments[sender] = None
        key = stream_key(DOMAIN, self.id, str(pending.line), pending.action or "set-up", pending.value, str(value))
        dice = RecordedDice(KeyedDice(key))
        try:
            if pending.action is None:
                self.state = self.game.new_state(None, options=self.header.get("options") or {}, dice=dice)
            else:
                assert self.state is not None
                self.state.dice = dice
                self._played(pending.by, pending.action, self.state.apply(pending.action), dice.drawn)
        except HendersonError as exc:
            raise ExchangeError(line, f"the dice of {pending.what()}: {exc}") from None
        listed = msg.get("dice")
        if listed is not None and listed != dice.drawn:
            raise ExchangeError(line, f"the dice of {pending.what()} are {dice.drawn}, not {listed}")
        self.dice += len(dice.drawn)
        self.pending = None
        assert self.state is not None
        self.state.dice = NoDice()

    def _action(self, line: int, sender: Side, item: Any) -> None:
        """One action of the sender: played at once, or (with a clear value) left waiting for
        the other player's reveal when it rolls."""
        if not isinstance(item, dict) or not isinstance(item.get("action"), str) or set(item) - ACTION_FIELDS:
            raise ExchangeError(line, 'each action is {"action": NOTATION} (and "value" when it rolls)')
        text = item["action"]
        if self.pending is not None:
            raise ExchangeError(line, f"{text!r} follows {self.pending.what()}, whose dice are not known yet")
        state = self.state
        if state is None:
            raise ExchangeError(line, "the game is not set up yet")
        deciding = state.current_player()
        if deciding != sender:
            raise ExchangeError(line, f"{text!r} is not {sender}'s decision ({deciding or 'nobody'} decides)")
        state.dice = NoDice()
        try:
            events = state.apply(text)
        except DiceNeeded:
            value = item.get("value")
            other = other_side(self.game.sides, sender)
            if not _hex(value):
                raise ExchangeError(
                    line, f"{text!r} rolls dice: it carries a random 'value' of {sender}'s", needs_value=True
                ) from None
            if self.commitments[other] is None:
                raise ExchangeError(line, f"{text!r} rolls dice, but {other} has no commitment to answer") from None
            self.pending = Pending(line, sender, other, str(value), text)
            return
        except HendersonError as exc:
            raise ExchangeError(line, f"{text!r}: {exc}") from None
        if "value" in item:
            raise ExchangeError(line, f"{text!r} rolls no die: it carries no value")
        self._played(sender, text, events, [])

    def _played(self, side: Side, text: str, events: list[Any], dice: list[int]) -> None:
        assert self.state is not None
        entry = RecordEntry(len(self.log), side, text, [e.to_json() for e in events], list(dice))
        seen = {s: seen_by(self.state, entry, s) for s in self.game.sides}
        self.log.append((entry, seen))

    # -- a player's view --------------------------------------------------------------------

    def peek(self, side: Side, values: Mapping[str, str]) -> Exchange:
        """The exchange as `side` will see it once it reveals what waits on it (its own value
        from its secrets): the dice of the other player's action, and what they did."""
        pending = self.pending
        mine = self.commitments.get(side)
        if pending is None or pending.waits_on != side or mine is None or mine not in values:
            return self
        return self.extended(self._reveal_message(side, values))

    def _reveal_message(self, side: Side, values: Mapping[str, str]) -> dict[str, Any]:
        mine = self.commitments[side]
        assert mine is not None
        return {"n": self.messages + 1, "from": side, "reveal": values[mine], "commit": commitment(fresh_value())}


def _json(line: str, number: int) -> dict[str, Any]:
    try:
        obj = jsontext.loads(line)
    except json.JSONDecodeError as exc:
        raise ExchangeError(number, f"not JSON ({exc.msg})") from None
    if not isinstance(obj, dict):
        raise ExchangeError(number, "expected a JSON object")
    return obj


# -- a player's secrets ---------------------------------------------------------------------------


@dataclass
class Secrets:
    """What one player keeps and never sends: its side, its committed values (by their
    commitments), and the exchange as far as it has seen it (lines and their digest)."""

    exchange: str
    side: Side
    values: dict[str, str] = field(default_factory=dict)
    lines: int = 0
    seen: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "format": SECRETS_FORMAT,
            "version": VERSION,
            "exchange": self.exchange,
            "side": self.side,
            "values": self.values,
            "seen": {"lines": self.lines, "digest": self.seen},
        }

    def commit(self) -> str:
        """A new value kept here; its commitment goes into the exchange."""
        value = fresh_value()
        promised = commitment(value)
        self.values[promised] = value
        return promised

    def write(self, path: Path) -> None:
        write_atomic(path, json.dumps(self.to_json(), indent=1) + "\n")
        os.chmod(path, 0o600)

    @classmethod
    def read(cls, path: Path) -> Secrets:
        """A secrets file, every field checked (one line naming the first that is wrong): a
        hand-edited or damaged file is refused before it is used."""
        text = read_text(path)
        try:
            obj = jsontext.loads(text)
        except json.JSONDecodeError as exc:
            raise HendersonError(f"{path}: not JSON (line {exc.lineno}: {exc.msg})") from None
        seen = obj.get("seen") if isinstance(obj, dict) else None
        if (
            not isinstance(obj, dict)
            or obj.get("format") != SECRETS_FORMAT
            or not isinstance(obj.get("values"), dict)
            or not isinstance(seen, dict)
        ):
            raise HendersonError(f"{path}: not a {SECRETS_FORMAT} file")
        wrong = _secrets_problem(obj, seen)
        if wrong is not None:
            raise HendersonError(f"{path}: {wrong}")
        lines, seen_digest, values = seen.get("lines", 0), seen.get("digest", ""), obj["values"]
        return cls(str(obj["exchange"]), str(obj["side"]), dict(values), lines, str(seen_digest))


def _secrets_problem(obj: dict[str, Any], seen: dict[str, Any]) -> str | None:
    """What is wrong with a secrets file's fields, or None."""
    lines, seen_digest = seen.get("lines", 0), seen.get("digest", "")
    if not _hex(obj.get("exchange"), 32):
        return "'exchange' is not an exchange id"
    if not isinstance(obj.get("side"), str):
        return "'side' is not text"
    if isinstance(lines, bool) or not isinstance(lines, int) or not 0 <= lines <= MAX_LINES:
        return "'seen.lines' is not a count of lines"
    if seen_digest != "" and not _hex(seen_digest, 64):
        return "'seen.digest' is not a SHA-256 in hex"
    if any(not _hex(value) or commitment(str(value)) != key for key, value in obj["values"].items()):
        return "a value does not match its commitment"
    return None


# -- the commands ---------------------------------------------------------------------------------


def read_text(path: Path) -> str:
    """A file's text; HendersonError in one line when it cannot be read or is not UTF-8."""
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise HendersonError(f"{path}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise HendersonError(f"{path}: not UTF-8 text (byte {exc.start})") from None


def new_exchange(game: Game, side: Side, options: Mapping[str, Any], path: Path, secrets_path: Path) -> Exchange:
    """Start an exchange: its header and the creator's first commitment; the creator's
    secrets file is made (never overwritten)."""
    if side not in game.sides:
        raise HendersonError(f"{game.name} has no side {side!r} (sides: {', '.join(game.sides)})")
    for target in (path, secrets_path):
        if target.exists():
            raise HendersonError(f"{target} exists already: choose another file")
    head: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": game.name,
        "data_version": game.data_version,
        "options": game.check_options(options),
        "exchange": secrets.token_hex(16),
        "creator": side,
    }
    mine = Secrets(str(head["exchange"]), side)
    first = {"n": 1, "from": side, "commit": mine.commit()}
    ex = Exchange.load(json.dumps(head, separators=(",", ":"))).extended(first)
    _save(path, ex.lines, mine, secrets_path)
    return ex


def open_exchange(path: Path, secrets_path: Path, *, join: bool = False) -> tuple[Exchange, Secrets]:
    """An exchange as one player reads it: checked against what that player saw before (the
    lines it saw are unchanged, and nobody wrote in its name since). With `join`, the second
    player's secrets file is made if it does not exist."""
    text = read_text(path)
    ex = Exchange.load(text, str(path))
    if not secrets_path.exists():
        if not join:
            raise HendersonError(f"{secrets_path}: no such secrets file (the second player joins with 'answer')")
        if ex.joined:
            raise HendersonError(f"{path}: both players have joined already")
        return ex, Secrets(ex.id, ex.joiner)
    mine = Secrets.read(secrets_path)
    if mine.exchange != ex.id:
        raise HendersonError(f"{secrets_path} belongs to another exchange")
    if mine.side not in ex.game.sides:
        raise HendersonError(f"{secrets_path}: side {mine.side!r} is no side of {ex.game.name}")
    if mine.lines > len(ex.lines) or digest(ex.lines[: mine.lines]) != mine.seen:
        raise HendersonError(
            f"{path} does not continue the exchange as you last saw it (lines 1-{mine.lines} changed): do not play on"
        )
    for number, line in enumerate(ex.lines[mine.lines :], mine.lines + 1):
        if number > 1 and json.loads(line).get("from") == mine.side:
            raise HendersonError(f"{path}: line {number} is a message in your name that you did not send")
    return ex, mine


def take_turn(
    path: Path, secrets_path: Path, actions: Sequence[str], *, join: bool = False
) -> tuple[Exchange, list[str]]:
    """Add one message of the player whose secrets these are: join or reveal what waits on it,
    then its actions (an action that rolls carries a fresh value of its own and must be the
    last: its dice need the other player's answer), then a new commitment when it has none
    left. The whole message is checked before anything is written; returns the exchange
    after it and what it did, one line each."""
    ex, mine = open_exchange(path, secrets_path, join=join)
    side = mine.side
    msg: dict[str, Any] = {"n": ex.messages + 1, "from": side}
    said: list[str] = []
    if not ex.joined:
        if side != ex.joiner:
            raise HendersonError(f"waiting for {ex.joiner} to join: send {path} to {ex.joiner}'s player")
        if ex.setup_rolls:
            msg["value"] = fresh_value()
        said.append(f"{side} joins")
    elif join:
        raise HendersonError(f"{path}: both players have joined already")
    pending = ex.pending
    if pending is not None and pending.waits_on == side:
        promised = ex.commitments[side]
        if promised is None or promised not in mine.values:
            raise HendersonError(f"{secrets_path} does not hold the value of your commitment: you cannot reveal")
        msg["reveal"] = mine.values[promised]
        said.append(f"{side} reveals its value: the dice of {pending.what()} are rolled")
    commit = None
    if ex.commitments.get(side) is None or "reveal" in msg:
        commit = mine.commit()
    items: list[dict[str, Any]] = []
    for text in actions:
        if items and "value" in items[-1]:
            raise HendersonError(
                f"{items[-1]['action']!r} rolls dice, whose values need the other player's answer: it must be the "
                f"last action of a message ({text!r} and what follows were not played; nothing was written)"
            )
        item: dict[str, Any] = {"action": text}
        try:
            _trial(ex, msg, [*items, item], commit)
        except ExchangeError as exc:
            if not exc.needs_value:
                raise HendersonError(f"{text!r}: {exc.reason} (nothing was written)") from None
            item["value"] = fresh_value()
            try:
                _trial(ex, msg, [*items, item], commit)
            except ExchangeError as again:
                raise HendersonError(f"{text!r}: {again.reason} (nothing was written)") from None
        items.append(item)
        if "value" in item:
            said.append(f"{side}: {text} rolls: its dice wait for the other player's answer")
    if items:
        msg["actions"] = items
    if commit is not None:
        msg["commit"] = commit
    if not items and "reveal" not in msg and ex.joined:
        raise HendersonError(f"nothing to send: {ex.status()}")
    done = ex.extended(msg)
    _save(path, done.lines, mine, secrets_path)
    return done, said


def _trial(ex: Exchange, msg: dict[str, Any], items: list[dict[str, Any]], commit: str | None) -> Exchange:
    """The exchange with a message under construction, checked."""
    trial = {**msg, "actions": items}
    if commit is not None:
        trial["commit"] = commit
    return ex.extended(trial)


def _save(path: Path, lines: list[str], mine: Secrets, secrets_path: Path) -> None:
    """Write the secrets first (a value whose commitment is sent must never be lost), then
    the exchange."""
    mine.lines = len(lines)
    mine.seen = digest(lines)
    mine.write(secrets_path)
    write_atomic(path, "\n".join(lines) + "\n")


def verify_exchange(text: str, source: str = "exchange") -> tuple[bool, str]:
    """Check a whole exchange file the way a server record is checked: every reveal matches
    its commitment, every die is the one both players' values give, every action is legal
    and its player's decision. One line: verified (so far), or what failed and who forfeits."""
    try:
        ex = Exchange.load(text, source)
    except ExchangeError as exc:
        return False, f"FAILED: {exc}"
    actions = len(ex.log)
    summary = f"{actions} actions and {ex.dice} dice, every die from both players' values"
    if ex.pending is not None:
        return True, (
            f"verified so far: {summary}; waiting for {ex.pending.waits_on} to reveal its value for the dice of "
            f"{ex.pending.what()} (line {ex.pending.line}): a player who does not reveal forfeits"
        )
    if ex.state is not None and ex.state.is_terminal():
        return True, f"verified: {summary}; {ex.status()}"
    return True, f"verified so far: {summary}; {ex.status()}"
