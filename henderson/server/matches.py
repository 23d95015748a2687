"""Live matches: the authoritative states, who may act, the computer players and who listens.

The server holds each match's state in memory and its record in the database. An
action is checked (seat, turn, state id, rules), played on a copy, stored, and only
then becomes the match's state and is acknowledged and pushed to the listeners.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Mapping
from concurrent.futures import Executor
from dataclasses import dataclass, field, replace
from typing import Any

from henderson import agents, games
from henderson.agents import Agent
from henderson.core.dice import SeededDice
from henderson.core.errors import HendersonError
from henderson.core.game import Capability, Game, Odds, State, trial
from henderson.core.record import GameRecord, RecordEntry, note_seen, read_by, replay, start_state
from henderson.server.errors import ApiError
from henderson.server.storage import Seat, Store

log = logging.getLogger("henderson.server")

HUMAN = "human"
CHECKPOINT_EVERY = 25
CHECKPOINT_LIMIT = 400
SPECTATOR = "spectator"


def new_token() -> str:
    """An unguessable seat token (192 random bits)."""
    return secrets.token_urlsafe(24)


@dataclass(eq=False)
class Listener:
    """A connection that wants the match's updates for one side (None: a spectator)."""

    side: str | None
    wake: asyncio.Queue[None] = field(default_factory=lambda: asyncio.Queue(maxsize=1))

    def notify(self) -> None:
        if self.wake.empty():
            self.wake.put_nowait(None)


@dataclass(eq=False)
class LiveMatch:
    """A match loaded in memory: its game, its state and its record, kept in step."""

    id: str
    game: Game
    state: State
    record: GameRecord
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: set[Listener] = field(default_factory=set)
    agents: dict[str, Agent] = field(default_factory=dict)
    agent_task: asyncio.Task[None] | None = None
    problem: str | None = None  # why a computer player stopped, shown to the players
    checkpoints: dict[int, State] = field(default_factory=dict)  # step -> state, for replay
    revision: int = 0  # counts every change (actions and undos), so clients keep the newest
    barriers: dict[int, str | None] = field(default_factory=dict)  # step -> why it cannot be taken back

    def state_at(self, step: int) -> State:
        """The state after the record's first `step` actions, replayed from the nearest
        checkpoint (the server's own record: its actions and dice are known to be good)."""
        known = [k for k in self.checkpoints if k <= step]
        if known:
            start = max(known)
            state = self.checkpoints[start].clone()
        else:
            start, state = 0, start_state(self.record, self.game)
            self.checkpoints[0] = state.clone()
        for index in range(start, step):
            state.apply(self.record.entries[index].action)
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
        """Whether `side` may take back the last action: its own, deciding again, no die rolled,
        and nothing the engine counts as final (a step ended, something hidden shown:
        `State.undo_barrier`, known for the actions played since the match was loaded)."""
        entries = self.record.entries
        if side is None or not entries or self.state.current_player() != side:
            return False
        last = entries[-1]
        if last.player != side or any(e.get("kind") == "roll" for e in last.events):
            return False
        return self.barriers.get(len(entries) - 1) is None

    def payload(
        self, side: str | None, since: int = 0, snapshot: tuple[State, int, int] | None = None
    ) -> dict[str, Any]:
        """What a seat is sent: its own view, its legal actions when it must act, the log.

        States are replaced, never changed, so this may run in a worker thread on a snapshot.
        """
        state, steps, revision = snapshot or self.snapshot()
        current = state.current_player()
        mine = side is not None and current == side and self.player(side) == HUMAN
        since = max(0, min(since, steps))
        return {
            "type": "state",
            "match": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "side": side,
            "role": SPECTATOR if side is None else "player",
            "sides": list(self.game.sides),
            "players": dict(self.players),
            "ply": state.ply,
            "steps": steps,
            "revision": revision,
            "current_player": current,
            "your_turn": mine,
            "legal_actions": [str(a) for a in state.legal_actions()] if mine else [],
            "view": state.view(side),
            "terminal": state.is_terminal(),
            "winner": state.winner(),
            "log_from": since,
            "log": [read_by(e, side) for e in self.record.entries[since:steps]],
            "problem": self.problem,
            "can_undo": mine and self.undoable(side),
        }


def seen_by_seat(live: LiveMatch, state: State, side: str | None) -> random.Random:
    """The generator of a seat's guesses at what it cannot see (`State.sample_unseen`) for
    one position: fixed by the match, the position and the seat, so that asking again gives
    the same answer, and drawn from nothing the seat cannot see."""
    return random.Random(f"{live.id}:{state.ply}:{side}")


def without_seed(record: GameRecord, game: Game) -> str:
    """The record of a game still going on, safe to hand out: no seed (the rolls so far are in
    it), and its first position written out, since the rolls made to set it up are not."""
    if record.seed is None:
        return record.dumps()
    start = start_state(record, game).to_json()
    start.pop("dice", None)
    start.pop("seed", None)
    return replace(record, seed=None, start=start).dumps()


def resume(record: GameRecord, game: Game) -> State:
    """The state a stored or uploaded record reaches. A record without a seed replays with the
    rolls written in it, then rolls on with a new secret seed. Entries stored without their
    redactions (an upload) are redacted as they are replayed, each on the position right
    after it (`note_seen`)."""

    def seen(entry: RecordEntry, after: State) -> None:
        if entry.seen is None:
            note_seen(after, entry)

    state = replay(record, game, on_entry=seen)
    if record.seed is None:
        state.dice = SeededDice(secrets.randbits(63))
    return state


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


class Hub:
    """Every live match of one server, with its storage and its computer players' pool."""

    def __init__(self, store: Store, pool: Executor, agent_delay: float = 0.0) -> None:
        self.store = store
        self.pool = pool
        self.agent_delay = agent_delay
        self.live: dict[str, LiveMatch] = {}
        self._loading = asyncio.Lock()
        self._seats: dict[str, Seat] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    # -- seats -----------------------------------------------------------------------------

    async def seat(self, token: str | None) -> Seat:
        """The seat a token opens; 401 without a token, 404 for a token of no seat."""
        if not token:
            raise ApiError(401, "no-token", "this needs a seat token (Authorization: Bearer <token>)")
        if len(token) > 128:
            raise ApiError(404, "unknown-token", "no game has this seat token")
        seat = self._seats.get(token)
        if seat is None:
            seat = await asyncio.to_thread(self.store.seat, token)
            if seat is None:
                raise ApiError(404, "unknown-token", "no game has this seat token")
            self._seats[token] = seat
        return seat

    # -- loading and creating ----------------------------------------------------------------

    async def match(self, match_id: str) -> LiveMatch:
        """A live match, loaded from the database (its record replayed) when not in memory."""
        found = self.live.get(match_id)
        if found is not None:
            return found
        async with self._loading:
            found = self.live.get(match_id)
            if found is not None:
                return found
            record = await asyncio.to_thread(self.store.record, match_id)
            if record is None:
                raise ApiError(404, "unknown-match", f"no match {match_id}")
            game = game_named(record.game)
            state = await asyncio.to_thread(resume, record, game)
            live = LiveMatch(match_id, game, state, record)
            live.revision = await asyncio.to_thread(self.store.revision, match_id)
            self.live[match_id] = live
        self.kick(live)
        return live

    async def create(
        self, game_name: str, options: Mapping[str, Any], players: Mapping[str, str] | None
    ) -> dict[str, Any]:
        """A new match with a secret seed; returns its id and one token per human seat."""
        game = game_named(game_name)
        who = check_players(game, players)
        record = GameRecord(
            game=game.name,
            data_version=game.data_version,
            seed=secrets.randbits(63),
            options=dict(options),
            players=who,
        )
        state = await asyncio.to_thread(start_state, record, game)
        return await self._open(game, state, record)

    async def upload(self, text: str, players: Mapping[str, str] | None) -> dict[str, Any]:
        """A new match that resumes an uploaded record (replayed and checked action by action)."""
        record = GameRecord.loads(text, "uploaded record")
        game = game_named(record.game)
        record.players = check_players(game, players if players is not None else record.players)
        state = await asyncio.to_thread(resume, record, game)
        return await self._open(game, state, record)

    async def _open(self, game: Game, state: State, record: GameRecord) -> dict[str, Any]:
        match_id = secrets.token_hex(8)
        tokens = {side: new_token() for side in game.sides if record.players[side] == HUMAN}
        spectator = new_token()
        seats: dict[str, tuple[str | None, str]] = {t: (side, HUMAN) for side, t in tokens.items()}
        seats[spectator] = (None, SPECTATOR)
        await asyncio.to_thread(
            self.store.create_match,
            match_id,
            record,
            seats,
            state.current_player(),
            state.is_terminal(),
        )
        live = LiveMatch(match_id, game, state, record)
        self.live[match_id] = live
        self.kick(live)
        return {
            "match": match_id,
            "game": game.name,
            "players": dict(record.players),
            "seats": tokens,
            "spectator": spectator,
        }

    # -- acting --------------------------------------------------------------------------------

    async def act(self, seat: Seat, action: str, ply: int) -> dict[str, Any]:
        """Play a human seat's action: its decision, made on the current state, legal."""
        live = await self.match(seat.match_id)
        if seat.side is None:
            raise ApiError(403, "spectator", "a spectator cannot act")
        async with live.lock:
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
            entry = await self._apply(live, seat.side, action)
        self.kick(live)
        return {"ply": live.state.ply, "step": entry.ply, "entry": entry.to_json()}

    async def _apply(self, live: LiveMatch, side: str, text: str) -> RecordEntry:
        """Check and play an action on a copy, store it, then make it the match's state.
        The caller holds the match's lock."""
        if len(text) > 1000:
            raise ApiError(422, "bad-notation", "the action is too long")
        action = live.game.parse_action(text)
        after = live.state.clone()
        events = after.apply(action)
        entry = RecordEntry(len(live.record.entries), side, str(action), [e.to_json() for e in events])
        note_seen(after, entry)
        live.barriers[entry.ply] = after.undo_barrier(live.state)
        await asyncio.to_thread(self.store.append, live.id, entry, after.current_player(), after.is_terminal())
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
        live = await self.match(seat.match_id)
        if seat.side is None:
            raise ApiError(403, "spectator", "a spectator cannot act")
        async with live.lock:
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
            await asyncio.to_thread(self.store.take_back, live.id, step, before.current_player())
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
            if side is None:
                return
            agent = live.agents.get(side)
            if agent is None:
                seed = secrets.randbits(63)
                agent = live.agents[side] = agents.get(live.player(side), seed)
            snapshot, ply = live.state.clone(), live.state.ply
            try:
                action = await loop.run_in_executor(self.pool, agent.choose, snapshot)
                if self.agent_delay:
                    await asyncio.sleep(self.agent_delay)
                async with live.lock:
                    if live.state.ply != ply:
                        continue
                    await self._apply(live, side, str(action))
            except asyncio.CancelledError:
                raise
            except HendersonError as exc:
                self._stop_agents(live, f"the {live.player(side)} player of {side} failed: {exc}")
                return
            except Exception as exc:  # a bug in an agent must not stop the server
                log.exception("agent failure in match %s", live.id)
                self._stop_agents(live, f"the {live.player(side)} player of {side} failed ({type(exc).__name__})")
                return

    def _stop_agents(self, live: LiveMatch, problem: str) -> None:
        live.problem = problem
        for listener in list(live.listeners):
            listener.notify()

    async def payload(self, live: LiveMatch, side: str | None, since: int = 0) -> dict[str, Any]:
        """A seat's payload, computed in a worker thread (legal actions can take a while)."""
        return await asyncio.to_thread(live.payload, side, since, live.snapshot())

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

    # -- reading -------------------------------------------------------------------------------

    async def history(self, seat: Seat, step: int) -> dict[str, Any]:
        """The seat's view after the first `step` actions of the record (replay controls)."""
        live = await self.match(seat.match_id)
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
        live = await self.match(seat.match_id)
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

    async def record_text(self, seat: Seat) -> str:
        """The match's JSON Lines record. While the game goes on it is given without the dice
        seed (the rolls so far are in it), and only for a game that hides nothing from its
        players; a game with hidden information downloads when it is over."""
        live = await self.match(seat.match_id)
        if live.state.is_terminal():
            return live.record.dumps()
        if live.game.hidden_information:
            raise ApiError(
                403,
                "record-hidden",
                "the record holds hidden information: it downloads when the game is over",
            )
        return await asyncio.to_thread(without_seed, live.record, live.game)
