"""Dice nobody controls or foresees: a secret's dice with the players' contributions, the
commitment published in a record's header, and `verify`, which checks every die of a
finished record (set-up included) and names the line of any die that was changed."""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter

import pytest

from henderson.core.dice import (
    Contribution,
    KeyedDice,
    RecordedDice,
    SecretDice,
    commitment,
    die_from,
    fresh_secret,
    stream_key,
)
from henderson.core.errors import HendersonError
from henderson.core.record import DiceCommitment, GameRecord, replay, verify
from tests.support.toy import ToyGame

SECRET = "5" * 64
RED, BLUE = "a" * 64, "b" * 64


def rolls(dice: SecretDice, count: int) -> list[int]:
    return [dice.roll("test") for _ in range(count)]


def test_the_commitment_is_the_sha256_of_the_secret() -> None:
    secret = fresh_secret()
    assert len(secret) == 64 and int(secret, 16) >= 0
    assert commitment(secret) == hashlib.sha256(secret.encode()).hexdigest()
    assert fresh_secret() != secret


def test_secret_dice_are_the_same_for_the_same_secret_and_contributions() -> None:
    a = SecretDice(SECRET, [Contribution("red", RED, 0)])
    b = SecretDice(SECRET, [Contribution("red", RED, 0)])
    assert rolls(a, 30) == rolls(b, 30)
    assert rolls(SecretDice("6" * 64, [Contribution("red", RED, 0)]), 30) != rolls(
        SecretDice(SECRET, [Contribution("red", RED, 0)]), 30
    )


def test_a_contribution_rekeys_the_dice_from_its_roll_on_only() -> None:
    alone = rolls(SecretDice(SECRET, [Contribution("red", RED, 0)]), 40)
    joined = SecretDice(SECRET, [Contribution("red", RED, 0)])
    first = rolls(joined, 10)
    joined.contribute(Contribution("blue", BLUE, joined.index))
    after = rolls(joined, 30)
    assert first == alone[:10]  # the dice rolled before it are what they were
    assert after != alone[10:]  # from its roll on, the dice are keyed by it too
    again = SecretDice(SECRET, [Contribution("red", RED, 0), Contribution("blue", BLUE, 10)])
    assert rolls(again, 40) == first + after  # and anyone with the header can derive them
    with pytest.raises(HendersonError, match="order"):
        joined.contribute(Contribution("blue", BLUE, 3))


def test_secret_dice_never_leave_in_a_position_nor_a_repr() -> None:
    dice = SecretDice(SECRET, [Contribution("red", RED, 0)])
    assert dice.to_json() is None and RecordedDice(dice).to_json() is None
    assert SECRET not in repr(dice) and SECRET not in repr(RecordedDice(dice))
    assert KeyedDice(b"k").to_json() is None


def test_secret_dice_are_fair_enough() -> None:
    dice = SecretDice(SECRET)
    counts = Counter(dice.roll("x") for _ in range(30000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(abs(c - 5000) < 400 for c in counts.values())  # about 5 standard deviations
    assert {die_from(stream_key("k"), n, 10) for n in range(200)} == set(range(1, 11))


def test_recorded_dice_list_every_value_drawn() -> None:
    dice = RecordedDice(SecretDice(SECRET))
    drawn = [dice.roll("a"), dice.roll("b", 10)]
    twin = dice.clone()
    assert dice.take() == drawn and dice.drawn == []
    assert twin.drawn == drawn


def server_record(secret: str = SECRET, seed: int = 3, upto: int = 400) -> GameRecord:
    """A toy game played as the server plays one: set up and rolled with the secret and the
    players' contributions (blue's arriving after some dice), every die listed."""
    game = ToyGame()
    committed = DiceCommitment(commitment(secret), [Contribution("red", RED, 0)])
    dice = RecordedDice(SecretDice(secret, committed.contributions))
    record = GameRecord(game="toy", data_version=game.data_version, players={"red": "human", "blue": "human"})
    record.dice = committed
    state = game.new_state(None, dice=dice)
    record.setup_dice = dice.take()
    rng = random.Random(seed)
    for n in range(upto):
        if state.is_terminal():
            break
        if n == 4:  # blue takes its seat: its contribution keys the dice from the next die on
            joined = Contribution("blue", BLUE, dice.inner.index)
            committed.contributions.append(joined)
            dice.inner.contribute(joined)
        side = state.current_player()
        action = rng.choice([str(a) for a in state.legal_actions()])
        events = state.apply(action)
        record.add(side, action, events, dice.take())
    assert state.is_terminal()
    committed.secret = secret
    return record


def test_a_finished_record_is_verified_die_by_die() -> None:
    record = server_record()
    assert record.setup_dice and len(record.setup_dice) == 2  # the secret cards, drawn at set-up
    verdict = verify(GameRecord.loads(record.dumps()), ToyGame())
    assert verdict.ok, verdict.text
    assert verdict.text.startswith("verified: ") and "2 contributions" in verdict.text and "won" in verdict.text
    assert replay(GameRecord.loads(record.dumps()), ToyGame()).is_terminal()


def changed(record: GameRecord, line: int, die: int) -> str:
    """The record's text with die `die` (0-based) of line `line` (2 = the first action) changed
    in its list and its roll event alike."""
    lines = record.dumps().splitlines()
    obj = json.loads(lines[line - 1])
    old = obj["dice"][die]
    obj["dice"][die] = old % 6 + 1
    rolls_seen = [e for e in obj["events"] if e["kind"] == "roll"]
    rolls_seen[die]["data"]["value"] = obj["dice"][die]
    lines[line - 1] = json.dumps(obj)
    return "\n".join(lines)


def test_a_changed_die_is_reported_with_its_line() -> None:
    record = server_record()
    line = next(e.ply + 2 for e in record.entries if e.dice and e.ply > 6)
    verdict = verify(GameRecord.loads(changed(record, line, 0)), ToyGame())
    assert not verdict.ok
    assert verdict.text.startswith(f"FAILED: line {line}: 'roll': die 1 is ") and "committed dice" in verdict.text


def test_a_changed_set_up_die_is_reported_on_the_header() -> None:
    record = server_record()
    assert record.setup_dice is not None
    record.setup_dice = [record.setup_dice[0] % 10 + 1, record.setup_dice[1]]
    verdict = verify(GameRecord.loads(record.dumps()), ToyGame())
    assert not verdict.ok and verdict.text.startswith("FAILED: line 1: the set-up dice")


def test_a_secret_that_does_not_match_its_commitment_fails() -> None:
    record = server_record()
    assert record.dice is not None
    record.dice.secret = "6" * 64
    verdict = verify(GameRecord.loads(record.dumps()), ToyGame())
    assert not verdict.ok and "does not match the commitment" in verdict.text


def test_a_record_whose_secret_is_not_revealed_or_that_has_a_seed_is_not_verified() -> None:
    record = server_record()
    assert record.dice is not None
    record.dice.secret = None
    verdict = verify(GameRecord.loads(record.dumps()), ToyGame())
    assert not verdict.ok and verdict.text.startswith("not verifiable yet")
    game = ToyGame()
    seeded = GameRecord(game="toy", data_version=game.data_version, seed=7)
    verdict = verify(seeded, game)
    assert not verdict.ok and "seed 7" in verdict.text


def test_a_contribution_moved_to_another_roll_fails() -> None:
    record = server_record()
    assert record.dice is not None
    late = record.dice.contributions[1]
    record.dice.contributions[1] = Contribution(late.side, late.value, late.roll + 1)
    verdict = verify(GameRecord.loads(record.dumps()), ToyGame())
    assert not verdict.ok and verdict.text.startswith("FAILED: line ")


def test_an_entry_in_the_wrong_players_name_is_refused() -> None:
    record = server_record()
    lines = record.dumps().splitlines()
    first = json.loads(lines[1])
    first["player"] = "blue" if first["player"] == "red" else "red"
    lines[1] = json.dumps(first)
    verdict = verify(GameRecord.loads("\n".join(lines)), ToyGame())
    assert not verdict.ok and "line 2" in verdict.text and "decision" in verdict.text
