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
"""

from __future__ import annotations

import re
import tomllib
from decimal import Decimal
from typing import Any

from pokerkit.utilities import parse_value

__all__ = ["loads", "loads_plain"]

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
