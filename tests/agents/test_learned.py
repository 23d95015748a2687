"""The learned evaluation: features read only what a side may see, the model file is checked
on loading, values stay on the evaluation scale, agents choose it by `eval=learned`, and the
training script is reproducible from its seed."""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path
from typing import Any

import pytest

from henderson import agents, games
from henderson.agents import learned
from henderson.agents.evaluation import chosen_evaluator, find_evaluator
from henderson.agents.learned import LearnedEvaluator, LearnedModelError, load_model, parse_model
from henderson.core.game import State
from henderson.games.aag import features as aag_features
from tests.aag.test_hidden import to_orders, without_orders

ROOT = Path(__file__).resolve().parents[2]


def random_positions(name: str, seed: int, count: int, every: int) -> list[State]:
    """`count` positions of a seeded random game of `name`, one every `every` plies."""
    game = games.get(name)
    state = game.new_state(seed)
    player = agents.get("random", seed)
    out: list[State] = []
    ply = 0
    while not state.is_terminal() and len(out) < count:
        if ply % every == 0:
            out.append(state.clone())
        state.apply(player.choose(state))
        ply += 1
    return out


def aag_positions(seed: int, count: int) -> list[State]:
    """`count` positions of a seeded random AAG game, spread over its course."""
    return random_positions("aag", seed, count, 37)


def test_aag_features_have_the_documented_length_and_change_sign_with_the_side() -> None:
    for state in aag_positions(5, 8):
        us = aag_features.features(state, "us")  # type: ignore[arg-type]
        jp = aag_features.features(state, "jp")  # type: ignore[arg-type]
        assert len(us) == len(aag_features.FEATURES) == 13
        assert jp == pytest.approx([-x for x in us])


@pytest.mark.parametrize("seed", [1, 2])
def test_aag_features_ignore_the_other_sides_secret_orders_aag_appendix_1(seed: int) -> None:
    written = to_orders(seed, orders=2)
    side = written.current_player()
    blank = without_orders(written, side)
    guess = written.sample_unseen(side, random.Random(3))
    assert written.to_json() != blank.to_json()
    want = aag_features.features(blank, side)
    assert aag_features.features(written, side) == want
    assert aag_features.features(guess, side) == want


def model_json(**changes: Any) -> dict[str, Any]:
    names = list(aag_features.FEATURES)
    return {"version": 1, "game": "aag", "features": names, "weights": [0.1] * len(names), **changes}


def test_the_shipped_aag_model_loads_and_names_the_games_features() -> None:
    game = games.get("aag")
    evaluate = learned.learned_evaluator(game)
    assert isinstance(evaluate, LearnedEvaluator)
    assert evaluate.model.features == aag_features.FEATURES
    assert evaluate.model.provenance["games"] > 0 and "train_evaluation.py" in evaluate.model.provenance["command"]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"version": 9}, "version 9"),
        ({"game": "deluxe"}, "a model for game 'deluxe'"),
        ({"features": ["hand"]}, "are not this game's"),
        ({"weights": [0.1]}, "weights must be 13 finite numbers"),
        ({"weights": ["x"] * 13}, "weights must be 13 finite numbers"),
    ],
)
def test_a_bad_model_file_gives_a_one_line_error(tmp_path: Path, changes: dict[str, Any], message: str) -> None:
    path = tmp_path / "evaluation.json"
    path.write_text(json.dumps(model_json(**changes)))
    with pytest.raises(LearnedModelError) as caught:
        load_model(path, "aag", aag_features.FEATURES)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_a_model_file_that_is_not_json_gives_a_one_line_error(tmp_path: Path) -> None:
    path = tmp_path / "evaluation.json"
    path.write_text("{weights")
    with pytest.raises(LearnedModelError, match=r"evaluation.json: not JSON"):
        load_model(path, "aag", aag_features.FEATURES)


def test_learned_values_stay_on_the_evaluation_scale_and_are_zero_sum() -> None:
    model = parse_model(model_json(weights=[3.0] * 13), "aag", aag_features.FEATURES, "test")
    evaluate = LearnedEvaluator(model, aag_features.features)  # type: ignore[arg-type]
    for state in aag_positions(8, 10):
        us, jp = evaluate(state, "us"), evaluate(state, "jp")
        assert -1.0 <= us <= 1.0
        assert us == pytest.approx(-jp)


def test_eval_learned_makes_the_agents_play_by_the_learned_evaluation(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def spy(state: State, side: str) -> float:
        calls.append(side)
        return 0.0

    monkeypatch.setattr(learned, "learned_evaluator", lambda game: spy)
    state = aag_positions(2, 3)[-1]
    for spec in ("normal:eval=learned", "mcts:eval=learned:iterations=3"):
        calls.clear()
        agents.get(spec, 1).choose(state)
        assert calls, spec
    calls.clear()
    agents.get("normal:eval=hand", 1).choose(state)
    assert not calls


def test_eval_learned_falls_back_on_the_hand_written_evaluation_where_none_is_shipped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = games.get("aag")
    monkeypatch.setattr(learned, "model_path", lambda game: Path("/nonexistent/evaluation.json"))
    assert learned.learned_evaluator(game) is None
    assert chosen_evaluator(game, "learned") == find_evaluator(game)


def test_an_unknown_evaluation_is_refused_with_a_one_line_error() -> None:
    with pytest.raises(agents.AgentError, match="eval='best': choose hand or learned"):
        agents.get("normal:eval=best")


def training_script() -> Any:
    """scripts/train_evaluation.py as a module (it needs numpy, the `rl` extra)."""
    pytest.importorskip("numpy")
    spec = importlib.util.spec_from_file_location("train_evaluation", ROOT / "scripts" / "train_evaluation.py")
    assert spec and spec.loader
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    return script


def test_training_writes_the_same_model_twice_from_the_same_seed(tmp_path: Path) -> None:
    script = training_script()
    outs = []
    for n in range(2):
        out = tmp_path / f"model{n}.json"
        args = ["aag", "--games", "4", "--seed", "3", "--agents", "random", "--every", "40", "--holdout", "0.5"]
        assert script.main([*args, "--out", str(out)]) == 0
        outs.append(out.read_text())
    assert outs[0] == outs[1]
    model = load_model(tmp_path / "model0.json", "aag", aag_features.FEATURES)
    assert model.provenance["games"] == 4 and model.provenance["positions"] > 0
    assert any(w != 0 for w in model.weights)


def test_training_with_only_some_features_gives_the_others_no_weight(tmp_path: Path) -> None:
    script = training_script()
    out = tmp_path / "model.json"
    args = ["aag", "--games", "3", "--seed", "4", "--agents", "random", "--every", "40", "--only", "hand,side"]
    assert script.main([*args, "--holdout", "0", "--out", str(out)]) == 0
    model = load_model(out, "aag", aag_features.FEATURES)
    for name, weight in zip(model.features, model.weights, strict=True):
        assert (weight != 0) == (name in ("hand", "side")), name
    assert script.main([*args[:-1], "hand,bogus", "--out", str(out)]) == 2


def test_the_aag_hand_weights_make_the_model_the_hand_written_evaluation() -> None:
    from henderson.games.aag.evaluate import NEAR_WIN, evaluate, race, settled

    names = aag_features.FEATURES
    weights = [aag_features.HAND_WEIGHTS.get(n, 0.0) for n in names]
    model = parse_model(model_json(weights=weights), "aag", names, "test")
    learned_value = LearnedEvaluator(model, aag_features.features)  # type: ignore[arg-type]
    checked = 0
    for state in aag_positions(9, 12):
        hand = evaluate(state, "jp")  # type: ignore[arg-type]
        if settled(state) is None and race(state) is None and abs(hand) < NEAR_WIN:  # type: ignore[arg-type]
            assert learned_value(state, "jp") == pytest.approx(hand / NEAR_WIN)
            checked += 1
    assert checked >= 5


def test_training_toward_the_hand_weights_stays_at_them_under_a_heavy_penalty(tmp_path: Path) -> None:
    script = training_script()
    out = tmp_path / "model.json"
    terms = ",".join(n for n in aag_features.FEATURES if n.startswith("term_"))
    args = ["aag", "--games", "2", "--seed", "5", "--agents", "random", "--every", "40", "--holdout", "0"]
    assert script.main([*args, "--only", f"{terms},side", "--toward-hand", "--l2", "1e9", "--out", str(out)]) == 0
    model = load_model(out, "aag", aag_features.FEATURES)
    fitted = {*terms.split(","), "side"}
    want = [aag_features.HAND_WEIGHTS.get(n, 0.0) if n in fitted else 0.0 for n in model.features]
    assert list(model.weights) == pytest.approx(want, abs=1e-4)


def test_tuning_by_play_writes_the_same_model_twice_from_the_same_seed(tmp_path: Path) -> None:
    script = training_script()
    outs = []
    for n in range(2):
        out = tmp_path / f"model{n}.json"
        assert script.main(["aag", "--spsa", "1", "--seed", "3", "--agents", "random", "--out", str(out)]) == 0
        outs.append(out.read_text())
    assert outs[0] == outs[1]
    model = load_model(tmp_path / "model0.json", "aag", aag_features.FEATURES)
    assert model.provenance["method"] == "spsa" and model.provenance["games"] == 2
    assert "--spsa 1 --seed 3" in model.provenance["command"]
    for name, weight in zip(model.features, model.weights, strict=True):
        if name not in script.SPSA_FEATURES:  # untuned: stays where it started
            assert weight == aag_features.HAND_WEIGHTS.get(name, 0.0), name


def test_tuning_by_play_moves_a_weight_toward_the_model_that_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    script = training_script()
    names = list(aag_features.FEATURES)
    material = names.index("term_material")

    def more_material_wins(game: Any, spec: str, names: list[str], first: Any, second: Any, seed: int) -> float:
        return 2.0 if first[material] > second[material] else 0.0  # both games to the heavier weight

    monkeypatch.setattr(script, "points", more_material_wins)
    start = [aag_features.HAND_WEIGHTS.get(n, 0.0) for n in names]
    tuned = [names.index(n) for n in ("term_material", "term_vp")]
    weights = script.spsa(games.get("aag"), "normal", names, tuned, start, 20, 5, 0.2, 0.05)
    assert weights[material] > start[material] + 0.5  # every round moves it up
    untouched = [i for i in range(len(names)) if i not in tuned]
    assert [weights[i] for i in untouched] == pytest.approx([start[i] for i in untouched], abs=1e-12)


def test_residual_tuning_starts_from_the_hand_value_and_batches_seeds(tmp_path: Path) -> None:
    script = training_script()
    out = tmp_path / "model.json"
    args = ["aag", "--spsa", "1", "--seed", "3", "--agents", "random", "--batch", "2", "--residual", "--out", str(out)]
    assert script.main(args) == 0
    model = load_model(out, "aag", aag_features.FEATURES)
    assert model.provenance["games"] == 4  # one round of two seeds, two games each
    assert "--batch 2 --residual" in model.provenance["command"]
    for name, weight in zip(model.features, model.weights, strict=True):
        if name not in script.SPSA_FEATURES:  # untuned: the hand-written value and nothing else
            assert weight == (1.0 if name == "hand" else 0.0), name


def test_a_batch_moves_by_the_mean_margin_of_its_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    script = training_script()
    names = list(aag_features.FEATURES)
    seen: list[int] = []

    def half_the_seeds_won(game: Any, spec: str, names: list[str], first: Any, second: Any, seed: int) -> float:
        seen.append(seed)
        return 2.0 if len(seen) % 2 else 1.0  # margins 2 and 0: the mean is 1

    monkeypatch.setattr(script, "points", half_the_seeds_won)
    start = [0.0] * len(names)
    tuned = [names.index("term_vp")]
    one = script.spsa(games.get("aag"), "normal", names, tuned, start, 1, 5, 0.2, 0.05, batch=2)
    assert len(set(seen)) == 2
    assert abs(one[tuned[0]]) == pytest.approx(0.05)  # the step times the mean margin, 1


def test_a_weighted_player_plays_by_its_own_evaluation_and_then_gives_the_game_its_own_back() -> None:
    script = training_script()
    calls: list[str] = []

    def spy(state: State, side: str) -> float:
        calls.append(side)
        return 0.0

    state = aag_positions(2, 3)[-1]
    player = script.WeightedPlayer("normal", 1, spy)
    assert player.choose(state) in state.legal_actions()
    assert calls
    assert find_evaluator(state.game) == state.game.evaluate


@pytest.mark.parametrize(
    "args",
    [
        ["--spsa", "0"],
        ["--spsa", "1", "--perturb", "0"],
        ["--spsa", "1", "--batch", "0"],
        ["--spsa", "1", "--agents", "normal:eval=learned"],
    ],
)
def test_tuning_by_play_refuses_bad_options_with_exit_2(args: list[str], tmp_path: Path) -> None:
    script = training_script()
    assert script.main(["aag", *args, "--out", str(tmp_path / "model.json")]) == 2
    assert not (tmp_path / "model.json").exists()


def dg_positions(seed: int, count: int) -> list[State]:
    """`count` positions of a seeded random Deluxe Guadalcanal game, spread over its course."""
    return random_positions("deluxe", seed, count, 29)


def test_dg_features_have_the_documented_length_and_change_sign_with_the_side() -> None:
    from henderson.games.deluxe import features as dg_features

    for state in dg_positions(4, 8):
        us = dg_features.features(state, "us")  # type: ignore[arg-type]
        jp = dg_features.features(state, "jp")  # type: ignore[arg-type]
        assert len(us) == len(dg_features.FEATURES) == 10
        assert us == pytest.approx([-x for x in jp])


def test_the_dg_hand_weights_make_the_model_the_hand_written_evaluation() -> None:
    """DG: with `HAND_WEIGHTS` the learned value is tanh of the weighed parts, which is the
    hand-written evaluation (docs/deluxe.md) wherever it is short of its cap."""
    from henderson.games.deluxe import features as dg_features
    from henderson.games.deluxe.evaluate import CAP, evaluate

    names = dg_features.FEATURES
    weights = [dg_features.HAND_WEIGHTS.get(n, 0.0) for n in names]
    obj = {**model_json(weights=weights), "game": "deluxe", "features": list(names)}
    model = parse_model(obj, "deluxe", names, "test")
    learned_value = LearnedEvaluator(model, dg_features.features)  # type: ignore[arg-type]
    checked = 0
    for state in dg_positions(6, 10):
        hand = evaluate(state, "jp")  # type: ignore[arg-type]
        if abs(hand) < CAP:
            assert learned_value(state, "jp") == pytest.approx(hand, abs=1e-12)
            checked += 1
    assert checked >= 5


def test_dg_tuning_by_play_tunes_the_features_the_game_names(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """`--spsa` tunes a game's own `SPSA_FEATURES` (DG: its parts and their late shares) and no other."""
    from henderson.games.deluxe import features as dg_features

    script = training_script()

    def plus_wins(game: Any, spec: str, names: list[str], first: Any, second: Any, seed: int) -> float:
        return 2.0  # the plus model wins both games of every seed

    monkeypatch.setattr(script, "points", plus_wins)
    out = tmp_path / "dg.json"
    assert script.main(["deluxe", "--spsa", "2", "--seed", "3", "--agents", "random", "--out", str(out)]) == 0
    model = load_model(out, "deluxe", dg_features.FEATURES)
    for name, weight in zip(model.features, model.weights, strict=True):
        start = dg_features.HAND_WEIGHTS.get(name, 0.0)
        assert (weight != start) == (name in dg_features.SPSA_FEATURES), name
