"""One method per action, pokerkit style: ``state.fold(seat)``,
``state.can_fold(seat)``, ``state.verify_fold(seat)`` ...

Part of :class:`~poker.hand.state.HandState` (a mixin): each helper builds
the action dict and calls :meth:`HandState.apply`, :meth:`HandState.verify` or
:meth:`HandState.can` (which check a betting action without building the next state).
"""

from __future__ import annotations

from typing import Self

from .errors import EngineError
from .fields import HandFields

__all__ = ["ActionHelpers"]


class ActionHelpers(HandFields):
    """Per-action helpers of :class:`~poker.hand.state.HandState`."""

    __slots__ = ()

    def fold(self, seat: int) -> Self:
        """Fold for ``seat``; returns the new state."""
        return self.apply({"type": "fold", "seat": seat})

    def check(self, seat: int) -> Self:
        """Check for ``seat``; returns the new state."""
        return self.apply({"type": "check", "seat": seat})

    def call(self, seat: int) -> Self:
        """Call for ``seat`` (all-in for less if short); returns the new state."""
        return self.apply({"type": "call", "seat": seat})

    def bet_or_raise(self, seat: int, to: int) -> Self:
        """Bet or raise ``seat`` to ``to`` chips in front on this street."""
        return self.apply({"type": "raise", "seat": seat, "to": to})

    def go_all_in(self, seat: int) -> Self:
        """Bet, raise or call with the whole stack of ``seat``.

        Also reachable as ``state.all_in(seat)`` (see :attr:`all_in`)."""
        return self.apply({"type": "all_in", "seat": seat})

    def deal_hole(self, seat: int, cards: str) -> Self:
        """Enter the hole cards of ``seat`` (e.g. ``"AsKs"``, ``"????"``)."""
        return self.apply({"type": "hole", "seat": seat, "cards": cards})

    def deal_board(self, cards: str = "") -> Self:
        """Deal the next street's board cards (``""`` = not entered)."""
        return self.apply({"type": "board", "cards": cards})

    def show(self, seat: int, cards: str | None = None) -> Self:
        """``seat`` shows its hand (cards optional when already entered)."""
        action = {"type": "show", "seat": seat}
        if cards is not None:
            action["cards"] = cards
        return self.apply(action)

    def muck(self, seat: int) -> Self:
        """``seat`` mucks at the showdown and gives up its claim to the pots."""
        return self.apply({"type": "muck", "seat": seat})

    def award(self, pot: int, winners: list[int]) -> Self:
        """Award pot ``pot`` to the table seats ``winners`` (split equally)."""
        return self.apply({"type": "award", "pot": pot, "winners": list(winners)})

    def run_it_twice(self, agreed: list[int], pots: list[int] | None = None, floor: bool = False) -> Self:
        """The players ``agreed`` (seats) run the rest of the board twice for
        ``pots`` (default all; 000 Aktionen 8); see :func:`~poker.hand.formats.check_run_it_twice`."""
        action = {"type": "run_it_twice", "agreed": list(agreed), "floor": floor}
        if pots is not None:
            action["pots"] = list(pots)
        return self.apply(action)

    def verify_fold(self, seat: int) -> None:
        """Raise EngineError unless ``seat`` may fold now."""
        self.verify({"type": "fold", "seat": seat})

    def can_fold(self, seat: int) -> bool:
        """Whether ``seat`` may fold now."""
        return self.can({"type": "fold", "seat": seat})

    def verify_check(self, seat: int) -> None:
        """Raise EngineError unless ``seat`` may check now."""
        self.verify({"type": "check", "seat": seat})

    def can_check(self, seat: int) -> bool:
        """Whether ``seat`` may check now."""
        return self.can({"type": "check", "seat": seat})

    def verify_call(self, seat: int) -> None:
        """Raise EngineError unless ``seat`` may call now."""
        self.verify({"type": "call", "seat": seat})

    def can_call(self, seat: int) -> bool:
        """Whether ``seat`` may call now."""
        return self.can({"type": "call", "seat": seat})

    def verify_bet_or_raise(self, seat: int, to: int) -> None:
        """Raise EngineError unless ``seat`` may bet/raise to ``to`` now."""
        self.verify({"type": "raise", "seat": seat, "to": to})

    def can_bet_or_raise(self, seat: int, to: int) -> bool:
        """Whether ``seat`` may bet/raise to ``to`` now."""
        return self.can({"type": "raise", "seat": seat, "to": to})

    def verify_all_in(self, seat: int) -> None:
        """Raise EngineError unless ``seat`` may go all-in now."""
        self.verify({"type": "all_in", "seat": seat})

    def can_all_in(self, seat: int) -> bool:
        """Whether ``seat`` may go all-in now."""
        return self.can({"type": "all_in", "seat": seat})

    def verify_deal_board(self, cards: str = "") -> None:
        """Raise EngineError unless these board cards may be dealt now."""
        self.verify({"type": "board", "cards": cards})

    def can_deal_board(self, cards: str = "") -> bool:
        """Whether these board cards may be dealt now."""
        return self.can({"type": "board", "cards": cards})

    def verify_run_it_twice(self, agreed: list[int], pots: list[int] | None = None, floor: bool = False) -> None:
        """Raise EngineError unless the hand may be run twice now."""
        self.run_it_twice(agreed, pots, floor)

    def can_run_it_twice(self, agreed: list[int], pots: list[int] | None = None, floor: bool = False) -> bool:
        """Whether the hand may be run twice now."""
        try:
            self.run_it_twice(agreed, pots, floor)
        except EngineError:
            return False
        return True

    def verify_show(self, seat: int, cards: str | None = None) -> None:
        """Raise EngineError unless ``seat`` may show now."""
        self.show(seat, cards)

    def can_show(self, seat: int, cards: str | None = None) -> bool:
        """Whether ``seat`` may show now."""
        try:
            self.show(seat, cards)
        except EngineError:
            return False
        return True

    def verify_muck(self, seat: int) -> None:
        """Raise EngineError unless ``seat`` may muck now."""
        self.verify({"type": "muck", "seat": seat})

    def can_muck(self, seat: int) -> bool:
        """Whether ``seat`` may muck now."""
        return self.can({"type": "muck", "seat": seat})

    def verify_award(self, pot: int, winners: list[int]) -> None:
        """Raise EngineError unless this award is allowed now."""
        self.verify({"type": "award", "pot": pot, "winners": list(winners)})

    def can_award(self, pot: int, winners: list[int]) -> bool:
        """Whether this award is allowed now."""
        return self.can({"type": "award", "pot": pot, "winners": list(winners)})
