"""One seeded game between agents, reported as one JSON-ready dict (one line of a results file)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from henderson import agents
from henderson.agents import Finishing, Observing
from henderson.core.game import Game
from henderson.core.record import record_for
from henderson.sim.seeds import derive_seed

DEFAULT_MAX_PLIES = 100_000


def play_game(
    game: Game,
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
    observers = [a for a in seats.values() if isinstance(a, Observing)]
    record = record_for(game, state, players) if keep_records else None
    plies = 0
    error: str | None = None
    try:
        while not state.is_terminal() and plies < max_plies:
            side = state.current_player()
            assert side is not None
            action = seats[side].choose(state)
            text = str(action)
            ply = state.ply
            events = state.apply(action)
            if record is not None:
                record.add(side, text, events)
            for agent in observers:
                agent.observe(ply, text)
            plies += 1
    except Exception as exc:  # a broken agent or rule: keep the run going, say what broke
        error = f"{type(exc).__name__}: {exc}"
    finally:
        for seat in seats.values():
            if isinstance(seat, Finishing):
                seat.finish(state)
    finished = state.is_terminal()
    winner = state.winner() if finished else None
    result.update(
        winner=winner,
        returns={s: float(v) for s, v in state.returns().items()} if finished else None,
        plies=plies,
        turns=state.turn,
        turn=state.turn_label,
    )
    cause = state.end_cause if finished else None
    if error is not None:
        result["error"] = error
    elif not finished:
        cause = f"ply limit {max_plies}"
    result["cause"] = cause
    if record is not None:
        result["record"] = [record.header(), *(e.to_json() for e in record.entries)]
    return result
