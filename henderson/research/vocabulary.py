"""Each game's action vocabulary: every word an action's notation can be made of, in a fixed
order, grouped by what it names (verb, unit, hex, zone, box, number, kind, word).

The vocabulary is built from the game's published data (`Game.client_data()`) and its
notation (verbs and keywords), never from play, so it is the same on every machine for the
same data. `vocabulary(game)` is the one function that knows where the words come from;
when the core offers a game's whole vocabulary it will call that instead.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from henderson.core.errors import HendersonError
from henderson.core.game import Game

END = "<end>"  # the token that closes every action's token sequence
SPACE_VERSION = 1  # bumped when the tokenisation itself changes (not the data)

# the kinds of token, in the order they appear in a vocabulary
KINDS = ("end", "separator", "verb", "word", "unit", "hex", "zone", "box", "number", "kind")

AAG_MAX_ID = 999  # AAG piece ids us1..us999 and jp1..jp999 (pieces are numbered as bought)


class VocabularyError(HendersonError):
    """A game without a known action vocabulary, or an action outside it."""


@dataclass(frozen=True)
class Vocabulary:
    """The tokens of one game's actions: `tokens[i]` is token id i; `tokens[0]` is END.

    `separators` are the characters that join the items of a list inside one word of the
    notation ("1/1,1/2", "0602+0802"); they are tokens of their own."""

    game: str
    data_version: str
    tokens: tuple[str, ...]
    kinds: tuple[str, ...]
    separators: tuple[str, ...]
    notes: tuple[str, ...] = ()  # what a researcher should know (caps, conventions)
    ids: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "ids", {t: i for i, t in enumerate(self.tokens)})
        if len(self.ids) != len(self.tokens):
            raise VocabularyError(f"{self.game}: the vocabulary lists a token twice")

    def __len__(self) -> int:
        return len(self.tokens)

    @property
    def version(self) -> str:
        """A digest of the tokens in order: equal exactly when every token keeps its id."""
        text = "\n".join(self.tokens).encode()
        return f"tokens-{SPACE_VERSION}:sha256:{hashlib.sha256(text).hexdigest()[:16]}"

    def kind_ranges(self) -> dict[str, tuple[int, int]]:
        """For each kind, the first token id and one past the last (kinds are contiguous)."""
        ranges: dict[str, tuple[int, int]] = {}
        for i, kind in enumerate(self.kinds):
            start, _ = ranges.get(kind, (i, i))
            ranges[kind] = (start, i + 1)
        return ranges

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "data_version": self.data_version,
            "version": self.version,
            "size": len(self.tokens),
            "separators": list(self.separators),
            "kinds": {k: list(r) for k, r in self.kind_ranges().items()},
            "tokens": list(self.tokens),
            "notes": list(self.notes),
        }


class _Builder:
    """Collects tokens by kind, first mention wins (a word that is a verb and a keyword is
    one token)."""

    def __init__(self) -> None:
        self.by_kind: dict[str, list[str]] = {k: [] for k in KINDS}
        self.seen: set[str] = set()

    def add(self, kind: str, words: Iterable[str]) -> None:
        for word in words:
            if word not in self.seen:
                self.seen.add(word)
                self.by_kind[kind].append(word)

    def build(self, game: Game, separators: tuple[str, ...], notes: tuple[str, ...] = ()) -> Vocabulary:
        self.by_kind["end"] = [END]
        self.by_kind["separator"] = list(separators)
        tokens = [t for k in KINDS for t in self.by_kind[k]]
        kinds = [k for k in KINDS for _ in self.by_kind[k]]
        return Vocabulary(game.name, game.data_version, tuple(tokens), tuple(kinds), separators, notes)


def _firstblood(game: Game) -> Vocabulary:
    from henderson.games.firstblood.actions import BOX_NAMES

    data = game.client_data()
    b = _Builder()
    b.add("verb", ["place", "setup", "commit", "move", "bomb", "attack", "add", "resolve", "cancel", "air", "bombard"])
    b.add("verb", ["lose", "retreat", "advance", "stop", "land", "fly", "end"])
    b.add("word", ["default", "specials", "via", "with", "art", "ships"])
    b.add("unit", [*data["ground"], *data["air"], *data["ships"]])
    b.add("hex", [h["id"] for h in data["hexes"]])
    b.add("box", [x["id"] for x in data["boxes"]])
    b.add("box", [x["id"] for x in data["entry_points"]])
    b.add("box", BOX_NAMES)
    return b.build(game, ("+", ","))


def _deluxe(game: Game) -> Vocabulary:
    from henderson.games.deluxe.actions import VERBS

    data = game.client_data()
    b = _Builder()
    b.add("verb", VERBS)
    b.add("unit", data["units"])
    b.add("hex", [h["id"] for h in data["hexes"]])
    b.add("number", [str(n) for n in range(100)])  # the notation's numbers have one or two digits
    return b.build(game, ("+",))


def _aag(game: Game) -> Vocabulary:
    from henderson.games.aag.actions import ARITY

    data = game.client_data()
    b = _Builder()
    b.add("verb", ARITY)
    b.add("zone", [a["id"] for a in data["areas"]])
    b.add("kind", [*data["units"], "supply", "air", "sea", "land"])
    b.add("kind", advantage_tokens(game))
    b.add("unit", [f"{side}{n}" for side in game.sides for n in range(1, AAG_MAX_ID + 1)])
    notes = (
        f"piece ids are numbered as pieces are bought: the space holds ids 1..{AAG_MAX_ID} of each side; "
        "an action naming a higher id is outside it (VocabularyError)",
    )
    return b.build(game, (",",), notes)


def advantage_tokens(game: Game) -> list[str]:
    """AAG's advantage token ids (its data; the contract has no word for them yet)."""
    data: Any = game.data  # type: ignore[attr-defined]
    return list(dict.fromkeys(t.id for t in data.advantages))


_BUILDERS: dict[str, Callable[[Game], Vocabulary]] = {
    "firstblood": _firstblood,
    "deluxe": _deluxe,
    "aag": _aag,
}
_CACHE: dict[tuple[str, str], Vocabulary] = {}


def register_vocabulary(name: str, builder: Callable[[Game], Vocabulary]) -> None:
    """Teach `vocabulary` a game it does not know (a plug-in game, a test game)."""
    _BUILDERS[name] = builder
    for key in [k for k in _CACHE if k[0] == name]:
        del _CACHE[key]


def vocabulary(game: Game) -> Vocabulary:
    """The action vocabulary of `game` for its data (built once per data version)."""
    key = (game.name, game.data_version)
    found = _CACHE.get(key)
    if found is None:
        builder = _BUILDERS.get(game.name)
        if builder is None:
            raise VocabularyError(
                f"no action vocabulary for game {game.name!r} (known: {', '.join(sorted(_BUILDERS))}); "
                "register one with henderson.research.register_vocabulary"
            )
        found = _CACHE[key] = builder(game)
    return found


def words_builder(
    words_by_kind: dict[str, Iterable[str]], separators: tuple[str, ...] = ()
) -> Callable[[Game], Vocabulary]:
    """A vocabulary builder from fixed lists of words by kind (for small plug-in games)."""

    def build(game: Game) -> Vocabulary:
        b = _Builder()
        for kind, words in words_by_kind.items():
            if kind not in KINDS:
                raise VocabularyError(f"unknown token kind {kind!r} (kinds: {', '.join(KINDS)})")
            b.add(kind, words)
        return b.build(game, separators)

    return build
