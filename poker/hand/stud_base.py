"""Seven Card Stud: the fields of a hand state, its helpers and the split of a pot.

Part of :class:`~poker.hand.stud.StudState` (the base class of its parts:
:mod:`.stud_showdown` and :mod:`.stud`). Sources: 000 Allgemein 8 (the odd
chip to the highest card by suit, pots split down to the ante), 000
Aktionen 3 (split limit, the cap lifted with two players left).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Self

from .core import CoreState
from .stud_spec import StudSpec

__all__ = ["StudFields", "StudLegal", "split_stud"]


class StudLegal(NamedTuple):
    """What the player to act may do.

    Fields:
        seat, position: the player to act.
        can_fold: False only while the bring-in is due.
        can_check: True when there is nothing to call.
        call_amount: chips to call (0 = check), None while the bring-in is due.
        bring_in: chips of the bring-in when it is due (the player brings in
            or completes), else None.
        min_raise_to / max_raise_to: the completion, bet or raise "to"
            amounts (fixed limit: equal, except with an open pair on fourth
            street, 000 Aktionen 3: the small or the big bet), None when no
            raise is allowed.
        can_bet_or_raise: whether a completion, bet or raise is allowed.
        raise_blocked_by: the EngineError code a raise would get, else None.
    """

    seat: int
    position: int
    can_fold: bool
    can_check: bool
    call_amount: int | None
    bring_in: int | None
    min_raise_to: int | None
    max_raise_to: int | None
    can_bet_or_raise: bool
    raise_blocked_by: str | None = None

    def to_dict(self) -> dict:
        """The fields by name, JSON-serialisable (``bring_in`` and ``call_amount`` None when not due)."""
        return dict(zip(self._fields, self))


def split_stud(amount: int, winners: Sequence[int], unit: int, first: int | None = None) -> list[tuple[int, int]]:
    """Split a pot between winners.

    Args:
        amount: chips in the pot; winners: positions; unit: the pot is split
            down to this many chips (000 Allgemein 8).
        first: the winner who gets the odd units (000 Allgemein 8: the
            highest card by suit); default the first winner in deal order.

    Returns:
        ``[(position, chips), ...]`` in position order.
    """
    ordered = sorted(winners)
    lucky = ordered[0] if first is None else first
    units, rest = divmod(amount, unit)
    share, odd = divmod(units, len(ordered))
    return [(p, share * unit + ((odd * unit + rest) if p == lucky else 0)) for p in ordered]


class StudFields(CoreState):
    """The fields of a stud hand state on top of :class:`~.core.CoreState`: the down and up
    cards, the community card, the bring-in and completion, the open pair (positions index
    ``spec.seats``; chips are ints)."""

    __slots__ = (
        "_down",
        "_up",
        "_community",
        "_cards_out",
        "_bring_in_due",
        "_completion",
        "_short_allins",
        "_open_pair",
        "_opener",
    )

    spec: StudSpec
    _down: tuple[tuple[str, ...], ...]
    _up: tuple[tuple[str, ...], ...]
    _community: tuple[str, ...]
    _cards_out: int
    _bring_in_due: bool
    _completion: bool
    _short_allins: tuple[int, ...]
    _open_pair: bool
    _opener: int | None

    def _copy(self) -> Self:
        new = object.__new__(type(self))
        for name in _ALL_SLOTS:
            object.__setattr__(new, name, getattr(self, name))
        return new

    def _on_fold(self) -> None:
        """A fold or a dead hand may leave two players: the cap is lifted (:meth:`_lift_cap`)."""
        self._uncapped = self._lift_cap()

    def _lift_cap(self) -> bool:
        """000 Aktionen 3: with only two players left before the cap is
        reached, the raises are no longer limited."""
        rules = self.spec.rules
        cap = self.spec.raise_cap
        return (
            self._uncapped
            or rules.limit_cap_lifted_heads_up
            and cap is not None
            and self._raises < cap
            and self._folded.count(False) == 2
        )


#: Every field of a stud hand state: the shared ones and the stud ones (:meth:`StudFields._copy`).
_ALL_SLOTS = CoreState.__slots__ + StudFields.__slots__
