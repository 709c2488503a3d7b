"""Reading PHH texts (``.phh``, ``.phhs``) into pokerkit ``HandHistory`` objects.

The TOML is read by ``tomli`` (the project the standard library's
``tomllib`` is taken from, same parser and API, shipped compiled with mypyc:
2.5 times faster on the PHH corpus) with pokerkit's value parser, exactly as
pokerkit's ``HandHistory.loads`` reads it (a hand-written reader of the
plain subset was faster still but is the kind of parser a library should
own; ``bench/replay.py`` prints what the reading costs).

:func:`histories` turns a text into pokerkit ``HandHistory`` objects as
``HandHistory.loads`` / ``loads_all`` do, or the EngineError saying why a
hand cannot be read.
"""

from __future__ import annotations

import re
from decimal import InvalidOperation
from typing import Any

import tomli
from pokerkit import HandHistory
from pokerkit.utilities import parse_value

from .errors import EngineError

__all__ = ["histories", "loads"]

_MISSING = re.compile(r"argument: '(\w+)'")


def loads(text: str) -> dict[str, Any]:
    """The TOML table of a PHH text as pokerkit reads it: ``tomli`` with pokerkit's value parser
    (a decimal written ``0.50`` is ``Decimal("0.50")``, an integer an ``int``).

    Raises:
        tomli.TOMLDecodeError for text that is not TOML.
    """
    return tomli.loads(text, parse_float=parse_value)


def histories(text: str, several: bool) -> list[tuple[str | None, HandHistory | EngineError]]:
    """pokerkit's HandHistory of each hand in ``text``, or the EngineError
    saying why a hand could not be read. ``several``: a ``.phhs`` text,
    read table by table as ``HandHistory.loads_all`` does (the same value
    parser and field filter), so one bad hand does not stop the others."""
    if not several:
        try:
            return [(None, _one_history(lambda: _history_of(loads(text))))]
        except EngineError as exc:
            return [(None, exc)]
    try:
        tables = tomli.loads(text, parse_float=parse_value)
    except tomli.TOMLDecodeError as exc:
        return [(None, EngineError("bad_spec", f"Not a PHH/TOML text: {exc}"))]
    out: list[tuple[str | None, HandHistory | EngineError]] = []
    for key, table in tables.items():
        if not isinstance(table, dict):
            out.append((key, EngineError("bad_spec", "not a table of PHH fields")))
            continue
        try:
            out.append((key, _one_history(lambda t=table: HandHistory(**HandHistory._filter_non_fields(**t)))))
        except EngineError as exc:
            out.append((key, exc))
    return out


def _history_of(table: dict) -> HandHistory:
    """``HandHistory`` of one table of PHH fields, built as ``HandHistory.loads`` builds it."""
    return HandHistory(**HandHistory._filter_non_fields(**table))


def _one_history(read) -> HandHistory:
    try:
        return read()
    except tomli.TOMLDecodeError as exc:
        raise EngineError("bad_spec", f"Not a PHH/TOML text: {exc}") from None
    except TypeError as exc:  # a required field of the PHH standard is missing
        missing = _MISSING.search(str(exc))
        detail = f"PHH field {missing.group(1)!r} is missing" if missing else f"Not a PHH hand: {exc}"
        raise EngineError("bad_spec", f"{detail}.") from None
    except (ValueError, InvalidOperation) as exc:
        raise EngineError("bad_spec", f"Not a PHH hand: {exc}") from None
