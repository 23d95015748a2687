"""The rules reference (henderson/games/*/rulebook.toml, docs/rules.md): every citation in
the code resolves to an entry, every entry is well formed and numbered as its rulebook is,
and every summary is in our own words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from henderson.rules_reference import GAMES, Citation, citations, explain, rulebook

RULES_DIR = Path(__file__).resolve().parent.parent.parent / "shared" / "rules"
RULEBOOKS = {
    "FB": ["first-blood.md", "first-blood-alt.txt"],
    "DG": ["deluxe-guadalcanal.txt"],
    "AAG": ["aa-guadalcanal.txt"],
}
RUN = 8  # no sentence of ours shares this many consecutive words with its rulebook

# Citations in the code that name no section of their rulebook: the code is to be fixed
# (cite the section suggested), not the reference. Keyed by the citation as written.
WRONG_IN_CODE: dict[str, str] = {}  # citation -> where and why it is wrong, until the code is fixed


# the advantage token ids of games/aag/data/advantages.toml, which explain.py turns into
# f"AAG Appendix 1 {token.replace('_', ' ').title()}"
ADVANTAGE_TOKENS = ("command_decision", "banzai_charge", "night_fighting", "quick_drop", "superior_fighters")
ADVANTAGE_TOKENS += ("good_logistics", "amphibious_assault", "pt_boats", "coast_watchers")


@pytest.fixture(scope="module")
def written() -> list[Citation]:
    return citations()


def resolves(c: Citation) -> bool:
    """A numbered citation names an entry exactly (no falling back to a parent section); a
    named AAG citation begins with an entry's id or alias."""
    if c.game not in GAMES:
        return False
    book = rulebook(c.game)
    return (book.find(c.text) if c.game == "AAG" else book.get(c.text)) is not None


def test_the_code_cites_rules(written: list[Citation]) -> None:
    games = {c.game for c in written}
    assert games == set(GAMES), games
    assert len(written) > 1000


def test_every_citation_in_the_code_resolves(written: list[Citation]) -> None:
    bad = sorted(f"{c.path}:{c.line}: {c.text}" for c in written if c.text not in WRONG_IN_CODE and not resolves(c))
    assert not bad, "citations that name no entry of their rulebook.toml:\n" + "\n".join(bad)


@pytest.mark.parametrize(
    "text",
    [pytest.param(t, marks=pytest.mark.xfail(reason=why, strict=True)) for t, why in WRONG_IN_CODE.items()],
)
def test_known_wrong_citations(written: list[Citation], text: str) -> None:
    """Fails while the code still writes the citation; once the code is fixed this passes,
    the strict xfail reports it, and the entry is to be taken off WRONG_IN_CODE."""
    assert all(resolves(c) for c in written if c.text == text)


@pytest.mark.parametrize(
    "text",
    [
        # f-strings the scan cannot read: aag/rules/explain.py and movement.py
        *(f"AAG Units {t.capitalize()}" for t in ("bomber", "fighter")),
        *(f"AAG {t.capitalize()}" for t in ("transport", "destroyer", "cruiser", "battleship")),
        *(f"AAG Appendix 1 {t.replace('_', ' ').title()}" for t in ADVANTAGE_TOKENS),
        "DG 9.1 villages held",
        "DG 9.2 villages held",
    ],
)
def test_citations_built_at_run_time_resolve(text: str) -> None:
    rule = explain(text)
    assert rule is not None and rule.id != "AAG Appendix 1", text


def test_explain_finds_the_longest_section() -> None:
    assert explain("FB 8.10.2").id == "FB 8.10.2"
    assert explain("FB 8.1").id == "FB 8.1"
    assert explain("DG 8.2.1.4 retreat").id == "DG 8.2.1.4"
    assert explain("DG 7: the movement phase").id == "DG 7.0"
    assert explain("DG 4.0 step 14").id == "DG 4.0 step 14"
    assert explain("DG 4.0 step 1").id == "DG 4.0 step 1"
    assert explain("AAG Combat step 4 us attack on airfields in 6, die 2").id == "AAG Combat step 4"
    assert explain("AAG Reinforce: unspent points are lost").id == "AAG Regroup step 4 Reinforce"
    assert explain("AAG Appendix 1 Pt Boats").id == "AAG Appendix 1 PT Boats"
    assert explain("FB Sequence of Play 2.0").id == "FB Sequence of Play 2.0"
    # a number the rulebook lacks falls back to its section; nothing falls back to a game
    assert explain("FB 8.7.9").id == "FB 8.7"
    assert explain("FB 99.1") is None
    assert explain("XX 1.0") is None
    assert rulebook("FB").get("FB 8.7.9") is None


@pytest.mark.parametrize("prefix", sorted(GAMES))
def test_entries_are_well_formed(prefix: str) -> None:
    book = rulebook(prefix)
    ids = [r.id for r in book]
    assert len(ids) == len(set(ids))
    for r in book:
        assert r.id.startswith(prefix + " "), r.id
        assert 2 <= len(r.title) <= 60 and r.title == r.title.strip(), r.id
        assert 20 <= len(r.text) <= 600, (r.id, len(r.text))
        assert 1 <= len(sentences(r.text)) <= 3, (r.id, sentences(r.text))
        assert r.text[-1] in ".)", r.id
        for alias in r.aliases:
            assert alias.startswith(prefix + " ") and alias != r.id, (r.id, alias)


def numbered(prefix: str) -> list[str]:
    return [r.id for r in rulebook(prefix) if re.fullmatch(rf"{prefix} \d+(\.\d+)+", r.id)]


def key(rule_id: str) -> tuple[int, ...]:
    return tuple(int(n) for n in rule_id.split(" ")[1].split("."))


@pytest.mark.parametrize("prefix", ["FB", "DG"])
def test_numbers_follow_the_rulebook_order(prefix: str) -> None:
    ids = numbered(prefix)
    assert ids == sorted(ids, key=key)
    for rule_id in ids:
        parts = rule_id.split(" ")[1].split(".")
        if len(parts) > 2:  # 8.7.3 sits under 8.7; 10.1.2 under 10.1
            assert f"{prefix} {'.'.join(parts[:-1])}" in ids, rule_id
        elif parts[1] != "0":  # 3.1 sits under 3.0
            assert f"{prefix} {parts[0]}.0" in ids, rule_id
    others = [r.id for r in rulebook(prefix) if r.id not in ids]
    if prefix == "FB":
        assert others == ["FB Sequence of Play", *(f"FB Sequence of Play {n}.0" for n in range(1, 12))]
    else:
        assert others == [f"DG 4.0 step {n}" for n in range(1, 21)]


def rulebook_text(name: str) -> str:
    path = RULES_DIR / name
    if not path.exists():
        pytest.skip(f"the rulebooks are not beside the repository ({RULES_DIR})")
    return path.read_text(encoding="utf-8")


def section_numbers(text: str) -> set[str]:
    """The section numbers that begin lines of a rulebook transcription."""
    found = set()
    for line in text.splitlines():
        m = re.match(r"^\s*(?:[-#]+\s*)*\**\s*(\d+\.\d+(?:\.\d+)*)\b", line)
        if m:
            found.add(m.group(1))
    return found


def test_fb_numbers_are_the_rulebooks() -> None:
    body, _, back = rulebook_text("first-blood.md").partition("\n# Sequence of Play")
    assert back, "the back page (Sequence of Play) is where it was"
    assert {f"FB {n}" for n in section_numbers(body)} == set(numbered("FB"))
    assert {f"FB Sequence of Play {n}" for n in section_numbers(back)} == {
        f"FB Sequence of Play {n}.0" for n in range(1, 12)
    }


def test_dg_numbers_are_the_rulebooks() -> None:
    text = rulebook_text("deluxe-guadalcanal.txt")
    # the transcription lost the leading "2" of 2.1.8.1 (the Turn Track, under 2.1.8)
    text = re.sub(r"(?m)^(\s*-\s*)\.1\.8\.1 ", r"\g<1>2.1.8.1 ", text)
    assert {f"DG {n}" for n in section_numbers(text)} == set(numbered("DG"))
    # the section itself, not its line in the table of contents
    steps = max(re.findall(r"\n4\.0 Sequence of Play\n(.*?)\n5\.0 Random Events", text, re.S), key=len)
    assert max(int(n) for n in re.findall(r"(?m)^\s*-\s*\**(\d+)\.", steps)) == 20


# what an AAG id adds to the manual's own words: a step number, Appendix 1, Units, Phase n
NUMBERED_PART = r"^AAG ((\w+ )*\w+ step \d+|Appendix \d( (Axis|Allies) Advantages)?|Units|Phase \d)"


def test_aag_names_are_the_rulebooks() -> None:
    """Every AAG id and alias names a heading, step or label the manual prints (the words
    after the step number or Appendix 1, case and punctuation aside)."""
    manual = words(rulebook_text("aa-guadalcanal.txt"))
    for r in rulebook("AAG"):
        for name in (r.id, *r.aliases):
            rest = re.sub(NUMBERED_PART, "", name).removeprefix("AAG ")
            assert not rest or f" {words(rest)} " in f" {manual} ", name


def words(text: str) -> str:
    """Lower case, apostrophes dropped, every other mark a space."""
    text = text.lower().replace("’", "").replace("'", "")
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text).split())


def sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z0-9(])", text) if s]


@pytest.mark.parametrize("prefix", sorted(GAMES))
def test_the_summaries_are_our_own_words(prefix: str) -> None:
    runs: set[tuple[str, ...]] = set()
    for name in RULEBOOKS[prefix]:
        w = words(rulebook_text(name)).split()
        runs.update(tuple(w[i : i + RUN]) for i in range(len(w) - RUN + 1))
    copied = []
    for r in rulebook(prefix):
        for s in [r.title, *sentences(r.text)]:
            w = words(s).split()
            hits = [" ".join(w[i : i + RUN]) for i in range(len(w) - RUN + 1) if tuple(w[i : i + RUN]) in runs]
            if hits:
                copied.append(f"{r.id}: {hits[0]!r}")
    assert not copied, f"runs of {RUN} words taken from the rulebook:\n" + "\n".join(copied)
