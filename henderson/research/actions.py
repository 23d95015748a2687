"""A fixed action space per game: actions as sequences of tokens from the game's vocabulary.

An action's tokens are the words of its notation (`str(action)`, the default structured
form `Game.describe` gives), each list split at its separators, then END:

    "move 1/5 0707"        -> move, 1/5, 0707, <end>
    "attack 0602+0802"     -> attack, 0602, +, 0802, <end>
    "move A jp23,jp45"     -> move, A, jp23, ",", jp45, <end>

A token is an integer below `len(space)` (token 0 is END). The tokens of an action read
back to its notation, so an action has one stable integer too: `action_to_index` reads the
token ids (END left out) as the digits of a number in base `len(space)`, least significant
first. Both forms depend only on the vocabulary, whose `version` names them.

At a decision, `LegalTokens` holds the legal actions' token sequences: the legal tokens after
a prefix are those that extend it towards some legal action (END when the prefix is one).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from henderson.core.game import Action, Game, State, needs_extra
from henderson.research.vocabulary import END, Vocabulary, VocabularyError, vocabulary

if TYPE_CHECKING:
    import numpy as np

END_ID = 0


class ActionSpace:
    """The token space of one game: encode and decode actions, legal tokens, masks."""

    def __init__(self, game: Game, vocab: Vocabulary | None = None) -> None:
        self.game = game
        self.vocab = vocab or vocabulary(game)
        if self.vocab.tokens[END_ID] != END:
            raise VocabularyError(f"{game.name}: token 0 of a vocabulary must be {END}")
        self._separators = frozenset(self.vocab.separators)
        self._cache: dict[str, tuple[int, ...]] = {}

    def __len__(self) -> int:
        return len(self.vocab)

    @property
    def size(self) -> int:
        """The number of tokens (the size of a mask, of OpenSpiel's distinct actions)."""
        return len(self.vocab)

    @property
    def version(self) -> str:
        """Names the mapping: equal versions map every action to the same integers."""
        return self.vocab.version

    # -- actions and tokens ---------------------------------------------------------------

    def words(self, text: str) -> list[str]:
        """The notation split into tokens (words, and list items with their separators)."""
        out: list[str] = []
        for word in text.split():
            part = ""
            for ch in word:
                if ch in self._separators:
                    if part:
                        out.append(part)
                    out.append(ch)
                    part = ""
                else:
                    part += ch
            if part:
                out.append(part)
        return out

    def tokens(self, action: Action | str) -> tuple[int, ...]:
        """The token ids of `action` (or of its notation), ending with END."""
        text = str(action)
        found = self._cache.get(text)
        if found is None:
            ids = self.vocab.ids
            try:
                found = (*(ids[w] for w in self.words(text)), END_ID)
            except KeyError as exc:
                raise VocabularyError(
                    f"{self.game.name}: {exc.args[0]!r} in {text!r} is not in the action vocabulary "
                    f"({self.vocab.version})"
                ) from None
            if len(self._cache) > 500_000:
                self._cache.clear()
            self._cache[text] = found
        return found

    def text(self, tokens: Iterable[int]) -> str:
        """The notation that `tokens` spell (END, if present, closes it)."""
        out = ""
        glue = True  # no space before the first word, nor next to a separator
        for t in tokens:
            if t == END_ID:
                break
            if not 0 < t < len(self.vocab):
                raise VocabularyError(f"{self.game.name}: {t} is not a token id (1..{len(self.vocab) - 1})")
            word = self.vocab.tokens[t]
            if word in self._separators:
                out += word
                glue = True
            else:
                out += word if glue else " " + word
                glue = False
        return out

    def token_names(self, tokens: Iterable[int]) -> list[str]:
        """The tokens as words (for reading and debugging)."""
        return [self.vocab.tokens[t] for t in tokens]

    def action_to_index(self, action: Action | str) -> int:
        """The action's integer: its token ids (END left out) as base-`size` digits, least
        significant first. Every digit is non-zero, so the length is known; an action of at
        most L tokens has an index below size**L."""
        index, scale = 0, 1
        for t in self.tokens(action)[:-1]:
            index += t * scale
            scale *= len(self.vocab)
        return index

    def index_tokens(self, index: int) -> tuple[int, ...]:
        """The token ids an integer from `action_to_index` stands for, ending with END."""
        if isinstance(index, bool) or not isinstance(index, int) or index <= 0:
            raise VocabularyError(f"{index!r} is not an action index (a positive integer)")
        out: list[int] = []
        while index:
            index, digit = divmod(index, len(self.vocab))
            if digit == END_ID:
                raise VocabularyError("not an action index: a token inside it is END")
            out.append(digit)
        return (*out, END_ID)

    def index_to_action(self, index: int) -> Action:
        """The action an integer from `action_to_index` stands for (the game reads its notation)."""
        return self.game.parse_action(self.text(self.index_tokens(index)))

    # -- legality -----------------------------------------------------------------------------

    def legal(self, state: State) -> LegalTokens:
        """The legal actions of `state` as token sequences (empty when nobody decides)."""
        return LegalTokens(self, state.legal_actions())

    def legal_action_mask(self, state: State, prefix: Sequence[int] = ()) -> np.ndarray:
        """A boolean array over tokens: True where the token extends `prefix` towards a legal
        action of `state` (END where `prefix` is one)."""
        return self.legal(state).mask(prefix)


class LegalTokens:
    """One decision's legal actions as token sequences, narrowed token by token."""

    def __init__(self, space: ActionSpace, actions: Sequence[Action]) -> None:
        self.space = space
        self.actions = list(actions)
        self.sequences = [space.tokens(a) for a in self.actions]
        self._narrowed: tuple[tuple[int, ...], list[int]] = ((), list(range(len(self.actions))))

    def _candidates(self, prefix: Sequence[int]) -> list[int]:
        """Indexes of the actions whose tokens begin with `prefix` (narrowed incrementally)."""
        prefix = tuple(prefix)
        known, rows = self._narrowed
        if prefix[: len(known)] != known:
            known, rows = (), list(range(len(self.actions)))
        for depth in range(len(known), len(prefix)):
            token = prefix[depth]
            rows = [i for i in rows if len(self.sequences[i]) > depth and self.sequences[i][depth] == token]
        self._narrowed = (prefix, rows)
        return rows

    def next_tokens(self, prefix: Sequence[int] = ()) -> list[int]:
        """The tokens that may follow `prefix`, ascending (empty: `prefix` leads nowhere)."""
        depth = len(prefix)
        return sorted({self.sequences[i][depth] for i in self._candidates(prefix) if len(self.sequences[i]) > depth})

    def mask(self, prefix: Sequence[int] = ()) -> np.ndarray:
        """`next_tokens(prefix)` as a 0/1 int8 array over the whole token space."""
        out = numpy().zeros(len(self.space), dtype="int8")
        out[self.next_tokens(prefix)] = 1
        return out

    def complete(self, tokens: Sequence[int]) -> Action | None:
        """The legal action whose whole token sequence (END included) is `tokens`, or None."""
        for i in self._candidates(tokens):
            if len(self.sequences[i]) == len(tokens):
                return self.actions[i]
        return None


def numpy() -> Any:
    """The numpy module, or the error saying which extra installs it."""
    try:
        import numpy
    except ModuleNotFoundError as exc:  # pragma: no cover - depends on the installation
        raise needs_extra(exc, "rl", "legal-action masks") from None
    return numpy


def action_space(game: Game) -> ActionSpace:
    """The action space of `game` (built once per game object and shared)."""
    found = _SPACES.get(id(game))
    if found is None or found.game is not game:
        found = _SPACES[id(game)] = ActionSpace(game)
    return found


_SPACES: dict[int, ActionSpace] = {}

__all__ = ["END_ID", "ActionSpace", "LegalTokens", "action_space"]
