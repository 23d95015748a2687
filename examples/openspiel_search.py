"""Search a henderson game with OpenSpiel: Monte Carlo tree search whose rollouts sample the
dice at the game's chance nodes, choosing one token at a time.

    python examples/openspiel_search.py --game aag --simulations 200 --tokens 12
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
from open_spiel.python.algorithms import mcts

from henderson.research import openspiel_game


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="aag")
    parser.add_argument("--simulations", type=int, default=100, help="MCTS simulations per token")
    parser.add_argument("--tokens", type=int, default=8, help="tokens to choose before stopping")
    parser.add_argument("--max-plies", type=int, default=200, help="rollouts stop (a draw) after this many actions")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    game = openspiel_game.load(args.game, max_plies=args.max_plies)
    rng = np.random.RandomState(args.seed)
    bot = mcts.MCTSBot(
        game,
        uct_c=1.4,
        max_simulations=args.simulations,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
        random_state=rng,
    )
    state = game.new_initial_state()
    chosen: list[str] = []
    while len(chosen) < args.tokens and not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        player = state.current_player()
        token = bot.step(state)
        chosen.append(state.action_to_string(player, token))
        state.apply_action(token)
    print("tokens chosen: " + " ".join(chosen))
    print("actions played: " + "; ".join(e.action for e in state.match.record.entries))
    return {"tokens": chosen, "actions": [e.action for e in state.match.record.entries]}


if __name__ == "__main__":
    main()
