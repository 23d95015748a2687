"""The seal of a seat copy (henderson/core/sealed.py): the record opens only with every
side's share, and any change to what is sealed is caught by its MAC."""

from __future__ import annotations

import pytest

from henderson.core.sealed import SealError, key_of, open_sealed, seal, share_of

RECORD = '{"format":"henderson-record"}\n{"ply":0,"player":"us","action":"end"}\n'


def shares() -> list[bytes]:
    return [share_of("00" * 32, "m1", side) for side in ("us", "jp")]


def test_the_record_opens_with_every_share_in_any_order() -> None:
    us, jp = shares()
    sealed = seal(RECORD, key_of([us, jp]), "m1", 1)
    assert open_sealed(sealed, key_of([jp, us])) == RECORD
    assert RECORD.encode().hex() not in sealed["ciphertext"]


def test_the_length_is_told_only_to_the_next_kilobyte() -> None:
    key = key_of(shares())
    short, longer = seal(RECORD, key, "m1", 1), seal(RECORD + "x" * 500 + "\n", key, "m1", 1)
    assert len(short["ciphertext"]) == len(longer["ciphertext"])
    assert open_sealed(longer, key) == RECORD + "x" * 500 + "\n"


def test_one_share_or_another_match_opens_nothing() -> None:
    us, jp = shares()
    sealed = seal(RECORD, key_of([us, jp]), "m1", 1)
    for key in (key_of([us]), key_of([jp]), key_of([share_of("00" * 32, "m2", s) for s in ("us", "jp")])):
        with pytest.raises(SealError) as caught:
            open_sealed(sealed, key)
        assert caught.value.code == "bad-seal"


@pytest.mark.parametrize("field", ["match", "entries", "nonce", "ciphertext"])
def test_anything_changed_is_caught(field: str) -> None:
    key = key_of(shares())
    sealed = seal(RECORD, key, "m1", 1)
    changed = {
        "match": "m2",
        "entries": 2,
        "nonce": "11" * 16,
        "ciphertext": seal(RECORD.replace("end", "eNd"), key, "m1", 1)["ciphertext"],
    }[field]
    with pytest.raises(SealError):
        open_sealed({**sealed, field: changed}, key)
