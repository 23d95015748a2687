"""Play by e-mail without trust (`henderson pbem`): the mover cannot learn a die before the
action that rolls it is committed to the file, cannot retry it, and cannot choose it; the
other player cannot change its value once committed; a player who does not reveal, or
reveals a value that does not match, forfeits; `henderson verify` checks a whole exchange.
Played on the toy game, whose set-up rolls each side's secret card."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from henderson import games, pbem
from henderson.core.dice import KeyedDice, commitment, stream_key
from henderson.core.errors import HendersonError
from tests.cli.test_cli import run


@pytest.fixture(autouse=True)
def toy_game() -> Iterator[None]:
    added = "toy" not in games.REGISTRY
    if added:
        games.register("toy", "tests.support.toy")
    yield
    if added:
        games.REGISTRY.pop("toy", None)
        games._load.cache_clear()


def start(tmp_path: Path) -> tuple[Path, dict[str, Path]]:
    """A toy exchange made by red and joined by blue; red's answer sets the game up."""
    file = tmp_path / "game.pbem"
    keys = {"red": tmp_path / "red.secrets", "blue": tmp_path / "blue.secrets"}
    pbem.new_exchange(games.get("toy"), "red", {}, file, keys["red"])
    pbem.take_turn(file, keys["blue"], [], join=True)
    return file, keys


def lines(file: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in file.read_text().splitlines()]


def load(file: Path) -> pbem.Exchange:
    return pbem.Exchange.load(file.read_text())


def test_the_set_up_dice_wait_for_both_players(tmp_path: Path) -> None:
    file, keys = start(tmp_path)
    ex = load(file)
    assert ex.state is None and ex.pending is not None and ex.waiting_for() == "red"
    done, said = pbem.take_turn(file, keys["red"], [])  # red reveals: the cards are dealt
    assert done.state is not None and done.state.current_player() == "red"
    assert said == ["red reveals its value: the dice of the set-up are rolled"]
    # the cards come from blue's value (sent in clear when it joined) and red's (committed first)
    head, first, join, answer = lines(file)
    assert commitment(answer["reveal"]) == first["commit"]
    key = stream_key(pbem.DOMAIN, head["exchange"], "3", "set-up", join["value"], answer["reveal"])
    dice = KeyedDice(key)
    assert done.state.cards == {"red": dice.roll("red", 10), "blue": dice.roll("blue", 10)}


def test_the_mover_learns_no_die_before_the_action_is_in_the_file(tmp_path: Path) -> None:
    file, keys = start(tmp_path)
    pbem.take_turn(file, keys["red"], [])
    before = load(file).state
    done, said = pbem.take_turn(file, keys["red"], ["roll"])
    assert said == ["red: roll rolls: its dice wait for the other player's answer"]
    # the action is in the file, its dice are not: nothing the mover holds can tell them
    assert done.pending is not None and done.pending.action == "roll" and done.waiting_for() == "blue"
    assert done.state is not None and before is not None and done.state.ply == before.ply
    mover_holds = file.read_text() + keys["red"].read_text()
    assert '"dice"' not in file.read_text() and "seed" not in mover_holds
    blue_value = pbem.Secrets.read(keys["blue"]).values[lines(file)[2]["commit"]]
    assert blue_value not in mover_holds
    # the die is the one both values give: blue reveals, and only then is it rolled
    answered, _ = pbem.take_turn(file, keys["blue"], [])
    message = lines(file)[-1]
    assert message["reveal"] == blue_value
    head = lines(file)[0]
    value = lines(file)[-2]["actions"][-1]["value"]
    rolled = KeyedDice(stream_key(pbem.DOMAIN, head["exchange"], str(len(lines(file)) - 1), "roll", value, blue_value))
    entry = answered.log[-1][0]
    assert entry.action == "roll" and entry.dice == [rolled.roll("TOY 2")]


def test_a_rolling_action_ends_the_message(tmp_path: Path) -> None:
    file, keys = start(tmp_path)
    pbem.take_turn(file, keys["red"], [])
    text = file.read_text()
    with pytest.raises(HendersonError, match="last action of a message"):
        pbem.take_turn(file, keys["red"], ["roll", "hold"])
    assert file.read_text() == text  # nothing written
    pbem.take_turn(file, keys["red"], ["roll"])
    with pytest.raises(HendersonError, match="whose dice are not known yet"):
        pbem.take_turn(file, keys["red"], ["hold"])  # no retry while its dice wait


def test_the_mover_cannot_retry_once_the_die_is_known(tmp_path: Path) -> None:
    """After blue's answer red knows the die: a file in which red replaced the action (or its
    value) is refused by blue's tool, which remembers the exchange as blue last saw it."""
    file, keys = start(tmp_path)
    pbem.take_turn(file, keys["red"], [])
    pbem.take_turn(file, keys["red"], ["roll"])
    pbem.take_turn(file, keys["blue"], [])
    rows = file.read_text().splitlines()
    rolled = json.loads(rows[-2])
    rolled["actions"][-1]["value"] = "0" * 64  # another value: another die
    rows[-2] = json.dumps(rolled)
    file.write_text("\n".join(rows) + "\n")
    with pytest.raises(HendersonError, match="does not continue the exchange as you last saw it"):
        pbem.take_turn(file, keys["blue"], [])


def test_a_message_in_the_other_players_name_is_refused(tmp_path: Path) -> None:
    file, keys = start(tmp_path)
    pbem.take_turn(file, keys["red"], [])
    ex = load(file)
    forged = {"n": ex.messages + 1, "from": "blue"}
    file.write_text(file.read_text() + json.dumps(forged) + "\n")
    with pytest.raises(HendersonError, match="in your name that you did not send"):
        pbem.open_exchange(file, keys["blue"])


def test_a_reveal_that_does_not_match_forfeits(tmp_path: Path) -> None:
    file, keys = start(tmp_path)
    pbem.take_turn(file, keys["red"], [])
    pbem.take_turn(file, keys["red"], ["roll"])
    pbem.take_turn(file, keys["blue"], [])
    rows = file.read_text().splitlines()
    answer = json.loads(rows[-1])
    answer["reveal"] = "f" * 64  # a value chosen after seeing red's: it cannot match
    rows[-1] = json.dumps(answer)
    ok, verdict = pbem.verify_exchange("\n".join(rows))
    assert not ok
    assert verdict == f"FAILED: line {len(rows)}: blue's reveal does not match its commitment: blue forfeits"


def test_verify_says_who_must_reveal(tmp_path: Path) -> None:
    file, keys = start(tmp_path)
    pbem.take_turn(file, keys["red"], [])
    pbem.take_turn(file, keys["red"], ["roll"])
    ok, verdict = pbem.verify_exchange(file.read_text())
    assert ok and "waiting for blue to reveal" in verdict and "forfeits" in verdict


def test_a_changed_die_fails_verification_on_its_line(tmp_path: Path) -> None:
    file, keys = start(tmp_path)
    pbem.take_turn(file, keys["red"], [])
    pbem.take_turn(file, keys["red"], ["roll"])
    pbem.take_turn(file, keys["blue"], [])
    rows = file.read_text().splitlines()
    answer = json.loads(rows[-1])
    answer["dice"] = [7]
    rows[-1] = json.dumps(answer)
    ok, verdict = pbem.verify_exchange("\n".join(rows))
    assert not ok and verdict.startswith(f"FAILED: line {len(rows)}: the dice of 'roll' are ")


def play_out(file: Path, keys: dict[str, Path], seed: int = 1, limit: int = 300) -> pbem.Exchange:
    """Both players take turns at the exchange, choosing at random, to the end of the game."""
    rng = random.Random(seed)
    done = load(file)
    for _ in range(limit):
        side = done.waiting_for()
        if side is None:
            break
        ex, mine = pbem.open_exchange(file, keys[side])
        seen = ex.peek(side, mine.values)
        actions: list[str] = []
        if seen.state is not None and seen.pending is None and seen.waiting_for() == side:
            actions = [rng.choice([str(a) for a in seen.state.legal_actions()])]
        done, _ = pbem.take_turn(file, keys[side], actions)
    return done


def test_a_whole_game_by_files_verifies(tmp_path: Path, monkeypatch: Any, capsys: Any) -> None:
    file, keys = start(tmp_path)
    done = play_out(file, keys)
    assert done.state is not None and done.state.is_terminal()
    ok, verdict = pbem.verify_exchange(file.read_text())
    assert ok and verdict.startswith("verified: ") and "game over" in verdict
    code, out, _ = run(monkeypatch, capsys, "verify", str(file))
    assert code == 0 and out.count("\n") == 1 and "verified" in out
    # nothing in the exchange predicts a die: no seed, no dice state, only values and commitments
    for row in lines(file):
        assert not {"seed", "state", "position"} & set(row)


def test_the_commands(tmp_path: Path, monkeypatch: Any, capsys: Any) -> None:
    file, red, blue = tmp_path / "g.pbem", tmp_path / "red.s", tmp_path / "blue.s"
    code, out, _ = run(monkeypatch, capsys, "pbem", "new", "toy", str(file), "--side", "red", "--secrets", str(red))
    assert code == 0 and "send" in out and "hidden only from a player who does not read" in out
    code, _, err = run(monkeypatch, capsys, "pbem", "new", "toy", str(file), "--side", "red", "--secrets", str(red))
    assert code == 2 and "exists already" in err and err.count("\n") == 1
    code, out, _ = run(monkeypatch, capsys, "pbem", "answer", str(file), "--secrets", str(blue))
    assert code == 0 and "blue joins" in out and "send it to red's player" in out
    code, out, _ = run(monkeypatch, capsys, "pbem", "show", str(file), "--secrets", str(red))
    assert code == 0 and "your answer rolls" in out and "legal actions" in out
    code, out, _ = run(monkeypatch, capsys, "pbem", "play", str(file), "roll", "--secrets", str(red))
    assert code == 0 and "red reveals" in out and "wait for the other player's answer" in out
    code, _, err = run(monkeypatch, capsys, "pbem", "play", str(file), "hold", "--secrets", str(red))
    assert code == 2 and err.count("\n") == 1
    code, out, _ = run(monkeypatch, capsys, "pbem", "answer", str(file), "--secrets", str(blue))
    assert code == 0 and "TOY 2 turn roll: rolled" in out
    code, out, _ = run(monkeypatch, capsys, "verify", str(file))
    assert code == 0 and "verified so far" in out
    file.write_text(file.read_text().replace('"reveal":"', '"reveal":"0', 1))
    code, out, _ = run(monkeypatch, capsys, "verify", str(file))
    assert code == 1 and "FAILED" in out and "forfeits" in out and out.count("\n") == 1


def test_verify_reads_a_server_record_too(tmp_path: Path, monkeypatch: Any, capsys: Any) -> None:
    from tests.core.test_secret_dice import server_record

    path = tmp_path / "game.jsonl"
    path.write_text(server_record().dumps())
    code, out, _ = run(monkeypatch, capsys, "verify", str(path))
    assert code == 0 and "verified: " in out
    path.write_text("not a record\n")
    code, _, err = run(monkeypatch, capsys, "verify", str(path))
    assert code == 2 and err.count("\n") == 1
