"""A fixed action space per game: every action maps to stable integers in a documented finite
space, round-trips, and the legal-token masks are exactly the legal actions' prefixes."""

from __future__ import annotations

import random

import pytest

from henderson import games
from henderson.research.actions import END_ID, ActionSpace, LegalTokens, action_space
from henderson.research.vocabulary import AAG_MAX_ID, END, KINDS, VocabularyError, vocabulary
from tests.research.conftest import GAMES, positions_for


@pytest.mark.parametrize("name", GAMES)
def test_every_legal_action_round_trips_over_random_positions(name: str) -> None:
    game = games.get(name)
    space = action_space(game)
    positions = positions_for(name)
    assert len(positions) >= 1000
    checked = 0
    for state in positions:
        seen: dict[tuple[int, ...], str] = {}
        for action in state.legal_actions():
            text = str(action)
            tokens = space.tokens(action)
            assert tokens[-1] == END_ID and END_ID not in tokens[:-1]
            assert all(0 <= t < space.size for t in tokens)
            assert space.text(tokens) == text
            index = space.action_to_index(action)
            assert space.index_tokens(index) == tokens
            assert str(space.index_to_action(index)) == text
            assert seen.setdefault(tokens, text) == text, "two legal actions share a token sequence"
            checked += 1
    assert checked > 10_000


@pytest.mark.parametrize("name", GAMES)
def test_mask_holds_exactly_the_tokens_that_extend_a_prefix_of_a_legal_action(name: str) -> None:
    game = games.get(name)
    space = action_space(game)
    rng = random.Random(3)
    for state in positions_for(name)[::25]:
        actions = list(state.legal_actions())
        sequences = [space.tokens(a) for a in actions]
        legal = LegalTokens(space, actions)
        target = sequences[rng.randrange(len(sequences))]
        for depth in range(len(target)):
            prefix = target[:depth]
            expected = {s[depth] for s in sequences if s[:depth] == prefix}
            mask = space.legal_action_mask(state, prefix)
            assert set(mask.nonzero()[0]) == expected
            assert (END_ID in expected) == any(s == (*prefix, END_ID) for s in sequences)
        assert str(legal.complete(target)) == str(actions[sequences.index(target)])
        assert legal.complete(target[:-1]) is None  # without END an action is not complete
        after_first = {s[1] for s in sequences if s[:1] == target[:1] and len(s) > 1}
        stray = next(t for t in range(1, space.size) if t not in after_first)
        assert legal.next_tokens((target[0], stray)) == []  # a prefix of no legal action leads nowhere


@pytest.mark.parametrize("name", GAMES)
def test_the_vocabulary_comes_from_the_data_and_is_versioned(name: str) -> None:
    game = games.get(name)
    vocab = vocabulary(game)
    again = ActionSpace(game).vocab
    assert vocab.tokens == again.tokens and vocab.version == again.version
    assert vocab.data_version == game.data_version
    assert vocab.tokens[0] == END
    assert 100 <= len(vocab) <= 5000, "a space of hundreds to a few thousand tokens"
    # the kinds come in the documented order, each in one run
    order = [k for k in KINDS if k in vocab.kind_ranges()]
    assert sorted(vocab.kind_ranges(), key=lambda k: vocab.kind_ranges()[k][0]) == order
    data = game.client_data()
    hexes = [h["id"] for h in data.get("hexes", ())]
    assert all(h in vocab.ids for h in hexes)
    as_json = vocab.to_json()
    assert as_json["size"] == len(vocab) and as_json["version"] == vocab.version


def test_the_version_changes_exactly_when_a_token_changes() -> None:
    game = games.get("aag")
    vocab = vocabulary(game)
    from dataclasses import replace

    moved = replace(vocab, tokens=(vocab.tokens[0], vocab.tokens[2], vocab.tokens[1], *vocab.tokens[3:]))
    assert moved.version != vocab.version
    assert replace(vocab, notes=("other notes",)).version == vocab.version


def test_bad_indexes_and_tokens_are_refused_in_one_line() -> None:
    space = action_space(games.get("firstblood"))
    for bad in (0, -3, True, 1.5, "7"):
        with pytest.raises(VocabularyError):
            space.index_tokens(bad)  # type: ignore[arg-type]
    with pytest.raises(VocabularyError, match="END"):
        space.index_tokens(5 + 0 * space.size + 7 * space.size**2)  # digits 5, 0 (END), 7
    with pytest.raises(VocabularyError, match="not a token id"):
        space.text([space.size + 1])
    with pytest.raises(VocabularyError, match="'Yamato'"):
        space.tokens("move Yamato 0707")


def test_aag_piece_ids_beyond_the_documented_cap_are_outside_the_space() -> None:
    space = action_space(games.get("aag"))
    assert space.text(space.tokens(f"move A us1,jp{AAG_MAX_ID}")) == f"move A us1,jp{AAG_MAX_ID}"
    with pytest.raises(VocabularyError, match=f"jp{AAG_MAX_ID + 1}"):
        space.tokens(f"move A jp{AAG_MAX_ID + 1}")
    assert any("1.." in note for note in space.vocab.notes)


def test_an_unknown_game_has_no_vocabulary_until_one_is_registered() -> None:
    from henderson.research.vocabulary import register_vocabulary, words_builder
    from tests.agents.toy_eval import install

    install()
    toy = games.get("toy")
    with pytest.raises(VocabularyError, match="register"):
        vocabulary(toy)
    register_vocabulary("toy", words_builder({"verb": ["roll", "hold", "end"]}))
    space = ActionSpace(toy)
    state = toy.new_state(1)
    assert {space.text(space.tokens(a)) for a in state.legal_actions()} == {str(a) for a in state.legal_actions()}


@pytest.mark.parametrize("name", GAMES)
def test_the_typed_structure_of_an_action_names_its_tokens(name: str) -> None:
    """Where a game's `describe` gives typed arguments, the units, hexes, zones and numbers it
    names are tokens of the action: the space is the same whichever form a client reads."""
    from henderson.core.actions import ArgKind

    game = games.get(name)
    space = action_space(game)
    named = (ArgKind.UNIT, ArgKind.UNITS, ArgKind.HEX, ArgKind.ZONE, ArgKind.NUMBER)
    for state in positions_for(name)[::50]:
        for action in state.legal_actions():
            info = game.describe(action)
            words = set(space.token_names(space.tokens(action)))
            assert info.verb in words
            for arg in info.args:
                if arg.kind in named:
                    values = arg.value if isinstance(arg.value, (list, tuple)) else [arg.value]
                    assert {str(v) for v in values} <= words, (str(action), arg)
