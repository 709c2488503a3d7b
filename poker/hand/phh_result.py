"""What a PHH replay reports (:class:`ReplayResult`, shared by the Hold'em
and Omaha reader :mod:`.phh` and the stud reader :mod:`.phh_stud`) and the
values pokerkit's TOML writer takes (:func:`plain`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .state import HandState

__all__ = ["ReplayResult", "finishing_mismatch", "plain"]

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


@dataclass(frozen=True)
class ReplayResult:
    """Outcome of :func:`replay`.

    Fields:
        ok: True when every action applied as recorded, the hand completed,
            and the final stacks equal ``expected`` (when recorded).
        expected: the recorded ``finishing_stacks`` or None.
        actual: our final stacks (None if the hand did not complete).
        error: None, or an English description of the first problem
            ("mismatch: ...", "<code>: <message> at action k ...",
            "incomplete: ...").
        error_code: EngineError code, ``"mismatch"``, ``"incomplete"`` or None.
        state: the last state reached.
        repairs: actions inserted by ``replay(..., repair=True)`` as PHH
            strings (e.g. ``("p8 f",)``); a repaired replay is never ok.
        checked: what the result was compared with: ``"finishing_stacks"``
            and/or ``"winnings"`` (chips collected from the pots per
            position, our awards summed).
        unchecked: English notes on what the record did not let us check
            (no recorded result; pots awarded from the recorded winnings
            because the contenders' hole cards are unknown).
    """

    ok: bool
    expected: tuple[int, ...] | None
    actual: tuple[int, ...] | None
    error: str | None = None
    error_code: str | None = None
    state: HandState | None = None
    repairs: tuple[str, ...] = ()
    checked: tuple[str, ...] = ()
    unchecked: tuple[str, ...] = ()

    @classmethod
    def matched(
        cls,
        expected: tuple[int, ...] | None,
        actual: tuple[int, ...],
        state: HandState,
        checked: tuple[str, ...],
        unchecked: tuple[str, ...],
    ) -> ReplayResult:
        """``ReplayResult(True, expected, actual, None, None, state, (), checked, unchecked)``: a
        replay that went as recorded, made without the frozen ``__init__``'s ``object.__setattr__``
        per field (every replayed hand makes one)."""
        result = object.__new__(cls)
        result.__dict__.update(
            ok=True,
            expected=expected,
            actual=actual,
            error=None,
            error_code=None,
            state=state,
            repairs=(),
            checked=checked,
            unchecked=unchecked,
        )
        return result


def finishing_mismatch(
    expected: tuple[int, ...] | None,
    actual: tuple[int, ...],
    state: HandState,
    repairs: tuple[str, ...],
    checked: list[str],
    unchecked: list[str],
) -> ReplayResult | None:
    """Compare the replay's final stacks ``actual`` with the recorded ``expected`` (when
    recorded: ``"finishing_stacks"`` goes into ``checked``); the failed :class:`ReplayResult`
    ("mismatch") when they differ, else None."""
    if expected is None:
        return None
    checked.append("finishing_stacks")
    if tuple(expected) == actual:
        return None
    return ReplayResult(
        False,
        expected,
        actual,
        f"mismatch: finishing_stacks {list(expected)} but the replay gives {list(actual)}",
        "mismatch",
        state,
        repairs,
        tuple(checked),
        tuple(unchecked),
    )


def plain(value: Any) -> Any:
    """Tuples as lists (all the way down), for pokerkit's TOML writer; in
    strings a control character (a line break) becomes a space and ``'''``
    becomes ``''``: the writer puts strings in TOML literal quotes, which
    hold neither."""
    if isinstance(value, str):
        return _CONTROL.sub(" ", value).replace("'''", "''")
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value
