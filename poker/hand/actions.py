"""One method per action, pokerkit style: ``state.fold(seat)``,
``state.can_fold(seat)``, ``state.verify_fold(seat)`` ...

Part of :class:`~poker.hand.state.HandState` (a mixin): each helper builds
the action's record (:mod:`.records`) and calls :meth:`HandState.apply`,
:meth:`HandState.verify` or :meth:`HandState.can` (which run the action's
check alone and build no next state). Seats are table seat numbers, chips ints;
the errors are the EngineError codes of the action's check.
"""

from __future__ import annotations

from typing import Self

from .fields import HandFields
from .records import AllIn, AwardPot, Board, Call, Check, Fold, Hole, Muck, Raise, RunItTwice, Show

__all__ = ["ActionHelpers"]


class ActionHelpers(HandFields):
    """Per-action helpers of :class:`~poker.hand.state.HandState`."""

    __slots__ = ()

    def fold(self, seat: int) -> Self:
        """Fold for ``seat``; returns the new state."""
        return self.apply(Fold(seat))

    def check(self, seat: int) -> Self:
        """Check for ``seat``; returns the new state."""
        return self.apply(Check(seat))

    def call(self, seat: int) -> Self:
        """Call for ``seat`` (all-in for less if short); returns the new state."""
        return self.apply(Call(seat))

    def bet_or_raise(self, seat: int, to: int) -> Self:
        """Bet or raise ``seat`` to ``to`` chips in front on this street."""
        return self.apply(Raise(seat, to))

    def go_all_in(self, seat: int) -> Self:
        """Bet, raise or call with the whole stack of ``seat``.

        Also reachable as ``state.all_in(seat)`` (see :attr:`all_in`)."""
        return self.apply(AllIn(seat))

    def deal_hole(self, seat: int, cards: str) -> Self:
        """Enter the hole cards of ``seat`` (e.g. ``"AsKs"``, ``"????"``)."""
        return self.apply(Hole(seat, cards))

    def deal_board(self, cards: str = "") -> Self:
        """Deal the next street's board cards (``""`` = not entered)."""
        return self.apply(Board(cards))

    def show(self, seat: int, cards: str | None = None) -> Self:
        """``seat`` shows its hand (cards optional when already entered)."""
        return self.apply(Show(seat, cards))

    def muck(self, seat: int) -> Self:
        """``seat`` mucks at the showdown and gives up its claim to the pots."""
        return self.apply(Muck(seat))

    def award(self, pot: int, winners: list[int]) -> Self:
        """Award pot ``pot`` to the table seats ``winners`` (split equally)."""
        return self.apply(AwardPot(pot, tuple(winners)))

    def run_it_twice(self, agreed: list[int], pots: list[int] | None = None, floor: bool = False) -> Self:
        """The players ``agreed`` (seats) run the rest of the board twice for
        ``pots`` (default all; 000 Aktionen 8); see :func:`~poker.hand.formats.check_run_it_twice`."""
        return self.apply(_run_it_twice(agreed, pots, floor))

    def verify_fold(self, seat: int) -> None:
        """Raise EngineError unless ``seat`` may fold now."""
        self.verify(Fold(seat))

    def can_fold(self, seat: int) -> bool:
        """Whether ``seat`` may fold now."""
        return self.can(Fold(seat))

    def verify_check(self, seat: int) -> None:
        """Raise EngineError unless ``seat`` may check now."""
        self.verify(Check(seat))

    def can_check(self, seat: int) -> bool:
        """Whether ``seat`` may check now."""
        return self.can(Check(seat))

    def verify_call(self, seat: int) -> None:
        """Raise EngineError unless ``seat`` may call now."""
        self.verify(Call(seat))

    def can_call(self, seat: int) -> bool:
        """Whether ``seat`` may call now."""
        return self.can(Call(seat))

    def verify_bet_or_raise(self, seat: int, to: int) -> None:
        """Raise EngineError unless ``seat`` may bet/raise to ``to`` now."""
        self.verify(Raise(seat, to))

    def can_bet_or_raise(self, seat: int, to: int) -> bool:
        """Whether ``seat`` may bet/raise to ``to`` now."""
        return self.can(Raise(seat, to))

    def verify_all_in(self, seat: int) -> None:
        """Raise EngineError unless ``seat`` may go all-in now."""
        self.verify(AllIn(seat))

    def can_all_in(self, seat: int) -> bool:
        """Whether ``seat`` may go all-in now."""
        return self.can(AllIn(seat))

    def verify_deal_board(self, cards: str = "") -> None:
        """Raise EngineError unless these board cards may be dealt now."""
        self.verify(Board(cards))

    def can_deal_board(self, cards: str = "") -> bool:
        """Whether these board cards may be dealt now."""
        return self.can(Board(cards))

    def verify_run_it_twice(self, agreed: list[int], pots: list[int] | None = None, floor: bool = False) -> None:
        """Raise EngineError unless the hand may be run twice now."""
        self.verify(_run_it_twice(agreed, pots, floor))

    def can_run_it_twice(self, agreed: list[int], pots: list[int] | None = None, floor: bool = False) -> bool:
        """Whether the hand may be run twice now."""
        return self.can(_run_it_twice(agreed, pots, floor))

    def verify_show(self, seat: int, cards: str | None = None) -> None:
        """Raise EngineError unless ``seat`` may show now."""
        self.verify(Show(seat, cards))

    def can_show(self, seat: int, cards: str | None = None) -> bool:
        """Whether ``seat`` may show now."""
        return self.can(Show(seat, cards))

    def verify_muck(self, seat: int) -> None:
        """Raise EngineError unless ``seat`` may muck now."""
        self.verify(Muck(seat))

    def can_muck(self, seat: int) -> bool:
        """Whether ``seat`` may muck now."""
        return self.can(Muck(seat))

    def verify_award(self, pot: int, winners: list[int]) -> None:
        """Raise EngineError unless this award is allowed now."""
        self.verify(AwardPot(pot, tuple(winners)))

    def can_award(self, pot: int, winners: list[int]) -> bool:
        """Whether this award is allowed now."""
        return self.can(AwardPot(pot, tuple(winners)))


def _run_it_twice(agreed: list[int], pots: list[int] | None, floor: bool) -> RunItTwice:
    return RunItTwice(tuple(agreed), None if pots is None else tuple(pots), bool(floor))
