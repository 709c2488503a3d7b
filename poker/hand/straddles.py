"""Straddles agreed before the deal (000 Aktionen 1 "Straddle").

Standard library only. :func:`plan_straddles` turns the players' requests
into the amounts of ``HandSpec.blinds_or_straddles``; the hand itself then
treats a straddle as a blind (the state machine never looks at the kind).

Rulebook 000 Aktionen 1: live straddle(s) after the big blind, each double
the previous blind; button straddle (action starts left of the button);
Mississippi straddle (any position, action starts left of it); "Das Live
Straddle hat immer Vorrang gegenüber anderen Straddle Varianten".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .errors import EngineError
from .rules import Rules

__all__ = ["Straddle", "StraddlePlan", "STRADDLE_KINDS", "plan_straddles", "verify_straddles", "can_straddles"]

#: Straddle kinds of 000 Aktionen 1.
STRADDLE_KINDS = ("live", "button", "mississippi")


class Straddle(NamedTuple):
    """A player's request to straddle (000 Aktionen 1).

    Fields:
        kind: ``"live"`` (under the gun, and re-straddles by the next
            players, each double the previous), ``"button"`` (the button;
            action starts left of the button) or ``"mississippi"`` (any
            position after under the gun; action starts left of it).
        seat: table seat number of the straddler.
        amount: chips; default double the big blind (live re-straddles:
            double the previous straddle). Another amount is refused.
    """

    kind: str
    seat: int
    amount: int | None = None


class StraddlePlan(NamedTuple):
    """Result of :func:`plan_straddles`.

    Fields:
        amounts: ``{position: chips}`` to put into ``blinds_or_straddles``.
        applied: ``((kind, seat, amount), ...)`` in position order.
        dropped: ``((Straddle, reason), ...)`` requests set aside because a
            live straddle takes precedence (000 Aktionen 1).
    """

    amounts: dict
    applied: tuple
    dropped: tuple


def plan_straddles(
    seats: Sequence[int],
    big_blind: int,
    requests: Sequence,
    rules: Rules,
) -> StraddlePlan:
    """Decide which straddles are posted.

    Args:
        seats: table seat numbers in POSITION order (small blind first,
            button last), as in ``HandSpec.seats``.
        big_blind: the big blind (chips).
        requests: :class:`Straddle` (or ``(kind, seat[, amount])``) items.
        rules: the house rules (``Rules.max_straddles``).

    Returns:
        :class:`StraddlePlan`. A live straddle takes precedence: when any
        live straddle is requested, button and Mississippi requests are
        dropped (000 Aktionen 1).

    Raises:
        EngineError("bad_straddle") for fewer than three players, an
        unknown kind or seat, a seat straddling twice, live straddles that
        do not start under the gun and follow each other clockwise, a
        button straddle not on the button (or with three players, where the
        button is under the gun: that is a live straddle), a Mississippi
        straddle in the blinds or under the gun, two button/Mississippi
        straddles, an amount that is not double the previous blind, or more
        straddles than ``rules.max_straddles``.
    """
    n = len(seats)
    parsed = [r if isinstance(r, Straddle) else Straddle(*r) for r in requests]
    if not parsed:
        return StraddlePlan({}, (), ())
    if n < 3:
        raise EngineError("bad_straddle", "A straddle needs at least three players (000 Aktionen 1).")
    position = {seat: i for i, seat in enumerate(seats)}
    seen = set()
    for r in parsed:
        if r.kind not in STRADDLE_KINDS:
            raise EngineError(
                "bad_straddle", f"Straddle kind must be one of {', '.join(STRADDLE_KINDS)}, not {r.kind!r}."
            )
        if r.seat not in position:
            raise EngineError("bad_straddle", f"No player dealt in at seat {r.seat!r}.")
        if r.seat in seen:
            raise EngineError("bad_straddle", f"Seat {r.seat} can straddle only once.")
        seen.add(r.seat)
    live = sorted((r for r in parsed if r.kind == "live"), key=lambda r: position[r.seat])
    others = [r for r in parsed if r.kind != "live"]
    dropped: tuple = ()
    if live and others:
        dropped = tuple((r, "A live straddle takes precedence (000 Aktionen 1).") for r in others)
        others = []
    amounts: dict[int, int] = {}
    applied = []
    previous = big_blind
    for k, r in enumerate(live):
        if position[r.seat] != 2 + k:
            raise EngineError(
                "bad_straddle",
                f"Seat {r.seat}: live straddles start under the gun (seat {seats[2]}) and go clockwise "
                "(000 Aktionen 1).",
            )
        amount = 2 * previous if r.amount is None else r.amount
        if amount != 2 * previous:
            raise EngineError(
                "bad_straddle", f"Seat {r.seat}: the straddle is double the previous blind, {2 * previous}."
            )
        amounts[position[r.seat]] = amount
        applied.append(("live", r.seat, amount))
        previous = amount
    if len(others) > 1:
        raise EngineError("bad_straddle", "Only one button or Mississippi straddle per hand.")
    for r in others:
        pos = position[r.seat]
        if r.kind == "button" and (pos != n - 1 or n < 4):
            raise EngineError(
                "bad_straddle",
                f"Seat {r.seat}: a button straddle is posted by the button, with at least four players "
                "(three-handed the button is under the gun: a live straddle).",
            )
        if r.kind == "mississippi" and pos < 3:
            raise EngineError(
                "bad_straddle",
                f"Seat {r.seat}: a Mississippi straddle is posted after under the gun "
                "(under the gun it is a live straddle; the blinds cannot straddle).",
            )
        amount = 2 * big_blind if r.amount is None else r.amount
        if amount != 2 * big_blind:
            raise EngineError("bad_straddle", f"Seat {r.seat}: the straddle is double the big blind, {2 * big_blind}.")
        amounts[pos] = amount
        applied.append((r.kind, r.seat, amount))
    if rules.max_straddles is not None and len(applied) > rules.max_straddles:
        raise EngineError("bad_straddle", f"At most {rules.max_straddles} straddle(s) allowed by the house rules.")
    applied.sort(key=lambda a: position[a[1]])
    return StraddlePlan(amounts, tuple(applied), dropped)


def verify_straddles(seats: Sequence[int], big_blind: int, requests: Sequence, rules: Rules) -> None:
    """Raise EngineError("bad_straddle") unless :func:`plan_straddles` accepts
    ``requests``; dropped requests (live precedence) are not an error."""
    plan_straddles(seats, big_blind, requests, rules)


def can_straddles(seats: Sequence[int], big_blind: int, requests: Sequence, rules: Rules) -> bool:
    """Whether :func:`plan_straddles` accepts ``requests``."""
    try:
        plan_straddles(seats, big_blind, requests, rules)
    except EngineError:
        return False
    return True
