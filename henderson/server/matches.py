"""Live matches: the authoritative states, who may act, the dice, the computer players and
who listens.

The server holds each match's state in memory and its record in the database. An
action is checked (seat, turn, state id, rules), played on a copy, stored, and only
then becomes the match's state and is acknowledged and pushed to the listeners.

The dice come from a secret the server draws for each match, published only as its
commitment until the game ends, mixed with a random contribution from each human seat
(`SecretDice`); a seat sees nothing that depends on what it cannot see (its view, its
log as it read it when each action was played, previews and odds made on what it may
know), and a seat's token reaches only the person who holds the seat (invites).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import secrets
import threading
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from henderson import agents, games
from henderson.agents import Agent
from henderson.core.dice import (
    Contribution,
    DiceExhausted,
    RecordedDice,
    ScriptedDice,
    SecretDice,
    SeededDice,
    check_random_value,
    commitment,
    fresh_secret,
    fresh_seed,
)
from henderson.core.errors import HendersonError, RecordError
from henderson.core.game import Action, Capability, DiceNeeded, Game, NoDice, Odds, State, trial
from henderson.core.record import (
    DiceCommitment,
    GameRecord,
    RecordEntry,
    entry_dice,
    note_seen,
    opening,
    play_entry,
    read_by,
    start_state,
)
from henderson.core.sealed import SealError, key_of, read_copy, seal, share_of, unseal
from henderson.server.answers import EncodedJSON, json_text
from henderson.server.errors import ApiError
from henderson.server.storage import Append, GroupCommit, Seat, StaleWrite, StorageError, Store

log = logging.getLogger("henderson.server")

HUMAN = "human"
CHECKPOINT_EVERY = 25
CHECKPOINT_LIMIT = 400
SPECTATOR = "spectator"
TOKEN_LIMIT = 128  # longer bearer texts are no token or invite of this server
MAX_LIVE = 256  # matches kept in memory at most (the least recently used leave first)
IDLE_SECONDS = 900.0  # a match nobody asked for this long leaves memory
SEAT_CACHE = 10_000  # seat tokens remembered without asking the database
POLL_SECONDS = 2.0  # how often the revisions of watched matches are read (changes by other processes)
CHANGED_ELSEWHERE = "the match was changed by another server process first: fetch the state and decide again"


def new_token() -> str:
    """An unguessable seat token or invite code (192 random bits)."""
    return secrets.token_urlsafe(24)


@dataclass(eq=False)
class Listener:
    """A connection that wants the match's updates for one side (None: a spectator)."""

    side: str | None
    wake: asyncio.Queue[None] = field(default_factory=lambda: asyncio.Queue(maxsize=1))

    def notify(self) -> None:
        if self.wake.empty():
            self.wake.put_nowait(None)


def recorded(state: State) -> RecordedDice:
    """The dice of a match's state: every value drawn is noted, for the record."""
    dice = state.dice
    if not isinstance(dice, RecordedDice):
        raise TypeError("a match's state rolls with RecordedDice")
    return dice


def secret_of(state: State) -> SecretDice:
    """The secret dice of a match's state."""
    inner = recorded(state).inner
    if not isinstance(inner, SecretDice):
        raise TypeError("a match's state rolls with SecretDice")
    return inner


DESCRIBED_LIMIT = 20_000  # structured actions kept, across games (some 4 MB at most), then begun again
_described: dict[tuple[str, str, str], str] = {}


def described_text(game: Game, action: Action, text: str | None = None) -> str:
    """An action as a verb with typed arguments (`Game.describe`), as JSON text; `text`, the
    action's text when the caller has it already. The same action text always describes the
    same way in one game, so each is worked out and encoded once (a crowded DG position lists
    some 2,400 actions for every state it sends). Kept as text, not as dicts and lists: text
    costs the garbage collector nothing, and it stops every thread while it looks through
    containers."""
    key = (game.name, game.data_version, str(action) if text is None else text)
    found = _described.get(key)
    if found is None:
        if len(_described) >= DESCRIBED_LIMIT:
            _described.clear()
        found = _described[key] = json_text(game.describe(action).to_json())
    return found


def described(game: Game, action: Action, text: str | None = None) -> dict[str, Any]:
    """`described_text` read back as JSON."""
    found: dict[str, Any] = json.loads(described_text(game, action, text))
    return found


@dataclass(eq=False)
class LiveMatch:
    """A match loaded in memory: its game, its state and its record, kept in step, and the
    secret its dice come from (in the record's header only once the game is over)."""

    id: str
    game: Game
    state: State
    record: GameRecord
    secret: str
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: set[Listener] = field(default_factory=set)
    agents: dict[str, Agent] = field(default_factory=dict)
    agent_task: asyncio.Task[None] | None = None
    problem: str | None = None  # why a computer player stopped, shown to the players
    checkpoints: dict[int, State] = field(default_factory=dict)  # step -> state, for replay
    revision: int = 0  # counts every change (actions, undos, seats taken), so clients keep the newest
    barriers: dict[int, str | None] = field(default_factory=dict)  # step -> why it cannot be taken back
    invited: set[str] = field(default_factory=set)  # human sides whose invite is not used yet
    used: float = field(default_factory=time.monotonic)  # when a request last asked for it
    evicted: bool = False  # dropped from memory: a request that still holds it asks the hub again

    def evictable(self) -> bool:
        """Whether the match may leave memory now: nobody listens, no computer player thinks,
        and no request holds its lock (its record is all in the database already)."""
        thinking = self.agent_task is not None and not self.agent_task.done()
        return not self.listeners and not thinking and not self.lock.locked()

    def catch_up(self, fresh: LiveMatch) -> None:
        """Take over what `fresh`, the same match just loaded from the database, holds: the
        match as another server process left it. The lock, the listeners and the computer
        players stay; what was known of the old state (checkpoints, undo barriers) goes."""
        self.game, self.state, self.record, self.secret = fresh.game, fresh.state, fresh.record, fresh.secret
        self.revision, self.invited, self.problem = fresh.revision, fresh.invited, fresh.problem
        self.checkpoints, self.barriers = {}, {}

    def state_at(self, step: int) -> State:
        """The state after the record's first `step` actions, replayed from the nearest
        checkpoint with the dice the record lists (the server's own record: its actions and
        dice are known to be good)."""
        known = [k for k in self.checkpoints if k <= step]
        if known:
            start = max(known)
            state = self.checkpoints[start].clone()
        else:
            start, state = 0, start_state(self.record, self.game)
            self.checkpoints[0] = state.clone()
        entries = self.record.entries
        state.dice = ScriptedDice([v for e in entries[start:step] for v in entry_dice(e)])
        for index in range(start, step):
            state.apply(entries[index].action)
            if (index + 1) % CHECKPOINT_EVERY == 0 and len(self.checkpoints) < CHECKPOINT_LIMIT:
                self.checkpoints.setdefault(index + 1, state.clone())
        return state

    @property
    def players(self) -> dict[str, str]:
        return self.record.players

    def player(self, side: str | None) -> str:
        return SPECTATOR if side is None else self.players.get(side, HUMAN)

    def agent_to_move(self) -> str | None:
        side = self.state.current_player()
        if side is None or self.player(side) == HUMAN:
            return None
        return str(side)

    def snapshot(self) -> tuple[State, int, int]:
        """The state, the record's length and the revision, taken together (on the loop)."""
        return self.state, len(self.record.entries), self.revision

    def undoable(self, side: str | None) -> bool:
        """Whether `side` may take back the last action: its own, deciding again, no die rolled
        (announced or not), and nothing the engine counts as final (a step ended, something
        hidden shown: `State.undo_barrier`, known for the actions played since the match was
        loaded)."""
        entries = self.record.entries
        if side is None or not entries or self.state.current_player() != side:
            return False
        last = entries[-1]
        if last.player != side or entry_dice(last):
            return False
        return self.barriers.get(len(entries) - 1) is None

    def dice_info(self) -> dict[str, Any]:
        """What anyone may know of the match's dice: the commitment to the secret, who
        contributed from which die, the first entry they cover (the ones before were
        uploaded, with the uploader's dice), and the secret once the game is over."""
        committed = self.record.dice
        assert committed is not None
        return {
            "commitment": committed.commitment,
            "contributions": [{"side": c.side, "roll": c.roll} for c in committed.contributions],
            "from_entry": committed.from_entry,
            "secret": committed.secret,
        }

    def payload_json(self, side: str | None, since: int = 0, snapshot: tuple[State, int, int] | None = None) -> str:
        """What a seat is sent, as JSON text: its own view, its legal actions when it must act
        (as text, and in `actions` as verbs with typed arguments, in the same order), the log
        as it read each entry when it was played. The structured actions, most of a crowded
        position's message, are spliced in from their cached text instead of being encoded
        again; they come last.

        States are replaced, never changed, so this may run in a worker thread on a snapshot.
        """
        message, legal = self._message(side, since, snapshot)
        texts = message["legal_actions"]
        actions = ",".join(described_text(self.game, a, t) for a, t in zip(legal, texts, strict=True))
        return f'{json_text(message)[:-1]},"actions":[{actions}]}}'

    def _message(
        self, side: str | None, since: int, snapshot: tuple[State, int, int] | None
    ) -> tuple[dict[str, Any], Sequence[Action]]:
        """The state message but its structured actions, and the legal actions they describe."""
        state, steps, revision = snapshot or self.snapshot()
        current = state.current_player()
        mine = side is not None and current == side and self.player(side) == HUMAN
        since = max(0, min(since, steps))
        legal = state.legal_actions() if mine else []
        texts = [str(a) for a in legal]
        message: dict[str, Any] = {
            "type": "state",
            "match": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "side": side,
            "role": SPECTATOR if side is None else "player",
            "sides": list(self.game.sides),
            "players": dict(self.players),
            "invited": sorted(self.invited),
            "ply": state.ply,
            "steps": steps,
            "revision": revision,
            "current_player": current,
            "your_turn": mine,
            "legal_actions": texts,
            "view": state.view(side),
            "terminal": state.is_terminal(),
            "winner": state.winner(),
            "log_from": since,
            "log": [read_by(e, side) for e in self.record.entries[since:steps]],
            "problem": self.problem,
            "can_undo": mine and self.undoable(side),
            "dice": self.dice_info(),
        }
        return message, legal


def decide(agent: Agent, state: State) -> tuple[str, Agent]:
    """A computer player's choice, as the action's text, and the player after choosing (it may
    keep something from one decision to the next): what a worker of the agents' pool, a
    thread or a process, sends back."""
    return str(agent.choose(state)), agent


def leave_with_parent(parent: int, every: float = 1.0) -> None:
    """A worker process of the computer players' pool ends when the server that started it
    is gone (killed, even with SIGKILL, it cannot stop its workers): a thread of the worker
    looks every `every` seconds whether its parent changed."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(0)

    threading.Thread(target=watch, name="henderson-parent-watch", daemon=True).start()


def seen_by_seat(live: LiveMatch, state: State, side: str | None) -> random.Random:
    """The generator of a seat's guesses at what it cannot see (`State.sample_unseen`) for
    one position: fixed by the match, the position and the seat, so that asking again gives
    the same answer, and drawn from nothing the seat cannot see."""
    return random.Random(f"{live.id}:{state.ply}:{side}")


def secret_rolls(record: GameRecord) -> int:
    """How many dice of a match came from its secret dice so far."""
    committed = record.dice
    assert committed is not None
    count = len(record.setup_dice or []) if committed.setup else 0
    return count + sum(len(entry_dice(e)) for e in record.entries[committed.from_entry :])


def set_up(record: GameRecord, game: Game, secret: str) -> State:
    """A new game set up with the match's secret dice (and the contributions already in the
    record's header); the dice the set-up rolled are listed in the record."""
    assert record.dice is not None
    counted = RecordedDice(SecretDice(secret, record.dice.contributions))
    state = game.new_state(None, options=record.options, dice=counted)
    record.setup_dice = counted.take()
    return state


def resume(record: GameRecord, game: Game, secret: str) -> State:
    """The state a stored match reaches: its record replayed with the dice it lists (each
    entry redacted as it is replayed, on the position right after it, when it was stored
    without), then its secret dice from the next die on."""
    assert record.dice is not None
    state, _ = opening(record, game)
    counted = RecordedDice(state.dice)
    state.dice = counted
    for entry in record.entries:
        play_entry(state, entry, counted)
        if entry.seen is None:
            note_seen(state, entry)
    state.dice = RecordedDice(SecretDice(secret, record.dice.contributions, secret_rolls(record)))
    return state


def adopt(
    record: GameRecord, game: Game, contribution: Contribution | None = None, *, new_if_empty: bool = True
) -> tuple[State, GameRecord, str]:
    """A record taken over by the server (an upload, or a match stored by an older version):
    its actions replayed and checked with the dice it was written with, kept as history with
    every die listed, and from then on new secret dice, so that no seed, start dice or listed
    dice in it decide anything to come. A record of no action from a new game's set-up is a
    new game, set up with the secret dice. Returns the state, the new record and the secret."""
    secret = fresh_secret()
    given = [contribution] if contribution is not None else []
    if new_if_empty and not record.entries and record.start is None:
        fresh = GameRecord(
            game=game.name,
            data_version=game.data_version,
            options=dict(record.options),
            players=dict(record.players),
            meta=dict(record.meta),
            dice=DiceCommitment(commitment(secret), given),
        )
        return set_up(fresh, game, secret), fresh, secret
    start = record.start
    if start is not None and record.options and start.get("options") not in (None, record.options):
        raise RecordError("line 1: the header's options differ from the start position's")
    state, setup = opening(record, game)
    if start is not None:
        unsound = state.invariant_errors()
        if unsound:
            raise RecordError(f"line 1: the start position is not sound: {unsound[0]}")
    counted = RecordedDice(state.dice)
    state.dice = counted
    entries: list[RecordEntry] = []
    for entry in record.entries:
        kept = play_entry(state, entry, counted)
        note_seen(state, kept)
        entries.append(kept)
    fresh = GameRecord(
        game=game.name,
        data_version=game.data_version,
        options=dict(record.options),
        players=dict(record.players),
        start=None if start is None else {k: v for k, v in start.items() if k != "dice"},
        meta=dict(record.meta),
        entries=entries,
        setup_dice=setup,
        dice=DiceCommitment(commitment(secret), given, from_entry=len(entries), setup=False),
    )
    state.dice = RecordedDice(SecretDice(secret, given))
    return state, fresh, secret


def _comparable(position: Mapping[str, Any]) -> str:
    out = {k: v for k, v in position.items() if k not in ("dice", "seed")}
    return json.dumps(out, sort_keys=True, default=str)


def starts_as_set_up(record: GameRecord, game: Game) -> bool:
    """Whether a record's start position is exactly the position a new game with its options
    reaches at set-up (anyone can check that one), not a position made up by its writer. A
    set-up that rolls dice the record does not list cannot be checked: then it is not."""
    if record.start is None:
        return True
    dice: Any = ScriptedDice(record.setup_dice) if record.setup_dice is not None else NoDice()
    try:
        fresh = game.new_state(None, options=record.options, dice=dice)
    except (DiceNeeded, DiceExhausted):
        return False
    return _comparable(fresh.to_json()) == _comparable(record.start)


def game_named(name: str) -> Game:
    """The game `name` from the registry; a game that fails to load counts as unavailable."""
    try:
        return games.get(name)
    except HendersonError:
        raise
    except Exception as exc:  # a half-installed game package must not become a 500
        log.warning("game %s cannot be loaded: %s", name, exc)
        raise ApiError(404, "unknown-game", f"game {name!r} is not available on this server") from None


def check_players(game: Game, players: Mapping[str, str] | None) -> dict[str, str]:
    """Each side's player: "human" or a known agent name; sides left out are human."""
    players = dict(players or {})
    unknown = sorted(set(players) - set(game.sides))
    if unknown:
        raise ApiError(
            422,
            "bad-players",
            f"{game.name} has no side {unknown[0]!r} (sides: {', '.join(game.sides)})",
        )
    known = agents.names()
    out: dict[str, str] = {}
    for side in game.sides:
        player = players.get(side, HUMAN)
        if player != HUMAN and player not in known:
            raise ApiError(
                422,
                "bad-players",
                f"side {side}: unknown player {player!r} (human or one of: {', '.join(known)})",
            )
        out[side] = player
    return out


def creator_side(game: Game, players: Mapping[str, str], side: str | None) -> str | None:
    """The seat of whoever makes the match: the side asked for (a human side), else the first
    human side; None when every side is a computer player."""
    humans = [s for s in game.sides if players[s] == HUMAN]
    if side is None:
        return humans[0] if humans else None
    if side not in game.sides:
        raise ApiError(422, "bad-side", f"{game.name} has no side {side!r} (sides: {', '.join(game.sides)})")
    if side not in humans:
        raise ApiError(422, "bad-side", f"side {side} is played by the computer: choose a human side")
    return side


def contribution_of(value: str | None, side: str | None) -> Contribution | None:
    """A seat's random contribution to the dice, checked (422 bad-contribution)."""
    if value is None:
        return None
    try:
        return Contribution(side, check_random_value(value, "the contribution"), 0)
    except HendersonError as exc:
        raise ApiError(422, "bad-contribution", str(exc)) from None


class Hub:
    """Every live match of one server, with its storage and its computer players' pool."""

    def __init__(
        self,
        store: Store,
        pool: Executor,
        agent_delay: float = 0.0,
        *,
        max_live: int = MAX_LIVE,
        idle_seconds: float = IDLE_SECONDS,
    ) -> None:
        self.store = store
        self.commits = GroupCommit(store)  # actions of concurrent requests stored together
        self.pool = pool
        self.agent_delay = agent_delay
        self.max_live = max_live
        self.idle_seconds = idle_seconds
        self.live: dict[str, LiveMatch] = {}
        self.evictions = 0
        self.reloads = 0  # live matches loaded again because another process changed them
        self._loading = asyncio.Lock()
        self._seats: dict[str, Seat] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    # -- seats -----------------------------------------------------------------------------

    async def seat(self, token: str | None) -> Seat:
        """The seat a token opens; 401 without a token, 404 for a token of no seat."""
        if not token:
            raise ApiError(401, "no-token", "this needs a seat token (Authorization: Bearer <token>)")
        if len(token) > TOKEN_LIMIT:
            raise ApiError(404, "unknown-token", "no game has this seat token")
        seat = self._seats.get(token)
        if seat is None:
            seat = await asyncio.to_thread(self.store.seat, token)
            if seat is None:
                raise ApiError(404, "unknown-token", "no game has this seat token")
            if len(self._seats) >= SEAT_CACHE:
                self._seats.clear()
            self._seats[token] = seat
        return seat

    # -- loading and creating ----------------------------------------------------------------

    async def match(self, match_id: str) -> LiveMatch:
        """A live match, loaded from the database (its record replayed) when not in memory."""
        found = self.live.get(match_id)
        if found is not None:
            found.used = time.monotonic()
            return found
        async with self._loading:
            found = self.live.get(match_id)
            if found is not None:
                found.used = time.monotonic()
                return found
            live = await asyncio.to_thread(self._load, match_id)
            self._keep(live)
        self.kick(live)
        return live

    def _keep(self, live: LiveMatch) -> None:
        """Hold a match in memory, then let go of the ones idle too long and, over the cap, the
        least recently used: memory stays bounded however many matches the database holds."""
        self.live[live.id] = live
        now = time.monotonic()
        idle = [m for m in self.live.values() if now - m.used > self.idle_seconds and m is not live]
        for old in idle:
            self._evict(old)
        if len(self.live) > self.max_live:
            for old in sorted(self.live.values(), key=lambda m: m.used):
                if len(self.live) <= self.max_live:
                    break
                if old is not live:
                    self._evict(old)

    def _evict(self, live: LiveMatch) -> None:
        """Drop a match from memory when nothing uses it (`LiveMatch.evictable`); it is loaded
        again from the database (its record replayed) when next asked for."""
        if not live.evictable() or self.live.get(live.id) is not live:
            return
        del self.live[live.id]
        live.evicted = True
        self.evictions += 1

    @asynccontextmanager
    async def locked(self, match_id: str) -> AsyncIterator[LiveMatch]:
        """The live match, its lock held for the block: a match evicted while the caller
        waited for the lock is loaded again, so a change is never made to a dropped copy."""
        while True:
            live = await self.match(match_id)
            async with live.lock:
                if live.evicted:
                    continue
                await self._catch_up(live)
                yield live
                return

    async def current(self, match_id: str) -> LiveMatch:
        """The live match as the database has it now (reloaded when another server process
        changed it): for answers that must not show an older state. Its lock is taken only
        when the stored revision differs (an action of this process being stored, or another
        process's change), so reading never waits for a write."""
        live = await self.match(match_id)
        if await self._stored_revision(live.id) == live.revision:
            return live
        async with self.locked(match_id) as live:
            return live

    async def _stored_revision(self, match_id: str) -> int:
        """The match's revision in the database: read at once when that is cheap (SQLite),
        else in a worker thread (PostgreSQL: a round trip)."""
        found = self.store.quick_revision(match_id)
        return found if found is not None else await asyncio.to_thread(self.store.revision, match_id)

    async def _catch_up(self, live: LiveMatch) -> bool:
        """Reload a live match when its stored revision is not the one it was loaded at or last
        wrote (another server process changed it); one indexed read. The caller holds the
        match's lock. Whether it was reloaded."""
        if await self._stored_revision(live.id) == live.revision:
            return False
        await self._reload(live)
        return True

    async def _reload(self, live: LiveMatch) -> None:
        """Load the match again from the database into the live copy, and tell its listeners.
        The caller holds the match's lock."""
        live.catch_up(await asyncio.to_thread(self._load_after, live))
        self.reloads += 1
        for listener in list(live.listeners):
            listener.notify()

    async def watch(self, every: float = POLL_SECONDS) -> None:
        """Read the revisions of the live matches someone listens to, every `every` seconds, and
        reload those another server process changed, so that their WebSocket listeners are
        pushed its changes too (one read for all of them)."""
        while True:
            await asyncio.sleep(every)
            watched = {m.id: m for m in self.live.values() if m.listeners}
            if not watched:
                continue
            try:
                stored = await asyncio.to_thread(self.store.revisions, list(watched))
                for match_id, revision in stored.items():
                    live = watched[match_id]
                    if revision != live.revision and not live.evicted:
                        async with live.lock:
                            await self._catch_up(live)
                        self.kick(live)
            except Exception as exc:  # a database that is away a moment must not stop the watch
                log.warning("cannot read the revisions of watched matches: %s", exc)

    def _load_after(self, live: LiveMatch) -> LiveMatch:
        """The match as stored now, made live (in a worker thread): when the stored record only
        adds actions to the live one (same header, same entries before), only those are played
        on a copy of the live state, with the dice they list; else the whole record is replayed."""
        revision = self.store.revision(live.id)  # first, as in `_load`
        record = self.store.record(live.id)
        known = live.record.entries
        same_start = (
            record is not None
            and record.dice is not None
            and record.header() == live.record.header()
            and len(record.entries) >= len(known)
            and all(a.line() == b.line() for a, b in zip(known, record.entries, strict=False))
        )
        if not same_start or record is None or record.dice is None:
            return self._load(live.id)
        state = live.state.clone()
        added = record.entries[len(known) :]
        counted = RecordedDice(ScriptedDice([v for e in added for v in entry_dice(e)]))
        state.dice = counted
        for entry in added:
            play_entry(state, entry, counted)
            if entry.seen is None:
                note_seen(state, entry)
        state.dice = RecordedDice(SecretDice(live.secret, record.dice.contributions, secret_rolls(record)))
        fresh = LiveMatch(live.id, live.game, state, record, live.secret, revision=revision)
        fresh.invited = set(self.store.unclaimed(live.id))
        fresh.problem = self.store.problem(live.id)
        return fresh

    def _load(self, match_id: str) -> LiveMatch:
        """A stored match made live (in a worker thread). A match stored by an older version,
        whose dice came from a seed, goes on with secret dice from its next die."""
        revision = self.store.revision(match_id)  # first: a change made while loading reloads again
        record = self.store.record(match_id)
        if record is None:
            raise ApiError(404, "unknown-match", f"no match {match_id}")
        game = game_named(record.game)
        secret = self.store.secret(match_id)
        if record.dice is None or secret is None:
            state, record, secret = adopt(record, game, new_if_empty=False)
            self.store.replace_record(match_id, record, secret)
        else:
            state = resume(record, game, secret)
        live = LiveMatch(match_id, game, state, record, secret, revision=revision)
        live.invited = set(self.store.unclaimed(match_id))
        live.problem = self.store.problem(match_id)
        return live

    async def create(
        self,
        game_name: str,
        options: Mapping[str, Any],
        players: Mapping[str, str] | None,
        *,
        side: str | None = None,
        hotseat: bool = False,
        contribution: str | None = None,
    ) -> dict[str, Any]:
        """A new match with secret dice (its commitment in the record's header); returns the
        creator's seat token (every human seat's for a game on one screen), an invite for each
        other human seat, and a spectator token."""
        game = game_named(game_name)
        who = check_players(game, players)
        mine = creator_side(game, who, side)
        given = contribution_of(contribution, mine)
        secret = fresh_secret()
        record = GameRecord(
            game=game.name,
            data_version=game.data_version,
            options=game.check_options(options),
            players=who,
            dice=DiceCommitment(commitment(secret), [given] if given else []),
        )
        state = await asyncio.to_thread(set_up, record, game, secret)
        return await self._open(game, state, record, secret, mine, hotseat)

    async def upload(
        self,
        text: str,
        players: Mapping[str, str] | None,
        *,
        side: str | None = None,
        hotseat: bool = False,
        contribution: str | None = None,
    ) -> dict[str, Any]:
        """A new match that resumes an uploaded record: replayed and checked action by action,
        kept as history, and played on with new secret dice. A record that starts from a
        position of its own (its `start`) is resumed only by one person (alone, against the
        computer or on one screen): an invited player could not check that position."""
        record = GameRecord.loads(text, "uploaded record")
        game = game_named(record.game)
        who = check_players(game, players if players is not None else record.players)
        mine = creator_side(game, who, side)
        given = contribution_of(contribution, mine)
        humans = [s for s in game.sides if who[s] == HUMAN]
        if len(humans) > 1 and not hotseat and not await asyncio.to_thread(starts_as_set_up, record, game):
            raise ApiError(
                422,
                "bad-record",
                "this record starts from a position of its own ('start'), which an invited player cannot "
                "check: resume it alone, against the computer or on one screen",
            )
        record.players = who
        state, fresh, secret = await asyncio.to_thread(adopt, record, game, given)
        return await self._open(game, state, fresh, secret, mine, hotseat)

    async def _open(
        self, game: Game, state: State, record: GameRecord, secret: str, mine: str | None, hotseat: bool
    ) -> dict[str, Any]:
        """Store a new match and make it live: a seat token for the creator (every human seat
        on one screen), an invite for each other human seat, a spectator token."""
        match_id = secrets.token_hex(8)
        humans = [s for s in game.sides if record.players[s] == HUMAN]
        tokens = {s: new_token() for s in humans if hotseat or s == mine}
        invites = {s: new_token() for s in humans if s not in tokens}
        spectator = new_token()
        seats: dict[str, tuple[str | None, str]] = {t: (s, HUMAN) for s, t in tokens.items()}
        seats[spectator] = (None, SPECTATOR)
        assert record.dice is not None
        if state.is_terminal():  # a finished game uploaded: nothing is left to roll
            record.dice.secret = secret
        await asyncio.to_thread(
            self.store.create_match,
            match_id,
            record,
            seats,
            state.current_player(),
            state.is_terminal(),
            secret=secret,
            invites={code: s for s, code in invites.items()},
        )
        live = LiveMatch(match_id, game, state, record, secret, invited=set(invites))
        self._keep(live)
        self.kick(live)
        return {
            "match": match_id,
            "game": game.name,
            "players": dict(record.players),
            "seats": tokens,
            "invites": invites,
            "spectator": spectator,
            "dice": live.dice_info(),
        }

    # -- invites -------------------------------------------------------------------------------

    async def _invite(self, code: str | None) -> tuple[str, str]:
        """The match and side of an unused invite; 401 without a code, 404 unknown, 409 used."""
        if not code:
            raise ApiError(401, "no-token", "this needs an invite code (Authorization: Bearer <code>)")
        found = None if len(code) > TOKEN_LIMIT else await asyncio.to_thread(self.store.invite, code)
        if found is None:
            raise ApiError(404, "unknown-invite", "no game has this invite")
        if found.claimed:
            raise ApiError(409, "invite-used", "this invite was used already: its seat belongs to whoever used it")
        return found.match_id, found.side

    async def invite(self, code: str | None) -> dict[str, Any]:
        """What an invite offers, before it is used: the game, the side, the players, the
        commitment to the dice, and whether the game resumes an uploaded record."""
        match_id, side = await self._invite(code)
        live = await self.current(match_id)
        return {
            "match": live.id,
            "game": live.game.name,
            "title": live.game.title,
            "side": side,
            "players": dict(live.players),
            "steps": len(live.record.entries),
            "dice": live.dice_info(),
        }

    async def claim(self, code: str | None, contribution: str | None) -> dict[str, Any]:
        """Use an invite, once: its seat is bound to a new token, sent only to the claimer, and
        the claimer's contribution re-keys the dice from the next die on (the record says
        from which)."""
        match_id, side = await self._invite(code)
        given = contribution_of(contribution, side)
        token = new_token()
        assert code is not None
        async with self.locked(match_id) as live:
            assert live.record.dice is not None
            added = None if given is None else replace(given, roll=secret_of(live.state).index)
            header = None
            if added is not None:
                committed = live.record.dice
                header = replace(
                    live.record, dice=replace(committed, contributions=[*committed.contributions, added])
                )
            try:
                await asyncio.to_thread(self.store.claim, code, token, header, live.revision)
            except StaleWrite:
                await self._reload(live)
                raise ApiError(409, "changed-elsewhere", CHANGED_ELSEWHERE) from None
            except StorageError as exc:
                raise ApiError(409, "invite-used", str(exc)) from None
            if header is not None and added is not None:
                after = live.state.clone()
                secret_of(after).contribute(added)
                live.record.dice = header.dice
                live.state = after
            live.invited.discard(side)
            live.revision += 1
            for listener in list(live.listeners):
                listener.notify()
        self.kick(live)
        return {"match": live.id, "game": live.game.name, "side": side, "token": token, "dice": live.dice_info()}

    # -- acting --------------------------------------------------------------------------------

    async def act(self, seat: Seat, action: str, ply: int) -> dict[str, Any]:
        """Play a human seat's action: its decision, made on the current state, legal."""
        if seat.side is None:
            raise ApiError(403, "spectator", "a spectator cannot act")
        async with self.locked(seat.match_id) as live:
            state = live.state
            current = state.current_player()
            if current is None:
                raise ApiError(409, "game-over", "the game is over")
            if current != seat.side:
                raise ApiError(403, "not-your-decision", f"it is {current}'s decision, not {seat.side}'s")
            if ply != state.ply:
                raise ApiError(
                    409,
                    "stale",
                    f"the action was made on state {ply}, the game is at state {state.ply}",
                )
            try:
                entry = await self._apply(live, seat.side, action)
            except StaleWrite:  # another process stored an action first: this one is not played
                await self._reload(live)
                raise ApiError(409, "changed-elsewhere", CHANGED_ELSEWHERE) from None
        self.kick(live)
        return {"ply": live.state.ply, "step": entry.ply, "entry": read_by(entry, seat.side)}

    async def _apply(self, live: LiveMatch, side: str, text: str) -> RecordEntry:
        """Check and play an action on a copy, store it with every die it rolled, then make it
        the match's state. At the end of the game the secret of the dice is revealed in the
        record's header. The caller holds the match's lock."""
        if len(text) > 1000:
            raise ApiError(422, "bad-notation", "the action is too long")
        action = live.game.parse_action(text)
        after = live.state.clone()
        counted = recorded(after)
        counted.take()
        events = after.apply(action)
        entry = RecordEntry(len(live.record.entries), side, str(action), [e.to_json() for e in events], counted.take())
        note_seen(after, entry)
        live.barriers[entry.ply] = after.undo_barrier(live.state)
        committed = live.record.dice
        header = None
        if after.is_terminal() and committed is not None and committed.secret is None:
            header = replace(live.record, dice=replace(committed, secret=live.secret))
        await self.commits.append(
            Append(live.id, entry, after.current_player(), after.is_terminal(), header, live.revision)
        )
        if header is not None:
            live.record.dice = header.dice
        live.record.entries.append(entry)
        live.state = after
        live.revision += 1
        for listener in list(live.listeners):
            listener.notify()
        return entry

    async def undo(self, seat: Seat, ply: int) -> dict[str, Any]:
        """Take back the seat's last action when it rolled no die and the engine says it may
        be (`State.undo_barrier`: the same side decides, in the same step, nothing hidden was
        shown): a misclick costs nothing, and nothing learnt can be unlearnt."""
        if seat.side is None:
            raise ApiError(403, "spectator", "a spectator cannot act")
        async with self.locked(seat.match_id) as live:
            if ply != live.state.ply:
                raise ApiError(409, "stale", f"the undo was asked on state {ply}, the game is at {live.state.ply}")
            if not live.undoable(seat.side):
                raise ApiError(
                    409,
                    "cannot-undo",
                    "only your own last action can be taken back, while you decide, before a die is rolled",
                )
            step = len(live.record.entries) - 1
            before = await asyncio.to_thread(live.state_at, step)
            barrier = live.state.undo_barrier(before)
            if barrier is not None:
                raise ApiError(409, "cannot-undo", f"the last action cannot be taken back: {barrier}")
            before.dice = live.state.dice.clone()  # no die was rolled: the same dice go on
            try:
                await asyncio.to_thread(self.store.take_back, live.id, step, before.current_player(), live.revision)
            except StaleWrite:
                await self._reload(live)
                raise ApiError(409, "changed-elsewhere", CHANGED_ELSEWHERE) from None
            live.record.entries.pop()
            live.barriers.pop(step, None)
            for key in [k for k in live.checkpoints if k > step]:
                del live.checkpoints[key]
            live.state = before
            live.revision += 1
            for listener in list(live.listeners):
                listener.notify()
        self.kick(live)
        return {"ply": live.state.ply, "steps": len(live.record.entries)}

    # -- computer players ----------------------------------------------------------------------

    def kick(self, live: LiveMatch) -> None:
        """Start the match's computer players if one of them must decide."""
        if live.agent_to_move() is None or live.problem is not None:
            return
        if live.agent_task is not None and not live.agent_task.done():
            return
        task = asyncio.get_running_loop().create_task(self._drive(live))
        live.agent_task = task
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _drive(self, live: LiveMatch) -> None:
        """Let computer players decide, in the pool, until a human must act or the game ends."""
        loop = asyncio.get_running_loop()
        while True:
            side = live.agent_to_move()
            if side is None or live.problem is not None:
                return
            agent = live.agents.get(side)
            if agent is None:
                seed = secrets.randbits(63)
                agent = live.agents[side] = agents.get(live.player(side), seed)
            snapshot, ply = live.state.clone(), live.state.ply
            snapshot.dice = SeededDice(fresh_seed())  # a computer player never holds the match's dice
            try:
                action, chose = await loop.run_in_executor(self.pool, decide, agent, snapshot)
                live.agents[side] = chose  # as it came back from the pool (a process sends a copy)
                if self.agent_delay:
                    await asyncio.sleep(self.agent_delay)
                async with live.lock:
                    if live.evicted or await self._catch_up(live) or live.state.ply != ply:
                        continue  # the match moved on (here or in another process): decide again
                    try:
                        await self._apply(live, side, str(action))
                    except StaleWrite:  # another process stored this decision first
                        await self._reload(live)
                        continue
            except asyncio.CancelledError:
                raise
            except HendersonError as exc:
                await self._stop_agents(live, f"the {live.player(side)} player of {side} failed: {exc}")
                return
            except Exception as exc:  # a bug in an agent must not stop the server
                log.exception("agent failure in match %s", live.id)
                await self._stop_agents(live, f"the {live.player(side)} player of {side} failed ({type(exc).__name__})")
                return

    async def _stop_agents(self, live: LiveMatch, problem: str) -> None:
        """Stop a match's computer players and say why, to the players and in the database (so
        that the match shows it after it is loaded again, in this process or another)."""
        async with live.lock:
            try:
                await asyncio.to_thread(self.store.set_problem, live.id, problem, live.revision)
                live.revision += 1
            except StaleWrite:  # the match changed meanwhile: the next request reloads it
                log.info("match %s changed while its computer player failed", live.id)
            except Exception as exc:  # the players are told all the same
                log.warning("cannot store why the computer players of match %s stopped: %s", live.id, exc)
            live.problem = problem
        for listener in list(live.listeners):
            listener.notify()

    async def payload(
        self, live: LiveMatch, side: str | None, since: int = 0, gzipped: bool = False
    ) -> EncodedJSON:
        """A seat's payload, computed and encoded in a worker thread (legal actions can take
        a while, and so can the JSON of a crowded position)."""
        snapshot = live.snapshot()
        return await asyncio.to_thread(lambda: EncodedJSON(live.payload_json(side, since, snapshot), gzipped))

    async def payload_text(
        self, live: LiveMatch, side: str | None, since: int, snapshot: tuple[State, int, int]
    ) -> str:
        """A seat's payload on `snapshot` as JSON text (a WebSocket message), made in a worker
        thread."""
        return await asyncio.to_thread(live.payload_json, side, since, snapshot)

    async def resume(self) -> None:
        """Load the unfinished matches that wait on a computer player, so that it plays on."""
        for match_id in await asyncio.to_thread(self.store.waiting_on_agents):
            try:
                await self.match(match_id)
            except Exception as exc:  # a match that no longer loads must not stop the server
                log.warning("match %s cannot be resumed: %s", match_id, exc)

    async def idle(self) -> None:
        """Wait until no computer player is thinking (for tests and shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*list(self._tasks), return_exceptions=True)
        self.commits.close()

    # -- reading -------------------------------------------------------------------------------

    async def history(self, seat: Seat, step: int) -> dict[str, Any]:
        """The seat's view after the first `step` actions of the record (replay controls)."""
        live = await self.current(seat.match_id)
        record = live.record
        steps = len(record.entries)
        if not 0 <= step <= steps:
            raise ApiError(422, "bad-step", f"step must be between 0 and {steps}")
        state = await asyncio.to_thread(live.state_at, step)
        return {
            "step": step,
            "steps": steps,
            "ply": state.ply,
            "current_player": state.current_player(),
            "view": state.view(seat.side),
            "terminal": state.is_terminal(),
            "winner": state.winner(),
        }

    async def _deciding(self, seat: Seat) -> LiveMatch:
        """The seat's match when the seat must decide now (previews are for the decider only)."""
        live = await self.current(seat.match_id)
        if seat.side is None:
            raise ApiError(403, "spectator", "a spectator cannot ask for previews")
        if live.state.current_player() != seat.side:
            raise ApiError(403, "not-your-decision", "previews are for the side that must decide")
        return live

    async def odds(self, seat: Seat, attack: str) -> dict[str, Any]:
        """The odds of an attack on the current position (`game.odds(state, spec)`), unrolled,
        read on what the seat may know of the position (`core.game.trial`)."""
        live = await self._deciding(seat)
        if Capability.ODDS not in live.game.capabilities:
            raise ApiError(404, "no-odds", f"{live.game.name} has no odds preview")
        state, side = live.state, seat.side

        def run() -> Odds:
            return live.game.odds(trial(state, side, [], seen_by_seat(live, state, side)), attack)

        result = await asyncio.to_thread(run)
        return {"attack": attack, "text": result.text(), "odds": result.to_json()}

    async def placements(self, seat: Seat, unit: str) -> dict[str, Any]:
        """Where a waiting counter may be placed now (`game.placements`), as structured actions:
        the legal actions may list only the next counter's placements."""
        live = await self._deciding(seat)
        state = live.state
        found = await asyncio.to_thread(live.game.placements, state, unit)
        return {"ply": state.ply, "unit": unit, "actions": [described(live.game, a) for a in found]}

    async def preview(self, seat: Seat, actions: list[str], fields: list[str]) -> dict[str, Any]:
        """Each action tried on a copy of what the seat may know of the position: the chosen
        fields of its view after it. An action that would roll a die, hand the decision over,
        end a step or show something hidden is not previewed (`core.game.trial`)."""
        live = await self._deciding(seat)
        base, side = live.state, seat.side

        def run() -> list[dict[str, Any]]:
            known = trial(base, side, [], seen_by_seat(live, base, side))
            out: list[dict[str, Any]] = []
            for text in actions:
                try:
                    after = trial(known, side, [text])
                except HendersonError as exc:
                    out.append({"action": text, "ok": False, "message": str(exc)})
                    continue
                view = after.view(side)
                out.append({"action": text, "ok": True, "view": {f: view.get(f) for f in fields}})
            return out

        return {"ply": base.ply, "results": await asyncio.to_thread(run)}

    async def record_text(self, seat: Seat) -> tuple[str, bool, str]:
        """The record a seat may download, whether it is a seat's copy, and the file's name
        (the game, the match, and for a copy the seat). The whole record,
        every die listed, when it reveals nothing the seat may not see: the game is over (with
        the secret revealed, for `henderson verify`), the match hides nothing (a game without
        hidden information, AAG without hidden movement), or every other side is a computer
        player; while a game goes on its header holds the commitment, never the secret.
        Otherwise the seat's copy (`seat_copy`): each entry as the seat read it, with the
        whole record sealed inside for a side's seat (`sealed_for`)."""
        live = await self.current(seat.match_id)
        others = [s for s in live.game.sides if s != seat.side]
        whole = (
            live.state.is_terminal()
            or not live.game.hides_information(live.record.options)
            or (seat.side is not None and all(live.player(s) != HUMAN for s in others))
        )
        name = f"{live.game.name}-{live.id}"
        if whole:
            return live.record.dumps(), False, f"{name}.jsonl"
        sealed = sealed_for(live, seat.side) if seat.side is not None else None
        return seat_copy(live.record, seat.side, sealed), True, f"{name}-{seat.side or SPECTATOR}-seat-copy.jsonl"


def record_of_copies(texts: list[str]) -> str:
    """The whole record sealed in the seats' copies of one match (henderson/core/sealed.py),
    to be resumed as any uploaded record; ApiError 422 naming what is wrong (a copy missing,
    copies of different matches, a seal that does not check)."""
    try:
        game = game_named(read_copy(texts[0]).game)
        return unseal(texts, game.sides)
    except SealError as exc:
        raise ApiError(422, exc.code, exc.message) from None


def sealed_for(live: LiveMatch, side: str) -> dict[str, Any]:
    """What a side's copy adds so that the seats together can resume the game: its share of
    the match's key and the whole record sealed with that key under a fresh nonce
    (henderson/core/sealed.py)."""
    key = key_of([share_of(live.secret, live.id, s) for s in live.game.sides])
    sealed = seal(live.record.dumps(), key, live.id, len(live.record.entries))
    return {"share": share_of(live.secret, live.id, side).hex(), "sealed": sealed}


SEAT_COPY_NOTE = (
    "a seat's copy: each action as this seat read it when it was played, without the dice; "
    "it shows the game as the seat saw it and does not replay"
)
SEALED_NOTE = (
    "a seat's copy: each action as this seat read it when it was played, without the dice, "
    "and the whole record sealed; uploaded together with the other seats' copies it resumes the game"
)


def seat_copy(record: GameRecord, side: str | None, sealed: dict[str, Any] | None = None) -> str:
    """The record as one seat may read it mid-game, marked as such in its header's `meta`
    (`seat_copy`: the side, or "spectator"): the entries redacted for the seat when they were
    played (`read_by`), no die listed (a die may have been rolled out of the seat's sight),
    no set-up dice and no start position (they may show hidden units). `sealed` (a side's
    seat: its share and the sealed whole record, `sealed_for`) joins `meta.seat_copy`."""
    header = replace(record, start=None, setup_dice=None, entries=[]).header()
    note = SEALED_NOTE if sealed else SEAT_COPY_NOTE
    header["meta"] = {**record.meta, "seat_copy": {"side": side or SPECTATOR, "note": note, **(sealed or {})}}
    lines = [json.dumps(header, separators=(",", ":"))]
    lines += [json.dumps(read_by(e, side), separators=(",", ":")) for e in record.entries]
    return "\n".join(lines) + "\n"
