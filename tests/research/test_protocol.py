"""The engine protocol: a program in any language plays through JSON Lines on its standard
input and output (`cmd:` agents), errors and time limits handled, one line each."""

from __future__ import annotations

import json
import shlex
import sys
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from henderson import agents, games
from henderson.agents import AgentError
from henderson.agents.external import ExternalAgent, parse_cmd_spec
from henderson.cli import app
from henderson.sim import simulate, tournament
from tests.agents.toy_eval import install

ROOT = Path(__file__).resolve().parents[2]
BOT = Path(__file__).with_name("bots") / "bot.py"
PYTHON = shlex.quote(sys.executable)


def bot(mode: str, log: Path | None = None, settings: str = "") -> str:
    extra = f" {shlex.quote(str(log))}" if log else ""
    return f"cmd:{settings}{PYTHON} {shlex.quote(str(BOT))} {mode}{extra}"


@pytest.fixture(autouse=True)
def toy() -> None:
    install()


def test_a_program_plays_whole_games_by_the_protocol(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    result = simulate("toy", 3, {"red": bot("first", log), "blue": "random"}, seed=2)
    assert all("error" not in r and r["winner"] in ("red", "blue") for r in result.results)
    messages = [json.loads(x) for x in log.read_text().splitlines()]
    kinds = [m["type"] for m in messages]
    assert kinds.count("hello") == 3 and kinds.count("end") == 3, "one program per game, told how it ended"
    hello = messages[0]
    assert hello["protocol"] == "henderson-engine/1" and hello["game"] == "toy" and hello["side"] == "red"
    decide = next(m for m in messages if m["type"] == "decide")
    assert decide["side"] == "red" and decide["legal"] and decide["time_limit"] == 10.0
    assert "dice" not in decide["view"] and "seed" not in decide["view"], "the view, never the dice"
    assert decide["view"] == json.loads(json.dumps(decide["view"]))
    end = next(m for m in messages if m["type"] == "end")
    assert set(end) == {"type", "winner", "returns", "cause"}


def test_answers_by_index_and_structured_actions(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    result = simulate("aag", 1, {"us": bot("index", log, "describe=true:"), "jp": "random"}, seed=1, max_plies=60)
    assert "error" not in result.results[0]
    decide = next(json.loads(x) for x in log.read_text().splitlines() if '"decide"' in x)
    assert [a["text"] for a in decide["actions"]] == decide["legal"]
    assert all("verb" in a and "args" in a for a in decide["actions"])


def test_a_wrong_answer_is_told_and_may_be_put_right(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    result = simulate("toy", 1, {"red": bot("retry", log), "blue": "random"}, seed=5)
    assert "error" not in result.results[0]
    errors = [json.loads(x) for x in log.read_text().splitlines() if '"error"' in x]
    assert errors and not errors[0]["fatal"] and "not JSON" in errors[0]["message"]


@pytest.mark.parametrize(
    ("mode", "settings", "said"),
    [
        ("garbage", "", "is not among the"),
        ("slow", "timeout=0.5:", "no answer within 0.5 s"),
        ("quit", "", "the program ended (its last words: giving up)"),
    ],
)
def test_a_program_that_cannot_answer_forfeits_the_game_with_one_line(mode: str, settings: str, said: str) -> None:
    result = simulate("toy", 1, {"red": bot(mode, settings=settings), "blue": "random"}, seed=5)
    row = result.results[0]
    assert row["returns"] is None and said in row["error"] and "\n" not in row["error"]


def test_the_last_words_of_a_program_that_quit_are_read_even_under_load() -> None:
    """Its error output is read by a thread of its own; the forfeit waits for that thread to
    finish, so the message names the last words however busy the process is (two threads
    spinning beside it made about one forfeit in fifteen lose them before)."""
    stop = threading.Event()

    def spin() -> None:
        while not stop.is_set():
            sum(range(10_000))

    spinners = [threading.Thread(target=spin, daemon=True) for _ in range(2)]
    for spinner in spinners:
        spinner.start()
    try:
        for attempt in range(20):
            agent = agents.get(bot("quit"), attempt)
            with pytest.raises(AgentError) as raised:
                agent.choose(games.get("toy").new_state(1))
            assert "the program ended (its last words: giving up)" in str(raised.value), attempt
    finally:
        stop.set()
        for spinner in spinners:
            spinner.join()


def test_the_program_is_stopped_when_the_game_ends() -> None:
    agent = agents.get(bot("first"), 3)
    assert isinstance(agent, ExternalAgent)
    game = games.get("toy")
    state = game.new_state(3)
    while not state.is_terminal():  # blue rolls once, then holds
        blue = state.legal_actions()[0 if state.turn_total == 0 else -1]  # type: ignore[attr-defined]
        state.apply(agent.choose(state) if state.current_player() == "red" else blue)
    process = agent._process
    assert process is not None and process.poll() is None
    agent.finish(state)
    assert process.poll() is not None and agent._process is None


def test_a_tournament_against_the_built_in_agents_through_the_reference_client(tmp_path: Path) -> None:
    client = f"cmd:{PYTHON} {shlex.quote(str(ROOT / 'examples' / 'engine_bot.py'))}"
    result = tournament("aag", [client, "random"], 1, seed=3, mirror=False, max_plies=3000)
    rows = [r for rs in result.games.values() for r in rs]
    assert len(rows) == 2 and all("error" not in r for r in rows)
    points, played = result.points(client, "random")
    assert played == 2 and 0.0 <= points <= 2.0


def test_the_command_line_takes_cmd_agents_and_refuses_a_missing_program(tmp_path: Path) -> None:
    client = f"cmd:{sys.executable} {ROOT / 'examples' / 'engine_bot.py'}"
    runner = CliRunner()
    done = runner.invoke(
        app,
        [
            "tournament",
            "toy",
            "--agents",
            f"{client},random",
            "-n",
            "1",
            "--no-mirror",
            "--max-plies",
            "500",
            "--no-progress",
        ],
    )
    assert done.exit_code == 0, done.output
    assert "games in" in done.output
    missing = runner.invoke(app, ["tournament", "toy", "--agents", "cmd:no-such-bot-program --fast,random", "-n", "1"])
    assert missing.exit_code == 2
    lines = [x for x in missing.output.splitlines() if x.strip()]
    assert lines == ["henderson: agent 'cmd:no-such-bot-program --fast': no program 'no-such-bot-program' found"]


def test_bad_specs_are_refused_in_one_line() -> None:
    assert parse_cmd_spec("cmd:timeout=2.5:describe=true:./bot --deep") == (
        ["./bot", "--deep"],
        {"timeout": "2.5", "describe": "true"},
    )
    assert parse_cmd_spec("cmd:python bot.py --depth=3:x")[0] == ["python", "bot.py", "--depth=3:x"]
    for spec, said in [
        ("cmd:", "needs a command line"),
        ("cmd:timeout=soon:python", "timeout is a number"),
        ("cmd:timeout=0:python", "more than 0"),
        ("cmd:python 'unclosed", "cannot read the command line"),
    ]:
        with pytest.raises(AgentError, match=said) as refused:
            agents.get(spec)
        assert "\n" not in str(refused.value)
