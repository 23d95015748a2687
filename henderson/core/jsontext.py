"""Reading JSON from outside with its nesting bounded: text nested deeper than a limit is
refused before it is parsed (the parser would otherwise recurse as deep as the text nests
and fail with RecursionError, not with a one-line error naming the input)."""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 64  # nesting of objects and lists: no position, record or message comes near it


def depth(text: str) -> tuple[int, int]:
    """The deepest bracket nesting of a JSON text (strings skipped) and where it first
    goes past MAX_DEPTH (-1 when it does not)."""
    level = deepest = 0
    past = -1
    in_string = escaped = False
    for index, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            level += 1
            if level > deepest:
                deepest = level
                if deepest > MAX_DEPTH and past < 0:
                    past = index
        elif ch in "]}":
            level -= 1
    return deepest, past


def loads(text: str) -> Any:
    """`json.loads`, but text nested deeper than MAX_DEPTH, or holding a number of more digits
    than Python turns into an integer (`sys.get_int_max_str_digits`), raises
    `json.JSONDecodeError` (a ValueError naming the line) like any other text that is not
    acceptable JSON."""
    if text.count("[") + text.count("{") > MAX_DEPTH:
        _, past = depth(text)
        if past >= 0:
            raise json.JSONDecodeError(f"nested deeper than {MAX_DEPTH} levels", text, past)
    try:
        return json.loads(text)
    except RecursionError:
        raise json.JSONDecodeError(f"nested deeper than {MAX_DEPTH} levels", text, 0) from None
    except json.JSONDecodeError:
        raise
    except ValueError:  # an integer of thousands of digits
        raise json.JSONDecodeError("a number with too many digits", text, 0) from None
