"""A seat's state message encoded once, off the event loop: JSON text, gzipped for an HTTP
client that accepts it.

A state message in a crowded position is some 150 KB of JSON. Encoded by the framework and
compressed by its middleware it took a fifth of the event loop's time under load, and every
request in flight waited behind it; encoded in the worker thread that builds it, the loop
only sends bytes.
"""

from __future__ import annotations

import gzip
import json
from typing import Any

from starlette.responses import Response

GZIP_MINIMUM = 4096  # smaller bodies gain little from compression
# level 1: a crowded FIRST BLOOD state, 143 KB of JSON, gzips to 11.2 KB in 0.3 ms; level 6
# makes 9.5 KB in 1.1 ms, and the server's time is worth more than the 15 % of bytes
GZIP_LEVEL = 1


def json_text(message: Any) -> str:
    """Compact JSON text, as Starlette's WebSocket `send_json` writes it."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def accepts_gzip(accept_encoding: str | None) -> bool:
    """Whether an `Accept-Encoding` header admits gzip (no `q=0` refusal)."""
    for part in (accept_encoding or "").lower().split(","):
        name, _, params = part.strip().partition(";")
        if name.strip() in ("gzip", "*"):
            return params.replace(" ", "") not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


class EncodedJSON:
    """A JSON body made ready to send from its text: its bytes and whether they are gzipped."""

    def __init__(self, text: str, gzipped: bool) -> None:
        body = text.encode()
        self.gzipped = gzipped and len(body) >= GZIP_MINIMUM
        self.body = gzip.compress(body, GZIP_LEVEL, mtime=0) if self.gzipped else body

    def response(self) -> Response:
        """The HTTP answer (the compression middleware passes an encoded body through)."""
        headers = {"Vary": "Accept-Encoding"}
        if self.gzipped:
            headers["Content-Encoding"] = "gzip"
        return Response(self.body, media_type="application/json", headers=headers)
