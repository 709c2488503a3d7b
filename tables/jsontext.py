"""JSON text of the live path (a dealer's action: the hand's snapshot for the database and the sockets, the
update messages, the acks), written by orjson instead of the standard library's encoder: every action
serialises its snapshot and its messages, and the encoder was the largest single item of an action's CPU
after the database round trip (bench/RESULTS.md, "Where an action's CPU goes").

The text means the same as ``json.dumps(obj, separators=(",", ":"), default=str)``'s: integer dict keys
become strings, datetimes and dataclasses go through ``default=str`` as before; characters beyond ASCII
are written as UTF-8 instead of ``\\u`` escapes (the same JSON to every reader).
"""

from __future__ import annotations

from typing import Any

import orjson

__all__ = ["dumps"]

_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def dumps(obj: Any) -> str:
    """``obj`` as compact JSON text (a ``str``).  Values JSON has no type for are written as their
    ``str()``.  Errors: ``TypeError`` for what cannot be written (orjson's ``JSONEncodeError``, e.g. an
    integer beyond 64 bits or a circular reference)."""
    return orjson.dumps(obj, default=str, option=_OPTIONS).decode()
