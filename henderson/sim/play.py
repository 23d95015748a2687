"""One seeded game between agents, reported as one JSON-ready dict (one line of a results file)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from henderson import agents
from henderson.core.record import record_for
from henderson.sim.seeds import derive_seed

DEFAULT_MAX_PLIES = 100_000


def _read(state: Any, attr: str) -> Any:
    found = getattr(state, attr, None)
    if callable(found):
        try:
            found = found()
        except TypeError:
            return None
    return None if isinstance(found, bool) else found


def turn_of(state: Any) -> tuple[int | None, str | None]:
    """The game's own turn as (number counted from 1, name) when the state exposes one.

    The number is `turn_number` (counted from 1), else `turn_index` or an integer
    `turn` (indexes counted from 0, so one is added); the name is `turn_name` or a
    text `turn` (e.g. FB "OCT II"). Attributes or zero-argument methods.
    """
    number: int | None = None
    found = _read(state, "turn_number")
    if isinstance(found, int):
        number = found
    else:
        for attr in ("turn_index", "turn"):
            found = _read(state, attr)
            if isinstance(found, int):
                number = found + 1
                break
    name = _read(state, "turn_name")
    if not isinstance(name, str):
        name = _read(state, "turn")
    return number, name if isinstance(name, str) else None


def cause_of(state: Any) -> str | None:
    """Why the game ended when the state says so: `victory_cause`, `end_cause` or `cause`."""
    for attr in ("victory_cause", "end_cause", "cause"):
        found = _read(state, attr)
        if found:
            return str(found)
    return None


def play_game(
    game: Any,
    specs: Mapping[str, str],
    seed: int,
    index: int,
    *,
    keep_records: bool = False,
    max_plies: int = DEFAULT_MAX_PLIES,
) -> dict[str, Any]:
    """Play game `index` of a run seeded `seed`; `specs` names the agent for each side.

    The game and each side's agent get seeds derived from (seed, index), so the
    result depends on nothing else. An error in an agent or in the rules ends
    that game with an `error` entry instead of ending the run.
    """
    game_seed = derive_seed(seed, index)
    players = {side: specs[side] for side in game.sides}
    result: dict[str, Any] = {"index": index, "seed": game_seed, "agents": players}
    state = game.new_state(game_seed)
    seats = {side: agents.get(spec, derive_seed(game_seed, side)) for side, spec in players.items()}
    observers = [a for a in seats.values() if callable(getattr(a, "observe", None))]
    record = record_for(game, state, players) if keep_records else None
    plies = 0
    error: str | None = None
    try:
        while not state.is_terminal() and plies < max_plies:
            side = state.current_player()
            action = seats[side].choose(state)
            text = str(action)
            ply = state.ply
            events = state.apply(action)
            if record is not None:
                record.add(side, text, events)
            for agent in observers:
                agent.observe(ply, text)  # type: ignore[attr-defined]
            plies += 1
    except Exception as exc:  # a broken agent or rule: keep the run going, say what broke
        error = f"{type(exc).__name__}: {exc}"
    number, name = turn_of(state)
    finished = state.is_terminal()
    winner = state.winner() if finished else None
    result.update(
        winner=winner,
        returns={s: float(v) for s, v in state.returns().items()} if finished else None,
        plies=plies,
        turns=number,
    )
    if name is not None:
        result["turn"] = name
    cause = cause_of(state) if finished else None
    if error is not None:
        result["error"] = error
    elif not finished:
        cause = f"ply limit {max_plies}"
    result["cause"] = cause
    if record is not None:
        result["record"] = [record.header(), *(e.to_json() for e in record.entries)]
    return result
