"""Checks of the values an action or a spec carries (standard library only, no engine
import: every engine module may use them)."""

from __future__ import annotations

from typing import Any, TypeGuard

__all__ = ["is_int"]


def is_int(value: Any) -> TypeGuard[int]:
    """``value`` is an int and not a bool (an amount of chips, a seat or an index in an action)."""
    return isinstance(value, int) and not isinstance(value, bool)
