"""The rules reference: every section of the three rulebooks summarised in our own words.

The rulebooks are not part of the repository, so a citation such as `FB 8.10.2` in the code,
in a refusal or in the browser is looked up here instead. Each game package carries a
`rulebook.toml` (FB `games/firstblood`, DG `games/deluxe`, AAG `games/aag`) with one
`[[rule]]` per section: `id`, `title`, `text` and, for AAG sections the code also names by
their heading, `aliases`. The summaries are ours; the rulebooks remain the authority
(docs/rules.md).

    >>> explain("FB 8.10.2").title
    'Supporting units take no losses'
    >>> explain("AAG Combat step 4 us attack on airfields in 6, die 2").id
    'AAG Combat step 4'

`citations()` lists every citation written in the package (comments, refusals, roll
purposes, data sources), for the test that each one resolves.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
GAMES = {"FB": "firstblood", "DG": "deluxe", "AAG": "aag"}
"""A citation's prefix and the game package that holds its rulebook.toml."""

SCANNED = {".py", ".toml", ".js", ".html", ".md", ".json", ".txt"}


@dataclass(frozen=True)
class Rule:
    """One section of a rulebook, in our words."""

    id: str
    title: str
    text: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Citation:
    """A rule citation as written in a file: `text` is the citation (`FB 8.7.3`,
    `AAG Loss of Cargo`), one per number of a list such as `FB 8.7.3, 4.4`."""

    path: str
    line: int
    text: str

    @property
    def game(self) -> str:
        """The rulebook's prefix: FB, DG or AAG."""
        return self.text.split(" ", 1)[0]


def _at_boundary(citation: str, key: str) -> bool:
    """True when `key` prefixes `citation` and ends a word or a section number there."""
    if not citation.startswith(key):
        return False
    rest = citation[len(key) :]
    return not rest or not (rest[0].isalnum() or (rest[0] == "." and rest[1:2].isdigit()))


def _whole_sections(citation: str) -> str:
    """`FB 7` and `DG 9:` name the sections 7.0 and 9.0."""
    return re.sub(r"^((?:FB|DG) \d+)(?![\d]|\.\d)", r"\1.0", citation.strip())


class Rulebook:
    """The rules of one game, looked up by the citations the code writes."""

    def __init__(self, prefix: str, rules: list[Rule]) -> None:
        self.prefix = prefix
        self.rules = tuple(rules)
        self._keys: dict[str, Rule] = {}
        for rule in self.rules:
            for key in (rule.id, *rule.aliases):
                if key.casefold() in self._keys:
                    raise ValueError(f"{prefix} rulebook: {key!r} names two entries")
                self._keys[key.casefold()] = rule

    def __iter__(self) -> Iterator[Rule]:
        return iter(self.rules)

    def __len__(self) -> int:
        return len(self.rules)

    def get(self, key: str) -> Rule | None:
        """The entry whose id or alias is exactly `key` (case is ignored)."""
        return self._keys.get(_whole_sections(key).casefold())

    def find(self, citation: str) -> Rule | None:
        """The entry whose id or alias is the longest prefix of `citation` ending at a word
        or number boundary: `FB 8.10.2 attacker` finds 8.10.2, never 8.1."""
        text = _whole_sections(citation).casefold()
        best = max((k for k in self._keys if _at_boundary(text, k)), key=len, default=None)
        return None if best is None else self._keys[best]

    def explain(self, citation: str) -> Rule | None:
        """`find`, falling back to the enclosing section of a number the rulebook lacks
        (a citation of FB section 8.7.9 gives 8.7)."""
        found = self.find(citation)
        m = re.match(r"(FB|DG) (\d+(?:\.\d+)+)", citation.strip())
        while found is None and m:
            parent = m.group(2).rsplit(".", 1)[0]
            found = self.get(f"{m.group(1)} {parent}")
            m = re.match(r"(FB|DG) (\d+(?:\.\d+)+)", f"{m.group(1)} {parent}")
        return found


def rulebook_path(prefix: str) -> Path:
    """Where the rulebook.toml of the game cited as `prefix` (FB, DG, AAG) lives."""
    return PACKAGE / "games" / GAMES[prefix] / "rulebook.toml"


@cache
def rulebook(prefix: str) -> Rulebook:
    """The rules reference of the game cited as `prefix` (FB, DG or AAG)."""
    with rulebook_path(prefix).open("rb") as fh:
        data = tomllib.load(fh)
    rules = [Rule(r["id"], r["title"], " ".join(r["text"].split()), tuple(r.get("aliases", ()))) for r in data["rule"]]
    return Rulebook(prefix, rules)


def explain(citation: str) -> Rule | None:
    """The entry for a citation as the code writes it (`FB 8.10.2`, `DG 8.2.1.4 retreat`,
    `AAG Appendix 1 Coast Watchers`), or None when its game has no such section."""
    prefix = citation.strip().split(" ", 1)[0]
    return rulebook(prefix).explain(citation) if prefix in GAMES else None


_NUMBERED = re.compile(
    r"\b(FB|DG)\s+(\d+(?:\.\d+)*)(?![\d]|\.\{)"
    r"((?:\s*(?:,|/|-|–|\band\b|\bor\b|\bto\b)\s*\d+\.\d+(?:\.\d+)*(?!\d))*)"
)
_STEPS = re.compile(r" steps? (\d+)((?:\s*(?:,|/|and|or|-|–)\s*\d+(?![\d.]))*)")
_FB_SEQUENCE = re.compile(r"\bFB Sequence of Play(?: (\d+\.\d+))?")
_NAMED = re.compile(r"\bAAG\s+(?=[A-Z])")
_JOIN = re.compile(r"\s*\n\s*(?:#+|//+|\*+)?\s*")
_CUT = re.compile(r"""["`:;(),{}\[\]]| — |\.(?:\s|$)|\\n""")


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _scan(text: str) -> Iterator[tuple[int, str]]:
    """(offset, citation) for each rule citation in `text`."""
    for m in _NUMBERED.finditer(text):
        game = m.group(1)
        numbers = [m.group(2), *re.findall(r"\d+\.\d+(?:\.\d+)*", m.group(3))]
        for n in numbers:
            yield m.start(), f"{game} {n}"
        steps = _STEPS.match(text, m.end()) if game == "DG" and m.group(2) == "4.0" else None
        if steps:
            for s in [steps.group(1), *re.findall(r"\d+", steps.group(2))]:
                yield m.start(), f"DG 4.0 step {s}"
    for m in _FB_SEQUENCE.finditer(text):
        yield m.start(), m.group(0)
    for m in _NAMED.finditer(text):
        tail = text[m.end() : m.end() + 240]
        before = text[text.rfind("\n", 0, m.start()) + 1 : m.start()]
        # a section's name runs on over a line break only inside parentheses (docstrings)
        tail = _JOIN.sub(" ", tail) if before.count("(") > before.count(")") else tail.split("\n", 1)[0]
        cited = _CUT.split(tail, maxsplit=1)[0]
        yield m.start(), " ".join(["AAG", *cited.split()[:9]])


def citations(root: Path | None = None) -> list[Citation]:
    """Every rule citation written under `root` (the henderson package by default), with
    its path relative to the repository and its line; the rulebooks themselves are skipped."""
    root = root or PACKAGE
    found: list[Citation] = []
    for path in sorted(root.rglob("*")):
        if path.suffix not in SCANNED or path.name == "rulebook.toml" or "__pycache__" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(root.parent).as_posix()
        found.extend(Citation(rel, _line(text, at), cited) for at, cited in _scan(text))
    return found
