"""The whole record of a match sealed inside each seat's copy, so that the players together
can resume a game of hidden information that neither may read alone.

Each side's copy carries one share of a key K and the record encrypted and authenticated
with K; K is the XOR of every side's share, so one copy alone opens nothing. The shares are
HMAC-SHA256 of the match's secret (the one its dice come from), so nothing new is stored.
Only the standard library: a keystream from SHAKE-256 XORed with the record, then
HMAC-SHA256 over what is sealed (encrypt-then-MAC); docs/threat-model.md gives the limits.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

SCHEME = "henderson-seal-1"
"""The construction below; a copy naming another is refused."""
NONCE_BYTES = 16
KEY_BYTES = 32
PAD_BYTES = 1024
"""The sealed record is padded with newlines to a multiple of this: its exact length, which
could hint at actions played out of a seat's sight, is not told."""


class SealError(ValueError):
    """Seat copies that cannot be opened together: `code` is stable, the text says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def share_of(secret: str, match_id: str, side: str) -> bytes:
    """A side's share of the match's sealing key: HMAC-SHA256 of the match's secret, which
    the server keeps and no seat reads while the game goes on."""
    return hmac.new(secret.encode(), f"{SCHEME} share|{match_id}|{side}".encode(), hashlib.sha256).digest()


def key_of(shares: Sequence[bytes]) -> bytes:
    """K: the XOR of every side's share (any share missing, K is unknown)."""
    key = bytes(KEY_BYTES)
    for share in shares:
        key = _xor(key, share)
    return key


def _subkey(key: bytes, purpose: str) -> bytes:
    return hmac.new(key, f"{SCHEME} {purpose}".encode(), hashlib.sha256).digest()


def _keystream(key: bytes, nonce: bytes, size: int) -> bytes:
    return hashlib.shake_256(_subkey(key, "stream") + nonce).digest(size)


def _xor(a: bytes, b: bytes) -> bytes:
    """Two byte strings of one length XORed (as integers: fast for a long record)."""
    assert len(a) == len(b)
    return (int.from_bytes(a, "big") ^ int.from_bytes(b, "big")).to_bytes(len(a), "big")


def _mac(key: bytes, match_id: str, entries: int, nonce: bytes, body: bytes) -> bytes:
    """HMAC-SHA256 over the scheme, the match, the entry count, the nonce and the ciphertext."""
    told = f"{SCHEME}|{match_id}|{entries}|".encode()
    return hmac.new(_subkey(key, "mac"), told + nonce + body, hashlib.sha256).digest()


def seal(record_text: str, key: bytes, match_id: str, entries: int) -> dict[str, Any]:
    """The record encrypted with `key` under a fresh nonce, then authenticated (the `sealed`
    object of a seat copy's `meta.seat_copy`)."""
    nonce = secrets.token_bytes(NONCE_BYTES)
    plain = record_text.encode()
    plain += b"\n" * (-len(plain) % PAD_BYTES)
    body = _xor(plain, _keystream(key, nonce, len(plain)))
    return {
        "scheme": SCHEME,
        "match": match_id,
        "entries": entries,
        "nonce": nonce.hex(),
        "mac": _mac(key, match_id, entries, nonce, body).hex(),
        "ciphertext": base64.b64encode(body).decode(),
    }


@dataclass(frozen=True)
class SeatCopy:
    """What a seat copy's header says of its seal: the side, its share and the sealed record."""

    game: str
    side: str
    share: bytes
    sealed: dict[str, Any]

    @property
    def match(self) -> str:
        return str(self.sealed["match"])


def _hex(value: Any, size: int, what: str) -> bytes:
    try:
        raw = bytes.fromhex(value) if isinstance(value, str) else b""
    except ValueError:
        raw = b""
    if len(raw) != size:
        raise SealError("bad-seat-copy", f"{what}: {size * 2} hexadecimal digits expected")
    return raw


def read_copy(text: str) -> SeatCopy:
    """The seal of a seat copy, from its first line (SealError when it is not a sealed copy)."""
    try:
        head = json.loads(text.split("\n", 1)[0])
    except ValueError:
        raise SealError("bad-seat-copy", "the first line of a seat copy is its JSON header") from None
    meta = head.get("meta") if isinstance(head, dict) else None
    copy = meta.get("seat_copy") if isinstance(meta, dict) else None
    if not isinstance(copy, dict) or not isinstance(copy.get("sealed"), dict) or "share" not in copy:
        raise SealError("bad-seat-copy", "this is not a seat copy with a sealed record (meta.seat_copy.sealed)")
    sealed: dict[str, Any] = copy["sealed"]
    if sealed.get("scheme") != SCHEME:
        raise SealError("bad-seat-copy", f"sealed with {sealed.get('scheme')!r}; this program opens {SCHEME}")
    if not isinstance(sealed.get("match"), str) or not isinstance(sealed.get("entries"), int):
        raise SealError("bad-seat-copy", "the seal names no match or entry count")
    return SeatCopy(str(head.get("game")), str(copy.get("side")), _hex(copy["share"], KEY_BYTES, "share"), sealed)


def is_seat_copy(text: str) -> bool:
    """Whether `text` is a record whose header marks it as one seat's copy."""
    try:
        head = json.loads(text.split("\n", 1)[0])
    except ValueError:
        return False
    return isinstance(head, dict) and isinstance(head.get("meta"), dict) and "seat_copy" in head["meta"]


def open_sealed(sealed: dict[str, Any], key: bytes) -> str:
    """The record inside `sealed`, once its MAC checks under `key` (SealError otherwise)."""
    nonce = _hex(sealed.get("nonce"), NONCE_BYTES, "nonce")
    mac = _hex(sealed.get("mac"), 32, "mac")
    try:
        body = base64.b64decode(str(sealed.get("ciphertext", "")), validate=True)
    except (binascii.Error, ValueError):
        raise SealError("bad-seal", "the sealed record is not base64") from None
    if not hmac.compare_digest(mac, _mac(key, sealed["match"], sealed["entries"], nonce, body)):
        raise SealError(
            "bad-seal",
            "the sealed record does not check with these shares: it was altered, or the copies are not "
            "the seats' own copies of one match",
        )
    plain = _xor(body, _keystream(key, nonce, len(body)))
    try:
        return plain.decode().rstrip("\n") + "\n"  # the padding off
    except UnicodeDecodeError:
        raise SealError("bad-seal", "the sealed record is not text") from None


def unseal(texts: Sequence[str], sides: Sequence[str]) -> str:
    """The whole record from every side's copy of one match: the shares joined into K, each
    seal checked, the latest (most entries) opened. SealError names what is wrong: a copy
    missing, copies of different matches or games, a seal that does not check."""
    copies = [read_copy(t) for t in texts]
    held = {c.side for c in copies}
    if len(copies) != len(held):
        raise SealError("same-seat", "two copies of the same seat: each side's own copy is needed")
    if len({c.match for c in copies}) > 1 or len({c.game for c in copies}) > 1:
        raise SealError("copies-differ", "these copies are of different matches: the seats' copies of one match")
    missing = [s for s in sides if s not in held]
    if missing:
        raise SealError(
            "other-copy-needed",
            f"one seat's copy alone opens nothing: the copy of {', '.join(missing)} is needed too",
        )
    if held - set(sides):
        raise SealError("bad-seat-copy", f"a copy of a side this game does not have: {sorted(held - set(sides))}")
    key = key_of([c.share for c in copies])
    opened = [open_sealed(c.sealed, key) for c in copies]
    latest = max(range(len(copies)), key=lambda i: copies[i].sealed["entries"])
    return opened[latest]
