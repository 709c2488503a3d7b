"""A fast reader for the plain TOML of most PHH files, with ``tomllib`` for the rest.

PHH files (github.com/uoftcprg/phh-std) are mostly one ``key = value`` per
line, the values strings, numbers, booleans and one-line arrays of those.
The standard library's ``tomllib`` is a general parser written in Python
and took three quarters of :func:`~poker.hand.phh.load_phh` on the PHH
corpus (about 0.4 ms of 0.55 ms per hand); this reader takes a line with
one regular expression and reads those files about ten times faster.

:func:`loads` gives exactly ``tomllib.loads(text, parse_float=parse_value)``
(pokerkit's value parser: a decimal written ``0.50`` is ``Decimal("0.50")``,
an integer an ``int``): any line outside the plain subset (a table header,
a value over several lines, an escape in a string, a date, a number with
``_`` or an exponent, a repeated key, a carriage return) hands the whole
text to ``tomllib``, so its errors and its results stay the reference
(checked in tests/poker/hand/test_phh_toml.py).

:func:`histories` turns a text into pokerkit ``HandHistory`` objects as
``HandHistory.loads`` / ``loads_all`` do, or the EngineError saying why a
hand cannot be read.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import MISSING, fields
from decimal import Decimal, InvalidOperation
from typing import Any

from pokerkit import HandHistory
from pokerkit.utilities import parse_value

from .errors import EngineError

__all__ = ["histories", "loads", "loads_plain"]

_MISSING = re.compile(r"argument: '(\w+)'")
_KEY = r"[A-Za-z0-9_-]+"
# TOML strings: no control character but the tab; a basic string without escapes
_LITERAL = r"'[^'\x00-\x08\x0a-\x1f\x7f]*'"
_BASIC = r'"[^"\\\x00-\x08\x0a-\x1f\x7f]*"'
_NUMBER = r"[+-]?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?"
_SCALAR = rf"(?:{_LITERAL}|{_BASIC}|{_NUMBER}|true|false)"
_ARRAY = rf"\[[ \t]*(?:{_SCALAR}[ \t]*,[ \t]*)*(?:{_SCALAR}[ \t]*,?[ \t]*)?\]"
_COMMENT = r"(?:#[^\x00-\x08\x0a-\x1f\x7f]*)?"
#: One line of the plain subset: ``key = value # comment``, a comment or blank.
_LINE = re.compile(rf"[ \t]*(?:({_KEY})[ \t]*=[ \t]*({_SCALAR}|{_ARRAY})[ \t]*)?{_COMMENT}")
#: The values of an array already checked by ``_LINE``, in order.
_ITEM = re.compile(rf"{_LITERAL}|{_BASIC}|{_NUMBER}|true|false")
# The two arrays of nearly every file, read without a Python call per item:
# literal strings only (``actions``, ``players``) and integers only (stacks).
_INTEGER = r"[+-]?(?:0|[1-9][0-9]*)"
_LITERAL_ARRAY = re.compile(rf"\[[ \t]*(?:{_LITERAL}[ \t]*,[ \t]*)*(?:{_LITERAL}[ \t]*,?[ \t]*)?\]")
_LITERAL_TEXT = re.compile(r"'([^']*)'")
_INTEGER_ARRAY = re.compile(rf"\[[ \t]*(?:{_INTEGER}[ \t]*,[ \t]*)*(?:{_INTEGER}[ \t]*,?[ \t]*)?\]")
_INTEGER_TEXT = re.compile(_INTEGER)


def _value(raw: str) -> Any:
    first = raw[0]
    if first == "'" or first == '"':
        return raw[1:-1]
    if raw == "true":
        return True
    if raw == "false":
        return False
    if "." in raw:
        value: int | Decimal = parse_value(raw)
        return value
    return int(raw)


def loads_plain(text: str) -> dict[str, Any] | None:
    """The table of ``text`` when every line is in the plain subset, else None."""
    if "\r" in text:
        return None
    table: dict[str, Any] = {}
    match_line = _LINE.fullmatch
    for line in text.split("\n"):
        match = match_line(line)
        if match is None:
            return None
        key, raw = match.groups()
        if key is None:
            continue
        if key in table:
            return None  # tomllib refuses a repeated key
        if raw[0] == "[":
            if _LITERAL_ARRAY.fullmatch(raw):
                table[key] = _LITERAL_TEXT.findall(raw)
            elif _INTEGER_ARRAY.fullmatch(raw):
                table[key] = list(map(int, _INTEGER_TEXT.findall(raw)))
            else:
                table[key] = [_value(item) for item in _ITEM.findall(raw)]
        else:
            table[key] = _value(raw)
    return table


def loads(text: str) -> dict[str, Any]:
    """``tomllib.loads(text, parse_float=pokerkit's parse_value)``, faster for plain PHH files.

    Raises:
        tomllib.TOMLDecodeError as ``tomllib`` does for text that is not TOML.
    """
    table = loads_plain(text)
    if table is None:
        table = tomllib.loads(text, parse_float=parse_value)
    return table


def histories(text: str, several: bool) -> list[tuple[str | None, HandHistory | EngineError]]:
    """pokerkit's HandHistory of each hand in ``text``, or the EngineError
    saying why a hand could not be read. ``several``: a ``.phhs`` text,
    read table by table as ``HandHistory.loads_all`` does (the same value
    parser and field filter), so one bad hand does not stop the others."""
    if not several:
        try:
            # HandHistory.loads with the faster TOML reader and field filter: the same table, the same object
            return [(None, _one_history(lambda: _history_of(loads(text))))]
        except EngineError as exc:
            return [(None, exc)]
    try:
        tables = tomllib.loads(text, parse_float=parse_value)
    except tomllib.TOMLDecodeError as exc:
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


_HH_FIELDS = fields(HandHistory)
_HH_NAMES = frozenset(f.name for f in _HH_FIELDS)
_HH_REQUIRED = frozenset(f.name for f in _HH_FIELDS if f.default is f.default_factory is MISSING)
_HH_DEFAULTS = {f.name: f.default for f in _HH_FIELDS if f.default is not MISSING}


def _history_of(table: dict) -> HandHistory:
    """``HandHistory(**HandHistory._filter_non_fields(**table))``, as ``HandHistory.loads`` builds it.

    A table with every required field and no field pokerkit would warn about
    gets the same object without pokerkit's per-call ``dataclasses.fields``
    and its 40-argument ``__init__`` (a plain dataclass without
    ``__post_init__``): about 27 us -> 4 us per hand, a tenth of :func:`~poker.hand.phh.load_phh`.
    """
    if "user_defined_fields" in table or not _HH_REQUIRED <= table.keys():
        return HandHistory(**HandHistory._filter_non_fields(**table))
    values = dict(_HH_DEFAULTS)
    user: dict[str, Any] = {}
    for key, value in table.items():
        if key in _HH_NAMES:
            values[key] = value
        elif key.startswith("_"):
            user[key] = value
        else:
            return HandHistory(**HandHistory._filter_non_fields(**table))  # pokerkit warns
    values["user_defined_fields"] = user
    history = object.__new__(HandHistory)
    history.__dict__.update(values)
    return history


def _one_history(read) -> HandHistory:
    try:
        return read()
    except tomllib.TOMLDecodeError as exc:
        raise EngineError("bad_spec", f"Not a PHH/TOML text: {exc}") from None
    except TypeError as exc:  # a required field of the PHH standard is missing
        missing = _MISSING.search(str(exc))
        detail = f"PHH field {missing.group(1)!r} is missing" if missing else f"Not a PHH hand: {exc}"
        raise EngineError("bad_spec", f"{detail}.") from None
    except (ValueError, InvalidOperation) as exc:
        raise EngineError("bad_spec", f"Not a PHH hand: {exc}") from None
